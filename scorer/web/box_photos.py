"""Teaching photos kept for their corners (``box_corners``): when a photo is sent for a layout,
a copy the learner reads (short side ``KEEP_SIDE``) and the picture shown for tapping
(``PICTURE_PX`` wide), in the instance folder (every worker sees it), at most ``KEEP`` of them and
none older than ``KEEP_HOURS``; this browser's last photo of each layout is remembered in its
session. Taps are kept beside them (``meta.json``)."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from flask import current_app, session

from .cpu import off_the_loop
from .kept_photos import forget_oldest, is_id, new_folder, upright

KEEP = 30                 # teaching photos kept for their corners
KEEP_HOURS = 6
KEEP_SIDE = 1200          # the learner decodes teaching photos with a short side of 600 to 1200
SHOWN_PX = 320            # CSS width the photo is shown at (fits a 360-px phone with the card's margins)
PICTURE_PX = 2 * SHOWN_PX  # the picture's own width (sharp on a phone's 2x screen)
SESSION_KEY = "box_photos"


def photos_dir() -> Path:
    return Path(current_app.instance_path) / "teaching"


def slot_dir(slot: str) -> Path | None:
    if not is_id(slot):
        return None
    folder = photos_dir() / slot
    return folder if (folder / "meta.json").is_file() else None


def keep_photo(data: bytes, n: int) -> str | None:
    """Keep a teaching photo of layout ``n`` for its corners; its id, or None when it is no
    picture Pillow can open (the learner says why)."""
    slot, folder = new_folder(photos_dir())
    try:
        w, h = off_the_loop(_shrink, data, folder)
    except Exception:  # noqa: BLE001 - any undecodable upload: the learner refuses it with a message
        shutil.rmtree(folder, ignore_errors=True)
        return None
    write_meta(folder, {"layout": n, "w": w, "h": h, "taps": []})
    _forget_old()
    session[SESSION_KEY] = {**(session.get(SESSION_KEY) or {}), str(n): slot}
    return slot


def _shrink(data: bytes, folder: Path) -> tuple[int, int]:
    """The learner's copy (upright, short side ``KEEP_SIDE`` or less) and the picture shown
    (``PICTURE_PX`` wide); the copy's size."""
    from PIL import Image
    im = upright(data, KEEP_SIDE, max_pixels=60_000_000)
    f = min(1.0, KEEP_SIDE / min(im.size))
    im = im.resize((max(1, round(im.width * f)), max(1, round(im.height * f))), Image.Resampling.LANCZOS)
    im.save(folder / "learn.jpg", "JPEG", quality=92)
    shown = im.resize((PICTURE_PX, max(1, round(im.height * PICTURE_PX / im.width))), Image.Resampling.LANCZOS)
    shown.save(folder / "shown.jpg", "JPEG", quality=80)
    return im.width, im.height


def write_meta(folder: Path, meta: dict) -> None:
    tmp = folder / f"meta.{os.getpid()}.tmp"
    tmp.write_text(json.dumps(meta))
    tmp.replace(folder / "meta.json")


def _forget_old() -> None:
    forget_oldest(photos_dir(), KEEP, KEEP_HOURS * 3600)


def kept_photo(n: int) -> str | None:
    """This browser's last photo of layout ``n``, if it is still kept."""
    slot = (session.get(SESSION_KEY) or {}).get(str(n))
    return slot if isinstance(slot, str) and slot_dir(slot) is not None else None
