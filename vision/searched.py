"""A doubtful cell compared with its likeliest tiles at a finer size, each picture searched over
small zooms and turns as well as shifts (``reader.look_searched``). No Flask.

The match compares a tile at ``CELL_PX`` (48 px), blurred, slid and turned a little. On art it
was not tuned on, whose items are small line drawings, tiles that share an edge stack's planet
arc and differ in those items are told apart little better than by chance, and a tile lying a
few degrees turned or a tenth larger or smaller than teaching cut it matches a look-alike as well
as itself. Here the cell and each picture are taken at ``SEARCH_PX`` as their grey less its wide
blur (``detail``), and each picture is matched over ``SEARCH_ZOOMS`` × ``SEARCH_TURNS`` and every
shift within the cell's pad (normalised cross-correlation): first at half that size for the
best zoom and turn, then at the full size at the ``SEARCH_KEEP`` best of them.

Where the picture fits best, it is then compared with the cell block by block (``by_blocks``,
``SEARCH_BY_BLOCKS``; stop 59). One correlation over the whole picture is most of all the planet's
arc, dark and light, which every tile of an edge stack shares: two tiles that differ in one small
item read within 0.005 of each other (9328's D13 and D14: 0.991, 0.987), and blur or a loose cut
decides. Each block's own correlation counts the items in it as much as the arc counts in its
blocks; each block slides a little on its own (a picture taught from another photo is not drawn
the same to the pixel), and blocks weigh by how much their picture shows. The score is half the
whole picture's correlation and half the blocks' (``SEARCH_WHOLE_PART``): on variant H's dim,
filled art the small blocks' correlations follow the noise, and the blocks alone read it worse.
"""
from __future__ import annotations

import cv2
import numpy as np

from . import tuning

FLAT = 1e-3   # a picture's detail spread (grey levels) under which it shows nothing


def detail(img: np.ndarray) -> np.ndarray:
    """A BGR picture's grey (float32) at its own size, blurred by ``SEARCH_BLUR[0]`` of a tile
    less its blur by ``SEARCH_BLUR[1]`` (the light across it taken out)."""
    grey = cv2.cvtColor(np.clip(img, 0, 255).astype(np.uint8), cv2.COLOR_BGR2GRAY).astype(np.float32)
    fine, wide = (b * tuning.SEARCH_PX for b in tuning.SEARCH_BLUR)
    return cv2.GaussianBlur(grey, (0, 0), fine) - cv2.GaussianBlur(grey, (0, 0), wide)


def _turned(picture: np.ndarray, zoom: float, turn: float) -> np.ndarray:
    """``picture`` zoomed and turned about its middle, less its border (an eighth of its side:
    what a turn or a loose neighbour changes)."""
    s = int(round(picture.shape[0] * zoom))
    t = cv2.resize(picture, (s, s), interpolation=cv2.INTER_AREA)
    if turn:
        t = cv2.warpAffine(t, cv2.getRotationMatrix2D((s / 2, s / 2), turn, 1.0), (s, s),
                           borderMode=cv2.BORDER_REFLECT)
    i = s // 8
    return np.ascontiguousarray(t[i:s - i, i:s - i])


class Picture:
    """A tile's picture (``detail`` at ``SEARCH_PX``) as the search takes it: every zoom and
    turn at half size, made once (kept with the box: about 0.2 MB a tile), and at full size
    made when asked for (the ``SEARCH_KEEP`` best of a cell's search: each 0.05 ms, not kept).
    ``flat``: a picture with nothing on it, which the normalised correlation would rate 1.0
    against anything (teaching refuses plain faces; a picture so washed out is never taken)."""

    def __init__(self, picture: np.ndarray):
        self.full = picture
        self.flat = float(picture.std()) < FLAT
        half = cv2.resize(picture, (picture.shape[1] // 2, picture.shape[0] // 2), interpolation=cv2.INTER_AREA)
        self.ways = [(z, a) for z in tuning.SEARCH_ZOOMS for a in tuning.SEARCH_TURNS]
        self.half = [_turned(half, z, a) for z, a in self.ways]

    def at_full(self, k: int) -> np.ndarray:
        return _turned(self.full, *self.ways[k])


def _best(window: np.ndarray, template: np.ndarray) -> float:
    return float(cv2.matchTemplate(window, template, cv2.TM_CCOEFF_NORMED).max())


def _best_at(window: np.ndarray, template: np.ndarray) -> tuple[float, int, int]:
    """The template's best normalised correlation in ``window``, and where (y, x) its top-left lies."""
    _, m, _, (x, y) = cv2.minMaxLoc(cv2.matchTemplate(window, template, cv2.TM_CCOEFF_NORMED))
    return float(m), y, x


def by_blocks(window: np.ndarray, template: np.ndarray, y: int, x: int) -> float:
    """``template`` (a picture at its zoom and turn) placed with its top-left at (y, x) of
    ``window``, compared block by block: the picture cut into ``SEARCH_BLOCKS`` × ``SEARCH_BLOCKS``
    blocks, each block's best normalised correlation within ``SEARCH_BLOCK_SHIFT`` of where it
    lies, averaged weighted by the block's spread (a block of plain face says little, one with
    nothing on it nothing; ``SEARCH_BLOCKS_BY_SPREAD`` off: all alike). Blocks whose reach leaves
    the window are left out; -1 when the blocks left show nothing (their spreads add up to under
    ``FLAT``)."""
    n = template.shape[0]
    b = n // tuning.SEARCH_BLOCKS
    s = int(round(tuning.SEARCH_BLOCK_SHIFT * tuning.SEARCH_PX))
    total = weight = 0.0
    for i in range(tuning.SEARCH_BLOCKS):
        for j in range(tuning.SEARCH_BLOCKS):
            tb = template[i * b:(i + 1) * b, j * b:(j + 1) * b]
            w = float(tb.std()) if tuning.SEARCH_BLOCKS_BY_SPREAD else 1.0
            y0, x0 = y + i * b - s, x + j * b - s
            wb = window[max(0, y0):y0 + b + 2 * s, max(0, x0):x0 + b + 2 * s]
            if wb.shape[0] < b or wb.shape[1] < b:
                continue
            total += w * _best(wb, tb)
            weight += w
    return total / weight if weight > FLAT else -1.0


def searched(window: np.ndarray, pictures: list[Picture]) -> np.ndarray:
    """(k,) each picture's best correlation anywhere in ``window`` (the cell's ``detail`` at
    ``SEARCH_PX``, with its pad) over its zooms and turns: all of them at half size, the
    ``SEARCH_KEEP`` best again at full size; with ``SEARCH_BY_BLOCKS``, the picture at its best
    zoom, turn and place then compared block by block as well (``by_blocks``), and its score
    ``SEARCH_WHOLE_PART`` of that best correlation, the rest of the blocks'."""
    half = cv2.resize(window, (window.shape[1] // 2, window.shape[0] // 2), interpolation=cv2.INTER_AREA)
    out = np.empty(len(pictures), np.float32)
    for i, p in enumerate(pictures):
        if p.flat:
            out[i] = -1.0
            continue
        coarse = np.array([_best(half, t) for t in p.half])
        keep = np.argsort(-coarse)[:tuning.SEARCH_KEEP]
        fits = [(*_best_at(window, t), t) for t in (p.at_full(int(k)) for k in keep)]
        whole, y, x, t = max(fits, key=lambda f: f[0])   # the first best, as max over the scores
        w = tuning.SEARCH_WHOLE_PART
        out[i] = w * whole + (1 - w) * by_blocks(window, t, y, x) if tuning.SEARCH_BY_BLOCKS else whole
    return out
