"""One view model for every planet the pages draw: the score page and the scan review (edit), the
results page (view), the tracker's boards (view, and pick: the free places a tile may go).

``partials/planet.html`` draws it (one macro, ``planet(view, mode)``) with one CSS block in
``app.css``. Cells say what a person sees: the tile's art and words, its stack (one colour per
stack everywhere), and the marks a page adds (lit, doubtful, an error, a place to pick).
"""
from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

from flask import current_app, get_template_attribute, has_request_context, request, url_for
from markupsafe import Markup

from ..catalog import catalog, character_name, stack_name
from ..i18n import N_, _
from ..planet import BACK, STACK_AT, position_words
from .art import sprite_place
from .language import translations as language_catalog

T = TypeVar("T")
HIDDEN = "hidden"  # a tile this viewer may not see (the tracker hides face-down characters)


@dataclass(frozen=True)
class Cell:
    position: int
    stack: str                 # "character" / "center" / "uphill" / "downhill"
    stack_name: str
    where: str                 # "row 1, column 2"
    value: str = ""            # a tile id, "back", "hidden" or "" (empty)
    kind: str = "empty"        # "tile" / "back" / "hidden" / "empty" / "unknown"
    art: str | None = None     # the tile's picture
    sprite: tuple[int, int] | None = None  # its column and row in the sprite sheet (small planets)
    text: str = ""             # what the tile shows, in words
    caption: str = ""          # a small caption under the art (a tile id where one is needed)
    character: str | None = None
    lit: bool = False          # what a character counted (results)
    self_: bool = False        # that character's own tile (results)
    volcano: bool = False
    doubtful: bool = False     # a photo reading the scanner is unsure of (edit)
    error: str | None = None   # this cell is at fault (edit)
    name: str = ""             # the form field's name (edit)


@dataclass(frozen=True)
class Choice:
    """One picture in the tile picker: identical tiles merged, ``left`` of them still free."""
    value: str                 # the tile id a tap puts in the square ("" empties it, "back" turns it over)
    art: str | None
    text: str
    items: str = ""            # the items it shows, for the filters ("rose sheep …")
    left: int = 1
    likely: bool = False       # one of the tiles a photo's reader found likeliest there (shown first)


@dataclass(frozen=True)
class PlanetView:
    cells: tuple[Cell, ...]
    label: str = ""
    prefix: str = ""           # edit: input names are "<prefix>-<position>"
    player: int = 0            # edit: the picker's buttons are "cell-<player>", "tile-<player>" …
    active: int | None = None  # edit: the square the picker is choosing for
    choices: tuple[Choice, ...] = ()
    filters: tuple[tuple[str, str], ...] = ()  # edit: (item, words) the picker can filter by
    filtered: tuple[str, ...] = ()             # edit: the items ticked (kept through every swap)
    tiles: int = 0             # how many tiles are placed
    extra: Mapping[str, object] = field(default_factory=dict)

    @property
    def active_cell(self) -> Cell | None:
        return self.cells[self.active] if self.active is not None else None


def art_url(value: str | None) -> str | None:
    if not value or value == HIDDEN or (value != BACK and value not in catalog()):
        return None
    return url_for("art.tile_art", name=value)


def tile_words(value: str | None) -> str:
    if not value:
        return ""
    if value == BACK:
        return _("face down")
    if value == HIDDEN:
        return _("Hidden tile")
    cat = catalog()
    return cat[value].describe() if value in cat else value


def kind_of(value: str | None) -> str:
    if not value:
        return "empty"
    if value in (BACK, HIDDEN):
        return value
    return "tile" if value in catalog() else "unknown"


def cell_of(position: int, value: object, **marks) -> Cell:
    """One cell: ``value`` a tile id, ``"back"``, ``"hidden"`` or None/""; ``marks`` as in ``Cell``."""
    return Cell(**_cell_words(position, _value(value)), **marks)


def _value(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""


CELLS_KEPT = 20_000   # per table below (16 places x ~85 values x 3 languages x 2 sizes: ~8,200)


def _kept(table: str, key: tuple, value: str, made: T) -> T:
    """``made`` kept per app in ``app.extensions[table]`` under ``key`` (bounded: cleared at
    ``CELLS_KEPT``) when ``value`` is a catalog tile, the back, hidden or empty; a value typed or
    posted that is no tile is never kept (any may come)."""
    if kind_of(value) != "unknown":
        kept: dict = current_app.extensions.setdefault(table, {})
        if len(kept) >= CELLS_KEPT:
            kept.clear()
        kept[key] = made
    return made


def _script_root() -> str | None:
    return request.script_root if has_request_context() else None


def _cell_words(position: int, value: str) -> dict[str, object]:
    """What a cell at ``position`` holding ``value`` shows whatever its marks: its stack, place,
    picture and words, in the request's language. Made once per app, language catalog, script root,
    place and value, and kept (``app.extensions["planet_cells"]``): drawing a planet made these
    16 times (with its gettext calls and an ``url_for``), and a tracker board draws several
    planets at every move."""
    def make() -> dict[str, object]:
        kind = kind_of(value)
        tile = catalog()[value] if kind == "tile" else None
        stack = STACK_AT[position]
        return {"position": position, "stack": stack, "stack_name": stack_name(stack), "where": position_words(position),
                "value": value, "kind": kind, "art": art_url(value),
                "sprite": sprite_place(value) if kind in ("tile", "back") else None, "text": tile_words(value),
                "character": character_name(tile.character) if tile and tile.character else None}
    key = (language_catalog(), _script_root(), position, value)  # the catalog itself: kept alive while its key is
    words = current_app.extensions.get("planet_cells", {}).get(key)
    return words if words is not None else _kept("planet_cells", key, value, make())


def drawn_cells(cells: object, *, small: bool = False) -> list[Markup]:
    """The 16 read-only cells of a planet without marks (the tracker's), each as the ``view_cell``
    macro of ``partials/planet.html`` draws it: made once per app, language catalog, script root,
    place, value and size, and kept (``app.extensions["planet_cell_drawings"]``). A board draws
    a planet at every move (several, with hidden characters or across workers), and its cells
    were most of that."""
    root, language = _script_root(), language_catalog()
    kept: dict = current_app.extensions.get("planet_cell_drawings", {})
    out = []
    for position, value in enumerate(flat(cells)):
        value = _value(value)
        key = (language, root, position, value, small)
        drawing = kept.get(key)
        if drawing is None:
            view_cell = get_template_attribute("partials/planet.html", "view_cell")
            drawing = _kept("planet_cell_drawings", key, value, Markup(view_cell(cell_of(position, value), small)))
        out.append(drawing)
    return out


def flat(cells: object) -> list:
    """16 values, row-major, from 16 values or 4 rows of 4 (missing ones empty)."""
    if isinstance(cells, Sequence) and cells and all(isinstance(r, (list, tuple)) for r in cells):
        cells = [v for row in cells for v in row]
    values = list(cells or [])[:16] if isinstance(cells, Iterable) and not isinstance(cells, str) else []
    return values + [None] * (16 - len(values))


FILTERS = {"rose": N_("rose"), "sheep": N_("sheep"), "fox": N_("fox"), "elephant": N_("elephant"),
           "snake": N_("snake"), "box": N_("box"), "lamppost": N_("lamppost"), "volcano": N_("volcano"),
           "baobab": N_("baobab"), "sunset": N_("sunset")}  # the picker's filters


def items_of(tile) -> str:
    return " ".join(sorted({("sheep" if i.startswith("sheep") else i) for i, n in tile.items.items() if n}))


FIRST_ROW = 4   # the picker's first row: its 4 columns at any width (vision.reading.LIKELY)


def choices_for(stack: str, value: str, used: Collection[str], likely: Sequence[str] = ()) -> tuple[Choice, ...]:
    """The picker's pictures for a square of ``stack``: tiles that look the same merged into one
    choice (the first free one is taken), then face down and empty. ``likely``: the tiles a
    photo's reader found likeliest there after the one it read, best first: the first
    ``FIRST_ROW`` of their choices that can still be put there come first, marked (a look whose
    every tile lies in another square is skipped for the next likely one)."""
    groups: dict[str, list[str]] = {}
    for tile in catalog().stack(stack):
        groups.setdefault(tile.describe(), []).append(tile.id)
    out, ids_of = [], []
    for text, ids in groups.items():
        free = [i for i in ids if i not in used or i == value]
        first = catalog()[ids[0]]
        out.append(Choice(value=value if value in ids else (free or ids)[0], art=art_url(ids[0]), text=text,
                          items=items_of(first), left=len(free)))
        ids_of.append(ids)
    if stack != "character":
        out.append(Choice(value=BACK, art=art_url(BACK), text=_("face down (baobab turned over)"), left=99))
        ids_of.append([BACK])
    front: list[int] = []
    for tile in likely:
        at = next((i for i, ids in enumerate(ids_of) if tile in ids), None)
        if at is not None and at not in front and out[at].left > 0 and len(front) < FIRST_ROW:
            front.append(at)
    if front:
        out = [replace(out[i], likely=True) for i in front] + [c for i, c in enumerate(out) if i not in front]
    out.append(Choice(value="", art=None, text=_("empty"), left=99))
    return tuple(out)


def planet(cells: object, *, label: str = "", prefix: str = "", player: int = 0, active: int | None = None,
           filtered: Collection[str] = (),
           used: Collection[str] = (), doubtful: Collection[int] = (),
           errors: Mapping[int, str] | None = None, lit: Collection[int] = (), self_position: int | None = None,
           volcanoes: Collection[int] = (), likely: Mapping[int, Sequence[str]] | None = None,
           **extra: object) -> PlanetView:
    """The view model of a planet. ``cells``: 16 values or 4 rows of 4 (tile id, "back", "hidden",
    None). ``prefix`` names the inputs (edit); ``doubtful``/``errors`` mark cells to check (edit);
    ``lit``/``self_position``/``volcanoes`` what a character counted (view); ``likely``: per
    square, the tiles a photo's reader found likeliest there after the one it read (the picker
    shows them first)."""
    errors = errors or {}
    out = tuple(
        cell_of(p, v, lit=p in lit, self_=p == self_position, volcano=p in volcanoes, doubtful=p in doubtful,
                error=errors.get(p), name=f"{prefix}-{p}" if prefix else "")
        for p, v in enumerate(flat(cells)))
    choices = (choices_for(out[active].stack, out[active].value, used, (likely or {}).get(active, ()))
               if prefix and active is not None else ())
    shown = {i for ch in choices for i in ch.items.split()}
    filters = tuple((item, _(words)) for item, words in FILTERS.items() if item in shown)
    return PlanetView(cells=out, label=label, prefix=prefix, player=player, active=active, choices=choices,
                      filters=filters, filtered=tuple(f for f in filtered if f in FILTERS),
                      tiles=sum(1 for c in out if c.value), extra=dict(extra))
