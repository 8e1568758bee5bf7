"""Points so far (``scorer.draft.standings``) and the words around them on the pages: the same
rules as the end, hidden characters counted only for their owner, the volcano leaders named."""
from __future__ import annotations

import random
from dataclasses import replace

from scorer.draft import Setup, apply, legal, standings, start
from scorer.planet import Cell, POSITIONS_OF
from scorer.rules import contents_of_planet, score_contents


def played(players, hidden, seed, moves):
    state = start(Setup.parse({"players": players, "hidden_characters": hidden, "seed": seed}))
    rng = random.Random(seed)
    for _ in range(moves):
        if state.finished:
            break
        state, _ = apply(state, rng.choice(legal(state, state.to_act)))
    return state


def swap_a_character(state, owner):
    """The same game, except that one of ``owner``'s characters is another character tile (the
    two trade places with the draw pile)."""
    planet = state.planets[owner]
    position = next(p for p in POSITIONS_OF["character"] if planet.cells[p] is not None)
    old = planet.cells[position].tile
    pile = state.piles["character"]
    new = next(t for t in pile if state.cat[t].character != state.cat[old].character)
    cells = list(planet.cells)
    cells[position] = Cell(new)
    planets = tuple(replace(planet, cells=tuple(cells)) if s == owner else p for s, p in enumerate(state.planets))
    piles = {**state.piles, "character": tuple(old if t == new else t for t in pile)}
    return replace(state, planets=planets, piles=piles)


def test_another_players_hidden_characters_change_nothing_they_may_see():
    checked = 0
    for seed in range(6):
        state = played(["Ann", "Ben", "Cy", "Di"], True, seed, 70)
        owners = [s for s, p in enumerate(state.planets) if any(p.cells[q] for q in POSITIONS_OF["character"])]
        if not owners or not state.piles["character"]:
            continue
        owner = owners[0]
        checked += 1
        other = swap_a_character(state, owner)
        for viewer in [None] + [s for s in range(4) if s != owner]:
            assert standings(state, viewer) == standings(other, viewer), (seed, viewer)
        mine, theirs = standings(state, owner)[owner], standings(state, None)[owner]
        assert mine.hidden == 0 and theirs.hidden >= 1
    assert checked >= 4


def test_without_hidden_characters_everyone_sees_the_rules_score_and_the_volcano_leaders():
    state = played(["Ann", "Ben", "Cy"], False, 4, 60)
    seen = standings(state, None)
    volcanoes = [score_contents(contents_of_planet(p, state.cat)).volcanoes for p in state.planets]
    most = max(volcanoes)
    for s, planet in enumerate(state.planets):
        score = score_contents(contents_of_planet(planet, state.cat))
        leader = most > 0 and volcanoes[s] == most
        assert seen[s].volcanoes == volcanoes[s] and seen[s].leader == leader
        assert seen[s].points == score.subtotal - (volcanoes[s] if leader else 0) and seen[s].hidden == 0
    assert seen == standings(state, 1)  # nothing hidden: the same for every seat


def test_the_end_standing_is_the_final_score():
    state = played(["Ann", "Ben", "Cy"], True, 9, 200)
    assert state.finished
    for s, line in enumerate(state.result["players"]):
        assert standings(state, None)[s].points == line["total"]


def test_a_tile_on_a_planet_is_seen_as_may_see_says_for_every_viewer():
    """``sees_on_planet`` (the planets' drawing and points ask it, knowing whose planet a tile is
    on) answers as ``may_see`` does, on every tile of every planet, for the public and each seat:
    hidden and not, 2 to 5 players, mid-game and over."""
    from scorer.draft.visibility import may_see, sees_on_planet
    kinds = set()
    for seed in range(8):
        for players in (["A", "B"], ["A", "B", "C"], ["A", "B", "C", "D", "E"]):
            for moves in (10, 30, 60, 400):
                state = played(players, seed % 2 == 1, seed, moves)
                for viewer in (None, *range(len(players))):
                    sees = sees_on_planet(state, viewer)
                    for owner, planet in enumerate(state.planets):
                        for cell in planet.cells:
                            if cell is not None and cell.tile is not None:
                                seen = sees(owner, cell.tile)
                                assert seen == may_see(state, viewer, cell.tile), (seed, players, moves, viewer, cell)
                                kinds.add((seen, state.finished))
    assert kinds == {(True, False), (False, False), (True, True)}  # hidden ones were met, and a game over
