"""The learned box as each worker uses it: read from the database (``scorer.box_store``), decoded
once per (id, version) and written to a folder of this worker's, since the reader takes a folder
(``vision.recognize(data, reference=FOLDER)``). Every scan asks the database for the box's stamp
only (no bytes); the box itself is reloaded only when another worker (or this one) changed it.

Vision entry points used: ``vision.box.box_from_bytes``, ``Box.save``, ``Box.samples``.
"""
from __future__ import annotations

import atexit
import shutil
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from flask import Flask, current_app

from ..box_store import BoxStamp, box_stamp, load_box_bytes
from .extensions import get_db


@dataclass(frozen=True)
class InUse:
    """The active box as decoded here: its stamp, the vision Box, the folder it is saved in."""
    stamp: BoxStamp
    box: object          # vision.box.Box
    folder: Path


class BoxCache:
    """One per app (one per worker): the last box decoded, keyed by (id, version)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.current: InUse | None = None
        self.base: Path | None = None

    def _folder(self, box_id: str) -> Path:
        if self.base is None:
            self.base = Path(tempfile.mkdtemp(prefix="planet-box-"))
            atexit.register(shutil.rmtree, self.base, True)
        return self.base / box_id

    def get(self, stamp: BoxStamp | None) -> InUse | None:
        """The box of ``stamp`` (reloaded from the database when it is not the one held)."""
        if stamp is None:
            return None
        with self.lock:
            held = self.current
            if held is not None and (held.stamp.id, held.stamp.version) == (stamp.id, stamp.version):
                return held
            return self._reload(held)

    def _reload(self, held: InUse | None) -> InUse | None:
        from vision.box import BoxError, box_from_bytes
        found = load_box_bytes(get_db())
        if found is None:
            return None
        stamp, data = found
        try:
            box = box_from_bytes(data)
        except BoxError:
            current_app.logger.exception("the learned box in the database cannot be read")
            return None
        folder = self._folder(stamp.id)
        box.save(folder)
        if held is not None and held.folder != folder:
            shutil.rmtree(held.folder, ignore_errors=True)
        self.current = InUse(stamp, box, folder)
        return self.current


def cache(app: Flask | None = None) -> BoxCache:
    app = app or current_app
    return app.extensions.setdefault("learned_box", BoxCache())  # type: ignore[no-any-return]


def box_in_use() -> InUse | None:
    """The learned box every scan reads with, or None (the shipped drawings)."""
    return cache().get(box_stamp(get_db()))


def scan_reference() -> str | None:
    """The folder to read a scan with (``vision.recognize(..., reference=)``); None: shipped art."""
    used = box_in_use()
    return str(used.folder) if used else None
