"""Bench for the history and player stats pages: ``python -m scorer.history_bench [--plays 10000]``.

Fills a temporary SQLite database with ``--plays`` scored tables (2–5 players each, drawn from 40
people, names spelled in varying case; every table stored through the real path, so its play is
recorded by the same hook as in use), then asks the app in-process (Flask's test client: the
page's whole server time, without a network) for random history pages and random players'
stats pages, and prints p50 / p95 / max in milliseconds. The target is p95 ≤ 50 ms.
"""
from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

PEOPLE = ("Ann", "Ben", "Cy", "Di", "Ed", "Flo", "Gus", "Hana", "Ivo", "Jo", "Kai", "Lea", "Max",
          "Nia", "Oto", "Pia", "Quin", "Rosa", "Sam", "Tess", "Uma", "Vic", "Wim", "Xia", "Yann",
          "Zoé", "Élise", "Björn", "Chloë", "Dario", "Emil", "Fay", "Gil", "Hugo", "Iris", "Jan",
          "Kim", "Liv", "Mo", "Noor")


def random_request(rng: random.Random) -> dict:
    from .catalog import CHARACTERS
    players = []
    for name in rng.sample(PEOPLE, rng.randint(2, 5)):
        counts = {"characters": rng.sample(CHARACTERS, 4), "face_down": rng.choice((0, 0, 3, 6)),
                  "baobab": rng.randint(0, 2), "volcano": rng.randint(0, 6)}
        for item in ("rose", "lamppost", "box", "star", "fox", "elephant", "snake", "sheep_white",
                     "sheep_grey", "sheep_brown", "sunset"):
            counts[item] = rng.randint(0, 3)
        shown = rng.choice((name, name.lower(), name.upper()))
        players.append({"name": shown, "counts": counts})
    return {"players": players}


def fill(db, plays: int, seed: int = 7) -> None:
    import json

    from .contract import InputError, score_request
    from .db import SavedTable
    rng = random.Random(seed)
    start = datetime(2023, 1, 1, tzinfo=UTC)
    with db.Session.begin() as session:
        made = 0
        while made < plays:
            req = random_request(rng)
            try:
                result = score_request(req)
            except InputError:
                continue
            created = start + timedelta(minutes=90 * made + rng.randint(0, 60))
            session.add(SavedTable(request_json=json.dumps(req), result_json=json.dumps(result),
                                   created=created))
            made += 1
            if made % 500 == 0:
                session.flush()


def timed(client, urls: list[str]) -> list[float]:
    out = []
    for url in urls:
        t = time.perf_counter()
        response = client.get(url)
        out.append((time.perf_counter() - t) * 1000)
        if response.status_code != 200:
            raise SystemExit(f"{url} answered {response.status_code}")
    return out


def report(label: str, ms: list[float]) -> None:
    ms = sorted(ms)
    p95 = ms[max(0, round(0.95 * len(ms)) - 1)]
    print(f"  {label:<28} n={len(ms):>4}  p50={statistics.median(ms):6.1f} ms  "
          f"p95={p95:6.1f} ms  max={ms[-1]:6.1f} ms")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scorer.history_bench", description=__doc__)
    parser.add_argument("--plays", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=300)
    args = parser.parse_args(argv)
    from .web import create_app
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"INSTANCE_PATH": Path(tmp) / "instance",
                          "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite3"})
        db = app.extensions["db"]
        t = time.perf_counter()
        fill(db, args.plays)
        print(f"  stored {args.plays} plays in {time.perf_counter() - t:.1f} s (SQLite, {tmp})")
        client = app.test_client()
        rng = random.Random(11)
        pages = args.plays // 20
        timed(client, ["/history", "/players/ann"])  # warm up templates and connections
        report("GET /history?page=N", timed(client, [f"/history?page={rng.randint(1, pages)}"
                                                       for _ in range(args.requests)]))
        report("GET /history (first page)", timed(client, ["/history"] * args.requests))
        report("GET /players/<name>", timed(client, [f"/players/{rng.choice(PEOPLE).lower()}"
                                                      for _ in range(args.requests)]))
        table_id = client.get("/history").get_data(as_text=True).split("/tables/", 1)[1].split('"', 1)[0]
        report("GET /tables/<id>/picture.png", timed(client, [f"/tables/{table_id}/picture.png"] * 20))
        t = time.perf_counter()
        size = len(client.get("/history/export.json").data)
        print(f"  export of all plays (JSON): {size / 1e6:.1f} MB in {time.perf_counter() - t:.2f} s")
        db.dispose()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
