"""Pieces of the tracker's board drawn once and shared by every phone that shows the same thing.

A board draws every planet of the table, and drawing a planet (16 cells, their art, words and
the points under it) was most of a board's cost. After a move only one planet changes, and a
planet looks the same on every phone that may see the same tiles; so a planet's drawing is kept
here, keyed by everything it is drawn from: the language, its cells as the viewer may see them,
its label and its points so far. A hidden character is in the key exactly when it is in the
drawing (another seat's view has ``"hidden"`` in that cell), so a drawing made for its owner is
never the answer for anyone else: two viewers share a drawing only when they see the same thing.

The same holds for the board's other sections (``shared``: the turn line, the stacks, what
happened, the volcano leaders) and for an event's sentence (``event_words``): each is kept under
a key made of exactly what it is drawn from, as the viewer's page has it, so phones whose views
agree share one drawing and a phone whose view differs (its own hidden characters, its own turn)
gets its own.

``Parts`` is owned by the app (``app.extensions["board_parts"]``), bounded, least recently used
first out; nothing here lives at module level.
"""
from __future__ import annotations

import pickle
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from flask import Flask, current_app
from flask_babel import get_locale
from markupsafe import Markup

PARTS = 8192   # drawings kept per worker (a planet's is ~3 KB: ~25 MB at most)


class Parts:
    """A bounded, thread-safe cache of drawn pieces: ``get(key, draw)`` draws on a miss."""

    def __init__(self, size: int = PARTS):
        self._size = size
        self._parts: OrderedDict[Hashable, Any] = OrderedDict()
        self._guard = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable, draw: Callable[[], Any]) -> Any:
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

    def count(self, kind: str) -> int:
        """How many kept pieces are of ``kind`` (a key's first item: "planet", "section", "event")."""
        with self._guard:
            return sum(1 for key in self._parts if isinstance(key, tuple) and key[:1] == (kind,))


def install(app: Flask) -> None:
    app.extensions["board_parts"] = Parts()
    app.jinja_env.globals["shared"] = shared


def shared(*key: object, caller: Callable[[], str]) -> Markup:
    """``{% call shared(name, what it shows...) %}…{% endcall %}`` in a template: the section drawn
    once per language and key. The key must hold everything the section reads (its name first)."""
    parts: Parts = current_app.extensions["board_parts"]
    return parts.get(("section", str(get_locale()), _frozen(key)), lambda: Markup(caller()))


def event_words(words: Callable[[Any], str], players: tuple[str, ...]) -> Callable[[Any], str]:
    """``words`` (an event as a sentence, see ``tracker_words``), each sentence made once per
    language, game's player names and event as its viewer sees it (events are frozen values)."""
    parts: Parts = current_app.extensions["board_parts"]
    locale = str(get_locale())

    def cached(event: Any) -> str:
        return parts.get(("event", locale, players, event), lambda: words(event))  # a str, escaped where drawn
    return cached


def planet_part(box: dict, finished: bool, draw: Callable[[], Markup]) -> Markup:
    """A tracker planet box's drawing and points (see ``tracker/_macros.html`` ``planet_body``)."""
    parts: Parts = current_app.extensions["board_parts"]
    standing = box["standing"]
    key = ("planet", str(get_locale()), _frozen(box["cells"]), box["label"], box["tiles"], finished,
           standing.points, standing.penalty, standing.hidden, standing.volcanoes)
    return parts.get(key, draw)


def _frozen(value: object) -> Hashable:
    """``value`` (lists, dicts, strings, numbers ... as a page's context holds them) as a key: its
    pickle, made in C (walking it in Python was a twentieth of a board's cost). Two values with
    the same pickle are equal, of the same types (a list is not a tuple, a ``Markup`` not a
    ``str``, a key 1 not "1"): a drawing is shared only by what would draw the same. Equal values
    may pickle differently (an object met twice is pickled once): a missed share, never a wrong one."""
    try:
        return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError):  # something a pickle cannot hold
        return ("unpickled", _walked(value))


def _walked(value: object) -> Hashable:
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, *(_walked(c) for c in value))
    if isinstance(value, dict):
        return ("dict", *((k, _walked(v)) for k, v in value.items()))
    return (type(value), value)
