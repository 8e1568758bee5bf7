"""Measure the recognizer on a folder of photos with their truth.

``python -m vision.bench [DIR] [--set=NAME] [--held-out] [-q]`` (default ``sample_photos/`` and every
seen box set; ``--held-out`` adds the held-out ones, read as totals only): every ``NAME.jpg|png|jpeg`` with a
``NAME.json`` beside it (a planet grid, or ``{"planet": null}`` for a photo without a planet).
Prints cell accuracy, planets read exactly (and scored exactly, by ``scorer.contract``), photos
without a planet refused, honest confidence (wrong cells not marked doubtful), time per photo,
and the ratio of recognition time to a full ``cv2.imdecode`` of the same file.
"""
from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from .reading import first_row

EXTS = (".jpg", ".jpeg", ".png")


def content_key(cell):
    """What a cell shows: tiles with the same stack, items and character count as the same."""
    from scorer.catalog import catalog
    if cell is None or cell == "back":
        return cell
    cat = catalog()
    if cell not in cat:
        return ("unknown", cell)
    t = cat[cell]
    return (t.stack, t.character, tuple(sorted(t.items.items())))


def alike(name):
    """The ids that look like ``name`` (its contents), itself included; the back is always free."""
    from scorer.catalog import catalog
    if name == "back" or name not in catalog():
        return [None]
    return [t.id for t in catalog() if content_key(t.id) == content_key(name)]


def rotations(cells16):
    g = np.array(cells16, dtype=object).reshape(4, 4)
    return [list(np.rot90(g, k).reshape(-1)) for k in range(4)]


def compare(read16, truth16):
    """Best quarter turn of the reading against the truth: (right flags, turn)."""
    best = None
    for k, rot in enumerate(rotations(read16)):
        right = [content_key(a) == content_key(b) for a, b in zip(rot, truth16)]
        if best is None or sum(right) > sum(best[0]):
            best = (right, k)
    return best


def score_of(cells16):
    from scorer.contract import InputError, score_request
    grid = {"cells": [list(cells16[r * 4:(r + 1) * 4]) for r in range(4)]}
    try:
        return score_request({"players": [{"name": "x", "planet": grid}]})["players"][0]["total"]
    except InputError:
        return None


def load_truth(path: Path):
    t = json.loads(path.read_text())
    if t.get("planet", "x") is None or "cells" not in t:
        return None
    return [c for row in t["cells"] for c in row]


def load_neighbour(path: Path):
    """The cells of the neighbour's planet beside the one photographed (a truth's ``neighbour``,
    ``samples.make_beside``), None when the photo holds none."""
    other = json.loads(path.read_text()).get("neighbour")
    return None if not other else [c for row in other["cells"] for c in row]


def photos(folder: Path):
    out = []
    for p in sorted(folder.iterdir()):
        if p.suffix.lower() in EXTS and p.with_suffix(".json").exists():
            out.append(p)
    return out


# The bar of issue 8, per photo set (checked by tests/test_vision_sets.py and printed here).
FLOORS = {"cells": 0.995, "scored": 0.95, "refused": 1.0, "wrong_not_doubtful": 0}
# Our own aim, not a floor of issue 8: at most this share of the right cells marked doubtful
# (players check each one). Printed on its own line; the suite holds each seen set to a ceiling
# of its own (tests/test_vision_sets.py, ``doubtful``).
DOUBT_AIM = 0.10
# The second box's photo sets under sample_photos/ (teach/ + test/), in the order the bench reads them.
BOX_SETS = ("box2", "box2-heldout", "box2-heldout2", "box2-heldout3", "box2-heldout4", "box2-heldout5",
            "box2-heldout6", "box2-heldout7", "box2-heldout8", "box2-heldout9", "box2-heldout10", "box2-heldout11",
            "box2-heldout12", "box2-heldout13", "box2-heldout14", "box2-heldout15", "box2-heldout16")
# The sets made first and never tuned on (tests/test_vision_sets.py HELD_OUT): read only when asked for
# (``--held-out``, or by name), and then always as totals, whatever ``-q`` says (a photo named or a
# per-photo failure is a result nobody may look at). A bare ``python -m vision.bench`` reads the seen sets.
HELD_OUT_SETS = ("box2-heldout12", "box2-heldout13", "box2-heldout15", "box2-heldout16")


def floors_missed(r: dict, floors: dict = FLOORS) -> list[str]:
    """Which floors a run's figures miss (empty: all met)."""
    missed = []
    if r["cells_total"] and r["cells_right"] / r["cells_total"] < floors["cells"]:
        missed.append(f"cells right {r['cells_right']}/{r['cells_total']} < {floors['cells']:.1%}")
    if r["planets"] and r["planets_scored"] / r["planets"] < floors["scored"]:
        missed.append(f"planets scored exactly {r['planets_scored']}/{r['planets']} < {floors['scored']:.0%}")
    if r["empties"] and r["refused"] / r["empties"] < floors["refused"]:
        missed.append(f"no-planet photos refused {r['refused']}/{r['empties']}")
    if r["wrong_not_doubtful"] > floors["wrong_not_doubtful"]:
        missed.append(f"{r['wrong_not_doubtful']} wrong cells not marked doubtful")
    if r["cells_right"] and r["right_doubtful"] / r["cells_right"] > floors.get("doubtful", 1.0):
        missed.append(f"right cells marked doubtful {r['right_doubtful']}/{r['cells_right']} > {floors['doubtful']:.0%}")
    return missed


def run(folder: Path, verbose: bool = False, reference=None, reader=None, repeat: int = 1,
        readings: list | None = None) -> dict:
    """Read every photo of ``folder`` (with ``reader``, default ``vision.recognize``).
    ``readings``: each photo's reading is added to it (``reading_record``).
    Time: the decode is timed twice and its faster kept; with ``repeat`` 2 or more the reading is
    timed as often, interleaved with the decodes, and its fastest kept too (the same sampling on
    both sides of the ratio; ``make bench``). The reading judged is the first."""
    from .imageio import _jpeg_info
    from .recognize import recognize
    from .index import get_index
    recognize = reader or recognize
    get_index(reference)  # build (or load) the index before timing
    cells_total = cells_right = ids_right = 0
    planets = planets_exact = planets_scored = 0
    empties = refused = planets_refused = 0
    wrong_not_doubtful = right_doubtful = 0
    wrong_likely = 0   # wrong cells whose true tile is among the reading's likely ones (the picker's first)
    wrong_first = 0    # … and is the first of them
    wrong = 0
    neighbour_read = 0   # photos with a neighbour's planet whose reading is nearer the neighbour's
    times, ratios_big, ratios = [], [], []
    failures = []
    for p in photos(folder):
        data = p.read_bytes()
        truth = load_truth(p.with_suffix(".json"))
        buf = np.frombuffer(data, np.uint8)
        t = time.perf_counter()
        cv2.imdecode(buf, cv2.IMREAD_COLOR)
        t_dec = time.perf_counter() - t
        t = time.perf_counter()
        reading = recognize(data, reference=reference)
        t_rec = time.perf_counter() - t
        if readings is not None:
            readings.append(reading_record(p.name, reading))
        for k in range(max(1, repeat)):
            if k:  # the same photo read again, timed: nothing is kept between readings
                t = time.perf_counter()
                again = recognize(data, reference=reference)
                t_rec = min(t_rec, time.perf_counter() - t)
                if again.cells != reading.cells or again.doubtful != reading.doubtful:
                    failures.append(f"{p.name}: read twice, read differently")
            # a decode sample after each reading, interleaved, to steady the ratio
            t = time.perf_counter()
            cv2.imdecode(buf, cv2.IMREAD_COLOR)
            t_dec = min(t_dec, time.perf_counter() - t)
        times.append(t_rec * 1000)
        ratios.append(t_rec / t_dec)
        info = _jpeg_info(data) if data[:2] == b"\xff\xd8" else None
        if info and info[0] * info[1] >= 11_000_000:
            ratios_big.append(t_rec / t_dec)
        if truth is None:
            empties += 1
            if not reading.ok:
                refused += 1
            else:
                failures.append(f"{p.name}: no planet, but read one (score {reading.score:.2f})")
            continue
        planets += 1
        if not reading.ok:
            cells_total += 16
            wrong += 16
            planets_refused += 1
            failures.append(f"{p.name}: refused: {reading.error}")
            continue
        right, k = compare(reading.cells, truth)
        neighbour = load_neighbour(p.with_suffix(".json"))
        if neighbour is not None and sum(compare(reading.cells, neighbour)[0]) > sum(right):
            neighbour_read += 1
            failures.append(f"{p.name}: the neighbour's planet read")
        cells_total += 16
        cells_right += sum(right)
        ids_right += sum(a == b for a, b in zip(rotations(reading.cells)[k], truth))
        rot_doubt = rotations(reading.doubtful)[k]
        # the picker's first row for each square, as the review shows it on the planet as read
        order = rotations(list(range(16)))[k]
        rot_likely = [first_row(reading.likely[q], [c for p, c in enumerate(reading.cells) if p != q], alike)
                      for q in order]
        for ok, doubt, likely, true in zip(right, rot_doubt, rot_likely, truth):
            right_doubtful += bool(ok and doubt)
            if not ok:
                wrong += 1
                wrong_likely += any(content_key(t) == content_key(true) for t in likely)
                wrong_first += bool(likely) and content_key(likely[0]) == content_key(true)
                if not doubt:
                    wrong_not_doubtful += 1
        if all(right):
            planets_exact += 1
        if score_of(reading.cells) == score_of(truth):
            planets_scored += 1
        if not all(right) or verbose:
            failures.append(f"{p.name}: {16 - sum(right)} wrong, {sum(reading.doubtful)} doubtful, "
                            f"score {reading.score:.2f}\n" + reading.describe())
    return {
        "cells_total": cells_total, "cells_right": cells_right, "ids_right": ids_right, "planets": planets,
        "planets_exact": planets_exact, "planets_scored": planets_scored, "empties": empties,
        "refused": refused, "planets_refused": planets_refused, "wrong": wrong, "wrong_not_doubtful": wrong_not_doubtful, "right_doubtful": right_doubtful,
        "wrong_likely": wrong_likely, "wrong_first": wrong_first, "neighbour_read": neighbour_read,
        "times": times, "ratios_big": ratios_big, "ratios": ratios, "failures": failures,
    }


def reading_record(name: str, reading) -> dict:
    """A photo's reading as one JSON object: what the player is shown (tiles, confidences, doubt,
    the picker's likely tiles, refusal) and its score, all of it, so two runs can be compared byte for byte (``--readings``:
    a speed change must leave every one the same)."""
    return {"photo": name, "ok": reading.ok, "cells": reading.cells, "confidences": reading.confidences,
            "doubtful": reading.doubtful, "likely": reading.likely, "score": reading.score, "error": reading.error}


# A finger's error when a teacher taps a layout's corners (``learn_box(taps=)``): each coordinate
# off by up to this part of the layout's side, seeded per set (``TAP_SEED``).
TAP_ERROR = 0.015
TAP_SEED = 8


def tapped_corners(truth: dict, rng) -> list | None:
    """The generator's true corners of a teaching photo's layout (``tNN.json``'s ``corners``), each
    moved by a finger's error (uniform, ±``TAP_ERROR`` of the layout's side); None without them."""
    if "corners" not in truth:
        return None
    q = np.asarray(truth["corners"], np.float64)
    side = float(np.sqrt(abs(cv2.contourArea(q.astype(np.float32)))))
    return (q + rng.uniform(-TAP_ERROR, TAP_ERROR, q.shape) * side).tolist()


def learn_box(teach: Path, into: Path, taps=None, quiet: bool = False) -> tuple[float, list, list]:
    """Learn the teaching photos of ``teach`` (``tNN.jpg`` + ``tNN.json``) into ``into``. ``taps``
    (a random generator): a photo whose layout is not found is learned again from its true
    corners as a teacher would tap them (``tapped_corners``), as the pages offer. Returns the
    seconds, the photos not learned automatically and those of them learned from corners.
    ``quiet``: no photo is named (a held-out set's photos are not looked at)."""
    from .box import Box
    from .learn import learn
    box = Box()
    missed, tapped = [], []
    t = time.perf_counter()
    for photo in sorted(teach.glob("t*.jpg")):
        truth = json.loads(photo.with_suffix(".json").read_text())
        lesson = learn(photo.read_bytes(), truth, box)
        if not lesson.ok:
            missed.append(photo.name)
            corners = tapped_corners(truth, taps) if taps is not None else None
            if corners is None:
                if not quiet:
                    print(f"{photo.name}: not learned: {lesson.error}")
                continue
            lesson = learn(photo.read_bytes(), truth, box, corners=corners)
            if not lesson.ok:
                if not quiet:
                    print(f"{photo.name}: not learned, even from its corners: {lesson.error}")
                continue
            tapped.append(photo.name)
        box = lesson.box
    box.save(into)
    return time.perf_counter() - t, missed, tapped


def main(argv=None) -> int:
    """Without a folder: the shipped art's photos, then each second-box set but the held-out ones
    (learned from its six teaching photos first); ``--held-out``: those too; ``--set=NAME``
    (repeatable): only those second-box sets; ``-q``: totals only, no photo-by-photo failures (a
    held-out set is always read so); ``--readings FILE``: every photo's reading written there, one
    JSON line each (``reading_record``; never a held-out set's: its photos are not looked at). With
    a folder: that folder, with the shipped art.""" 
    import argparse
    import tempfile
    parser = argparse.ArgumentParser(prog="python -m vision.bench", description=main.__doc__)
    parser.add_argument("folder", nargs="?", type=Path, help="photos with their .json truths (default: sample_photos/)")
    parser.add_argument("--set", dest="sets", action="append", default=[], metavar="NAME",
                        help=f"a second-box set of sample_photos/ (repeatable): {', '.join(BOX_SETS)}")
    parser.add_argument("-q", dest="quiet", action="store_true", help="totals only (a held-out set's photos are not looked at)")
    parser.add_argument("-v", dest="verbose", action="store_true", help="every photo's reading")
    parser.add_argument("--held-out", dest="held_out", action="store_true",
                        help=f"also the held-out sets ({', '.join(HELD_OUT_SETS)}), totals only")
    parser.add_argument("--readings", type=Path, metavar="FILE",
                        help="write every photo's reading there, one JSON line each, to compare two runs "
                             "(not the held-out sets')")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    verbose, quiet, sets = args.verbose, args.quiet, args.sets
    written: dict[str, list] = {}

    def kept(name: str) -> list | None:   # where a set's readings go (None: not written)
        if args.readings is None or name in HELD_OUT_SETS:
            return None
        return written.setdefault(name, [])

    def write() -> None:
        if args.readings is not None:
            rows = [json.dumps({"set": name, **r}) + "\n" for name, rs in written.items() for r in rs]
            args.readings.write_text("".join(rows))
            print(f"readings of {len(rows)} photos written to {args.readings}")

    if args.folder is not None:
        if not args.folder.is_dir():
            parser.error(f"{args.folder} is not a folder of photos")
        report(args.folder, verbose, readings=kept(str(args.folder)))
        write()
        return 0
    unknown = [name for name in sets if name not in BOX_SETS]
    if unknown:
        parser.error(f"no such set: {', '.join(unknown)} (the sets: {', '.join(BOX_SETS)})")
    root = Path(__file__).resolve().parent.parent / "sample_photos"
    lines = []
    if not sets:
        print("== shipped art: sample_photos/ ==")
        lines.append(summary("shipped", report(root, verbose, quiet=quiet, readings=kept("shipped")), None))
    for name in sets or [s for s in BOX_SETS if args.held_out or s not in HELD_OUT_SETS]:
        if not (root / name).is_dir():
            print(f"== sample_photos/{name}: not in this checkout, skipped ==")
            continue
        held_out = name in HELD_OUT_SETS
        verbose, quiet = args.verbose and not held_out, args.quiet or held_out
        with tempfile.TemporaryDirectory() as tmp:
            secs, missed, _tapped = learn_box(root / name / "teach", Path(tmp), quiet=quiet)
            print(f"== second box: sample_photos/{name}/test, after learning its 6 teaching photos ==")
            print(f"learning the 6 photos:        {secs:.1f} s")
            lines.append(summary(name, report(root / name / "test", verbose, reference=tmp, quiet=quiet,
                                              readings=kept(name)), secs))
        if missed:
            lines.append(corner_fallback(root / name, name, missed, verbose, quiet))
    print("== one line per set ==")
    print("\n".join(lines))
    write()
    return 0


def corner_fallback(folder: Path, name: str, missed: list, verbose: bool = False, quiet: bool = False) -> str:
    """The teaching photos whose layout was not found, learned from their true corners as a
    teacher taps them (±``TAP_ERROR`` of the side, seeded), and the set read again: one line
    (``quiet``: the photos counted, not named)."""
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        secs, _missed, tapped = learn_box(folder / "teach", Path(tmp), taps=np.random.default_rng(TAP_SEED), quiet=quiet)
        print(f"== second box: sample_photos/{name}/test, its layouts not found learned from tapped corners ==")
        r = report(folder / "test", verbose, reference=tmp, quiet=True)
    cells = 100 * r["cells_right"] / max(1, r["cells_total"])
    which = "" if quiet else f" ({' '.join(missed)})"
    return (f"{name + ' taps':<13} not found {len(missed)}{which}, learned from corners "
            f"±{TAP_ERROR:.1%} {len(tapped)}/{len(missed)}: cells {r['cells_right']}/{r['cells_total']} = "
            f"{cells:.1f}%  exact {r['planets_exact']}/{r['planets']}  scored {r['planets_scored']}/{r['planets']}  "
            f"wrong-not-doubtful {r['wrong_not_doubtful']}/{r['wrong']}  learning {secs:.1f} s")


def summary(name: str, r: dict, learn_s: float | None) -> str:
    """One line: cells, exact, refused, wrong not doubtful, right cells doubtful, median ms and
    ratio to a full decode, learning time."""
    ms = statistics.median(r["times"]) if r["times"] else 0.0
    ratio = statistics.median(r["ratios"]) if r["ratios"] else 0.0
    cells = 100 * r["cells_right"] / max(1, r["cells_total"])
    return (f"{name:<13} cells {r['cells_right']}/{r['cells_total']} = {cells:.1f}%  "
            f"exact {r['planets_exact']}/{r['planets']}  scored {r['planets_scored']}/{r['planets']}  "
            f"refused {r['refused']}/{r['empties']}  wrong-not-doubtful {r['wrong_not_doubtful']}/{r['wrong']}  "
            f"right-but-doubtful {r['right_doubtful']}/{r['cells_right']}  wrong-but-likely {r['wrong_likely']}/{r['wrong']} "
            f"(first {r['wrong_first']})  median {ms:.0f} ms  "
            f"{ratio:.1f}x decode  learning {'-' if learn_s is None else f'{learn_s:.1f} s'}")


REPEAT = 2  # the bench times each reading and each decode twice, keeping each one's faster


def report(folder: Path, verbose: bool = False, reference=None, quiet: bool = False,
           readings: list | None = None) -> dict:
    r = run(folder, verbose, reference, repeat=REPEAT, readings=readings)
    pct = lambda a, b: f"{100 * a / b:.2f}%" if b else "n/a"
    for line in ([] if quiet else r["failures"]):
        print(line)
    times = sorted(r["times"])
    print(f"photos:                       {len(times)} ({r['planets']} planets, {r['empties']} without a planet)")
    print(f"cell accuracy:                {r['cells_right']}/{r['cells_total']} = {pct(r['cells_right'], r['cells_total'])}")
    print(f"cells with the exact tile id: {r['ids_right']}/{r['cells_total']} = {pct(r['ids_right'], r['cells_total'])}"
          " (same-looking tiles may be told apart or not)")
    print(f"planets read exactly:         {r['planets_exact']}/{r['planets']} = {pct(r['planets_exact'], r['planets'])}")
    print(f"planets scored exactly:       {r['planets_scored']}/{r['planets']} = {pct(r['planets_scored'], r['planets'])}")
    print(f"no-planet photos refused:     {r['refused']}/{r['empties']} = {pct(r['refused'], r['empties'])}")
    print(f"wrong cells not doubtful:     {r['wrong_not_doubtful']}/{r['wrong']}")
    print(f"wrong cells, the right tile among the picker's first (likely): {r['wrong_likely']}/{r['wrong']}"
          f" (the first of them: {r['wrong_first']})")
    missed = floors_missed(r)
    print("issue 8 floors:               " + ("all met" if not missed else "MISSED: " + "; ".join(missed)))
    if r["cells_right"]:
        share = r["right_doubtful"] / r["cells_right"]
        print(f"right cells marked doubtful:  {r['right_doubtful']}/{r['cells_right']} = {pct(r['right_doubtful'], r['cells_right'])}"
              f" (our aim, not an issue 8 floor: {DOUBT_AIM:.0%} or under: {'met' if share <= DOUBT_AIM else 'not met'})")
    if times:
        p95 = times[min(len(times) - 1, int(np.ceil(.95 * len(times))) - 1)]
        print(f"ms per photo:                 median {statistics.median(times):.0f}, p95 {p95:.0f}")
    if r["ratios"]:
        print(f"recognize / full imdecode:    median {statistics.median(r['ratios']):.2f}x over all {len(r['ratios'])} photos"
              f" (each the faster of {REPEAT})")
    if r["ratios_big"]:
        print(f"recognize / full imdecode:    median {statistics.median(r['ratios_big']):.2f}x "
              f"over {len(r['ratios_big'])} 12 MP photos (max {max(r['ratios_big']):.2f}x)")
    else:
        print("recognize / full imdecode:    n/a (no 12 MP photos)")
    return r


if __name__ == "__main__":
    sys.exit(main())
