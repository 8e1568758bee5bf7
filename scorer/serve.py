"""The production server `python -m scorer serve` starts (the launcher's half; no routes here).

Gunicorn with gevent workers: each worker process serves thousands of connections at once, one
greenlet each, so phones that keep a request open (the page's event stream) or clients that are
slow or silent cost a little memory, not a thread. Slow and idle clients are dropped: a request's
headers must arrive within ``--client-timeout`` seconds (gunicorn's keep-alive timeout covers
the first request and every later one on the connection), a body must come at
``MIN_BODY_RATE`` bytes/s or better after that grace, and writing the answer may stall at most
``IO_TIMEOUT`` seconds. A worker holds at most ``--connections`` connections; past that, new
ones wait in the listen queue.
"""
from __future__ import annotations

import gc
import os
import resource
import sys
import time
from collections.abc import Callable

HEADER_TIMEOUT = 10   # seconds for a request's headers to arrive (and for an idle keep-alive)
IO_TIMEOUT = 30       # seconds a body read or an answer's write may make no progress
MIN_BODY_RATE = 50_000  # bytes/s a body must keep up, after HEADER_TIMEOUT seconds of grace
DEFAULT_CONNECTIONS = 4000
# A photo is read in a native thread beside the worker's event loop (scorer/web/cpu.py). Each time
# the loop waits on a socket it lets go of the GIL and then waits up to this long to get it back
# from the photo thread: at Python's 5 ms, draining one 2 MB upload cost the loop about a second.
GIL_SWITCH_INTERVAL = 0.0005
# A worker's full cycle collection: every this many seconds, not when the collector's count says
# (``collect_fully_on_a_timer``). At 600 tables a full collection stops the worker 0.24-0.64 s:
# once in 10 minutes that touches about 1 answer in 1,000, where every ~14 s it set the p95.
FULL_COLLECTION_EVERY = 600.0
NEVER = 2**30         # a collector threshold that is never reached


def default_workers() -> int:
    """Two workers (one on a one-core machine), on SQLite as on other databases. Two SQLite
    workers take turns for each write on a lock file, each holding it for one commit and never
    while their event loop is busy (``Database.write``). Each worker loads and folds every game its
    phones ask about (a board one worker drew, the other hands out from their shared folder:
    ``shared_boards.Shelf``) and watches the move table itself, so the server's CPU per move is
    higher than with one worker; the second core still does the work. With every table its own
    game (``python -m scorer.load_bench --moves 12 --search 300,400,500``), two workers held 300
    tables (seen p95 86.0 ms; 400 not: 128.6 ms) at 20-21.5 ms of server CPU a move, 2026-12-02
    06:40-06:46 UTC; one worker did not hold 300 (seen p95 200.5 ms at 14.2 ms a move: cheaper
    moves, one core), 06:47-06:51 UTC. Earlier figures (two workers
    holding 400-700 tables where one did not hold 600, 2026-12-01) were measured on tables copied
    from 6-12 games, which share drawings as real tables do not. ``--workers 1`` is there for a
    server that shares its cores."""
    return max(1, min(2, os.cpu_count() or 1))


def collect_fully_on_a_timer(every: float | None = None, spawn=None) -> None:
    """The cycle collector's full collections, on a timer instead of on the collector's count.

    Each phone's held request (its greenlet, socket, headers) outlives a few young collections, so
    the collector counts it as long-lived, and with thousands held it ran a full collection over
    all of them every ~14 s: at 600 tables on one worker, 0.41-0.64 s each, every phone of the
    worker stopped meanwhile (14 in 100 s, measured with a ``gc.callbacks`` timer; ~550,000
    objects). Young collections go on as before and free almost every cycle (a full one found
    24-355 objects left to free); the rest waits for the full collection every ``every`` seconds
    (``FULL_COLLECTION_EVERY``), run in a greenlet of its own (``spawn``: gevent's)."""
    every = FULL_COLLECTION_EVERY if every is None else every
    if spawn is None:
        import gevent
        spawn = gevent.spawn
    young, middle, _full = gc.get_threshold()
    gc.set_threshold(young, middle, NEVER)

    def collect_now_and_then() -> None:
        while True:
            time.sleep(every)   # gevent's sleep once the worker is patched
            gc.collect()

    spawn(collect_now_and_then)


LOOP_TICK = 0.01      # the sleep ``watch_the_loop`` times


def watch_the_loop(every: float, out=None, spawn=None) -> None:
    """How late this worker's event loop wakes a ``LOOP_TICK`` sleep, printed every ``every``
    seconds as one line for the sleeps since the last line (``loop lateness pid=… at=… n=… p50=…
    p95=… p99=… max=… ms``, ``at`` the window's end in seconds since the epoch): a reader picks the
    windows it wants (the load bench: those of the played part, not the join), and nothing grows
    with the server's age. A request's own time in the app is not what a phone waits: the loop
    works through every request ready at once before it comes back to any other, and at 800
    tables a 6 ms move was waited for ~290 ms at p95 while the loop slept ~45% of the time."""
    if spawn is None:
        import gevent
        spawn = gevent.spawn

    def watch() -> None:
        late: list[float] = []
        said = time.monotonic()
        while True:
            asked = time.monotonic()
            time.sleep(LOOP_TICK)   # gevent's sleep once the worker is patched
            late.append((time.monotonic() - asked - LOOP_TICK) * 1000)
            if time.monotonic() - said >= every:
                said = time.monotonic()
                v, late = sorted(late), []
                p50, p95, p99 = (v[min(len(v) - 1, int(q * len(v)))] for q in (.5, .95, .99))
                print(f"loop lateness pid={os.getpid()} at={time.time():.3f} n={len(v)} p50={p50:.1f} p95={p95:.1f} "
                      f"p99={p99:.1f} max={v[-1]:.1f} ms", file=out or sys.stderr, flush=True)

    spawn(watch)


def cooperative() -> None:
    """gevent's cooperative socket, threading, time ... patched in before anything else is
    imported: locks and the database pools the app makes are then greenlet-aware, and psycopg
    (3.1.14 and later) sees the patch and waits through gevent. Call it first thing."""
    from gevent import monkey
    if not monkey.is_module_patched("socket"):
        monkey.patch_all()
    sys.setswitchinterval(GIL_SWITCH_INTERVAL)


class _BodyDeadline:
    """The request body, read against a budget of waiting: only the time spent inside reads counts
    (waiting on the socket for the client's bytes), not the time before the first read or between
    reads. An overloaded worker may come to a request's body late, or parse a form between reads:
    that delay is the server's, and once blamed on the client it answered a phone's small post
    400 or 408 though its body had been there all along. A trickle still runs out of budget."""

    def __init__(self, stream, sock, seconds: float, clock: Callable[[], float] = time.monotonic):
        self.stream, self.sock, self.clock = stream, sock, clock
        self.left = seconds

    def _read(self, read, *args):
        if self.left <= 0:
            raise TimeoutError("the request body came in too slowly")
        self.sock.settimeout(min(IO_TIMEOUT, self.left))
        started = self.clock()
        try:
            return read(*args)
        finally:
            self.left -= self.clock() - started

    def read(self, *args):
        return self._read(self.stream.read, *args)

    def readline(self, *args):
        return self._read(self.stream.readline, *args)

    def __iter__(self):
        return iter(self.readline, b"")

    def __getattr__(self, name):
        return getattr(self.stream, name)


def _slow_clients_dropped(wsgi, grace: float):
    """A body slower than ``MIN_BODY_RATE`` (after ``grace`` seconds), or an answer's write that
    stalls ``IO_TIMEOUT`` seconds, fails with ``TimeoutError`` and the connection is closed."""
    def app(environ, start_response):
        sock = environ.get("gunicorn.socket")
        if sock is not None:
            sock.settimeout(IO_TIMEOUT)
            length = environ.get("CONTENT_LENGTH") or ""
            size = int(length) if length.isdigit() else 0
            chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
            if size or chunked:
                budget = grace + max(size, 1_000_000 if chunked else 0) / MIN_BODY_RATE
                environ["wsgi.input"] = _BodyDeadline(environ["wsgi.input"], sock, budget)
        return wsgi(environ, start_response)
    return app


def one_write() -> None:
    """An answer's headers and its body leave in one write, not two (gunicorn writes its headers,
    then each piece of the body). On loopback the kernel charges the receiver's work to the
    sender's system call, and under load a fifth of a worker's time was in ``send``: one write per
    board instead of two. Only a whole, unframed body in one piece goes this way (what Flask
    answers: its body is one bytes object with a Content-Length); a chunked or streamed answer,
    a file sent by ``sendfile`` and an answer without a body go as gunicorn sends them."""
    from gunicorn.http import wsgi
    if getattr(wsgi.Response, "planet_one_write", False):
        return
    write = wsgi.Response.write

    def write_once(self, arg):  # type: ignore[no-untyped-def]
        if (self.headers_sent or self.chunked or self._omits_body or not isinstance(arg, bytes) or not arg
                or self.response_length is None or len(arg) != self.response_length):
            return write(self, arg)
        head = self.default_headers()
        head.extend([f"{k}: {v}\r\n" for k, v in self.headers])
        self.sock.sendall(("".join(head) + "\r\n").encode("latin-1") + arg)
        self.headers_sent = True
        self.sent += len(arg)

    wsgi.Response.write = write_once
    wsgi.Response.planet_one_write = True


def _enough_files(connections: int, workers: int) -> None:
    """Each connection is a file descriptor: raise this process's soft limit as far as allowed."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = connections * workers + 256
    if soft != resource.RLIM_INFINITY and soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want if hard == resource.RLIM_INFINITY else min(hard, want), hard))


def run_server(app, host: str, port: int, workers: int = 2, connections: int = DEFAULT_CONNECTIONS,
               wsgi=None, client_timeout: int = HEADER_TIMEOUT, make_app=None, loop_report: float | None = None) -> None:
    """``app`` is built once, before this, to check the settings, the catalog and the database
    (and to make the secret key the workers share). Each worker then builds its own with
    ``make_app`` after the fork: a gevent lock made before a fork and waited on after it blocks
    the whole worker (seen on PostgreSQL, where a writer yields while holding one), so locks,
    caches and database pools are made in the worker that uses them. ``wsgi`` serves instead
    (the bench mounts a bare endpoint beside the app it built)."""
    from gunicorn.app.base import BaseApplication

    if "gevent.monkey" not in sys.modules:
        cooperative()  # late is better than never, but the launcher should have done it first
    _enough_files(connections, workers)
    one_write()
    served = {"app": wsgi or app}

    def post_fork(server, worker):
        app.extensions["db"].engine.dispose(close=False)
        if make_app is not None and wsgi is None:
            served["app"] = make_app()
        # Everything made so far (modules, the app, the catalog) lives as long as the worker: out
        # of the collector's sight. A full collection stops every phone of the worker, and went
        # over all of it each time (measured at 100 tables: 93-257 ms pauses, ~200,000 objects).
        gc.collect()
        gc.freeze()
        collect_fully_on_a_timer()
        if loop_report:
            watch_the_loop(loop_report)

    def handler(environ, start_response):
        return served["app"](environ, start_response)

    class Server(BaseApplication):
        def load_config(self):
            for key, value in {
                "bind": f"[{host}]:{port}" if ":" in host else f"{host}:{port}",
                "workers": workers, "worker_class": "gevent", "worker_connections": connections,
                "post_fork": post_fork, "timeout": 60, "graceful_timeout": 5,
                "keepalive": max(1, round(client_timeout)), "backlog": 2048,
                "accesslog": None, "errorlog": "-", "loglevel": "warning",
            }.items():
                self.cfg.set(key, value)

        def load(self):
            return _slow_clients_dropped(handler, client_timeout)

    Server().run()
