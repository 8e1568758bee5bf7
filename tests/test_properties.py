"""Property tests over random legal planets from the catalog: the three inputs agree, every
character stays within its bounds, and whole tables match an independent reading of the rules."""
from collections import Counter

from hypothesis import HealthCheck, given, settings, strategies as st

import independent_rules as ref
from scorer.catalog import STACKS, catalog
from scorer.contract import score_request
from scorer.planet import planet_from_take_order
from scorer.rules import contents_of_planet

CAT = catalog()
BY_STACK = {s: [t.id for t in CAT.stack(s)] for s in STACKS}
BOUNDS = {
    "vain_man": range(0, 4 * CAT.most_on_planet("snake") + 1), "geographer": range(0, 13),
    "astronomer": range(0, 2 * CAT.most_on_planet("sunset") + 1), "king": {0, 7, 14},
    "lamplighter": range(0, CAT.most_on_planet("lamppost") + 1), "hunter": {0, 3, 6, 9, 12},
    "drunkard": {0, 9, 18, 27}, "businessman_white": range(0, 2 * CAT.most_on_planet("sheep_white") + 1),
    "businessman_grey": range(0, 3 * CAT.most_on_planet("sheep_grey") + 1),
    "businessman_brown": range(0, 5 * CAT.most_on_planet("sheep_brown") + 1), "gardener": {0, 7, 14},
    "turkish_astronomer": range(0, CAT.most_on_planet("star") + 1), "little_prince": range(0, 9 + CAT.most_on_planet("box") + 1),
}


@st.composite
def take_orders(draw, players=1):
    """``players`` finished planets with disjoint tiles, each as tiles in the order taken."""
    hands = [[] for _ in range(players)]
    for stack in STACKS:
        chosen = draw(st.permutations(BY_STACK[stack]))[: 4 * players]
        for i in range(players):
            hands[i] += chosen[4 * i: 4 * i + 4]
    return [draw(st.permutations(h)) for h in hands]


def counts_by_hand(planet):
    """What a player counting the finished planet by hand would enter."""
    c = Counter()
    chars, face_down = [], 0
    for cell in planet.cells:
        if cell.face_down:
            face_down += 1
            continue
        tile = CAT[cell.tile]
        if tile.character:
            chars.append(tile.character)
        for item, n in tile.items.items():
            c[item] += n
    return {"characters": chars, "face_down": face_down, **c}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(take_orders())
def test_grid_take_order_and_counts_score_the_same(orders):
    order = orders[0]
    planet, _ = planet_from_take_order(order)
    grid = planet.as_grid()
    result = score_request({"players": [
        {"name": "tiles", "tiles": order},
        {"name": "grid", "planet": grid},
        {"name": "counts", "counts": counts_by_hand(planet)},
    ]})
    by_tiles, by_grid, by_counts = result["players"]
    for p in (by_grid, by_counts):
        assert [(c["character"], c["points"]) for c in p["characters"]] == \
               [(c["character"], c["points"]) for c in by_tiles["characters"]]
        assert (p["subtotal"], p["volcanoes"], p["total"]) == (by_tiles["subtotal"], by_tiles["volcanoes"], by_tiles["total"])
    assert result["shared_victory"] and len(result["winners"]) == 3
    for c in by_tiles["characters"]:
        assert c["points"] in BOUNDS[c["character"]], c
        assert c["detail"].endswith(f"= {c['points']}")


@settings(max_examples=300, deadline=None)
@given(take_orders())
def test_finished_planet_shape_and_bounds(orders):
    planet, flips = planet_from_take_order(orders[0])
    assert planet.complete
    c = contents_of_planet(planet)
    assert len(c.characters) == 4
    assert c.face_down == 3 * len(flips) and c.n("baobab") <= 2
    assert c.no_volcano_tiles + sum(1 for cell in planet.cells if cell and not cell.face_down
                                    and not CAT[cell.tile].character and CAT[cell.tile].has_volcano) == 12


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 5).flatmap(lambda n: take_orders(players=n)))
def test_tables_match_an_independent_reading_of_the_rules(orders):
    names = [f"P{i}" for i in range(len(orders))]
    result = score_request({"players": [{"name": n, "tiles": o} for n, o in zip(names, orders)]})
    expected = ref.table(list(zip(names, orders)))
    for got, want in zip(result["players"], expected):
        assert [c["points"] for c in got["characters"]] == want["points"]
        for key in ("subtotal", "volcanoes", "penalty", "total", "rank", "winner"):
            assert got[key] == want[key], (key, got, want)
    assert result["winners"] == [w["name"] for w in expected if w["winner"]]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(sorted(CAT.tiles)), max_size=16, unique=True))
def test_any_take_order_of_distinct_tiles_scores_or_is_refused_cleanly(tiles):
    from scorer.errors import InputError
    try:
        result = score_request({"players": [{"name": "A", "tiles": tiles}]})
    except InputError as exc:
        assert "more than 4" in exc.message
        return
    face_up, face_down = ref.play_out(tiles)
    want, volcanoes = ref.planet_points(face_up, face_down)
    assert [c["points"] for c in result["players"][0]["characters"]] == [p for _, p in want]
    assert result["players"][0]["volcanoes"] == volcanoes
