"""``python -m scorer export [--format json|csv] [FILE]`` and ``python -m scorer import FILE``:
every play of a server out, and into another one (plays already there are skipped)."""
from __future__ import annotations

import json
import sys


def _app(database: str | None):
    from . import create_app
    return create_app({"DATABASE_URL": database} if database else {})


def cmd_export(args) -> int:
    from ..history_store import export_json
    from .history import csv_text, record_earlier_plays
    db = _app(args.database).extensions["db"]
    record_earlier_plays(db)
    text = "".join(export_json(db)) if args.format == "json" else csv_text(db)
    if args.file in (None, "-"):
        sys.stdout.write(text)
        return 0
    try:
        with open(args.file, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
    except OSError as exc:
        print(json.dumps({"error": f"Cannot write {args.file}: {exc.strerror}.", "where": "file"}))
        return 2
    return 0


def cmd_import(args) -> int:
    from ..history_store import ImportFileError, import_plays
    from .history import import_message
    try:
        with open(args.file, "rb") as fh:
            data = json.loads(fh.read())
    except OSError as exc:
        print(json.dumps({"error": f"Cannot read {args.file}: {exc.strerror}.", "where": "file"}))
        return 2
    except (ValueError, RecursionError):
        print(json.dumps({"error": f"{args.file} is not JSON.", "where": "file"}))
        return 2
    db = _app(args.database).extensions["db"]
    try:
        added, skipped = import_plays(db, data)
    except ImportFileError as exc:
        print(json.dumps({"error": f"Nothing was imported: {exc}", "where": "file"}, ensure_ascii=False))
        return 2
    print(import_message(added, skipped))
    return 0


def add_commands(sub) -> None:
    p = sub.add_parser("export", help="every play as JSON (to import elsewhere) or CSV")
    p.add_argument("--format", choices=("json", "csv"), default="json")
    p.add_argument("file", nargs="?", default="-", help="where to write (default: stdout)")
    p.add_argument("--database", default=None, help="SQLAlchemy URL (default: SQLite in instance/)")
    p.set_defaults(func=cmd_export)
    p = sub.add_parser("import", help="add the plays of an export (those already here are skipped)")
    p.add_argument("file")
    p.add_argument("--database", default=None, help="SQLAlchemy URL (default: SQLite in instance/)")
    p.set_defaults(func=cmd_import)
