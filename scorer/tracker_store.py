"""Tracker games in the database: each game is its setup plus an append-only move log.

A move row is never changed or deleted; an undo is appended as ``{"type": "undo"}``. Each row
carries the game's version after it (1, 2, …) under a unique (game_id, version) constraint, so
of two writers that both read version n only one can append n + 1; the other gets ``Stale``
(HTTP 409) and nothing changes. The state is always ``tracker.replay(setup, log)``.
"""
from __future__ import annotations

import json
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import (
    DateTime, ForeignKey, Integer, String, Text, UniqueConstraint, func, select,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from .db import Base, Database, new_id, save_table, utcnow
from .tracker import Game, MoveError, Setup, check_undo, replay, score_request_of

MODES = ("one", "own")  # one phone passed round the table, or each player on their own phone


class TrackerGame(Base):
    __tablename__ = "tracker_games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
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
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Stale(MoveError):
    status = 409

    def __init__(self, current: int):
        super().__init__(f"Someone moved first: the game is at version {current} now. Nothing was "
                         "changed; look again and choose.", "version")
        self.current = current


class NotFound(MoveError):
    status = 404

    def __init__(self):
        super().__init__("There is no such game. The link may be mistyped.", "id")


@dataclass
class Loaded:
    """A game as stored: its row's facts and its replayed state."""
    id: str
    setup: Setup
    tokens: list[str]
    host_token: str
    mode: str
    table_id: str | None
    log: list[dict]
    game: Game

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


def _bytes(value) -> bytes:
    # compare_digest refuses non-ASCII str; a header or URL may carry anything
    return str(value).encode("utf-8", "surrogateescape")


# Writers of one process queue per game; the unique constraint guards across processes.
_locks: dict[str, threading.Lock] = {}
_locks_guard = threading.Lock()

# The last state of recent games, per database: a read fetches only the moves after it. A cached
# ``Loaded`` (and its ``Game``) is never changed once published; a move makes a new one.
CACHE_SIZE = 512
_cache: OrderedDict[tuple[str, str], Loaded] = OrderedDict()


def _lock(game_id: str) -> threading.Lock:
    with _locks_guard:
        lock = _locks.get(game_id)
        if lock is None:
            lock = _locks[game_id] = threading.Lock()
        return lock


def _cache_get(db: Database, game_id: str) -> Loaded | None:
    with _locks_guard:
        loaded = _cache.get((db.url, game_id))
        if loaded is not None:
            _cache.move_to_end((db.url, game_id))
        return loaded


def _cache_put(db: Database, loaded: Loaded) -> None:
    with _locks_guard:
        _cache[(db.url, loaded.id)] = loaded
        _cache.move_to_end((db.url, loaded.id))
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)


def _cache_drop(db: Database, game_id: str) -> None:
    with _locks_guard:
        _cache.pop((db.url, game_id), None)


def create_game(db: Database, setup: Setup, mode: str = "own", rematch_of: str | None = None) -> Loaded:
    if mode not in MODES:
        mode = "own"
    tokens = [secrets.token_urlsafe(16) for _ in setup.players]
    host = secrets.token_urlsafe(16)
    with db.Session.begin() as session:
        row = TrackerGame(setup_json=json.dumps(setup.as_json()), tokens_json=json.dumps(tokens),
                          host_token=host, mode=mode, rematch_of=rematch_of)
        session.add(row)
        session.flush()
        game_id = row.id
    loaded = Loaded(game_id, setup, tokens, host, mode, None, [], replay(setup, []))
    _cache_put(db, loaded)
    return loaded


def load_game(db: Database, game_id: str) -> Loaded:
    """The game as stored now (a snapshot: never changed afterwards)."""
    if not isinstance(game_id, str) or not game_id or len(game_id) > 32:
        raise NotFound()
    with _lock(game_id):
        return _load_locked(db, game_id)


def _load_locked(db: Database, game_id: str) -> Loaded:
    cached = _cache_get(db, game_id)
    with db.Session() as session:
        if cached is None:
            row = session.get(TrackerGame, game_id)
            if row is None:
                raise NotFound()
            data = json.loads(row.setup_json)
            setup = Setup(tuple(data["players"]), data["seed"], data["hidden_characters"])
            base = Loaded(row.id, setup, json.loads(row.tokens_json), row.host_token, row.mode,
                          row.table_id, [], replay(setup, []))
        else:
            base = cached
        rows = session.execute(
            select(TrackerMove.version, TrackerMove.move_json)
            .where(TrackerMove.game_id == game_id, TrackerMove.version > base.version)
            .order_by(TrackerMove.version)).all()
        table_id = base.table_id
        if rows and table_id is None:
            table_id = session.execute(select(TrackerGame.table_id).where(TrackerGame.id == game_id)).scalar()
        elif base.table_id is None and base.game.finished:
            table_id = session.execute(select(TrackerGame.table_id).where(TrackerGame.id == game_id)).scalar()
    if not rows and cached is not None and table_id == cached.table_id:
        return cached
    log = list(base.log)
    game = base.game.clone() if rows else base.game
    for i, (version, move_json) in enumerate(rows, start=base.version + 1):
        if version != i:  # cannot happen with the constraint; refuse to guess if it does
            _cache_drop(db, game_id)
            raise RuntimeError(f"game {game_id}: move log has a gap at version {i}")
        entry = json.loads(move_json)
        log.append(entry)
        if entry.get("type") == "undo":
            game = replay(base.setup, log)
        else:
            game.apply(entry)
            game.version = len(log)
    loaded = Loaded(base.id, base.setup, base.tokens, base.host_token, base.mode, table_id, log, game)
    _cache_put(db, loaded)
    return loaded


# SQLite has one writer at a time, and a writer that finds the lock taken sleeps in steps of up
# to 100 ms before trying again. Queueing this process's writers here instead keeps commits
# back to back under load; the database's own lock still guards against other processes.
_write_lock = threading.Lock()


def _append(db: Database, loaded: Loaded, entry: dict, game: Game) -> Loaded:
    version = loaded.version + 1
    try:
        with _write_lock, db.Session.begin() as session:
            session.add(TrackerMove(game_id=loaded.id, version=version, move_json=json.dumps(entry)))
    except IntegrityError:
        _cache_drop(db, loaded.id)  # another process wrote: read afresh next time
        raise Stale(version) from None
    game.version = version
    after = Loaded(loaded.id, loaded.setup, loaded.tokens, loaded.host_token, loaded.mode,
                   loaded.table_id, loaded.log + [entry], game)
    _cache_put(db, after)
    return after


def play(db: Database, game_id: str, version, move, seat: int | None = None) -> Loaded:
    """Append ``move`` if the game is still at ``version`` and the move is legal.

    ``seat`` (when given) is who is asking: a move for another seat raises ``NotYourTurn``.
    Raises ``Stale`` (409), ``NotYourTurn`` (403) or ``MoveError`` (400); on any error nothing
    is stored. Returns the game after the move.
    """
    with _lock(game_id):
        loaded = _load_locked(db, game_id)
        if version is not None and version != loaded.version:
            raise Stale(loaded.version)
        if isinstance(move, dict) and seat is not None:
            if "seat" not in move:
                move = {**move, "seat": seat}
            elif move["seat"] != seat:
                from .tracker import NotYourTurn
                raise NotYourTurn("That move is for another player's seat; your link is for "
                                  f"{loaded.setup.players[seat]}.", "move.seat")
        game = loaded.game.clone()
        game.apply(move)
        after = _append(db, loaded, game.moves[-1], game)
        if game.finished:
            after = _save_result(db, after)
        return after


def undo(db: Database, game_id: str, version=None, seat: int | None = None) -> Loaded:
    """Take back the last move (a take or an appoint); ``seat`` None is the host."""
    with _lock(game_id):
        loaded = _load_locked(db, game_id)
        if version is not None and version != loaded.version:
            raise Stale(loaded.version)
        if loaded.game.finished:
            raise MoveError("The game is over and scored; it cannot be taken back.", "undo")
        check_undo(loaded.game, seat)
        entry = {"type": "undo"}
        return _append(db, loaded, entry, replay(loaded.setup, loaded.log + [entry]))


def _save_result(db: Database, loaded: Loaded) -> Loaded:
    game = loaded.game
    table_id = save_table(db, score_request_of(game), game.result)
    with db.Session.begin() as session:
        row = session.get(TrackerGame, loaded.id)
        if row.table_id is None:
            row.table_id = table_id
        table_id = row.table_id
    after = Loaded(loaded.id, loaded.setup, loaded.tokens, loaded.host_token, loaded.mode, table_id,
                   loaded.log, loaded.game)
    _cache_put(db, after)
    return after


def ensure_result_saved(db: Database, loaded: Loaded) -> str | None:
    """The saved table of a finished game (saving it now if a crash came in between)."""
    if loaded.game.finished and loaded.table_id is None:
        with _lock(loaded.id):
            current = _load_locked(db, loaded.id)
            if current.table_id is None:
                current = _save_result(db, current)
            return current.table_id
    return loaded.table_id


def find_rematch(db: Database, game_id: str) -> str | None:
    """The id of the rematch started from this game, if any."""
    with db.Session() as session:
        return session.execute(select(TrackerGame.id).where(TrackerGame.rematch_of == game_id)
                               .order_by(TrackerGame.created.desc()).limit(1)).scalar()


def reset_after_fork() -> None:
    """Fresh locks and an empty cache for a forked server worker: a gevent lock made in the
    parent and waited on in the child blocks the child's every greenlet."""
    global _locks_guard, _write_lock
    _locks_guard, _write_lock = threading.Lock(), threading.Lock()
    _locks.clear()
    _cache.clear()


# -- live refresh: what a phone's "anything new?" needs, without loading a game ------------------

def latest_versions(db: Database, game_ids) -> dict[str, int]:
    """The version of each of ``game_ids`` that exists (0 before the first move), in one query
    over the primary key and the unique (game_id, version) index; unknown ids are left out."""
    ids = [g for g in dict.fromkeys(game_ids) if isinstance(g, str) and 0 < len(g) <= 32]
    found: dict[str, int] = {}
    for start in range(0, len(ids), 500):  # well under every database's limit of parameters
        chunk = ids[start:start + 500]
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
        raw = conn.execute(select(TrackerGame.tokens_json).where(TrackerGame.id == game_id)).scalar()
    return None if raw is None else tuple(json.loads(raw))


def moves_since(db: Database, after_id: int, limit: int = 5000) -> list[tuple[int, str, int]]:
    """(row id, game id, version) of the moves stored after row ``after_id``, oldest first: a
    watcher learns every game's new versions from this one query down the primary key."""
    with db.engine.connect() as conn:
        rows = conn.execute(select(TrackerMove.id, TrackerMove.game_id, TrackerMove.version)
                            .where(TrackerMove.id > after_id).order_by(TrackerMove.id).limit(limit))
        return [(int(i), g, int(v)) for i, g, v in rows]


def last_move_id(db: Database) -> int:
    """The newest move row's id (0 when there is none): where a watcher starts reading."""
    with db.engine.connect() as conn:
        return int(conn.execute(select(func.max(TrackerMove.id))).scalar() or 0)
