"""The database: SQLAlchemy, SQLite by default (a ``DATABASE_URL`` may point at PostgreSQL).

Only storage lives here; the rules never see it. Models of every feature share ``Base``.
"""
from __future__ import annotations

import fcntl
import json
import os
import secrets
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, UTC
from typing import TypeVar

from sqlalchemy import DateTime, String, Text, create_engine, event, make_url
from sqlalchemy.types import TypeDecorator
from sqlalchemy.engine import Connection
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker


T = TypeVar("T")


class Base(DeclarativeBase):
    pass


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator):
    """A moment stored in UTC and read back as an aware UTC datetime on every database.

    PostgreSQL keeps the zone (``timestamp with time zone``); SQLite keeps none and gave naive
    datetimes back, so the same stored game or table read as a different value on each, and
    comparing one with ``utcnow()`` failed on SQLite alone. Written: an aware moment is turned to
    UTC, a naive one is taken as UTC already (what SQLite gave back)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect) -> datetime | None:  # type: ignore[no-untyped-def]
        if value is None or value.tzinfo is None:
            return value
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect) -> datetime | None:  # type: ignore[no-untyped-def]
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def new_id(nbytes: int = 9) -> str:
    return secrets.token_urlsafe(nbytes)


class StoredResult:
    """A mixin: a request as entered and its result, reopened by its link (a scored table, a
    Rising to the Stars tally); each model using it has a table of its own."""

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
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
        self._writer_file: str | None = None   # SQLite: the lock file writers of every process take
        self._writer_fd: tuple[int, int] | None = None  # (pid, fd): each process opens its own
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
            path = make_url(url).database
            _create_private(path)
            if path and path != ":memory:" and not path.startswith("file:"):
                self._writer_file = path + "-writer"
        self.engine: Engine = create_engine(url, future=True, **kwargs)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self.Session = sessionmaker(self.engine, expire_on_commit=False, future=True)
        # SQLite has one writer at a time, and a writer that finds the lock taken sleeps in steps
        # of up to 100 ms before trying again. Queueing this process's writers here instead keeps
        # commits back to back under load; the database's own lock still guards other processes.
        self._writer = threading.Lock()

    def write(self, work: Callable[[Connection], T]) -> T:
        """``work(connection)`` in one transaction, committed, with the write turn held for as long
        as the database works and no longer: this process's writers one at a time and, on SQLite,
        those of every process in turn on a lock file (``<db>-writer``).

        The connection is taken first (under gevent a checkout may wait for another greenlet's);
        then the turn, the transaction and the turn given back run where ``write`` is called,
        with nothing in between that yields to other greenlets: no writer ever holds the turn
        while it waits for its event loop. When another process holds the turn, the kernel wakes
        this one the moment it is let go, and this worker's loop waits meanwhile: a turn is held
        for one commit (0.3 ms at the median, 0.5-1.6 ms at p95, at 800 tables with two workers),
        and the wait (275 of ~6,000 writes a worker; p50 0.3 ms, p95 7.5 ms, the longest 21 ms)
        costs far less than handing it to a native thread did: the thread's answer then waited
        for the loop's next turn, 180-340 ms on average at 800 tables, and seeing a move on the
        other phones took 0.8-1.9 s at p95 instead of 0.3 s."""
        with self.writing() as conn:
            return work(conn)

    @contextmanager
    def writing(self) -> Iterator[Connection]:
        """``write`` as a ``with`` block (``with db.writing() as conn: ...``): the same turn, one
        transaction committed at the end of the block, or rolled back if it raises. Every write of
        the app goes through here: a write that took SQLite's lock without the turn (an import of
        played games, a box saved) would hold up a writer of another process that has the turn
        inside SQLite's busy wait (sleeps of up to 100 ms), its event loop stopped meanwhile."""
        with self.engine.connect() as conn, self._writer:
            fd = self._writer_lock_fd() if self._writer_file is not None else None
            if fd is not None:
                fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                with conn.begin():
                    yield conn
            finally:
                if fd is not None:
                    fcntl.flock(fd, fcntl.LOCK_UN)

    def _writer_lock_fd(self) -> int:
        """This process's own descriptor of the lock file: a forked worker must not share its
        parent's (flock belongs to the open file, which a fork shares)."""
        if self._writer_fd is None or self._writer_fd[0] != os.getpid():
            assert self._writer_file is not None
            self._writer_fd = (os.getpid(), os.open(self._writer_file, os.O_RDWR | os.O_CREAT, 0o600))
        return self._writer_fd[1]

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
        if self._writer_fd is not None and self._writer_fd[0] == os.getpid():
            os.close(self._writer_fd[1])
        self._writer_fd = None


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
    with db.writing() as conn, Session(bind=conn) as session:
        return add_table(session, request, result, model).id  # flushed: committed with the turn


def add_table(session: Session, request: dict, result: dict, model: type[StoredResult] = SavedTable) -> StoredResult:
    """A scored table added in ``session``'s transaction (flushed: its id is set)."""
    row = model(request_json=json.dumps(request), result_json=json.dumps(result))
    session.add(row)
    session.flush()
    return row


def load_table(db: Database, table_id: str, model: type[StoredResult] = SavedTable):
    with db.Session() as session:
        return session.get(model, table_id)
