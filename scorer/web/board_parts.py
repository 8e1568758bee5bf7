"""Pieces of the tracker's board drawn once and shared by every phone that shows the same thing.

A board draws every planet of the table, and drawing a planet (16 cells, their art, words and
the points under it) was most of a board's cost. After a move only one planet changes, and a
planet looks the same on every phone that may see the same tiles; so a planet's drawing is kept
here, keyed by everything it is drawn from: the language, its cells as the viewer may see them,
its label and its points so far. A hidden character is in the key exactly when it is in the
drawing (another seat's view has ``"hidden"`` in that cell), so a drawing made for its owner is
never the answer for anyone else: two viewers share a drawing only when they see the same thing.

``Parts`` is owned by the app (``app.extensions["board_parts"]``), bounded, least recently used
first out; nothing here lives at module level.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from flask import Flask, current_app
from flask_babel import get_locale
from markupsafe import Markup

PARTS = 8192   # drawings kept per worker (a planet's is ~3 KB: ~25 MB at most)


class Parts:
    """A bounded, thread-safe cache of drawn pieces: ``get(key, draw)`` draws on a miss."""

    def __init__(self, size: int = PARTS):
        self._size = size
        self._parts: OrderedDict[Hashable, Markup] = OrderedDict()
        self._guard = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable, draw: Callable[[], Markup]) -> Markup:
        with self._guard:
            part = self._parts.get(key)
            if part is not None:
                self._parts.move_to_end(key)
                self.hits += 1
                return part
            self.misses += 1
        part = draw()  # outside the lock: two phones may draw the same part once each, never wrongly
        with self._guard:
            self._parts[key] = part
            while len(self._parts) > self._size:
                self._parts.popitem(last=False)
        return part

    def __len__(self) -> int:
        return len(self._parts)


def install(app: Flask) -> None:
    app.extensions["board_parts"] = Parts()


def planet_part(box: dict, finished: bool, draw: Callable[[], Markup]) -> Markup:
    """A tracker planet box's drawing and points (see ``tracker/_macros.html`` ``planet_body``)."""
    parts: Parts = current_app.extensions["board_parts"]
    standing = box["standing"]
    key = ("planet", str(get_locale()), _frozen(box["cells"]), box["label"], box["tiles"], finished,
           standing.points, standing.penalty, standing.hidden, standing.volcanoes)
    return parts.get(key, draw)


def _frozen(cells: object) -> Hashable:
    if isinstance(cells, (list, tuple)):
        return tuple(_frozen(c) for c in cells)
    return cells  # type: ignore[return-value]
