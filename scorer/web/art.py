"""Tile art for the pages: the tiles as ``vision.art`` draws them without words (the pages are read in
any language; the reference images in ``vision/reference``, which the scanner uses, keep theirs),
sent as small WebP (128 px: a planet cell is 40–80 CSS px on the pages): about a
tenth of the PNG's bytes; small planets use one sprite sheet of every tile. Made once per process,
cached for a day by the browser."""
from __future__ import annotations

import io
import re
from functools import lru_cache

from flask import Blueprint, Response, abort

from ..catalog import catalog

bp = Blueprint("art", __name__)
SIZE = 128
SMALL = 64  # the tracker's small planets: 20–40 CSS px a cell
COLUMNS = 9  # the sprite: 81 tiles (80 and the back) in a 9 × 9 sheet


def sprite_ids() -> tuple[str, ...]:
    return tuple(sorted(t.id for t in catalog().tiles.values())) + ("back",)


def sprite_place(name: str) -> tuple[int, int] | None:
    """Column and row of a tile in the sprite sheet."""
    ids = sprite_ids()
    return (ids.index(name) % COLUMNS, ids.index(name) // COLUMNS) if name in ids else None


@lru_cache(maxsize=1)
def sprite() -> bytes:
    from PIL import Image
    sheet = Image.new("RGB", (COLUMNS * SMALL, COLUMNS * SMALL))
    for k, name in enumerate(sprite_ids()):
        sheet.paste(picture(name).resize((SMALL, SMALL), Image.LANCZOS),
                    ((k % COLUMNS) * SMALL, (k // COLUMNS) * SMALL))
    out = io.BytesIO()
    sheet.save(out, "WEBP", quality=70, method=6)
    return out.getvalue()


@bp.get("/art/sprite.webp")
def tile_sprite():
    """Every tile at 64 px in one picture: a page of small planets (the tracker's five) makes one
    request instead of eighty."""
    response = Response(sprite(), mimetype="image/webp")
    response.cache_control.public = True
    response.cache_control.max_age = 86400
    return response


def reference_dir():
    from vision import REFERENCE_DIR
    return REFERENCE_DIR


@lru_cache(maxsize=96)
def picture(name: str):
    """A tile's picture with no words on it (the back has none to begin with)."""
    from PIL import Image
    if name == "back":
        with Image.open(reference_dir() / "back.png") as im:
            return im.convert("RGB")
    from vision.art import draw_tile
    return draw_tile(catalog()[name], words=False).convert("RGB")


def known(name: str) -> bool:
    return name == "back" or bool(re.fullmatch(r"[A-Z][0-9]{2}", name) and name in catalog())


@lru_cache(maxsize=128)
def webp(name: str, size: int = SIZE) -> bytes:
    from PIL import Image
    out = io.BytesIO()
    picture(name).resize((size, size), Image.LANCZOS).save(out, "WEBP", quality=62, method=6)
    return out.getvalue()


@bp.get("/art/<name>.webp")
def tile_art(name: str):
    if not known(name):
        abort(404)
    response = Response(webp(name), mimetype="image/webp")
    response.cache_control.public = True
    response.cache_control.max_age = 86400
    return response


@bp.get("/art/<name>.png")
def tile_png(name: str):
    """The full-size picture as PNG (without words, like the pages')."""
    if not known(name):
        abort(404)
    out = io.BytesIO()
    picture(name).save(out, "PNG", optimize=True)
    response = Response(out.getvalue(), mimetype="image/png")
    response.cache_control.public = True
    response.cache_control.max_age = 86400
    return response
