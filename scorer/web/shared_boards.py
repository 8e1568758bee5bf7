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
out, and only a game's newest version (a phone asking is handed the newest). A board carrying a
message for one phone is never kept; a finished game's is forgotten when its rematch starts.

The workers of one server share their drawings through a ``Shelf``: a private folder (made by
``python -m scorer serve`` before it forks, ``SHARED_BOARDS_DIR``) where each drawing kept is
also written, one file per game, version, language and class, with the board's classes, seat to
act and last mover beside it. A phone whose requests reach the other worker is then handed the
same bytes there, read from the file, instead of the game loaded, folded and drawn a second time
(under the load bench a worker spent a sixth of its time drawing boards the other had drawn).
"""
from __future__ import annotations

import gzip
import json
import os
import re
import secrets
import shutil
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from pathlib import Path

import brotli

from ..draft.visibility import may_see

PUBLIC = "public"
OWN = "own"
BOARDS = 1024   # games (in one language) whose last board is kept per worker: a class's drawing is
                # ~20-35 KB, a game's ~40 KB without hidden characters, up to ~200 KB with them
EVENT = "event"   # ``Boards.answer``'s encoding for an event stream: the board framed as one event, kept framed
ROLE = re.compile(r"<!--\[(/?)(me|notme|mover|notmover)\]-->")
SLOT_OPEN = re.compile(r"<!--\{(p\d|events|what)\}-->")
SLOT_CLOSE = re.compile(r"<!--\{/(?:p|events|what)\}-->")
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
    # each slot is its opening marker, then all up to the first closing one after it (as the
    # lazy ``(.*?)`` of one pattern would take it, which cost 0.3 ms a splice on a 20 KB board:
    # a try of the closing marker at every character of the planets' drawings)
    out, pos = [], 0
    while (opening := SLOT_OPEN.search(public, pos)) and (closing := SLOT_CLOSE.search(public, opening.end())):
        out += (public[pos:opening.start()], own.get(opening.group(1), public[opening.end():closing.start()]))
        pos = closing.end()
    out.append(public[pos:])
    return "".join(out)


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


SAFE_NAME = re.compile(r"[A-Za-z0-9_-]{1,32}")   # a game id or a language, as a file name's part
SHELF_AGE = 3600.0    # a game folder untouched this long (an abandoned game) is removed ...
SHELF_SWEEP = 1000    # ... looked for every this many drawings put on the shelf by a worker


def _kind_name(kind: Hashable) -> str:
    if kind == PUBLIC:
        return "public"
    if isinstance(kind, tuple):
        return f"own{int(kind[1])}"
    return f"seat{int(kind)}"  # type: ignore[call-overload]


def _kind_of(value: object) -> Hashable:
    if isinstance(value, list):
        return (OWN, int(value[1]))
    return PUBLIC if value == PUBLIC else int(value)  # type: ignore[call-overload]


class Shelf:
    """Drawings shared by the workers of one server: one file each in a private folder, written
    whole (a temporary file renamed) so a reader sees all of it or nothing. A game's folder keeps
    only its newest version (older files go when a newer one is put) and goes when the game ends
    (``forget``) or lies untouched for ``SHELF_AGE``. Anything unreadable is None: the caller
    draws, as without a shelf."""

    def __init__(self, folder: str | os.PathLike[str], clock: Callable[[], float] = time.time):
        self.folder = Path(folder)
        self.clock = clock
        self._puts = 0

    def _game(self, game_id: str, locale: str) -> Path | None:
        if not (SAFE_NAME.fullmatch(game_id) and SAFE_NAME.fullmatch(locale)):
            return None
        return self.folder / game_id

    def _write(self, path: Path, text: str) -> None:
        temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, path)

    def put(self, game_id: str, locale: str, board: Board, kind: Hashable, html: str) -> None:
        folder = self._game(game_id, locale)
        if folder is None or board.version < 0:
            return
        try:
            folder.mkdir(mode=0o700, exist_ok=True)
            meta = folder / f"{locale}.{board.version}.meta"
            if not meta.exists():
                classes = [list(c) if isinstance(c, tuple) else c for c in board.classes]
                self._write(meta, json.dumps([classes, board.to_act, board.mover]))
                for old in os.scandir(folder):  # only the newest version is ever handed out
                    parts = old.name.split(".")
                    if len(parts) == 3 and parts[0] == locale and parts[1].isdigit() and int(parts[1]) < board.version:
                        os.unlink(old.path)
            self._write(folder / f"{locale}.{board.version}.{_kind_name(kind)}", html)
        except OSError:
            return  # a full or removed folder: the other worker draws for itself
        self._puts += 1
        if self._puts % SHELF_SWEEP == 0:
            self.sweep()

    def board(self, game_id: str, version: int, locale: str) -> Board | None:
        """The board of (game, version, language) as another worker put it: classes and roles."""
        folder = self._game(game_id, locale)
        try:
            if folder is None:
                return None
            classes, to_act, mover = json.loads((folder / f"{locale}.{version}.meta").read_text("utf-8"))
        except (OSError, ValueError):
            return None
        return Board(tuple(_kind_of(c) for c in classes), to_act, mover, version)

    def drawing(self, game_id: str, version: int, locale: str, kind: Hashable) -> str | None:
        folder = self._game(game_id, locale)
        try:
            return None if folder is None else (folder / f"{locale}.{version}.{_kind_name(kind)}").read_text("utf-8")
        except OSError:
            return None

    def forget(self, game_id: str) -> None:
        """A game over: its drawings are no longer handed out."""
        if SAFE_NAME.fullmatch(game_id):
            shutil.rmtree(self.folder / game_id, ignore_errors=True)

    def sweep(self) -> None:
        """Remove the folders of games nobody drew for in ``SHELF_AGE`` (abandoned games)."""
        old = self.clock() - SHELF_AGE
        try:
            for entry in os.scandir(self.folder):
                if entry.is_dir() and entry.stat().st_mtime < old:
                    shutil.rmtree(entry.path, ignore_errors=True)
        except OSError:
            pass


class Boards:
    """The boards drawn in this worker; ``answer`` is the bytes for one seat's phone, or None.
    ``shelf``: drawings shared with the server's other workers (``Shelf``)."""

    def __init__(self, size: int = BOARDS, br_level: int = 2, gzip_level: int = 6, shelf: Shelf | None = None):
        self.shelf = shelf
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
        ``"gzip"``, ``""`` or ``EVENT``), when its class's drawing is kept; else None (the view draws it)."""
        with self._guard:
            board = self._boards.get((game_id, locale))
        if (board is None or board.version < version) and self.shelf is not None:
            shelved = self.shelf.board(game_id, version, locale)
            if shelved is not None:
                board = self.board((game_id, version, locale), lambda: shelved)
        if board is None or board.version != version or not 0 <= seat < len(board.classes):
            return None
        kind = board.classes[seat]
        html = board.drawn.get(kind)
        if html is None and self.shelf is not None:
            html = self.shelf.drawing(game_id, version, locale, kind)
            if html is not None:
                board.drawn.setdefault(kind, html)
        if html is None:
            return None
        kept = board.roles(seat)
        body = board.sent.get((kind, kept, encoding))
        if body is None:
            body = board.sent[(kind, kept, encoding)] = self.encode(for_roles(html, kept).encode(), encoding, version)
        self.served += 1
        return body

    def kept_drawing(self, game_id: str, locale: str, board: Board, kind: Hashable, draw: Callable[[], str]) -> str:
        """The drawing of ``kind`` on ``board``: kept here, or put on the shelf by another worker,
        or drawn now (``draw``) and kept in both."""
        html = board.drawn.get(kind)
        if html is None and self.shelf is not None:
            html = self.shelf.drawing(game_id, board.version, locale, kind)
        if html is None:
            html = draw()
            if self.shelf is not None:
                self.shelf.put(game_id, locale, board, kind, html)
        board.drawn.setdefault(kind, html)
        return html

    def forget(self, game_id: str) -> None:
        """A game whose boards no longer hold (a finished game whose rematch started): nothing of
        it is kept or shared any more."""
        with self._guard:
            for key in [k for k in self._boards if k[0] == game_id]:
                del self._boards[key]
        if self.shelf is not None:
            self.shelf.forget(game_id)

    def encode(self, data: bytes, encoding: str, version: int = 0) -> bytes:
        if encoding == EVENT:
            return board_event(version, data)
        if encoding == "br":
            return bytes(brotli.compress(data, quality=self.br_level))
        if encoding == "gzip":
            return gzip.compress(data, compresslevel=self.gzip_level, mtime=0)
        return data


def install(app) -> None:  # type: ignore[no-untyped-def]
    """The app's boards, compressed as Flask-Compress would (``assets``: its levels)."""
    folder = app.config.get("SHARED_BOARDS_DIR")
    app.extensions["boards"] = Boards(br_level=int(app.config.get("COMPRESS_BR_LEVEL", 2)),
                                      gzip_level=int(app.config.get("COMPRESS_LEVEL", 6)),
                                      shelf=Shelf(folder) if folder else None)


def shelf_parent() -> str:
    """Where servers' shelves go: in memory (``/dev/shm``) where there is one, else the system's
    temporary folder."""
    import tempfile
    shm = "/dev/shm"
    return shm if os.path.isdir(shm) and os.access(shm, os.W_OK) else tempfile.gettempdir()


def new_shelf_folder() -> str:
    """A private folder (owner only) for one server's shared drawings, named with the server's
    process id; the server removes it when it stops, and the folders of servers that were killed
    (no such process any more) are removed here."""
    import tempfile
    parent = shelf_parent()
    for entry in os.scandir(parent):
        found = re.fullmatch(r"planet-boards-(\d+)-.*", entry.name)
        if found and entry.is_dir(follow_symlinks=False):
            try:
                os.kill(int(found.group(1)), 0)
            except ProcessLookupError:
                shutil.rmtree(entry.path, ignore_errors=True)
            except (OSError, OverflowError):
                pass  # another user's process, alive: its folder stays
    return tempfile.mkdtemp(prefix=f"planet-boards-{os.getpid()}-", dir=parent)


def board_event(version: int, board: bytes) -> bytes:
    """A board as one server-sent event (``live``'s stream): ``event: board``, its version as the
    id, each of its lines a ``data:`` line."""
    return b"event: board\nid: %d\ndata: %s\n\n" % (version, board.replace(b"\r", b"").replace(b"\n", b"\ndata: "))


def best_encoding(accept: str) -> str:
    """``br``, ``gzip`` or ``""`` (none) from an Accept-Encoding header (a zero quality refuses)."""
    offered: dict[str, bool] = {}
    for part in accept.lower().split(","):
        name, _, params = part.strip().partition(";")
        q = params.strip().removeprefix("q=")
        offered[name.strip()] = not (params and q.replace("0", "").replace(".", "") == "")
    return "br" if offered.get("br") else "gzip" if offered.get("gzip") else ""
