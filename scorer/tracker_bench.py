"""Load bench for the tracker: ``python -m scorer.tracker_bench [--tables 100] [--seconds 60]``.

Starts ``python -m scorer serve`` on a free loopback port with a temporary SQLite database, then
plays ``--tables`` games at once through the JSON API (one thread per table; each table's seats
act in turn, so the bench itself never races: every 409 or other error counts). It stops when
every game is over or after ``--seconds``, and prints moves per second, p50/p95 latency of a move
(``POST /api/games/<id>/moves``) and of a seat's view (``GET /api/games/<id>``), and the error
count. Exit status 1 if there was any error.
"""
from __future__ import annotations

import argparse
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NAMES = ("Ann", "Ben", "Cy", "Di", "Ed")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, database: str, log_path: Path) -> subprocess.Popen:
    import requests
    log = open(log_path, "wb")  # a file, not a pipe: a full pipe would stall the server
    proc = subprocess.Popen(
        [sys.executable, "-m", "scorer", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--database", database],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log,
        env={**os.environ, "PLANET_RATE_LIMITS": "off",  # one address creates every game
             "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")})
    log.close()  # the child has its own handle
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server did not start: {log_path.read_text(errors='replace')[-2000:]}")
        try:
            requests.get(f"http://127.0.0.1:{port}/api/games/none", timeout=1)
            return proc
        except requests.RequestException:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not answer within 30 s")


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.move_ms: list[float] = []
        self.view_ms: list[float] = []
        self.errors: list[str] = []
        self.finished = 0
        self.created = 0

    def error(self, what: str) -> None:
        with self.lock:
            self.errors.append(what)


def _create(session, base: str, n: int, rng: random.Random, stats: Stats) -> tuple[str, list[str]] | None:
    r = session.post(f"{base}/api/games", json={"players": list(NAMES[:n]), "seed": rng.randrange(2**31),
                                                "hidden_characters": rng.random() < 0.5}, timeout=30)
    if r.status_code != 201:
        stats.error(f"create: {r.status_code} {r.text[:200]}")
        return None
    body = r.json()
    with stats.lock:
        stats.created += 1
    return body["id"], [s["token"] for s in body["seats"]]


def _timed(stats_list: list[float], lock: threading.Lock, send):
    t0 = time.perf_counter()
    r = send()
    with lock:
        stats_list.append((time.perf_counter() - t0) * 1000)
    return r


def _play(session, base: str, gid: str, tokens: list[str], rng: random.Random, stats: Stats, deadline: float) -> None:
    to_act, view = 0, None
    while time.monotonic() < deadline:
        auth = {"Authorization": f"Bearer {tokens[to_act]}"}
        if view is None or view.get("seat") != to_act:
            # a new seat to act: fetch its view (the mover's own view came with its move)
            r = _timed(stats.view_ms, stats.lock,
                       lambda auth=auth: session.get(f"{base}/api/games/{gid}", headers=auth, timeout=30))
            if r.status_code != 200:
                return stats.error(f"view: {r.status_code} {r.text[:200]}")
            view = r.json()
        if not view["legal"]:
            return stats.error(f"seat {to_act} was to act but has no legal move")
        body = {"version": view["version"], "move": rng.choice(view["legal"])}
        r = _timed(stats.move_ms, stats.lock,
                   lambda body=body, auth=auth: session.post(f"{base}/api/games/{gid}/moves", json=body,
                                                             headers=auth, timeout=30))
        if r.status_code != 200:
            return stats.error(f"move: {r.status_code} {r.text[:200]}")
        view = r.json()
        if view["finished"]:
            with stats.lock:
                stats.finished += 1
            return None
        to_act = view["to_act"]
    return None


def play_table(base: str, n: int, rng: random.Random, stats: Stats, deadline: float, start_gate: threading.Event):
    import requests
    session = requests.Session()
    try:
        start_gate.wait()
        created = _create(session, base, n, rng, stats)
        if created:
            _play(session, base, *created, rng, stats, deadline)
    except Exception as exc:  # a bench counts every failure, whatever it is
        stats.error(f"{type(exc).__name__}: {exc}")


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))
    return values[k]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scorer.tracker_bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100, help="games played at once (default 100)")
    parser.add_argument("--seconds", type=float, default=60.0, help="stop after this long (default 60)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log", default=None, help="keep the server's log in this file")
    args = parser.parse_args(argv)

    port = free_port()
    with tempfile.TemporaryDirectory(prefix="tracker-bench-") as tmp:
        database = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        log_path = Path(args.log) if args.log else Path(tmp) / "server.log"
        proc = start_server(port, database, log_path)
        base = f"http://127.0.0.1:{port}"
        try:
            stats = Stats()
            rng = random.Random(args.seed)
            gate = threading.Event()
            started = time.monotonic()
            deadline = started + args.seconds
            threads = [threading.Thread(target=play_table,
                                        args=(base, rng.randint(2, 5), random.Random(rng.random()), stats, deadline, gate),
                                        daemon=True)
                       for _ in range(args.tables)]
            for t in threads:
                t.start()
            started = time.monotonic()
            gate.set()
            for t in threads:
                t.join(timeout=max(0.0, deadline - time.monotonic()) + 35)
            elapsed = time.monotonic() - started
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    return report(args, base, stats, elapsed)


def report(args, base: str, stats: Stats, elapsed: float) -> int:
    moves = len(stats.move_ms)
    print(f"tracker bench: {args.tables} tables at once on {base} (python -m scorer serve: gunicorn, 2 gevent workers, SQLite)")
    print(f"  games finished   {stats.finished} of {stats.created} in {elapsed:.1f} s")
    print(f"  moves            {moves}  ({moves / elapsed:.1f} moves/s)")
    print(f"  move latency     p50 {percentile(stats.move_ms, 50):.1f} ms   p95 {percentile(stats.move_ms, 95):.1f} ms"
          f"   max {max(stats.move_ms, default=float('nan')):.1f} ms")
    print(f"  view latency     p50 {percentile(stats.view_ms, 50):.1f} ms   p95 {percentile(stats.view_ms, 95):.1f} ms")
    print(f"  errors           {len(stats.errors)}")
    for e in stats.errors[:10]:
        print(f"    {e}")
    return 1 if stats.errors else 0


if __name__ == "__main__":
    sys.exit(main())
