"""Scoring: what a planet shows, what each character makes of it, and the table's result.

Pure functions over plain data (SPEC §1). A planet reaches scoring as ``Contents``: the
characters, the face-up items, the face-down tiles and the planet tiles without a volcano, each
with the positions that hold them when they are known (a grid or a take order), so a page can
highlight what a character counted. Hand counts give the same numbers without positions.
"""
from __future__ import annotations

from collections.abc import Sequence

from dataclasses import dataclass, field

from .catalog import (
    CHARACTER_NAMES, SHEEP, Catalog, catalog as default_catalog, item_words,
)
from .planet import Planet

SHEEP_PRICE = {"sheep_white": 2, "sheep_grey": 3, "sheep_brown": 5}
SPECIES = ("fox", "elephant", "snake", "sheep")
PLANET_TILES = 12  # non-character tiles on a finished planet


@dataclass(frozen=True)
class Contents:
    characters: tuple[str, ...]
    items: dict[str, int]  # item -> face-up count (Large Stars on character tiles included)
    face_down: int
    no_volcano_tiles: int  # planet (non-character) tiles without a face-up volcano
    complete: bool = True
    character_positions: tuple[int | None, ...] = ()  # parallel to characters (None when unknown)
    item_positions: dict[str, tuple[int, ...]] = field(default_factory=dict)  # item -> positions of the tiles showing it
    face_down_positions: tuple[int, ...] = ()
    no_volcano_positions: tuple[int, ...] = ()

    def n(self, item: str) -> int:
        return int(self.items.get(item, 0))

    @property
    def volcanoes(self) -> int:
        return self.n("volcano")


def contents_of_planet(planet: Planet, cat: Catalog | None = None) -> Contents:
    cat = cat or default_catalog()
    tiles = cat.tiles
    characters, character_positions = [], []
    items: dict[str, int] = {}
    item_positions: dict[str, list[int]] = {}
    face_down, no_volcano = [], []
    for p, cell in enumerate(planet.cells):
        if cell is None:
            continue
        if cell.face_down:
            face_down.append(p)
            no_volcano.append(p)
            continue
        tile = tiles[cell.tile or ""]
        if tile.character:
            characters.append(tile.character)
            character_positions.append(p)
        elif not tile.has_volcano:
            no_volcano.append(p)
        for item, n in tile.pairs:
            if item in items:
                items[item] += n
                item_positions[item].append(p)
            else:
                items[item] = n
                item_positions[item] = [p]
    return Contents(
        characters=tuple(characters),
        items=items,
        face_down=len(face_down),
        no_volcano_tiles=len(no_volcano),
        complete=planet.complete,
        character_positions=tuple(character_positions),
        item_positions={k: tuple(v) for k, v in item_positions.items()},
        face_down_positions=tuple(face_down),
        no_volcano_positions=tuple(no_volcano),
    )


def contents_of_counts(characters: Sequence[str], items: dict[str, int], face_down: int) -> Contents:
    """Hand counts: face-up items as counted (stars on characters included). The Geographer
    then takes 12 − volcano tiles (each tile has at most one volcano)."""
    items = {k: v for k, v in items.items() if v}
    return Contents(
        characters=tuple(characters),
        items=items,
        face_down=face_down,
        no_volcano_tiles=PLANET_TILES - items.get("volcano", 0),
        complete=len(characters) == 4,
        character_positions=(None,) * len(characters),
    )


@dataclass(frozen=True)
class CharacterScore:
    character: str
    points: int
    detail: str
    positions: tuple[int, ...] = ()  # planet positions this character counted
    position: int | None = None  # where the character tile itself lies

    def as_json(self) -> dict[str, object]:
        return {
            "character": self.character,
            "name": CHARACTER_NAMES[self.character],
            "points": self.points,
            "detail": self.detail,
            "positions": sorted(set(self.positions)),
            "position": self.position,
        }


def _list(words: list[str]) -> str:
    if not words:
        return "none"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " and " + words[-1]


def _per_item(c: Contents, name: str, item: str, each: int) -> tuple[int, str, tuple[int, ...]]:
    n = c.n(item)
    points = each * n
    return points, f"{name} — {item_words(item, n)} × {each} = {points}", c.item_positions.get(item, ())


def score_character(character: str, c: Contents) -> tuple[int, str, tuple[int, ...]]:
    """Points, the reason in words, and the positions counted, for one copy of a character."""
    name = CHARACTER_NAMES[character]
    pos = c.item_positions
    if character == "vain_man":
        return _per_item(c, name, "snake", 4)
    if character == "astronomer":
        return _per_item(c, name, "sunset", 2)
    if character == "lamplighter":
        return _per_item(c, name, "lamppost", 1)
    if character == "turkish_astronomer":
        return _per_item(c, name, "star", 1)
    if character == "gardener":
        return _per_item(c, name, "baobab", 7)
    if character.startswith("businessman_"):
        sheep = "sheep_" + character.split("_", 1)[1]
        return _per_item(c, name, sheep, SHEEP_PRICE[sheep])
    if character == "geographer":
        n = c.no_volcano_tiles
        return n, f"{name} — {n} planet tile{'s' if n != 1 else ''} without a volcano × 1 = {n}", c.no_volcano_positions
    if character == "drunkard":
        n = c.face_down
        return 3 * n, f"{name} — {n} face-down tile{'s' if n != 1 else ''} × 3 = {3 * n}", c.face_down_positions
    if character == "king":
        roses = c.n("rose")
        points = {1: 14, 2: 7}.get(roses, 0)
        why = {0: "no rose", 1: "exactly 1 rose", 2: "exactly 2 roses"}.get(roses, f"{roses} roses, too many")
        return points, f"{name} — {why} = {points}", pos.get("rose", ())
    if character == "hunter":
        present = [s for s in SPECIES if (sum(c.n(k) for k in SHEEP) if s == "sheep" else c.n(s))]
        points = 3 * len(present)
        counted = tuple(p for s in present for k in (SHEEP if s == "sheep" else (s,)) for p in pos.get(k, ()))
        return points, f"{name} — {_list(present)}: {len(present)} species × 3 = {points}", counted
    if character == "little_prince":
        colours = [k for k in SHEEP if c.n(k)]
        boxes = c.n("box")
        points = 3 * len(colours) + boxes
        names = [k.split("_")[1] for k in colours]
        detail = (f"{name} — sheep colours: {_list(names)}: {len(colours)} × 3 = {3 * len(colours)}, "
                  f"plus {item_words('box', boxes)} = {points}")
        counted = tuple(p for k in colours for p in pos.get(k, ())) + pos.get("box", ())
        return points, detail, counted
    raise KeyError(f"unknown character {character!r}")


@dataclass(frozen=True)
class PlanetScore:
    characters: tuple[CharacterScore, ...]
    subtotal: int
    volcanoes: int
    face_down: int
    complete: bool


def score_contents(c: Contents) -> PlanetScore:
    scores = []
    for i, character in enumerate(c.characters):
        points, detail, counted = score_character(character, c)
        where = c.character_positions[i] if i < len(c.character_positions) else None
        scores.append(CharacterScore(character, points, detail, tuple(counted), where))
    return PlanetScore(tuple(scores), sum(s.points for s in scores), c.volcanoes, c.face_down, c.complete)


@dataclass(frozen=True)
class TableLine:
    name: str
    planet: PlanetScore
    penalty: int
    total: int
    rank: int
    winner: bool


def score_table(named: list[tuple[str, PlanetScore]]) -> list[TableLine]:
    """Volcano penalty for every tied leader, then ranks: total, then fewer volcanoes; players
    tied on both share a rank (1, 2, 2, 4) and, at the top, the victory."""
    most = max((ps.volcanoes for _, ps in named), default=0)
    totals = []
    for name, ps in named:
        penalty = -ps.volcanoes if most > 0 and ps.volcanoes == most else 0
        totals.append((name, ps, penalty, ps.subtotal + penalty))
    keys = [(-total, ps.volcanoes) for _, ps, _, total in totals]
    lines = []
    for i, (name, ps, penalty, total) in enumerate(totals):
        rank = 1 + sum(1 for k in keys if k < keys[i])
        lines.append(TableLine(name, ps, penalty, total, rank, rank == 1))
    return lines


def _points(n: int) -> str:
    """``"1 point"``, ``"−3 points"`` (a real minus sign)."""
    return f"{'−' if n < 0 else ''}{abs(n)} point{'' if abs(n) == 1 else 's'}"


def _volcanoes(n: int) -> str:
    return f"{n} volcano{'' if n == 1 else 'es'}"


def tie_break_words(lines: list[TableLine]) -> str:
    """One sentence on how the winner was decided, for the results page."""
    if not lines:
        return ""
    if len(lines) == 1:
        l = lines[0]
        if not l.penalty:
            return f"{l.name}: {_points(l.total)}."
        return (f"{l.name}: {_points(l.planet.subtotal)}, or {_points(l.total).split()[0]} if this planet has "
                "the most volcanoes at the table.")
    winners = [l for l in lines if l.winner]
    best = max(l.total for l in lines)
    tied_on_total = [l for l in lines if l.total == best]
    if len(winners) > 1:
        return (f"{_list([l.name for l in winners])} share the victory: {_points(best)} and "
                f"{_volcanoes(winners[0].planet.volcanoes)} each.")
    w = winners[0]
    if len(tied_on_total) > 1:
        others = [l for l in tied_on_total if l is not w]
        return (f"{w.name} wins the tie at {_points(best)} with fewer volcanoes "
                f"({w.planet.volcanoes} against {_list([str(l.planet.volcanoes) for l in others])}).")
    return f"{w.name} wins with {_points(best)}."


def penalty_words(lines: list[TableLine]) -> str:
    hit = [l for l in lines if l.penalty]
    if len(lines) == 1 and hit:
        n = hit[0].planet.volcanoes
        return f"−{n} if this planet has the most volcanoes at the table ({n})."
    if not hit:
        return "No volcanoes on the table: nobody loses points."
    n = hit[0].planet.volcanoes
    if len(hit) == 1:
        return f"{hit[0].name} has the most volcanoes ({n}) and loses {_points(n)}."
    return f"{_list([l.name for l in hit])} tie for the most volcanoes ({n}) and each lose {_points(n)}."
