"""What reading a photo gives: ``Reading`` (the planet's 16 cells, or why there is none)."""
from __future__ import annotations

from dataclasses import dataclass, field

from scorer.i18n import N_

NO_PLANET = N_("I could not find a planet in this photo. Lay the 16 tiles in a 4×4 square, "
             "take the photo from above with the whole planet in view, and try again.")
TOO_SMALL = N_("The photo is too small to read a planet from.")


@dataclass
class Reading:
    ok: bool
    cells: list = field(default_factory=lambda: [None] * 16)        # tile id, "back" or None
    confidences: list = field(default_factory=lambda: [0.0] * 16)
    doubtful: list = field(default_factory=lambda: [True] * 16)
    error: str | None = None
    ms: int = 0
    score: float = 0.0            # how much the photo looks like a planet (mean cell match)
    # the planet's corners in the upright photo's pixels: cell 0's outer corner, then those of
    # cells 3, 15 and 12 (the grid as read, so a picture straightened from them shows it turned so)
    quad: list | None = None
    details: dict | None = None   # per cell: match and margin (for tuning; not in the JSON)
    # per cell: the next likeliest tiles, best first (``likely_tiles``); the review's picker shows
    # them first (not in the JSON: SPEC's reading is cells, confidence and doubt)
    likely: list = field(default_factory=lambda: [[] for _ in range(16)])

    def grid(self) -> dict:
        return {"cells": [self.cells[r * 4:(r + 1) * 4] for r in range(4)]}

    def as_json(self) -> dict:
        if not self.ok:
            return {"ok": False, "error": self.error, "ms": self.ms}
        rows = []
        for r in range(4):
            rows.append([{"tile": self.cells[p], "confidence": round(float(self.confidences[p]), 3),
                          "doubtful": bool(self.doubtful[p])} for p in range(r * 4, r * 4 + 4)])
        return {"ok": True, "cells": rows, "ms": self.ms}

    def describe(self) -> str:
        if not self.ok:
            return self.error or "no reading"
        lines = []
        for r in range(4):
            lines.append("  ".join(
                f"{(self.cells[p] or '-'):>4}{'?' if self.doubtful[p] else ' '}{self.confidences[p]:.2f}"
                for p in range(r * 4, r * 4 + 4)))
        return "\n".join(lines)


LIKELY = 4   # the picker's first row (4 columns): the first likely tiles still free on the planet
# (the 13 seen sets' wrong cells, stop 39: the right tile among the first 1, 3, 4: 38%, 65%, 72%)
LIKELY_KEPT = 8   # the likely tiles a reading keeps per cell: the first row skips tiles the planet
# already uses elsewhere (the picker greys them) and takes the next ones instead. The 13 seen sets'
# 351 wrong cells, stop 40 (/tmp/s40/rowcmp.py on `vision.bench --readings`): the right tile in a
# first row of the first 4 likely 252, of which 24 greyed (228 could be tapped); in the first 4
# free of 8: 241; among all 8: 306.


def first_row(likely, taken, alike, most: int = LIKELY) -> list:
    """The likely tiles a picker shows first for a square: the first ``most`` of ``likely`` that
    can still be put there, i.e. some tile that looks the same (``alike(name)``: the ids with its
    contents, itself included) is not ``taken`` by another square."""
    return [t for t in likely if any(i not in taken for i in alike(t))][:most]


def likely_tiles(candidates, chosen, contents, most: int = LIKELY_KEPT) -> list:
    """Per cell, up to ``most`` tiles the reader found likeliest after the one it chose, best first:
    ``candidates`` per cell (name, score) pairs of the tiles that may lie there, ``chosen`` per cell
    the name read, ``contents`` a name's contents (tiles that look the same share them). A tile
    that looks like the chosen one, or like one already listed, is left out: the picker shows
    tiles with the same contents as one choice."""
    out = []
    for cands, name in zip(candidates, chosen):
        seen = {contents(name)} if name is not None else set()
        picked = []
        for other, _ in sorted(cands, key=lambda t: -t[1]):   # a stable sort: ties keep their order
            c = contents(other)
            if c in seen:
                continue
            seen.add(c)
            picked.append(other)
            if len(picked) == most:
                break
        out.append(picked)
    return out
