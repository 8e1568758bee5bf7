"""A seat's board drawn once per game, version, language and visibility class, and handed as the
same bytes to every phone of that class (``live`` answers them in front of Flask).

A seat's board (``tracker/_board.html`` in own-phones mode) carries no byte of its own seat: its
addresses are relative (the seat's page sets ``<base href="/play/<id>/<token>/">``), its forms
carry no CSRF token (the page's ``hx-headers`` sends it with every htmx request), "(you)" and
the seat's own planet first are the page's CSS (``data-me`` on the body). What differs between
seats is marked in the drawing by role blocks, ``<!--[me]-->…<!--[/me]-->`` (the seat to act:
"your turn", the move form), ``notme``, ``mover`` (the last mover: the take-back form) and
``notmover``; ``for_roles`` keeps a seat's blocks and drops the others before anything is sent.
A role block never holds what the other seats of its class may not know: it is drawn from the
class's view, and the move form only when the seat to act is of the class.

The visibility class (``seat_classes``) is ``PUBLIC`` for a seat that may know no tile the public
may not, and the seat itself otherwise (its hidden characters, the tiles it alone sees on the
table): a board drawn for a seat's own class is never handed to another seat.

``Boards`` is owned by the app (``app.extensions["boards"]``), bounded, least recently used first
out, and only a game's newest version (a phone asking is handed the newest). A finished game's
board, or one carrying a message for one phone, is never kept.
"""
from __future__ import annotations

import gzip
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

import brotli

from ..draft.visibility import may_see

PUBLIC = "public"
OWN = "own"
BOARDS = 1024   # games (in one language) whose last board is kept per worker: a class's drawing is
                # ~20-35 KB, a game's ~40 KB without hidden characters, up to ~200 KB with them
ROLE = re.compile(r"<!--\[(/?)(me|notme|mover|notmover)\]-->")
SLOT = re.compile(r"<!--\{(p\d|events|what)\}-->(.*?)<!--\{/(?:p|events|what)\}-->", re.S)
SLOT_MARK = re.compile(r"<!--\{/?(?:p\d?|events|what)\}-->")


def seat_classes(state) -> tuple[Hashable, ...]:  # type: ignore[no-untyped-def]
    """Each seat's visibility class: ``PUBLIC`` when it may know exactly what the public may (then
    its board is the public's, plus its role blocks); ``(OWN, seat)`` when all it may know beyond
    the public is on its own planet (its hidden characters: its board is the public's with its
    planet, "What happened" and the take-back line drawn for it, ``splice``); else its own seat
    number (a tile on the table for its eyes alone: its board is drawn for it). Only a tile on the
    table or, with hidden characters, a character on a planet may be known by one seat and not by
    the public (``draft.visibility``): those are the tiles compared."""
    table = [t for t in state.revealed if not may_see(state, None, t)]
    planets: list[str] = []
    if state.setup.hidden_characters:
        planets = [c.tile for planet in state.planets for c in planet.cells
                   if c is not None and c.tile is not None and not may_see(state, None, c.tile)]
    return tuple(s if any(may_see(state, s, t) for t in table)
                 else (OWN, s) if any(may_see(state, s, t) for t in planets)
                 else PUBLIC for s in range(len(state.planets)))


def drawn_as(kind: Hashable) -> Hashable:
    """The class whose drawing a class's board is made from (``(OWN, seat)``: the public's)."""
    return PUBLIC if isinstance(kind, tuple) else kind


def splice(public: str, seat: int, planet: str, events: str, what: str) -> str:
    """The public drawing with ``seat``'s planet, "What happened" and take-back line (the slots
    ``<!--{pN}-->``, ``<!--{events}-->``, ``<!--{what}-->``) replaced by those drawn for ``seat``."""
    own = {f"p{seat}": planet, "events": events, "what": what}
    return SLOT.sub(lambda m: own.get(m.group(1), m.group(2)), public)


def last_mover(state) -> int | None:  # type: ignore[no-untyped-def]
    move = state.last_move
    return None if move is None else move.seat


def roles(seat: int, to_act: int | None, mover: int | None) -> frozenset[str]:
    return frozenset(("me" if seat == to_act else "notme", "mover" if seat == mover else "notmover"))


def for_roles(html: str, kept: frozenset[str]) -> str:
    """``html`` with the role blocks of ``kept`` (markers taken out) and without the others."""
    out, pos, skipping = [], 0, None
    for marker in ROLE.finditer(html):
        closing, role = marker.group(1), marker.group(2)
        if skipping is None:
            out.append(html[pos:marker.start()])
            if not closing and role not in kept:
                skipping = role
        elif closing and role == skipping:
            skipping = None
        pos = marker.end()
    if skipping is None:
        out.append(html[pos:])
    return SLOT_MARK.sub("", "".join(out))


@dataclass(eq=False)
class Board:
    """One game at one version in one language: who is of which class, who acts, who moved last,
    the drawing of each class met so far, and what was sent (per class, roles and encoding)."""
    classes: tuple[Hashable, ...]
    to_act: int | None
    mover: int | None
    version: int = -1
    drawn: dict[Hashable, str] = field(default_factory=dict)
    sent: dict[tuple[Hashable, frozenset[str], str], bytes] = field(default_factory=dict)

    def roles(self, seat: int) -> frozenset[str]:
        return roles(seat, self.to_act, self.mover)


class Boards:
    """The boards drawn in this worker; ``answer`` is the bytes for one seat's phone, or None."""

    def __init__(self, size: int = BOARDS, br_level: int = 2, gzip_level: int = 6):
        self._size = size
        self._boards: OrderedDict[tuple[str, str], Board] = OrderedDict()  # (game, language) -> newest
        self._guard = threading.Lock()
        self.br_level, self.gzip_level = br_level, gzip_level
        self.served = 0   # answers handed out without a drawing (``answer``)

    def board(self, key: tuple[str, int, str], make: Callable[[], Board]) -> Board:
        """The board of (game, version, language): the one kept, or a new one, kept when it is the
        game's newest version here (an older one, drawn from an older snapshot, is not)."""
        game_id, version, locale = key
        with self._guard:
            board = self._boards.get((game_id, locale))
            if board is not None and board.version == version:
                self._boards.move_to_end((game_id, locale))
                return board
            made = make()
            made.version = version
            if board is None or board.version < version:
                self._boards[(game_id, locale)] = made
                self._boards.move_to_end((game_id, locale))
                while len(self._boards) > self._size:
                    self._boards.popitem(last=False)
            return made

    def drawings(self) -> int:
        """How many drawings are kept (every class of every board)."""
        with self._guard:
            return sum(len(board.drawn) for board in self._boards.values())

    def answer(self, game_id: str, version: int, locale: str, seat: int, encoding: str) -> bytes | None:
        """Seat ``seat``'s board of ``game_id`` at ``version`` in ``locale``, encoded (``"br"``,
        ``"gzip"`` or ``""``), when its class's drawing is kept; else None (the view draws it)."""
        with self._guard:
            board = self._boards.get((game_id, locale))
        if board is None or board.version != version or not 0 <= seat < len(board.classes):
            return None
        kind = board.classes[seat]
        html = board.drawn.get(kind)
        if html is None:
            return None
        kept = board.roles(seat)
        body = board.sent.get((kind, kept, encoding))
        if body is None:
            body = board.sent[(kind, kept, encoding)] = self.encode(for_roles(html, kept).encode(), encoding)
        self.served += 1
        return body

    def encode(self, data: bytes, encoding: str) -> bytes:
        if encoding == "br":
            return bytes(brotli.compress(data, quality=self.br_level))
        if encoding == "gzip":
            return gzip.compress(data, compresslevel=self.gzip_level, mtime=0)
        return data


def install(app) -> None:  # type: ignore[no-untyped-def]
    """The app's boards, compressed as Flask-Compress would (``assets``: its levels)."""
    app.extensions["boards"] = Boards(br_level=int(app.config.get("COMPRESS_BR_LEVEL", 2)),
                                      gzip_level=int(app.config.get("COMPRESS_LEVEL", 6)))


def best_encoding(accept: str) -> str:
    """``br``, ``gzip`` or ``""`` (none) from an Accept-Encoding header (a zero quality refuses)."""
    offered: dict[str, bool] = {}
    for part in accept.lower().split(","):
        name, _, params = part.strip().partition(";")
        q = params.strip().removeprefix("q=")
        offered[name.strip()] = not (params and q.replace("0", "").replace(".", "") == "")
    return "br" if offered.get("br") else "gzip" if offered.get("gzip") else ""
