"""The database: SQLAlchemy, SQLite by default (a ``DATABASE_URL`` may point at PostgreSQL).

Only storage lives here; the rules never see it. Models of every feature share ``Base``.
"""
from __future__ import annotations

import fcntl
import json
import os
import secrets
import threading
from collections.abc import Callable
from datetime import datetime, UTC
from typing import Any, TypeVar

from sqlalchemy import DateTime, String, Text, create_engine, event, make_url
from sqlalchemy.engine import Connection
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker


T = TypeVar("T")
WRITE_THREADS = 64  # a worker's writes in flight at once under gevent (more wait for a thread)


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
        self._write_pool: tuple[int, Any] | None = None  # (pid, gevent's ThreadPool): ``write`` under gevent
        self._native_writer: Any = None                  # ... and the native lock its threads queue on

    def write(self, work: Callable[[Connection], T]) -> T:
        """``work(connection)`` in one transaction, committed, with the write turn held for as long
        as the database works and no longer: this process's writers one at a time and, on SQLite,
        those of every process in turn on a lock file (``<db>-writer``).

        Under gevent (``serve``) on SQLite, the turn is taken, the transaction run and the turn given
        back in a native thread, and this process's writers queue on a native lock there: nothing
        in the writers' queue waits for the event loop. With the turn taken on the loop (the
        writes before this), each write gave it back only when the loop came back to the writer's
        greenlet, and the next writer of the process started only at the loop's next turn: at 600
        tables with two workers a turn held 0.5 ms at the median was waited for 0.8 s, a move took
        seconds, and the workers' loops were idle a quarter of the time. SQLite's commit lets go
        of the GIL, and its busy wait (only a writer that bypasses the lock file meets one) no
        longer freezes the worker. When the turn is free (no writer of this process, the lock file
        not held elsewhere) the write is done at once where it is called: it does not wait on the
        loop while holding the turn either, and spares the hand-off to a thread. Elsewhere
        (PostgreSQL orders its writers itself and its driver waits through gevent; a threaded
        server) it runs where it is called."""
        pool = self._write_threads() if self._writer_file is not None else None
        if pool is None:
            with self._writer:
                return self._write_now(work)
        if self._native_writer.acquire(False):  # nobody of this process writing: try the turn here
            try:
                fd = self._writer_lock_fd()
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    pass  # the other process has it: wait for it in a thread (below)
                else:  # the turn was free: written at once, on the loop, without a thread's hand-off
                    return self._committed(work, fd)
            finally:
                self._native_writer.release()
        done, outcome = pool.apply(self._write_caught, (work, self._native_writer))
        if not done:
            raise outcome  # raised here, in the request: gevent's pool would also print it as a failure
        result: T = outcome
        return result

    def _write_caught(self, work: Callable[[Connection], T], queue: Any) -> tuple[bool, Any]:
        """(True, the answer) or (False, the exception): a refused move (IntegrityError, a 409) is
        no error of the thread's, which gevent's pool would log with a traceback."""
        try:
            return True, self._write_now(work, queue)
        except Exception as exc:
            return False, exc

    def _write_now(self, work: Callable[[Connection], T], queue: Any = None) -> T:
        if queue is not None:
            queue.acquire()
        try:
            fd = self._writer_lock_fd() if self._writer_file is not None else None
            if fd is not None:
                fcntl.flock(fd, fcntl.LOCK_EX)  # the kernel wakes us the moment the other process lets go
            return self._committed(work, fd)
        finally:
            if queue is not None:
                queue.release()

    def _committed(self, work: Callable[[Connection], T], fd: int | None) -> T:
        """``work`` in one transaction, committed; then the lock file ``fd`` (held, or None) let go."""
        try:
            with self.engine.begin() as conn:
                return work(conn)
        finally:
            if fd is not None:
                fcntl.flock(fd, fcntl.LOCK_UN)

    def _write_threads(self) -> Any:
        """gevent's native threads for this process's writes, or None when gevent does not serve. A
        native lock (not gevent's) queues them: one open lock file belongs to the whole process, so
        its own threads must take turns before it."""
        import sys
        monkey = sys.modules.get("gevent.monkey")
        if monkey is None or not monkey.is_module_patched("threading"):
            return None
        if self._write_pool is None or self._write_pool[0] != os.getpid():  # a forked worker makes its own
            from gevent.threadpool import ThreadPool
            self._native_writer = monkey.get_original("_thread", "allocate_lock")()
            self._write_pool = (os.getpid(), ThreadPool(WRITE_THREADS))
        return self._write_pool[1]

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
    with db.Session.begin() as session:
        return add_table(session, request, result, model).id


def add_table(session: Session, request: dict, result: dict, model: type[StoredResult] = SavedTable) -> StoredResult:
    """A scored table added in ``session``'s transaction (flushed: its id is set)."""
    row = model(request_json=json.dumps(request), result_json=json.dumps(result))
    session.add(row)
    session.flush()
    return row


def load_table(db: Database, table_id: str, model: type[StoredResult] = SavedTable):
    with db.Session() as session:
        return session.get(model, table_id)
