"""Tracker games in the database: each game is its setup plus an append-only move log.

A move row is never changed or deleted; an undo is appended as ``{"type": "undo"}``. Each row
carries the game's version after it (1, 2, …) under a unique (game_id, version) constraint, so
of two writers that both read version n only one can append n + 1; the other gets
``StaleVersion`` and nothing changes. The state is always ``draft.replay(setup, log)``: a read
goes on from the last state this process built (``draft.advance``), never replays its own way.

``Games`` is one database's games with this process's cache and locks; the app owns one
(``app.extensions["games"]``), so nothing here lives at module level.
"""
from __future__ import annotations

import hashlib
import json
import os
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime

from sqlalchemy import (
    ForeignKey, Integer, String, Text, UniqueConstraint, bindparam, delete, func, insert, select, text, update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Mapped, mapped_column

from .db import Base, Database, SavedTable, UTCDateTime, new_id, utcnow
from .draft import Setup, State, Undo, advance, apply, check_undo, parse_move, score_request_of, start, take_back
from .errors import GameNotFound, IllegalMove, NotYourTurn, StaleVersion
from .history import PlayerRecord, RecordError, play_of_game, players_of_game
from .history_store import Play, mark_game, record_play
from .i18n import _

MODES = ("one", "own")  # one phone passed round the table, or each player on their own phone
CACHE_SIZE = 2048       # games whose last state a store keeps (~85 KB each at most: a night of 1,000+ tables)
LOCK_STRIPES = 64       # writers of one game queue on one of these; ids share them by hash
MAX_ID = 32
CLAIMS = 20_000         # seats' claims a store keeps in memory (~200 bytes each)
LINKS_TRUST = 1.0       # seconds a game's links read from the database are trusted for a claim kept in memory


class TrackerGame(Base):
    __tablename__ = "tracker_games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    setup_json: Mapped[str] = mapped_column(Text)
    tokens_json: Mapped[str] = mapped_column(Text)          # one secret per seat
    host_token: Mapped[str] = mapped_column(String(64))
    mode: Mapped[str] = mapped_column(String(8), default="own")
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)  # saved result, once finished
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)


class TrackerMove(Base):
    __tablename__ = "tracker_moves"
    __table_args__ = (UniqueConstraint("game_id", "version", name="uq_tracker_move_version"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("tracker_games.id"), index=True)
    version: Mapped[int] = mapped_column(Integer)
    move_json: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class SeatClaim(Base):
    """Which phone opened a seat's link first: only that phone may use the link after."""
    __tablename__ = "tracker_seat_claims"

    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("tracker_games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    claim_hash: Mapped[str] = mapped_column(String(64))
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


# The queries every board, move and watcher tick runs, built once: SQLAlchemy then neither builds
# the statement nor works out its cache key again each time (a fifth to a third of such a query's CPU).
_MOVES_AFTER = (select(TrackerMove.version, TrackerMove.move_json)
                .where(TrackerMove.game_id == bindparam("game"), TrackerMove.version > bindparam("after"))
                .order_by(TrackerMove.version))
_GAME_LINKS = select(TrackerGame.table_id, TrackerGame.tokens_json).where(TrackerGame.id == bindparam("game"))
_CLAIM_HELD = select(SeatClaim.claim_hash).where(SeatClaim.game_id == bindparam("game"), SeatClaim.seat == bindparam("seat"))
_TOKENS = select(TrackerGame.tokens_json).where(TrackerGame.id == bindparam("game"))
_GAME_FINISHED = (select(TrackerGame.table_id, TrackerGame.created, TrackerGame.rematch_of)
                  .where(TrackerGame.id == bindparam("game")))
_MOVES_SINCE = (select(TrackerMove.id, TrackerMove.game_id, TrackerMove.version)
                .where(TrackerMove.id > bindparam("after")).order_by(TrackerMove.id).limit(bindparam("limit")))

# PostgreSQL: each stored move is announced on this channel ("<game id> <version>", delivered to
# every listener when the move commits), so every server process's watcher learns it at once
# instead of looking at the move table 20 times a second (``MoveFeed.heard``).
MOVES_CHANNEL = "planet_moves"
_ANNOUNCE = text(f"SELECT pg_notify('{MOVES_CHANNEL}', :said)")

MAX_UNDOS = 60   # take-backs in one game: enough for any table, not a loop that grows the log


@dataclass(frozen=True)
class Loaded:
    """A game as stored: its row's facts, its move log and the state the log leads to."""
    id: str
    setup: Setup
    tokens: tuple[str, ...]
    host_token: str
    mode: str
    table_id: str | None
    log: tuple[dict[str, object], ...]
    state: State

    @property
    def version(self) -> int:
        return len(self.log)

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token opens, or None; compared in constant time."""
        if not token:
            return None
        given = _bytes(token)
        found = None
        for seat, t in enumerate(self.tokens):
            if secrets.compare_digest(t.encode(), given):
                found = seat
        return found

    def is_host(self, token: str | None) -> bool:
        return bool(token) and secrets.compare_digest(self.host_token.encode(), _bytes(token))


def _bytes(value: object) -> bytes:
    # compare_digest refuses non-ASCII str; a header or URL may carry anything
    return str(value).encode("utf-8", "surrogateescape")


def _claim_hash(claim: str) -> str:
    return hashlib.sha256(_bytes(claim)).hexdigest()


def stale(current: int) -> StaleVersion:
    return StaleVersion(_("Someone moved first: the game is at version %(current)d now. Nothing was "
                          "changed; look again and choose.", current=current), ("version",))


def not_found() -> GameNotFound:
    return GameNotFound(_("There is no such game. The link may be mistyped."), ("id",))


class Games:
    """The tracker games of one database, as this process reads and writes them.

    Writers of one game queue on a lock (one of ``LOCK_STRIPES``, picked by the id's hash, so the
    locks stay few however many ids are asked for); the unique constraint guards across
    processes. The last state of recent games is cached: a read fetches only the moves after it.
    A cached ``Loaded`` (and its ``State``) is never changed once published; a move makes a new one.
    """

    def __init__(self, db: Database, cache_size: int = CACHE_SIZE, stripes: int = LOCK_STRIPES,
                 clock: Callable[[], float] = time.monotonic):
        self.db = db
        self.clock = clock
        self._stripes = tuple(threading.Lock() for _ in range(stripes))
        self._cache: OrderedDict[str, Loaded] = OrderedDict()
        self._cache_size = cache_size
        self._guard = threading.Lock()
        # (game, seat, the seat's token) -> the hash of the claim that holds it. A claim is never
        # changed while its token stands (a new link is a new token, claimed afresh), so a phone's
        # every page and long poll checks its cookie here, not with a query (CLAIMS at most).
        self._claims: OrderedDict[tuple[str, int, str], str] = OrderedDict()
        self._links_read: dict[str, float] = {}   # game -> when its seats' links were last read (monotonic)

    # -- the cache and the locks ------------------------------------------------------------------
    def _lock(self, game_id: str) -> threading.Lock:
        return self._stripes[hash(game_id) % len(self._stripes)]

    def _cached(self, game_id: str) -> Loaded | None:
        with self._guard:
            loaded = self._cache.get(game_id)
            if loaded is not None:
                self._cache.move_to_end(game_id)
            return loaded

    def _remember(self, loaded: Loaded) -> Loaded:
        with self._guard:
            self._cache[loaded.id] = loaded
            self._cache.move_to_end(loaded.id)
            while len(self._cache) > self._cache_size:
                self._links_read.pop(self._cache.popitem(last=False)[0], None)
        return loaded

    def known(self, game_id: str) -> Loaded | None:
        """The game as this process last read or wrote it (no database read; may be behind)."""
        with self._guard:
            return self._cache.get(game_id)

    def _forget(self, game_id: str) -> None:
        with self._guard:
            self._cache.pop(game_id, None)
            self._links_read.pop(game_id, None)

    def _links_seen(self, game_id: str) -> None:
        """The game's seats' links (its tokens) were just read from the database, or written."""
        with self._guard:
            self._links_read[game_id] = self.clock()

    # -- reading ----------------------------------------------------------------------------------
    def create(self, setup: Setup, mode: str = "own", rematch_of: str | None = None) -> Loaded:
        if mode not in MODES:
            mode = "own"
        tokens = tuple(secrets.token_urlsafe(16) for _ in setup.players)
        host = secrets.token_urlsafe(16)
        game_id = new_id()
        row = insert(TrackerGame).values(id=game_id, setup_json=json.dumps(setup.as_json()), tokens_json=json.dumps(tokens),
                                         host_token=host, mode=mode, rematch_of=rematch_of)
        self.db.write(lambda conn: conn.execute(row))
        return self._remember(Loaded(game_id, setup, tokens, host, mode, None, (), start(setup)))

    def load(self, game_id: str, known: int | None = None) -> Loaded:
        """The game as stored now (a snapshot: never changed afterwards). ``known``: its version
        as the caller has just checked it (the live refresh's watcher): a cached state at that
        version is the answer without reading the database again."""
        if not isinstance(game_id, str) or not game_id or len(game_id) > MAX_ID:
            raise not_found()
        cached = self._cached(game_id) if known is not None else None
        if cached is not None and cached.version == known and (cached.table_id or not cached.state.finished):
            return cached
        with self._lock(game_id):
            return self._load_locked(game_id)

    def _load_locked(self, game_id: str) -> Loaded:
        cached = self._cached(game_id)
        with self.db.engine.connect() as conn:  # the hot path of every request: Core, not the ORM
            base = cached or _from_row(conn, game_id)
            rows = conn.execute(_MOVES_AFTER, {"game": game_id, "after": base.version}).all()
            table_id, tokens = base.table_id, base.tokens
            if cached is not None:  # a seat's link re-issued through another process changes the tokens
                game = conn.execute(_GAME_LINKS, {"game": game_id}).one()
                table_id, tokens = game.table_id, tuple(json.loads(game.tokens_json))
        self._links_seen(game_id)
        if not rows and cached is not None and table_id == cached.table_id and tokens == cached.tokens:
            return cached
        entries: list[dict[str, object]] = []
        for expected, (version, move_json) in enumerate(rows, start=base.version + 1):
            if version != expected:  # cannot happen with the constraint; refuse to guess if it does
                self._forget(game_id)
                raise RuntimeError(f"game {game_id}: move log has a gap at version {expected}")
            entries.append(json.loads(move_json))
        state = advance(base.state, entries)
        return self._remember(replace(base, table_id=table_id, tokens=tokens, log=base.log + tuple(entries), state=state))

    # -- writing ----------------------------------------------------------------------------------
    def play(self, game_id: str, version: int | None, move: object, seat: int | None = None,
             read: Loaded | None = None) -> Loaded:
        """Append ``move`` (JSON) if the game is still at ``version`` and the move is legal.

        ``seat`` (when given) is who is asking: a move for another seat raises ``NotYourTurn``.
        Raises ``StaleVersion``, ``NotYourTurn``, ``IllegalMove`` or ``InputError``; on any error
        nothing is stored. Returns the game after the move. ``read``: the game as ``load`` read
        it from the database during the same request (see ``_current``).
        """
        with self._lock(game_id):
            loaded = self._current(game_id, read)
            if version is not None and version != loaded.version:
                raise stale(loaded.version)
            parsed = parse_move(_for_seat(loaded, move, seat))
            state, _ = apply(loaded.state, parsed)
            return self._append(loaded, parsed.as_json(), state)

    def undo(self, game_id: str, version: int | None = None, seat: int | None = None,
             read: Loaded | None = None) -> Loaded:
        """Take back the last move (see ``draft.undo``); ``seat`` None is the host; ``read`` as ``play``'s."""
        with self._lock(game_id):
            loaded = self._current(game_id, read)
            if version is not None and version != loaded.version:
                raise stale(loaded.version)
            check_undo(loaded.state, seat)
            if sum(1 for entry in loaded.log if entry.get("type") == "undo") >= MAX_UNDOS:
                raise IllegalMove(_("This game has had %(most)d moves taken back already; play on from here.",
                                    most=MAX_UNDOS), ("undo",))
            return self._append(loaded, Undo().as_json(), take_back(loaded.state))

    def _current(self, game_id: str, read: Loaded | None) -> Loaded:
        """The game to write after (under its lock): ``read`` when it is still what this process
        last read or wrote (the request read it from the database a moment ago: a move is one
        read and one insert, not two reads), else read again. A move another process stored in
        between makes the insert fail on the unique (game, version) key: ``StaleVersion``."""
        if read is not None and self.known(game_id) is read:
            return read
        return self._load_locked(game_id)

    # -- seats' links -------------------------------------------------------------------------
    def claim(self, game_id: str, seat: int, claim: str | None, token: str) -> str | None:
        """The phone holding ``claim`` may use this seat's link ``token``: the claim itself when it
        is the seat's (or a new one when nobody has opened the seat yet and ``token`` is the
        seat's link as stored now: not an old link re-issued through another process), else None."""
        key = (game_id, seat, token)
        with self._guard:
            # only while the seats' links were read within LINKS_TRUST: a link re-issued through
            # another process is then refused here as soon as it would be by the query
            fresh = self.clock() - self._links_read.get(game_id, -LINKS_TRUST) < LINKS_TRUST
            held = self._claims.get(key) if fresh else None
        if held is None:
            with self.db.engine.connect() as conn:  # every page of a seat's phone asks: no ORM here
                held = conn.execute(_CLAIM_HELD, {"game": game_id, "seat": seat}).scalar()
                current = None if held is not None else conn.execute(_TOKENS, {"game": game_id}).scalar()
            if held is not None:
                self._held(key, held)
        if held is not None:
            return claim if claim and secrets.compare_digest(held, _claim_hash(claim)) else None
        if current is None or not secrets.compare_digest(json.loads(current)[seat], token):
            return None
        new = secrets.token_urlsafe(24)
        try:
            row = insert(SeatClaim).values(game_id=game_id, seat=seat, claim_hash=_claim_hash(new))
            self.db.write(lambda conn: conn.execute(row))
        except IntegrityError:
            return None  # another phone opened it at the same moment, and was first
        self._held(key, _claim_hash(new))
        return new

    def holds(self, game_id: str, seat: int, claim: str | None, token: str) -> bool:
        """Does the phone holding ``claim`` hold this seat's link ``token`` already? Never claims a
        seat: a seat nobody has opened yet is held by nobody (``claim`` does the claiming)."""
        if not claim:
            return False
        key = (game_id, seat, token)
        with self._guard:
            fresh = self.clock() - self._links_read.get(game_id, -LINKS_TRUST) < LINKS_TRUST
            held = self._claims.get(key) if fresh else None
        if held is None:
            with self.db.engine.connect() as conn:
                held = conn.execute(_CLAIM_HELD, {"game": game_id, "seat": seat}).scalar()
            if held is None:
                return False
            self._held(key, held)
        return secrets.compare_digest(held, _claim_hash(claim))

    def _held(self, key: tuple[str, int, str], claim_hash: str) -> None:
        with self._guard:
            self._claims[key] = claim_hash
            while len(self._claims) > CLAIMS:
                self._claims.popitem(last=False)

    def claimed_seats(self, game_id: str) -> set[int]:
        with self.db.Session() as session:
            return set(session.execute(select(SeatClaim.seat).where(SeatClaim.game_id == game_id)).scalars())

    def reissue(self, game_id: str, seat: int) -> Loaded:
        """A new link for a seat (the old one stops working) that the next phone to open claims."""
        with self._lock(game_id):
            loaded = self._load_locked(game_id)
            tokens = list(loaded.tokens)
            tokens[seat] = secrets.token_urlsafe(16)
            def new_link(conn: Connection) -> None:
                conn.execute(update(TrackerGame).where(TrackerGame.id == game_id).values(tokens_json=json.dumps(tokens)))
                conn.execute(delete(SeatClaim).where(SeatClaim.game_id == game_id, SeatClaim.seat == seat))
            self.db.write(new_link)
            with self._guard:
                self._claims.pop((game_id, seat, loaded.tokens[seat]), None)
            return self._remember(replace(loaded, tokens=tuple(tokens)))

    def _append(self, loaded: Loaded, entry: dict[str, object], state: State) -> Loaded:
        """Store the move that leads to ``state``; the last move of a game stores its result with
        it, in the same transaction (a finished game always has its result and its play)."""
        version = loaded.version + 1
        row = insert(TrackerMove).values(game_id=loaded.id, version=version, move_json=json.dumps(entry))
        result = _Result(loaded.id, state) if state.finished and loaded.table_id is None else None

        def store(conn: Connection) -> str | None:
            conn.execute(row)
            if announces(self.db):  # in the move's transaction: heard when (and only if) it commits
                conn.execute(_ANNOUNCE, {"said": f"{loaded.id} {version}"})
            return result.store(conn) if result is not None else loaded.table_id
        try:
            table_id = self.db.write(store)
        except IntegrityError:
            self._forget(loaded.id)  # another process wrote: read afresh next time
            raise stale(version) from None
        return self._remember(replace(loaded, log=(*loaded.log, entry), state=state, table_id=table_id))

    def _save_result(self, loaded: Loaded) -> Loaded:
        """The result of a game whose last move was stored without it (by an older version)."""
        return self._remember(replace(loaded, table_id=self.db.write(_Result(loaded.id, loaded.state).store)))

    def ensure_result_saved(self, loaded: Loaded) -> str | None:
        """The saved table of a finished game (saving it now if a crash came in between)."""
        if loaded.state.finished and loaded.table_id is None:
            with self._lock(loaded.id):
                current = self._load_locked(loaded.id)
                if current.table_id is None:
                    current = self._save_result(current)
                return current.table_id
        return loaded.table_id

    def find_rematch(self, game_id: str) -> str | None:
        """The id of the rematch started from this game, if any."""
        with self.db.Session() as session:
            return session.execute(select(TrackerGame.id).where(TrackerGame.rematch_of == game_id)
                                   .order_by(TrackerGame.created.desc()).limit(1)).scalar()


class _Result:
    """A finished game's result as a saved table and its play (``history``), written by one
    connection in the caller's transaction through Core: the ORM's unit of work cost the last
    move of a game about 4 ms more (14 statements, two of them reading back what was just written)."""

    def __init__(self, game_id: str, state: State):
        assert state.result is not None
        self.game_id = game_id
        self.request_json = json.dumps(score_request_of(state))
        self.result = dict(state.result)
        try:  # checked before the transaction: a result the history cannot list still ends the game
            self.players: tuple[PlayerRecord, ...] | None = players_of_game(self.result)
        except (RecordError, ValueError):  # as for any saved table: kept, not listed
            self.players = None

    def store(self, conn: Connection) -> str:
        """Saves the result unless another process saved it first; the game's table id either way."""
        game = conn.execute(_GAME_FINISHED, {"game": self.game_id}).one()
        if game.table_id is not None:
            return str(game.table_id)
        table_id, created = new_id(), utcnow()
        conn.execute(insert(SavedTable).values(id=table_id, created=created, request_json=self.request_json,
                                               result_json=json.dumps(self.result)))
        if self.players is not None:
            record_play(conn, play_of_game(new_id(), table_id, created, self.players, game_id=self.game_id,
                                           started=game.created, rematch_of=game.rematch_of))
        conn.execute(update(TrackerGame).where(TrackerGame.id == self.game_id).values(table_id=table_id))
        return table_id


def mark_finished_games(db: Database) -> int:
    """Mark the plays of tracked games finished before plays were recorded as those games'."""
    with db.writing() as conn:
        games = conn.execute(select(TrackerGame.id, TrackerGame.table_id, TrackerGame.created, TrackerGame.rematch_of)
                             .where(TrackerGame.table_id.in_(select(Play.table_id).where(Play.game_id.is_(None))))).all()
        for game_id, table_id, started, rematch_of in games:
            mark_game(conn, game_id, table_id, started, rematch_of)
    return len(games)


def _from_row(conn: Connection, game_id: str) -> Loaded:
    row = conn.execute(select(TrackerGame.id, TrackerGame.setup_json, TrackerGame.tokens_json,
                              TrackerGame.host_token, TrackerGame.mode, TrackerGame.table_id)
                       .where(TrackerGame.id == game_id)).one_or_none()
    if row is None:
        raise not_found()
    data = json.loads(row.setup_json)
    setup = Setup(tuple(data["players"]), data["seed"], data["hidden_characters"])
    return Loaded(row.id, setup, tuple(json.loads(row.tokens_json)), row.host_token, row.mode,
                  row.table_id, (), start(setup))


def _for_seat(loaded: Loaded, move: object, seat: int | None) -> object:
    """The move as ``seat`` posted it: its own seat filled in; another seat's refused."""
    if not isinstance(move, dict) or seat is None:
        return move
    if "seat" not in move:
        return {**move, "seat": seat}
    if move["seat"] != seat:
        raise NotYourTurn(_("That move is for another player's seat; your link is for %(name)s.",
                            name=loaded.setup.players[seat]), ("move", "seat"))
    return move


# -- live refresh: what a phone's "anything new?" needs, without loading a game ------------------

def latest_versions(db: Database, game_ids) -> dict[str, int]:
    """The version of each of ``game_ids`` that exists (0 before the first move), in one query
    over the primary key and the unique (game_id, version) index; unknown ids are left out."""
    ids = [g for g in dict.fromkeys(game_ids) if isinstance(g, str) and 0 < len(g) <= 32]
    found: dict[str, int] = {}
    for first in range(0, len(ids), 500):  # well under every database's limit of parameters
        chunk = ids[first:first + 500]
        newest = (select(func.max(TrackerMove.version)).where(TrackerMove.game_id == TrackerGame.id)
                  .correlate(TrackerGame).scalar_subquery())  # one step down the index per game
        query = select(TrackerGame.id, func.coalesce(newest, 0)).where(TrackerGame.id.in_(chunk))
        with db.engine.connect() as conn:
            found.update({game_id: int(version) for game_id, version in conn.execute(query)})
    return found


def seat_tokens(db: Database, game_id: str) -> tuple[str, ...] | None:
    """The seats' tokens of a game (they never change), or None if there is no such game."""
    if not isinstance(game_id, str) or not 0 < len(game_id) <= 32:
        return None
    with db.engine.connect() as conn:
        raw = conn.execute(_TOKENS, {"game": game_id}).scalar()
    return None if raw is None else tuple(json.loads(raw))


def moves_since(db: Database, after_id: int, limit: int = 5000) -> list[tuple[int, str, int]]:
    """(row id, game id, version) of the moves stored after row ``after_id``, oldest first: a
    watcher learns every game's new versions from this one query down the primary key."""
    with db.engine.connect() as conn:
        rows = conn.execute(_MOVES_SINCE, {"after": after_id, "limit": limit})
        return [(int(i), g, int(v)) for i, g, v in rows]


class MoveFeed:
    """``moves_since`` for a process's live watcher, which asks it a hundred times a second on
    SQLite. There it keeps one connection of its own and asks through the driver: through the
    pool and SQLAlchemy each look cost about 0.8 ms (a checkout, the query, a rollback on return),
    8-12% of a core while nobody moved. A SELECT outside a transaction sees every commit made
    before it (WAL). On PostgreSQL the watcher waits for the moves' announcements (``heard``)
    and looks through ``moves_since`` only while it cannot hear them. Not shared between
    processes: a forked worker opens its own."""

    def __init__(self, db: Database):
        self.db = db
        self._raw = None
        self._pid = 0
        self.listens = announces(db)  # stored moves are announced (PostgreSQL): ``heard`` waits for them
        self._listener = None   # ... on a connection of its own, which LISTENs
        self._listener_pid = 0
        # the store's own query (``_MOVES_SINCE``), compiled once for the driver: its SQL and the
        # order of its parameters, with those SQLAlchemy fixed itself (the OFFSET)
        compiled = _MOVES_SINCE.compile(dialect=db.engine.dialect)
        self._sql, self._order, self._fixed = str(compiled), compiled.positiontup or [], dict(compiled.params)

    def since(self, after_id: int, limit: int = 5000) -> list[tuple[int, str, int]]:
        if not self.db.url.startswith("sqlite"):
            return moves_since(self.db, after_id, limit)
        if self._raw is None or self._pid != os.getpid():
            self._raw, self._pid = self.db.engine.raw_connection(), os.getpid()
        try:
            cursor = self._raw.cursor()
            try:
                given = {**self._fixed, "after": after_id, "limit": limit}
                rows = cursor.execute(self._sql, tuple(given[k] for k in self._order)).fetchall()
            finally:
                cursor.close()
        except Exception:
            self.close()  # the next look opens a new connection
            raise
        return [(int(i), g, int(v)) for i, g, v in rows]

    def heard(self, seconds: float) -> dict[str, int] | None:
        """The newest version of each game whose move was announced (``MOVES_CHANNEL``), waiting up
        to ``seconds`` for the first and returning as soon as one comes. None when this process
        starts listening just now: what was stored before is not announced to it, so the caller
        reads the versions it needs another way. Listens on a connection of its own, out of the
        pool (a forked worker opens its own)."""
        if self._listener is None or self._listener_pid != os.getpid():
            raw = self.db.engine.raw_connection()
            listener = raw.driver_connection
            raw.detach()   # kept for as long as this process listens, not given back to the pool
            self._listener, self._listener_pid = listener, os.getpid()
            try:
                listener.autocommit = True
                listener.execute(f"LISTEN {MOVES_CHANNEL}")
            except Exception:
                self.close()
                raise
            return None
        newest: dict[str, int] = {}
        try:
            for note in self._listener.notifies(timeout=seconds, stop_after=1):
                game_id, _, version = note.payload.partition(" ")
                if version.isdigit():
                    newest[game_id] = max(int(version), newest.get(game_id, 0))
        except Exception:
            self.close()  # the next call listens again, on a new connection
            raise
        return newest

    def close(self) -> None:
        raw, self._raw = self._raw, None
        listener, self._listener = self._listener, None
        for connection, pid in ((raw, self._pid), (listener, self._listener_pid)):
            if connection is not None and pid == os.getpid():
                try:
                    connection.close()
                except Exception:  # already broken: nothing to give back
                    pass


def announces(db: Database) -> bool:
    """Does ``db`` announce each stored move to listeners (PostgreSQL's NOTIFY)?"""
    return db.engine.dialect.name == "postgresql"


def last_move_id(db: Database) -> int:
    """The newest move row's id (0 when there is none): where a watcher starts reading."""
    with db.engine.connect() as conn:
        return int(conn.execute(select(func.max(TrackerMove.id))).scalar() or 0)
