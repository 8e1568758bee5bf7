"""Live refresh: a phone asking "anything new since version N?" costs close to nothing.

Every phone at a table asks this every few seconds (``/play/<id>/<token>/live?v=N`` for a seat,
``/games/<id>/live?v=N`` for the table's public view). Most of the time nothing has changed, so
the answer is given here, in front of Flask: no session, no template, no game loaded. This
process keeps each watched game's version and seat tokens in memory (``Versions``); one
background watcher per process reads the moves stored since its last look, in one query down
the move table's primary key, twenty times a second (a hundred on SQLite), and wakes the phones
waiting on those games (so a move made through another process or another host reaches them
within about 0.05 s, 0.01 s on SQLite; a
sweep of every watched game's version every 2 s is the safety net). A move made through this
process is known here at once.

- Nothing new: ``204`` (``v=N``) or ``304`` (``If-None-Match: "N"``), with ``ETag: "N"``.
- ``&wait=S`` (long polling, at most ``LIVE_MAX_WAIT`` seconds): hold the request until the
  version moves past N, then answer the board; ``204`` when the wait runs out, or when the move
  was this seat's own, posted from its page and answered with its new board (one round trip per
  move: the poll it left open is not answered with the same board again). Waiting is on only
  where holding a connection is cheap (the gevent server of ``python -m scorer serve``); on a
  threaded server the answer comes at once and the page polls every 2 s as before.
- ``&stream=1`` (server-sent events, where waiting is on): one request held for as long as the
  page is open, carrying each new board as an event (``event: board``, ``id:`` its version): the
  long poll above, asked here in a loop instead of by the phone, so a move costs the phone no
  new request and the server no request to parse, route and answer. A seat's own move answered
  with its board is not sent again; ``Last-Event-ID`` (a reconnecting browser) counts as ``v``;
  a comment line every ``LIVE_MAX_WAIT`` seconds keeps the connection alive; a refusal (the
  game is gone, the seat was given to another phone) ends the stream with ``event: end`` (the page
  closes it), a failure ends it without (the browser connects again after ``RECONNECT_MS``).
- A new version for a seat's phone whose board is already drawn in this process (another phone of
  its visibility class asked first, or the mover's post drew it: ``shared_boards``): those bytes,
  here, when the phone holds its seat's claim (``seat_claims``' cookie); the language is chosen
  as Flask would (``extensions.locale_for``).
- Anything else (a new version not drawn yet, an unknown game or token, a bad parameter) goes to
  the Flask view, which answers as it always has (the board, 404, ...).

A version is trusted only while the watcher has checked it within the last second; otherwise
it is read again (one indexed lookup) before answering "nothing new".
"""
from __future__ import annotations

import logging
import math
import os
import re
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

from flask import Flask, request
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header, parse_cookie

from ..db import Database
from ..tracker_store import MoveFeed, last_move_id, latest_versions, seat_tokens
from .extensions import LANG_COOKIE, locale_for
from .security import HEADERS
from .shared_boards import EVENT, Boards, best_encoding, board_event

log = logging.getLogger(__name__)

LIVE_PATH = re.compile(r"/(?:play/(?P<game>[^/]{1,32})/(?P<token>[^/]{1,64})|games/(?P<table>[^/]{1,32}))/live")
TICK = 0.05           # seconds between the watcher's looks at the move table (PostgreSQL: only
                      # while it cannot hear the moves' announcements, ``listen``)
HEAR = 0.5            # PostgreSQL: the longest the watcher waits for an announced move at a time
DEAF = 5.0            # ... and, once it could not listen, how long it looks instead before trying again
SQLITE_TICK = 0.01    # ... on SQLite, whose look is one short read of a local file (~0.1 ms): a move made
                      # through another worker reaches its phones ~20 ms sooner on average
SWEEP = 2.0           # seconds between full checks of every watched game's version
TRUST = 1.0           # a version older than this is read again before answering "nothing new"
WATCH = 30.0          # a game nobody asked about for this long is no longer watched
FORGET = 600.0        # ... and is forgotten after this long
LOOKBACK = 256        # move rows read again each tick (PostgreSQL): a row whose commit came late is still seen
FEED = 5000           # at most this many move rows per look
DEFAULT_WAIT = 25     # the longest a phone is held (below the usual 30-60 s proxy timeouts)
OWN_POST_WAIT = 2.0   # a poll woken while its own seat's post is in flight waits this long at most for its answer
OWN_POST_STEP = 0.005  # ... looking this often
POST_PATH = re.compile(r"/play/(?P<game>[^/]{1,32})/(?P<token>[^/]{1,64})/(?:move|undo)")
KNOWN_VERSION = "planet.live.version"  # the WSGI environ key telling the view the version seen here
ANSWERED = "planet.live.answered"      # ... and the one a seat's post sets: the version its answer drew
STREAMED = "planet.live.streamed"      # ... and the one an event stream's own polls carry
SEEN = "planet.live.seen"              # ... and the version a held poll found the phone's own post answered
NOT_ASKED = ("HTTP_ACCEPT_ENCODING", "HTTP_IF_NONE_MATCH", "HTTP_LAST_EVENT_ID")  # what an event stream's own polls drop
RECONNECT_MS = 2000   # a browser whose event stream broke connects again after this long


def _event() -> threading.Event:
    return threading.Event()  # looked up at call time: gevent's Event once the server patched threading


@dataclass(eq=False)
class Watched:
    """One game as this process knows it."""
    tokens: tuple[str, ...]
    version: int
    checked: float                 # when the version was last read from the database
    seen: float                    # when a phone last asked about this game
    changed: threading.Event = field(default_factory=_event)
    answered: dict[str, int] = field(default_factory=dict)  # seat token -> version its own post's answer drew
    posting: dict[str, int] = field(default_factory=dict)   # seat token -> its posts in flight in this process

    def opens(self, token: str | None) -> bool:
        """Public view (no token), or a seat's token (compared in constant time). A token the host
        replaced may still be told "nothing new" by another process for a while, never the board."""
        if token is None:
            return True
        return self.seat_of(token) is not None

    def seat_of(self, token: str) -> int | None:
        """The seat of ``token`` (compared in constant time with every seat's), or None."""
        given = token.encode("utf-8", "surrogateescape")
        found = [s for s, t in enumerate(self.tokens) if secrets.compare_digest(t.encode(), given)]
        return found[0] if found else None


class Versions:
    """The versions of the games this process's phones watch, kept fresh by one watcher."""

    def __init__(self, db: Database, clock: Callable[[], float] = time.monotonic):
        self.db = db
        self.clock = clock
        self.games: dict[str, Watched] = {}
        self._poke = _event()
        self._watcher: threading.Thread | None = None
        self._pid = 0
        self._last_id = 0
        self._swept = 0.0
        self.ticked = 0.0      # start of the last look that read every move stored before it
        self.asked = 0.0       # when a phone last asked about any game
        self.lookback = 0 if db.url.startswith("sqlite") else LOOKBACK  # SQLite commits in id order
        self.every = SQLITE_TICK if db.url.startswith("sqlite") else TICK
        self._start = threading.Lock()
        self._failing: set[str] = set()    # the failures said since the moves were last read
        self._deaf_until = 0.0             # PostgreSQL: after a failure to listen, look until then
        self.feed = MoveFeed(db)

    # -- asked by requests ---------------------------------------------------------------------
    def lookup(self, game_id: str) -> Watched | None:
        """The game, with a version checked within ``TRUST`` seconds; None if there is no such game."""
        now = self.clock()
        game = self.games.get(game_id)
        if game is None:
            tokens = seat_tokens(self.db, game_id)
            if tokens is None:
                return None
            game = self.games.setdefault(game_id, Watched(tokens, -1, 0.0, now))
        game.seen = self.asked = now
        self._ensure_watcher()
        if game.version < 0 or now - max(game.checked, self.ticked) > TRUST:  # new, or not checked lately
            self.publish(latest_versions(self.db, [game_id]), now)
        return game

    def wait(self, game: Watched, since: int, seconds: float) -> bool:
        """Hold until ``game`` moves past ``since`` or ``seconds`` pass; True if it moved."""
        changed = game.changed  # taken before the version is read: a move in between still wakes us
        if game.version != since:
            return True
        changed.wait(seconds)
        game.seen = self.asked = self.clock()
        return game.version != since

    def moved(self, game_id: str, known: tuple[int, tuple[str, ...]] | None = None,
              answered: tuple[str, int] | None = None) -> None:
        """A move, undo or new link was stored through this process: its phones here learn it at
        once, the watcher looks now for the others. ``known``: the game's version and seat tokens
        as this process stored them (else one indexed lookup reads them). ``answered``: (seat
        token, version) when the post was answered with that seat's board at that version (the
        page's move: one round trip), so that seat's long poll held from before need not draw it
        again."""
        game = self.games.get(game_id)
        if game is not None and answered is not None:
            game.answered[answered[0]] = answered[1]  # before the wake-up below
        if game is not None and known is not None:
            game.tokens = known[1]
            self.publish({game_id: known[0]}, self.clock())
        elif game is not None:
            self.publish(latest_versions(self.db, [game_id]), self.clock())
            self.reread_tokens(game_id)
        self._poke.set()

    def reread_tokens(self, game_id: str) -> None:
        """A seat's link can be re-issued (the old token stops working): read the tokens again."""
        game, tokens = self.games.get(game_id), seat_tokens(self.db, game_id)
        if game is not None and tokens is not None:
            game.tokens = tokens

    # -- the watcher ---------------------------------------------------------------------------
    def publish(self, versions: dict[str, int], checked: float) -> None:
        """New versions read from the database: wake whoever waits on a game that moved."""
        for game_id, version in versions.items():
            game = self.games.get(game_id)
            if game is None:
                continue
            game.checked = checked
            if version > game.version:
                game.version = version          # first the version, then the wake-up (see wait)
                woken, game.changed = game.changed, _event()
                woken.set()

    def look(self) -> bool:
        """One look for new moves: ``listen`` where the database announces them, else (or while
        they cannot be heard) ``tick``. True if it already waited for news."""
        if self.feed.listens and self.clock() >= self._deaf_until:
            try:
                self.listen()
                return True
            except Exception as exc:  # not heard (the database is away, or refuses LISTEN): look instead
                self._failed(exc)
                self._deaf_until = self.clock() + DEAF
                self._swept = 0.0     # ... and at every watched game
        self.tick()
        return False

    def listen(self) -> None:
        """PostgreSQL: wait up to ``HEAR`` for the moves announced by every server process (at
        once, where ``tick`` looked every ``TICK``, reading the last ``LOOKBACK`` rows again each
        time); and every ``SWEEP``, or when it starts to listen, read every watched game."""
        start = self.clock()
        heard = self.feed.heard(HEAR)
        if heard is None:
            self._swept = 0.0  # listening from now on: what came before was not announced
        else:
            self.publish(heard, start)
        self._sweep(self.clock(), due=False)
        self.ticked = start  # every move committed before ``start`` was announced and heard

    def tick(self) -> None:
        """One look: the moves stored since the last one (and, every ``SWEEP``, every watched game)."""
        now = self.clock()
        rows = self.feed.since(max(0, self._last_id - self.lookback), FEED)
        newest: dict[str, int] = {}
        for row_id, game_id, version in rows:
            self._last_id = max(self._last_id, row_id)
            newest[game_id] = max(version, newest.get(game_id, 0))
        self.publish(newest, now)
        self._sweep(now, due=len(rows) >= FEED)
        if len(rows) < FEED:
            self.ticked = now  # every move stored before ``now`` has been read

    def _sweep(self, now: float, due: bool) -> None:
        """Every ``SWEEP`` (or now, if ``due``): every watched game's version, read again; the
        games nobody asked about for ``FORGET`` are forgotten."""
        if now - self._swept >= SWEEP or due:
            self._swept = now
            self.publish(latest_versions(self.db, [g for g, w in self.games.items() if now - w.seen < WATCH]), now)
            for game_id in [g for g, w in self.games.items() if now - w.seen > FORGET]:
                self.games.pop(game_id, None)

    def _failed(self, exc: Exception) -> None:
        """Say once, in one line, that the moves cannot be read (not at every tick, and without a
        traceback: formatting one in this thread while another compiles a template or a URL rule
        trips CPython 3.11's "AST constructor recursion depth mismatch", which failed a test)."""
        said = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        if said not in self._failing:
            self._failing.add(said)
            log.warning("live versions: could not read the moves (%s); trying again", said)

    def _ensure_watcher(self) -> None:
        with self._start:
            if self._watcher is None or self._pid != os.getpid():  # a forked worker starts its own
                self._pid = os.getpid()
                self._last_id = last_move_id(self.db)
                self.ticked = 0.0
                self._watcher = threading.Thread(target=self._run, name="live-versions", daemon=True)
                self._watcher.start()

    def stop(self, seconds: float = 5.0) -> None:
        """Stop the watcher now, as if nobody had asked for ``WATCH``, and wait for it to end (a
        test's teardown, before it drops the tables the watcher reads). A phone asking later
        starts it again."""
        with self._start:
            watcher, self.asked = self._watcher, float("-inf")
        self._poke.set()
        if watcher is not None and watcher is not threading.current_thread():
            watcher.join(seconds)

    def _run(self) -> None:
        while True:
            with self._start:
                if self.clock() - self.asked > WATCH:  # nobody is watching: stop until someone asks
                    self._watcher = None
                    self.feed.close()
                    return
            waited = False
            try:
                waited = self.look()
                if waited or not self.feed.listens:  # read as it should be: say the next failure again
                    self._failing.clear()
            except Exception as exc:  # the database was busy or away: try again at the next tick
                self._failed(exc)
            if not waited:
                self._poke.wait(self.every)
                self._poke.clear()


# -- the refresh, in front of Flask ----------------------------------------------------------------

def _query(environ: dict[str, Any]) -> tuple[int | None, int, bool]:
    """``v`` (or the ``If-None-Match`` version, or a reconnecting event stream's
    ``Last-Event-ID``), ``wait`` and ``stream`` from a request; ``v`` None when unusable."""
    args = parse_qs(environ.get("QUERY_STRING", ""), max_num_fields=8)
    since = _whole(args.get("v", [""])[0])
    etag = environ.get("HTTP_IF_NONE_MATCH", "").strip().removeprefix("W/").strip('"')
    etag = etag.split(":", 1)[0]  # Flask-Compress tags a compressed answer "N:br"
    if etag:
        since = _whole(etag)
    stream = args.get("stream", [""])[0] == "1"
    last = _whole(environ.get("HTTP_LAST_EVENT_ID", "").strip())
    if stream and since is not None and last is not None:
        since = max(since, last)
    wait = _whole(args.get("wait", ["0"])[0])
    return since, wait or 0, stream


def _whole(text: str) -> int | None:
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else None


class LiveRefresh:
    """WSGI middleware: answers "nothing new" for the live paths, holds long polls, and hands a
    seat the board already drawn for its class."""

    def __init__(self, app: Callable[..., Iterable[bytes]], versions: Versions, max_wait: float,
                 boards: Boards | None = None, holds: Callable[[str, int, str | None, str], bool] | None = None):
        self.app = app
        self.versions = versions
        self.max_wait = max_wait
        self.boards = boards
        self.holds = holds     # (game, seat, claim cookie, token) -> does this phone hold the seat
        self._locales: dict[tuple[str, str], str] = {}

    def locale(self, environ: dict[str, Any], cookies: dict[str, str]) -> str:
        key = (cookies.get(LANG_COOKIE, ""), environ.get("HTTP_ACCEPT_LANGUAGE", ""))
        found = self._locales.get(key)
        if found is None:
            if len(self._locales) > 1000:
                self._locales.clear()
            found = self._locales[key] = locale_for(key[0], parse_accept_header(key[1], LanguageAccept))
        return found

    def drawn(self, environ: dict[str, Any], start_response: Callable[..., Any], game: Watched, game_id: str,
              token: str) -> Iterable[bytes] | None:
        """The board drawn for this seat's class at the game's version, if this phone holds the seat."""
        if self.boards is None or self.holds is None:
            return None
        seat = game.seat_of(token)
        cookies = parse_cookie(environ.get("HTTP_COOKIE", ""))
        if seat is None or not self.holds(game_id, seat, cookies.get(f"seat-{game_id}-{seat}"), token):
            return None  # the view answers (and claims a seat nobody opened yet)
        encoding = EVENT if environ.get(STREAMED) else best_encoding(environ.get("HTTP_ACCEPT_ENCODING", ""))
        body = self.boards.answer(game_id, game.version, self.locale(environ, cookies), seat, encoding)
        if body is None:
            return None
        kind = "text/event-stream" if encoding == EVENT else "text/html; charset=utf-8"
        headers = [("Content-Type", kind), ("Content-Length", str(len(body))),
                   ("ETag", f'"{game.version}"'), ("Cache-Control", "no-store"), ("Vary", "Accept-Encoding"),
                   *HEADERS.items()]
        if encoding and encoding != EVENT:
            headers.append(("Content-Encoding", encoding))
        start_response("200 OK", headers)
        return [body]

    def posted(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        """A seat's move or undo from its page, counted as in flight while the view runs (its answer
        and ``moved`` included), so that seat's held poll, woken meanwhile by the watcher, waits
        for it (``__call__``)."""
        match = POST_PATH.fullmatch(environ.get("PATH_INFO", ""))
        game = self.versions.games.get(match["game"]) if match else None
        if match is None or game is None:
            return self.app(environ, start_response)
        token = match["token"]
        game.posting[token] = game.posting.get(token, 0) + 1
        try:
            return self.app(environ, start_response)
        finally:
            left = game.posting.get(token, 1) - 1
            if left > 0:
                game.posting[token] = left
            else:
                game.posting.pop(token, None)

    def own_post_done(self, game: Watched, token: str) -> None:
        """Wait (a little at most) until no post of this seat is in flight here: the watcher may have
        seen the move stored before the post drew its answer and said so (``Versions.moved``)."""
        deadline = self.versions.clock() + OWN_POST_WAIT
        while game.posting.get(token) and self.versions.clock() < deadline:
            time.sleep(OWN_POST_STEP)  # gevent's sleep under ``serve``: other connections go on

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "POST":
            return self.posted(environ, start_response)
        match = LIVE_PATH.fullmatch(environ.get("PATH_INFO", ""))
        if match is None or environ.get("REQUEST_METHOD") != "GET":
            return self.app(environ, start_response)
        since, wait, stream = _query(environ)
        game_id = match["game"] or match["table"]
        game = self.versions.lookup(game_id) if since is not None else None
        if game is not None and not game.opens(match["token"]):
            self.versions.reread_tokens(game_id)  # the host may have given a seat a new link
        if game is None or not game.opens(match["token"]):
            return self.app(environ, start_response)  # the view answers: 404
        if stream and self.max_wait:
            start_response("200 OK", [("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-store"),
                                      ("X-Accel-Buffering", "no"), *HEADERS.items()])
            return self.events(environ, since)
        woken = False
        if game.version == since and wait and self.max_wait:
            woken = self.versions.wait(game, since, min(wait, self.max_wait))
        if woken and match["token"] and game.posting:
            self.own_post_done(game, match["token"])
        # held from before this seat's own move, whose answer gave its phone this board already
        own_answer = woken and bool(match["token"]) and game.answered.get(match["token"]) == game.version
        if game.version != since and not own_answer:
            if match["token"]:
                answer = self.drawn(environ, start_response, game, game_id, match["token"])
                if answer is not None:
                    return answer
            environ[KNOWN_VERSION] = game.version  # checked just now: the view need not read it again
            return self.app(environ, start_response)  # the board
        if own_answer:
            environ[SEEN] = game.version  # the phone has this version's board already: see ``events``
        status = "304 Not Modified" if environ.get("HTTP_IF_NONE_MATCH") else "204 No Content"
        start_response(status, [("ETag", f'"{since}"'), ("Cache-Control", "no-store"), *HEADERS.items()])
        return []

    def events(self, environ: dict[str, Any], since: int) -> Iterator[bytes]:
        """The event stream: this middleware's own long poll asked again and again on the phone's
        behalf (its cookies, its language; no compression: one stream carries many boards, each
        written as it comes), each board sent as one event."""
        asked = {k: v for k, v in environ.items() if k not in NOT_ASKED}
        asked[STREAMED] = True  # a board kept here comes framed as an event, once for every phone of its class
        yield b"retry: %d\n\n" % RECONNECT_MS  # sends the headers: the page knows it is connected
        while True:
            inner = dict(asked, QUERY_STRING=f"v={since}&wait={math.ceil(self.max_wait)}")
            answered: list[tuple[str, list[tuple[str, str]]]] = []
            body = self(inner, lambda status, headers, exc_info=None, into=answered: into.append((status, headers)))
            try:
                board = b"".join(body)
            finally:
                getattr(body, "close", lambda: None)()
            code, headers = (answered[0][0][:3], dict(answered[0][1])) if answered else ("", {})
            version = _whole(headers.get("ETag", "").strip('"'))
            if code == "200" and version is not None:
                since = version
                yield board if headers.get("Content-Type") == "text/event-stream" else board_event(version, board)
            elif code in ("204", "304"):
                if inner.get(SEEN) is not None:
                    since = max(since, inner[SEEN])  # this seat's own move: its page has the board
                else:
                    yield b": still here\n\n"  # the wait ran out: a comment keeps the connection open
            elif code.startswith("4"):
                yield b"event: end\ndata: \n\n"  # the game is gone or the seat is another phone's
                return
            else:
                return  # the server failed (the database away?): the browser connects again in RECONNECT_MS


def gevent_serving() -> bool:
    """Is this process's standard library patched by gevent (``python -m scorer serve``)?"""
    import sys
    monkey = sys.modules.get("gevent.monkey")
    return bool(monkey and monkey.is_module_patched("socket"))


def install(app: Flask, db: Database) -> Versions:
    """Put the live refresh in front of ``app``; a move stored through it wakes the watcher."""
    versions = Versions(db)
    games = app.extensions["games"]
    max_wait = app.config.get("LIVE_MAX_WAIT")
    if max_wait is None:
        max_wait = DEFAULT_WAIT if gevent_serving() else 0
    app.wsgi_app = LiveRefresh(app.wsgi_app, versions, float(max_wait),  # type: ignore[method-assign]
                               app.extensions.get("boards"), games.holds)
    app.extensions["live"] = versions
    app.extensions["live_stream"] = bool(max_wait)  # pages open an event stream where requests are held

    @app.after_request
    def moved(response):  # type: ignore[no-untyped-def]
        if request.method == "POST" and response.status_code < 400 and (request.view_args or {}).get("game_id"):
            game_id, token = request.view_args["game_id"], request.view_args.get("token")
            stored = games.known(game_id)  # the store's last state here: the post just wrote it
            drawn = request.environ.get(ANSWERED)
            versions.moved(game_id, (stored.version, stored.tokens) if stored is not None else None,
                           (token, drawn) if token and drawn is not None and response.status_code == 200 else None)
        return response

    return versions
