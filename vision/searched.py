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


def searched(window: np.ndarray, pictures: list[Picture]) -> np.ndarray:
    """(k,) each picture's best correlation anywhere in ``window`` (the cell's ``detail`` at
    ``SEARCH_PX``, with its pad) over its zooms and turns: all of them at half size, the
    ``SEARCH_KEEP`` best again at full size."""
    half = cv2.resize(window, (window.shape[1] // 2, window.shape[0] // 2), interpolation=cv2.INTER_AREA)
    out = np.empty(len(pictures), np.float32)
    for i, p in enumerate(pictures):
        if p.flat:
            out[i] = -1.0
            continue
        coarse = np.array([_best(half, t) for t in p.half])
        keep = np.argsort(-coarse)[:tuning.SEARCH_KEEP]
        out[i] = max(_best(window, p.at_full(int(k))) for k in keep)
    return out
