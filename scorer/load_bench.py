"""Open-loop load bench of game night: ``python -m scorer.load_bench [--tables 1000] [--search]``.

Tables of 3-5 players, each player on their own phone, play the end of a draft through
``python -m scorer serve`` started here (SQLite, two workers by default as ``serve``; ``--database`` a
PostgreSQL URL and ``--servers 2`` for two server processes on one database):

- Phones: each seat's phone opens its page once (the join, not measured), then keeps the
  board up to date as the page does: ``--mode stream`` (the default, as the pages under ``serve``)
  holds one event stream open for the whole game (``/play/<id>/<token>/live?v=N&stream=1``, each
  new board an event; opened as the page loads, so spread over the ``STREAMS_OPEN`` seconds
  before the first move); ``--mode wait`` holds a long poll (``…/live?v=N&wait=25``, the board as
  soon as someone moves, 204 after 25 s) and asks again at once; ``--mode poll`` asks
  ``…/live?v=N`` every 2 s on a fixed schedule.
- Moves: one per table every 3-8 s (human pace), sent on schedule whatever the server's
  answers: the seat to act taps one of the moves its board offers, as the page does (the
  board's form posted in place, ``POST /play/<id>/<token>/move`` with ``HX-Request``), and the
  answer is its new board: one round trip per move, nothing fetched first. A share of the moves
  (``--double``) is also posted at the same moment through the JSON API (through another server
  when there are several), like two phones tapping together: exactly one must be applied, the
  other answered 409 (the API) or "someone moved first" (the page).
- Latency counts from the scheduled send time (so a late generator counts against the figure);
  "seen on the other phones" is, for every move and every other phone of its table, from the
  move's post to that phone holding the board of its version (issue 11: within 1 s at p95, under
  this same load); in ``stream`` and ``wait`` modes it is also the refresh figure held to 100 ms. Errors are any
  other answer, a failed request, or a game that does not finish: counted and printed by what
  failed and its status (or exception), so one cause repeated thousands of times cannot hide.
- At the end every game is checked: its stored move log is the prepared opening followed by
  exactly the moves the bench saw acknowledged (none lost, none applied twice), every phone saw
  the final version, and the server's final result is the score of the planets the seats see.

Games start prepared a few moves from their end (``--moves`` left), so every game finishes in
a few minutes: the openings are played once by the rules in this process (``deal_openings``),
one distinct game for each table unless ``--openings`` asks for fewer, and stored as the
tables' rows (fresh ids and seat tokens).

The generator shares the machine with the server: its own CPU is printed beside the server's.
aiohttp on one asyncio loop holds thousands of phones in one process at a fraction of a core.
``--search`` tries growing numbers of tables and prints the largest that held p95 <= 100 ms
for refreshes and moves with no error. Exit status 1 if the (last) run had any error.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .serve import default_workers
from .tracker_bench import free_port, percentile

ROOT = Path(__file__).resolve().parents[1]
NAMES = ("Ann", "Ben", "Cy", "Di", "Ed")
VERSION_RE = re.compile(rb'id="board"[^>]*data-version="(\d+)"')
ACT_RE = re.compile(rb'<section class="card tact" id="act">(.*?)</section>', re.S)
HIDDEN_RE = re.compile(rb'<input type="hidden" name="(\w+)" value="([^"]*)">')
CHECKED_RE = re.compile(rb'<input type="radio" name="(\w+)" value="([^"]*)" checked>')
BUTTON_RE = re.compile(rb'<button [^>]*type="submit" name="(\w+)" value="([^"]*)">')
CSRF_HEADER_RE = re.compile(rb'"X-CSRFToken": "([^"]+)"')  # the page's hx-headers, sent by htmx with every request
TURN_RE = re.compile(rb'data-seat="(\d+)">\s*<h3>(.*?)</h3>', re.S)
TARGET_MS = 100.0
SEEN_WITHIN_MS = 1000.0   # issue 11: a move on every other phone of the table within 1 s (p95)
POLL_EVERY = 2.0
MOVE_GAP = (3.0, 8.0)
LONG_POLL = 25
STREAMS_OPEN = 10.0  # seconds before the first move over which the phones' event streams open (``--mode stream``)
LOOP_REPORT = 5.0   # seconds between each server worker's report of its event loop's lateness
LOOP_LINE = re.compile(r"loop lateness pid=(\d+) at=([\d.]+) n=(\d+) p50=([\d.]+) p95=([\d.]+) p99=([\d.]+) max=([\d.]+) ms")


@dataclass
class Table:
    id: str
    tokens: list[str]
    opening: int                     # moves stored before the bench starts
    to_act: int = 0
    version: int = 0
    finished: bool = False
    acked: dict[int, str] = field(default_factory=dict)   # version -> the move as posted (JSON)
    posted: dict[int, tuple[float, int]] = field(default_factory=dict)  # version -> when its move was posted, by whom
    seen: list[int] = field(default_factory=list)          # each phone's last version
    boards: list[bytes] = field(default_factory=list)      # each phone's last board (its page as it shows)
    cookies: list[dict[str, str]] = field(default_factory=list)  # each phone's own cookies (its seat's claim)
    csrf: list[str] = field(default_factory=list)      # each phone's CSRF token, from its page (htmx's header)
    streams: dict[int, asyncio.Task] = field(default_factory=dict)  # each phone's event stream (``--mode stream``)


@dataclass
class Stats:
    refresh_ms: list[float] = field(default_factory=list)
    move_ms: list[float] = field(default_factory=list)
    delivery_ms: list[float] = field(default_factory=list)  # move posted -> each OTHER phone of the table has it
    lag_ms: list[float] = field(default_factory=list)      # the generator's own lateness
    errors: list[str] = field(default_factory=list)          # the first few of each kind, in full
    causes: Counter[str] = field(default_factory=Counter)    # "what: status or exception" -> how many
    requests: int = 0
    nothing_new: int = 0
    streams: int = 0      # event streams opened (``--mode stream``: one a phone, unless one broke)
    doubles: int = 0
    conflicts: int = 0                                       # double taps refused (409 or the page's notice)
    refused_409: int = 0                                     # ... of which the API's 409

    def error(self, what: str, cause: object, detail: object = "") -> None:
        """One error: ``what`` failed (a refresh, a move ...) with ``cause`` (an HTTP status or an
        exception's type); counted by both, so a status that repeats thousands of times shows."""
        key = f"{what}: {cause}"
        self.causes[key] += 1
        if self.causes[key] <= 3:
            self.errors.append(f"{key} {detail}".rstrip())

    @property
    def error_count(self) -> int:
        return sum(self.causes.values())


def act_form(board: bytes) -> tuple[dict[str, str], list[tuple[str, str]]] | None:
    """The move form a seat's board offers, as the page posts it: its fixed fields (CSRF token,
    version, type, a take's place) and the buttons to choose from; None when it offers none."""
    found = ACT_RE.search(board)
    if found is None:
        return None
    form = found.group(1)
    fields = {k.decode(): v.decode() for k, v in [*HIDDEN_RE.findall(form), *CHECKED_RE.findall(form)]}
    buttons = [(k.decode(), v.decode()) for k, v in BUTTON_RE.findall(form)]
    return (fields, buttons) if buttons else None


def move_of(fields: dict[str, str]) -> dict[str, object]:
    """A posted form as the JSON move it stands for (as the page's view reads it)."""
    move: dict[str, object] = {"type": fields["type"]}
    for key in ("stack", "tile"):
        if key in fields:
            move[key] = fields[key]
    for key in ("position", "to"):
        if key in fields:
            move[key] = int(fields[key])
    return move


def to_act_on(board: bytes) -> int | None:
    """The seat whose turn a board shows (its planet carries the "turn" badge)."""
    for seat, head in TURN_RE.findall(board):
        if b"tbadge turn" in head:
            return int(seat)
    return None


# -- servers ---------------------------------------------------------------------------------------

def start_servers(database: str, servers: int, workers: int, log_dir: Path) -> list[tuple[subprocess.Popen, str]]:
    started = []
    for k in range(servers):
        port = free_port()
        log = open(log_dir / f"server{k}.log", "wb")
        proc = subprocess.Popen(
            [sys.executable, "-m", "scorer", "serve", "--host", "127.0.0.1", "--port", str(port),
             "--database", database, "--workers", str(workers), "--loop-report", str(LOOP_REPORT)],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log, start_new_session=True,
            env={**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")})
        log.close()
        started.append((proc, f"http://127.0.0.1:{port}"))
    for proc, base in started:
        if not answering(proc, base):
            stop_servers(started)
            raise SystemExit(f"a server did not start; see {log_dir}")
    return started


def answering(proc: subprocess.Popen, base: str, seconds: float = 60.0) -> bool:
    """Wait until the server started as ``proc`` answers at ``base``; False if it exits first or
    ``seconds`` pass."""
    import requests
    deadline = time.monotonic() + seconds
    while True:
        try:
            requests.get(f"{base}/api/games/none", timeout=2)
            return True
        except requests.RequestException:
            if proc.poll() is not None or time.monotonic() > deadline:
                return False
            time.sleep(0.2)


def stop_servers(started: list[tuple[subprocess.Popen, str]]) -> None:
    for proc, _base in started:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=15)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def server_cpu(started: list[tuple[subprocess.Popen, str]]) -> float:
    """CPU seconds used so far by the servers (masters and their workers)."""
    import psutil
    total = 0.0
    for proc, _base in started:
        try:
            parent = psutil.Process(proc.pid)
            for p in [parent, *parent.children(recursive=True)]:
                t = p.cpu_times()
                total += t.user + t.system
        except psutil.NoSuchProcess:
            pass
    return total


class ServerWatch:
    """While the tables play, where each server worker's time goes: every ``every`` seconds the CPU
    (cores) of each worker and of this generator, and each worker's connections; ``sample`` times
    a second what each worker's main thread is doing (Linux's /proc): on a core or waiting for
    one, idle in its event loop (``epoll``), or blocked elsewhere (a lock, a sleep, the disk).
    A server that holds fewer tables than its CPU allows shows here why: one worker busy and the
    other not, a generator out of cores, or workers blocked outside their loops."""

    def __init__(self, started: list[tuple[subprocess.Popen, str]], every: float = 5.0, sample: float = 0.05):
        import threading
        self.started, self.every, self.sample = started, every, sample
        self.windows: list[dict[str, float]] = []       # per window: name -> cores
        self.connections: dict[str, list[int]] = {}     # worker -> its connections at each window's end
        self.states: dict[str, Counter[str]] = {}       # worker -> what its main thread was doing, sampled
        self.backlog: list[int] = []                     # connections waiting to be accepted, sampled
        self.ports = {int(base.rsplit(":", 1)[1]) for _proc, base in started}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="server-watch", daemon=True)

    def workers(self) -> dict[str, object]:
        import psutil
        found = {}
        for k, (proc, _base) in enumerate(self.started):
            try:
                children = psutil.Process(proc.pid).children(recursive=True)
            except psutil.NoSuchProcess:
                continue
            found.update({f"server {k} worker {j}" if len(self.started) > 1 else f"worker {j}": child
                          for j, child in enumerate(sorted(children, key=lambda c: c.pid))})
        return found

    def start(self) -> ServerWatch:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    @staticmethod
    def state(pid: int) -> str:
        try:
            with open(f"/proc/{pid}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
            with open(f"/proc/{pid}/wchan") as f:
                wchan = f.read().strip()
        except OSError:
            return "gone"
        if state == "R":
            return "on a core or waiting for one"
        if "epoll" in wchan or "poll" in wchan:
            return "idle in its event loop"
        return f"blocked ({state} {wchan or '?'})"

    def waiting(self) -> int:
        """Connections the kernel has queued on the servers' listening sockets, not yet accepted by
        any worker (a LISTEN socket's receive queue in /proc/net/tcp)."""
        found = 0
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            try:
                with open(table) as f:
                    next(f)
                    for line in f:
                        fields = line.split()
                        if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) in self.ports:
                            found += int(fields[4].split(":")[1], 16)
            except (OSError, StopIteration, IndexError, ValueError):
                pass
        return found

    @staticmethod
    def sockets(pid: int) -> int:
        """Sockets a process holds open (its connections, and its listening socket)."""
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            return 0
        found = 0
        for fd in fds:
            try:
                found += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
            except OSError:
                pass
        return found

    def _cpu(self, procs: dict[str, object]) -> dict[str, float]:
        import psutil
        times = {"generator": time.process_time()}
        for name, proc in procs.items():
            try:
                t = proc.cpu_times()  # type: ignore[attr-defined]
                times[name] = t.user + t.system
            except psutil.NoSuchProcess:
                pass
        return times

    def _run(self) -> None:
        procs, looks = self.workers(), 0
        before, t0 = self._cpu(procs), time.monotonic()
        while not self._stop.is_set():
            window_end = time.monotonic() + self.every
            while not self._stop.is_set() and time.monotonic() < window_end:
                for name, proc in procs.items():
                    self.states.setdefault(name, Counter())[self.state(proc.pid)] += 1  # type: ignore[attr-defined]
                looks += 1
                if looks % 5 == 0:  # the whole TCP table is read: 4 times a second is enough
                    self.backlog.append(self.waiting())
                self._stop.wait(self.sample)
            now, t1 = self._cpu(procs), time.monotonic()
            self.windows.append({k: (now[k] - before[k]) / (t1 - t0) for k in now if k in before})
            for name, proc in procs.items():
                self.connections.setdefault(name, []).append(self.sockets(proc.pid))  # type: ignore[attr-defined]
            before, t0 = now, t1

    def report(self) -> list[str]:
        if not self.windows:
            return []
        lines = [f"  CPU in {self.every:.0f}-s windows (cores; p50 / max; share of the servers' CPU), "
                 f"sockets held (min-max):"]
        names = list(self.windows[0])
        servers = sum(w.get(n, 0.0) for w in self.windows for n in names if n != "generator") or 1e-9
        for name in names:
            cores = sorted(w.get(name, 0.0) for w in self.windows)
            share = "" if name == "generator" else f"; {sum(w.get(name, 0.0) for w in self.windows) / servers:.0%}"
            held = self.connections.get(name)
            conns = f"; {min(held)}-{max(held)} sockets" if held else ""
            lines.append(f"    {name}: {cores[len(cores) // 2]:.2f} / {cores[-1]:.2f}{share}{conns}")
        busiest = max(self.windows, key=lambda w: sum(v for k, v in w.items() if k != "generator"))
        lines.append(f"    busiest window: servers {sum(v for k, v in busiest.items() if k != 'generator'):.2f} "
                     f"cores, generator {busiest.get('generator', 0.0):.2f}")
        if self.backlog:
            waiting = sorted(self.backlog)
            lines.append(f"    connections waiting to be accepted ({len(waiting)} looks): p50 {waiting[len(waiting) // 2]}, "
                         f"p95 {waiting[len(waiting) * 95 // 100]}, max {waiting[-1]}")
        for name, seen in self.states.items():
            n = sum(seen.values()) or 1
            lines.append(f"    {name}'s main thread, {n} looks: " + ", ".join(
                f"{what} {count / n:.1%}" for what, count in seen.most_common(4)))
        return lines


# -- preparing the games ---------------------------------------------------------------------------

def deal_openings(count: int, moves_left: int, seed: int) -> list[tuple[str, str, list[str]]]:
    """``count`` distinct games played by the rules alone (``draft.apply``, a random legal move of
    the seat to act each time), to ``moves_left`` moves from their end: (setup JSON, mode, move
    rows' JSON) of each, as the store would hold them. Thousands in seconds (through the JSON API
    they took most of a second each), so every table of a run can be its own game. Tables copied from a few openings draw the same planets and sections,
    and the server's drawings, kept by what they show (``board_parts``), are shared between them
    as real tables' never are (a move cost ~20% less CPU with 6 openings than with 200)."""
    from .draft import Setup, apply, legal, start
    rng = random.Random(seed)
    openings = []
    for k in range(count):
        setup = Setup(NAMES[:3 + k % 3], rng.randrange(2**31), k % 2 == 1)
        state, log = start(setup), []
        while not state.finished:
            move = rng.choice(legal(state, state.to_act))
            state, _ = apply(state, move)
            log.append(json.dumps(move.as_json()))
        openings.append((json.dumps(setup.as_json()), "own", log[:-moves_left]))
    return openings


def copy_openings(database: str, openings: list[tuple[str, str, list[str]]], tables: int,
                  rng: random.Random) -> list[Table]:
    """``tables`` new games, each a copy of one opening with its own id and seat tokens."""
    from sqlalchemy import insert

    from .db import Database, new_id, utcnow
    from .tracker_store import TrackerGame, TrackerMove
    db = Database(database)
    db.create_all()
    made, games, moves = [], [], []
    order = rng.sample(range(len(openings)), len(openings))  # each opening once before any twice
    for k in range(tables):
        setup_json, mode, log = openings[order[k % len(order)]]
        table = Table(new_id(), [secrets.token_urlsafe(16) for _ in json.loads(setup_json)["players"]], len(log))
        table.version = len(log)
        games.append({"id": table.id, "created": utcnow(), "setup_json": setup_json, "mode": mode,
                      "tokens_json": json.dumps(table.tokens), "host_token": secrets.token_urlsafe(16)})
        moves += [{"game_id": table.id, "version": v, "move_json": m, "created": utcnow()}
                  for v, m in enumerate(log, start=1)]
        made.append(table)
    with db.engine.begin() as conn:
        conn.execute(insert(TrackerGame), games)
        for start in range(0, len(moves), 20_000):
            conn.execute(insert(TrackerMove), moves[start:start + 20_000])
    db.dispose()
    return made


# -- the phones and the players --------------------------------------------------------------------

class Load:
    """One run: the tables, the servers' addresses, the HTTP session and what was measured."""

    def __init__(self, bases: list[str], tables: list[Table], mode: str, double: float, seed: int):
        self.bases, self.tables, self.mode, self.double = bases, tables, mode, double
        self.rng = random.Random(seed)
        self.stats = Stats()
        self.loop = asyncio.get_running_loop()
        self.session = None
        self.start = 0.0

    def now(self) -> float:
        return self.loop.time()

    async def sleep_until(self, at: float) -> None:
        delay = at - self.now()
        if delay > 0:
            await asyncio.sleep(delay)
        self.stats.lag_ms.append(max(0.0, self.now() - at) * 1000)

    async def get(self, url: str, headers=None, timeout: float = 30,
                  cookies: dict[str, str] | None = None) -> tuple[int, bytes]:
        """``cookies``: the asking phone's own cookies, sent and then updated from the answer (as
        its browser would; one jar for thousands of phones would keep only ~160 of their cookies)."""
        import aiohttp
        self.stats.requests += 1
        if cookies:
            headers = {**(headers or {}), "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}
        async with self.session.get(url, headers=headers, timeout=aiohttp.ClientTimeout(total=timeout)) as r:
            if cookies is not None:
                cookies.update({name: morsel.value for name, morsel in r.cookies.items()})
            return r.status, await r.read()

    async def post(self, url: str, body: dict, headers) -> tuple[int, bytes]:
        import aiohttp
        self.stats.requests += 1
        async with self.session.post(url, json=body, headers=headers, timeout=aiohttp.ClientTimeout(total=30)) as r:
            return r.status, await r.read()

    async def post_form(self, url: str, fields: dict[str, str], cookies: dict[str, str],
                        csrf: str) -> tuple[int, bytes]:
        """A tap on the page: its form posted in place (htmx), with the phone's own cookies and its
        page's CSRF token as htmx sends it (a header: the board's forms carry none)."""
        import aiohttp
        self.stats.requests += 1
        headers = {"HX-Request": "true", "X-CSRFToken": csrf,
                   "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}
        async with self.session.post(url, data=fields, headers=headers, timeout=aiohttp.ClientTimeout(total=30)) as r:
            cookies.update({name: morsel.value for name, morsel in r.cookies.items()})
            return r.status, await r.read()

    def base(self, k: int) -> str:
        return self.bases[k % len(self.bases)]

    # -- joining (not measured) ----------------------------------------------------------------
    async def join(self, concurrency: int = 32) -> float:
        """Every phone opens its seat page once; the mover learns who is to act."""
        gate, t0 = asyncio.Semaphore(concurrency), self.now()

        async def open_page(i: int, table: Table, seat: int) -> None:
            async with gate:
                status, body = await self.get(f"{self.base(i + seat)}/play/{table.id}/{table.tokens[seat]}",
                                              cookies=table.cookies[seat])
                found = VERSION_RE.search(body)
                if status != 200 or not found:
                    return self.stats.error("join", status, body[:120])
                table.seen[seat], table.boards[seat] = int(found.group(1)), body
                token = CSRF_HEADER_RE.search(body)
                table.csrf[seat] = token.group(1).decode() if token else ""
                table.to_act = to_act_on(body) if seat == 0 else table.to_act

        jobs = []
        for i, table in enumerate(self.tables):
            table.seen = [-1] * len(table.tokens)
            table.boards = [b""] * len(table.tokens)
            table.cookies = [{} for _ in table.tokens]
            table.csrf = [""] * len(table.tokens)
            jobs += [open_page(i, table, seat) for seat in range(len(table.tokens))]
        await asyncio.gather(*jobs)
        return self.now() - t0

    # -- a phone -------------------------------------------------------------------------------
    def got(self, table: Table, seat: int, status: int, body: bytes) -> bool:
        """A refresh's answer; False if it was an error."""
        if status == 204:
            self.stats.nothing_new += 1
            return True
        found = VERSION_RE.search(body) if status == 200 else None
        if found is None:
            self.stats.error("refresh", status, body[:120])
            return False
        version, now = int(found.group(1)), self.now()
        for v in range(max(table.seen[seat], table.opening) + 1, version + 1):
            posted = table.posted.get(v)
            if posted is not None and posted[1] != seat:  # the mover's own phone knew it already
                self.stats.delivery_ms.append((now - posted[0]) * 1000)
        if version >= table.seen[seat]:
            table.seen[seat], table.boards[seat] = version, body
        return True

    def done(self, table: Table, seat: int) -> bool:
        return table.finished and table.seen[seat] >= table.version

    async def phone_wait(self, i: int, table: Table, seat: int, until: float) -> None:
        url = f"{self.base(i + seat)}/play/{table.id}/{table.tokens[seat]}/live"
        await self.sleep_until(self.start + self.rng.uniform(0, POLL_EVERY))
        while not self.done(table, seat) and self.now() < until:
            try:
                status, body = await self.get(f"{url}?v={table.seen[seat]}&wait={LONG_POLL}", timeout=LONG_POLL + 15,
                                              cookies=table.cookies[seat])
            except Exception as exc:  # every failure counts
                self.stats.error("long poll", type(exc).__name__, exc)
                await asyncio.sleep(POLL_EVERY)
                continue
            if not self.got(table, seat, status, body):
                await asyncio.sleep(POLL_EVERY)  # as the page does: after an error, ask again later

    async def phone_stream(self, i: int, table: Table, seat: int, until: float) -> None:
        """The page's event stream: one request held while the game goes on, each board an event
        (``data:`` lines, ended by a blank line); opened again after 2 s if it fails or ends."""
        try:
            await self._stream(i, table, seat, until)
        except asyncio.CancelledError:
            pass  # the game is over and this phone has its last board (``moved``)

    async def _stream(self, i: int, table: Table, seat: int, until: float) -> None:
        import aiohttp
        url = f"{self.base(i + seat)}/play/{table.id}/{table.tokens[seat]}/live"
        # the page opens its stream as it loads: before the game goes on, spread as the joins were
        await self.sleep_until(self.start - STREAMS_OPEN + self.rng.uniform(0, STREAMS_OPEN))
        table.streams[seat] = asyncio.current_task()  # ended by ``moved`` when this seat's own move ends the game
        while not self.done(table, seat) and self.now() < until:
            self.stats.requests += 1
            self.stats.streams += 1
            cookies = table.cookies[seat]
            headers = {"Accept": "text/event-stream", "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}
            try:
                async with self.session.get(f"{url}?v={table.seen[seat]}&stream=1", headers=headers,
                                            timeout=aiohttp.ClientTimeout(total=None, sock_read=LONG_POLL + 15)) as r:
                    if r.status != 200 or not r.headers.get("Content-Type", "").startswith("text/event-stream"):
                        self.stats.error("event stream", r.status, (await r.read())[:120])
                        await asyncio.sleep(POLL_EVERY)
                        continue
                    pending = b""
                    async for chunk in r.content.iter_any():  # whole events at a time: a board is ~500 lines
                        *complete, pending = (pending + chunk).split(b"\n\n")
                        for event in complete:  # an event, or a comment (the server's "still here")
                            if event.startswith(b"event: board\n"):
                                self.got(table, seat, 200, event.replace(b"\ndata: ", b"\n"))
                            elif event.startswith(b"event: end\n"):
                                self.stats.error("event stream", "ended", "")
                        if complete and (self.done(table, seat) or self.now() > until):
                            break
                    else:
                        continue  # the server ended the stream: open it again
                    return
            except Exception as exc:  # every failure counts
                self.stats.error("event stream", type(exc).__name__, exc)
                await asyncio.sleep(POLL_EVERY)

    async def phone_poll(self, i: int, table: Table, seat: int, until: float) -> None:
        url = f"{self.base(i + seat)}/play/{table.id}/{table.tokens[seat]}/live"
        at, pending = self.start + self.rng.uniform(0, POLL_EVERY), set()
        while not self.done(table, seat) and at < until:
            await self.sleep_until(at)
            task = asyncio.create_task(self.refresh(url, table, seat, at))
            pending.add(task)
            task.add_done_callback(pending.discard)
            at += POLL_EVERY
        await asyncio.gather(*pending)

    async def refresh(self, url: str, table: Table, seat: int, at: float) -> None:
        try:
            status, body = await self.get(f"{url}?v={table.seen[seat]}", cookies=table.cookies[seat])
        except Exception as exc:
            return self.stats.error("refresh", type(exc).__name__, exc)
        self.stats.refresh_ms.append((self.now() - at) * 1000)
        self.got(table, seat, status, body)

    # -- the player to act ---------------------------------------------------------------------
    async def mover(self, i: int, table: Table, until: float) -> None:
        # the first move once every phone's first refresh is on its way (they start within
        # POLL_EVERY): a move made before a phone began asking was "seen" up to 2 s late, the
        # single 1.5-1.8 s outlier every run showed, though no page opens that way
        at = self.start + POLL_EVERY + self.rng.uniform(0, MOVE_GAP[1])
        while not table.finished and at < until:
            await self.sleep_until(at)
            try:
                ok = await self.move(i, table, at)
            except Exception as exc:
                ok = False
                self.stats.error("move", type(exc).__name__, exc)
            if not ok:
                return
            at += self.rng.uniform(*MOVE_GAP)

    async def move(self, i: int, table: Table, at: float) -> bool:
        """The player to act taps one of the moves their board offers: the page's form, posted in
        place and answered with their new board (one round trip, nothing fetched first)."""
        seat = table.to_act
        base, token = self.base(i + seat), table.tokens[seat]
        fetched = ""
        if table.seen[seat] < table.version:
            # the board has not reached this phone yet (its long poll is late): the player reloads
            # the page, which reads the game afresh. (Asking ``live?v=N`` instead, as this once did,
            # may be told "nothing new" for up to a second by a worker whose watcher has not seen
            # the move made through another worker yet: 19 "no move offered" at 500 tables.)
            status, body = await self.get(f"{base}/play/{table.id}/{token}", cookies=table.cookies[seat])
            self.got(table, seat, status, body)
            fetched = f", its page reloaded: {status}"
        form = act_form(table.boards[seat]) if table.seen[seat] == table.version else None
        if form is None:
            self.stats.error("move view", "no move offered",
                             f"seat {seat} at {table.seen[seat]}/{table.version}{fetched}")
            return False
        fields, buttons = form
        fields = {**fields, **dict([self.rng.choice(buttons)])}
        chosen = move_of(fields)
        sends = [self.post_form(f"{base}/play/{table.id}/{token}/move", fields, table.cookies[seat], table.csrf[seat])]
        if self.rng.random() < self.double:  # a second phone taps at the same moment (the JSON API)
            self.stats.doubles += 1
            sends.append(self.post(f"{self.base(i + seat + 1)}/api/games/{table.id}/moves",
                                   {"version": table.version, "move": chosen}, {"Authorization": f"Bearer {token}"}))
        table.posted[table.version + 1] = (self.now(), seat)
        answers = await asyncio.gather(*sends)
        self.stats.move_ms.append((self.now() - at) * 1000)
        return self.moved(table, seat, chosen, answers)

    def moved(self, table: Table, seat: int, chosen: dict, answers: list[tuple[int, bytes]]) -> bool:
        """The page's answer (the mover's new board) and, for a double tap, the API's: exactly one
        of them applied the move (the other says someone moved first: 409, or the page's notice)."""
        (status, board), *api = answers
        found = VERSION_RE.search(board) if status == 200 else None
        if found is None or int(found.group(1)) != table.version + 1:
            self.stats.error("move", status if found is None else "wrong version", board[:120])
            return False
        applied = [b"tmsg-stale" not in board] + [a[0] == 200 for a in api]
        if sum(applied) != 1 or any(a[0] not in (200, 409) for a in api):
            self.stats.error("move", "not applied exactly once", [status, *(a[0] for a in api)])
            return False
        self.stats.conflicts += len(applied) - 1
        self.stats.refused_409 += sum(1 for a in api if a[0] == 409)
        table.version += 1
        table.acked[table.version] = json.dumps(chosen, sort_keys=True)
        table.seen[seat], table.boards[seat] = table.version, board
        table.finished = b'data-finished="true"' in board
        if table.finished and seat in table.streams:
            table.streams.pop(seat).cancel()  # its stream carries nothing more (its own move is not sent)
        next_seat = to_act_on(board)
        table.to_act = next_seat if next_seat is not None else table.to_act
        return True

    async def run(self, budget: float) -> float:
        """The measured part: every phone and every table's player, until every game is over."""
        import aiohttp
        self.start = self.now() + 1.0 + (STREAMS_OPEN if self.mode == "stream" else 0.0)
        until = self.start + budget
        phone = {"stream": self.phone_stream, "wait": self.phone_wait, "poll": self.phone_poll}[self.mode]
        jobs = [self.mover(i, t, until) for i, t in enumerate(self.tables)]
        jobs += [phone(i, t, s, until + LONG_POLL) for i, t in enumerate(self.tables) for s in range(len(t.tokens))]
        await asyncio.gather(*jobs)
        assert isinstance(self.session, aiohttp.ClientSession)
        return self.now() - self.start


# -- checking every game ---------------------------------------------------------------------------

def check_logs(database: str, tables: list[Table], stats: Stats) -> int:
    """Each stored log: the opening, then exactly the acknowledged moves (none lost, none twice)."""
    from sqlalchemy import select

    from .db import Database
    from .tracker_store import TrackerMove
    db, by_game = Database(database), {t.id: t for t in tables}
    stored: dict[str, list[tuple[int, str]]] = {t.id: [] for t in tables}
    with db.engine.connect() as conn:
        ids = list(by_game)
        for start in range(0, len(ids), 500):
            rows = conn.execute(select(TrackerMove.game_id, TrackerMove.version, TrackerMove.move_json)
                                .where(TrackerMove.game_id.in_(ids[start:start + 500])))
            for game_id, version, move_json in rows:
                stored[game_id].append((version, move_json))
    db.dispose()
    good = 0
    for game_id, rows in stored.items():
        table, rows = by_game[game_id], sorted(rows)
        after = {v: json.loads(m) for v, m in rows if v > table.opening}
        acked = {v: json.loads(m) for v, m in table.acked.items()}
        same = after.keys() == acked.keys() and all({k: after[v].get(k) for k in m} == m for v, m in acked.items())
        if [v for v, _ in rows] != list(range(1, len(rows) + 1)) or not same:
            stats.error("game check", "stored log differs from the acknowledged moves",
                        f"{game_id}: {len(after)} stored after the opening, {len(acked)} acknowledged")
        elif not table.finished:
            stats.error("game check", "not finished", f"{game_id}: {len(acked)} moves played")
        elif min(table.seen) < table.version:
            stats.error("game check", "a phone never saw the final version", game_id)
        else:
            good += 1
    return good


async def check_results(load: Load) -> int:
    """The server's final result is the score of the planets as each seat sees its own."""
    from .contract import score_request
    gate = asyncio.Semaphore(32)

    async def check(i: int, table: Table) -> bool:
        async with gate:
            status, body = await load.get(f"{load.base(i)}/api/games/{table.id}")
            planets = []
            for seat, token in enumerate(table.tokens):
                _s, own = await load.get(f"{load.base(i)}/api/games/{table.id}", {"Authorization": f"Bearer {token}"})
                planets.append(json.loads(own)["planets"][seat])
        expected = score_request({"players": [{"name": p["name"], "planet": {"cells": p["cells"]}} for p in planets]})
        totals = [(p["name"], p["total"], p["rank"]) for p in expected["players"]]
        result = json.loads(body).get("result") if status == 200 else None
        if result and [(p["name"], p["total"], p["rank"]) for p in result["players"]] == totals:
            return True
        load.stats.error("game check", "the server's result is not the score of its planets", table.id)
        return False

    return sum(await asyncio.gather(*[check(i, t) for i, t in enumerate(load.tables) if t.finished]))


# -- one run ---------------------------------------------------------------------------------------

async def drive(bases: list[str], tables: list[Table], args, cpu, watch: ServerWatch | None = None) -> dict:
    """Join, play, check; the server's and this process's CPU over the played part."""
    import aiohttp
    load = Load(bases, tables, args.mode, args.double, args.seed)
    # idle connections are let go before the server's 10 s keep-alive limit drops them: a tap sent
    # on a connection the server is closing at that instant failed (ServerDisconnectedError, one
    # in a 100-table run), where a browser sends it again on a new connection
    connector = aiohttp.TCPConnector(limit=0, force_close=False, keepalive_timeout=5)
    jar = aiohttp.DummyCookieJar()  # each phone keeps its own cookies (``Load.get``)
    async with aiohttp.ClientSession(connector=connector, cookie_jar=jar) as load.session:
        joined = await load.join()
        server0, mine0 = cpu(), time.process_time()
        if watch is not None:
            watch.start()
        pauses = OwnPauses()
        play_began = time.time()
        try:
            with pauses:
                played = await load.run(budget=args.moves * MOVE_GAP[1] + 30)
        finally:
            if watch is not None:
                watch.stop()
        play_ended = time.time()
        server_cpu_s, my_cpu_s = cpu() - server0, time.process_time() - mine0
        results_ok = await check_results(load)
    return {"load": load, "joined_s": joined, "played_s": played, "server_cpu_s": server_cpu_s,
            "bench_cpu_s": my_cpu_s, "results_ok": results_ok, "pauses": pauses, "play": (play_began, play_ended)}


class OwnPauses:
    """The generator's own cycle collections, off while it plays: each one stops every phone of this
    process, and a phone's latency counts from its scheduled time, so they would count against the
    server. With young collections on, at 700-800 tables they took 1.5-2.0 s of a 105 s play, the
    longest 65-86 ms; off, the generator grew by 35 MB over an 800-table play. Any collection
    still run meanwhile (asked for by a library) is timed and printed."""

    def __init__(self) -> None:
        self.count, self.longest_ms, self.total_ms = 0, 0.0, 0.0
        self._started = 0.0

    def _timed(self, phase: str, _info: dict) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        took = (time.perf_counter() - self._started) * 1000
        self.count += 1
        self.total_ms += took
        self.longest_ms = max(self.longest_ms, took)

    def __enter__(self) -> OwnPauses:
        import gc
        gc.collect()       # the join's garbage, before the play
        gc.callbacks.append(self._timed)
        gc.disable()
        return self

    def __exit__(self, *_exc) -> None:
        import gc
        gc.enable()
        gc.callbacks.remove(self._timed)

    def __str__(self) -> str:
        return (f"collections off until the end; {self.count} asked for meanwhile, {self.total_ms:.0f} ms in all, "
                f"the longest {self.longest_ms:.1f} ms")


def one_run(tables: int, args, openings, database: str, log_dir: Path) -> dict:
    rng = random.Random(args.seed + tables)
    made = copy_openings(database, openings, tables, rng)
    started = start_servers(database, args.servers, args.workers, log_dir)
    try:
        watch = ServerWatch(started)
        out = asyncio.run(drive([b for _p, b in started], made, args, lambda: server_cpu(started), watch))
    finally:
        stop_servers(started)
    out["watch"] = watch.report() + loop_lateness(log_dir, args.servers, *out["play"])
    out["logs_ok"] = check_logs(database, made, out["load"].stats)
    out["tables"], out["phones"] = tables, sum(len(t.tokens) for t in made)
    return out


def loop_lateness(log_dir: Path, servers: int, began: float, ended: float) -> list[str]:
    """How late each server worker's event loop woke a 10 ms sleep while the phones played
    (``serve --loop-report``: one line per ``LOOP_REPORT`` seconds; the windows that ended inside
    the play, the first one dropped as it may hold the end of the join): the wait every request
    there met besides its own work. Per worker: the windows' p50 and p95 (median window, worst
    window), the worst window's p99, the longest wait, and the sleeps counted."""
    windows: dict[str, list[tuple[float, ...]]] = {}
    for k in range(servers):
        log = log_dir / f"server{k}.log"
        for found in LOOP_LINE.finditer(log.read_text(errors="replace") if log.exists() else ""):
            at, n, p50, p95, p99, longest = (float(x) for x in found.groups()[1:])
            if began + LOOP_REPORT <= at <= ended:
                windows.setdefault(f"{k}:{found.group(1)}", []).append((n, p50, p95, p99, longest))
    said = []
    for seen in windows.values():
        p50, p95 = (sorted(w[i] for w in seen)[len(seen) // 2] for i in (1, 2))
        said.append(f"p50 {p50:.1f}, p95 {p95:.1f} (worst window {max(w[2] for w in seen):.1f}), "
                    f"p99 worst {max(w[3] for w in seen):.1f}, max {max(w[4] for w in seen):.1f} ms "
                    f"over {sum(int(w[0]) for w in seen)} in {len(seen)} windows")
    return ["  each worker's event loop while playing, a 10 ms sleep woken late by (median window): " + "; ".join(said)
            ] if said else []


def held(out: dict) -> bool:
    s = out["load"].stats
    refresh = s.refresh_ms if out["mode"] == "poll" else s.delivery_ms
    return (not s.error_count and percentile(refresh, 95) <= TARGET_MS and percentile(s.move_ms, 95) <= TARGET_MS
            and out["logs_ok"] == out["results_ok"] == out["tables"])


def report(out: dict) -> None:
    s, played = out["load"].stats, out["played_s"]
    ms = lambda xs: (f"p50 {percentile(xs, 50):7.1f}  p95 {percentile(xs, 95):7.1f}  p99 {percentile(xs, 99):7.1f}  "
                     f"max {max(xs, default=float('nan')):7.1f} ms  (n={len(xs)})")
    print(f"  {out['tables']} tables, {out['phones']} phones, mode {out['mode']}: joined in {out['joined_s']:.1f} s, "
          f"played {played:.1f} s, {s.requests / max(played, 1e-9):.0f} requests/s")
    if out["mode"] == "poll":
        print(f"  refresh (from its scheduled time):   {ms(s.refresh_ms)}")
    print(f"  seen on the other phones (move posted -> each other phone of its table has the new board): "
          f"{ms(s.delivery_ms)}")
    print(f"  moves seen on every other phone within {SEEN_WITHIN_MS / 1000:.0f} s at p95 (issue 11): "
          f"{'yes' if percentile(s.delivery_ms, 95) <= SEEN_WITHIN_MS else 'NO'}")
    print(f"  move (from its scheduled time: the tap, answered with the new board):  {ms(s.move_ms)}")
    print(f"  generator lateness: p95 {percentile(s.lag_ms, 95):.1f} ms; 'nothing new' answers: {s.nothing_new}")
    if out.get("pauses") is not None:
        print(f"  the generator's own pauses while playing: {out['pauses']}")
    print(f"  CPU over the played part: server {out['server_cpu_s'] / played:.2f} cores, "
          f"this generator {out['bench_cpu_s'] / played:.2f} cores (both on this machine's {os.cpu_count()}); "
          f"server CPU per move (its post, every other phone's board, the polls asked again, the "
          f"watcher): {out['server_cpu_s'] / max(len(s.move_ms), 1) * 1000:.1f} ms")
    for line in out.get("watch", []):
        print(line)
    print(f"  double taps (the page's form and the API at once): {s.doubles} sent, exactly one of each pair applied; "
          f"the other told someone moved first: {s.refused_409} x 409 from the API, "
          f"{s.conflicts - s.refused_409} x the page's notice")
    print(f"  games checked: {out['logs_ok']}/{out['tables']} logs = acknowledged moves, finished, every phone "
          f"up to date; {out['results_ok']}/{out['tables']} results = score of the planets")
    print(f"  errors: {s.error_count}" + "".join(f"\n    {n} x {cause}" for cause, n in s.causes.most_common())
          + ("\n  first of each:" + "".join(f"\n    {e[:240]}" for e in s.errors[:12]) if s.errors else ""))
    print(f"  held p95 <= {TARGET_MS:.0f} ms with no error: {'yes' if held(out) else 'NO'}")


# -- the cost of one "nothing new", beside a static file ------------------------------------------

def cpu_per_request(database: str, table: Table, log_dir: Path, n: int, workers: int) -> tuple[float, float]:
    """Server CPU (ms) per refresh that finds nothing new and per static file, each asked ``n``
    times one after another on one keep-alive connection, the same server, the same run."""
    import http.client
    started = start_servers(database, 1, workers, log_dir)
    try:
        port = int(started[0][1].rsplit(":", 1)[1])
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        paths = {"refresh": f"/play/{table.id}/{table.tokens[0]}/live?v={table.version}",
                 "static": "/static/css/app.css"}
        cost = {}
        for name, path in [*paths.items(), *paths.items()]:  # each twice: the first warms up
            before = server_cpu(started)
            for _ in range(n):
                conn.request("GET", path)
                response = conn.getresponse()
                response.read()
                if response.status not in (200, 204):
                    raise SystemExit(f"{path}: {response.status}")
            cost[name] = (server_cpu(started) - before) / n * 1000
        return cost["refresh"], cost["static"]
    finally:
        stop_servers(started)


class OwnCookies:
    """A phone with its own cookies on a connection shared by every phone: one jar of 800 phones'
    cookies made each request ~10 ms of this client's CPU, and the server's own looks at the moves
    in those 10 ms were counted as the request's cost."""

    def __init__(self, session, jar: dict[str, str]):
        self.session, self.jar = session, jar

    def _ask(self, method: str, url: str, **kw):
        self.session.cookies.clear()
        answer = self.session.request(method, url, cookies=self.jar, **kw)
        self.jar.update(answer.cookies.get_dict())
        return answer

    def get(self, url: str, **kw):
        return self._ask("GET", url, **kw)

    def post(self, url: str, **kw):
        return self._ask("POST", url, **kw)


def cpu_of_a_move(database: str, tables: list[Table], log_dir: Path, workers: int) -> dict[str, float]:
    """Server CPU (ms) per request of each kind a move brings, over ``len(tables)`` tables played
    one request after another (so the server's CPU over a block is that block's): the move (the
    page's form posted in place, answered with the mover's new board), the board each other phone
    of the table fetches after it, and the "nothing new" that each phone's next long poll asks
    first. Seats are claimed first (not counted)."""
    import requests
    started = start_servers(database, 1, workers, log_dir)
    base, session, cost = started[0][1], requests.Session(), {}
    jars: dict[str, dict[str, str]] = {}  # each phone's own cookies (its seat's claim, its session)
    Phone = lambda token: OwnCookies(session, jars.setdefault(token, {}))  # noqa: E731
    idle = [0.0]  # the server's own CPU per second while nobody asks (its live watcher's looks)

    def block(name: str, calls: list, expect: int = 200) -> list:
        before, t0 = server_cpu(started), time.monotonic()
        answers = [call() for call in calls]
        # the server's own CPU meanwhile (its watcher's looks at the moves) is not the requests'
        spent = server_cpu(started) - before - idle[0] * (time.monotonic() - t0)
        cost[name] = max(spent, 0.0) / max(len(calls), 1) * 1000
        bad = [a.status_code for a in answers if a.status_code != expect]
        if bad:
            raise SystemExit(f"{name}: answered {sorted(set(bad))}, not {expect}")
        return answers
    try:
        forms = []
        for t in tables:
            pages = [Phone(token).get(f"{base}/play/{t.id}/{token}") for token in t.tokens]
            t.to_act = to_act_on(pages[0].content) or 0
            form = act_form(pages[t.to_act].content)
            assert form is not None, "the seat to act is offered a move"
            forms.append({**form[0], **dict([form[1][0]])})
        for t in tables:  # each game watched, as when its phones hold their long polls
            Phone(t.tokens[0]).get(f"{base}/play/{t.id}/{t.tokens[0]}/live?v={t.version}")
        before, t0 = server_cpu(started), time.monotonic()
        time.sleep(2.0)  # the watcher looks, nobody asks
        idle[0] = (server_cpu(started) - before) / (time.monotonic() - t0)
        cost["idle"] = idle[0] * 1000  # ms of CPU per second
        answers = block("move", [lambda t=t, f=f: Phone(t.tokens[t.to_act]).post(
                                     f"{base}/play/{t.id}/{t.tokens[t.to_act]}/move", data=f, headers={"HX-Request": "true"})
                                 for t, f in zip(tables, forms, strict=True)])
        if any(b"tmsg-stale" in a.content or b"tmsg-warn" in a.content for a in answers):
            raise SystemExit("move: a move was refused")
        seats = [(t, token) for t in tables for s, token in enumerate(t.tokens) if s != t.to_act]
        block("board", [lambda t=t, k=k: Phone(k).get(f"{base}/play/{t.id}/{k}/live?v={t.version}") for t, k in seats])
        block("nothing new", [lambda t=t, k=k: Phone(k).get(f"{base}/play/{t.id}/{k}/live?v={t.version + 1}")
                              for t in tables for k in t.tokens], expect=204)
        return cost
    finally:
        stop_servers(started)


def slow_clients(database: str, log_dir: Path, silent: int = 16, slow: int = 20) -> list[float]:
    """``/api/score`` latencies (ms) while ``silent`` sockets sent one byte and went quiet and
    ``slow`` ones trickle a body a byte a second."""
    import socket
    import threading

    import requests
    started = start_servers(database, 1, 2, log_dir)
    port, held_open, stop = int(started[0][1].rsplit(":", 1)[1]), [], threading.Event()
    try:
        for k in range(silent + slow):
            sock = socket.create_connection(("127.0.0.1", port))
            sock.sendall(b"G" if k < silent else
                         b"POST /api/score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 9999\r\n\r\n")
            held_open.append(sock)

        def trickle() -> None:
            while not stop.wait(1.0):
                for sock in held_open[silent:]:
                    try:
                        sock.sendall(b" ")
                    except OSError:
                        pass
        threading.Thread(target=trickle, daemon=True).start()
        body = {"players": [{"name": "Ann", "counts": {"characters": ["king"], "volcano": 1}}]}
        times = []
        for _ in range(20):
            t0 = time.perf_counter()
            r = requests.post(f"{started[0][1]}/api/score", json=body, timeout=30)
            times.append((time.perf_counter() - t0) * 1000 if r.status_code in (200, 400) else float("inf"))
            time.sleep(0.2)
        return times
    finally:
        stop.set()
        for sock in held_open:
            sock.close()
        stop_servers(started)


# -- the command -----------------------------------------------------------------------------------

def parse(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m scorer.load_bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000, help="tables playing at once (default 1000)")
    parser.add_argument("--mode", choices=("stream", "wait", "poll"), default="stream",
                        help="phones hold an event stream as the pages do (stream, default), a long poll asked "
                             "again after each answer (wait), or ask every 2 s (poll)")
    parser.add_argument("--database", help="SQLAlchemy URL (default: SQLite in a temporary folder)")
    parser.add_argument("--servers", type=int, default=1, help="server processes on the database (default 1)")
    parser.add_argument("--workers", type=int, default=None,
                        help="workers per server process (default as `serve`: 2, 1 on a one-core machine)")
    parser.add_argument("--moves", type=int, default=24, help="moves left to play in each game (default 24)")
    parser.add_argument("--double", type=float, default=0.05, help="share of moves posted twice at once (0.05)")
    parser.add_argument("--openings", type=int, default=0,
                        help="distinct prepared games copied to the tables (default 0: one for each table, as at a real game night)")
    parser.add_argument("--search", help="comma-separated table counts to try in turn, e.g. 250,500,1000")
    parser.add_argument("--quick", action="store_true", help="only the CPU per refresh and the slow clients")
    parser.add_argument("--seed", type=int, default=7)
    return parser.parse_args(argv)


def side_figures(database: str, openings, log_dir: Path, workers: int) -> None:
    table = copy_openings(database, openings, 1, random.Random(1))[0]
    refresh, static = cpu_per_request(database, table, log_dir, 2000, workers)
    print(f"server CPU per request, 2000 in a row each, same server and run: refresh with nothing new "
          f"{refresh:.3f} ms, static file {static:.3f} ms, ratio {refresh / static:.2f}")
    tables = copy_openings(database, openings, 200, random.Random(2))
    cost = cpu_of_a_move(database, tables, log_dir, workers)
    phones = sum(len(t.tokens) for t in tables) / len(tables)
    per_move = cost["move"] + (phones - 1) * cost["board"] + phones * cost["nothing new"]
    idle = cost.pop("idle")
    print("server CPU per request of a move, 200 tables one request after another: "
          + ", ".join(f"{k} {v:.2f} ms" for k, v in cost.items())
          + f" (the server's CPU while idle, {idle:.0f} ms a second, taken out)"
          + f"; a move (answered with the mover's board), the other {phones - 1:.1f} phones' boards and "
          f"{phones:.1f} long polls asked again: {per_move:.1f} ms, so at one move a table every "
          f"{sum(MOVE_GAP) / 2:.1f} s one core holds about {1000 / per_move * sum(MOVE_GAP) / 2:.0f} tables")
    times = slow_clients(database, log_dir)
    print(f"POST /api/score while 16 silent and 20 slow sockets are open: p50 {percentile(times, 50):.1f} ms, "
          f"max {max(times):.1f} ms over {len(times)} requests")


def main(argv=None) -> int:
    args = parse(argv)
    work = Path(tempfile.mkdtemp(prefix="load-bench-"))
    database = args.database or f"sqlite:///{work / 'bench.sqlite3'}"
    kind = "PostgreSQL" if database.startswith("postgres") else "SQLite"
    args.workers = args.workers or default_workers()
    print(f"load bench: {kind}, {args.servers} server process(es) x {args.workers} gevent worker(s) "
          f"(python -m scorer serve), {os.cpu_count()} cores shared with this generator; logs in {work}")
    t0 = time.monotonic()
    most = max([200, *([int(x) for x in args.search.split(",")] if args.search else [args.tables])])
    openings = deal_openings(args.openings or most, args.moves, args.seed)
    print(f"  {len(openings)} distinct openings played to {args.moves} moves from the end in {time.monotonic() - t0:.1f} s"
          + (f", copied to the tables (one game for {most / len(openings):.0f} tables)" if len(openings) < most else
             ", one for each table"))
    side_figures(database, openings, work, args.workers)
    if args.quick:
        return 0
    best, out = None, None
    for tables in ([int(x) for x in args.search.split(",")] if args.search else [args.tables]):
        out = one_run(tables, args, openings, database, work)
        out["mode"] = args.mode
        report(out)
        if not held(out):
            break
        best = tables
    if args.search:
        print(f"largest number of tables that held (p95 <= {TARGET_MS:.0f} ms, no error): {best or 'none tried'}")
    return 1 if out and out["load"].stats.error_count else 0


if __name__ == "__main__":
    sys.exit(main())
