"""The database: SQLAlchemy, SQLite by default (a ``DATABASE_URL`` may point at PostgreSQL).

Only storage lives here; the rules never see it. Models of every feature share ``Base``.
"""
from __future__ import annotations

import json
import secrets
from datetime import datetime, UTC

from sqlalchemy import DateTime, String, Text, create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker


class Base(DeclarativeBase):
    pass


def utcnow() -> datetime:
    return datetime.now(UTC)


def new_id(nbytes: int = 9) -> str:
    return secrets.token_urlsafe(nbytes)


class SavedTable(Base):
    """A scored table: the request as entered and the result, reopened by its link."""
    __tablename__ = "saved_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    request_json: Mapped[str] = mapped_column(Text)
    result_json: Mapped[str] = mapped_column(Text)

    @property
    def request(self) -> dict:
        return json.loads(self.request_json)

    @property
    def result(self) -> dict:
        return json.loads(self.result_json)


class Database:
    """An engine and a session factory for one app."""

    def __init__(self, url: str):
        self.url = url
        kwargs = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        self.engine: Engine = create_engine(url, future=True, **kwargs)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self.Session = sessionmaker(self.engine, expire_on_commit=False, future=True)

    def create_all(self) -> None:
        """Create the tables of every model imported so far (the app factory imports every
        store module before calling this)."""
        Base.metadata.create_all(self.engine)

    def dispose(self) -> None:
        self.engine.dispose()


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    # WAL keeps readers (phones polling) from blocking the writer. With WAL, synchronous=NORMAL
    # writes every commit to the WAL before answering, so a committed move survives the server
    # being killed (kill -9, tested); only a power cut could drop the last moments, never corrupt
    # the file. FULL would add an fsync per move and halve the moves a server can take.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def save_table(db: Database, request: dict, result: dict) -> str:
    with db.Session.begin() as session:
        row = SavedTable(request_json=json.dumps(request), result_json=json.dumps(result))
        session.add(row)
        session.flush()
        return row.id


def load_table(db: Database, table_id: str) -> SavedTable | None:
    with db.Session() as session:
        return session.get(SavedTable, table_id)
