"""Plays in the database: every saved table becomes a play the moment it is stored, with one row
per player and per character worked out then (names compared case-insensitively), so that the
history and a player's stats are indexed queries, never JSON read back at page time.

A hook, not a call: a ``SavedTable`` insert through the ORM records its play in the same
transaction. A tracked game's result is saved with its last move (``tracker_store``), which
records the game's play itself (``record_play``), with its duration and start player.
The tables here are new; nothing is added to another feature's table.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import (
    Boolean,
    ForeignKey,
    Index,
    Integer,
    String,
    case,
    delete,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Mapped, mapped_column

from .db import Base, Database, SavedTable, UTCDateTime, new_id, utcnow
from .history import (
    KINDS,
    CharacterTotals,
    PlayerRecord,
    PlayRecord,
    RecordError,
    Totals,
    kind_of,
    minutes_between,
    name_key,
    players_of,
    utc,
)
from .i18n import _

EXPORT_FORMAT = "make-me-a-planet/plays"
EXPORT_VERSION = 1


class Play(Base):
    __tablename__ = "plays"
    __table_args__ = (Index("ix_plays_created_id", "created", "id"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    table_id: Mapped[str] = mapped_column(String(32), unique=True)
    created: Mapped[datetime] = mapped_column(UTCDateTime)
    kind: Mapped[str] = mapped_column(String(8))
    players: Mapped[int] = mapped_column(Integer)
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    duration_min: Mapped[int | None] = mapped_column(Integer, nullable=True)


class PlayPlayer(Base):
    __tablename__ = "play_players"
    __table_args__ = (Index("ix_play_players_key", "key", "counted", "created"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    play_id: Mapped[str] = mapped_column(String(32), ForeignKey("plays.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))
    key: Mapped[str] = mapped_column(String(64))
    created: Mapped[datetime] = mapped_column(UTCDateTime)
    counted: Mapped[bool] = mapped_column(Boolean)
    score: Mapped[int] = mapped_column(Integer)
    subtotal: Mapped[int] = mapped_column(Integer)
    penalty: Mapped[int] = mapped_column(Integer)
    volcanoes: Mapped[int] = mapped_column(Integer)
    rank: Mapped[int | None] = mapped_column(Integer, nullable=True)
    winner: Mapped[bool] = mapped_column(Boolean)
    start_player: Mapped[bool] = mapped_column(Boolean, default=False)


class PlayCharacter(Base):
    __tablename__ = "play_characters"
    __table_args__ = (Index("ix_play_characters_key", "key", "counted", "character", "points"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    play_id: Mapped[str] = mapped_column(String(32), ForeignKey("plays.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    key: Mapped[str] = mapped_column(String(64))
    counted: Mapped[bool] = mapped_column(Boolean)
    character: Mapped[str] = mapped_column(String(32))
    points: Mapped[int] = mapped_column(Integer)


class PlayerAlias(Base):
    """Another spelling of a player: its plays count as ``into``'s."""
    __tablename__ = "player_aliases"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    into: Mapped[str] = mapped_column(String(64), index=True)
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


# ---------------------------------------------------------------------------------------------
# recording


def record_play(conn: Connection, play: PlayRecord) -> None:
    """Insert a play and its per-player and per-character rows (in the caller's transaction)."""
    counted = play.counted
    conn.execute(insert(Play).values(
        id=play.id, table_id=play.table_id, created=play.created, kind=play.kind,
        players=len(play.players), game_id=play.game_id, rematch_of=play.rematch_of,
        duration_min=play.duration_min))
    conn.execute(insert(PlayPlayer), [{
        "play_id": play.id, "seat": p.seat, "name": p.name, "key": p.key, "created": play.created,
        "counted": counted, "score": p.score, "subtotal": p.subtotal, "penalty": p.penalty,
        "volcanoes": p.volcanoes, "rank": p.rank, "winner": p.winner, "start_player": p.start_player,
    } for p in play.players])
    chars = [{"play_id": play.id, "seat": p.seat, "key": p.key, "counted": counted,
              "character": c, "points": pts} for p in play.players for c, pts in p.characters]
    if chars:
        conn.execute(insert(PlayCharacter), chars)


def play_of_table(table_id: str, created: datetime | None, result_json: str) -> PlayRecord:
    players = players_of(json.loads(result_json))
    return PlayRecord(id=new_id(), table_id=table_id, created=created or utcnow(),
                      kind=kind_of(players, None), players=players)


@event.listens_for(SavedTable, "after_insert")
def _table_saved(_mapper, conn: Connection, target: SavedTable) -> None:
    try:
        play = play_of_table(target.id, target.created, target.result_json)
    except (RecordError, ValueError):  # not a scoring response: the table is kept, not listed
        return
    record_play(conn, play)


def mark_game(conn: Connection, game_id: str, table_id: str, started: datetime | None,
              rematch_of: str | None) -> None:
    """The play of ``table_id`` (recorded as a table's) is tracked game ``game_id``'s: seat 0
    started it (SPEC: the youngest, start player of round 1), and it lasted from the game's
    creation until then. For games finished before plays were recorded (``tracker_store``)."""
    play_id = conn.execute(select(Play.id).where(Play.table_id == table_id, Play.game_id.is_(None))).scalar()
    if play_id is None:
        return
    created = conn.execute(select(Play.created).where(Play.id == play_id)).scalar()
    conn.execute(update(Play).where(Play.id == play_id).values(
        kind="game", game_id=game_id, rematch_of=rematch_of, duration_min=minutes_between(started, created)))
    conn.execute(update(PlayPlayer).where(PlayPlayer.play_id == play_id)
                 .values(start_player=PlayPlayer.seat == 0))


def backfill(db: Database) -> int:
    """Record the plays of tables stored before this module existed (their games are marked by
    ``tracker_store.mark_finished_games``)."""
    added = 0
    with db.writing() as conn:
        known = select(Play.table_id)
        rows = conn.execute(select(SavedTable.id, SavedTable.created, SavedTable.result_json)
                            .where(SavedTable.id.not_in(known))).all()
        for table_id, created, result_json in rows:
            try:
                record_play(conn, play_of_table(table_id, created, result_json))
                added += 1
            except (RecordError, ValueError):
                continue
    return added


# ---------------------------------------------------------------------------------------------
# reading


PLAYER_COLUMNS = (PlayPlayer.play_id, PlayPlayer.seat, PlayPlayer.name, PlayPlayer.score,
                  PlayPlayer.subtotal, PlayPlayer.penalty, PlayPlayer.volcanoes, PlayPlayer.rank,
                  PlayPlayer.winner, PlayPlayer.start_player)


def _records(conn: Connection, plays, with_characters: bool) -> list[PlayRecord]:
    ids = [p.id for p in plays]
    players: dict[str, list] = {i: [] for i in ids}
    for row in conn.execute(select(*PLAYER_COLUMNS).where(PlayPlayer.play_id.in_(ids))
                            .order_by(PlayPlayer.play_id, PlayPlayer.seat)):
        players[row.play_id].append(row)
    chars: dict[tuple[str, int], list] = {}
    if with_characters:
        for row in conn.execute(select(PlayCharacter.play_id, PlayCharacter.seat, PlayCharacter.character,
                                       PlayCharacter.points).where(PlayCharacter.play_id.in_(ids))
                                .order_by(PlayCharacter.id)):
            chars.setdefault((row.play_id, row.seat), []).append((row.character, row.points))
    return [PlayRecord(
        id=p.id, table_id=p.table_id, created=p.created, kind=p.kind, game_id=p.game_id,
        rematch_of=p.rematch_of, duration_min=p.duration_min,
        players=tuple(PlayerRecord(seat=r.seat, name=r.name, score=r.score, subtotal=r.subtotal,
                                   penalty=r.penalty, volcanoes=r.volcanoes, rank=r.rank,
                                   winner=bool(r.winner), start_player=bool(r.start_player),
                                   characters=tuple(chars.get((p.id, r.seat), ())))
                      for r in players[p.id])) for p in plays]


PLAY_COLUMNS = (Play.id, Play.table_id, Play.created, Play.kind, Play.game_id, Play.rematch_of,
                Play.duration_min)


def list_plays(db: Database, page: int = 1, per_page: int = 20) -> tuple[list[PlayRecord], int]:
    """One page of plays, newest first, and how many there are in all."""
    with db.engine.connect() as conn:
        total = conn.execute(select(func.count()).select_from(Play)).scalar() or 0
        plays = conn.execute(select(*PLAY_COLUMNS).order_by(Play.created.desc(), Play.id.desc())
                             .limit(per_page).offset(max(page - 1, 0) * per_page)).all()
        return _records(conn, plays, with_characters=False), total


def games_by_id(db: Database, game_ids: list[str]) -> dict[str, PlayRecord]:
    """The plays of these tracked games (a rematch links to the game it followed)."""
    if not game_ids:
        return {}
    with db.engine.connect() as conn:
        plays = conn.execute(select(*PLAY_COLUMNS).where(Play.game_id.in_(game_ids))).all()
        return {p.game_id: p for p in _records(conn, plays, with_characters=False)}


def play_for_table(db: Database, table_id: str) -> PlayRecord | None:
    with db.engine.connect() as conn:
        plays = conn.execute(select(*PLAY_COLUMNS).where(Play.table_id == table_id)).all()
        found = _records(conn, plays, with_characters=True)
    return found[0] if found else None


def delete_play(db: Database, play_id: str) -> bool:
    """Remove a play: its rows here and its saved table (its link then answers "removed")."""
    with db.writing() as conn:
        table_id = conn.execute(select(Play.table_id).where(Play.id == play_id)).scalar()
        if table_id is None:
            return False
        conn.execute(delete(PlayCharacter).where(PlayCharacter.play_id == play_id))
        conn.execute(delete(PlayPlayer).where(PlayPlayer.play_id == play_id))
        conn.execute(delete(Play).where(Play.id == play_id))
        conn.execute(delete(SavedTable).where(SavedTable.id == table_id))
    return True


# ---------------------------------------------------------------------------------------------
# players


def resolve(conn: Connection, key: str) -> str:
    into = conn.execute(select(PlayerAlias.into).where(PlayerAlias.key == key)).scalar()
    return into or key


def keys_of(conn: Connection, key: str) -> list[str]:
    """A player's compared name and every spelling merged into it."""
    return [key] + list(conn.execute(select(PlayerAlias.key).where(PlayerAlias.into == key)
                                     .order_by(PlayerAlias.key)).scalars())


def spelling(conn: Connection, keys: list[str]) -> str | None:
    """The name as most recently written under these keys."""
    return conn.execute(select(PlayPlayer.name).where(PlayPlayer.key.in_(keys))
                        .order_by(PlayPlayer.created.desc()).limit(1)).scalar()


def totals(conn: Connection, keys: list[str]) -> Totals:
    row = conn.execute(select(
        func.count(), func.sum(case((PlayPlayer.winner.is_(True), 1), else_=0)), func.sum(PlayPlayer.score),
        func.max(PlayPlayer.score), func.sum(case((PlayPlayer.penalty < 0, 1), else_=0)),
        func.sum(PlayPlayer.penalty),
    ).where(PlayPlayer.key.in_(keys), PlayPlayer.counted.is_(True))).one()
    return Totals(plays=row[0] or 0, wins=row[1] or 0, score_sum=row[2] or 0, best=row[3],
                  penalties=row[4] or 0, penalty_points=row[5] or 0)


def character_totals(conn: Connection, keys: list[str]) -> list[CharacterTotals]:
    rows = conn.execute(select(PlayCharacter.character, func.count(), func.sum(PlayCharacter.points),
                               func.max(PlayCharacter.points))
                        .where(PlayCharacter.key.in_(keys), PlayCharacter.counted.is_(True))
                        .group_by(PlayCharacter.character)).all()
    return [CharacterTotals(c, n, pts, best) for c, n, pts, best in rows]


@dataclass(frozen=True)
class RecentPlay:
    table_id: str
    created: datetime
    score: int
    rank: int | None
    winner: bool
    name: str


def recent(conn: Connection, keys: list[str], limit: int) -> list[RecentPlay]:
    """A player's last ``limit`` counted plays, newest first."""
    rows = conn.execute(select(Play.table_id, PlayPlayer.created, PlayPlayer.score, PlayPlayer.rank,
                               PlayPlayer.winner, PlayPlayer.name)
                        .join(Play, Play.id == PlayPlayer.play_id)
                        .where(PlayPlayer.key.in_(keys), PlayPlayer.counted.is_(True))
                        .order_by(PlayPlayer.created.desc()).limit(limit)).all()
    return [RecentPlay(r[0], r[1], r[2], r[3], bool(r[4]), r[5]) for r in rows]


class MergeError(ValueError):
    pass


def merge(db: Database, name: str, into_name: str) -> str:
    """Count ``name``'s plays as ``into_name``'s from now on; returns the key they now share."""
    with db.writing() as conn:
        src, dst = resolve(conn, name_key(name)), resolve(conn, name_key(into_name))
        if not dst or spelling(conn, keys_of(conn, dst)) is None:
            raise MergeError(_("Nobody called “%(name)s” has played here yet.", name=into_name.strip()))
        if src == dst:
            raise MergeError(_("“%(a)s” and “%(b)s” are already the same player.", a=name.strip(),
                               b=into_name.strip()))
        conn.execute(update(PlayerAlias).where(PlayerAlias.into == src).values(into=dst))
        conn.execute(insert(PlayerAlias).values(key=src, into=dst, created=utcnow()))
    return dst


def separate(db: Database, key: str) -> bool:
    """Undo a merge: ``key``'s plays count as their own again."""
    with db.writing() as conn:
        return conn.execute(delete(PlayerAlias).where(PlayerAlias.key == key)).rowcount > 0


# ---------------------------------------------------------------------------------------------
# export and import


def _iso(moment: datetime) -> str:
    return utc(moment).isoformat()


def iter_plays(db: Database, batch: int = 500):
    """Every play (oldest first) with its players and characters, in batches."""
    with db.engine.connect() as conn:
        offset = 0
        while True:
            plays = conn.execute(select(*PLAY_COLUMNS).order_by(Play.created, Play.id)
                                 .limit(batch).offset(offset)).all()
            if not plays:
                return
            yield from _records(conn, plays, with_characters=True)
            offset += batch


def export_json(db: Database):
    """The export document, as chunks of JSON text (request and result of every play)."""
    yield (f'{{"format": "{EXPORT_FORMAT}", "version": {EXPORT_VERSION}, '
           f'"exported": "{_iso(utcnow())}", "plays": [')
    first = True
    with db.engine.connect() as conn:
        for play in iter_plays(db):
            row = conn.execute(select(SavedTable.request_json, SavedTable.result_json)
                               .where(SavedTable.id == play.table_id)).one()
            start = next((p.seat for p in play.players if p.start_player), None)
            item = {"id": play.id, "table_id": play.table_id, "created": _iso(play.created),
                    "kind": play.kind, "game_id": play.game_id, "rematch_of": play.rematch_of,
                    "duration_min": play.duration_min, "start_seat": start,
                    "request": json.loads(row.request_json), "result": json.loads(row.result_json)}
            yield ("" if first else ", ") + json.dumps(item, ensure_ascii=False)
            first = False
    yield "]}\n"


class ImportFileError(ValueError):
    """An import file that cannot be taken: nothing was changed."""


def _text(item: dict, name: str, where: str, optional: bool = False) -> str | None:
    value = item.get(name)
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value or len(value) > 32:
        raise ImportFileError(f"{where}.{name} is missing or not an id.")
    return value


def _imported(item, i: int) -> tuple[PlayRecord, dict, dict]:
    where = f"plays[{i}]"
    if not isinstance(item, dict):
        raise ImportFileError(f"{where} is not a play.")
    try:
        created = datetime.fromisoformat(str(item.get("created")))
    except ValueError:
        raise ImportFileError(f"{where}.created is not a date and time.") from None
    kind = item.get("kind")
    duration = item.get("duration_min")
    start = item.get("start_seat")
    if kind not in KINDS:
        raise ImportFileError(f"{where}.kind is not one of {', '.join(KINDS)}.")
    if duration is not None and (isinstance(duration, bool) or not isinstance(duration, int) or duration < 0):
        raise ImportFileError(f"{where}.duration_min is not a number of minutes.")
    if start is not None and (isinstance(start, bool) or not isinstance(start, int)):
        raise ImportFileError(f"{where}.start_seat is not a seat number.")
    if not isinstance(item.get("request"), dict):
        raise ImportFileError(f"{where}.request is not the table as entered.")
    try:
        players = players_of(item.get("result"), start)
    except RecordError as exc:
        raise ImportFileError(f"{where}.result: {exc}") from None
    play = PlayRecord(id=_text(item, "id", where), table_id=_text(item, "table_id", where),
                      created=utc(created), kind=kind, players=players,
                      game_id=_text(item, "game_id", where, True),
                      rematch_of=_text(item, "rematch_of", where, True), duration_min=duration)
    return play, item["request"], item["result"]


def parse_export(data) -> list[tuple[PlayRecord, dict, dict]]:
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise ImportFileError("This is not an export of plays from Make Me a Planet "
                           f"(its \"format\" is not \"{EXPORT_FORMAT}\").")
    if data.get("version") != EXPORT_VERSION:
        raise ImportFileError(f"This export is version {data.get('version')!r}; this server reads "
                           f"version {EXPORT_VERSION}.")
    if not isinstance(data.get("plays"), list):
        raise ImportFileError("The export has no list of plays.")
    return [_imported(item, i) for i, item in enumerate(data["plays"])]


def import_plays(db: Database, data) -> tuple[int, int]:
    """Add the plays of an export that are not here yet (by play id or table id): (added,
    already here). All or nothing: a bad play refuses the whole file and changes nothing."""
    plays = parse_export(data)
    added = skipped = 0
    with db.writing() as conn:
        have_plays = set(conn.execute(select(Play.id)).scalars())
        have_tables = set(conn.execute(select(SavedTable.id)).scalars())
        for play, request, result in plays:
            if play.id in have_plays or play.table_id in have_tables:
                skipped += 1
                continue
            conn.execute(insert(SavedTable).values(
                id=play.table_id, created=play.created, request_json=json.dumps(request),
                result_json=json.dumps(result)))
            record_play(conn, play)
            have_plays.add(play.id)
            have_tables.add(play.table_id)
            added += 1
    return added, skipped
