"""The tile catalog: the 80 tiles of the game, read from ``scorer/data/tiles.toml``.

Plain data, no Flask. The catalog is loaded once (``catalog()``) and validated; a broken file
raises ``CatalogError`` naming the line at fault, so the app refuses to start rather than score
with wrong tiles.
"""
from __future__ import annotations

import os
import re
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from types import MappingProxyType
from collections.abc import Callable, Iterator, Mapping

from .i18n import N_, _, ngettext, pgettext

STACKS = ("center", "uphill", "downhill", "character")

ITEMS = (
    "baobab", "volcano", "sunset", "rose", "lamppost", "box", "star",
    "fox", "elephant", "snake", "sheep_white", "sheep_grey", "sheep_brown",
)
SHEEP = ("sheep_white", "sheep_grey", "sheep_brown")

CHARACTERS = (
    "vain_man", "geographer", "astronomer", "king", "lamplighter", "hunter", "drunkard",
    "businessman_white", "businessman_grey", "businessman_brown", "gardener",
    "turkish_astronomer", "little_prince",
)

# Words a player reads, marked for the catalogs (``N_``) and translated where they are shown:
# ``character_name``, ``item_name``, ``item_words``, ``stack_name``, ``character_rule``.
ITEM_NAMES = {
    "baobab": (N_("baobab"), N_("baobabs")),
    "volcano": (N_("volcano"), N_("volcanoes")),
    "sunset": (N_("sunset"), N_("sunsets")),
    "rose": (N_("rose"), N_("roses")),
    "lamppost": (N_("lamppost"), N_("lampposts")),
    "box": (N_("box"), N_("boxes")),
    "star": (N_("Large Star"), N_("Large Stars")),
    "fox": (N_("fox"), N_("foxes")),
    "elephant": (N_("elephant"), N_("elephants")),
    "snake": (N_("snake"), N_("snakes")),
    "sheep_white": (N_("white sheep"), "white sheep"),  # English says "sheep" for both: see _SHEEP_PLURALS
    "sheep_grey": (N_("grey sheep"), "grey sheep"),
    "sheep_brown": (N_("brown sheep"), "brown sheep"),
}
_SHEEP_PLURALS: dict[str, Callable[[], str]] = {
    "sheep_white": lambda: pgettext("several", "white sheep"),
    "sheep_grey": lambda: pgettext("several", "grey sheep"),
    "sheep_brown": lambda: pgettext("several", "brown sheep"),
}
# "2 roses": the catalog's plural forms (French 0 and 1 take the singular; Chinese has one form).
ITEM_COUNTS: dict[str, Callable[[int], str]] = {
    "baobab": lambda n: ngettext("%(num)d baobab", "%(num)d baobabs", n),
    "volcano": lambda n: ngettext("%(num)d volcano", "%(num)d volcanoes", n),
    "sunset": lambda n: ngettext("%(num)d sunset", "%(num)d sunsets", n),
    "rose": lambda n: ngettext("%(num)d rose", "%(num)d roses", n),
    "lamppost": lambda n: ngettext("%(num)d lamppost", "%(num)d lampposts", n),
    "box": lambda n: ngettext("%(num)d box", "%(num)d boxes", n),
    "star": lambda n: ngettext("%(num)d Large Star", "%(num)d Large Stars", n),
    "fox": lambda n: ngettext("%(num)d fox", "%(num)d foxes", n),
    "elephant": lambda n: ngettext("%(num)d elephant", "%(num)d elephants", n),
    "snake": lambda n: ngettext("%(num)d snake", "%(num)d snakes", n),
    "sheep_white": lambda n: ngettext("%(num)d white sheep", "%(num)d white sheep", n),
    "sheep_grey": lambda n: ngettext("%(num)d grey sheep", "%(num)d grey sheep", n),
    "sheep_brown": lambda n: ngettext("%(num)d brown sheep", "%(num)d brown sheep", n),
}
STACK_NAMES = {
    "center": N_("planet center"),
    "uphill": N_("uphill edge"),
    "downhill": N_("downhill edge"),
    "character": N_("character"),
}
CHARACTER_NAMES = {
    "vain_man": N_("Vain Man"),
    "geographer": N_("Geographer"),
    "astronomer": N_("Astronomer"),
    "king": N_("King"),
    "lamplighter": N_("Lamplighter"),
    "hunter": N_("Hunter"),
    "drunkard": N_("Drunkard"),
    "businessman_white": N_("Businessman (white)"),
    "businessman_grey": N_("Businessman (grey)"),
    "businessman_brown": N_("Businessman (brown)"),
    "gardener": N_("Gardener"),
    "turkish_astronomer": N_("Turkish Astronomer"),
    "little_prince": N_("Little Prince"),
}
CHARACTER_RULES = {
    "vain_man": N_("4 points per snake"),
    "geographer": N_("1 point per planet tile without a volcano (face-down tiles count)"),
    "astronomer": N_("2 points per sunset"),
    "king": N_("14 points for exactly 1 rose, 7 for exactly 2, else 0"),
    "lamplighter": N_("1 point per lamppost"),
    "hunter": N_("3 points per species: fox, elephant, snake, sheep"),
    "drunkard": N_("3 points per face-down tile"),
    "businessman_white": N_("2 points per white sheep"),
    "businessman_grey": N_("3 points per grey sheep"),
    "businessman_brown": N_("5 points per brown sheep"),
    "gardener": N_("7 points per face-up baobab"),
    "turkish_astronomer": N_("1 point per Large Star, character tiles included"),
    "little_prince": N_("3 points per sheep colour, plus 1 per box"),
}

DEFAULT_PATH = Path(__file__).with_name("data") / "tiles.toml"


def item_words(item: str, n: int) -> str:
    """``"2 roses"``, ``"1 rose"``, in the reader's language."""
    return ITEM_COUNTS[item](n)


def item_name(item: str, plural: bool = False) -> str:
    """The item's name without a number: ``"rose"``, or ``"roses"`` for a label or a kind."""
    one, many = ITEM_NAMES[item]
    if plural and item in _SHEEP_PLURALS:
        return _SHEEP_PLURALS[item]()
    return _(many if plural else one)


def character_name(character: str) -> str:
    return _(CHARACTER_NAMES[character])


def character_rule(character: str) -> str:
    return _(CHARACTER_RULES[character])


def stack_name(stack: str) -> str:
    return _(STACK_NAMES[stack])


class CatalogError(ValueError):
    """The catalog file is broken; the message names the file and line."""


@dataclass(frozen=True)
class Tile:
    id: str
    stack: str
    items: Mapping[str, int] = field(default_factory=dict)
    character: str | None = None

    has_baobab: bool = field(init=False, repr=False, compare=False)
    has_volcano: bool = field(init=False, repr=False, compare=False)
    pairs: tuple[tuple[str, int], ...] = field(init=False, repr=False, compare=False)  # ((item, n), ...): fast to walk

    def __post_init__(self) -> None:
        object.__setattr__(self, "has_baobab", self.items.get("baobab", 0) > 0)
        object.__setattr__(self, "has_volcano", self.items.get("volcano", 0) > 0)
        object.__setattr__(self, "pairs", tuple(self.items.items()))

    def count(self, item: str) -> int:
        return self.items.get(item, 0)

    def describe(self) -> str:
        """What a player sees on the tile, e.g. ``"Hunter, 1 Large Star"`` or ``"baobab, 2 white sheep"``."""
        parts = [character_name(self.character)] if self.character else []
        for item in ITEMS:
            n = self.count(item)
            if n:
                parts.append(item_name(item) if n == 1 else item_words(item, n))
        if not parts:
            return _("nothing")
        text = parts[0]
        for part in parts[1:]:
            text = _("%(list)s, %(item)s", list=text, item=part)
        return text


@dataclass(frozen=True, eq=False)
class Catalog:
    tiles: Mapping[str, Tile]
    path: str = ""

    def __contains__(self, tile_id: object) -> bool:
        return tile_id in self.tiles

    def __getitem__(self, tile_id: str) -> Tile:
        return self.tiles[tile_id]

    def __iter__(self) -> Iterator[Tile]:
        return iter(self.tiles.values())

    def __len__(self) -> int:
        return len(self.tiles)

    def stack(self, stack: str) -> list[Tile]:
        return [t for t in self.tiles.values() if t.stack == stack]

    def copies_of(self, character: str) -> int:
        return sum(1 for t in self.tiles.values() if t.character == character)

    @cached_property
    def _most(self) -> dict[str, int]:
        return {item: self._most_on_planet(item) for item in ITEMS}

    def most_on_planet(self, item: str) -> int:
        return self._most[item]

    def _most_on_planet(self, item: str) -> int:
        """The most of ``item`` any planet can show: the four richest tiles of each stack."""
        total = 0
        for stack in STACKS:
            counts = sorted((t.count(item) for t in self.stack(stack)), reverse=True)
            total += sum(counts[:4])
        return total


def _line_of(text: str, tile_id: str) -> int | None:
    pattern = re.compile(rf"^\s*{re.escape(tile_id)}\s*=")
    for number, line in enumerate(text.splitlines(), start=1):
        if pattern.match(line):
            return number
    return None


def _parse_tile(tile_id: str, entry: object) -> Tile:
    """One catalog line as a tile, or ``ValueError`` saying what is wrong with it."""
    if not re.fullmatch(r"[A-Z][0-9]{2}", tile_id):
        raise ValueError("an id is a capital letter and two digits, like C07")
    if not isinstance(entry, dict):
        raise ValueError("expected { stack = ..., item = count, ... }")
    entry = dict(entry)
    stack = entry.pop("stack", None)
    if stack not in STACKS:
        raise ValueError(f"stack must be one of {', '.join(STACKS)}, not {stack!r}")
    character = entry.pop("character", None)
    if stack == "character" and character not in CHARACTERS:
        raise ValueError(f"a character tile needs a known character, not {character!r}")
    if stack != "character" and character is not None:
        raise ValueError("only character tiles carry a character")
    items: dict[str, int] = {}
    for item, n in entry.items():
        if item not in ITEMS:
            raise ValueError(f"unknown item {item!r}")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise ValueError(f"{item} must be a whole number ≥ 0, not {n!r}")
        if n:
            items[item] = n
    if items.get("baobab", 0) > 1 or items.get("volcano", 0) > 1:
        raise ValueError("no tile carries more than one baobab or one volcano")
    if stack == "character" and set(items) - {"star"}:
        raise ValueError("character tiles show only Large Stars")
    return Tile(tile_id, stack, MappingProxyType(items), character)


def parse_catalog(text: str, path: str = "<catalog>") -> Catalog:
    """Parse and validate catalog text; raise ``CatalogError`` naming the line at fault."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CatalogError(f"{path}: not a readable catalog: {exc}") from None

    raw = data.get("tiles")
    if not isinstance(raw, dict):
        raise CatalogError(f"{path}: there is no [tiles] table")

    def fail(tile_id: str, message: str) -> CatalogError:
        line = _line_of(text, tile_id)
        where = f"{path}:{line}" if line else path
        return CatalogError(f"{where}: tile {tile_id}: {message}")

    tiles: dict[str, Tile] = {}
    for tile_id, entry in raw.items():
        try:
            tiles[tile_id] = _parse_tile(tile_id, entry)
        except ValueError as exc:
            raise fail(tile_id, str(exc)) from None

    if len(tiles) != 80:
        raise CatalogError(f"{path}: the game has 80 tiles, this catalog has {len(tiles)}")
    per_stack = Counter(t.stack for t in tiles.values())
    for stack in STACKS:
        if per_stack[stack] != 20:
            raise CatalogError(f"{path}: the {stack} stack has {per_stack[stack]} tiles, not 20")
    return Catalog(MappingProxyType(tiles), path)


def load_catalog(path: str | os.PathLike[str] | None = None) -> Catalog:
    path = Path(path) if path else DEFAULT_PATH
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CatalogError(f"{path}: cannot read the catalog: {exc.strerror}") from None
    return parse_catalog(text, str(path))


_configured_path: Path | None = None


def use_catalog_file(path: str | os.PathLike[str] | None) -> None:
    """Make ``catalog()`` load this file (the settings call it once; ``None``: the shipped one)."""
    global _configured_path
    _configured_path = Path(path) if path else None
    catalog.cache_clear()


@lru_cache(maxsize=1)
def catalog() -> Catalog:
    """The catalog in use: the file the settings chose, else the one shipped with the app."""
    return load_catalog(_configured_path)
