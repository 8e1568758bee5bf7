"""The database: SQLAlchemy, SQLite by default (a ``DATABASE_URL`` may point at PostgreSQL).

Only storage lives here; the rules never see it. Models of every feature share ``Base``.
"""
from __future__ import annotations

import json
import os
import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, UTC

from sqlalchemy import DateTime, String, Text, create_engine, event, make_url
from sqlalchemy.engine import Connection
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker


class Base(DeclarativeBase):
    pass


def utcnow() -> datetime:
    return datetime.now(UTC)


def new_id(nbytes: int = 9) -> str:
    return secrets.token_urlsafe(nbytes)


class StoredResult:
    """A mixin: a request as entered and its result, reopened by its link (a scored table, a
    Rising to the Stars tally); each model using it has a table of its own."""

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


class SavedTable(StoredResult, Base):
    """A scored table: the request as entered and the result, reopened by its link."""
    __tablename__ = "saved_tables"


class Database:
    """An engine and a session factory for one app."""

    def __init__(self, url: str):
        self.url = url
        kwargs = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
            _create_private(make_url(url).database)
        self.engine: Engine = create_engine(url, future=True, **kwargs)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self.Session = sessionmaker(self.engine, expire_on_commit=False, future=True)
        # SQLite has one writer at a time, and a writer that finds the lock taken sleeps in steps
        # of up to 100 ms before trying again. Queueing this process's writers here instead keeps
        # commits back to back under load; the database's own lock still guards other processes.
        self._writer = threading.Lock()

    @contextmanager
    def writing(self) -> Iterator[None]:
        """Hold while writing a hot row (a move, a claim): writers of this process queue here."""
        with self._writer:
            yield

    def create_all(self) -> None:
        """Check the database can be used, then create the tables of every model imported so far
        (the app factory imports every store module first). A database that cannot be opened,
        written or read whole raises ``StoreError`` with one line for a person."""
        try:
            with self.engine.connect() as connection:
                if self.url.startswith("sqlite"):
                    _check_sqlite(connection)
            Base.metadata.create_all(self.engine)
        except SQLAlchemyError as exc:
            raise StoreError(f"The database {self.engine.url.render_as_string(hide_password=True)} cannot be "
                             f"used: {_first_line(exc)}") from None

    def dispose(self) -> None:
        self.engine.dispose()


class StoreError(RuntimeError):
    """The database cannot be used at all (missing, read-only, damaged)."""


def _first_line(exc: SQLAlchemyError) -> str:
    return str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]


def _create_private(path: str | None) -> None:
    """A new SQLite file is readable by its owner only (its WAL and shared-memory files take the
    same mode from it)."""
    if not path or path == ":memory:" or os.path.exists(path):
        return
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except OSError:
        pass  # a missing folder or another process first: SQLite says what is wrong on connect


def _check_sqlite(connection: Connection) -> None:
    """The whole file reads back (quick_check) and can be written (a write lock is taken)."""
    found = connection.exec_driver_sql("PRAGMA quick_check").scalar()
    if found != "ok":
        raise StoreError(f"the SQLite file is damaged ({found}); restore a backup or move it away")
    version = connection.exec_driver_sql("PRAGMA user_version").scalar()
    connection.exec_driver_sql("BEGIN IMMEDIATE")
    try:
        connection.exec_driver_sql(f"PRAGMA user_version = {int(version or 0)}")  # a write, undone
    finally:
        connection.exec_driver_sql("ROLLBACK")


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


def save_table(db: Database, request: dict, result: dict, model: type[StoredResult] = SavedTable) -> str:
    with db.Session.begin() as session:
        row = model(request_json=json.dumps(request), result_json=json.dumps(result))
        session.add(row)
        session.flush()
        return row.id


def load_table(db: Database, table_id: str, model: type[StoredResult] = SavedTable):
    with db.Session() as session:
        return session.get(model, table_id)
