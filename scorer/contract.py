"""The scoring contract of SPEC §2: a table's JSON in, the result's JSON out.

Shared by ``POST /api/score``, ``python -m scorer score`` and the pages. Every bad input raises
``InputError`` (``scorer.errors``) with a message for a person and ``where`` it is
(``("players", 1, "counts", "rose")``); every problem a request has is reported at once.
"""
from __future__ import annotations

from collections import Counter

from .catalog import (
    CHARACTERS, ITEMS, Catalog, catalog as default_catalog, character_name, item_name, item_words, stack_name,
)
from .planet import BACK, BAOBABS_TO_FLIP, STACK_AT, Cell, Planet, planet_from_take_order, position_words
from .errors import InputError, Problem, Where
from .i18n import _, list_words, ngettext
from .jsonin import load_json
from .limits import MAX_PLAYERS
from .names import clean_name, name_key
from .rules import (
    Contents, PLANET_TILES, contents_of_counts, contents_of_planet, penalty_words, score_contents,
    score_table, tie_break_words,
)

INPUT_KINDS = ("planet", "tiles", "counts")


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def parse_json(raw: bytes | str) -> object:
    """A request body, read with the edge's limits (``scorer.jsonin``)."""
    return load_json(raw)


# ---------------------------------------------------------------------------------------------
# the three inputs (each gives back every problem it finds, not only the first)


def _cells_of(grid: object, who: str, where: Where) -> list[list[object]]:
    if not isinstance(grid, dict) or "cells" not in grid:
        raise InputError(_('%(who)s: a planet is {"cells": [[4 cells] × 4 rows]}.', who=who), where)
    rows = grid["cells"]
    if not isinstance(rows, list) or len(rows) != 4 or not all(isinstance(r, list) and len(r) == 4 for r in rows):
        raise InputError(_("%(who)s: a planet has 4 rows of 4 cells.", who=who), (*where, "cells"))
    return rows


def _grid_cell(value: object, p: int, who: str, cat: Catalog, seen: dict[str, int]) -> tuple[Cell | None, str | None]:
    """The cell at position ``p``, or the problem with it."""
    if value is None:
        return None, None
    if value == BACK:
        if STACK_AT[p] == "character":
            return None, _("%(who)s: %(where)s is a character corner; character tiles have no baobab and "
                           "never turn face down.", who=who, where=position_words(p))
        return Cell(None, face_down=True), None
    if not isinstance(value, str) or value not in cat:
        return None, _("%(who)s: %(tile)r at %(where)s is not a tile of the game (tile ids look like C07, U12, "
                       "D03, K20, or \"back\" for a face-down tile).", who=who, tile=value, where=position_words(p))
    tile = cat[value]
    if tile.stack != STACK_AT[p]:
        return None, _("%(who)s: %(tile)s is a %(stack)s tile, but %(where)s takes a %(needed)s tile.",
                       who=who, tile=value, stack=stack_name(tile.stack), where=position_words(p),
                       needed=stack_name(STACK_AT[p]))
    if value in seen:
        return None, _("%(who)s: %(tile)s is on this planet twice (%(first)s and %(second)s).", who=who,
                       tile=value, first=position_words(seen[value]), second=position_words(p))
    seen[value] = p
    return Cell(value), None


def _baobab_problems(planet: Planet, who: str, at: Where, cat: Catalog) -> list[Problem]:
    baobabs = planet.face_up_baobab_positions(cat)
    if len(baobabs) >= BAOBABS_TO_FLIP:
        message = _("%(who)s: %(n)d face-up baobabs cannot be: the third baobab turns all three face down. "
                    "Mark those three tiles face down.", who=who, n=len(baobabs))
        return [Problem(message, at), *(Problem(message, (*at, p // 4, p % 4)) for p in baobabs)]
    backs = sum(1 for c in planet.cells if c is not None and c.face_down)
    if backs % BAOBABS_TO_FLIP:
        message = ngettext("%(who)s: %(num)d face-down tile cannot be: baobab tiles turn face down three at "
                           "a time (0, 3, 6 or 9).", "%(who)s: %(num)d face-down tiles cannot be: baobab tiles "
                           "turn face down three at a time (0, 3, 6 or 9).", backs, who=who)
        return [Problem(message, at)]
    return []


def planet_from_grid(grid: object, who: str, where: Where, cat: Catalog) -> Planet:
    """A finished (or partial) planet as it lies."""
    rows = _cells_of(grid, who, where)
    cells: list[Cell | None] = []
    problems: list[Problem] = []
    seen: dict[str, int] = {}
    for p in range(16):
        cell, problem = _grid_cell(rows[p // 4][p % 4], p, who, cat, seen)
        cells.append(cell)
        if problem:
            problems.append(Problem(problem, (*where, "cells", p // 4, p % 4)))
    if problems:
        raise InputError.of(problems)
    planet = Planet(tuple(cells))
    problems = _baobab_problems(planet, who, (*where, "cells"), cat)
    if problems:
        raise InputError.of(problems)
    return planet


def planet_from_tiles(tiles: object, who: str, where: Where, cat: Catalog) -> Planet:
    if not isinstance(tiles, list):
        raise InputError(_('%(who)s: "tiles" is a list of tile ids in the order they were taken.', who=who), where)
    if len(tiles) > 16:
        raise InputError(_("%(who)s: %(n)d tiles; a planet holds 16.", who=who, n=len(tiles)), where)
    seen: set[str] = set()
    per_stack: Counter[str] = Counter()
    problems: list[Problem] = []
    for i, tile_id in enumerate(tiles):
        if not isinstance(tile_id, str) or tile_id not in cat:
            problems.append(Problem(_("%(who)s: %(tile)r is not a tile of the game (ids look like C07).",
                                      who=who, tile=tile_id), (*where, i)))
            continue
        if tile_id in seen:
            problems.append(Problem(_("%(who)s: %(tile)s is listed twice.", who=who, tile=tile_id), (*where, i)))
            continue
        seen.add(tile_id)
        stack = cat[tile_id].stack
        per_stack[stack] += 1
        if per_stack[stack] == 5:
            problems.append(Problem(_("%(who)s: more than 4 %(stack)s tiles; a planet holds 4.", who=who,
                                      stack=stack_name(stack)), (*where, i)))
    if problems:
        raise InputError.of(problems)
    planet, _flips = planet_from_take_order(tiles, cat)
    return planet


def _characters_from_counts(characters: object, who: str, where: Where, cat: Catalog) -> list[str]:
    if not isinstance(characters, list):
        raise InputError(_('%(who)s: "characters" is a list of up to 4 character names.', who=who), where)
    problems = [Problem(_("%(who)s: %(name)r is not a character of the game (they are %(all)s).", who=who,
                          name=ch, all=", ".join(CHARACTERS)), (*where, i))
                for i, ch in enumerate(characters) if ch not in CHARACTERS]
    if len(characters) > 4:
        problems.append(Problem(_("%(who)s: %(n)d characters; a planet has 4 corners, so at most 4.",
                                  who=who, n=len(characters)), where))
    for ch, n in Counter(c for c in characters if c in CHARACTERS).items():
        copies = cat.copies_of(ch)
        if n > copies:
            problems.append(Problem(ngettext(
                "%(who)s: %(n)d × %(name)s, but the game has only %(num)d such tile.",
                "%(who)s: %(n)d × %(name)s, but the game has %(num)d such tiles.", copies,
                who=who, n=n, name=character_name(ch)), where))
    if problems:
        raise InputError.of(problems)
    return characters


def _item_problem(key: str, n: object, who: str, cat: Catalog) -> str | None:
    if key not in ITEMS:
        return _("%(who)s: %(key)r is not an item of the game (they are %(all)s).", who=who, key=key,
                 all=", ".join(ITEMS))
    what = item_name(key, plural=True)
    if not _is_int(n):
        return _("%(who)s: the number of %(what)s must be a whole number, not %(n)r.", who=who, what=what, n=n)
    assert isinstance(n, int)
    if n < 0:
        return _("%(who)s: %(n)d %(what)s? Counts cannot be negative.", who=who, n=n, what=what)
    most = cat.most_on_planet(key)
    if n > most:
        return _("%(who)s: %(items)s cannot fit on one planet; the most the tiles allow is %(most)d.",
                 who=who, items=item_words(key, n), most=most)
    return None


def _face_down_problem(face_down: object, items: dict[str, int], who: str) -> tuple[str, str] | None:
    """(the field at fault, the problem) for the face-down count and what it implies."""
    if not _is_int(face_down) or face_down < 0:  # type: ignore[operator]
        return "face_down", _("%(who)s: face-down tiles must be a whole number ≥ 0, not %(n)r.", who=who, n=face_down)
    assert isinstance(face_down, int)
    if face_down % BAOBABS_TO_FLIP:
        return "face_down", _("%(who)s: %(n)d face-down tiles cannot be: baobab tiles turn face down three at "
                              "a time (0, 3, 6 or 9).", who=who, n=face_down)
    if items.get("baobab", 0) >= BAOBABS_TO_FLIP:
        return "baobab", _("%(who)s: %(n)d face-up baobabs cannot be: the third baobab turns all three face "
                           "down. Count at most 2, and add 3 face-down tiles.", who=who, n=items["baobab"])
    if face_down + items.get("volcano", 0) > PLANET_TILES:
        return "face_down", _("%(who)s: %(n)d face-down tiles and %(volcanoes)s need more than the %(tiles)d "
                              "planet tiles.", who=who, n=face_down,
                              volcanoes=item_words("volcano", items.get("volcano", 0)), tiles=PLANET_TILES)
    return None


def contents_from_counts(counts: object, who: str, where: Where, cat: Catalog) -> Contents:
    if not isinstance(counts, dict):
        raise InputError(_('%(who)s: "counts" is an object like {"characters": [...], "face_down": 0, '
                           '"rose": 1}.', who=who), where)
    problems: list[Problem] = []
    characters: list[str] = []
    try:
        characters = _characters_from_counts(counts.get("characters", []), who, (*where, "characters"), cat)
    except InputError as exc:
        problems.extend(exc.problems)
    items: dict[str, int] = {}
    for key, n in counts.items():
        if key in ("characters", "face_down"):
            continue
        problem = _item_problem(key, n, who, cat)
        if problem:
            problems.append(Problem(problem, (*where, key)))
        else:
            items[key] = n
    found = _face_down_problem(counts.get("face_down", 0), items, who)
    if found:
        problems.append(Problem(found[1], (*where, found[0])))
    if problems:
        raise InputError.of(problems)
    return contents_of_counts(characters, items, counts.get("face_down", 0))


# ---------------------------------------------------------------------------------------------
# the table

Table = list[tuple[str, Contents, "Planet | None"]]


def _check_players(request: object) -> list[object]:
    if not isinstance(request, dict) or not isinstance(request.get("players"), list):
        raise InputError(_('The request is {"players": [ {"name": ..., and one of "planet", "tiles" or '
                           '"counts"}, … ]}.'), ("players",))
    players: list[object] = request["players"]
    if not 1 <= len(players) <= MAX_PLAYERS:
        raise InputError(_("A table has 1 to %(most)d players, not %(n)d.", most=MAX_PLAYERS, n=len(players)),
                         ("players",))
    return players


def _read_player(player: object, i: int, names: set[str], cat: Catalog) -> tuple[str, Contents, Planet | None]:
    where: Where = ("players", i)
    if not isinstance(player, dict):
        raise InputError(_("Player %(n)d must be an object with a name and a planet.", n=i + 1), where)
    name = clean_name(player.get("name"), _("Player %(n)d", n=i + 1), (*where, "name"))
    if name_key(name) in names:
        raise InputError(_("Two players are called %(name)s; give each a different name.", name=name),
                         (*where, "name"))
    names.add(name_key(name))
    given = [k for k in INPUT_KINDS if k in player]
    if len(given) != 1:
        raise InputError(_('%(who)s: give exactly one of "planet", "tiles" or "counts"%(not_these)s.', who=name,
                           not_these=_(" (not %(these)s)", these=list_words(given)) if given else ""), where)
    kind = given[0]
    if kind == "counts":
        return name, contents_from_counts(player["counts"], name, (*where, "counts"), cat), None
    read = planet_from_grid if kind == "planet" else planet_from_tiles
    planet = read(player[kind], name, (*where, kind), cat)
    return name, contents_of_planet(planet, cat), planet


def read_table(request: object, cat: Catalog | None = None) -> tuple[Table, list[str]]:
    """Validate a scoring request; return each player's name, contents and planet (when it has
    one), and the warnings. Every player is checked, and every problem found is raised at once."""
    cat = cat or default_catalog()
    players = _check_players(request)
    table: Table = []
    problems: list[Problem] = []
    names: set[str] = set()
    for i, player in enumerate(players):
        try:
            table.append(_read_player(player, i, names, cat))
        except InputError as exc:
            problems.extend(exc.problems)
    if problems:
        raise InputError.of(problems)
    return table, table_warnings(table, cat)


def _unfinished_warning(name: str, contents: Contents, planet: Planet | None) -> str:
    if planet is not None:
        return _("%(name)s's planet is not finished (%(have)d of 16 tiles); it is scored as it is.",
                 name=name, have=planet.tile_count)
    return _("%(name)s's planet is not finished (%(have)d of 4 characters); it is scored as it is.",
             name=name, have=len(contents.characters))


def _character_claims(table: Table) -> dict[str, list[str]]:
    claims: dict[str, list[str]] = {}
    for name, contents, planet in table:
        if planet is None:  # tiles on planets are checked by id
            for character in contents.characters:
                claims.setdefault(character, []).append(name)
    for name, contents, planet in table:
        if planet is not None:
            for character in contents.characters:
                if character in claims:
                    claims[character].append(name)
    return claims


def table_warnings(table: Table, cat: Catalog) -> list[str]:
    """What is possible but odd: unfinished planets, a tile or character claimed too often, a
    planet scored alone."""
    warnings = [_unfinished_warning(n, c, p) for n, c, p in table if not c.complete]
    owners: dict[str, list[str]] = {}
    for name, _contents, planet in table:
        for tile_id in planet.tile_ids() if planet is not None else ():
            owners.setdefault(tile_id, []).append(name)
    warnings += [_("%(tile)s is on %(who)s's planets; the game has only one.", tile=t, who=list_words(who))
                 for t, who in owners.items() if len(who) > 1]
    for character, who in _character_claims(table).items():
        copies = cat.copies_of(character)
        if len(who) > copies:
            warnings.append(ngettext(
                "%(name)s × %(n)d at this table (%(who)s), but the game has only %(num)d such tile.",
                "%(name)s × %(n)d at this table (%(who)s), but the game has %(num)d such tiles.", copies,
                n=len(who), name=character_name(character), who=list_words(who)))
    if len(table) == 1 and table[0][1].volcanoes:
        warnings.append(_("Scored alone: the −%(n)d volcano penalty applies only if this planet has the most "
                          "volcanoes at the table.", n=table[0][1].volcanoes))
    return warnings


def score_request(request: object, cat: Catalog | None = None) -> dict[str, object]:
    """The whole contract: request JSON (already parsed) to response JSON."""
    table, warnings = read_table(request, cat)
    return result_json(table, warnings)


def result_json(table: Table, warnings: list[str]) -> dict[str, object]:
    planet_scores = [(name, score_contents(contents)) for name, contents, _planet in table]
    lines = score_table(planet_scores)
    players = []
    for line, (_name, contents, planet) in zip(lines, table):
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
