"""``python -m vision render PLANET.json OUT.png [--size PIXELS]`` and
``python -m vision recognize PHOTO [--json]`` (SPEC §2). Exit status 2 for unusable input."""
from __future__ import annotations

import argparse
import json
import sys


def _render(args) -> int:
    from .render import RenderError, render_grid
    try:
        with open(args.planet, encoding="utf-8") as f:
            grid = json.load(f)
    except OSError as exc:
        print(json.dumps({"ok": False, "error": f"Cannot read {args.planet}: {exc.strerror}."}))
        return 2
    except ValueError as exc:
        print(json.dumps({"ok": False, "error": f"{args.planet} is not valid JSON ({exc})."}))
        return 2
    try:
        img = render_grid(grid, args.size)
        img.save(args.out)
    except RenderError as exc:
        print(json.dumps({"ok": False, "error": str(exc)}))
        return 2
    except (OSError, ValueError) as exc:
        print(json.dumps({"ok": False, "error": f"Cannot write {args.out}: {exc}"}))
        return 2
    return 0


def _recognize(args) -> int:
    from .recognize import recognize
    try:
        with open(args.photo, "rb") as f:
            data = f.read()
    except OSError as exc:
        reading = {"ok": False, "error": f"Cannot read {args.photo}: {exc.strerror}."}
        print(json.dumps(reading))
        return 2
    reading = recognize(data)
    out = reading.as_json()
    if args.json or not reading.ok:
        print(json.dumps(out))
    else:
        print(json.dumps(out))
        print(reading.describe(), file=sys.stderr)
    return 0 if reading.ok else 2


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision")
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("render", help="draw a planet grid from the reference art")
    r.add_argument("planet")
    r.add_argument("out")
    r.add_argument("--size", type=int, default=1024)
    q = sub.add_parser("recognize", help="read a planet from a photo")
    q.add_argument("photo")
    q.add_argument("--json", action="store_true", help="print JSON only")
    args = ap.parse_args(argv)
    return _render(args) if args.command == "render" else _recognize(args)


if __name__ == "__main__":
    sys.exit(main())
