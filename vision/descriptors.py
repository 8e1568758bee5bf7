"""Other ways to compare an aligned tile with a learned box's tiles, and how a box picks its own.

The reader's ``stages.match`` compares "details" (a tile less its stack's mean, blurred) with
matched filters: it reads the art it was tuned on well and other art styles less well (hollow
line drawings under an HDR look: heldout8). ``hog`` describes a tile by where its edges run
(orientation histograms of the log-grey, so light and exposure drop out), which reads such art
better and box2's filled pictures worse. Neither fits every art style, so a box chooses from its
own tiles (``choose_blend``): each learned tile is shown again as a camera might (``views``:
neighbours round it, a small shift, turn and scale, blur, a tone curve, a colour cast, noise,
JPEG), each view is aligned and matched as the reader does, and the blend of the two
similarities that tells the views from their stack's other tiles best is kept.
"""
from __future__ import annotations

import cv2
import numpy as np

from . import tuning
from .layout import STACK_AT
from .stages import Cells, align_cells, light_free, match

HOG_BINS = 9
HOG_CELL = 6


def hog(tiles: np.ndarray) -> np.ndarray:
    """(k, CELL_PX, CELL_PX, 3) aligned tiles -> (k, D) unit rows (mean taken off): orientation
    histograms (``HOG_BINS`` unsigned bins, linear between bins) of the log-grey's gradient in
    ``HOG_CELL`` px cells over the tile's inner part, square-rooted."""
    tiles = np.asarray(tiles, np.float32)
    k, s = tiles.shape[0], tiles.shape[1]
    i = int(s * 0.12)
    n = (s - 2 * i) // HOG_CELL
    # the k tiles one above the other, filtered as one picture (the blur and Sobel reach 4 px:
    # less than the border of i px left out of each)
    grey = light_free(cv2.cvtColor(tiles.reshape(-1, s, 3), cv2.COLOR_BGR2GRAY), 8.0)
    g = cv2.GaussianBlur(grey, (0, 0), 1.0)
    cut = slice(i, i + n * HOG_CELL)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3).reshape(k, s, s)[:, cut, cut]
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3).reshape(k, s, s)[:, cut, cut]
    mag = np.sqrt(gx * gx + gy * gy)
    ang = (np.arctan2(gy, gx) % np.pi) / np.pi * HOG_BINS          # [0, bins)
    b0 = np.floor(ang).astype(np.int64)
    up = ang - b0                                                  # the share of the next bin
    b0 %= HOG_BINS
    cell = _cell_index(k, n)                                       # per pixel: its (tile, cell)
    hist = np.bincount((cell + b0).ravel(), (mag * (1 - up)).ravel(), k * n * n * HOG_BINS)
    hist += np.bincount((cell + (b0 + 1) % HOG_BINS).ravel(), (mag * up).ravel(), k * n * n * HOG_BINS)
    v = np.sqrt(hist).reshape(k, -1)
    v = v - v.mean(axis=1, keepdims=True)
    return (v / (np.linalg.norm(v, axis=1, keepdims=True) + 1e-6)).astype(np.float32)


_CELLS: dict = {}


def _cell_index(k: int, n: int) -> np.ndarray:
    """(k, n·HOG_CELL, n·HOG_CELL): each pixel's histogram, times HOG_BINS (kept per k, n)."""
    if (k, n) not in _CELLS:
        m = n * HOG_CELL
        yy, xx = np.mgrid[0:m, 0:m] // HOG_CELL
        one = (yy * n + xx) * HOG_BINS
        _CELLS[(k, n)] = (one[None] + (np.arange(k) * n * n * HOG_BINS)[:, None, None]).astype(np.int64)
    return _CELLS[(k, n)]


def hog_sims(tiles: np.ndarray, table: np.ndarray, rows_of: dict) -> np.ndarray:
    """(16, n): each aligned tile's ``hog`` against each exemplar row its position allows (others -1)."""
    h = hog(tiles)
    sims = np.full((16, len(table)), -1.0, np.float32)
    for st, rows in rows_of.items():
        if not rows:
            continue
        cells = [q for q in range(16) if STACK_AT[q] == st]
        r = np.array(rows)
        sims[np.ix_(cells, r)] = h[cells] @ table[r].T
    return sims


def blended(base: np.ndarray, other: np.ndarray, w: float) -> np.ndarray:
    """``base`` + ``w`` × (``other`` − its mean over the allowed rows of each cell): the match
    keeps its scale (the doubt's bars are set on it); the other descriptor only reorders."""
    if w == 0:
        return base
    allowed = base > -1
    cnt = np.maximum(allowed.sum(axis=1, keepdims=True), 1)
    mean = np.where(allowed, other, 0).sum(axis=1, keepdims=True) / cnt
    return np.where(allowed, base + w * (other - mean), base).astype(np.float32)


# --- views of a box's own tiles, as a camera might show them ------------------------------

def _view(rng, mosaic: np.ndarray, src: int, win: int, tile: int) -> np.ndarray:
    """The middle tile of a 3×3 ``mosaic`` (tiles ``src`` px) cut as a cell window (``win`` px,
    the tile ``tile`` px in it), moved, turned and scaled a little, then blurred, toned, cast,
    noised and JPEG-compressed."""
    f = tile / src
    c = 1.5 * src
    a = rng.uniform(-4, 4)
    sc = f * rng.uniform(0.94, 1.06)
    M = cv2.getRotationMatrix2D((c, c), a, sc)
    M[0, 2] += win / 2 - c + rng.uniform(-0.08, 0.08) * tile
    M[1, 2] += win / 2 - c + rng.uniform(-0.08, 0.08) * tile
    img = cv2.warpAffine(mosaic, M, (win, win), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REFLECT)
    img = img.astype(np.float32)
    low = int(rng.integers(int(0.45 * win), win + 1))  # fewer pixels than the cell: a small planet
    img = cv2.resize(cv2.resize(img, (low, low), interpolation=cv2.INTER_AREA), (win, win),
                     interpolation=cv2.INTER_LINEAR)
    img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.5))
    img += rng.uniform(0, 0.6) * (img - cv2.GaussianBlur(img, (0, 0), rng.uniform(2, 6)))  # local contrast
    img = 255 * (np.clip(img, 0, 255) / 255) ** rng.uniform(0.7, 1.4)
    img = img * rng.uniform(0.85, 1.15, 3).astype(np.float32) * rng.uniform(0.6, 1.1)
    yy, xx = np.mgrid[0:win, 0:win].astype(np.float32) / win - 0.5
    t = rng.uniform(0, 2 * np.pi)
    img *= (1 + rng.uniform(0, 0.3) * (np.cos(t) * xx + np.sin(t) * yy))[..., None]
    field = cv2.resize(rng.normal(0, 1, (4, 4)).astype(np.float32), (win, win), interpolation=cv2.INTER_CUBIC)
    img *= np.exp(rng.uniform(0, 0.25) * field)[..., None]          # uneven light across the tile
    if rng.random() < 0.5:                                          # a phone's HDR: local tone mapping
        base = cv2.GaussianBlur(np.log(img.mean(axis=2) + 4), (0, 0), rng.uniform(3, 8))
        img *= np.exp(-rng.uniform(0.3, 0.6) * (base - float(np.median(base))))[..., None]
    img += rng.normal(0, rng.uniform(0.5, 4), img.shape).astype(np.float32)
    ok, buf = cv2.imencode(".jpg", np.clip(img, 0, 255).astype(np.uint8),
                           [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(60, 93))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def views(pictures, stacks, names, rounds: int, seed: int = 0):
    """Synthetic readings of a box's own faces: ``rounds`` batches of 16 cells, one per position,
    each a face of that position's stack with faces of the box round it. Yields (Cells, truth
    rows) with the truth the exemplar row shown in each cell."""
    rng = np.random.default_rng(seed)
    src = 64
    small = [cv2.resize(p, (src, src), interpolation=cv2.INTER_AREA) for p in pictures]
    faces = {s: [j for j, (st, n) in enumerate(zip(stacks, names)) if st == s and n != "back"] for s in sorted(set(stacks))}
    everyone = [j for j, n in enumerate(names) if n != "back"]
    size = tuning.CELL_PX
    pad = int(round(size * tuning.PAD))
    win = size + 2 * pad
    order = {s: list(rng.permutation(faces[s])) for s in sorted(faces)}
    for _ in range(rounds):
        windows, truth = [], []
        for q in range(16):
            st = STACK_AT[q]
            if not faces.get(st):
                return
            if not order[st]:
                order[st] = list(rng.permutation(faces[st]))
            j = int(order[st].pop())
            around = rng.choice(everyone, 9)
            mosaic = np.zeros((3 * src, 3 * src, 3), np.uint8)
            for k, r in enumerate(around):
                y, x = divmod(k, 3)
                mosaic[y * src:(y + 1) * src, x * src:(x + 1) * src] = small[int(r)]
            mosaic[src:2 * src, src:2 * src] = small[j]
            windows.append(_view(rng, mosaic, src, win, size))
            truth.append(j)
        yield Cells(np.stack(windows), pad, (0,) * 16), truth


def choose_blend(ex, rounds: int | None = None) -> tuple[float, float, dict]:
    """The weight of ``hog`` beside the match (``blended``) that tells the box's own faces apart
    best in ``views`` of them (``rounds`` batches of 16), each view aligned and matched as the
    reader does; per weight, how many views' best tile (within their stack) has their contents.
    A weight other than 0 only when the best gains ``BLEND_GAIN`` of the views over the match
    alone, and then the smallest within ``BLEND_NEAR`` of the best (the views are the box's own
    pictures again, kinder than a photo: a small gain there was a loss in photos of box2).
    Also the scale that brings the blend's margins (a view's tile against the best with other
    contents) to the match's (their medians' ratio): the doubt's bars are set on the match's.
    Returns (weight, scale, {weight: views right}) ({} when the box has too few faces to judge)."""
    rounds = tuning.BLEND_ROUNDS if rounds is None else rounds
    weights = tuning.BLEND_WEIGHTS
    table = ex.hog if ex.hog is not None else exemplar_hogs(ex.pictures)
    right = dict.fromkeys(weights, 0)
    margins: dict = {w: [] for w in weights}
    total = 0
    for cells, truth in views(ex.pictures, ex.stacks, ex.names, rounds):
        al = align_cells(cells, ex.looks)
        base = match(al, ex.filters, ex.rows_of, ex.means, ex.backs)
        other = hog_sims(al.tiles, table, ex.rows_of)
        faces = [[r for r in ex.rows_of[STACK_AT[q]] if ex.names[r] != "back"] for q in range(16)]
        total += 16
        for w in weights:
            s = blended(base, other, w)
            for q, j in enumerate(truth):
                right[w] += ex.contents[max(faces[q], key=lambda r: s[q, r])] == ex.contents[j]
                rest = [s[q, r] for r in faces[q] if ex.contents[r] != ex.contents[j]]
                if rest:
                    margins[w].append(float(s[q, j] - max(rest)))
    if not total:
        return 0.0, 1.0, {}
    best = max(right.values())
    if best - right[0] < tuning.BLEND_GAIN * total:
        return 0.0, 1.0, right
    w = float(min(w for w in weights if right[w] >= best - tuning.BLEND_NEAR * total))
    scale = float(np.median(margins[0.0]) / max(1e-6, float(np.median(margins[w]))))
    return w, float(np.clip(scale, 1 / (1 + w), 1.0)), right


def exemplar_hogs(pictures) -> np.ndarray:
    """``hog`` of each exemplar picture (any size), at CELL_PX."""
    s = tuning.CELL_PX
    return hog(np.stack([cv2.resize(p, (s, s), interpolation=cv2.INTER_AREA).astype(np.float32) for p in pictures]))


def blend_tag() -> str:
    """The constants a box's blend depends on (a stored blend worked out under others is not used)."""
    return repr((BLEND_VERSION, tuning.BLEND_WEIGHTS, tuning.BLEND_ROUNDS, tuning.BLEND_GAIN, tuning.BLEND_NEAR,
                 tuning.CELL_PX, tuning.MATCH_ANGLES, tuning.DESC_BLUR, tuning.DESC_WIDE,
                 tuning.EVEN_LIGHT and (tuning.EVEN_PX, tuning.EVEN_BLUR, tuning.EVEN_FLOOR, tuning.EVEN_TAU,
                                       tuning.EVEN_SMOOTH)))


# raised when the reader's comparison changes in a way the constants above do not show
BLEND_VERSION = 1


def with_blend(ex, stored: tuple[float, float] | None = None):
    """``ex`` (reader.Exemplars) with its tiles' ``hog`` and the box's own ``choose_blend``
    (``stored``: (weight, scale) as the box kept it when learned: not worked out again)."""
    from dataclasses import replace
    if not tuning.BLEND or not ex.pictures:
        return ex
    table = exemplar_hogs(ex.pictures)
    ex = replace(ex, hog=table)
    w, scale = stored if stored is not None else choose_blend(ex)[:2]
    return replace(ex, blend=w, blend_scale=scale)

