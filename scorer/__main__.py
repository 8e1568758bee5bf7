"""Commands: ``python -m scorer score [FILE|-]``, ``stars [FILE|-]``, ``serve``, ``bench``, ``export``,
``import``."""
from __future__ import annotations

import argparse
import atexit
import json
import os
import shutil
import sys


def json_command(path: str | None, answer) -> int:
    """Read JSON from PATH (stdin for ``-``) and print ``answer(raw)``; on a bad input, exit 2
    printing the SPEC's ``{"error", "where"}``."""
    from .errors import InputError
    try:
        if path in (None, "-"):
            raw = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as fh:
                raw = fh.read()
    except OSError as exc:
        print(json.dumps({"error": f"Cannot read {path}: {exc.strerror}.", "where": "file"}))
        return 2
    try:
        result = answer(raw)
    except InputError as exc:
        print(json.dumps(exc.as_json(), ensure_ascii=False))
        return 2
    print(json.dumps(result, ensure_ascii=False, indent=2))
    return 0


def cmd_score(args) -> int:
    from .contract import parse_json, score_request
    return json_command(args.file, lambda raw: score_request(parse_json(raw)))


def cmd_stars(args) -> int:
    """Rising to the Stars, SPEC §3: the tally of a game, as JSON."""
    from .stars import read_json, score_stars
    return json_command(args.file, lambda raw: score_stars(read_json(raw)))


def cmd_serve(args) -> int:
    from .serve import cooperative
    cooperative()  # first: everything imported and made from here on is greenlet-aware
    from .catalog import CatalogError
    from .db import StoreError
    from .lan import lan_addresses
    from .serve import default_workers, run_server
    from .web import create_app, warm
    from .web.shared_boards import new_shelf_folder
    config: dict[str, object] = {}
    if args.database:
        config["DATABASE_URL"] = args.database
    workers = args.workers or default_workers()
    if workers > 1:  # the workers' shared drawings (``shared_boards.Shelf``), removed when this process stops
        config["SHARED_BOARDS_DIR"] = shelf = new_shelf_folder()
        master = os.getpid()
        atexit.register(lambda: os.getpid() == master and shutil.rmtree(shelf, ignore_errors=True))
    try:
        # The launcher's app only checks the settings, the catalog and the database (each worker
        # builds its own after the fork). It counts no requests: the rate limiter's memory storage
        # starts a timer thread, and one started here, before the fork, ended in every gevent
        # worker with a KeyError traceback in the terminal.
        app = create_app({**config, "PLANET_RATE_LIMITS": "off"})
    except CatalogError as exc:
        print(f"The tile catalog is broken: {exc}", file=sys.stderr)
        return 2
    except StoreError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    from .expiry_store import expire
    settings = app.config["SETTINGS"]
    expire(app.extensions["db"], settings.abandoned_days, settings.keep_days)
    shown_host = args.host
    print("Make Me a Planet is running.", flush=True)
    if args.host in ("0.0.0.0", "::", ""):
        addrs = lan_addresses()
        for addr in addrs:
            print(f"  On phones on the same network, open:  http://{addr}:{args.port}/", flush=True)
        if not addrs:
            print("  No network address found; phones cannot reach this machine.", flush=True)
        shown_host = "localhost"
    print(f"  On this machine:                      http://{shown_host}:{args.port}/", flush=True)
    print(f"  Database: {app.config['DATABASE_URL']}", flush=True)
    print("  Stop with Ctrl+C.", flush=True)
    run_server(app, args.host, args.port, workers,
               args.connections, client_timeout=args.client_timeout, make_app=lambda: warm(create_app(config)),
               loop_report=args.loop_report)
    return 0


def cmd_expire(args) -> int:
    from .db import Database, StoreError
    from .expiry_store import expire
    from .settings import Settings
    settings = Settings.load({"DATABASE_URL": args.database} if args.database else {})
    db = Database(settings.database_url)
    try:
        db.create_all()
    except StoreError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    done = expire(db, args.abandoned_days or settings.abandoned_days,
                  args.keep_days if args.keep_days is not None else settings.keep_days)
    print(json.dumps(done.as_json()))
    db.dispose()
    return 0


def cmd_bench(args) -> int:
    from .bench import main as bench_main
    return bench_main(args)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scorer", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("score", help="score a table: JSON on stdin or in FILE")
    p.add_argument("file", nargs="?", default="-")
    p.set_defaults(func=cmd_score)
    p = sub.add_parser("stars", help="tally a Rising to the Stars game: JSON on stdin or in FILE")
    p.add_argument("file", nargs="?", default="-")
    p.set_defaults(func=cmd_stars)
    p = sub.add_parser("serve", help="start the app with a production WSGI server")
    p.add_argument("--host", default="0.0.0.0")
    p.add_argument("--port", type=int, default=5000)
    p.add_argument("--database", default=None, help="SQLAlchemy URL (default: SQLite in instance/)")
    p.add_argument("--workers", type=int, default=None,
                   help="worker processes (default 2; 1 on a one-core machine)")
    p.add_argument("--connections", type=int, default=4000,
                   help="connections each worker holds at once (default 4000; phones keep one open)")
    p.add_argument("--client-timeout", type=int, default=10,
                   help="seconds a client has to send a request's headers before it is dropped (default 10)")
    p.add_argument("--loop-report", type=float, default=None, metavar="SECONDS",
                   help="every SECONDS, print how late each worker's event loop wakes a 10 ms sleep (the load bench reads it)")
    p.set_defaults(func=cmd_serve)
    p = sub.add_parser("expire", help="remove abandoned games now (and old plays, with --keep-days)")
    p.add_argument("--abandoned-days", type=float, default=None,
                   help="unfinished games untouched this long (default 30, or $PLANET_ABANDONED_DAYS)")
    p.add_argument("--keep-days", type=float, default=None,
                   help="also finished games, tables and tallies older than this (default: keep them)")
    p.add_argument("--database", default=None, help="SQLAlchemy URL (default: SQLite in instance/)")
    p.set_defaults(func=cmd_expire)
    p = sub.add_parser("bench", help="print scoring speed: core and POST /api/score")
    p.add_argument("--seconds", type=float, default=3.0)
    p.set_defaults(func=cmd_bench)
    from .web.history_cli import add_commands
    add_commands(sub)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
