"""``python -m scorer bench``: how fast scoring is, printed as numbers.

1. The pure core: whole 4-player tables scored per second (grids, take orders and counts).
2. ``POST /api/score`` under local load, beside a bare Flask JSON endpoint served by the same
   production server as ``serve`` (gunicorn, 2 gevent workers) in the same process and measured in the same run, with the same
   body and the same number of concurrent keep-alive clients. The ratio is the figure to watch.
"""
from __future__ import annotations

import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from .catalog import STACKS, catalog
from .tracker_bench import free_port


def random_table(rng: random.Random, players: int = 4) -> dict:
    cat = catalog()
    hands = [[] for _ in range(players)]
    for stack in STACKS:
        ids = [t.id for t in cat.stack(stack)]
        rng.shuffle(ids)
        for i in range(players):
            hands[i] += ids[4 * i: 4 * i + 4]
    from .planet import planet_from_take_order
    out = []
    for i, hand in enumerate(hands):
        rng.shuffle(hand)
        kind = ("planet", "tiles", "tiles", "planet")[i % 4]
        if kind == "planet":
            out.append({"name": f"Player {i + 1}", "planet": planet_from_take_order(hand)[0].as_grid()})
        else:
            out.append({"name": f"Player {i + 1}", "tiles": hand})
    return {"players": out}


def bench_core(seconds: float) -> float:
    from .contract import score_request
    rng = random.Random(1)
    tables = [random_table(rng) for _ in range(200)]
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        score_request(tables[n % len(tables)])
        n += 1
    return n / (time.perf_counter() - start)


# -- the server side: our app and a bare Flask app behind the same server as `serve` ------------

def serve(port: int, database: str) -> None:
    from .serve import cooperative, run_server
    cooperative()  # before the app is made, as `serve` does
    from flask import Flask, jsonify, request
    from werkzeug.middleware.dispatcher import DispatcherMiddleware

    from .web import create_app

    bare = Flask("bare")

    @bare.post("/json")
    def bare_json():
        body = request.get_json(silent=True) or {}
        return jsonify({"ok": True, "players": len(body.get("players", []))})

    app = create_app({"DATABASE_URL": database})
    wsgi = DispatcherMiddleware(app.wsgi_app, {"/bare": bare.wsgi_app})
    run_server(app, "127.0.0.1", port, workers=2, wsgi=wsgi)


def _wait_for(port: int, timeout: float = 30.0) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/")
            conn.getresponse().read()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("the bench server did not start")


def load(port: int, path: str, bodies: list[bytes], clients: int, seconds: float) -> dict:
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()
    stop_at = time.perf_counter() + seconds

    def client(k: int):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine, i = [], k
        while time.perf_counter() < stop_at:
            body = bodies[i % len(bodies)]
            i += clients
            t0 = time.perf_counter()
            try:
                conn.request("POST", path, body=body, headers={"Content-Type": "application/json"})
                resp = conn.getresponse()
                resp.read()
                ok = resp.status == 200
            except OSError:
                ok = False
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            mine.append(time.perf_counter() - t0)
            if not ok:
                with lock:
                    errors[0] += 1
        conn.close()
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - start
    latencies.sort()
    q = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else [latencies[0]] * 99
    return {"requests": len(latencies), "rps": len(latencies) / elapsed,
            "p50_ms": q[49] * 1000, "p95_ms": q[94] * 1000, "errors": errors[0]}


def main(args) -> int:
    seconds = getattr(args, "seconds", 3.0)
    print(f"core: {bench_core(seconds):,.0f} four-player tables scored per second "
          "(grids and take orders, pure Python, one core)")

    rng = random.Random(2)
    bodies = [json.dumps(random_table(rng)).encode() for _ in range(100)]
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen(
            [sys.executable, "-c", f"from scorer.bench import serve; serve({port}, {('sqlite:///' + os.path.join(tmp, 'bench.sqlite3'))!r})"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            _wait_for(port)
            clients = 8
            load(port, "/bare/json", bodies[:10], clients, 1.0)  # warm up both
            load(port, "/api/score", bodies[:10], clients, 1.0)
            bare = load(port, "/bare/json", bodies, clients, seconds * 2)
            ours = load(port, "/api/score", bodies, clients, seconds * 2)
        finally:
            proc.terminate()
            proc.wait(10)
    for name, r in (("bare Flask JSON endpoint", bare), ("POST /api/score (4 players)", ours)):
        print(f"{name:30s} {r['rps']:8,.0f} req/s   p50 {r['p50_ms']:6.2f} ms   p95 {r['p95_ms']:6.2f} ms   "
              f"errors {r['errors']}   ({r['requests']} requests, {clients} keep-alive clients, gunicorn 2×8 threads)")
    ratio = bare["rps"] / ours["rps"] if ours["rps"] else float("inf")
    print(f"ratio: POST /api/score takes {ratio:.2f}× the time of the bare endpoint per request (goal ≤ 3×)")
    return 0 if not (bare["errors"] or ours["errors"]) else 1
