"""Every rule of SPEC §1, one at a time, through the pure core."""
import pytest

from scorer.contract import score_request
from scorer.planet import Planet, planet_from_take_order
from scorer.rules import (
    contents_of_counts, contents_of_planet, score_character, score_contents, score_table,
)

BRUNO = {"characters": ["hunter", "gardener", "businessman_white", "king"], "fox": 1, "elephant": 1,
         "snake": 1, "sheep_white": 6, "baobab": 2, "rose": 2, "volcano": 6}
ANTOINE = {"characters": ["geographer", "drunkard", "little_prince", "businessman_brown"], "face_down": 3,
           "volcano": 3, "sheep_white": 1, "sheep_grey": 1, "sheep_brown": 2, "box": 4}


def points(character, face_down=0, **items):
    return score_character(character, contents_of_counts([character], items, face_down))[0]


def test_rulebook_example_exactly():
    result = score_request({"players": [{"name": "Bruno", "counts": BRUNO}, {"name": "Antoine", "counts": ANTOINE}]})
    bruno, antoine = result["players"]
    assert [c["points"] for c in bruno["characters"]] == [12, 14, 12, 7]
    assert (bruno["subtotal"], bruno["volcanoes"], bruno["penalty"], bruno["total"]) == (45, 6, -6, 39)
    assert [c["points"] for c in antoine["characters"]] == [9, 9, 13, 10]
    assert (antoine["subtotal"], antoine["penalty"], antoine["total"]) == (41, 0, 41)
    assert result["winners"] == ["Antoine"] and not result["shared_victory"]
    assert (antoine["rank"], bruno["rank"]) == (1, 2)
    assert "Bruno has the most volcanoes (6)" in result["penalty_explained"]


@pytest.mark.parametrize("roses,expected", [(0, 0), (1, 14), (2, 7), (3, 0), (5, 0)])
def test_king(roses, expected):
    assert points("king", rose=roses) == expected


def test_hunter_counts_species_and_any_sheep_colour():
    assert points("hunter") == 0
    assert points("hunter", sheep_grey=1) == 3
    assert points("hunter", sheep_grey=4, sheep_white=2) == 3
    assert points("hunter", fox=3, elephant=1, snake=2, sheep_brown=1) == 12


def test_per_item_characters():
    assert points("vain_man", snake=3) == 12
    assert points("astronomer", sunset=4) == 8
    assert points("lamplighter", lamppost=7) == 7
    assert points("businessman_white", sheep_white=6, sheep_brown=3) == 12
    assert points("businessman_grey", sheep_grey=3) == 9
    assert points("businessman_brown", sheep_brown=2) == 10
    assert points("turkish_astronomer", star=5) == 5
    assert points("little_prince", sheep_white=1, sheep_grey=2, sheep_brown=1, box=4) == 13
    assert points("little_prince", box=2) == 2


@pytest.mark.parametrize("face_down,expected", [(0, 0), (3, 9), (6, 18)])
def test_drunkard(face_down, expected):
    assert points("drunkard", face_down=face_down) == expected


def test_geographer_counts_face_down_tiles_as_without_volcano():
    # C01 C02 C03 are baobab tiles: taken in that order they turn face down.
    planet, flips = planet_from_take_order(["C04", "C01", "C02", "C03", "K03"])
    assert flips == [(6, 9, 10)]
    c = contents_of_planet(planet)
    assert c.face_down == 3
    assert score_character("geographer", c)[0] == 3  # 3 face-down, C04 has a volcano, K03 is not counted
    assert points("geographer", volcano=4) == 8


def test_gardener_after_a_flip():
    # Two baobabs: 14. A third turns all three face down: 0. Three more after that flip again.
    two, _ = planet_from_take_order(["K16", "U01", "D01"])
    assert score_contents(contents_of_planet(two)).subtotal == 14
    three, flips = planet_from_take_order(["K16", "U01", "D01", "C01"])
    assert len(flips) == 1 and score_contents(contents_of_planet(three)).subtotal == 0
    four, flips = planet_from_take_order(["K16", "U01", "D01", "C01", "U02"])
    assert score_contents(contents_of_planet(four)).subtotal == 7


def test_turkish_astronomer_counts_stars_on_character_tiles():
    planet, _ = planet_from_take_order(["K18", "K07", "U11"])  # 1 + 2 stars on characters, 2 on U11
    c = contents_of_planet(planet)
    assert score_character("turkish_astronomer", c)[0] == 5


def test_flips_at_third_and_sixth_baobab_hide_everything_on_those_tiles():
    # U03: baobab, rose, star. U05: baobab, star, brown sheep. D02: baobab, sunset, snake.
    order = ["K18", "U03", "U05", "C04", "D02"]
    planet, flips = planet_from_take_order(order)
    assert len(flips) == 1 and sorted(flips[0]) == sorted([1, 7, 2])
    c = contents_of_planet(planet)
    assert c.n("star") == 1  # only the Turkish Astronomer's own
    assert c.n("rose") == 0 and c.n("sunset") == 0 and c.n("snake") == 0 and c.n("baobab") == 0
    assert c.volcanoes == 1 and c.face_down == 3
    six = ["U01", "U02", "U03", "D01", "D02", "D03"]
    planet, flips = planet_from_take_order(six)
    assert len(flips) == 2 and contents_of_planet(planet).face_down == 6
    # A volcano on a flipped tile does not count either: no baobab tile carries one, so check
    # through the grid: face-down cells carry nothing.
    grid = planet.as_grid()
    assert sum(cell == "back" for row in grid["cells"] for cell in row) == 6


def test_flipped_tiles_volcanoes_and_stars_do_not_count():
    planet = Planet()
    planet, _ = planet.place("U06")  # volcano, 2 lampposts, star
    c = contents_of_planet(planet)
    assert c.volcanoes == 1 and c.n("star") == 1
    from scorer.planet import Cell
    flipped = Planet(tuple(Cell(x.tile, True) if x else None for x in planet.cells))
    c = contents_of_planet(flipped)
    assert c.volcanoes == 0 and c.n("star") == 0 and c.n("lamppost") == 0 and c.no_volcano_tiles == 1


def _line(name, subtotal, volcanoes):
    from scorer.rules import PlanetScore
    return name, PlanetScore((), subtotal, volcanoes, 0, True)


def test_penalty_for_every_tied_leader():
    lines = score_table([_line("A", 30, 4), _line("B", 30, 4), _line("C", 20, 2)])
    assert [l.penalty for l in lines] == [-4, -4, 0]
    assert [l.total for l in lines] == [26, 26, 20]
    assert [l.rank for l in lines] == [1, 1, 3]
    assert [l.winner for l in lines] == [True, True, False]


def test_no_volcanoes_no_penalty():
    lines = score_table([_line("A", 10, 0), _line("B", 12, 0)])
    assert [l.penalty for l in lines] == [0, 0]
    assert [l.rank for l in lines] == [2, 1]


def test_tie_break_on_fewer_volcanoes_then_shared_victory():
    lines = score_table([_line("A", 30, 1), _line("B", 30, 2), _line("C", 34, 5), _line("D", 25, 0)])
    # C loses 5 → 29. A and B tie on 30; A has fewer volcanoes.
    assert [l.total for l in lines] == [30, 30, 29, 25]
    assert [l.rank for l in lines] == [1, 2, 3, 4]
    assert [l.winner for l in lines] == [True, False, False, False]
    lines = score_table([_line("A", 30, 1), _line("B", 30, 1), _line("C", 28, 2), _line("D", 28, 2), _line("E", 1, 3)])
    assert [l.rank for l in lines] == [1, 1, 3, 3, 5]
    result = score_request({"players": [
        {"name": "A", "counts": {"characters": ["king"], "rose": 1}},
        {"name": "B", "counts": {"characters": ["king"], "rose": 1}},
    ]})
    assert result["shared_victory"] and result["winners"] == ["A", "B"]
    assert "share the victory" in result["tie_break_explained"]


def test_reasons_read_well_and_name_positions():
    planet, _ = planet_from_take_order(["K10", "C02", "C17", "C08"])  # fox, sheep, elephant, snake
    c = contents_of_planet(planet)
    pts, detail, counted = score_character("hunter", c)
    assert pts == 12
    assert detail == "Hunter — fox, elephant, snake and sheep: 4 species × 3 = 12"
    assert set(counted) == {5, 6, 9}


def test_explanations_use_singulars_and_a_real_minus_sign():
    from scorer.rules import penalty_words, tie_break_words
    lines = score_table([_line("A", 0, 1), _line("B", 0, 1)])
    assert tie_break_words(lines) == "A and B share the victory: −1 point and 1 volcano each."
    assert penalty_words(lines) == "A and B tie for the most volcanoes (1) and each lose 1 point."
    lines = score_table([_line("A", 1, 0), _line("B", 0, 0)])
    assert tie_break_words(lines) == "A wins with 1 point."
