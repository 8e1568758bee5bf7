"""Vision: reference art, planet rendering and photo recognition (SPEC §2 "Vision, as commands").

Plain functions, no Flask:
- ``REFERENCE_DIR`` / ``reference_path(tile_id)``: the reference images (``<id>.png``, ``back.png``).
- ``render_grid(grid, size)``: a planet grid drawn top-down from the reference art (a PIL
  image); ``render_png(grid, size)``: the same as PNG bytes.
- ``recognize(data: bytes) -> Reading``: read a planet from a photo.
"""
from __future__ import annotations

from .paths import REFERENCE_DIR, reference_path


def __getattr__(name):  # render loads Pillow art code only when asked for
    if name in ("render_grid", "render_png"):
        from .render import render_grid, render_png
        return {"render_grid": render_grid, "render_png": render_png}[name]
    raise AttributeError(name)


# ``vision.recognize`` is the function (the submodule of the same name stays importable as
# ``from vision.recognize import recognize``): bound here, after the submodule, so it wins.
from .recognize import Reading, recognize  # noqa: E402

__all__ = ["REFERENCE_DIR", "Reading", "recognize", "reference_path", "render_grid", "render_png"]
