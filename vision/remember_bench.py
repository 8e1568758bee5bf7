"""What "remember these tiles" does on a second-box set (issue 8), as totals only (no photo is
named, so a held-out set may be read): ``python -m vision.remember_bench --set=NAME [--set=...]``.

For each set, its box learned from its six teaching photos as ``vision.bench`` learns it:

1. **The same planet.** Each test photo is read again as ``learn.learn_from_scan`` reads it, and
   its own planet (as the player would check it) and every other photo's planet at each quarter
   turn (a planet typed in by mistake) are put to the check remembering makes
   (``learn._same_planet``), and to ``SCAN_AGREE`` alone.
2. **A player who corrects every scan and remembers the corrected tiles**, photo after photo:
   the cells right with the box as taught, and with the box as it has learned by then
   (``--remembering-only``: this part alone; ``--keep-sharper off``: with ``REMEMBER_SHARPER``
   switched off, to measure what the rule does).
3. **The picker's first row**: of the wrong cells of the box-as-taught readings, how many have the
   right tile in the first 4 likely tiles, how many of those could be tapped (no other square
   holds every tile of that look), in the first row the review shows (``reading.first_row`` of the
   8 kept), and among all 8.
4. **The ceiling of the comparison**: each photo read again after all its 16 tiles were remembered
   from it (``learn_from_scan``), with the box as taught otherwise: what cutting, aligning and
   comparing read when the pictures are the photo's own (a photo the box as taught does not read as
   a planet counts no cell).

``--folder DIR`` reads a set outside ``sample_photos/`` (``teach/`` and ``test/``, as
``python -m vision.fresh --keep DIR`` makes them).
"""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import bench, tuning
from .box import load_box
from .learn import _agreeing, _same_planet, learn_from_scan
from .reader import _content, exemplars_in, exemplars_of_box, is_planet, read_box, read_photo
from .reading import LIKELY, first_row
from .stages import decode_photo, one_thread


@dataclass
class Totals:
    photos: int = 0
    planets: int = 0            # read as a planet when read again as remembering reads
    own_agree: int = 0          # own planet accepted by SCAN_AGREE alone
    own_same: int = 0           # ... by the check remembering makes
    others: int = 0             # other planets (each quarter turn) put to the check
    others_agree: int = 0
    others_same: int = 0
    cells: int = 0
    right_taught: int = 0       # cells right with the box as taught
    right_learning: int = 0     # ... with the box as it has learned from the corrections so far
    remembered: int = 0         # tiles remembered
    sharper: int = 0            # corrected tiles not remembered: the box's picture is sharper (REMEMBER_SHARPER)
    refused: int = 0            # corrections remembering refused
    wrong: int = 0              # wrong cells (box as taught)
    first4: int = 0             # the right tile among the first 4 likely
    first4_free: int = 0        # ... and tappable there
    row: int = 0                # in the first row the review shows
    kept: int = 0               # among all the likely tiles kept
    right_self: int = 0         # cells right, each photo read after its own 16 tiles were remembered from it

    def lines(self, name: str, remembering_only: bool = False) -> list[str]:
        if remembering_only:
            return [f"{name}: {self.photos} photos", self._remembering()]
        return [
            f"{name}: {self.photos} photos, {self.planets} read as planets again",
            f"  own planet remembered: SCAN_AGREE alone {self.own_agree}/{self.planets}, "
            f"the check {self.own_same}/{self.planets}",
            f"  another photo's planet (each quarter turn) accepted: SCAN_AGREE alone "
            f"{self.others_agree}/{self.others}, the check {self.others_same}/{self.others}",
            self._remembering(),
            f"  wrong cells {self.wrong}: right tile in the first {LIKELY} likely {self.first4} "
            f"({self.first4_free} tappable), in the review's first row {self.row}, among all kept {self.kept}",
            f"  each photo read again after its own 16 tiles were remembered from it (the ceiling of "
            f"cutting, aligning and comparing): cells right {self.right_self}/{self.cells}",
        ]

    def _remembering(self) -> str:
        return (f"  correcting and remembering every scan: cells right {self.right_taught}/{self.cells} with the "
                f"box as taught, {self.right_learning}/{self.cells} learning ({self.remembered} tiles remembered, "
                f"{self.sharper} kept as the box had them, sharper, {self.refused} refused)")


def _turned(cells: list, k: int) -> list:
    return list(np.rot90(np.array(cells, dtype=object).reshape(4, 4), k).reshape(-1))


def _rows(t: Totals, reading, truth: list) -> None:
    """The picker's first row against the truth, for the wrong cells of ``reading``."""
    _flags, k = bench.compare(reading.cells, truth)
    own = _turned(truth, -k)
    for q in range(16):
        want = bench.content_key(own[q])
        if want == bench.content_key(reading.cells[q]):
            continue
        likely = reading.likely[q]
        taken = [c for p, c in enumerate(reading.cells) if p != q]
        t.wrong += 1
        t.first4 += _has(likely[:LIKELY], want)
        t.first4_free += _has(first_row(likely[:LIKELY], taken, bench.alike), want)
        t.row += _has(first_row(likely, taken, bench.alike), want)
        t.kept += _has(likely, want)


def _read_with_its_own_tiles(data: bytes, checked: list, truth: list, taught) -> int:
    """The cells right when the photo is read again after all its 16 tiles were remembered from
    it (``checked``: the planet as the player checks it, in the order it was read in) into the box
    ``taught``."""
    lesson = learn_from_scan(data, checked, list(range(16)), taught)
    if not lesson.ok:
        return 0
    again = read_box(data, exemplars_of_box(lesson.box))
    return sum(bench.compare(again.cells, truth)[0]) if again.ok else 0


def _has(tiles: list, want) -> bool:
    return any(bench.content_key(x) == want for x in tiles)


def run(folder: Path, most: int | None = None, remembering_only: bool = False) -> Totals:
    """The totals of one second-box set (``folder`` holds ``teach/`` and ``test/``); ``most``: its
    first photos only; ``remembering_only``: part 2 alone (the other parts' totals stay 0)."""
    t = Totals()
    with tempfile.TemporaryDirectory() as tmp:
        taught, learning = Path(tmp) / "taught", Path(tmp) / "learning"
        bench.learn_box(folder / "teach", taught, quiet=True)
        shutil.copytree(taught, learning)
        box = load_box(learning)
        static = exemplars_in(taught)
        taught_box = load_box(taught)
        again = exemplars_of_box(taught_box)   # as learn_from_scan reads
        photos = [p for p in bench.photos(folder / "test") if bench.load_truth(p.with_suffix(".json"))][:most]
        truths = [bench.load_truth(p.with_suffix(".json")) for p in photos]
        for i, photo in enumerate(photos):
            data, truth = photo.read_bytes(), truths[i]
            t.photos += 1
            t.cells += 16
            read = read_box(data, static)
            if read.ok:
                flags, k = bench.compare(read.cells, truth)
                t.right_taught += sum(flags)
                if not remembering_only:
                    _rows(t, read, truth)
                    t.right_self += _read_with_its_own_tiles(data, _turned(truth, -k), truth, taught_box)
            if not remembering_only:
                _same_planet_checks(t, data, truths, i, again)
            box = _remember_corrections(t, data, truth, box, learning)
    return t


def _same_planet_checks(t: Totals, data: bytes, truths: list, i: int, again) -> None:
    """Part 1 for photo ``i`` (``truths[i]``: its own planet; ``again``: the box as taught, as
    ``learn_from_scan`` reads it)."""
    with one_thread():
        v = read_photo(decode_photo(data), again)
    if v is None or not is_planet(v, again):
        return
    t.planets += 1
    _flags, k = bench.compare([again.names[r] for r in v.rows], truths[i])
    own = _turned(truths[i], -k)
    t.own_agree += _agreeing(v, again, own) >= tuning.SCAN_AGREE
    t.own_same += _same_planet(v, again, own)
    for j, other in enumerate(truths):
        for turn in range(4) if j != i else ():
            cells = _turned(other, turn)
            t.others += 1
            t.others_agree += _agreeing(v, again, cells) >= tuning.SCAN_AGREE
            t.others_same += _same_planet(v, again, cells)


def _remember_corrections(t: Totals, data: bytes, truth: list, box, learning: Path):
    """Part 2 for one photo: read with the box as learned so far (saved in ``learning``), every
    wrong cell corrected and remembered; the box as it is afterwards."""
    now = read_box(data, exemplars_in(learning))
    if not now.ok:
        return box
    flags, k = bench.compare(now.cells, truth)
    t.right_learning += sum(flags)
    checked = _turned(truth, -k)   # the planet as the player checks it, in the reading's order
    corrected = [q for q in range(16) if _content(now.cells[q]) != _content(checked[q])]
    if not corrected:
        return box
    lesson = learn_from_scan(data, checked, corrected, box)
    if not lesson.ok:
        t.refused += 1
        return box
    lesson.box.save(learning)
    t.remembered += len(lesson.learned)
    t.sharper += len(lesson.kept)
    return lesson.box


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.remember_bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", dest="sets", action="append", default=[], metavar="NAME",
                        help=f"a second-box set of sample_photos/ (repeatable): {', '.join(bench.BOX_SETS)}")
    parser.add_argument("--folder", dest="folders", action="append", default=[], type=Path, metavar="DIR",
                        help="a set outside sample_photos/, holding teach/ and test/ (repeatable)")
    parser.add_argument("--most", type=int, default=None, help="each set's first N test photos only")
    parser.add_argument("--remembering-only", action="store_true",
                        help="part 2 alone: a player who corrects and remembers every scan")
    parser.add_argument("--keep-sharper", choices=("on", "off"), default="on",
                        help="REMEMBER_SHARPER: keep a tile's picture when the box's is sharper (default on)")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    unknown = [name for name in args.sets if name not in bench.BOX_SETS]
    if unknown:
        parser.error(f"no such set: {', '.join(unknown)}")
    missing = [str(d) for d in args.folders if not (d / "teach").is_dir() or not (d / "test").is_dir()]
    if missing:
        parser.error(f"not a set (no teach/ and test/ in it): {', '.join(missing)}")
    if not args.sets and not args.folders:
        parser.error("name a set (--set) or a folder (--folder)")
    root = Path(__file__).resolve().parent.parent / "sample_photos"
    was, tuning.REMEMBER_SHARPER = tuning.REMEMBER_SHARPER, args.keep_sharper == "on"
    try:
        for name, folder in [(n, root / n) for n in args.sets] + [(str(d), d) for d in args.folders]:
            totals = run(folder, args.most, args.remembering_only)
            print("\n".join(totals.lines(name, args.remembering_only)), flush=True)
    finally:
        tuning.REMEMBER_SHARPER = was
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
