"""Photos kept in the instance folder, one folder an id (a scan's review, ``scan``; a teaching
photo kept for its corners, ``box_photos``): a new folder, whether an id is one, a photo decoded
upright at the scale it needs, and the newest kept while the rest are forgotten. Every worker sees
the folders; another may be forgetting the same ones at the same moment."""
from __future__ import annotations

import io
import re
import secrets
import shutil
import time
from pathlib import Path
from typing import Any

ID = re.compile(r"[A-Za-z0-9_-]{12}")


def new_folder(root: Path) -> tuple[str, Path]:
    """A new id (unguessable) and its folder under ``root``."""
    kept_id = secrets.token_urlsafe(9)
    folder = root / kept_id
    folder.mkdir(parents=True)
    return kept_id, folder


def is_id(kept_id: str | None) -> bool:
    return bool(ID.fullmatch(kept_id or ""))


def upright(data: bytes, side: int, max_pixels: int | None = None) -> Any:
    """The photo as a Pillow RGB image, EXIF orientation applied, a JPEG decoded at the smallest
    scale keeping both sides >= ``side`` (a 12 MP photo decoded whole took longer than reading the
    planet). More than ``max_pixels`` before decoding: ValueError."""
    from PIL import Image, ImageOps
    with Image.open(io.BytesIO(data)) as im:
        if max_pixels is not None and im.width * im.height > max_pixels:
            raise ValueError("too large")
        im.draft("RGB", (side, side))
        return ImageOps.exif_transpose(im).convert("RGB")


def forget_oldest(root: Path, keep: int, max_age: float | None = None) -> None:
    """Keep the newest ``keep`` folders of ``root``, none older than ``max_age`` seconds. A folder
    gone before it is looked at (another worker forgot it) is passed over."""
    kept = []
    for folder in root.iterdir():
        try:
            kept.append((folder.stat().st_mtime, folder))
        except FileNotFoundError:
            continue
    old = time.time() - max_age if max_age is not None else None
    for i, (mtime, folder) in enumerate(sorted(kept, reverse=True)):
        if i >= keep or (old is not None and mtime < old):
            shutil.rmtree(folder, ignore_errors=True)
