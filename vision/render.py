"""Draw a planet grid top-down from the reference art (SPEC §2 ``python -m vision render``).

The image is exactly 4×4 equal square cells and nothing else: a tile id draws its reference
image, ``"back"`` draws ``back.png``, ``null`` draws an empty cell.
"""
from __future__ import annotations

from functools import lru_cache

from PIL import Image

from .paths import REFERENCE_DIR, reference_path
from .art import draw_empty

DEFAULT_SIZE = 1024


class RenderError(ValueError):
    """The grid cannot be drawn; the message is for a person."""


def _cells(grid) -> list:
    if isinstance(grid, dict):
        grid = grid.get("cells")
    if not isinstance(grid, list) or len(grid) != 4 or not all(isinstance(r, list) and len(r) == 4 for r in grid):
        raise RenderError('A planet is {"cells": [[4 cells] × 4 rows]}.')
    cells = [c for row in grid for c in row]
    for p, c in enumerate(cells):
        if c is not None and not isinstance(c, str):
            raise RenderError(f"Row {p // 4 + 1}, column {p % 4 + 1}: {c!r} is not a tile id, \"back\" or null.")
        if isinstance(c, str) and not reference_path(c).is_file():
            raise RenderError(f"Row {p // 4 + 1}, column {p % 4 + 1}: there is no tile {c!r} "
                              f"(no {reference_path(c).name} in {REFERENCE_DIR}).")
    return cells


@lru_cache(maxsize=256)
def _tile_image(name: str, cell: int, mtime: float) -> Image.Image:
    with Image.open(reference_path(name)) as im:
        return im.convert("RGB").resize((cell, cell), Image.LANCZOS)


def render_grid(grid, size: int = DEFAULT_SIZE) -> Image.Image:
    """A PIL RGB image of side ``4 * (size // 4)``: 4×4 equal square cells."""
    cells = _cells(grid)
    if not isinstance(size, int) or size < 8:
        raise RenderError("The size must be a whole number of pixels, at least 8.")
    if size > 8192:
        raise RenderError("The size is at most 8192 pixels.")
    cell = size // 4
    out = Image.new("RGB", (4 * cell, 4 * cell))
    empty = draw_empty(cell)
    for p, c in enumerate(cells):
        r, k = divmod(p, 4)
        im = empty if c is None else _tile_image(c, cell, reference_path(c).stat().st_mtime)
        out.paste(im, (k * cell, r * cell))
    return out


def render_png(grid, size: int = DEFAULT_SIZE) -> bytes:
    """The planet as PNG bytes."""
    import io
    buf = io.BytesIO()
    render_grid(grid, size).save(buf, format="PNG")
    return buf.getvalue()
