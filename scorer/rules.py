"""Scoring: what a planet shows, what each character makes of it, and the table's result.

Pure functions over plain data (SPEC §1). A planet reaches scoring as ``Contents``: the
characters, the face-up items, the face-down tiles and the planet tiles without a volcano, each
with the positions that hold them when they are known (a grid or a take order), so a page can
highlight what a character counted. Hand counts give the same numbers without positions.
"""
from __future__ import annotations

from collections.abc import Sequence

from dataclasses import dataclass, field

from .catalog import SHEEP, Catalog, catalog as default_catalog, character_name, item_words
from .i18n import N_, _, list_words, ngettext
from .planet import Planet

SHEEP_PRICE = {"sheep_white": 2, "sheep_grey": 3, "sheep_brown": 5}
SPECIES = ("fox", "elephant", "snake", "sheep")
SPECIES_NAMES = {"fox": N_("fox"), "elephant": N_("elephant"), "snake": N_("snake"), "sheep": N_("sheep")}
SHEEP_COLOURS = {"sheep_white": N_("white"), "sheep_grey": N_("grey"), "sheep_brown": N_("brown")}
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
            "name": character_name(self.character),
            "points": self.points,
            "detail": self.detail,
            "positions": sorted(set(self.positions)),
            "position": self.position,
        }


def _per_item(c: Contents, name: str, item: str, each: int) -> tuple[int, str, tuple[int, ...]]:
    n = c.n(item)
    points = each * n
    return (points, _("%(name)s — %(items)s × %(each)d = %(points)d", name=name, items=item_words(item, n),
                      each=each, points=points), c.item_positions.get(item, ()))


def _king(c: Contents, name: str) -> tuple[int, str, tuple[int, ...]]:
    roses = c.n("rose")
    points = {1: 14, 2: 7}.get(roses, 0)
    if roses == 0:
        why = _("no rose")
    elif roses <= 2:
        why = ngettext("exactly %(num)d rose", "exactly %(num)d roses", roses)
    else:
        why = ngettext("%(num)d rose, too many", "%(num)d roses, too many", roses)
    return points, _("%(name)s — %(why)s = %(points)d", name=name, why=why, points=points), c.item_positions.get(
        "rose", ())


def _hunter(c: Contents, name: str) -> tuple[int, str, tuple[int, ...]]:
    pos = c.item_positions
    present = [s for s in SPECIES if (sum(c.n(k) for k in SHEEP) if s == "sheep" else c.n(s))]
    points = 3 * len(present)
    counted = tuple(p for s in present for k in (SHEEP if s == "sheep" else (s,)) for p in pos.get(k, ()))
    species = list_words([_(SPECIES_NAMES[s]) for s in present])  # (no call inside a call: Babel misreads it)
    detail = ngettext("%(name)s — only %(species)s: %(num)d species × 3 = %(points)d",
                      "%(name)s — %(species)s: %(num)d species × 3 = %(points)d", len(present), name=name,
                      species=species, points=points)
    return points, detail, counted


def _little_prince(c: Contents, name: str) -> tuple[int, str, tuple[int, ...]]:
    pos = c.item_positions
    colours = [k for k in SHEEP if c.n(k)]
    boxes = c.n("box")
    points = 3 * len(colours) + boxes
    named = list_words([_(SHEEP_COLOURS[k]) for k in colours])
    detail = _("%(name)s — sheep colours: %(colours)s: %(n)d × 3 = %(colour_points)d, plus %(boxes)s = %(points)d",
               name=name, colours=named, n=len(colours),
               colour_points=3 * len(colours), boxes=item_words("box", boxes), points=points)
    counted = tuple(p for k in colours for p in pos.get(k, ())) + pos.get("box", ())
    return points, detail, counted


_PER_ITEM = {  # character -> (the item it counts, points per item)
    "vain_man": ("snake", 4), "astronomer": ("sunset", 2), "lamplighter": ("lamppost", 1),
    "turkish_astronomer": ("star", 1), "gardener": ("baobab", 7),
    **{f"businessman_{colour}": (f"sheep_{colour}", SHEEP_PRICE[f"sheep_{colour}"]) for colour in ("white", "grey", "brown")},
}


def score_character(character: str, c: Contents) -> tuple[int, str, tuple[int, ...]]:
    """Points, the reason in words, and the positions counted, for one copy of a character."""
    name = character_name(character)
    if character in _PER_ITEM:
        item, each = _PER_ITEM[character]
        return _per_item(c, name, item, each)
    if character == "geographer":
        n = c.no_volcano_tiles
        return n, ngettext("%(name)s — %(num)d planet tile without a volcano × 1 = %(num)d",
                           "%(name)s — %(num)d planet tiles without a volcano × 1 = %(num)d", n,
                           name=name), c.no_volcano_positions
    if character == "drunkard":
        n = c.face_down
        return 3 * n, ngettext("%(name)s — %(num)d face-down tile × 3 = %(points)d",
                               "%(name)s — %(num)d face-down tiles × 3 = %(points)d", n,
                               name=name, points=3 * n), c.face_down_positions
    if character == "king":
        return _king(c, name)
    if character == "hunter":
        return _hunter(c, name)
    if character == "little_prince":
        return _little_prince(c, name)
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
    return ngettext("%(sign)s%(num)d point", "%(sign)s%(num)d points", abs(n), sign="−" if n < 0 else "")


def _volcanoes(n: int) -> str:
    return ngettext("%(num)d volcano", "%(num)d volcanoes", n)


def tie_break_words(lines: list[TableLine]) -> str:
    """One sentence on how the winner was decided, for the results page."""
    if not lines:
        return ""
    if len(lines) == 1:
        l = lines[0]
        if not l.penalty:
            return _("%(name)s: %(points)s.", name=l.name, points=_points(l.total))
        total = f"{'−' if l.total < 0 else ''}{abs(l.total)}"
        return _("%(name)s: %(points)s, or %(total)s if this planet has the most volcanoes at the table.",
                 name=l.name, points=_points(l.planet.subtotal), total=total)
    winners = [l for l in lines if l.winner]
    best = max(l.total for l in lines)
    tied_on_total = [l for l in lines if l.total == best]
    if len(winners) > 1:
        return _("%(names)s share the victory: %(points)s and %(volcanoes)s each.",
                 names=list_words([l.name for l in winners]), points=_points(best),
                 volcanoes=_volcanoes(winners[0].planet.volcanoes))
    w = winners[0]
    if len(tied_on_total) > 1:
        others = [l for l in tied_on_total if l is not w]
        return _("%(name)s wins the tie at %(points)s with fewer volcanoes (%(mine)d against %(theirs)s).",
                 name=w.name, points=_points(best), mine=w.planet.volcanoes,
                 theirs=list_words([str(l.planet.volcanoes) for l in others]))
    return _("%(name)s wins with %(points)s.", name=w.name, points=_points(best))


def penalty_words(lines: list[TableLine]) -> str:
    hit = [l for l in lines if l.penalty]
    if len(lines) == 1 and hit:
        return _("−%(n)d if this planet has the most volcanoes at the table (%(n)d).", n=hit[0].planet.volcanoes)
    if not hit:
        return _("No volcanoes on the table: nobody loses points.")
    n = hit[0].planet.volcanoes
    if len(hit) == 1:
        return _("%(name)s has the most volcanoes (%(n)d) and loses %(points)s.", name=hit[0].name, n=n,
                 points=_points(n))
    return _("%(names)s tie for the most volcanoes (%(n)d) and each lose %(points)s.",
             names=list_words([l.name for l in hit]), n=n, points=_points(n))
