"""The learned box in the database (SPEC §2 "Teaching the app a real box"): one active box, its
bytes as the vision package writes them (``vision.box.Box.to_bytes``), a version that goes up at
every change and the time of the last one. A table of its own (``learned_boxes``), so every
worker of the app and every restart sees the same box, on SQLite or PostgreSQL.

Only bytes here: what they mean is the vision package's business (the web layer decodes them).

Changes are compare-and-set on the version: two workers teaching at once cannot silently drop
each other's layout; the second is told the box changed under it (``StaleBox``).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Integer, LargeBinary, String, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from .db import Base, Database, UTCDateTime, new_id, utcnow

ACTIVE = "active"   # the one slot a box can be in


class LearnedBox(Base):
    __tablename__ = "learned_boxes"

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    slot: Mapped[str] = mapped_column(String(16), unique=True, default=ACTIVE)
    version: Mapped[int] = mapped_column(Integer, default=1)
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    data: Mapped[bytes] = mapped_column(LargeBinary)


@dataclass(frozen=True)
class BoxStamp:
    """Which box is active and at which version (cheap to read: no bytes)."""
    id: str
    version: int
    created: datetime
    updated: datetime


class StaleBox(RuntimeError):
    """The box changed (or was forgotten) since it was read; nothing was written."""


def box_stamp(db: Database) -> BoxStamp | None:
    with db.Session() as session:
        row = session.execute(select(LearnedBox.id, LearnedBox.version, LearnedBox.created,
                                     LearnedBox.updated).where(LearnedBox.slot == ACTIVE)).first()
    return BoxStamp(*row) if row else None


def load_box_bytes(db: Database) -> tuple[BoxStamp, bytes] | None:
    with db.Session() as session:
        row = session.scalars(select(LearnedBox).where(LearnedBox.slot == ACTIVE)).first()
        if row is None:
            return None
        return BoxStamp(row.id, row.version, row.created, row.updated), bytes(row.data)


def save_box_bytes(db: Database, data: bytes, expected: BoxStamp | None) -> BoxStamp:
    """Store ``data`` as the active box. ``expected``: the stamp it was learned on (None: there
    was no box). Raises ``StaleBox`` when the box is no longer that one."""
    now = utcnow()
    try:
        with db.writing() as conn:
            if expected is None:
                box_id = new_id()
                conn.execute(insert(LearnedBox).values(id=box_id, slot=ACTIVE, version=1, created=now, updated=now,
                                                       data=data))
                return BoxStamp(box_id, 1, now, now)
            done = conn.execute(
                update(LearnedBox)
                .where(LearnedBox.id == expected.id, LearnedBox.version == expected.version)
                .values(version=expected.version + 1, updated=now, data=data))
            if done.rowcount != 1:
                raise StaleBox(expected.id)
            return BoxStamp(expected.id, expected.version + 1, expected.created, now)
    except IntegrityError:  # another worker made the first box at the same moment
        raise StaleBox("new") from None


def forget_box(db: Database) -> bool:
    """Forget the active box; False when there was none."""
    with db.writing() as conn:
        return conn.execute(delete(LearnedBox).where(LearnedBox.slot == ACTIVE)).rowcount > 0
