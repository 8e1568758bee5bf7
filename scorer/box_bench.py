"""Bench for teaching a box through the pages: ``python -m scorer.box_bench [DIR]``.

Teaches the six photos of ``DIR`` (default ``sample_photos/box2/teach``: ``t01.jpg`` …
``t06.jpg``, in plan order) to a fresh app through its own page (Flask's test client: the whole
server time, without a network) and prints each photo's time and the total; then the cost of
finding the learned box for a scan: the database stamp look-up with the worker's box cached
(every scan pays it), and the first scan in a worker that has not decoded this version yet.
The issue's bar for learning the six photos is 30 s.
"""
from __future__ import annotations

import argparse
import io
import statistics
import tempfile
import time
from pathlib import Path

from .settings import ROOT


def _teach(client, folder: Path) -> list[float]:
    times = []
    for n in range(1, 7):
        data = (folder / f"t{n:02d}.jpg").read_bytes()
        t0 = time.perf_counter()
        r = client.post(f"/box/layout/{n}", data={"photo": (io.BytesIO(data), "t.jpg")},
                        content_type="multipart/form-data")
        times.append(time.perf_counter() - t0)
        if r.status_code != 303:
            raise SystemExit(f"layout {n} was not learned ({r.status_code})")
    return times


def _lookups(app, rounds: int = 200) -> tuple[float, float]:
    from .web.learned import box_in_use, cache
    with app.test_request_context():
        box_in_use()
        warm = []
        for _ in range(rounds):
            t0 = time.perf_counter()
            box_in_use()
            warm.append(time.perf_counter() - t0)
        cache(app).current = None   # as a worker that has not seen this version
        t0 = time.perf_counter()
        box_in_use()
        cold = time.perf_counter() - t0
    return statistics.median(warm) * 1000, cold * 1000


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m scorer.box_bench")
    ap.add_argument("folder", nargs="?", default=str(ROOT / "sample_photos" / "box2" / "teach"))
    args = ap.parse_args(argv)
    from .web import create_app
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "INSTANCE_PATH": Path(tmp) / "i",
                          "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite3"})
        times = _teach(app.test_client(), Path(args.folder))
        warm, cold = _lookups(app)
        app.extensions["db"].dispose()
    print("teaching through the pages, per photo (s):", " ".join(f"{t:.2f}" for t in times))
    print(f"six photos: {sum(times):.1f} s (bar: 30 s)")
    print(f"box for a scan: {warm:.2f} ms median with the worker's box cached, "
          f"{cold:.0f} ms when the worker decodes a new version")


if __name__ == "__main__":
    main()
