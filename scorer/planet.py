"""A planet: 16 positions in a 4×4 grid, row-major 0..15 (SPEC §1).

Characters sit at the corners, centers in the middle, and each side of the square holds one
uphill and one downhill edge, turning clockwise. A cell is empty (``None``) or a ``Cell``: a tile
id, face up or face down. Plain data, no Flask.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

from dataclasses import dataclass

from .catalog import Catalog, catalog as default_catalog, stack_name
from .i18n import _

POSITIONS_OF = {
    "character": (0, 3, 12, 15),
    "center": (5, 6, 9, 10),
    "uphill": (1, 7, 14, 8),
    "downhill": (2, 11, 13, 4),
}
STACK_AT = {pos: stack for stack, positions in POSITIONS_OF.items() for pos in positions}
BACK = "back"
BAOBABS_TO_FLIP = 3


def row_col(position: int) -> tuple[int, int]:
    return divmod(position, 4)


def position_words(position: int) -> str:
    row, col = row_col(position)
    return _("row %(row)d, column %(col)d", row=row + 1, col=col + 1)


@dataclass(frozen=True)
class Cell:
    tile: str | None  # None: a face-down tile whose face is not known (a "back" in a grid)
    face_down: bool = False

    def as_json(self) -> str:
        return BACK if self.face_down or self.tile is None else self.tile


EMPTY_CELLS: tuple[Cell | None, ...] = (None,) * 16


@dataclass(frozen=True)
class Planet:
    cells: tuple[Cell | None, ...] = EMPTY_CELLS

    # -- building -------------------------------------------------------------------------
    def free_positions(self, stack: str) -> list[int]:
        return [p for p in POSITIONS_OF[stack] if self.cells[p] is None]

    def face_up_baobab_positions(self, cat: Catalog | None = None) -> list[int]:
        cat = cat or default_catalog()
        return [p for p, cell in enumerate(self.cells)
                if cell is not None and not cell.face_down and cell.tile and cat[cell.tile].has_baobab]

    def place(self, tile_id: str, position: int | None = None,
              cat: Catalog | None = None) -> tuple[Planet, tuple[int, ...]]:
        """Add a tile as it joins the planet; return the new planet and the positions flipped.

        When the face-up baobabs reach three, those three tiles turn face down at once.
        ``position`` defaults to the first free position of the tile's stack.
        """
        cat = cat or default_catalog()
        tile = cat[tile_id]
        if position is None:
            free = self.free_positions(tile.stack)
            if not free:
                raise ValueError(_full_stack(tile.stack))
            position = free[0]
        if STACK_AT[position] != tile.stack:
            raise ValueError(_("%(tile)s is a %(stack)s tile; %(where)s takes a %(needed)s tile.", tile=tile_id,
                               stack=stack_name(tile.stack), where=position_words(position),
                               needed=stack_name(STACK_AT[position])))
        if self.cells[position] is not None:
            raise ValueError(_("%(where)s is already taken.", where=position_words(position)))
        cells = list(self.cells)
        cells[position] = Cell(tile_id)
        flipped = flip_baobabs(cells, cat) if tile.has_baobab else ()
        return Planet(tuple(cells)), flipped

    # -- reading ----------------------------------------------------------------------------
    @property
    def tile_count(self) -> int:
        return sum(1 for c in self.cells if c is not None)

    @property
    def complete(self) -> bool:
        return self.tile_count == 16

    def tile_ids(self) -> list[str]:
        return [c.tile for c in self.cells if c is not None and c.tile]

    def as_grid(self, hide: Callable[[int, Cell], bool] = lambda position, cell: False) -> dict[str, list[list[str | None]]]:
        """The SPEC's planet grid JSON; ``hide(position, cell)`` true shows ``"hidden"``."""
        out: list[str | None] = []
        for p, cell in enumerate(self.cells):
            if cell is None:
                out.append(None)
            elif hide(p, cell):
                out.append("hidden")
            else:
                out.append(cell.as_json())
        return {"cells": [out[r * 4:(r + 1) * 4] for r in range(4)]}


def _full_stack(stack: str) -> str:
    return _("This planet already has its 4 %(stack)s tiles.", stack=stack_name(stack))


def planet_from_take_order(tile_ids: Iterable[str], cat: Catalog | None = None) -> tuple[Planet, list[tuple[int, ...]]]:
    """Build a planet from tiles in the order they were taken, each at its stack's next free
    position; return it with the flips that happened, in order. (The same as ``place`` tile by
    tile, without a new planet per tile: scoring a table calls this a lot.)"""
    cat = cat or default_catalog()
    cells: list[Cell | None] = [None] * 16
    free = {stack: list(positions) for stack, positions in POSITIONS_OF.items()}
    flips = []
    for tile_id in tile_ids:
        tile = cat[tile_id]
        if not free[tile.stack]:
            raise ValueError(_full_stack(tile.stack))
        position = free[tile.stack].pop(0)
        cells[position] = Cell(tile_id)
        if tile.has_baobab and (flipped := flip_baobabs(cells, cat)):
            flips.append(flipped)
    return Planet(tuple(cells)), flips


def flip_baobabs(cells: list[Cell | None], cat: Catalog) -> tuple[int, ...]:
    """The baobab rule, in one place: when the face-up baobabs reach three, those tiles turn
    face down at once. Turns them in ``cells`` and gives the positions turned (or none)."""
    baobabs = tuple(p for p, cell in enumerate(cells)
                    if cell is not None and not cell.face_down and cell.tile and cat[cell.tile].has_baobab)
    if len(baobabs) < BAOBABS_TO_FLIP:
        return ()
    for p in baobabs:
        cells[p] = Cell(cells[p].tile, face_down=True)  # type: ignore[union-attr]
    return baobabs
