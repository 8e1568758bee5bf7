"""Expiry: abandoned games go after a while; finished games, scored tables and tallies go only
when the server is told to keep them for a limited time (they feed the history by default).

Storage only; ``python -m scorer expire`` and ``serve`` (once at start) call it.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, func, select
from sqlalchemy.engine import Connection

from .db import Database, SavedTable, utcnow
from .history_store import Play, PlayCharacter, PlayPlayer
from .stars_store import StarsTally
from .tracker_store import SeatClaim, TrackerGame, TrackerMove

ABANDONED_DAYS = 30     # an unfinished game nobody has moved in for this long is dropped


@dataclass(frozen=True)
class Expired:
    abandoned_games: int = 0
    finished_games: int = 0
    tables: int = 0
    tallies: int = 0

    def as_json(self) -> dict[str, int]:
        return dict(self.__dict__)


def expire(db: Database, abandoned_days: float = ABANDONED_DAYS, keep_days: float | None = None,
           now: datetime | None = None) -> Expired:
    """Remove what has expired, in one transaction; say how much of each."""
    now = now or utcnow()
    with db.writing() as conn:
        abandoned = _abandoned_games(conn, now - timedelta(days=abandoned_days))
        _delete_games(conn, abandoned)
        if keep_days is None:
            return Expired(abandoned_games=len(abandoned))
        cutoff = now - timedelta(days=keep_days)
        finished = list(conn.execute(select(TrackerGame.id).where(
            TrackerGame.table_id.is_not(None), TrackerGame.created < cutoff)).scalars())
        _delete_games(conn, finished)
        tables = list(conn.execute(select(SavedTable.id).where(SavedTable.created < cutoff)).scalars())
        _delete_tables(conn, tables)
        tallies = conn.execute(delete(StarsTally).where(StarsTally.created < cutoff)).rowcount
    return Expired(len(abandoned), len(finished), len(tables), tallies or 0)


def _abandoned_games(conn: Connection, before: datetime) -> list[str]:
    last_move = (select(TrackerMove.game_id, func.max(TrackerMove.created).label("last"))
                 .group_by(TrackerMove.game_id).subquery())
    rows = conn.execute(select(TrackerGame.id, TrackerGame.created, last_move.c.last)
                        .outerjoin(last_move, last_move.c.game_id == TrackerGame.id)
                        .where(TrackerGame.table_id.is_(None)))
    return [gid for gid, created, last in rows if (last or created) < before]  # aware UTC: db.UTCDateTime


def _delete_games(conn: Connection, game_ids: list[str]) -> None:
    for start in range(0, len(game_ids), 500):
        batch = game_ids[start:start + 500]
        conn.execute(delete(TrackerMove).where(TrackerMove.game_id.in_(batch)))
        conn.execute(delete(SeatClaim).where(SeatClaim.game_id.in_(batch)))
        conn.execute(delete(TrackerGame).where(TrackerGame.id.in_(batch)))


def _delete_tables(conn: Connection, table_ids: list[str]) -> None:
    for start in range(0, len(table_ids), 500):
        batch = table_ids[start:start + 500]
        plays = select(Play.id).where(Play.table_id.in_(batch))
        conn.execute(delete(PlayCharacter).where(PlayCharacter.play_id.in_(plays)))
        conn.execute(delete(PlayPlayer).where(PlayPlayer.play_id.in_(plays)))
        conn.execute(delete(Play).where(Play.table_id.in_(batch)))
        conn.execute(delete(SavedTable).where(SavedTable.id.in_(batch)))
