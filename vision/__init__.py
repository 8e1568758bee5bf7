"""Vision: reference art, planet rendering and photo recognition (SPEC §2 "Vision, as commands").

Plain functions, no Flask:
- ``REFERENCE_DIR`` / ``reference_path(tile_id)``: the reference images (``<id>.png``, ``back.png``).
- ``render_grid(grid, size)``: a planet grid drawn top-down from the reference art (a PIL
  image); ``render_png(grid, size)``: the same as PNG bytes.
- ``recognize(data: bytes) -> Reading``: read a planet from a photo.
"""
from __future__ import annotations

from pathlib import Path

REFERENCE_DIR = Path(__file__).with_name("reference")


def reference_path(tile_id: str) -> Path:
    """The reference image of a tile id (``"C07"``) or of the tile back (``"back"``)."""
    return REFERENCE_DIR / f"{tile_id}.png"


def __getattr__(name):  # lazy: importing vision stays cheap for the web pages
    if name in ("render_grid", "render_png"):
        from .render import render_grid, render_png
        return {"render_grid": render_grid, "render_png": render_png}[name]
    if name in ("recognize", "Reading"):
        from .recognize import recognize, Reading
        return {"recognize": recognize, "Reading": Reading}[name]
    raise AttributeError(name)
