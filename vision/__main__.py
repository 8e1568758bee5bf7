"""``python -m vision render PLANET.json OUT.png [--size PIXELS]`` and
``python -m vision recognize PHOTO [--json]`` (SPEC §2). Exit status 2 for unusable input."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


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
    if args.reference and not (Path(args.reference) / "box.json").exists():
        print(json.dumps({"ok": False, "error": f"No learned box in {args.reference}: "
                                               "teach it with python -m vision learn first."}))
        return 2
    try:
        with open(args.photo, "rb") as f:
            data = f.read()
    except OSError as exc:
        reading = {"ok": False, "error": f"Cannot read {args.photo}: {exc.strerror}."}
        print(json.dumps(reading))
        return 2
    reading = recognize(data, reference=args.reference)
    out = reading.as_json()
    if args.json or not reading.ok:
        print(json.dumps(out))
    else:
        print(json.dumps(out))
        print(reading.describe(), file=sys.stderr)
    return 0 if reading.ok else 2


def _learn(args) -> int:
    """Learn each PHOTO with its GRID into the box in DIR; stop at the first bad one (the box on
    disk keeps what the earlier photos taught)."""
    from .box import BoxError, load_box
    from .learn import learn
    if len(args.pairs) % 2 or not args.pairs:
        print(json.dumps({"error": "Give photos and grids in pairs: PHOTO GRID.json [PHOTO GRID.json …]."}))
        return 2
    try:
        box = load_box(args.reference)
    except BoxError as exc:
        print(json.dumps({"error": str(exc)}))
        return 2
    pairs = list(zip(args.pairs[::2], args.pairs[1::2]))
    corners = _corners(args.corners or [], len(pairs))
    if isinstance(corners, str):
        print(json.dumps({"error": corners}))
        return 2
    learned = []
    for (photo, grid_path), given in zip(pairs, corners):
        try:
            data = Path(photo).read_bytes()
            grid = json.loads(Path(grid_path).read_text(encoding="utf-8"))
        except OSError as exc:
            print(json.dumps({"error": f"Cannot read {exc.filename}: {exc.strerror}."}))
            return 2
        except ValueError as exc:
            print(json.dumps({"error": f"{grid_path} is not valid JSON ({exc})."}))
            return 2
        lesson = learn(data, grid, box, corners=given)
        if not lesson.ok:
            print(json.dumps({"error": f"{photo}: {lesson.error}", "learned": learned}))
            return 2
        box = lesson.box
        box.save(args.reference)
        learned.append({"photo": photo, "tiles": [s.key for s in lesson.learned]})
    print(json.dumps({"ok": True, "learned": learned, "box": box.summary()}))
    return 0


def _corners(given: list, photos: int) -> list | str:
    """Each photo's ``--corners`` (the k-th for the k-th photo; ``auto`` or none: found in the
    photo), or what is wrong with them."""
    if len(given) > photos:
        return f"{len(given)} --corners for {photos} photos: give at most one per photo, in order."
    out: list = []
    for text in given:
        if text == "auto":
            out.append(None)
            continue
        try:
            values = [float(v) for v in text.split(",")]
        except ValueError:
            values = []
        if len(values) != 8:
            return (f"--corners {text!r}: give 8 numbers, x1,y1,x2,y2,x3,y3,x4,y4: the layout's four outer "
                    "corners, in any order, in the upright photo's pixels.")
        out.append([values[i:i + 2] for i in range(0, 8, 2)])
    return out + [None] * (photos - len(out))


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
    q.add_argument("--reference", help="read with the box learned into this folder")
    t = sub.add_parser("learn", help="learn a box's tiles from photos of known layouts")
    t.add_argument("--reference", required=True, help="the folder the box is learned into")
    t.add_argument("pairs", nargs="+", metavar="PHOTO GRID.json")
    t.add_argument("--corners", action="append", metavar="x1,y1,x2,y2,x3,y3,x4,y4",
                   help="the layout's corners (top-left, top-right, bottom-right, bottom-left, in the upright "
                        "photo's pixels) when it is not found: the k-th --corners for the k-th photo, 'auto' to skip one")
    args = ap.parse_args(argv)
    return {"render": _render, "recognize": _recognize, "learn": _learn}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
