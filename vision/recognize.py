"""Read a planet from a photo: ``recognize(data: bytes) -> Reading``. No Flask.

How it works, in short:
1. Refuse unusable files before decoding (empty, not an image, over 50 megapixels by the
   header); decode JPEGs reduced (DCT scaling, short side ≥ 720) and apply EXIF orientation.
2. Find candidate outlines of the planet at ~512 px: blocks whose local colour and texture
   no block of the photo's border has (two thresholds), colour unlike the border's, many
   edges, saturation; each blob gives a quadrilateral; the whole frame is one too (a rendered
   planet fills its image). Rank them (and grown/shrunk variants of the best) with coarse
   descriptors of their 16 cells.
3. Read the best outline of each family in turn until one reads well: straighten it to 4×4
   cells of ``CELL`` px, find each tile in its cell (shift and small turn, with the generic
   tile outline), re-fit the outline from where the tiles were found, straighten again, and
   compare each cell with every reference (normalized correlation per colour channel, so light
   and white balance do not matter). Then look for each tile again with the pictures of its
   likeliest tiles and the back; each reference keeps its best score.
4. Use the rules: corners are characters, each position takes its stack, a tile id at most
   once (best assignment per stack; the back may repeat), and the best of the four quarter
   turns. If even the best outline does not look like a planet, the photo is refused.
5. A small planet in a reduced decode is read again from a finer decode; a black-and-white
   photo is compared with black-and-white references.
6. Confidence: the margin between the chosen tile and the best tile with *different* contents
   that could lie there (and a floor on the match itself), calibrated so wrong cells fall
   under 0.5, i.e. ``doubtful``.
"""
from __future__ import annotations

import itertools
import logging
import time
from pathlib import Path
from functools import lru_cache

import cv2
import numpy as np

from . import tuning
from .facedown import in_threes
from .imageio import UnusableImage, decode
from .reader import assign as _assign
from .reading import NO_PLANET, TOO_SMALL, Reading, likely_tiles
from scorer.i18n import _ as translate
from .outline import _order, _quads_from_mask, blob_quads, mask_groups, trimmed  # noqa: F401
from .index import CELL, HI, describe_coarse, describe_turns, get_index, similarity
from .stages import (Slider, beside_places, cut_by_frame, elsewhere, off_middle, one_thread, painted,
                     slide, squares_along_edges, wide_blur)

from .tuning import (BACK_NEAR, CELL_MATCH, DOUBT, GOOD, MARGIN, MARGIN_DOUBT, PLANET_CELLS, PLANET_MIN,
                     READS, READS_FIRST, REREAD_MOVE, SCALES, SEARCH, SHIPPED_SIDE, WORK, FINE_BELOW, GROWN, TRIES,
                     LOOKALIKES, LOOK_AREA, LOOK_BLUR, LOOK_DIFFER, LOOK_DOUBT, LOOK_FLOOR, LOOK_LIGHT,
                     LOOK_NEAR, LOOK_PAD, LOOK_SHIFT, LOOK_SWAP)




# ---------------------------------------------------------------------------------------------
# the rules, as constraints


def _rules_of(index):
    return _rules(tuple(index.names), tuple(index.stacks) if index.stacks else None)


def _describe_cells(patches, index, turns=(0, 1, 2, 3), cells=None) -> np.ndarray:
    """Descriptors of straightened cells (``cells``: their numbers, default 0..15) turned by
    ``turns``, each less the look its stack shares when the index has one. A cell's stack does
    not change with the planet's quarter turn."""
    from scorer.planet import STACK_AT
    cells = range(len(patches)) if cells is None else cells
    minus = [index.common.get(STACK_AT[q]) for q in cells] if index.common else None
    return describe_turns(patches, turns, minus)


def _greyish(sat: np.ndarray, limit: int = 20) -> bool:
    """``np.percentile(sat, 95) < limit`` for uint8 saturations: the order statistics round the
    95th percentile read from a histogram settle it (a colour photo's are far above the limit);
    only when they straddle it is the percentile computed."""
    n = sat.size
    # the same counts as np.bincount, from cv2.calcHist (whole numbers in float32: exact under 2**24)
    counts = (cv2.calcHist([sat], [0], None, [256], [0, 256]).reshape(-1).astype(np.int64) if n < 1 << 24
              else np.bincount(sat.reshape(-1), minlength=256))
    cum = np.cumsum(counts)
    k = int((n - 1) * 0.95)
    lo, hi = np.searchsorted(cum, [max(0, k - 1), min(n - 1, k + 2)], side="right")
    if lo >= limit:        # the percentile lies between these two order statistics
        return False
    if hi < limit:
        return True
    return float(np.percentile(sat, 95)) < limit


def _turns_of(index) -> np.ndarray:
    """Per position: quarter turns clockwise its tile lies at (all 0 for upright art)."""
    t = index.turns or {}
    return np.array([t.get(p, 0) for p in range(16)], np.int64)


@lru_cache(maxsize=8)
def _rules(names: tuple, stacks: tuple | None = None):
    """For an index's names (and, for a learned box, each row's stack): the allowed reference
    rows per stack, the positions of each stack and a contents key per row. A back may lie in
    any non-character stack it was seen in (the shipped back, without a stack: in all)."""
    from scorer.catalog import catalog
    from scorer.planet import STACK_AT
    cat = catalog()
    content = []
    for n in names:
        if n == "back":
            content.append(("back",))
        elif n in cat:
            t = cat[n]
            content.append((t.stack, t.character, tuple(sorted(t.items.items()))))
        else:
            content.append(("unknown", n))
    allowed = {}
    for stack in ("character", "center", "uphill", "downhill"):
        rows = [i for i, n in enumerate(names) if n in cat and cat[n].stack == stack]
        if stack != "character":
            rows += [i for i, n in enumerate(names)
                     if n == "back" and (stacks is None or stacks[i] in (None, stack))]
        allowed[stack] = np.array(rows, dtype=np.int64)
    positions = {s: [p for p in range(16) if STACK_AT[p] == s] for s in allowed}
    return allowed, positions, content


# ---------------------------------------------------------------------------------------------
# finding the planet


# ---------------------------------------------------------------------------------------------
# reading a candidate


LATTICE = np.array([[MARGIN + CELL * (c + .5), MARGIN + CELL * (r + .5)] for r in range(4) for c in range(4)],
                   np.float32)
SIDE = 4 * CELL + 2 * MARGIN
DST = np.array([[MARGIN, MARGIN], [MARGIN + 4 * CELL, MARGIN], [MARGIN + 4 * CELL, MARGIN + 4 * CELL],
                [MARGIN, MARGIN + 4 * CELL]], np.float32)


def _pyramid(img: np.ndarray) -> list:
    levels = [img]
    while max(levels[-1].shape[:2]) > 600:
        levels.append(cv2.pyrDown(levels[-1]))
    return levels


def _rectify(img, quad: np.ndarray, half: bool = False):
    """The planet straightened to SIDE×SIDE (SIDE/2 with ``half``); returns it and the
    homography (photo → straight). ``img`` is the photo or its pyramid (a list, finest first):
    the level used is the coarsest that still has the planet at least as big as the
    straightened one."""
    levels = img if isinstance(img, list) else [img]
    u = 0.5 if half else 1.0
    side = float(np.sqrt(max(1.0, cv2.contourArea(quad.astype(np.float32)))))
    level = 0
    while level + 1 < len(levels) and side / 2 ** (level + 1) >= 4 * CELL * u * 0.9:
        level += 1
    f = 0.5 ** level
    S = np.array([[f, 0, 0], [0, f, 0], [0, 0, 1]], np.float64)
    H = cv2.getPerspectiveTransform((quad * f).astype(np.float32), DST * u)
    n = int(round(SIDE * u))
    straight = cv2.warpPerspective(levels[level], H, (n, n), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE)
    return straight, H @ S


ANGLES = (-9.0, -6.0, -3.0, 0.0, 3.0, 6.0, 9.0)
TILE_SCALES = (1.0, 0.88)


@lru_cache(maxsize=4)
def _rings(key, ring_bytes: bytes, n: int):
    """The ring template at half scale, turned by each of ANGLES."""
    ring = np.frombuffer(ring_bytes, np.float32).reshape(n, n)
    half = cv2.resize(ring, (n // 2, n // 2), interpolation=cv2.INTER_AREA)
    c = (n // 2 - 1) / 2
    fill = float(half.mean())
    out = []
    for a in ANGLES:
        M = cv2.getRotationMatrix2D((c, c), a, 1.0)
        out.append(cv2.warpAffine(half, M, (n // 2, n // 2), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_CONSTANT, borderValue=fill))
    return out


_RINGS: dict = {}


def _rings_of(index) -> list:
    """``_rings`` of the index's ring, kept per index: its bytes are copied and hashed once, not
    for every cell looked for (``_cells``, ``_second_pass``)."""
    hit = _RINGS.get(id(index))
    if hit is None or hit[0] is not index:
        if len(_RINGS) > 8:
            _RINGS.clear()
        hit = _RINGS[id(index)] = (index, _rings(index.key, index.ring.tobytes(), index.ring.shape[0]))
    return hit[1]


_RING_SLIDERS: dict = {}


def _ring_slider(key, rings: list) -> Slider:
    """The generic tile outline at each of ANGLES as one ``stages.Slider`` (its spectra kept per
    index): slid over the straightened planet, what cv2.matchTemplate gives turn by turn (to
    about 1e-6), the planet's spectrum made once for the seven turns (speed round 4)."""
    hit = _RING_SLIDERS.get(key)
    if hit is None or hit[0] is not rings:
        if len(_RING_SLIDERS) > 8:
            _RING_SLIDERS.clear()
        hit = _RING_SLIDERS[key] = (rings, Slider(rings))
    return hit[1]


def _turned(template: np.ndarray) -> list:
    n = template.shape[0]
    c = (n - 1) / 2
    fill = float(template.mean())
    return [cv2.warpAffine(template, cv2.getRotationMatrix2D((c, c), a, 1.0), (n, n), flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_CONSTANT, borderValue=fill) for a in ANGLES]


def _cells(straight: np.ndarray, index, templates=None, centres0=None, search=SEARCH, angles0=None,
           scale: float = 1.0, only=None, cut: bool = True, half: np.ndarray | None = None):
    """Find each tile in its cell (place and small turn); return 16 upright patches
    (CELL×CELL BGR), their centres, how well the tile fitted, and its turn in degrees. Without ``templates`` the
    generic tile outline is looked for around the ideal grid; with them (one half-scale grey
    template per cell, e.g. the tile read there) each cell's own picture is looked for around
    ``centres0``. ``cut`` False: each patch is left uncut, its place given instead (``_cut_one``
    cuts it): a reading refitted and read again, and the tile size a cell's picture fitted
    less, never use their patches (speed round 4). ``half``: ``_half(straight)`` when already made."""
    rings = _rings_of(index)
    half = _half(straight) if half is None else half
    hc, hs, hm = CELL // 2, search // 2, MARGIN // 2
    if scale != 1.0:
        hc = max(8, int(round(CELL / 2 * scale)))
    # the generic outline is the same in every cell: matched once over the whole planet per turn
    # (the same values as cell by cell: a normalized correlation depends only on the pixels
    # under the template), 7 calls instead of 112
    whole = None
    if templates is None and rings[0].shape[0] == hc and angles0 is None and only is None:
        whole = slide(half, _ring_slider(index.key, rings))[0]
    patches, centres, fits, turns = [], [], [], []
    for r in range(4):
        for c in range(4):
            q = r * 4 + c
            if only is not None and q not in only:   # not looked for this time
                patches.append(None)
                centres.append((0.0, 0.0))
                fits.append(-np.inf)
                turns.append(0.0)
                continue
            if centres0 is not None:
                x0 = int(round(centres0[q][0] / 2 - hc / 2)) - hs
                y0 = int(round(centres0[q][1] / 2 - hc / 2)) - hs
            else:
                x0, y0 = hm + c * hc - hs, hm + r * hc - hs
            xa, ya = max(0, x0), max(0, y0)
            xb, yb = min(half.shape[1], x0 + hc + 2 * hs), min(half.shape[0], y0 + hc + 2 * hs)
            win = half[ya:yb, xa:xb]
            hy, hx = win.shape[0] - hc + 1, win.shape[1] - hc + 1
            ix, iy = (x0 + hs) - xa, (y0 + hs) - ya
            prior = _prior(hy, hx, ix, iy)
            best = None
            if hy <= 0 or hx <= 0:
                patches.append(np.zeros((CELL, CELL, 3), np.uint8) if cut else _ZERO)
                centres.append((x0 * 2 + CELL / 2 + search, y0 * 2 + CELL / 2 + search))
                fits.append(0.0)
                turns.append(0.0)
                continue
            if whole is not None:  # the generic outline: one map over the whole planet per turn,
                # each turn's cost taken off in one go (the same float64 values as turn by turn)
                best = _best_place(whole[:, ya:ya + hy, xa:xa + hx] - prior - _turn_costs(ANGLES))
            else:   # the turns near the one found before, each matched, their costs taken off at once
                near = [(a, t) for a, t in zip(ANGLES, rings if templates is None else templates[q])
                        if angles0 is None or abs(a - angles0[q]) <= 3.5]
                maps = np.stack([cv2.matchTemplate(win, t, cv2.TM_CCOEFF_NORMED) for _, t in near])
                looked = tuple(a for a, _ in near)
                best = _best_place(maps - prior - _turn_costs(looked), looked)
            mx, a, loc = best
            cx = 2 * (xa + loc[0]) + hc
            cy = 2 * (ya + loc[1]) + hc
            place = (cx, cy, a, hc)
            patches.append(_cut_one(straight, place) if cut else place)
            centres.append((cx, cy))
            fits.append(mx)
            turns.append(a)
    return patches, np.array(centres, np.float32), np.array(fits, np.float32), turns


def _best_place(every: np.ndarray, angles: tuple = ANGLES) -> tuple:
    """Of the maps ``every`` (turns, h, w), one per turn of ``angles`` (ANGLES, or the turns
    looked at), the best: (its value, its turn, its place (x, y)). Each turn's first best place
    and the first best turn, found at once: what ``cv2.minMaxLoc`` found turn after turn, keeping
    a turn only when better (tests/test_vision_paths.py), without a call per turn."""
    flat = every.reshape(len(every), -1)
    at = flat.argmax(axis=1)
    tops = flat[np.arange(len(at)), at]
    ai = int(np.argmax(tops))
    return float(tops[ai]), angles[ai], (int(at[ai]) % every.shape[2], int(at[ai]) // every.shape[2])


@lru_cache(maxsize=64)
def _turn_costs(angles: tuple) -> np.ndarray:
    """What each of ``angles`` costs (``TURN_COST`` a degree), (turns, 1, 1) float64: the same
    floats as ``TURN_COST * abs(a)`` one by one."""
    costs = np.array([TURN_COST * abs(a) for a in angles])[:, None, None]
    costs.flags.writeable = False
    return costs


def _half(straight: np.ndarray) -> np.ndarray:
    """The straightened planet grey at half scale (float32), where ``_cells`` looks for the tiles."""
    gray = cv2.cvtColor(straight, cv2.COLOR_BGR2GRAY)
    return cv2.resize(gray, (SIDE // 2, SIDE // 2), interpolation=cv2.INTER_AREA).astype(np.float32)


TURN_COST = 0.002   # a turned tile costs a little: this much per degree of its turn
_ZERO = "zero"   # an uncut patch of a cell with no room to look in: a black patch


def _cut_one(straight: np.ndarray, place) -> np.ndarray:
    """The upright CELL×CELL patch of the tile found at ``place`` (centre x, y at CELL scale,
    turn in degrees, half-scale template side)."""
    if place is _ZERO:
        return np.zeros((CELL, CELL, 3), np.uint8)
    cx, cy, a, hc = place
    M = cv2.getRotationMatrix2D((cx, cy), -a, CELL / (2 * hc))
    M[0, 2] += CELL / 2 - cx
    M[1, 2] += CELL / 2 - cy
    return cv2.warpAffine(straight, M, (CELL, CELL), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


@lru_cache(maxsize=256)
def _prior(hy: int, hx: int, ix: int, iy: int) -> np.ndarray:
    """What a place (y, x) costs in a window of hy×hx places whose ideal place is (iy, ix)."""
    yy, xx = np.mgrid[0:hy, 0:hx]
    prior = 0.004 * np.sqrt((xx - ix) ** 2 + (yy - iy) ** 2)
    prior.flags.writeable = False
    return prior


@lru_cache(maxsize=8)
def _quick_cells(names: tuple, stacks: tuple | None, turns: tuple) -> list:
    """Per quarter turn k of the planet: per stack, the straightened cells and the columns of
    the coarse similarities (reference i turned by k' at i*4+k') its positions take."""
    allowed, positions, _ = _rules(names, stacks)
    tt = np.array(turns, np.int64)
    grid = np.arange(16).reshape(4, 4)
    out = []
    for k in range(4):
        rot = np.rot90(grid, k).reshape(-1)
        per = []
        for stack, rows in allowed.items():
            pos = np.asarray(positions[stack], np.int64)
            if len(rows) and len(pos):
                per.append((rot[pos][:, None], rows[None, :] * 4 + ((k + tt[pos]) % 4)[:, None]))
        out.append(per)
    return out


def _quick_many(img, quads: list, index) -> list[float]:
    """How much each candidate outline looks like a 4×4 planet of tiles: each cell cut where the
    outline puts it (no search) and compared with the references, best quarter turn, without
    the one-tile-once rule. Cheap; ranks the candidates. All outlines' cells are described at
    once (each row normalized on its own) and compared in one product (a row's products do not
    depend on the rows beside it): the same values as outline by outline
    (tests/test_vision_paths.py)."""
    if not quads:
        return []
    m, c2 = MARGIN // 2, CELL // 2
    patches = []
    for quad in quads:
        straight, _ = _rectify(img, quad, half=True)
        patches += [straight[m + r * c2:m + (r + 1) * c2, m + c * c2:m + (c + 1) * c2]
                    for r in range(4) for c in range(4)]
    descs = describe_coarse(patches)
    C = similarity(descs, index.coarse).reshape(len(quads), 16, -1)  # (k, 16, n*4)
    turns = tuple(int(t) for t in _turns_of(index))
    best = np.full(len(quads), -np.inf)
    for per in _quick_cells(tuple(index.names), tuple(index.stacks) if index.stacks else None, turns):
        total = np.zeros(len(quads))
        for cells, cols in per:   # each position's best allowed reference, per stack; stacks added in order
            total = total + C[:, cells, cols].max(axis=2).sum(axis=1).astype(np.float64)
        best = np.maximum(best, total)
    return [float(b / 16) for b in best]


def _read_candidates(pyr, quads: list, f: float, index, seen: dict, most: int = READS):
    """The best reading of the candidate outlines ``quads`` (in the work image's pixels, ``f`` of
    ``pyr[0]``'s): ranked cheaply (``_quick_many``), the best (``GROWN``) also tried grown and shrunk
    about their centre (a found outline may cover only part of the planet, or a bit of table too),
    then the best of each family (an outline and its variants) read in turn until one is ``GOOD``
    (``most`` families at most). ``seen``: each outline's quick score and reading, by its corners, made once across calls."""
    def scored(qs: list) -> list[float]:
        new = [q for q in qs if ("score", q.tobytes()) not in seen]
        for q, sc in zip(new, _quick_many(pyr, [v / f for v in new], index)):
            seen[("score", q.tobytes())] = sc
        return [seen[("score", q.tobytes())] for q in qs]

    first = sorted(((sc, i, q) for i, (sc, q) in enumerate(zip(scored(quads), quads))), key=lambda t: -t[0])
    grown = []
    for _, i, q in first[:GROWN]:
        c = q.mean(axis=0)
        grown += [(i, (q - c) * g + c) for g in SCALES]
    more = [(sc, i, v) for sc, (i, v) in zip(scored([v for _, v in grown]), grown)]
    ranked = sorted(first + more, key=lambda t: -t[0])
    best, read_families = None, set()
    for _, i, q in ranked:
        if len(read_families) >= most or (best is not None and best["score"] >= GOOD):
            break
        if i in read_families:
            continue
        read_families.add(i)
        key = ("read", q.tobytes())
        if key not in seen:
            seen[key] = _read(pyr, q / f, index, refine=1)
        res = seen[key]
        if res is None:
            continue
        if best is None or res["score"] > best["score"]:
            best = res
    return best


def _is_planet(res: dict | None) -> bool:
    """Does a reading look like a planet: its cells' mean match ``PLANET_MIN`` or more, and
    ``PLANET_CELLS`` cells or more matching ``CELL_MATCH``?"""
    return (res is not None and res["score"] >= PLANET_MIN
            and int((np.asarray(res["sims"]) >= CELL_MATCH).sum()) >= PLANET_CELLS)


def _read_beside(pyr, work: np.ndarray, quads: list, f: float, index, seen: dict, best: dict) -> dict:
    """A planet read, and another planet on the table, nearer the frame's middle: the planet the
    player aimed at (the box reader's beside look, ``reader._read_beside``). The outlines ``quads``
    (in the work image ``work``'s pixels, ``f`` of ``pyr[0]``'s: every mask's made so far and their
    next largest blobs') that pass ``stages.beside_places``' bars against the planet read are read
    as candidates are (``_read_candidates``, ``BESIDE_READS`` families at most); a planet read there, and not the
    one already read (an outline that moved back onto it), is the planet read. None such, and the
    planet read off the frame's middle (``stages.off_middle``: the player aims at their own;
    ``BESIDE_OFF_PAINTED``): the work image masked again with the planet read painted over as the
    table (``stages.painted``), its outlines that pass the same bars read from the painted photo; a
    planet read there wholly in frame is the planet read. The planet read about the middle (a photo
    of one planet, or the player's own): ``best``."""
    h, w = pyr[0].shape[:2]
    read = np.asarray(best["quad"], np.float32) * f   # in work pixels, as ``quads``
    places = beside_places(quads, read, h * f, w * f)
    if places:
        other = _read_candidates(pyr, places, f, index, seen, tuning.BESIDE_READS)
        if not _is_planet(other) and tuning.SHIPPED_SQUARED:   # the places squared as the planet in them may lie
            other = _read_squared(pyr, work, places, f, index, seen, tuning.BESIDE_READS)
        if _is_planet(other) and elsewhere(np.asarray(other["quad"], np.float32) * f, read):
            return other
    if not (tuning.BESIDE_PAINTED and tuning.BESIDE_OFF_PAINTED and off_middle(read, h * f, w * f)):
        return best
    # the photo with the planet read painted over: the masks see the table without it, and may find
    # the planet aimed at alone (a checked cloth, or a planet on a table of its colours, joins it to
    # the table while the planet read stands out)
    found: list = []
    more: list = []
    for masks in mask_groups(painted(work, read, tuning.BESIDE_PAINT_GROW)):
        _outlines_of(masks, found, more)
    places = beside_places(found + more, read, h * f, w * f)
    if not places:
        return best
    alone_pyr = _pyramid(painted(pyr[0], best["quad"], tuning.BESIDE_PAINT_GROW))
    alone = _read_candidates(alone_pyr, places, f, index, {}, tuning.BESIDE_READS)
    if (_is_planet(alone) and elsewhere(np.asarray(alone["quad"], np.float32) * f, read)
            and not cut_by_frame(np.asarray(alone["quad"], np.float32) * f, h * f, w * f)):
        return alone
    return best


def _read_squared(pyr, work: np.ndarray, quads: list, f: float, index, seen: dict, most: int):
    """The outlines ``quads`` (in the work image ``work``'s pixels, ``f`` of ``pyr[0]``'s) squared as the
    edges in them run (``stages.squares_along_edges``, ``SQUARED_SIDES`` of each one's side), read as
    candidates are (``most`` at most): an outline a mask rounded off sits square to the frame while
    the planet in it is turned, and reads as no planet."""
    squares = [v for q in quads for v in squares_along_edges(work, q, tuning.SQUARED_SIDES)]
    return _read_candidates(pyr, squares, f, index, seen, most) if squares else None


def _read(img, quad: np.ndarray, index, refine: int = 1):
    straight, H = _rectify(img, quad)
    if straight is None:
        return None
    if index.common is not None:  # a learned box: the lattice was put on the tiles' edges
        patches = [np.ascontiguousarray(straight[MARGIN + r * CELL:MARGIN + (r + 1) * CELL,
                                                 MARGIN + c * CELL:MARGIN + (c + 1) * CELL])
                   for r in range(4) for c in range(4)]
        centres, fits, angles = LATTICE.copy(), np.ones(16, np.float32), [0.0] * 16
        refine, half = 0, None
    else:
        half = _half(straight)   # made once for this outline's every look
        patches, centres, fits, angles = _cells(straight, index, cut=False, half=half)
    if refine:
        # re-fit the outline from where the tiles were found, then read again
        Hinv = np.linalg.inv(H)
        found = cv2.perspectiveTransform(centres.reshape(-1, 1, 2), Hinv).reshape(-1, 2)
        Hl, inl = cv2.findHomography(LATTICE, found, cv2.RANSAC, 3.0 * np.sqrt(abs(np.linalg.det(Hinv[:2, :2]))) + 1)
        if Hl is not None and inl is not None and inl.sum() >= 8:
            newq = cv2.perspectiveTransform(DST.reshape(-1, 1, 2), Hl).reshape(4, 2)
            cell = np.sqrt(max(1.0, cv2.contourArea(quad.astype(np.float32)))) / 4
            moved = float(np.linalg.norm(newq - quad, axis=1).max()) / cell
            if moved > REREAD_MOVE and cv2.contourArea(newq.astype(np.float32)) > 0.3 * cv2.contourArea(quad.astype(np.float32)):
                again = _read(img, newq, index, refine - 1)
                if again is not None:
                    return again
    patches = [p if isinstance(p, np.ndarray) else _cut_one(straight, p) for p in patches]
    first = _classify(patches, fits, index, quad)
    res = _second_pass(straight, index, first, centres, quad, angles, half=half)
    res.update(H=H, centres=centres, angles=angles, patches=patches)
    return res


# ---------------------------------------------------------------------------------------------
# telling look-alikes apart (tiles whose pictures differ in a small part: a sheep's colour)


def _light_free(img: np.ndarray) -> np.ndarray:
    """A CELL×CELL BGR picture without its slow light: log, less its wide blur (a light that
    multiplies the picture and changes slowly across it adds a slowly changing term to the log,
    which the wide blur takes away), after a small blur against noise and JPEG."""
    f = np.log(np.ascontiguousarray(img, np.float32) + LOOK_FLOOR)
    return cv2.GaussianBlur(f, (0, 0), LOOK_BLUR) - wide_blur(f, LOOK_LIGHT)   # wide_blur: cv2's, faster


_LOOKS: dict = {}


def _looks(index) -> tuple:
    """Per index (colour and grey ones apart): every reference without its light
    (``_light_free``) and the boxes where pairs of references differ (``_differ_box``), made
    as needed and kept."""
    hit = _LOOKS.get(id(index))
    if hit is None or hit[0] is not index:
        if len(_LOOKS) > 8:
            _LOOKS.clear()
        hit = _LOOKS[id(index)] = (index, np.stack([_light_free(im) for im in index.imgs]), {})
    return hit[1], hit[2]


def _look_refs(index) -> np.ndarray:
    return _looks(index)[0]


def _differ_box(index, a: int, b: int) -> tuple | None:
    """Where references a and b differ (not in the printed id's corner), as a box (y0, y1,
    x0, x1) at CELL, grown by LOOK_PAD and kept LOOK_SHIFT inside the cell; None when they differ
    in more than LOOK_AREA of the tile (not look-alikes: the whole-tile comparison tells them)."""
    boxes = _looks(index)[1]
    if (a, b) in boxes:
        return boxes[(a, b)]
    d = np.abs(index.imgs[a].astype(np.int16) - index.imgs[b].astype(np.int16)).max(axis=2) > LOOK_DIFFER
    x0, y0 = (int(round(v * CELL)) for v in ID_BOX[:2])
    d[y0 - 2:, x0 - 2:] = False
    box = None
    if d.any() and d.mean() <= LOOK_AREA:
        ys, xs = np.nonzero(d)
        lo, hi = LOOK_SHIFT, CELL - LOOK_SHIFT
        box = (max(lo, int(ys.min()) - LOOK_PAD), min(hi, int(ys.max()) + 1 + LOOK_PAD),
               max(lo, int(xs.min()) - LOOK_PAD), min(hi, int(xs.max()) + 1 + LOOK_PAD))
        if box[1] - box[0] < 4 or box[3] - box[2] < 4:
            box = None
    boxes[(a, b)] = boxes[(b, a)] = box
    return box


def tell_lookalike(cell: np.ndarray, a: np.ndarray, b: np.ndarray, box: tuple) -> float:
    """How much better a cell (``_light_free``, upright as the references lie) fits reference
    ``a`` than ``b`` (both ``_light_free``) inside ``box``, where the two differ: each placed on
    the cell on its own within LOOK_SHIFT px, normalized correlation there. In [-2, 2]; > 0: a."""
    y0, y1, x0, x1 = box
    s = LOOK_SHIFT
    win = cell[y0 - s:y1 + s, x0 - s:x1 + s]
    fa = float(cv2.matchTemplate(win, a[y0:y1, x0:x1], cv2.TM_CCOEFF_NORMED).max())
    fb = float(cv2.matchTemplate(win, b[y0:y1, x0:x1], cv2.TM_CCOEFF_NORMED).max())
    return fa - fb


def _worst_lookalike(index, refs, patch, cell: list, row: int, rows, s, content) -> tuple:
    """Of ``rows`` (ids of other contents than ``row``'s whose whole-tile match ``s`` is within
    LOOK_NEAR of it, and that differ from it in a small part), the one the cell fits best against
    ``row`` where they differ: (how much better ``row`` fits, that row), or (inf, None) when none.
    ``cell``: an empty list, or the patch without its light (made once, kept there)."""
    out = (np.inf, None)
    for j in rows:
        if content[j] == content[row] or float(s[row] - s[j]) > LOOK_NEAR:
            continue
        box = _differ_box(index, row, j)
        if box is None:
            continue
        if not cell:
            cell.append(_light_free(patch))
        v = tell_lookalike(cell[0], refs[row], refs[j], box)
        if v < out[0]:
            out = (v, j)
    return out


def _tell_lookalikes(res: dict, index) -> None:
    """Each cell against the tiles of other contents that look like its own but in a small part
    (a white sheep for a grey one) and that read nearly as well (within LOOK_NEAR): compared
    again where the two pictures differ, without the photo's slow light (a lamp's fall-off across
    a tile makes a white sheep as dark as the grey sheep's grey beside a bright top, and the
    whole-tile comparison, normalized per tile, then prefers the grey one; issue 8, seed 242). A
    rival that fits better there is taken when no other cell holds it, as sure as the whole-tile
    comparison is of it (which preferred the tile it replaces: doubtful); the cell's confidence is
    capped by how clearly its tile beats every look-alike there (0 when one fits better)."""
    if not LOOKALIKES or res.get("patches") is None:
        return
    names = tuple(index.names)
    allowed, positions, content = _rules_of(index)
    tt = _turns_of(index)
    refs = _look_refs(index)
    rows, rot, k, D = list(res["rows"]), res["rot"], res["k"], res["D"]
    stack_of = {p: s for s, ps in positions.items() for p in ps}
    confs, looks = list(res["confs"]), [None] * 16
    for p in range(16):
        row = rows[p]
        if row is None or names[row] == "back":
            continue
        s = D[rot[p] * 4 + (k + tt[p]) % 4]
        near = [int(j) for j in allowed[stack_of[p]] if names[j] != "back"]
        cell: list = []   # the cell without its light, made when a look-alike is near
        patch = np.rot90(res["patches"][rot[p]], (k + tt[p]) % 4)   # upright as the references lie
        told, rival = _worst_lookalike(index, refs, patch, cell, row, near, s, content)
        if rival is None:
            continue
        if told < LOOK_SWAP and rival not in rows:
            rows[p] = rival   # the look-alike fits better where they differ: it is read
            told = min(-told, _worst_lookalike(index, refs, patch, cell, rival, near, s, content)[0])  # and beat its own
            if tuning.LOOK_SWAP_OWN_CONF:   # as sure as the whole tile is of it, not of the tile it replaced
                confs[p] = _confidence(s, rival, allowed[stack_of[p]], content)[0]
        looks[p] = told
        confs[p] = float(min(confs[p], np.clip(told / (2 * LOOK_DOUBT), 0, 1)))
    res["rows"], res["confs"], res["looks"] = rows, confs, looks
    res["cells"] = [names[r] if r is not None else None for r in rows]


def _face_down_in_threes(res: dict, index) -> None:
    """A planet shows its backs three at a time (``facedown.in_threes``): a reading with another
    count turns the cells that cost its similarities least; each cell turned is doubtful."""
    rows = list(res["rows"])
    if not tuning.FACE_DOWN_IN_THREES or any(r is None for r in rows):
        return
    names = tuple(index.names)
    allowed, positions, _content = _rules_of(index)
    tt = _turns_of(index)
    stack_of = {p: s for s, ps in positions.items() for p in ps}
    D, rot, k = res["D"], res["rot"], res["k"]
    scores = [D[rot[p] * 4 + (k + tt[p]) % 4].tolist() for p in range(16)]
    moves = in_threes(scores, rows, lambda p: allowed[stack_of[p]].tolist(), lambda j: names[j] == "back")
    if not moves:
        return
    confs, sims = list(res["confs"]), np.array(res["sims"], dtype=float)
    for p, j in moves:
        rows[p], confs[p], sims[p] = j, 0.0, scores[p][j]
    res["rows"], res["confs"], res["sims"] = rows, confs, sims
    res["cells"] = [names[r] for r in rows]


# the id printed small in a corner (bottom-right of the drawn art), in a tile's own coordinates
ID_BOX = (0.74, 0.85, 0.965, 0.965)  # x0, y0, x1, y1


def _tell_twins(level0: np.ndarray, res: dict, index) -> None:
    """Tiles with the same contents look the same but for their id; where the photo is sharp
    enough, compare the id corner with each twin's and take the best (one id per cell)."""
    if not index.printed_ids:  # a learned box: twins look the same, either id will do
        return
    names = tuple(index.names)
    allowed, positions, content = _rules_of(index)
    stack_of = {p: s for s, ps in positions.items() for p in ps}
    rows, k, rot, H = list(res["rows"]), res["k"], res["rot"], res["H"]
    side = float(np.sqrt(max(1.0, cv2.contourArea(np.asarray(res["quad"], np.float32)))))
    if side / 4 < 72:  # tiles under ~72 px in the photo: the ids cannot be read
        return
    groups: dict = {}
    for p in range(16):
        if rows[p] is None or names[rows[p]] == "back":
            continue
        twins = [int(j) for j in allowed[stack_of[p]] if content[j] == content[rows[p]]]
        if len(twins) > 1:
            groups.setdefault(content[rows[p]], (twins, []))[1].append(p)
    if not groups:
        return
    s = HI / CELL
    x0, y0, x1, y1 = (int(round(v * HI)) for v in ID_BOX)
    pad = 12
    for twins, cells in groups.values():
        scores = {}
        for p in cells:
            q = rot[p]
            cx, cy = res["centres"][q]
            M = cv2.getRotationMatrix2D((float(cx), float(cy)), -float(res["angles"][q]), 1.0)
            M[0, 2] += CELL / 2 - cx
            M[1, 2] += CELL / 2 - cy
            P = np.vstack([M * s, [0, 0, 1]])
            patch = cv2.warpPerspective(level0, P @ H, (HI, HI), flags=cv2.INTER_LINEAR,
                                        borderMode=cv2.BORDER_REPLICATE)
            patch = cv2.cvtColor(np.ascontiguousarray(np.rot90(patch, k)), cv2.COLOR_BGR2GRAY)
            win = patch[max(0, y0 - pad):y1 + pad, max(0, x0 - pad):x1 + pad].astype(np.float32)
            ts = [index.hi[j][y0:y1, x0:x1].astype(np.float32) for j in twins]
            # place the id box with what the twins share, then compare where they differ
            common = np.mean(ts, axis=0)
            _, _, _, (lx, ly) = cv2.minMaxLoc(cv2.matchTemplate(win, common, cv2.TM_CCOEFF_NORMED))
            crop = win[ly:ly + common.shape[0], lx:lx + common.shape[1]]
            stack = np.stack(ts)
            differ = (stack.max(axis=0) - stack.min(axis=0)) > 40
            differ = cv2.dilate(differ.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
            a = crop[differ] - crop[differ].mean()
            for j, t in zip(twins, ts):
                b = t[differ] - t[differ].mean()
                scores[(p, j)] = float((a * b).sum() / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-6))
        best, best_total = None, -np.inf
        for perm in itertools.permutations(twins, len(cells)):
            total = sum(scores[(p, j)] for p, j in zip(cells, perm))
            if total > best_total:
                best, best_total = perm, total
        for p, j in zip(cells, best):
            rows[p] = j
    res["rows"] = rows
    res["cells"] = [names[r] if r is not None else None for r in rows]


_TEMPLATES: dict = {}


def _ref_templates(index, row: int, k: int, scale: float = 1.0) -> list:
    """A reference at half scale, grey, as it lies in the straightened planet (quarter turn k),
    turned by each of ANGLES. Cached per index."""
    key = (index.key, row, k, scale)
    t = _TEMPLATES.get(key)
    if t is None:
        if len(_TEMPLATES) > 4000:
            _TEMPLATES.clear()
        ref = np.ascontiguousarray(np.rot90(index.imgs[row], -k))
        g = cv2.cvtColor(ref, cv2.COLOR_BGR2GRAY)
        n = max(8, int(round(CELL / 2 * scale)))
        g = cv2.resize(g, (n, n), interpolation=cv2.INTER_AREA).astype(np.float32)
        t = _TEMPLATES[key] = _turned(g)
    return t


def _second_pass(straight, index, first, centres, quad, angles, tries: int = TRIES, half=None):
    """Look for each tile again with the pictures of the few tiles it most resembles (and the
    back): sharper place and turn than the generic outline. Each reference keeps its best score
    over these placements; then the rules are applied again."""
    names = tuple(index.names)
    allowed, positions, content = _rules_of(index)
    tt = _turns_of(index)
    rot, k, D1 = first["rot"], first["k"], first["D"]
    turn_of_cell = {int(rot[p]): int((k + tt[p]) % 4) for p in range(16)}
    back_rows = [i for i, n in enumerate(names) if n == "back"]
    stack_of = {p: s for s, ps in positions.items() for p in ps}
    cand = {}  # straightened cell -> candidate rows
    for p in range(16):
        rows = allowed[stack_of[p]]
        if len(rows) == 0:
            continue
        sc = D1[rot[p] * 4 + (k + tt[p]) % 4][rows]
        picked, seen = [], set()
        for j in np.argsort(-sc):
            row = int(rows[j])
            if content[row] in seen:
                continue
            seen.add(content[row])
            picked.append(row)
            if len(picked) == tries:
                break
        best_face = max((float(v) for j, v in zip(rows, sc) if int(j) not in back_rows), default=-np.inf)
        for br in back_rows:
            if br in rows and br not in picked and float(D1[rot[p] * 4 + (k + tt[p]) % 4][br]) > best_face - BACK_NEAR:
                picked.append(br)
        cand[rot[p]] = picked
    # one round of alignment per candidate rank
    rounds = max(len(v) for v in cand.values()) if cand else 0
    D2 = D1.copy()
    for i in range(rounds):
        best_p, best_f = None, None
        now = {q for q in range(16) if len(cand.get(q, [])) > i}   # cells with an i-th candidate
        for sc in TILE_SCALES:  # hand-laid tiles with gaps are smaller than their cells
            templates = []
            for q in range(16):
                rows = cand.get(q, [])
                row = rows[min(i, len(rows) - 1)] if rows else None
                if row is None or q not in now:
                    templates.append(_rings_of(index))
                    continue
                templates.append(_ref_templates(index, row, turn_of_cell[q], sc))
            patches, _, fits, _ = _cells(straight, index, templates, centres, search=8, angles0=angles, scale=sc,
                                         only=now, cut=False, half=half)
            if best_p is None:
                best_p, best_f = list(patches), fits.copy()
                continue
            for q in now:  # the size whose picture fits best
                if fits[q] > best_f[q]:
                    best_p[q], best_f[q] = patches[q], fits[q]
        by_turn: dict = {}
        for q in sorted(now):
            by_turn.setdefault(turn_of_cell[q], []).append(q)
            best_p[q] = _cut_one(straight, best_p[q])   # the size that fitted best, cut
        for kq, qs in by_turn.items():   # the cells lying at one turn described at once
            Dk = similarity(_describe_cells([best_p[q] for q in qs], index, (kq,), qs), index.desc)
            for q, d in zip(qs, Dk):
                D2[q * 4 + kq] = np.maximum(D2[q * 4 + kq], d)
    second = _classify(None, first["fits"], index, quad, D=D2, only_k=k)
    return second if second["total"] >= first["total"] else first


def _classify(patches, fits, index, quad, D=None, only_k=None):
    names = tuple(index.names)
    allowed, positions, content = _rules_of(index)
    tt = _turns_of(index)
    back_rows = {i for i, n in enumerate(names) if n == "back"}
    if D is None:
        D = similarity(_describe_cells(patches, index), index.desc)  # (16*4, n): cell q turned by k at row q*4+k
    grid = np.arange(16).reshape(4, 4)
    best = None
    for k in range(4) if only_k is None else (only_k,):
        rot = np.rot90(grid, k).reshape(-1)  # canonical position p <- straightened cell rot[p]
        total = 0.0
        chosen = [None] * 16
        for stack, rows in allowed.items():
            pos = positions[stack]
            if len(rows) == 0:
                continue
            sc = D[rot[pos] * 4 + (k + tt[pos]) % 4][:, rows]
            picked, tot = _assign(sc, rows, back_rows)
            total += tot
            for p, row in zip(pos, picked):
                chosen[p] = int(row)
        if best is None or total > best[0]:
            best = (total, k, chosen, rot)
    total, k, chosen, rot = best
    cells, confs, sims, margins = [], [], [], []
    for p in range(16):
        row = chosen[p]
        if row is None:
            cells.append(None); confs.append(0.0); sims.append(0.0); margins.append(-1.0)
            continue
        stack = next(s for s, ps in positions.items() if p in ps)
        rows = allowed[stack]
        s = D[rot[p] * 4 + (k + tt[p]) % 4]
        conf, margin = _confidence(s, row, rows, content)
        cells.append(names[row])
        confs.append(conf)
        sims.append(float(s[row]))
        margins.append(margin)
    return {"total": total, "k": k, "rot": rot, "rows": chosen, "D": D, "cells": cells, "confs": confs,
            "sims": np.array(sims), "margins": margins,
            "score": float(np.mean(sims)), "fits": fits, "quad": quad}


def _confidence(s: np.ndarray, row: int, rows, content) -> tuple[float, float]:
    """How sure the whole-tile comparison is of ``row`` in a cell whose similarities to every
    reference are ``s``: (confidence, margin), the margin being to the best tile of other contents
    among ``rows`` (those its stack allows)."""
    s1 = float(s[row])
    others = [float(s[j]) for j in rows if content[j] != content[row]]
    alt = max(others) if others else -1.0
    margin = s1 - alt
    # calibrated on ~3000 cells of sample and validation photos: every wrong cell had a
    # margin under 0.01; 2-3% of right cells have one under 0.02 (they are flagged too).
    # A poor match (under 0.5; ~1.5% of right cells) is doubtful whatever the margin: in
    # hard photos (heavy blur, tiny planets) wrong cells had margins up to 0.12 but matches
    # under 0.45.
    return float(min(np.clip(margin / (2 * MARGIN_DOUBT), 0, 1), np.clip((s1 - 0.35) / 0.3, 0, 1))), margin


# ---------------------------------------------------------------------------------------------


def _likely(res: dict, index) -> list:
    """Per cell, the next likeliest tiles after the one read (``reading.likely_tiles``): by the
    reading's similarities at its quarter turn, among the tiles its stack allows."""
    names = tuple(index.names)
    allowed, positions, content = _rules_of(index)
    tt = _turns_of(index)
    D, rot, k = res["D"], res["rot"], res["k"]
    stack_of = {p: s for s, ps in positions.items() for p in ps}
    candidates = []
    for p in range(16):
        s = D[rot[p] * 4 + (k + tt[p]) % 4]
        candidates.append([(names[r], float(s[r])) for r in allowed[stack_of[p]]])
    row_of = {n: i for i, n in enumerate(names)}
    return likely_tiles(candidates, res["cells"], lambda n: content[row_of[n]])


def _reading_corners(res: dict, reduce: float) -> list:
    """The outline's corners in the photo's pixels (``reduce``: the decode's), in the reading's
    order: the reading is the straightened grid turned ``k`` quarter turns (``np.rot90``), so its
    cell 0's corner is the outline's corner ``k``."""
    return (np.roll(np.asarray(res["quad"], np.float64), -res["k"], axis=0) * reduce).tolist()


def _work_of(pyr: list) -> tuple[np.ndarray, float]:
    """The work image the outlines are found in (its long side ``WORK`` at most, from the coarsest
    pyramid level that is still as large) and its scale against ``pyr[0]``."""
    h, w = pyr[0].shape[:2]
    src = next((lv for lv in reversed(pyr) if max(lv.shape[:2]) >= WORK), pyr[0])
    f = WORK / max(h, w)
    work = cv2.resize(src, (max(1, round(w * f)), max(1, round(h * f))), interpolation=cv2.INTER_AREA) if f < 1 else pyr[0]
    return work, min(f, 1.0)


def _outlines_of(masks: list, quads: list, seconds: list, blobs: list | None = None) -> None:
    """The outlines of each mask's largest blob added to ``quads`` (in the work image's pixels; none
    within 3% of a side of one already there), those of its next largest to ``seconds``; ``blobs``:
    where each mask's largest blob goes (None: none)."""
    for m in masks:
        for q in _quads_from_mask(m, beside=seconds, blobs=blobs):
            side = np.sqrt(max(1.0, cv2.contourArea(q.astype(np.float32))))
            if all(np.abs(q - o).max() > 0.03 * side for o in quads):
                quads.append(q)


def _planet_in(pyr: list, work: np.ndarray, f: float, index) -> tuple[dict | None, list, list, dict]:
    """The best reading of the planet's candidate outlines in the work image ``work`` (``f`` of
    ``pyr[0]``), from the cheaper masks first: when those give a ``GOOD`` reading the others are
    never made; else every mask's, ranked and read as if made at once (what was scored or read
    already is reused: ``seen``). None reads as a planet (``BESIDE_SECONDS``): the masks' next
    largest blobs'. Still none (``SHIPPED_TRIM``): the masks' largest blobs trimmed
    (``_read_trimmed``). Return it, the outlines found, the next largest blobs' and ``seen``."""
    wh, ww = work.shape[:2]
    # the whole frame too: a planet drawn by ``render`` (or cropped to it) fills the image
    frame = np.array([[0, 0], [ww - 1, 0], [ww - 1, wh - 1], [0, wh - 1]], np.float32)
    quads: list = []
    seconds: list = []   # the masks' next largest blobs' outlines, for the beside look
    blobs: list = []     # the masks' largest blobs, for the trimmed look
    seen: dict = {}
    best = None
    for most, masks in zip((READS_FIRST, READS), mask_groups(work)):
        _outlines_of(masks, quads, seconds, blobs)
        best = _read_candidates(pyr, quads + [frame], f, index, seen, most)
        if best is not None and best["score"] >= GOOD:
            break
    if tuning.BESIDE_LOOK and tuning.BESIDE_SECONDS and not _is_planet(best) and seconds:
        # none reads as a planet: where a neighbour's planet, nearer the camera and cut by the
        # frame's edge, is every mask's largest blob, the planet aimed at is its next largest
        other = _read_candidates(pyr, seconds, f, index, seen, tuning.BESIDE_READS)
        if _is_planet(other):
            best = other
    if tuning.SHIPPED_TRIM and not _is_planet(best):
        best = _read_trimmed(pyr, work, f, index, seen, blobs, quads + seconds, best)
    return best, quads, seconds, seen


def _read_trimmed(pyr: list, work: np.ndarray, f: float, index, seen: dict, blobs: list, found: list,
                  best: dict | None) -> dict | None:
    """None of the outlines ``found`` (in the work image ``work``'s pixels, ``f`` of ``pyr[0]``'s) reads as a
    planet: each of the masks' largest ``blobs`` with what hangs off it taken away
    (``outline.trimmed``, by each disc of ``SHIPPED_TRIM_OPENS``: a strip of the table, or the planet
    beside, it touches; the wider discs part two planets that touch along more of a side) and its two
    largest pieces' outlines read, all at once (``BESIDE_READS`` families at most); none reads as a
    planet (``SHIPPED_SQUARED``): the pieces squared as the edges in them run (``_read_squared``,
    ``SQUARED_READS`` at most). A planet read there
    is the planet read unless an outline found, or a piece, lies where another planet may
    (``beside_places``: nearer the frame's middle, the player's own planet, which then reads as none);
    those places squared (``SHIPPED_SQUARED``), a planet read there with none nearer still is the
    planet read; else ``best``."""
    pieces: list = []
    for blob in blobs:
        if blob is None:
            continue
        for trim in tuning.SHIPPED_TRIM_OPENS:
            more: list = []
            piece = trimmed(blob, trim, beside=more)
            for b in ([] if piece is None else [piece]) + more:
                pieces += blob_quads(b)
    if not pieces:
        return best
    other = _read_candidates(pyr, pieces, f, index, seen, tuning.BESIDE_READS)
    if not _is_planet(other) and tuning.SHIPPED_SQUARED:
        other = _read_squared(pyr, work, pieces, f, index, seen, tuning.SQUARED_READS)
    if not _is_planet(other):
        return best
    h, w = pyr[0].shape[:2]
    read = np.asarray(other["quad"], np.float32) * f
    nearer = beside_places(found + pieces, read, h * f, w * f)
    if not nearer:
        return other
    if tuning.SHIPPED_SQUARED and tuning.SQUARED_NEARER:   # where the player's planet may lie, nearer the middle, squared
        aimed = _read_squared(pyr, work, nearer, f, index, seen, tuning.SQUARED_READS)
        if _is_planet(aimed):
            at = np.asarray(aimed["quad"], np.float32) * f
            if elsewhere(at, read) and not beside_places(found + pieces, at, h * f, w * f):
                return aimed
    return best


def recognize(data: bytes, reference_dir=None, *, reference=None) -> Reading:
    """Read the planet in a photo (the file's bytes), with the shipped art or with the box
    learned into the folder ``reference``. Never raises: the Reading says ``ok=False`` with a
    message for a person."""
    reference_dir = reference if reference is not None else reference_dir
    t0 = time.perf_counter()
    try:
        with one_thread():
            return _recognize(data, reference_dir, t0)
    except FileNotFoundError as exc:  # no reference images at all
        logging.getLogger(__name__).error("vision: %s", exc)
        error = "The tile pictures are missing, so photos cannot be read. Ask whoever runs the app."
    except Exception:  # a bug must not become a crash for the person with the photo
        logging.getLogger(__name__).exception("vision: recognize failed")
        error = "This photo could not be read. Please try another photo, taken from above."
    return Reading(ok=False, error=error, ms=int(round((time.perf_counter() - t0) * 1000)))


def _recognize(data: bytes, reference_dir, t0: float) -> Reading:

    def done(reading: Reading) -> Reading:
        reading.ms = int(round((time.perf_counter() - t0) * 1000))
        return reading

    if reference_dir is not None and (Path(reference_dir) / "box.json").exists():
        from .reader import exemplars_in, read_box
        return done(read_box(data, exemplars_in(reference_dir)))
    try:
        img, reduce = decode(data, min_side=SHIPPED_SIDE)
    except UnusableImage as exc:
        return done(Reading(ok=False, error=str(exc)))
    h, w = img.shape[:2]
    if min(h, w) < 64:
        return done(Reading(ok=False, error=translate(TOO_SMALL)))
    pyr = _pyramid(img)
    work, f = _work_of(pyr)
    # a black-and-white photo is compared with black-and-white references
    sat = cv2.cvtColor(work, cv2.COLOR_BGR2HSV)[..., 1]
    gray = _greyish(sat)
    index = get_index(reference_dir, gray=gray)
    best, quads, seconds, seen = _planet_in(pyr, work, f, index)
    if not _is_planet(best):
        return done(Reading(ok=False, error=translate(NO_PLANET), score=best["score"] if best else 0.0))
    if tuning.BESIDE_LOOK:
        best = _read_beside(pyr, work, quads + seconds, f, index, seen, best)
    # a small planet read poorly in a photo decoded reduced: read it again from a finer decode
    # (and tell same-looking tiles apart by their ids there; a good reading keeps either id of
    # twins, issue 8, and costs no second decode)
    side = float(np.sqrt(max(1.0, cv2.contourArea(np.asarray(best["quad"], np.float32)))))
    if reduce > 1 and side < 4 * CELL * 1.15 and best["score"] < FINE_BELOW:
        try:
            fine, r2 = decode(data, min_side=int(min(h, w) * 1.9))
        except UnusableImage:
            fine, r2 = None, reduce
        if fine is not None and r2 < reduce:
            g = reduce / r2
            again = _read(_pyramid(fine), np.asarray(best["quad"], np.float32) * g, index, refine=1)
            if again is not None and again["score"] > best["score"]:
                best = again
            else:
                best["H"] = best["H"] @ np.diag([1 / g, 1 / g, 1.0])
                best["quad"] = np.asarray(best["quad"], np.float32) * g
            best["level0"] = fine
            best["reduce"] = r2
    _tell_lookalikes(best, index)
    _face_down_in_threes(best, index)
    _tell_twins(best.get("level0", pyr[0]), best, index)
    confs = best["confs"]
    return done(Reading(ok=True, cells=best["cells"], confidences=[round(c, 3) for c in confs],
                        doubtful=[c < DOUBT for c in confs], score=best["score"], likely=_likely(best, index),
                        quad=_reading_corners(best, best.get("reduce", reduce)),
                        details={"sims": [float(x) for x in best["sims"]], "margins": best["margins"]}))
