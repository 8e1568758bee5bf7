"""Issue 8's floors on photo sets nobody has seen: ``python -m vision.fresh --seeds 46-53``.

Each seed's set is made afresh by the second box's generator (``python -m vision.samples_box DIR
--seed S --variant V --count N --empty E``: the same photos, byte for byte), the box learned from its
six teaching photos as ``vision.bench`` learns them, and every test photo read once. Only totals are
printed, never a photo's name or reading (a fresh set is evidence only while nobody has looked into
it): per seed one line with issue 8's floors met or missed, then the seeds together.

    python -m vision.fresh --seeds 46-53 [--variant A] [--count 30] [--empty 4] [--jobs 2] [--keep DIR]
    python -m vision.fresh --seeds 9757-9764 --art shipped --count 0 --empty 0 --beside 40 --jobs 2
    python -m vision.fresh --seeds 46-53 --read DIR     # sets kept by --keep DIR, read again as they are

``--beside N`` adds N photos of a planet with a neighbour's planet beside it on the table (issue 8's
full conditions: tilt up to 30°, the planet from a quarter of the short side, through a phone's
lens; with the second box's art the whole set is then made through that lens, as
``samples_box --lens 53`` makes it), and the totals count the photos where the neighbour's planet was
read instead. ``--art shipped`` makes the sets from the shipped art (``python -m vision.samples``,
nothing to learn) and reads them with it.

Made to be run on seeds the reader was never tuned on (the team's check); ``--keep DIR`` keeps the
sets (``DIR/seedS``; nothing kept by default). Generating a set of 30 + 4 photos takes ~80 s of one
core, reading it ~15 s; ``--jobs`` makes that many sets at once. Exit 0 when every set meets the
floors, 1 when one misses them, 2 on a bad argument.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from pathlib import Path

from .bench import FLOORS, floors_missed, learn_box, run
from .samples import BESIDE_FILL, BESIDE_TILT, PHONE_LENS

# the figures a set's totals are made of (``bench.run``'s keys), added up over the seeds
TOTALS = ("cells_right", "cells_total", "planets", "planets_scored", "planets_refused", "empties", "refused",
          "wrong", "wrong_not_doubtful", "right_doubtful", "neighbour_read")
# the photos with a neighbour's planet: through a phone's lens, issue 8's full tilt and smallest
# planet (``samples.BESIDE_TILT``, ``BESIDE_FILL``), with either art
# the floors a fresh set is held to: issue 8's (the share of right cells doubtful is not one of them)
FRESH_FLOORS = FLOORS


def seeds_of(text: str) -> list[int]:
    """``"46-53,60"`` -> [46, ..., 53, 60]. Raises ValueError with a message for a person."""
    seeds: list[int] = []
    for part in text.split(","):
        part = part.strip()
        lo, sep, hi = part.partition("-")
        try:
            first, last = int(lo), int(hi) if sep else int(lo)
        except ValueError:
            raise ValueError(f"{part!r} is not a seed or a range of seeds (e.g. 46-53,60)") from None
        if first < 0 or last < first:
            raise ValueError(f"{part!r}: a range goes from a seed to a larger one, both 0 or more")
        seeds.extend(range(first, last + 1))
    if len(set(seeds)) != len(seeds):
        raise ValueError("a seed is given twice")
    return seeds


def make_set(folder: Path, seed: int, variant: str, count: int, empty: int, beside: int = 0,
             art: str = "box") -> Path:
    """The generator's set for ``seed``, written under ``folder`` (its own command's photos):
    ``folder/teach`` and ``folder/test`` for the second box's art, ``folder/test`` alone for the
    shipped art (``art="shipped"``; ``variant`` is then not used)."""
    import io
    from contextlib import redirect_stdout

    from . import samples, samples_box
    near = ["--beside", str(beside), "--beside-tilt", f"{BESIDE_TILT:g}",
            "--beside-fill", ",".join(f"{x:g}" for x in BESIDE_FILL)] if beside else []
    with redirect_stdout(io.StringIO()):   # it lists every file written: not a total
        if art == "shipped":   # its photos with a neighbour are taken through a phone's lens in any case
            samples.main([str(folder / "test"), "--seed", str(seed), "--count", str(count), "--empty", str(empty)]
                         + near)
        else:   # the generator's lens is the whole set's
            samples_box.main([str(folder), "--seed", str(seed), "--variant", variant, "--count", str(count),
                              "--empty", str(empty)] + near + (["--lens", f"{PHONE_LENS:g}"] if beside else []))
    return folder


def read_set(folder: Path, reader=None) -> dict:
    """The set learned and read as ``vision.bench`` does (each photo once; ``reader``: another than
    ``vision.recognize``), its totals, and how many teaching photos' layouts were not found."""
    if not (folder / "teach").is_dir():   # the shipped art's: nothing to learn
        r = run(folder / "test", reader=reader)
        return {**{k: r[k] for k in TOTALS}, "not_learned": 0}
    with tempfile.TemporaryDirectory() as box:
        _secs, missed, _tapped = learn_box(folder / "teach", Path(box), quiet=True)
        r = run(folder / "test", reference=box, reader=reader)
    return {**{k: r[k] for k in TOTALS}, "not_learned": len(missed)}


def line(name: str, t: dict) -> str:
    """One set's (or the seeds') totals and issue 8's floors, no photo named."""
    missed = floors_missed(t, FRESH_FLOORS)
    cells = 100 * t["cells_right"] / max(1, t["cells_total"])
    scored = 100 * t["planets_scored"] / max(1, t["planets"])
    return (f"{name:<10} cells {t['cells_right']}/{t['cells_total']} = {cells:.2f}%  "
            f"scored {t['planets_scored']}/{t['planets']} = {scored:.1f}%  planets refused {t['planets_refused']}  "
            f"no-planet refused {t['refused']}/{t['empties']}  "
            f"wrong-not-doubtful {t['wrong_not_doubtful']}/{t['wrong']}  "
            f"right-but-doubtful {t['right_doubtful']}/{t['cells_right']}  layouts not found {t['not_learned']}  "
            f"neighbour's planet read {t['neighbour_read']}  "
            + ("floors met" if not missed else "MISSED: " + "; ".join(missed)))


def _one(args: tuple) -> dict:
    seed, variant, count, empty, beside, art, keep, again = args
    if again is not None:   # a set kept before (--keep), read again as it is
        return read_set(Path(again) / f"seed{seed}")
    if keep is not None:
        return read_set(make_set(Path(keep) / f"seed{seed}", seed, variant, count, empty, beside, art))
    with tempfile.TemporaryDirectory() as tmp:
        return read_set(make_set(Path(tmp), seed, variant, count, empty, beside, art))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.fresh", description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", required=True, help="seeds to make and read, e.g. 46-53 or 46,48,50-52")
    ap.add_argument("--variant", choices=tuple("ABCDEFGHIJKLMNOPQ"), default="A",
                    help="the generator's art and light (A: the second box's own)")
    ap.add_argument("--count", type=int, default=30, help="planet photos per set (default 30)")
    ap.add_argument("--empty", type=int, default=4, help="photos without a planet per set (default 4)")
    ap.add_argument("--beside", type=int, default=0,
                    help="photos with a neighbour's planet beside the one photographed, per set (default 0)")
    ap.add_argument("--art", choices=("box", "shipped"), default="box",
                    help="the second box's art, learned from each set's teaching photos (default), or the shipped art")
    ap.add_argument("--jobs", type=int, default=1, help="sets made and read at once (default 1)")
    ap.add_argument("--keep", type=Path, metavar="DIR", help="keep each set in DIR/seedS (default: none kept)")
    ap.add_argument("--read", type=Path, metavar="DIR",
                    help="read the sets kept in DIR/seedS by an earlier --keep again, as they are (to compare "
                         "two versions of the code on the same photos), instead of making them")
    a = ap.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        seeds = seeds_of(a.seeds)
    except ValueError as exc:
        ap.error(str(exc))
    if a.read is not None:
        if a.keep is not None:
            ap.error("--read reads kept sets as they are; --keep makes them: give one")
        missing = [s for s in seeds if not (a.read / f"seed{s}" / "test").is_dir()]
        if missing:
            ap.error(f"no kept set in {a.read} for seed {', '.join(map(str, missing))} (made with --keep {a.read})")
    if a.count < 0 or a.empty < 0 or a.beside < 0 or a.jobs < 1 or a.count + a.beside < 1:
        ap.error("--count, --empty and --beside are 0 or more, with a planet photo at least; --jobs 1 or more")
    art = "the shipped art" if a.art == "shipped" else f"variant {a.variant}"
    near = f" + {a.beside} with a neighbour's planet" if a.beside else ""
    made = (f"the sets kept in {a.read}" if a.read is not None
            else f"fresh sets of {art}, {a.count} planets{near} + {a.empty} without")
    print(f"{made}, seeds {a.seeds}: totals only", flush=True)
    work = [(s, a.variant, a.count, a.empty, a.beside, a.art, a.keep, a.read) for s in seeds]
    together = dict.fromkeys(TOTALS + ("not_learned",), 0)
    met = 0
    with ProcessPoolExecutor(max_workers=a.jobs) if a.jobs > 1 else nullcontext() as pool:
        for seed, t in zip(seeds, (pool.map if pool is not None else map)(_one, work)):
            print(line(f"seed {seed}", t), flush=True)
            met += not floors_missed(t, FRESH_FLOORS)
            for k in together:
                together[k] += t[k]
    print(line("together", together))
    print(f"sets meeting issue 8's floors: {met}/{len(seeds)}")
    return 0 if met == len(seeds) else 1


if __name__ == "__main__":
    sys.exit(main())
