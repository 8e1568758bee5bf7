"""Tile art for the pages: the reference images the scanner also uses (``vision/reference``)."""
from __future__ import annotations

import re

from flask import Blueprint, abort, send_from_directory

from ..catalog import catalog

bp = Blueprint("art", __name__)


def reference_dir():
    from vision import REFERENCE_DIR
    return REFERENCE_DIR


@bp.get("/art/<name>.png")
def tile_art(name: str):
    if not (name == "back" or (re.fullmatch(r"[A-Z][0-9]{2}", name) and name in catalog())):
        abort(404)
    return send_from_directory(reference_dir(), f"{name}.png", max_age=86400)
