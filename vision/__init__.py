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


def __getattr__(name):  # render loads Pillow art code only when asked for
    if name in ("render_grid", "render_png"):
        from .render import render_grid, render_png
        return {"render_grid": render_grid, "render_png": render_png}[name]
    raise AttributeError(name)


# ``vision.recognize`` is the function (the submodule of the same name stays importable as
# ``from vision.recognize import recognize``): bound here, after the submodule, so it wins.
from .recognize import Reading, recognize  # noqa: E402
