"""The scoring contract of SPEC §2: a table's JSON in, the result's JSON out.

Shared by ``POST /api/score``, ``python -m scorer score`` and the pages. Every bad input raises
``InputError`` with a message for a person and ``where`` it is (``players[1].counts.rose``).
"""
from __future__ import annotations

import json
from collections import Counter

from .catalog import (
    CHARACTER_NAMES, CHARACTERS, ITEMS, STACK_NAMES, Catalog, catalog as default_catalog,
    item_words,
)
from .planet import BACK, BAOBABS_TO_FLIP, STACK_AT, Cell, Planet, planet_from_take_order, position_words
from .rules import (
    Contents, PLANET_TILES, contents_of_counts, contents_of_planet, penalty_words, score_contents,
    score_table, tie_break_words,
)

MAX_PLAYERS = 5
MAX_NAME = 40
INPUT_KINDS = ("planet", "tiles", "counts")


class InputError(ValueError):
    def __init__(self, error: str, where: str = ""):
        super().__init__(error)
        self.error = error
        self.where = where

    def as_json(self) -> dict:
        return {"error": self.error, "where": self.where}


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def parse_json(raw: bytes | str) -> object:
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise InputError(f"That is not valid JSON ({exc}).", "body") from None


# ---------------------------------------------------------------------------------------------
# the three inputs


def planet_from_grid(grid, who: str, where: str, cat: Catalog) -> Planet:
    """A finished (or partial) planet as it lies."""
    if not isinstance(grid, dict) or "cells" not in grid:
        raise InputError(f"{who}: a planet is {{\"cells\": [[4 cells] × 4 rows]}}.", where)
    rows = grid["cells"]
    if not isinstance(rows, list) or len(rows) != 4 or not all(isinstance(r, list) and len(r) == 4 for r in rows):
        raise InputError(f"{who}: a planet has 4 rows of 4 cells.", f"{where}.cells")
    cells: list[Cell | None] = []
    seen: dict[str, int] = {}
    for p in range(16):
        value = rows[p // 4][p % 4]
        at = f"{where}.cells[{p // 4}][{p % 4}]"
        if value is None:
            cells.append(None)
            continue
        if value == BACK:
            if STACK_AT[p] == "character":
                raise InputError(f"{who}: {position_words(p)} is a character corner; character "
                                 "tiles have no baobab and never turn face down.", at)
            cells.append(Cell(None, face_down=True))
            continue
        if not isinstance(value, str) or value not in cat:
            raise InputError(f"{who}: {value!r} at {position_words(p)} is not a tile of the game "
                             "(tile ids look like C07, U12, D03, K20, or \"back\" for a face-down tile).", at)
        tile = cat[value]
        if tile.stack != STACK_AT[p]:
            raise InputError(f"{who}: {value} is a {STACK_NAMES[tile.stack]} tile, but "
                             f"{position_words(p)} takes a {STACK_NAMES[STACK_AT[p]]} tile.", at)
        if value in seen:
            raise InputError(f"{who}: {value} is on this planet twice "
                             f"({position_words(seen[value])} and {position_words(p)}).", at)
        seen[value] = p
        cells.append(Cell(value))
    planet = Planet(tuple(cells))
    baobabs = planet.face_up_baobab_positions(cat)
    if len(baobabs) >= BAOBABS_TO_FLIP:
        raise InputError(f"{who}: {len(baobabs)} face-up baobabs cannot be: the third baobab turns "
                         "all three face down. Mark those three tiles face down.", f"{where}.cells")
    backs = sum(1 for c in cells if c is not None and c.face_down)
    if backs % BAOBABS_TO_FLIP:
        raise InputError(f"{who}: {backs} face-down tile{'s' if backs != 1 else ''} cannot be: baobab "
                         "tiles turn face down three at a time (0, 3, 6 or 9).", f"{where}.cells")
    return planet


def planet_from_tiles(tiles, who: str, where: str, cat: Catalog) -> Planet:
    if not isinstance(tiles, list):
        raise InputError(f"{who}: \"tiles\" is a list of tile ids in the order they were taken.", where)
    if len(tiles) > 16:
        raise InputError(f"{who}: {len(tiles)} tiles; a planet holds 16.", where)
    seen = set()
    per_stack: Counter = Counter()
    for i, tile_id in enumerate(tiles):
        at = f"{where}[{i}]"
        if not isinstance(tile_id, str) or tile_id not in cat:
            raise InputError(f"{who}: {tile_id!r} is not a tile of the game (ids look like C07).", at)
        if tile_id in seen:
            raise InputError(f"{who}: {tile_id} is listed twice.", at)
        seen.add(tile_id)
        stack = cat[tile_id].stack
        per_stack[stack] += 1
        if per_stack[stack] > 4:
            raise InputError(f"{who}: more than 4 {STACK_NAMES[stack]} tiles; a planet holds 4.", at)
    planet, _ = planet_from_take_order(tiles, cat)
    return planet


def contents_from_counts(counts, who: str, where: str, cat: Catalog) -> Contents:
    if not isinstance(counts, dict):
        raise InputError(f"{who}: \"counts\" is an object like "
                         "{\"characters\": [...], \"face_down\": 0, \"rose\": 1}.", where)
    characters = counts.get("characters", [])
    if not isinstance(characters, list):
        raise InputError(f"{who}: \"characters\" is a list of up to 4 character names.", f"{where}.characters")
    for i, ch in enumerate(characters):
        if ch not in CHARACTERS:
            raise InputError(f"{who}: {ch!r} is not a character of the game "
                             f"(they are {', '.join(CHARACTERS)}).", f"{where}.characters[{i}]")
    if len(characters) > 4:
        raise InputError(f"{who}: {len(characters)} characters; a planet has 4 corners, so at most 4.",
                         f"{where}.characters")
    for ch, n in Counter(characters).items():
        copies = cat.copies_of(ch)
        if n > copies:
            raise InputError(f"{who}: {n} × {CHARACTER_NAMES[ch]}, but the game has "
                             f"{'only one' if copies == 1 else copies} such tile{'s' if copies != 1 else ''}.",
                             f"{where}.characters")
    items = {}
    for key, n in counts.items():
        if key in ("characters", "face_down"):
            continue
        if key not in ITEMS:
            raise InputError(f"{who}: {key!r} is not an item of the game "
                             f"(they are {', '.join(ITEMS)}).", f"{where}.{key}")
        if not _is_int(n):
            raise InputError(f"{who}: the number of {item_words(key, 2).split(' ', 1)[1]} must be a "
                             f"whole number, not {n!r}.", f"{where}.{key}")
        if n < 0:
            raise InputError(f"{who}: {n} {item_words(key, 2).split(' ', 1)[1]}? Counts cannot be negative.",
                             f"{where}.{key}")
        most = cat.most_on_planet(key)
        if n > most:
            raise InputError(f"{who}: {item_words(key, n)} cannot fit on one planet; the most "
                             f"the tiles allow is {most}.", f"{where}.{key}")
        items[key] = n
    face_down = counts.get("face_down", 0)
    if not _is_int(face_down) or face_down < 0:
        raise InputError(f"{who}: face-down tiles must be a whole number ≥ 0, not {face_down!r}.",
                         f"{where}.face_down")
    if face_down % BAOBABS_TO_FLIP:
        raise InputError(f"{who}: {face_down} face-down tiles cannot be: baobab tiles turn face down "
                         "three at a time (0, 3, 6 or 9).", f"{where}.face_down")
    if items.get("baobab", 0) >= BAOBABS_TO_FLIP:
        raise InputError(f"{who}: {items['baobab']} face-up baobabs cannot be: the third baobab turns "
                         "all three face down. Count at most 2, and add 3 face-down tiles.", f"{where}.baobab")
    if face_down + items.get("volcano", 0) > PLANET_TILES:
        raise InputError(f"{who}: {face_down} face-down tiles and {item_words('volcano', items.get('volcano', 0))} "
                         f"need more than the {PLANET_TILES} planet tiles.", f"{where}.face_down")
    return contents_of_counts(characters, items, face_down)


# ---------------------------------------------------------------------------------------------
# the table


def read_table(request, cat: Catalog | None = None) -> tuple[list[tuple[str, Contents, Planet | None]], list[str]]:
    """Validate a scoring request; return each player's name, contents and planet (when it has
    one), and the warnings."""
    cat = cat or default_catalog()
    if not isinstance(request, dict) or not isinstance(request.get("players"), list):
        raise InputError("The request is {\"players\": [ {\"name\": ..., and one of \"planet\", "
                         "\"tiles\" or \"counts\"}, … ]}.", "players")
    players = request["players"]
    if not 1 <= len(players) <= MAX_PLAYERS:
        raise InputError(f"A table has 1 to {MAX_PLAYERS} players, not {len(players)}.", "players")
    out, warnings, names = [], [], set()
    owners: dict[str, list[str]] = {}
    for i, player in enumerate(players):
        where = f"players[{i}]"
        if not isinstance(player, dict):
            raise InputError(f"Player {i + 1} must be an object with a name and a planet.", where)
        name = player.get("name")
        if not isinstance(name, str) or not name.strip():
            raise InputError(f"Player {i + 1} needs a name.", f"{where}.name")
        name = name.strip()
        if len(name) > MAX_NAME:
            raise InputError(f"Player {i + 1}'s name is longer than {MAX_NAME} characters.", f"{where}.name")
        if name.casefold() in names:
            raise InputError(f"Two players are called {name}; give each a different name.", f"{where}.name")
        names.add(name.casefold())
        given = [k for k in INPUT_KINDS if k in player]
        if len(given) != 1:
            raise InputError(f"{name}: give exactly one of \"planet\", \"tiles\" or \"counts\""
                             f"{' (not ' + ' and '.join(given) + ')' if given else ''}.", where)
        kind = given[0]
        planet = None
        if kind == "planet":
            planet = planet_from_grid(player["planet"], name, f"{where}.planet", cat)
        elif kind == "tiles":
            planet = planet_from_tiles(player["tiles"], name, f"{where}.tiles", cat)
        if planet is not None:
            contents = contents_of_planet(planet, cat)
            for tile_id in planet.tile_ids():
                owners.setdefault(tile_id, []).append(name)
        else:
            contents = contents_from_counts(player["counts"], name, f"{where}.counts", cat)
        if not contents.complete:
            have = planet.tile_count if planet is not None else len(contents.characters)
            warnings.append(f"{name}'s planet is not finished ({have} of "
                            f"{16 if planet is not None else 4} {'tiles' if planet is not None else 'characters'}); "
                            "it is scored as it is.")
        out.append((name, contents, planet))
    for tile_id, who in owners.items():
        if len(who) > 1:
            warnings.append(f"{tile_id} is on {' and '.join(who)}'s planets; the game has only one.")
    claims: dict[str, list[str]] = {}
    for name, contents, planet in out:
        if planet is None:  # tiles on planets are checked by id above
            for character in contents.characters:
                claims.setdefault(character, []).append(name)
    for name, contents, planet in out:
        if planet is not None:
            for character in contents.characters:
                if character in claims:
                    claims[character].append(name)
    for character, who in claims.items():
        copies = cat.copies_of(character)
        if len(who) > copies:
            warnings.append(f"{len(who)} {CHARACTER_NAMES[character]}s at this table ({', '.join(who)}), "
                            f"but the game has {'only one' if copies == 1 else copies} such tile"
                            f"{'s' if copies != 1 else ''}.")
    if len(players) == 1:
        v = out[0][1].volcanoes
        if v:
            warnings.append(f"Scored alone: the −{v} volcano penalty applies only if this planet has the "
                            "most volcanoes at the table.")
    return out, warnings


def score_request(request, cat: Catalog | None = None) -> dict:
    """The whole contract: request JSON (already parsed) to response JSON."""
    table, warnings = read_table(request, cat)
    return result_json(table, warnings)


def result_json(table, warnings) -> dict:
    planet_scores = [(name, score_contents(contents)) for name, contents, _ in table]
    lines = score_table(planet_scores)
    players = []
    for line, (_, contents, planet) in zip(lines, table):
        ps = line.planet
        players.append({
            "name": line.name,
            "characters": [cs.as_json() for cs in ps.characters],
            "subtotal": ps.subtotal,
            "volcanoes": ps.volcanoes,
            "penalty": line.penalty,
            "total": line.total,
            "rank": line.rank,
            "winner": line.winner,
            "complete": ps.complete,
            "face_down": ps.face_down,
            "planet": planet.as_grid() if planet is not None else None,
            "volcano_positions": sorted(set(contents.item_positions.get("volcano", ()))),
        })
    winners = [l.name for l in lines if l.winner]
    return {
        "players": players,
        "winners": winners,
        "shared_victory": len(winners) > 1,
        "warnings": warnings,
        "penalty_explained": penalty_words(lines),
        "tie_break_explained": tie_break_words(lines),
    }
