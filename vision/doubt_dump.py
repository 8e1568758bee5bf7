"""Per-cell dump of a box set's reading, for setting the doubt bar (``tuning.BOX_SURE``).

``python -m vision.doubt_dump OUT.jsonl SETDIR [SETDIR ...]``: each SETDIR (``teach/`` + ``test/``,
as the generator writes them) is learned as ``bench.learn_box`` learns it (no tapped corners) and
each test photo read by ``vision.recognize`` as the bench reads it; one JSON line per cell: the
set, photo, cell (the reading's order), truth (after the bench's best quarter turn), reading,
right, ``other`` (doubtful whatever the sureness bar: the match, an unlearned stack, a back, or the
finer reading's first disagreeing), ``sure`` (the sureness the bar is held against: the final
reading's, and the first reading's when a finer one was kept, the lower), ``character`` (a
corner), ``taught`` (the box learned a tile with the truth's contents: a teaching photo whose
layout was not found leaves its tiles untaught), ``doubtful`` (as read), ``cell_px`` (the side of a cell in
the photo as ``vision.diagnose`` gives it) and the sureness's terms. ``doubtful == other or sure <
BOX_SURE`` is checked for every cell (``look_again`` leaves doubt as it was, and takes its cells at
``LOOK_SURE``, not at the bar shown), so a dump says what any other bar shown would mark. Prints each set's bench totals (cells right,
right-but-doubtful, wrong-not-doubtful) to compare with ``python -m vision.bench``.
Never pass a held-out set (``bench.HELD_OUT_SETS``).
"""
from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np


def dump_set(folder: Path, out) -> dict:
    from . import bench, reader, tuning
    from .diagnose import cell_px
    from .layout import STACK_AT
    from .recognize import recognize
    assert folder.name not in bench.HELD_OUT_SETS, "a held-out set is never dumped"
    calls = {}
    real_conf, real_bounded = reader.confidence, reader.bounded

    def confidence(v, lacking=frozenset(), backs=None, ex=None, bar=None, sure=None):
        conf = real_conf(v, lacking, backs, ex, bar, sure)
        if bar is not None:   # the reader's working bar (LOOK_SURE), not the doubt shown: not dumped
            return conf
        other = real_conf(v, lacking, backs, ex, sure=np.full(16, 1e9, np.float32)) < tuning.DOUBT   # doubtful whatever the sureness
        terms = None
        if ex is not None:
            terms = {"margin": v.margins, "pair": np.minimum(v.pairs, tuning.PAIR_CAP), "sim": v.sims, "fit": v.fits,
                     "photo": np.full(16, float(np.median(v.margins))),
                     "order": reader.order_margins(v, ex) if v.order is not None else np.zeros(16),
                     "hub": np.maximum(reader.hubs(v, ex), tuning.HUB_FLOOR) if v.order is not None else np.zeros(16)}
            terms = {k: np.asarray(x, float).tolist() for k, x in terms.items()}
        calls.setdefault("conf", []).append((reader.sureness(v, ex) if sure is None else sure, other, v.rows, terms,
                                             [ex.names[r] for r in v.rows]))
        return conf

    def bounded(conf, rows, first, ex):
        calls["bounded"] = [ex.contents[a] == ex.contents[b] for a, b in zip(rows, first[0])]
        return real_bounded(conf, rows, first, ex)

    totals = {"cells_total": 0, "cells_right": 0, "right_doubtful": 0, "wrong_not_doubtful": 0, "wrong": 0,
              "planets": 0, "refused_planets": 0, "mismatch": 0}
    with tempfile.TemporaryDirectory() as tmp:
        bench.learn_box(folder / "teach", Path(tmp), quiet=True)
        taught = {bench.content_key(n) for n in reader.exemplars_in(tmp).names}   # what the box learned
        reader.confidence, reader.bounded = confidence, bounded
        try:
            for p in bench.photos(folder / "test"):
                truth = bench.load_truth(p.with_suffix(".json"))
                calls.clear()
                reading = recognize(p.read_bytes(), reference=tmp)
                if truth is None:
                    continue
                totals["planets"] += 1
                totals["cells_total"] += 16
                if not reading.ok:
                    totals["refused_planets"] += 1
                    totals["wrong"] += 16
                    continue
                sure, other, rows, terms, names = calls["conf"][-1]
                sure, other = np.array(sure, float), np.array(other, bool)
                if "bounded" in calls:   # the finer reading's doubt no surer than the first's
                    s0, o0 = np.array(calls["conf"][-2][0], float), np.array(calls["conf"][-2][1], bool)
                    same = np.array(calls["bounded"], bool)
                    sure = np.minimum(sure, s0)
                    other = other | o0 | ~same
                right, k = bench.compare(reading.cells, truth)
                at = bench.rotations(list(range(16)))[k]   # at[pos]: the reading's cell at the truth's pos
                for pos, q in enumerate(at):
                    doubt = bool(reading.doubtful[q])
                    predicted = bool(other[q] or sure[q] < tuning.BOX_SURE)
                    totals["mismatch"] += predicted != doubt
                    ok = bool(right[pos])
                    totals["cells_right"] += ok
                    totals["right_doubtful"] += ok and doubt
                    totals["wrong"] += not ok
                    totals["wrong_not_doubtful"] += (not ok) and not doubt
                    rec = {"set": folder.name, "photo": p.name, "cell": q, "truth": truth[pos], "read": reading.cells[q],
                           "first": names[q], "right": ok, "doubtful": doubt, "other": bool(other[q]),
                           "sure": round(float(sure[q]), 4), "character": STACK_AT[q] == "character",
                           "bounded": "bounded" in calls, "taught": bench.content_key(truth[pos]) in taught,
                           "cell_px": round(cell_px(reading), 1)}
                    if terms is not None:
                        rec["terms"] = {key: round(x[q], 4) for key, x in terms.items()}
                    if "bounded" in calls and calls["conf"][-2][3] is not None:   # the first reading's terms
                        rec["terms0"] = {key: round(x[q], 4) for key, x in calls["conf"][-2][3].items()}
                    out.write(json.dumps(rec) + "\n")
        finally:
            reader.confidence, reader.bounded = real_conf, real_bounded
    return totals


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) < 2:
        print(__doc__)
        return 2
    from . import tuning
    with open(args[0], "a") as out:
        for name in args[1:]:
            t = time.time()
            r = dump_set(Path(name), out)
            out.flush()
            print(f"{Path(name).name:<15} cells {r['cells_right']}/{r['cells_total']}  "
                  f"right-but-doubtful {r['right_doubtful']}/{r['cells_right']}  "
                  f"wrong-not-doubtful {r['wrong_not_doubtful']}/{r['wrong']}  refused planets {r['refused_planets']}  "
                  f"doubt not as predicted {r['mismatch']}  (BOX_SURE {tuning.BOX_SURE})  {time.time() - t:.0f} s",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
