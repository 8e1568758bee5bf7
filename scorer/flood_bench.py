"""A scan flood: ``python -m scorer.flood_bench [--scans 32] [--seconds 30]``.

``python -m scorer serve`` (SQLite, its default workers: one) is started here; ``--scans`` phones upload
worst-case photos to ``POST /scan`` in a loop, each asking again as soon as it is answered: the
issue's 47 KB all-black 7000×7000 PNG (just under the pixel cap; no planet in it, so it is read
to the end) and a 12-megapixel phone JPEG of a planet. Meanwhile ``POST /api/score`` is asked
``--rate`` times a second on a fixed schedule (open loop: latency counts from the scheduled time)
and the server's memory (master and workers, resident) is sampled every 0.1 s.

What protects the others: each worker reads at most a few photos at once (more are answered 429
"try again in a few seconds" at once) and reads them in native threads, off the event loop that
answers everyone else (``scorer/web/cpu.py``). All scans come from one address here, so the
per-client rate limits (12 scans a minute) are off unless ``--rate-limits``: with them on, this
flooder would be answered 429 after its twelfth photo and measure nothing.

Prints scans answered by status, the probes' p50/p95/max, the peak memory and the generator's own
CPU; exit status 1 past the goals (p95 < 500 ms, memory < 1 GB, no 5xx, no failed probe).
"""
from __future__ import annotations

import argparse
import os
import re
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .load_bench import ROOT, start_servers, stop_servers
from .serve import default_workers
from .tracker_bench import percentile

SCORE = {"players": [{"name": "Ann", "counts": {"characters": ["king", "lamplighter"], "volcano": 2}},
                     {"name": "Ben", "counts": {"characters": ["gardener"], "rose": 2}}]}
RETRY_AFTER_BUSY = 2.0  # seconds a phone told "try again in a few seconds" waits before sending again
GOAL_P95_MS = 500.0
GOAL_MEMORY_MB = 1024.0


def worst_photos() -> list[tuple[str, bytes, str]]:
    """The two photos the phones send in turn: (file name, bytes, content type)."""
    import cv2
    import numpy as np
    ok, black = cv2.imencode(".png", np.zeros((4000, 4000, 3), np.uint8))
    planet = cv2.imread(str(ROOT / "sample_photos" / "p01.jpg"))
    big = cv2.resize(planet, (4000, 3000), interpolation=cv2.INTER_CUBIC)
    ok2, jpeg = cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok and ok2
    return [("black.png", black.tobytes(), "image/png"), ("planet.jpg", jpeg.tobytes(), "image/jpeg")]


def scan_phone(base: str):
    """A phone that opened the scan page: its session (cookie) and the form's CSRF token."""
    import requests
    phone = requests.Session()
    page = phone.get(f"{base}/scan", timeout=30).text
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page) or re.search(r'value="([^"]+)"[^>]*name="csrf_token"', page)
    if token is None:
        raise SystemExit("no CSRF token on the scan page")
    return phone, token.group(1)


def flood(base: str, k: int, photos, stop: threading.Event, statuses: Counter, lock: threading.Lock) -> None:
    """One phone uploading photos in a loop until ``stop``; every answer's status counted."""
    import requests
    phone, token = scan_phone(base)
    while not stop.is_set():
        name, data, kind = photos[k % len(photos)]
        k += 1
        try:
            r = phone.post(f"{base}/scan", data={"csrf_token": token}, files={"photo": (name, data, kind)},
                           timeout=120, allow_redirects=False)
            status = str(r.status_code)
        except requests.RequestException as exc:
            status = type(exc).__name__
        with lock:
            statuses[status] += 1
        if status == "429":  # "try again in a few seconds": the person taps again
            stop.wait(RETRY_AFTER_BUSY)


def probe(base: str, scheduled: float) -> float:
    """One ``/api/score``, in ms from its scheduled time (inf if it failed)."""
    import requests
    try:
        r = requests.post(f"{base}/api/score", json=SCORE, timeout=30)
        ok = r.status_code == 200 and r.json()["players"][0]["name"] == "Ann"
    except (requests.RequestException, ValueError, KeyError):
        ok = False
    return (time.perf_counter() - scheduled) * 1000 if ok else float("inf")


def probes(base: str, rate: float, seconds: float) -> list[float]:
    """``/api/score`` sent ``rate`` times a second on schedule, whatever the answers."""
    start, futures = time.perf_counter() + 0.5, []
    with ThreadPoolExecutor(max_workers=64) as pool:
        for n in range(int(seconds * rate)):
            at = start + n / rate
            time.sleep(max(0.0, at - time.perf_counter()))
            futures.append(pool.submit(probe, base, at))
        return [f.result() for f in futures]


def sample_memory(started, stop: threading.Event, peak: list[float]) -> None:
    """The servers' resident memory (masters and workers, MB), its peak kept in ``peak[0]``."""
    import psutil
    roots = [psutil.Process(proc.pid) for proc, _base in started]
    while not stop.wait(0.1):
        total = 0
        for root in roots:
            for p in [root, *root.children(recursive=True)]:
                try:
                    total += p.memory_info().rss
                except psutil.NoSuchProcess:
                    pass
        peak[0] = max(peak[0], total / 2**20)


def run(args, base: str, started) -> tuple[Counter, list[float], float, float]:
    photos, statuses, lock, stop, peak = worst_photos(), Counter(), threading.Lock(), threading.Event(), [0.0]
    cpu0 = time.process_time()
    threads = [threading.Thread(target=sample_memory, args=(started, stop, peak), daemon=True)]
    threads += [threading.Thread(target=flood, args=(base, k, photos, stop, statuses, lock), daemon=True)
                for k in range(args.scans)]
    for t in threads:
        t.start()
    time.sleep(2.0)  # every phone uploading before the probes start
    latencies = probes(base, args.rate, args.seconds)
    stop.set()
    for t in threads:
        t.join(130)
    return statuses, latencies, peak[0], time.process_time() - cpu0


def report(args, statuses: Counter, latencies: list[float], peak_mb: float, generator_cpu: float) -> int:
    failed = sum(1 for v in latencies if v == float("inf"))
    done = sorted(v for v in latencies if v != float("inf"))
    p50, p95 = (percentile(done, 50), percentile(done, 95)) if done else (float("inf"),) * 2
    print(f"scans: {args.scans} phones uploading in a loop for {args.seconds:.0f} s "
          f"({args.workers} workers, rate limits {'on' if args.rate_limits else 'off'}); answers: "
          + ", ".join(f"{k} × {v}" for k, v in sorted(statuses.items())))
    print(f"POST /api/score meanwhile, {args.rate:g}/s on schedule: {len(latencies)} sent, {failed} failed, "
          f"p50 {p50:.0f} ms, p95 {p95:.0f} ms, max {max(done, default=float('inf')):.0f} ms (goal p95 < {GOAL_P95_MS:.0f} ms)")
    print(f"server memory (masters and workers, resident): peak {peak_mb:.0f} MB (goal < {GOAL_MEMORY_MB:.0f} MB)")
    print(f"generator's own CPU: {generator_cpu:.1f} s over {args.seconds + 2:.0f} s")
    server_errors = sum(v for k, v in statuses.items() if not k.isdigit() or k.startswith("5"))
    return 0 if p95 < GOAL_P95_MS and peak_mb < GOAL_MEMORY_MB and not failed and not server_errors else 1


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m scorer.flood_bench", description=__doc__.split("\n\n")[0])
    p.add_argument("--scans", type=int, default=32, help="phones uploading at once (default 32)")
    p.add_argument("--seconds", type=float, default=30.0)
    p.add_argument("--rate", type=float, default=10.0, help="/api/score probes a second (default 10)")
    p.add_argument("--workers", type=int, default=None, help="worker processes (default: as serve, 2; 1 on a one-core machine)")
    p.add_argument("--rate-limits", action="store_true", help="keep the per-client rate limits on")
    args = p.parse_args(argv)
    os.environ["PLANET_RATE_LIMITS"] = "on" if args.rate_limits else "off"
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["PLANET_INSTANCE"] = tmp  # the kept scans go with it, not into the checkout's instance/
        database = f"sqlite:///{Path(tmp) / 'flood.sqlite3'}"
        args.workers = args.workers or default_workers()
        started = start_servers(database, 1, args.workers, Path(tmp))
        try:
            outcome = run(args, started[0][1], started)
        finally:
            stop_servers(started)
    return report(args, *outcome)


if __name__ == "__main__":
    raise SystemExit(main())
