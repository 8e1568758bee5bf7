"""Where the learned-box reader goes wrong, photo by photo: ``python -m vision.diagnose SET``.

``SET`` is a second-box folder (``sample_photos/box2``: ``teach/`` and ``test/``). The box is
learned from ``teach/`` first. For each test photo whose truth JSON carries ``corners`` (where
the generator put the planet's lattice, ``vision.samples.take_photo``) it prints:

- the outline: the largest distance of a found corner from the true one, as a part of a cell;
- the quarter turn the reading came back in (the corner the reader took as its first);
- per cell: the true tile, the tile read, similarity, margin, and the cell's side in pixels of
  the image the cells were cut from;

and a table of where the wrong cells come from: a wrong outline (a corner off by more than a
quarter cell), small cells, look-alikes (a wrong cell whose true tile was the runner-up).
"""
from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import numpy as np

from .bench import content_key, learn_box, photos
from .reader import exemplars_in, read_box


def _cells(path: Path) -> tuple[list, np.ndarray | None]:
    t = json.loads(path.read_text())
    if t.get("planet", "x") is None or "cells" not in t:
        return [], None
    corners = np.float32(t["corners"]) if "corners" in t else None
    return [c for row in t["cells"] for c in row], corners


def _match_corners(found: np.ndarray, truth: np.ndarray) -> tuple[int, float]:
    """The cyclic shift k with found[i] ≈ truth[(i + k) % 4], and the worst distance (pixels)."""
    best = (0, float("inf"))
    for k in range(4):
        d = float(np.linalg.norm(found - np.roll(truth, -k, axis=0), axis=1).max())
        if d < best[1]:
            best = (k, d)
    return best


def _turned(cells16: list, k: int) -> list:
    """The reading's cells in the truth's order when its first corner is the truth's corner k
    (0: cell 0's, 1: cell 3's, 2: cell 15's, 3: cell 12's)."""
    g = np.array(cells16, dtype=object).reshape(4, 4)
    return list(np.rot90(g, -k).reshape(-1))


def _cell_side(quad: np.ndarray) -> float:
    """A cell's side in ``quad``'s pixels: the quad's mean side over 4."""
    return float(np.mean([np.linalg.norm(quad[i] - quad[(i + 1) % 4]) for i in range(4)])) / 4


def cell_px(reading) -> float:
    """The side of a cell of ``reading``'s outline (pixels): its quad's mean side over 4, divided
    by the reading's ``details["scale"]`` when it has one (``diagnose``'s cell_px column)."""
    side = _cell_side(np.float32(reading.quad))
    scale = (reading.details or {}).get("scale")
    return side / float(scale) if scale else side


def diagnose(folder: Path, reference: Path) -> list[dict]:
    ex = exemplars_in(reference)
    rows = []
    for p in photos(folder / "test"):
        truth, corners = _cells(p.with_suffix(".json"))
        if not truth:
            continue
        r = read_box(p.read_bytes(), ex)
        row = {"photo": p.name, "ok": r.ok, "outline_err": None, "turn": None, "cells": []}
        if not r.ok:
            rows.append(row)
            continue
        quad = np.float32(r.quad)
        side = _cell_side(quad)
        if corners is not None:
            k, d = _match_corners(quad, corners)
            row["outline_err"] = d / side
            row["turn"] = k
        else:
            k = 0
        d = r.details or {}
        row["cell_px"] = round(cell_px(r), 1)
        read = _turned(r.cells, k)
        sims = _turned(d.get("sims", [0.0] * 16), k)
        margins = _turned(d.get("margins", [0.0] * 16), k)
        doubt = _turned(r.doubtful, k)
        for q in range(16):
            row["cells"].append({"pos": q, "true": truth[q], "read": read[q],
                                 "right": content_key(truth[q]) == content_key(read[q]),
                                 "sim": round(float(sims[q]), 3), "margin": round(float(margins[q]), 3),
                                 "doubtful": bool(doubt[q])})
        rows.append(row)
    return rows


def table(rows: list[dict]) -> str:
    lines = ["photo  outline_err(cells)  turn  cell_px  wrong  wrong_not_doubtful"]
    causes = {"refused": 0, "outline": 0, "small cells (<40 px)": 0, "other": 0}
    for row in rows:
        if not row["ok"]:
            lines.append(f"{row['photo']}  refused")
            causes["refused"] += 16
            continue
        wrong = [c for c in row["cells"] if not c["right"]]
        wnd = sum(not c["doubtful"] for c in wrong)
        err = row["outline_err"]
        lines.append(f"{row['photo']}  {err if err is None else round(err, 2)!s:>8}  {row['turn']}  "
                     f"{row['cell_px']:>6}  {len(wrong):>3}  {wnd:>3}")
        if err is not None and err > 0.25:
            causes["outline"] += len(wrong)
        elif row["cell_px"] < 40:
            causes["small cells (<40 px)"] += len(wrong)
        else:
            causes["other"] += len(wrong)
    lines.append("wrong cells by cause: " + ", ".join(f"{k}: {v}" for k, v in causes.items()))
    return "\n".join(lines)


def margins(rows: list[dict]) -> str:
    """How the margins of right and wrong cells spread (what doubt can tell apart)."""
    cells = [c for row in rows for c in row["cells"]]
    out = []
    for label, group in (("right", [c["margin"] for c in cells if c["right"]]),
                         ("wrong", [c["margin"] for c in cells if not c["right"]])):
        if group:
            q = np.percentile(group, [5, 25, 50, 75, 95, 100])
            out.append(f"margins of {label} cells ({len(group)}): 5/25/50/75/95/100% = "
                       + " ".join(f"{v:.3f}" for v in q))
    return "\n".join(out)


def main(argv=None) -> int:
    """Learn ``SET/teach`` and print where the reader goes wrong on ``SET/test``, photo by photo."""
    import argparse
    parser = argparse.ArgumentParser(prog="python -m vision.diagnose", description=main.__doc__)
    parser.add_argument("folder", nargs="?", type=Path, default=Path("sample_photos/box2"),
                        help="a second-box set with teach/ and test/ (default: sample_photos/box2)")
    parser.add_argument("-v", dest="verbose", action="store_true", help="every wrong cell")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    folder, verbose = args.folder, args.verbose
    missing = [part for part in ("teach", "test") if not (folder / part).is_dir()]
    if missing:
        parser.error(f"{folder} has no {' and no '.join(p + '/' for p in missing)} folder: give a second-box set")
    with tempfile.TemporaryDirectory() as tmp:
        secs = learn_box(folder / "teach", Path(tmp))[0]
        print(f"learned {folder}/teach in {secs:.1f} s")
        rows = diagnose(folder, Path(tmp))
    if verbose:
        for row in rows:
            for c in row["cells"]:
                if not c["right"]:
                    print(f"  {row['photo']} pos {c['pos']:>2}: {c['true']} read {c['read']} "
                          f"sim {c['sim']} margin {c['margin']} {'doubtful' if c['doubtful'] else 'SURE'}")
    print(table(rows))
    print(margins(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
