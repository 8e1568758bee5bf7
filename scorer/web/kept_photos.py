"""Photos kept in the instance folder, one folder an id (a scan's review, ``scan``; a teaching
photo kept for its corners, ``box_photos``): a new folder, whether an id is one, a photo decoded
upright at the scale it needs, and the newest kept while the rest are forgotten. Every worker sees
the folders; another may be forgetting the same ones at the same moment."""
from __future__ import annotations

import io
import math
import re
import secrets
import shutil
import time
from pathlib import Path
from typing import Any

import numpy as np

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


def straightened(data: bytes, corners: list, side: int, decoded: float = 0.6) -> Any:
    """The planet cut out of the photo and made square, ``side`` px a side: ``corners`` (four
    points in the upright photo's pixels, clockwise from the one to show at the top left) become
    the picture's corners. The photo is decoded (``upright``) at the smallest scale that still
    gives the planet ``decoded`` × ``side`` px or more: the decode is the cost (a small planet in a
    12 MP photo decoded for 480 px took 70–100 ms, for 0.6 of that 30–35 ms), and the picture,
    shown at half its size on a phone, looked the same."""
    from PIL import Image
    q = np.asarray(corners, np.float64).reshape(4, 2)
    edge = float(np.mean(np.linalg.norm(q - np.roll(q, 1, axis=0), axis=1)))
    with Image.open(io.BytesIO(data)) as im:
        short, long = min(im.size), max(im.size)   # the same whichever way EXIF turns it
    photo = upright(data, max(1, math.ceil(short * side * decoded / max(edge, 1.0))))
    return photo.transform((side, side), Image.Transform.PERSPECTIVE,
                           _perspective(side, q * (max(photo.size) / long)), Image.Resampling.BICUBIC)


def _perspective(side: int, to: np.ndarray) -> tuple:
    """Pillow's eight perspective coefficients taking the square of ``side`` px (its corners
    clockwise from the top left) onto the four points ``to``."""
    square = ((0, 0), (side, 0), (side, side), (0, side))
    a, b = [], []
    for (x, y), (u, v) in zip(square, to):
        a += [[x, y, 1, 0, 0, 0, -u * x, -u * y], [0, 0, 0, x, y, 1, -v * x, -v * y]]
        b += [u, v]
    return tuple(np.linalg.solve(np.asarray(a, np.float64), np.asarray(b, np.float64)))


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
