"""The stages that read a learned box's planet, used the same way when teaching and reading.

    decode_photo → outlines_in_turn (find_outlines when teaching) → cut_cells → align_cells
    → match → classify (reader.py) → refit_outline → cut_cells …

Each stage takes and returns frozen values:

- ``Photo``: the photo upright (EXIF applied), decoded reduced (JPEG DCT scaling) so the
  planet's cells are a few dozen pixels wide; ``scale`` maps its pixels to the file's.
- ``Outline``: the planet's four corners (clockwise, the first row's left corner first when
  the photo is upright) and how strongly the photo has edges along the lattice they put the
  tiles on (tiles meet on those lines, whatever their art), against the edges inside.
- ``OnGaps``: a layout's lattice moved onto the gaps between its tiles, and each tile's own
  shift from its cell (``lattice_on_gaps``; teaching cuts its tiles by it).
- ``Cells``: the 16 cells cut from the straightened planet with a pad round each, each turned
  as its stack's tiles lie at the stack's first position (a box whose tiles face outwards).
- ``Aligned``: each tile found in its cell (shift and small turn) against the look its stack
  shares, cut at ``CELL_PX``, with how well that look fitted and where its centre was found
  (``refit_outline`` puts the lattice through those centres).

The exemplars (``Exemplars``, from a ``Box``) are cut from the teaching photos by the same
stages, so a cell and an exemplar are cut, turned, aligned and described identically.
"""
from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import cv2
import numpy as np

from . import tuning
from .imageio import decode
from .layout import STACK_AT, TURNS
from .outline import _masks, _quads_from_mask, blob_quads, grid_quads, tile_squares, trimmed

STACKS = ("character", "center", "uphill", "downhill")


@dataclass(frozen=True)
class Photo:
    image: np.ndarray     # BGR, upright
    scale: float          # file pixels per image pixel
    origin: tuple = (0.0, 0.0)  # where the image's (0, 0) lies in the whole decode at ``scale`` (a region: ``finer_region``)

    def in_file(self, corners: np.ndarray) -> np.ndarray:
        """Points of the image in the file's pixels (the convention ``corners * scale``)."""
        return (np.asarray(corners, np.float64) + np.asarray(self.origin, np.float64)) * self.scale


@dataclass(frozen=True)
class Outline:
    corners: np.ndarray   # (4, 2) float32 in Photo.image pixels, clockwise
    fit: float            # edges on the lattice lines / edges inside the planet


@dataclass(frozen=True)
class Cells:
    windows: np.ndarray   # (16, W, W, 3) uint8, W = CELL_PX + 2 * pad, in canonical turn
    pad: int
    turns: tuple          # per cell: quarter turns (np.rot90) from the straightened planet
    pitch: float = 0.0    # the lattice's cell side in the straightened planet (px; 0: the tile's side, W - 2 pad)


@dataclass(frozen=True)
class OnGaps:
    outline: Outline      # the lattice through the gaps between the tiles
    shifts: np.ndarray    # (16, 2) each tile's own shift from its cell (dx, dy), parts of a cell


@dataclass(frozen=True)
class Aligned:
    tiles: np.ndarray     # (16, CELL_PX, CELL_PX, 3) float32, in canonical turn
    fits: np.ndarray      # (16,) how well each cell matched its stack's shared look
    centres: np.ndarray   # (16, 2) where each tile's centre was found in its (turned) window
    angles: np.ndarray | None = None  # (16,) the turn (degrees, cv2.getRotationMatrix2D's sense) each tile lies at (``_tile_at``'s ``a``)


# --- 0. one thread for the small matrix products -------------------------------------------

_POOL = None


@contextmanager
def one_thread() -> Iterator[None]:
    """A context in which numpy's BLAS and OpenCV run on one thread: the reader's matrix
    products and images are small, and BLAS threads spinning on a busy server made them 10–40×
    slower; OpenCV's own threads cost more than they gave on a shared 2-core machine
    (``tuning.CV_THREADS``). Nested uses are no-ops."""
    global _POOL
    if _POOL is None:
        from threadpoolctl import ThreadpoolController
        _POOL = ThreadpoolController()
    before = cv2.getNumThreads()
    if tuning.CV_THREADS:
        cv2.setNumThreads(tuning.CV_THREADS)
    try:
        with _POOL.limit(limits=1, user_api="blas"):
            yield
    finally:
        cv2.setNumThreads(before)


# --- 1. decode ----------------------------------------------------------------------------

def decode_photo(data: bytes, min_side: int = tuning.READ_SIDE) -> Photo:
    """Decode reduced (never below ``min_side`` on the short side), then shrink to at most
    twice that. Raises ``UnusableImage`` with a message for a person."""
    img, reduce = decode(data, min_side=min_side)
    h, w = img.shape[:2]
    f = min(1.0, 2 * min_side / min(h, w))
    if f < 1.0:
        img = cv2.resize(img, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA)
    return Photo(img, reduce / f)


_UNIT_SQUARE = np.float32([[0, 0], [4, 0], [4, 4], [0, 4]])   # a 4x4 lattice, a cell a unit


def moved_in_lattice(quad, across: float = 0.0, down: float = 0.0, scale: float = 1.0,
                     turn: float = 0.0) -> np.ndarray:
    """The outline ``quad`` moved in its own lattice: shifted ``across`` and ``down`` (parts of a
    cell), scaled by ``scale`` and turned by ``turn`` degrees about its centre, mapped back into
    the photo through the outline's own perspective."""
    H = cv2.getPerspectiveTransform(_UNIT_SQUARE, np.float32(quad))
    a = np.deg2rad(turn)
    spin = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    lattice = (_UNIT_SQUARE - 2.0) @ spin.T * scale + 2.0 + np.array([across, down])
    return cv2.perspectiveTransform(np.float32(lattice)[None], H)[0].astype(np.float32)


def lattice_parts(quad, boxes: np.ndarray) -> np.ndarray:
    """The outlines of the rectangles ``boxes`` (k, 4: left, top, right, bottom, in cells of the
    outline ``quad``'s 4x4 lattice: 0, 0, 4, 4 is ``quad`` itself; a side may lie beyond it), mapped
    into the photo through the outline's own perspective: (k, 4, 2)."""
    H = cv2.getPerspectiveTransform(_UNIT_SQUARE, np.float32(quad))
    b = np.asarray(boxes, np.float32).reshape(-1, 4)
    x0, y0, x1, y1 = b[:, 0], b[:, 1], b[:, 2], b[:, 3]
    corners = np.stack([np.stack([x0, y0], 1), np.stack([x1, y0], 1), np.stack([x1, y1], 1), np.stack([x0, y1], 1)], 1)
    return cv2.perspectiveTransform(corners.reshape(1, -1, 2), H)[0].reshape(-1, 4, 2).astype(np.float32)


def quad_side(quad) -> float:
    """The side of a square with the outline's area (its cells' side: a quarter of it), in its pixels."""
    return float(np.sqrt(max(1.0, cv2.contourArea(np.asarray(quad, np.float32)))))


def squares_along_edges(image: np.ndarray, quad, sides: tuple) -> list[np.ndarray]:
    """Squares about the outline ``quad``'s middle (``image``'s pixels), turned as the edges inside
    it run (the magnitude-weighted mean of the gradients' direction, taken modulo a quarter turn:
    a planet's tiles and their gaps run its way), of ``sides`` parts of ``quad_side``. An outline
    fitted to a blob whose corners the masks rounded off may sit square to the frame while the
    planet in it is turned; these sit as the planet does. None (an empty list) when the outline holds
    under 8 pixels across."""
    q = np.asarray(quad, np.float32)
    h, w = image.shape[:2]
    x0, y0 = (max(0, int(np.floor(v))) for v in q.min(axis=0))
    x1, y1 = min(w, int(np.ceil(q[:, 0].max()))), min(h, int(np.ceil(q[:, 1].max())))
    if x1 - x0 < 8 or y1 - y0 < 8:
        return []
    grey = image[y0:y1, x0:x1]
    grey = (cv2.cvtColor(grey, cv2.COLOR_BGR2GRAY) if grey.ndim == 3 else grey).astype(np.float32)
    gx, gy = cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1)
    inside = np.zeros(grey.shape, np.uint8)
    cv2.fillPoly(inside, [np.int32(np.round(q - [x0, y0]))], 1)
    pull = (np.hypot(gx, gy) * inside * np.exp(4j * np.arctan2(gy, gx))).sum()
    turn = float(np.angle(pull)) / 4
    c, s = np.cos(turn), np.sin(turn)
    middle, side = q.mean(axis=0), quad_side(q)
    unit = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32) @ np.array([[c, s], [-s, c]], np.float32)
    return [(unit * (side * k / 2) + middle).astype(np.float32) for k in sides]


def beside_places(quads, read, h: float, w: float) -> list:
    """Of the outlines ``quads``, those where another planet than the one read (outline ``read``)
    may lie, nearer the middle of an ``h``×``w`` photo (in the same pixels): their middles lie
    ``BESIDE_APART`` planet sides or more from it, their sides are ``BESIDE_SIZE`` of its side, and
    they lie ``BESIDE_NEARER`` sides nearer the middle. The beside look's bars (the player aims at
    their own planet), the same for the box reader and the shipped art's."""
    middle = np.array([w / 2, h / 2], np.float32)
    side = quad_side(read)
    at = np.asarray(read, np.float32).mean(axis=0)
    far = float(np.linalg.norm(at - middle))
    return [q for q in quads
            if np.linalg.norm(q.mean(axis=0) - at) >= tuning.BESIDE_APART * side
            and tuning.BESIDE_SIZE[0] <= quad_side(q) / side <= tuning.BESIDE_SIZE[1]
            and np.linalg.norm(q.mean(axis=0) - middle) <= far - tuning.BESIDE_NEARER * side]


def cut_by_frame(quad, h: float, w: float) -> bool:
    """Does the frame of an ``h``×``w`` photo cut the outline ``quad`` (a corner ``BESIDE_EDGE`` of
    the short side beyond its edge, or more), which lies off its middle (``off_middle``)? A planet
    the player did not frame: they frame their own whole, about the middle (a planet filling the
    frame lies about its middle, a corner perhaps a little beyond)."""
    q = np.asarray(quad, np.float32)
    margin = min(float(q[:, 0].min()), float(q[:, 1].min()), w - 1 - float(q[:, 0].max()), h - 1 - float(q[:, 1].max()))
    return margin < -tuning.BESIDE_EDGE * min(h, w) and off_middle(q, h, w)


def off_middle(quad, h: float, w: float, part: float | None = None) -> bool:
    """Does the outline ``quad``'s middle lie ``part`` (``BESIDE_CUT_OFF`` unless given) of the short
    side of an ``h``×``w`` photo, or more, off the frame's middle (where the player aims)?"""
    q = np.asarray(quad, np.float32)
    off = float(np.linalg.norm(q.mean(axis=0) - np.array([w / 2, h / 2], np.float32)))
    return off >= (tuning.BESIDE_CUT_OFF if part is None else part) * min(h, w)


def elsewhere(quad, read) -> bool:
    """Does the outline ``quad`` lie elsewhere than ``read`` (the same pixels): its middle half a
    planet side or more from ``read``'s? (A place the beside look read may move back onto the planet
    already read when fitted.)"""
    q, r = np.asarray(quad, np.float32), np.asarray(read, np.float32)
    return bool(np.linalg.norm(q.mean(axis=0) - r.mean(axis=0)) >= quad_side(r) / 2)


def joined_rest(photo: Photo, kept: dict, read) -> list[np.ndarray]:
    """Where a planet joined to the one read (outline ``read``, photo pixels) may lie: the masks'
    largest blobs (``kept["blobs"]``, kept by ``candidate_quads``) holding ``BESIDE_JOINED`` of its area
    (two planets as one blob: they touch on the table), less the planet read (its outline grown
    ``BESIDE_GROW`` about its middle) and trimmed (``TRIM_OPEN``, ``outline.trimmed``: what the grown
    outline left of its rim goes). Their outlines, in photo pixels (none when no mask's blob is that
    large: a photo of one planet)."""
    f = find_scale(photo.image)
    q = np.asarray(read, np.float32) * f
    area = cv2.contourArea(q)
    grown = np.round((q - q.mean(axis=0)) * tuning.BESIDE_GROW + q.mean(axis=0)).astype(np.int32)
    out: list[np.ndarray] = []
    for blob in kept.get("blobs") or ():
        if blob is None or not (tuning.BESIDE_JOINED[0] * area <= cv2.countNonZero(blob) <= tuning.BESIDE_JOINED[1] * area):
            continue
        blob = blob.copy()   # the kept blob stays as found
        cv2.fillConvexPoly(blob, grown, 0)
        rest = trimmed(blob, tuning.TRIM_OPEN)
        if rest is not None:
            out += [(o / f).astype(np.float32) for o in blob_quads(rest)]
    return out


def painted_over(photo: Photo, quad, grow: float) -> Photo:
    """The photo with the outline ``quad`` (its pixels) painted over (``painted``)."""
    return Photo(painted(photo.image, quad, grow), photo.scale, photo.origin)


def painted(image: np.ndarray, quad, grow: float) -> np.ndarray:
    """A copy of ``image`` with the outline ``quad`` (its pixels), grown ``grow`` about its middle,
    painted over in the table's colour beside it (the median of a band as wide again about it): a
    planet read gone from the photo, as if it had never lain there."""
    q = np.asarray(quad, np.float32)
    mid = q.mean(axis=0)
    h, w = image.shape[:2]
    inner, outer = np.zeros((h, w), np.uint8), np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(inner, np.round((q - mid) * grow + mid).astype(np.int32), 1)
    cv2.fillConvexPoly(outer, np.round((q - mid) * (2 * grow - 1) + mid).astype(np.int32), 1)
    band = (outer > 0) & (inner == 0)
    out = image.copy()
    if band.any():
        out[inner > 0] = np.median(image[band], axis=0).astype(np.uint8)
    return out


def shortest_side(quad) -> float:
    """The shortest of an outline's four sides, in its pixels."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    return float(np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1).min())


def finer_region(data: bytes, photo: Photo, outline: Outline, cell_px: float, grow: float,
                 most: float = 8.0) -> tuple[Photo, Outline] | None:
    """The planet of ``outline`` (found in ``photo``, a reduced decode of ``data``) decoded again at
    the largest JPEG DCT reduction that makes its cells at least ``cell_px`` (at most ``most`` times
    finer than ``photo``, the full file at most),
    only the region round it kept (the outline's box grown by ``grow`` cells each side), with the
    outline mapped into it (pixel centres: a decode reduced by r shows the file's pixel
    (i + 0.5) r - 0.5 at i). None when no finer decode is to be had (the photo decoded whole, or
    not a JPEG)."""
    img = photo.image
    side = quad_side(outline.corners) / 4
    short = min(img.shape[:2]) * photo.scale           # the file's short side, about
    want = photo.scale * side / cell_px                # the most reduction that makes the cells cell_px
    r2 = max(next((r for r in (8, 4, 2) if r <= want), 1), photo.scale / most)
    r2 = next((r for r in (1, 2, 4, 8) if r >= r2 - 1e-6), 8)
    if r2 >= photo.scale - 1e-6 or data[:2] != b"\xff\xd8":
        return None
    fine, reduce = decode(data, min_side=max(1, int(short / r2) - 2))
    if reduce >= photo.scale - 1e-6:
        return None
    g = photo.scale / reduce
    corners = (outline.corners.astype(np.float64) + np.asarray(photo.origin) + 0.5) * g - 0.5
    m = grow * side * g
    h, w = fine.shape[:2]
    x0, y0 = max(0, int(np.floor(corners[:, 0].min() - m))), max(0, int(np.floor(corners[:, 1].min() - m)))
    x1, y1 = min(w, int(np.ceil(corners[:, 0].max() + m)) + 1), min(h, int(np.ceil(corners[:, 1].max() + m)) + 1)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    region = Photo(np.ascontiguousarray(fine[y0:y1, x0:x1]), float(reduce), (float(x0), float(y0)))
    return region, Outline((corners - (x0, y0)).astype(np.float32), outline.fit)


# --- 2. find the planet's outline ---------------------------------------------------------

def edge_map(img: np.ndarray) -> np.ndarray:
    g = cv2.GaussianBlur(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), (0, 0), 1.0).astype(np.float32)
    mag = cv2.magnitude(cv2.Sobel(g, cv2.CV_32F, 1, 0), cv2.Sobel(g, cv2.CV_32F, 0, 1))
    return cv2.GaussianBlur(mag, (0, 0), 1.0)


_G = tuning.FIT_PX            # cell side of the straightened edge map when fitting
_GM = _G // 2                 # its margin
_LINES = np.zeros((4 * _G + 2 * _GM,) * 2, bool)
for _i in range(5):
    _v = _GM + _i * _G
    _LINES[_v - 1:_v + 2, _GM:_GM + 4 * _G] = True
    _LINES[_GM:_GM + 4 * _G, _v - 1:_v + 2] = True
_INSIDE = np.zeros_like(_LINES)
_INSIDE[_GM:_GM + 4 * _G, _GM:_GM + 4 * _G] = True
_INSIDE &= ~_LINES
_SQUARE = np.float32([[_GM, _GM], [_GM + 4 * _G, _GM], [_GM + 4 * _G, _GM + 4 * _G], [_GM, _GM + 4 * _G]])


def _straightened_edges(edges: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The edge map with ``quad`` made the square ``_SQUARE`` (cells of ``_G``, a margin of ``_GM``)."""
    H = cv2.getPerspectiveTransform(quad.astype(np.float32), _SQUARE)
    n = _LINES.shape[0]
    return cv2.warpPerspective(edges, H, (n, n), flags=cv2.INTER_LINEAR)


def lattice_fit(edges: np.ndarray, quad: np.ndarray) -> float:
    e = _straightened_edges(edges, quad)
    return float(e[_LINES].mean() / (e[_INSIDE].mean() + 1.0))


def lattice_contrast(edges: np.ndarray, quad: np.ndarray) -> float:
    """Edges on the lattice's six inner lines against edges half a cell off them (median of the
    six ratios): tiles meet on the lines; a photo of other things has no such lattice."""
    e = _straightened_edges(edges, quad)
    lo, hi = _GM, _GM + 4 * _G

    def strength(i: float) -> tuple:
        v = int(_GM + i * _G)
        return e[v - 1:v + 2, lo:hi].mean(), e[lo:hi, v - 1:v + 2].mean()
    return float(np.median([a / (b + 1.0) for i in (1, 2, 3) for a, b in zip(strength(i), strength(i + .5))]))


_LINE_PTS = np.argwhere(_LINES)[:, ::-1].astype(np.float32)           # (x, y) on the lattice lines
_INSIDE_PTS = np.argwhere(_INSIDE)[::2, ::-1].astype(np.float32)      # every other pixel inside
_FIT_PTS = np.concatenate([_LINE_PTS, _INSIDE_PTS])


def lattice_fits(edges: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """``lattice_fit`` of many outlines at once (``quads``: (k, 4, 2)): the points of the
    straightened lattice are mapped into the photo and the edges sampled there, one remap."""
    Hs = np.stack([cv2.getPerspectiveTransform(_SQUARE, q.astype(np.float32)) for q in quads]).astype(np.float32)
    v = _sample(edges, Hs, _FIT_PTS)
    n = len(_LINE_PTS)
    return v[:, :n].mean(axis=1) / (v[:, n:].mean(axis=1) + 1.0)


def fit_outline(edges: np.ndarray, quad: np.ndarray) -> Outline:
    """Nudge the corners until the lattice lines lie on the tiles' edges: each round tries every
    corner moved one step each way and keeps the best, until none is better."""
    quad = quad.astype(np.float32).copy()
    best = float(lattice_fits(edges, quad[None])[0])
    side = quad_side(quad)
    moves = np.zeros((16, 4, 2), np.float32)
    for k, (i, axis, d) in enumerate((i, axis, d) for i in range(4) for axis in (0, 1) for d in (-1, 1)):
        moves[k, i, axis] = d
    for step in tuning.FIT_STEPS:
        while True:
            trials = quad[None] + moves * (step * side)
            fits = lattice_fits(edges, trials)
            k = int(np.argmax(fits))
            if fits[k] <= best + 1e-4:
                break
            best, quad = float(fits[k]), trials[k]
    return Outline(quad, best)


# A teaching photo is upright (the layout nearly level): its lattice's rows lie along the
# photo's x axis, its columns along y. Edges across each line (a vertical gradient on a row's
# line, a horizontal one on a column's) are the tiles' borders; an icon's or a rim's edges run
# every way. The lines' points, without their crossings (which carry either).
_ROW_PTS = np.array([(x, _GM + i * _G + d) for i in range(5) for d in (-1, 0, 1)
                     for x in range(_GM, _GM + 4 * _G) if (x - _GM) % _G not in (0, 1, _G - 1)], np.float32)
_COL_PTS = _ROW_PTS[:, ::-1].copy()


def oriented_edges(img: np.ndarray, light: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """|d/dx|, |d/dy| and the gradient's magnitude, each lightly blurred (``layout_fits``);
    ``light``: of the grey with its light taken out (``light_free``: a lamp's fall-off leaves
    the tiles' borders in its dim part as strong as in its bright part)."""
    g = cv2.GaussianBlur(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), (0, 0), 1.0).astype(np.float32)
    if light:
        g = light_free(g, tuning.EDGE_FLOOR)
    gx, gy = np.abs(cv2.Sobel(g, cv2.CV_32F, 1, 0)), np.abs(cv2.Sobel(g, cv2.CV_32F, 0, 1))
    return (cv2.GaussianBlur(gx, (0, 0), 1.0), cv2.GaussianBlur(gy, (0, 0), 1.0),
            cv2.GaussianBlur(gx + gy, (0, 0), 1.0))


def _sample(img: np.ndarray, Hs: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """``img`` at the points ``pts`` (P, 2) of the straightened lattice mapped by each of the
    homographies ``Hs`` (k, 3, 3) float32: (k, P), one remap. The projective coordinates are
    h_r = H[r, 0] x + H[r, 1] y + H[r, 2] in float32, worked in place."""
    x, y = pts[:, 0], pts[:, 1]
    h = []
    for r in range(3):
        t = Hs[:, r, 0, None] * x
        t += Hs[:, r, 1, None] * y
        t += Hs[:, r, 2, None]
        h.append(t)
    np.divide(h[0], h[2], out=h[0])
    np.divide(h[1], h[2], out=h[1])
    return cv2.remap(img, h[0], h[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)


def layout_fits(edges: tuple, quads: np.ndarray, weakest: int = 10) -> np.ndarray:
    """How well each upright outline's lattice lies on the tiles' borders: edges across the
    rows' and columns' lines (``oriented_edges``; the ``weakest`` of the ten lines only, to rank
    fitted outlines: every line of a layout lies on tiles' borders, a smaller lattice inside it
    does not) against all edges inside the cells."""
    gx, gy, mag = edges
    Hs = np.stack([cv2.getPerspectiveTransform(_SQUARE, q.astype(np.float32)) for q in quads]).astype(np.float32)
    k = len(quads)
    lines = np.concatenate([_sample(gy, Hs, _ROW_PTS).reshape(k, 5, -1).mean(axis=2),
                            _sample(gx, Hs, _COL_PTS).reshape(k, 5, -1).mean(axis=2)], axis=1)
    on = np.sort(lines, axis=1)[:, :weakest].mean(axis=1)
    return on / (_sample(mag, Hs, _INSIDE_PTS).mean(axis=1) / 2 + 1.0)


def layout_straightness(edges: tuple, quad: np.ndarray) -> float:
    """How much more the ten lines of an upright outline's lattice carry edges across them than
    along them (median over the lines): tiles' borders are straight lines, so a layout's lines
    carry edges across only; a face, a table or text has edges every way. Each line's typical
    point (its points' median), not their mean: a border may carry short edges along it (a
    perforated or notched card edge, the table showing between the notches, an icon touching
    it), which a few strong points make the mean of (box2-heldout11's perforated edges: mean
    1.6-1.8, as its photo of a lawn; median 1.5-2.8, every no-planet photo 1.16 and under)."""
    return float(layout_straightnesses(edges, quad[None])[0])


def layout_straightnesses(edges: tuple, quads: np.ndarray) -> np.ndarray:
    """``layout_straightness`` of each of the outlines ``quads`` (k, 4, 2): (k,), one remap each."""
    return np.median(line_straightnesses(edges, quads), axis=1)


def line_straightnesses(edges: tuple, quads: np.ndarray) -> np.ndarray:
    """Each of the ten lines' straightness (``layout_straightness`` before the median over the
    lines; the rows' five lines, top to bottom, then the columns', left to right) of each of the
    outlines ``quads`` (k, 4, 2): (k, 10)."""
    gx, gy, _ = edges
    Hs = np.stack([cv2.getPerspectiveTransform(_SQUARE, q.astype(np.float32)) for q in quads]).astype(np.float32)
    k = len(quads)
    across = np.concatenate([np.median(_sample(gy, Hs, _ROW_PTS).reshape(k, 5, -1), axis=2),
                             np.median(_sample(gx, Hs, _COL_PTS).reshape(k, 5, -1), axis=2)], axis=1)
    along = np.concatenate([np.median(_sample(gx, Hs, _ROW_PTS).reshape(k, 5, -1), axis=2),
                            np.median(_sample(gy, Hs, _COL_PTS).reshape(k, 5, -1), axis=2)], axis=1)
    return across / (along + 1.0)


def straighten_layout(edges: tuple, quad: np.ndarray) -> tuple[np.ndarray, float]:
    """An upright outline moved (its corners, and the whole of it: ``_layout_moves``, by
    ``STRAIGHTEN_STEPS`` of its side) until its lattice's lines carry the most edges across
    them against along them (``layout_straightness``), and that straightness. Where the art
    inside the tiles is full of edges lying along the rows (waves, stripes), the lattice that
    carries the most edges across (``fit_layout``) is a smaller one on the art, off the tiles'
    borders; the borders are the lines that carry edges across only (box2-heldout14's t05)."""
    return _climb(quad, lambda qs: layout_straightnesses(edges, qs), tuning.STRAIGHTEN_STEPS, tuning.STRAIGHTEN_MOVES)


def layout_quads(photo: Photo) -> list[np.ndarray]:
    """A teaching photo's candidate outlines (upright) as the masks find them, not fitted
    (``LEARN_CANDIDATES`` of them)."""
    return candidate_quads(photo.image, upright=True)[:tuning.LEARN_CANDIDATES]


def find_layouts(photo: Photo, light: bool = False, quads: list | None = None) -> list[Outline]:
    """A teaching photo's candidate outlines (``layout_quads``, or ``quads`` when already made),
    each fitted with ``fit_layout``, best first; ``light``: on edges with the light taken out."""
    edges = oriented_edges(photo.image, light)
    return sorted((fit_layout(edges, q) for q in (layout_quads(photo) if quads is None else quads)), key=lambda o: -o.fit)


_CORNER_MOVES = np.zeros((16, 4, 2), np.float32)
for _k, (_c, _a, _d) in enumerate((c, a, d) for c in range(4) for a in (0, 1) for d in (-1, 1)):
    _CORNER_MOVES[_k, _c, _a] = _d


def _layout_moves(quad: np.ndarray) -> np.ndarray:
    """Unit moves of an outline: each corner alone along x or y, and the whole outline shifted,
    grown or shrunk, and turned (a lattice half a cell off, too small or turned is a local best
    of moving corners one at a time)."""
    c = quad.mean(axis=0)
    r = (quad - c) / max(1e-6, float(np.abs(quad - c).max()))
    turn = np.stack([-r[:, 1], r[:, 0]], axis=1)
    whole = [np.tile(v, (4, 1)) for v in ([1, 0], [-1, 0], [0, 1], [0, -1])] + [r, -r, turn, -turn]
    return np.concatenate([_CORNER_MOVES, np.stack(whole).astype(np.float32)])


def fit_layout(edges: tuple, quad: np.ndarray) -> Outline:
    """``fit_outline`` for an upright teaching photo (``layout_fits`` of all ten lines), from
    coarser steps (``LAYOUT_STEPS``: a candidate from the masks may be most of a cell off), with
    moves of the whole outline; its ``fit``: ``layout_fits`` of the ``LAYOUT_WEAKEST`` lines."""
    quad, _ = _climb(quad, lambda qs: layout_fits(edges, qs), tuning.LAYOUT_STEPS)
    return Outline(quad, float(layout_fits(edges, quad[None], tuning.LAYOUT_WEAKEST)[0]))


def _climb(quad: np.ndarray, score, steps: tuple, most: int | None = None) -> tuple[np.ndarray, float]:
    """An upright outline moved by ``_layout_moves`` (each step a part of its side, coarse to
    fine; at most ``most`` moves a step, None: no limit) while ``score`` (of a batch of
    outlines) grows; the outline and its score."""
    quad = quad.astype(np.float32).copy()
    best = float(score(quad[None])[0])
    side = quad_side(quad)
    for step in steps:
        moved = 0
        while most is None or moved < most:
            trials = quad[None] + _layout_moves(quad) * (step * side)
            fits = score(trials)
            k = int(np.argmax(fits))
            if fits[k] <= best + 1e-4:
                break
            best, quad, moved = float(fits[k]), trials[k], moved + 1
    return quad, best


def find_scale(img: np.ndarray) -> float:
    """The scale at which outlines are looked for: the photo's long side ``FIND_SIDE`` (never
    enlarged)."""
    h, w = img.shape[:2]
    return min(1.0, tuning.FIND_SIDE / max(h, w))


def at_find_side(img: np.ndarray) -> tuple[np.ndarray, float]:
    """The photo shrunk to ``find_scale`` (area-averaged), and that scale."""
    h, w = img.shape[:2]
    f = find_scale(img)
    return cv2.resize(img, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA), f


def candidate_quads(img: np.ndarray, upright: bool = False, trim: float = 0.0,
                    kept: dict | None = None) -> list[np.ndarray]:
    """Outlines of things unlike the table, in ``img`` pixels (found at FIND_SIDE). ``upright``:
    a teaching photo, whose layout is nearly square and level. ``trim``: each mask's blob trimmed
    first (``outline.trimmed``). ``kept``: a dict the caller keeps for this photo, in which the
    masks are kept when first made."""
    h, w = img.shape[:2]
    f = find_scale(img)
    kept = {} if kept is None else kept
    if "masks" not in kept:
        kept["masks"] = _masks(at_find_side(img)[0])
    out: list[np.ndarray] = []
    seconds: list | None = None if upright or trim else []   # the masks' next largest blobs' outlines
    blobs: list | None = None if seconds is None else []     # … and their largest blobs
    for m in kept["masks"]:
        for q in _quads_from_mask(m, trim, seconds, blobs):
            q = q / f
            shortest = _planet_shaped(q, h, w, upright)
            if shortest is not None and all(np.abs(q - o).max() > 0.03 * shortest for o in out):
                out.append(q.astype(np.float32))
    if seconds is not None:   # kept for the beside look (``reader.read_photo``)
        kept["beside"] = [q.astype(np.float32) for q in (q / f for q in seconds) if _planet_shaped(q, h, w, False) is not None]
        kept["blobs"] = blobs
    return out


def _planet_shaped(q: np.ndarray, h: int, w: int, upright: bool) -> float | None:
    """Whether ``q`` may be a planet in an ``h``×``w`` image (no side under ``MIN_PLANET`` of the
    short side, sides alike: ``MAX_ASPECT``, level when ``upright``): its shortest side, or None."""
    sides = [np.linalg.norm(q[i] - q[(i + 1) % 4]) for i in range(4)]
    if min(sides) < tuning.MIN_PLANET * min(h, w):
        return None
    if max(sides) / max(1e-6, min(sides)) > tuning.MAX_ASPECT:
        return None
    if upright and not is_level(q):
        return None
    return min(sides)


def is_level(quad: np.ndarray) -> bool:
    """Is ``quad``'s first side (a teaching photo's layout's top) within ``LEARN_MAX_TURN``
    degrees of the photo's rows?"""
    (x0, y0), (x1, y1) = quad[0], quad[1]
    return bool(abs(np.degrees(np.arctan2(y1 - y0, x1 - x0))) <= tuning.LEARN_MAX_TURN)


def find_outlines(photo: Photo, upright: bool = False) -> list[Outline]:
    """The candidate outlines, each fitted to the lattice, best fit first."""
    edges = edge_map(photo.image)
    return sorted((fit_outline(edges, q) for q in candidate_quads(photo.image, upright)[:tuning.CANDIDATES]),
                  key=lambda o: -o.fit)


def outlines_in_turn(photo: Photo, later: bool = False, kept: dict | None = None) -> Iterator[Outline]:
    """The candidate outlines one by one, each fitted when asked for, in the order of how well
    the lattice lies on the photo's edges before fitting (one batch): a reader that is sure
    of the first stops there. The first ``CANDIDATES`` the masks find; ``later``: those the
    masks find after them (on a cluttered table the planet's own may come 9th of 11).
    ``kept``: a dict the caller keeps for this photo, in which the masks' outlines and the edge
    map are kept when first made (the later ones are looked at in the same photo: the same
    values, made once; ``reader.read_photo``)."""
    kept = {} if kept is None else kept
    quads = _masks_quads(photo, kept)
    yield from fitted_in_turn(photo, quads[tuning.CANDIDATES:] if later else quads[:tuning.CANDIDATES], kept)


def _masks_quads(photo: Photo, kept: dict) -> list[np.ndarray]:
    """The masks' own outlines of the photo (``candidate_quads``), made once, in ``kept``."""
    if "quads" not in kept:
        kept["quads"] = candidate_quads(photo.image, kept=kept)
    return kept["quads"]


def kept_edges(photo: Photo, kept: dict) -> np.ndarray:
    """The photo's edge map (``edge_map``), made once, in the photo's ``kept`` dict."""
    if "edges" not in kept:
        kept["edges"] = edge_map(photo.image)
    return kept["edges"]


def flattened_outlines(photo: Photo, kept: dict | None = None) -> Iterator[Outline]:
    """``outlines_in_turn`` of the photo with its slow light taken out (``flattened``), those
    outlines and the flattened photo's edge map kept in ``kept`` as ``"flat"`` (for the grown
    look, ``grown_candidates``)."""
    kept = {} if kept is None else kept
    return outlines_in_turn(flattened(photo), kept=kept.setdefault("flat", {}))


def fitted_in_turn(photo: Photo, quads: list, kept: dict) -> Iterator[Outline]:
    """``quads`` each fitted when asked for, in the order of how well the lattice lies on the
    photo's edges before fitting (the edge map made once, in ``kept``)."""
    if not quads:
        return
    edges = kept_edges(photo, kept)
    for k in np.argsort(-lattice_fits(edges, np.stack(quads)), kind="stable"):
        yield fit_outline(edges, quads[k])


def trimmed_outlines(photo: Photo, kept: dict | None = None) -> Iterator[Outline]:
    """The outlines of the masks' blobs trimmed (``candidate_quads``' ``trim``, ``TRIM_OPEN``), those
    not already among the masks' own (``outlines_in_turn``), each fitted when asked for, in the order
    of how well the lattice lies on the photo's edges. ``kept``: as ``outlines_in_turn``'s (the
    trimmed outlines kept in it too, as ``"trimmed"``)."""
    kept = {} if kept is None else kept
    if "trimmed" not in kept:
        own = _masks_quads(photo, kept)
        kept["trimmed"] = [q for q in candidate_quads(photo.image, trim=tuning.TRIM_OPEN, kept=kept)
                           if all(np.abs(q - o).max() > 0.03 * quad_side(q) for o in own)]
    yield from fitted_in_turn(photo, kept["trimmed"], kept)


def grid_outlines(photo: Photo, kept: dict | None = None) -> Iterator[Outline]:
    """Outlines from the planet's own lattice rather than its colour against the table
    (``outline.tile_squares``, ``grid_quads``): the 4x4 windows of like near-square tiles holding
    the most of them (``GRID_WINDOWS`` looked at), best first, each fitted to the lattice when asked
    for (``fit_outline``, as ``outlines_in_turn``'s). Among windows holding as many tiles (where the
    tiles found span 3 rows or columns, a window a cell off holds them all too) the one whose
    weakest outer row or column has the most edges first (``outer_edges``: a band of table beside
    the planet is calmer than a band of tiles' art). ``kept``: as ``outlines_in_turn``'s (its edge
    map is used when made; the windows' outlines, ranked, kept in it as ``"grid"``)."""
    kept = {} if kept is None else kept
    if "grid" not in kept:
        found = grid_quads(tile_squares(photo.image, tuning.GRID_SIDES), tuning.GRID_WINDOWS, tuning.GRID_LEAST)
        if not found:
            kept["grid"] = []
            return
        edges = kept_edges(photo, kept)
        kept["grid"] = [q for q, _ in sorted(found, key=lambda f: (-f[1], -outer_edges(edges, f[0])))]
    for q in kept["grid"][:tuning.GRID_OUTLINES]:
        yield fit_outline(kept["edges"], q)


def grown_quads(quad: np.ndarray) -> list[np.ndarray]:
    """An outline that may hold only part of a planet, grown to the whole (the grown look,
    ``reader._read_grown``): scaled about its centre (``GROW_SCALES``: the planet's round disc
    without the corners' tiles), and a cell more on a side. A long outline (``GROW_LONG``: 4 cells
    by 3, a row of tiles like the table left out) gets a cell along its short sides, at either end;
    a near-square one (3 cells by 3) a cell along two sides that meet, at each of its corners.
    Corners clockwise as ``quad``'s, float32."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    centre = q.mean(axis=0)
    across = ((q[1] - q[0]) + (q[2] - q[3])) / 2   # from the first corner's side to the second's
    down = ((q[3] - q[0]) + (q[2] - q[1])) / 2
    la, ld = float(np.linalg.norm(across)), float(np.linalg.norm(down))
    out = [centre + (q - centre) * s for s in tuning.GROW_SCALES]
    if min(la, ld) > 0:
        ends = {k: np.float64(m)[:, None] for k, m in
                (("right", (0, 1, 1, 0)), ("left", (1, 0, 0, 1)), ("bottom", (0, 0, 1, 1)), ("top", (1, 1, 0, 0)))}
        if la * tuning.GROW_LONG < ld:       # 3 cells across, 4 down
            k = ld / 4 / la
            out += [q + ends["right"] * across * k, q - ends["left"] * across * k]
        elif ld * tuning.GROW_LONG < la:     # 4 cells across, 3 down
            k = la / 4 / ld
            out += [q + ends["bottom"] * down * k, q - ends["top"] * down * k]
        else:                                # 3 cells by 3
            for a in (ends["right"] * across / 3, -ends["left"] * across / 3):
                out += [q + a + d for d in (ends["bottom"] * down / 3, -ends["top"] * down / 3)]
    return [o.astype(np.float32) for o in out]


@dataclass(frozen=True)
class Disc:
    """A round disc in the photo, taken for a planet's (``planet_discs``): its centre and radius in
    the photo's pixels, and the planet about it: squares ``GROW_DISC_SIDES`` of its diameter,
    turned as the edges inside it run (within a quarter turn), corners clockwise from the top
    left's when not turned."""
    x: float
    y: float
    radius: float
    squares: tuple


def planet_discs(img: np.ndarray) -> list[Disc]:
    """The planet's round disc, found by its shape rather than its colour against the table (the
    grown look): the ``GROW_DISCS`` likeliest circles of a planet's size in the photo
    (``cv2.HoughCircles`` on its grey, stretched to the full range: a dim lamp), each turned as the
    edges inside it run (the tiles' gaps: the strongest direction of its gradients, modulo a
    quarter turn), in ``img`` pixels."""
    work, f = at_find_side(img)
    small = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY)
    short = min(small.shape[:2])
    grey = cv2.GaussianBlur(cv2.normalize(small, None, 0, 255, cv2.NORM_MINMAX), (0, 0), 2)
    circles = cv2.HoughCircles(grey, cv2.HOUGH_GRADIENT, dp=1.5, minDist=0.1 * short, param1=tuning.GROW_DISC_EDGE,
                               param2=tuning.GROW_DISC_VOTES, minRadius=int(0.4 * tuning.MIN_PLANET * short),
                               maxRadius=int(0.55 * short))
    if circles is None:
        return []
    gx = cv2.Sobel(small.astype(np.float32), cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(small.astype(np.float32), cv2.CV_32F, 0, 1, ksize=3)
    strength, way = np.hypot(gx, gy), np.arctan2(gy, gx)
    out = []
    for cx, cy, r in circles[0][:tuning.GROW_DISCS]:
        inside = np.zeros(small.shape, np.uint8)
        cv2.circle(inside, (int(round(cx)), int(round(cy))), int(0.9 * r), 1, -1)
        m = inside.astype(bool)
        a = float(np.angle(np.sum(strength[m] * np.exp(4j * way[m])))) / 4   # the gaps' direction, mod 90 degrees
        across, down = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
        squares = []
        for side in tuning.GROW_DISC_SIDES:
            u, v = across * r * side, down * r * side
            c = np.array([cx, cy])
            squares.append((np.float32([c - u - v, c + u - v, c + u + v, c - u + v]) / f).astype(np.float32))
        out.append(Disc(float(cx) / f, float(cy) / f, float(r) / f, tuple(squares)))
    return out


def rim_strength(img: np.ndarray, disc: Disc) -> float:
    """How strongly ``disc``'s rim is an edge (``rim_strengths`` of it alone)."""
    return rim_strengths(img, [disc])[0]


def rim_strengths(img: np.ndarray, discs: list[Disc]) -> list[float]:
    """How strongly each disc's rim is an edge: over 72 directions from its centre, the strongest
    gradient along that direction from 0.93 to 1.07 of its radius; their median, over the photo's
    median gradient (the photo's gradients made once for all). A planet's disc has an edge all
    round it (dev sets' teaching photos of variant H: 3.8-7.2); a circle HoughCircles finds in a
    table's grain or stripes has it here and there (1.0-1.8)."""
    g = cv2.GaussianBlur(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), (0, 0), 1.5).astype(np.float32)
    gx, gy = cv2.Sobel(g, cv2.CV_32F, 1, 0), cv2.Sobel(g, cv2.CV_32F, 0, 1)
    typical = float(np.median(np.hypot(gx, gy))) + 1e-3
    way = np.linspace(0, 2 * np.pi, 72, endpoint=False)[:, None]
    out = []
    for disc in discs:
        radii = disc.radius * np.linspace(0.93, 1.07, 8)[None, :]
        xs, ys = (disc.x + np.cos(way) * radii).astype(np.float32), (disc.y + np.sin(way) * radii).astype(np.float32)
        along = np.abs(cv2.remap(gx, xs, ys, cv2.INTER_LINEAR) * np.cos(way)
                       + cv2.remap(gy, xs, ys, cv2.INTER_LINEAR) * np.sin(way))
        out.append(float(np.median(along.max(axis=1))) / typical)
    return out


def disc_quads(img: np.ndarray) -> list[np.ndarray]:
    """Outlines from the planet's round disc (the grown look): the squares about each of the
    photo's likeliest discs (``planet_discs``: ``Disc.squares``), in ``img`` pixels."""
    return [q for disc in planet_discs(img) for q in disc.squares]


def straightest_lattices(img: np.ndarray) -> list[np.ndarray]:
    """The photo's straightest square 4x4 lattices, best first (at most ``LATTICE_COUNT``, each
    more than ``LATTICE_APART`` of a cell from every one before it), in ``img`` pixels: a look that
    needs no mask, for a layout whose tiles look like the table by colour and texture (dark backs
    on a dark table: the masks hold no candidate within a cell of it). The photo shrunk to
    ``FIND_SIDE`` is turned by each of ``LATTICE_TURNS`` degrees, and every level square lattice
    of it, its side ``LATTICE_SIDES`` of the short side (in steps of ``LATTICE_STEP`` pixels, at
    every position), is scored much as ``layout_straightness`` scores one: each line's edges
    across it against along it (summed along the line, where that takes their median along it),
    the median of its ten lines. The edges are summed down the columns and along the rows once
    (cumulative sums, so a line costs two look-ups); the ``LATTICE_PER_SIDE`` best of each side and
    turn are ranked together."""
    small, f = at_find_side(img)
    h, w = small.shape[:2]
    low, high = tuning.LATTICE_SIDES
    spins = {turn: cv2.getRotationMatrix2D((w / 2, h / 2), turn, 1.0) for turn in tuning.LATTICE_TURNS}
    found: list[tuple[float, float, int, int, int]] = []
    for turn, spin in spins.items():
        turned = cv2.warpAffine(small, spin, (w, h), borderMode=cv2.BORDER_REFLECT)
        gx, gy, _ = oriented_edges(turned)
        down = [np.vstack([np.zeros((1, w), np.float32), np.cumsum(g, axis=0)]) for g in (gx, gy)]
        along = [np.hstack([np.zeros((h, 1), np.float32), np.cumsum(g, axis=1)]) for g in (gy, gx)]
        for side in range(int(low * min(h, w)), int(high * min(h, w)) + 1, tuning.LATTICE_STEP):
            ny, nx = h - side, w - side
            if ny < 1 or nx < 1:
                break
            # a column's line from each top y (ny, w), a row's line from each left x (h, nx)
            cols = (down[0][side:side + ny] - down[0][:ny]) / (down[1][side:side + ny] - down[1][:ny] + side)
            rows = (along[0][:, side:side + nx] - along[0][:, :nx]) / (along[1][:, side:side + nx] - along[1][:, :nx] + side)
            at = [round(k * side / 4) for k in range(5)]
            straight = np.median(np.stack([cols[:, k:k + nx] for k in at] + [rows[k:k + ny, :] for k in at]), axis=0)
            for i in np.argpartition(straight.ravel(), -tuning.LATTICE_PER_SIDE)[-tuning.LATTICE_PER_SIDE:]:
                y0, x0 = divmod(int(i), nx)
                found.append((float(straight.ravel()[i]), float(turn), x0, y0, side))
    found.sort(key=lambda s: -s[0])
    lattices: list[np.ndarray] = []
    for _straight, turn, x0, y0, side in found:
        square = np.float32([[x0, y0], [x0 + side, y0], [x0 + side, y0 + side], [x0, y0 + side]])
        quad = (cv2.transform(square[None], cv2.invertAffineTransform(spins[turn]))[0] / f).astype(np.float32)
        if all(float(np.linalg.norm(quad - q, axis=1).max()) > tuning.LATTICE_APART * quad_side(q) / 4 for q in lattices):
            lattices.append(quad)
            if len(lattices) == tuning.LATTICE_COUNT:
                break
    return lattices


def grown_candidates(photo: Photo, kept: dict) -> list[np.ndarray]:
    """What the grown look weighs: every outline the earlier looks found in the photo (``kept``:
    the masks', the flattened photo's, the trimmed blobs', the grid's), the first ``CANDIDATES``
    of the masks' and of the flattened photo's each grown (``grown_quads``), and the squares about
    the photo's likeliest discs (``disc_quads``); those with a corner more than ``GROW_BEYOND`` of
    the short side outside the photo left out, and of outlines alike one."""
    masks = _masks_quads(photo, kept)
    flat = kept.get("flat", {}).get("quads", [])
    found = masks + flat + kept.get("trimmed", []) + kept.get("grid", [])
    grown = [g for q in masks[:tuning.CANDIDATES] + flat[:tuning.CANDIDATES] for g in grown_quads(q)]
    h, w = photo.image.shape[:2]
    slack = tuning.GROW_BEYOND * min(h, w)
    out: list[np.ndarray] = []
    for q in found + grown + disc_quads(photo.image):
        q = np.asarray(q, np.float32)
        inside = (q[:, 0] >= -slack).all() and (q[:, 1] >= -slack).all() and \
            (q[:, 0] <= w + slack).all() and (q[:, 1] <= h + slack).all()
        if inside and all(np.abs(q - o).max() > 0.03 * quad_side(q) for o in out):
            out.append(q)
    return out


def outer_edges(edges: np.ndarray, quad: np.ndarray) -> float:
    """The mean edge strength of the weakest of a lattice's outer rows and columns."""
    e = _straightened_edges(edges, quad)[_GM:_GM + 4 * _G, _GM:_GM + 4 * _G]
    return float(min(e[:_G].mean(), e[-_G:].mean(), e[:, :_G].mean(), e[:, -_G:].mean()))


def flattened(photo: Photo) -> Photo:
    """The photo with its slow light taken out (the photo-light round): each channel divided by
    a heavy blur of it (``FLAT_BLUR`` of the short side), so a vignette, a lamp's fall-off or a
    broad shadow no longer makes the table unlike its own border nor darkens part of the planet
    into the table. The same pixels, for a second look for outlines (``reader.read_photo``)."""
    img = photo.image.astype(np.float32) + 4.0
    sigma = tuning.FLAT_BLUR * min(img.shape[:2])
    small = cv2.resize(img, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    light = cv2.resize(cv2.GaussianBlur(small, (0, 0), sigma / 4), (img.shape[1], img.shape[0]),
                       interpolation=cv2.INTER_LINEAR)
    flat = img / light * img.reshape(-1, 3).mean(axis=0)
    return Photo(np.clip(flat, 0, 255).astype(np.uint8), photo.scale)


# --- 3. cut the cells ---------------------------------------------------------------------

def cut_cells(photo: Photo, outline: Outline, turn: int | None = None, size: int = tuning.CELL_PX,
              tile: float = 1.0) -> Cells:
    """The 16 cells of the straightened planet, each with a pad round it, turned to how its
    stack's tiles lie at the stack's first position (tiles facing outwards: ``turn`` None), or
    all by ``turn`` quarter turns (tiles lying upright, the planet turned). ``tile``: the part
    of the lattice's cell a tile's own square covers (the rest is the gap between tiles); the
    planet is straightened so that a tile's own square is ``size`` px and each window (``size``
    and its pad) is centred on its cell of the lattice, as teaching cuts a tile's own square
    (``learn.cut_tiles``). 1.0: the cell is the tile (cut as before)."""
    pad = int(round(size * tuning.PAD))
    if tile != 1.0:
        return _cut_cells_at(photo, outline, turn, size, pad, size / tile)
    n = 4 * size + 2 * pad
    dst = np.float32([[pad, pad], [pad + 4 * size, pad], [pad + 4 * size, pad + 4 * size], [pad, pad + 4 * size]])
    img = photo.image
    side = quad_side(outline.corners)
    shrink = side / (4 * size)
    if shrink > 1.6:  # smooth before sampling far fewer pixels than the photo has
        img = cv2.GaussianBlur(img, (0, 0), 0.4 * shrink)
    H = cv2.getPerspectiveTransform(outline.corners.astype(np.float32), dst)
    straight = cv2.warpPerspective(img, H, (n, n), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    w = size + 2 * pad
    turns = tuple(TURNS[q] if turn is None else turn for q in range(16))
    windows = np.empty((16, w, w) + straight.shape[2:], straight.dtype)
    for q in range(16):
        r, c = divmod(q, 4)
        window = straight[r * size:r * size + w, c * size:c * size + w]
        k = turns[q] % 4   # np.rot90(window, k), by cv2 (numpy copies a turned view pixel by pixel)
        windows[q] = window if k == 0 else cv2.rotate(window, _ROTATE[k])
    return Cells(windows, pad, turns)


def window_origin(cells: Cells, q: int) -> tuple[float, float]:
    """Where window ``q``'s top-left pixel lies in the straightened planet whose lattice runs from
    ``cells.pad`` with cells of ``cells.pitch`` px (before the window's turn): centred on its cell."""
    w = cells.windows.shape[1]
    size = w - 2 * cells.pad
    pitch = cells.pitch or size
    r, c = divmod(q, 4)
    return cells.pad + (c + .5) * pitch - w / 2, cells.pad + (r + .5) * pitch - w / 2


def _cut_cells_at(photo: Photo, outline: Outline, turn: int | None, size: int, pad: int, pitch: float) -> Cells:
    """``cut_cells`` with the lattice's cells ``pitch`` px and each ``size`` + 2 ``pad`` window centred
    on its cell: each window warped on its own (its origin need not fall on a whole pixel)."""
    w = size + 2 * pad
    dst = _UNIT_SQUARE * pitch + pad
    img = photo.image
    shrink = quad_side(outline.corners) / (4 * pitch)
    if shrink > 1.6:  # smooth before sampling far fewer pixels than the photo has
        img = cv2.GaussianBlur(img, (0, 0), 0.4 * shrink)
    H = cv2.getPerspectiveTransform(outline.corners.astype(np.float32), dst.astype(np.float32)).astype(np.float64)
    turns = tuple(TURNS[q] if turn is None else turn for q in range(16))
    cells = Cells(np.empty((16, w, w) + img.shape[2:], img.dtype), pad, turns, float(pitch))
    for q in range(16):
        ox, oy = window_origin(cells, q)
        T = np.array([[1, 0, -ox], [0, 1, -oy], [0, 0, 1]], np.float64)
        window = cv2.warpPerspective(img, T @ H, (w, w), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        k = turns[q] % 4
        cells.windows[q] = window if k == 0 else cv2.rotate(window, _ROTATE[k])
    return cells


def _gap_points_through(photo: Photo, corners: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """The layout of ``corners`` straightened (cells of ``size`` px, a pad for the gaps beyond its
    edge) and its gap points there (``gap_points``): the straightening H, ideal, found, and the pad."""
    pad = int(round(size * (tuning.GAP_REACH + tuning.GAP_MIRROR))) + 1
    n = 4 * size + 2 * pad
    H = cv2.getPerspectiveTransform(corners, _UNIT_SQUARE * size + pad)
    straight = cv2.warpPerspective(photo.image, H, (n, n), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    ideal, found = gap_points(straight, size, pad)
    return H, ideal, found, pad


def _within_reach(outline: Outline, corners: np.ndarray) -> bool:
    """No corner moved more than ``GAP_MOST`` of a cell (farther: no gaps were seen, the lines lay elsewhere)."""
    cell = quad_side(outline.corners) / 4
    return float(np.linalg.norm(corners - outline.corners, axis=1).max()) <= tuning.GAP_MOST * cell


def lattice_on_gaps(photo: Photo, outline: Outline, size: int) -> OnGaps | None:
    """The lattice moved onto the gaps between the tiles, and each tile's own shift from its
    cell. One homography for the whole layout, fitted to its outer edges or to edges on average,
    leaves the tiles a tenth of a cell or more off their cells where the art is full of edges
    along the rows (box2-heldout14's waves) or the layout was found a third of a cell off; but
    between two tiles laid side by side lies a gap with the same card edge on either side, a
    mirror line whatever the art (``gap_points``). Each inner line is looked for that way, a
    segment per tile along it (``GAP_REACH`` of a cell either side), and the lattice through
    the segments' points refitted (RANSAC, a round per ``GAP_TOLERANCES``: a layout found a third
    of a cell off has only some gaps within reach at first); ``size``:
    the cell's side in pixels of the straightened layout the gaps are looked for at. Then each
    tile follows its own gaps: a loose tile moves the gaps beside it off the refitted lattice,
    so it is shifted by the mean of its two gaps' offsets across each axis (the one where it
    lies on the layout's edge; outliers of the fit count 0). None when fewer than
    ``GAP_MIN_SEGMENTS`` of the 12 segments of the rows, or of the columns, agree in the last round
    (``GAP_MIN_FIRST`` in the others; each fixes the
    lattice along one axis only: a lattice half a cell too tall is fitted by its columns' gaps
    alone, box2-heldout10's t02) or the lattice would move more than
    ``GAP_MOST`` of a cell (no gaps seen: the lines lay elsewhere)."""
    corners = outline.corners.astype(np.float32)
    for k, tolerance in enumerate(tuning.GAP_TOLERANCES):
        H, ideal, found, _pad = _gap_points_through(photo, corners, size)
        G, inliers = cv2.findHomography(ideal, found, cv2.RANSAC, tolerance * size)
        if G is None or inliers is None:
            return None
        agree = min(int(inliers[:12].sum()), int(inliers[12:].sum()))   # the rows' gaps and the columns'
        if agree < (tuning.GAP_MIN_SEGMENTS if k == len(tuning.GAP_TOLERANCES) - 1 else tuning.GAP_MIN_FIRST):
            return None
        corners = cv2.perspectiveTransform(cv2.perspectiveTransform(_UNIT_SQUARE[None], G), np.linalg.inv(H))[0]
    if not _within_reach(outline, corners):
        return None
    # each segment's offset across its line from the last lattice fitted, parts of a cell
    off = (found - cv2.perspectiveTransform(ideal[None], G)[0]) / size * inliers.reshape(-1, 1)
    return OnGaps(Outline(corners.astype(np.float32), outline.fit), tile_shifts(off[:12, 1], off[12:, 0]))


def on_gap_lines(photo: Photo, outline: Outline, size: int, bilinear: bool = True,
                 tolerance: float | None = None) -> Outline | None:
    """The outline moved so that its lattice's lines lie on the gaps between the tiles, fitted to
    the measured coordinate of each gap point only (``gap_points``: where across its line each of
    the inner lines' 24 segments mirrors; the coordinate along the line is where it was looked
    for, not a measure). Each direction on its own: the rows' gaps fit y = a + b u + c v + d u v
    and the columns' x = a + b v + c u + d u v (u, v: the lattice's column and row, in cells), a
    bilinear lattice whose corners give the outline (its spacing from the inner lines' spacing:
    an outline found on each tile's inner frame line, a tenth of a cell small, is grown to the
    gaps). Outliers (over ``GAP_LINE_TOLERANCE`` of a cell off the fit) are dropped, twice; None
    when fewer than ``GAP_LINE_MIN`` of the 12 segments of a direction agree, or the outline would
    move more than ``GAP_MOST`` of a cell (no gaps seen). ``size``: the cell's side in pixels of the
    straightened layout the gaps are looked for at. ``GAP_LINE_ROUNDS`` rounds, each from the last.
    ``bilinear`` False: each direction only an offset and a pitch (y = a + c v), steadier where tiles
    lie loose (the reader's test photos); ``tolerance``: instead of ``GAP_LINE_TOLERANCE``."""
    tol = tuning.GAP_LINE_TOLERANCE if tolerance is None else tolerance
    cols = [0, 1, 2, 3] if bilinear else [0, 2]   # the terms fitted: 1, along, across, along x across
    corners = outline.corners.astype(np.float32)
    for _ in range(tuning.GAP_LINE_ROUNDS):
        H, ideal, found, pad = _gap_points_through(photo, corners, size)
        fits = []
        for along, across, measured in ((ideal[:12, 0], ideal[:12, 1], found[:12, 1]),     # rows: y
                                        (ideal[12:, 1], ideal[12:, 0], found[12:, 0])):    # columns: x
            A = np.stack([np.ones_like(along), along, across, along * across], axis=1).astype(np.float64)[:, cols]
            y = (measured.astype(np.float64) - pad) / size           # in cells
            p = _most_agreeing(A, y, tol)
            for _k in range(2):
                keep = np.abs(A @ p - y) <= tol
                if keep.sum() < tuning.GAP_LINE_MIN:
                    return None
                p, *_ = np.linalg.lstsq(A[keep], y[keep], rcond=None)
            full = np.zeros(4)
            full[cols] = p
            fits.append(full)
        (py, px) = fits

        moved = np.float32([(px[0] + px[1] * v + px[2] * u + px[3] * u * v, py[0] + py[1] * u + py[2] * v + py[3] * u * v)
                            for u, v in _UNIT_SQUARE]) * size + pad
        corners = cv2.perspectiveTransform(moved[None], np.linalg.inv(H))[0].astype(np.float32)
    return Outline(corners, outline.fit) if _within_reach(outline, corners) else None


_SUBSETS = {k: np.array(list(itertools.combinations(range(12), k))) for k in (2, 4)}


def _most_agreeing(A: np.ndarray, y: np.ndarray, tolerance: float) -> np.ndarray:
    """The k parameters (``A @ p ~ y``, 12 rows, k columns) through whichever k points leave the
    most points within ``tolerance`` (every set of k tried: a third of a layout's gaps may be
    misread), ties to the smallest sum of the agreeing residuals."""
    M = A[_SUBSETS[A.shape[1]]]                    # (subsets, k, k)
    ok = np.abs(np.linalg.det(M)) > 1e-6
    M, b = M[ok], y[_SUBSETS[A.shape[1]][ok]]
    P = np.linalg.solve(M, b[..., None])[..., 0]   # (subsets, k)
    r = np.abs(P @ A.T - y[None])                  # (subsets, 12)
    agree = r <= tolerance
    rank = agree.sum(axis=1) - np.where(agree, r, 0).sum(axis=1) / (tolerance * 13)
    return P[int(np.argmax(rank))]


def tile_shifts(rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """Each tile's shift (16, 2) from the offsets of the gaps round it: ``rows`` (12,) the inner
    row lines' segments (line 1-3, then the column along it), ``cols`` (12,) the inner column
    lines' (line 1-3, then the row along it), as ``gap_points`` gives them."""
    shifts = np.zeros((16, 2), np.float32)
    for q in range(16):
        r, c = divmod(q, 4)
        across = [cols[(i - 1) * 4 + r] for i in (c, c + 1) if 1 <= i <= 3]    # its left and right gaps
        down = [rows[(i - 1) * 4 + c] for i in (r, r + 1) if 1 <= i <= 3]      # its top and bottom gaps
        shifts[q] = (np.mean(across), np.mean(down))
    return shifts


def frame_tiles_on_gaps(photo: Photo, outline: Outline, gaps: OnGaps, size: int, turn: int = 0,
                        sides: list | None = None) -> list[np.ndarray]:
    """Each tile of a teaching layout cut by its own square, checked against the gaps: the
    squares ``frame_tiles`` finds in the cells of ``outline`` where they lie, in the median, within
    ``GAP_TRUST`` of a cell of where the tiles' gaps put them (``lattice_on_gaps``: the lattice
    through the gaps and each tile's own shift); otherwise each tile's square looked for only
    within ``GAP_FRAME_NEAR`` of there, at turns ``GAP_FRAME_ANGLES`` and sides
    ``GAP_FRAME_SIZES`` (squares free in their cells latch onto a card edge's inner edge or onto
    the art: box2-heldout14's t02 and t05, 0.89-0.93 of a tile and a tenth of it off). The whole
    layout, not tile by tile: the lattice's corners are extrapolated from its inner lines, so a
    single corner tile's place may be what is off (box2-heldout7's t05). Turned by ``turn``
    quarter turns (np.rot90)."""
    cells = cut_cells(photo, outline, turn=turn, size=size)
    frames = layout_frames(cells.windows, size)
    pad, n = cells.pad, cells.windows.shape[1]
    dst = np.float32([[pad, pad], [pad + 4 * size, pad], [pad + 4 * size, pad + 4 * size], [pad, pad + 4 * size]])
    back = np.linalg.inv(cv2.getPerspectiveTransform(outline.corners.astype(np.float32), dst))
    lattice = cv2.getPerspectiveTransform(_UNIT_SQUARE, gaps.outline.corners.astype(np.float32))
    cell = quad_side(gaps.outline.corners) / 4
    off = []
    for q in range(16):
        r, c = divmod(q, 4)
        x, y = _frame_centre(frames[q], n, cells.turns[q])
        found = cv2.perspectiveTransform(np.float32([[[c * size + x, r * size + y]]]), back)[0, 0]
        there = cv2.perspectiveTransform(np.float32([[[c + .5 + gaps.shifts[q, 0], r + .5 + gaps.shifts[q, 1]]]]), lattice)[0, 0]
        off.append(float(np.linalg.norm(found - there)) / cell)
    if float(np.median(off)) <= tuning.GAP_TRUST:
        return _cut_frames(cells.windows, frames, size, sides)
    on = cut_cells(photo, gaps.outline, turn=turn, size=size)   # the cells through the gaps' lattice
    frames = []
    for q in range(16):
        dx, dy = float(gaps.shifts[q, 0]), float(gaps.shifts[q, 1])
        for _ in range(on.turns[q] % 4):    # the shift as the window was turned (np.rot90)
            dx, dy = dy, -dx
        frames.append(frame_of(on.windows[q], size, (dx, dy), tuning.GAP_FRAME_NEAR, tuning.GAP_FRAME_ANGLES,
                               tuning.GAP_FRAME_SIZES))
    return _cut_frames(on.windows, frames, size, sides)


def _frame_centre(frame: tuple, n: int, quarter: int) -> tuple[float, float]:
    """The centre of a square found by ``frame_of`` in an ``n``-px window turned by ``quarter``
    quarter turns (np.rot90), in the window's pixels before that turn."""
    _, a, side, y, x = frame
    c = (n - 1) / 2
    M = np.vstack([cv2.getRotationMatrix2D((c, c), a, 1.0), [0, 0, 1]])
    px, py, _ = np.linalg.inv(M) @ np.float64([x + (side - 1) / 2, y + (side - 1) / 2, 1.0])
    for _ in range(quarter % 4):      # undo np.rot90 (a quarter turn anticlockwise)
        px, py = n - 1 - py, px
    return float(px), float(py)


def gap_points(straight: np.ndarray, size: int, pad: int) -> tuple[np.ndarray, np.ndarray]:
    """Where the gaps lie on the inner lines of a straightened layout (cells of ``size`` px from
    ``pad``): per line and tile along it, the point (lattice units, and pixels of ``straight``)
    at which the colours across the line, averaged along the tile's middle (``GAP_MIDDLE`` of
    the cell left out at each end), mirror best: structure on both sides (E) and the two sides
    alike (A), E - 2 A, to a part of a pixel. An icon or a wave has edges but no mirror; a
    plain sky mirrors but has no edges."""
    reach = int(round(tuning.GAP_REACH * size))
    k = max(2, int(round(tuning.GAP_MIRROR * size)))
    m = int(round(tuning.GAP_MIDDLE * size))
    js = np.arange(1, k + 1)
    ds = np.arange(-reach, reach + 1)
    at = ds[:, None] + reach + k                                   # each offset's row of the profile
    ideal, found = [], []
    for img, swap in ((straight, False), (straight.transpose(1, 0, 2), True)):   # rows, then columns
        for i in (1, 2, 3):
            y = pad + i * size
            for c in range(4):
                prof = img[y - reach - k:y + reach + k + 1, pad + c * size + m:pad + (c + 1) * size - m].mean(axis=1)
                ahead, behind, here = prof[at + js], prof[at - js], prof[at[:, 0]][:, None]
                score = (np.abs(ahead - here) + np.abs(behind - here) - 2 * np.abs(ahead - behind)).sum(axis=(1, 2))
                j = int(np.argmax(score))
                off = float(ds[j])
                if 0 < j < len(ds) - 1:                             # a parabola through the peak
                    a, b, cc = score[j - 1], score[j], score[j + 1]
                    if a - 2 * b + cc < 0:
                        off += 0.5 * (a - cc) / (a - 2 * b + cc)
                point, lattice = (pad + (c + .5) * size, y + off), (c + .5, float(i))
                ideal.append(lattice[::-1] if swap else lattice)
                found.append(point[::-1] if swap else point)
    return np.float32(ideal), np.float32(found)


# np.rot90's k quarter turns (from the first axis towards the second: anticlockwise as shown)
_ROTATE = {1: cv2.ROTATE_90_COUNTERCLOCKWISE, 2: cv2.ROTATE_180, 3: cv2.ROTATE_90_CLOCKWISE}


def refit_outline(outline: Outline, cells: Cells, aligned: Aligned, size: int = tuning.CELL_PX) -> Outline | None:
    """The outline through where the tiles were found: each tile's centre, found by aligning
    it in its cell, taken back into the photo, and the lattice that best goes through them
    (RANSAC: a tile read poorly does not pull it). None when too few tiles agree."""
    pad = cells.pad
    n = size + 2 * pad
    pitch = cells.pitch or size
    dst = (_UNIT_SQUARE * pitch + pad).astype(np.float32)
    back = np.linalg.inv(cv2.getPerspectiveTransform(outline.corners.astype(np.float32), dst))
    found, ideal = [], []
    for q in range(16):
        x, y = aligned.centres[q]
        for _ in range(cells.turns[q] % 4):      # undo np.rot90 (a quarter turn anticlockwise)
            x, y = n - 1 - y, x
        r, c = divmod(q, 4)
        ox, oy = window_origin(cells, q)
        found.append((ox + x, oy + y))
        ideal.append((c + .5, r + .5))
    pts = cv2.perspectiveTransform(np.float32(found)[None], back)[0]
    side = quad_side(outline.corners) / 4
    H, inliers = cv2.findHomography(np.float32(ideal), pts, cv2.RANSAC, tuning.REFIT_TOLERANCE * side)
    if H is None or inliers is None or int(inliers.sum()) < tuning.REFIT_MIN_TILES:
        return None
    corners = cv2.perspectiveTransform(_UNIT_SQUARE[None], H)[0]
    return Outline(corners.astype(np.float32), outline.fit)


# --- 3b. even the light on a taught tile --------------------------------------------------

def _poisson_neumann(gx: np.ndarray, gy: np.ndarray) -> np.ndarray:
    """The picture whose forward differences come nearest (least squares) to (gx, gy), no flow
    across its border, mean 0: Poisson's equation solved by the cosine transform (the cosine
    transform turns the Laplacian with that border into a product)."""
    h, w = gx.shape
    fx = gx.copy()
    fx[:, -1] = 0
    fy = gy.copy()
    fy[-1, :] = 0
    div = fx.copy()
    div[:, 1:] -= fx[:, :-1]
    div += fy
    div[1:, :] -= fy[:-1, :]
    d = cv2.dct(div.astype(np.float32))
    den = (2 * np.cos(np.pi * np.arange(h) / h) - 2)[:, None] + (2 * np.cos(np.pi * np.arange(w) / w) - 2)[None, :]
    den[0, 0] = 1.0
    d = d / den.astype(np.float32)
    d[0, 0] = 0.0
    return cv2.idct(d.astype(np.float32))


def light_on(img: np.ndarray) -> np.ndarray:
    """The light falling on a tile's picture (any size; float32, the same size, median 1): the
    picture's slow changes of brightness. A photo is the art times its light, so in the log the
    two add; art drawn in flat colours changes brightly and at once (an edge, a stripe), a shadow
    or a lamp's fall-off slowly (a phone's or hand's shadow has a soft edge). Land's and Horn's
    retinex: at ``EVEN_PX`` the log brightness's gradients under ``EVEN_TAU`` per pixel are the
    light's, the others the art's, and the light is what those gradients integrate to, blurred by
    ``EVEN_SMOOTH`` of the side (a drawn stripe's soft edge also passes for light; a shadow's edge,
    cast by a hand or a phone, is longer than the stripes are wide)."""
    n = tuning.EVEN_PX
    h, w = img.shape[:2]
    grey = cv2.cvtColor(cv2.resize(img.astype(np.float32), (n, n), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
    y = np.log(cv2.GaussianBlur(grey, (0, 0), tuning.EVEN_BLUR) + tuning.EVEN_FLOOR)
    gx = np.zeros_like(y)
    gy = np.zeros_like(y)
    gx[:, :-1] = y[:, 1:] - y[:, :-1]
    gy[:-1, :] = y[1:, :] - y[:-1, :]
    slow = np.hypot(gx, gy) < tuning.EVEN_TAU
    light = _poisson_neumann(gx * slow, gy * slow)
    if tuning.EVEN_SMOOTH:
        light = cv2.GaussianBlur(light, (0, 0), tuning.EVEN_SMOOTH * n, borderType=cv2.BORDER_REFLECT)
    light = np.exp(light - np.median(light)).astype(np.float32)
    return cv2.resize(light, (w, h), interpolation=cv2.INTER_LINEAR) if (h, w) != (n, n) else light


def even_light(img: np.ndarray) -> np.ndarray:
    """A taught tile's picture (BGR, any size) as if lit evenly: divided by ``light_on`` (float32,
    0-255). Only taught pictures are evened: a shadow on a taught picture is compared with every
    photo of the box, a shadow on a photo's cell with that photo alone. The comparison's own
    band-pass (``_detail``) takes the slowest light out of both, but not a shadow's edge across a
    tile, nor the contrast the shadowed part loses."""
    return np.clip(img.astype(np.float32) / light_on(img)[..., None], 0, 255).astype(np.float32)


# --- 4. align each tile in its cell -------------------------------------------------------

def _turned(img: np.ndarray, angle: float) -> np.ndarray:
    if angle == 0:
        return img
    n = img.shape[0]
    c = (n - 1) / 2
    M = cv2.getRotationMatrix2D((c, c), angle, 1.0)
    return cv2.warpAffine(img, M, (n, n), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def stack_looks(groups: dict) -> dict:
    """Per stack: the grey looks its tiles share (the mean of its faces, and of its backs), each
    at every turn of ``ANGLES``, inner part only (the border is where neighbours and gaps show)."""
    out: dict = {}
    i = int(round(tuning.CELL_PX * tuning.ALIGN_INNER))
    for (stack, _kind), imgs in groups.items():
        mean = np.mean([cv2.cvtColor(t.astype(np.uint8), cv2.COLOR_BGR2GRAY).astype(np.float32) for t in imgs], axis=0)
        out.setdefault(stack, []).extend((a, _turned(mean, a)[i:-i, i:-i].copy()) for a in tuning.ANGLES)
    return out


def register_exemplars(imgs: list, stacks: list, backs: list) -> list:
    """The exemplars of each stack (faces and backs apart) moved onto one another: a teaching tile
    is cut by its own square (``learn.cut_tiles``), which a shadow's edge or a ring in its art may
    move a tenth of a tile, while the reader finds a cell's tile by the look its stack shares
    (``align_cells``); two exemplars cut a tenth apart then answer to cells a tenth apart, and the
    slack favours whichever the cell was found nearer (heldout4's D11 cell read as D02). Each
    exemplar is found, as a cell is, in the stack's shared look (the mean of the others, grey,
    inner part; ``REGISTER_ROUNDS`` rounds, at most ``REGISTER_PAD`` of a tile off, with the
    shift cost of ``align_cells``) and moved there (its edge repeated). ``imgs``: any size."""
    if not tuning.REGISTER:
        return list(imgs)
    size = tuning.CELL_PX
    pad = max(1, int(round(size * tuning.REGISTER_PAD)))
    i = int(round(size * tuning.ALIGN_INNER))
    grey = [cv2.cvtColor(cv2.resize(im, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32),
                         cv2.COLOR_BGR2GRAY) for im in imgs]
    shifts = np.zeros((len(imgs), 2), np.float32)       # (dx, dy) at CELL_PX
    groups: dict = {}
    for k, (st, b) in enumerate(zip(stacks, backs)):
        groups.setdefault((st, b), []).append(k)
    prior = None
    for (st, _back), members in groups.items():
        if len(members) < 3 or st in tuning.REGISTER_SKIP:
            continue
        for _ in range(tuning.REGISTER_ROUNDS):
            moved = {k: _shifted(grey[k], shifts[k]) for k in members}
            total = np.sum([moved[k] for k in members], axis=0)
            for k in members:
                look = ((total - moved[k]) / (len(members) - 1))[i:size - i, i:size - i]
                padded = cv2.copyMakeBorder(grey[k], pad, pad, pad, pad, cv2.BORDER_REPLICATE)
                res = cv2.matchTemplate(padded, look, cv2.TM_CCOEFF_NORMED)
                if prior is None or prior.shape != res.shape:
                    prior = _shift_cost(res.shape[0], pad)
                _, _, _, (x, y) = cv2.minMaxLoc(res - prior)
                # the look lies at (x, y) of the padded tile; in place it would lie at (pad + i, pad + i)
                shifts[k] = (pad + i - x, pad + i - y)
    out = []
    for im, (dx, dy) in zip(imgs, shifts):
        f = im.shape[1] / size
        out.append(_shifted(im, (dx * f, dy * f)) if dx or dy else im)
    return out


def _shifted(img: np.ndarray, d) -> np.ndarray:
    """``img`` moved by d = (dx, dy) pixels, its edge repeated."""
    if not d[0] and not d[1]:
        return img
    M = np.float32([[1, 0, d[0]], [0, 1, d[1]]])
    return cv2.warpAffine(img, M, (img.shape[1], img.shape[0]), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _shift_cost(n: int, pad: int) -> np.ndarray:
    """What a shift from the cell's middle costs when aligning: the stripes and rims a stack's
    tiles share repeat, and a look slid along them fits almost as well as in place."""
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    centre = (n - 1) / 2
    return (tuning.ALIGN_SHIFT_COST * ((yy - centre) ** 2 + (xx - centre) ** 2) / max(1, pad) ** 2).astype(np.float32)


def align_cells(cells: Cells, looks: dict) -> Aligned:
    """Find each tile in its cell by the look its stack shares (shift and small turn), and cut it
    at CELL_PX, upright in the canonical turn."""
    size, pad = tuning.CELL_PX, cells.pad
    i = int(round(size * tuning.ALIGN_INNER))
    tiles, fits, centres, angles = [], [], [], []
    n = cells.windows.shape[1]   # the 16 windows made grey at once (pixel by pixel: the same values)
    grays = cv2.cvtColor(cells.windows.reshape(-1, n, 3), cv2.COLOR_BGR2GRAY).reshape(-1, n, n).astype(np.float32)
    found = {}   # cell -> (fit, turn, (y, x)): each stack's cells against its looks at once (slide_each)
    for st in dict.fromkeys(STACK_AT[q] for q in range(16)):
        at_st = [q for q in range(16) if STACK_AT[q] == st]
        slider, cost = _looks_slider(looks[st])
        res = slide_each(grays[at_st], slider)[0]        # (cells, looks, r, r): every look at once
        res -= _prior(res.shape[2], pad)
        flat = res.reshape(len(at_st), res.shape[1], -1)
        at = flat.argmax(axis=2)                          # each look's first best place …
        scores = np.take_along_axis(flat, at[..., None], axis=2)[..., 0] - cost
        first = scores.argmax(axis=1)                     # … and the first best look, as one by one
        for j, q in enumerate(at_st):
            k = int(first[j])
            found[q] = (float(scores[j, k]), slider.angles[k], divmod(int(at[j, k]), res.shape[3]))
    for q in range(16):
        win = cells.windows[q]
        mx, a, (y, x) = found[q]
        if not mx > -2.0:                                 # nothing fitted: the cell's middle
            mx, a, (x, y) = -2.0, 0.0, (pad + i, pad + i)
        cx, cy = x - i + size / 2, y - i + size / 2     # the tile's centre in the window
        tiles.append(_tile_at(win, cx, cy, a, size))
        fits.append(mx)
        centres.append((cx, cy))
        angles.append(a)
    return Aligned(np.stack(tiles), np.array(fits, np.float32), np.float32(centres), np.float32(angles))


def _tile_at(win: np.ndarray, cx: float, cy: float, a: float, size: int, zoom: float = 1.0) -> np.ndarray:
    """The ``size`` px tile centred at (cx, cy) of ``win``, turned back by ``a``°, float32;
    ``zoom``: its side ``size`` / ``zoom`` px of ``win`` (a tile lying smaller than its cell:
    under 1)."""
    M = cv2.getRotationMatrix2D((cx, cy), -a, 1.0 / zoom)
    M[0, 2] += size / 2 - cx
    M[1, 2] += size / 2 - cy
    return cv2.warpAffine(win, M, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)


def zoomed_tile(win: np.ndarray, cx: float, cy: float, a: float, size: int, zoom: float) -> np.ndarray:
    """``_tile_at`` at ``zoom``: the tile cut again where it was found, as if it lay ``zoom``
    times the size it was cut at (``reader.look_zoomed``)."""
    return _tile_at(win, cx, cy, a, size, zoom)


def squares_aligned(cells: Cells, aligned: Aligned, qs: list) -> Aligned:
    """``aligned`` with the cells ``qs`` found in their windows by their own square instead
    (``frame_of``: the square whose border carries the most edges, its centre within
    ``SQUARE_NEAR`` of a tile of where the look put it, turns ``SQUARE_ANGLES``, sides
    ``SQUARE_SIZES``). A centre tile's look is the ground all centres share, which slides
    along its own texture: where the lattice lies off a loose centre tile, the look leaves it
    where the lattice put it, a tenth of a tile or more off, past the match's slack."""
    size = tuning.CELL_PX
    tiles, centres = aligned.tiles.copy(), aligned.centres.copy()
    angles = None if aligned.angles is None else aligned.angles.copy()   # unknown stays unknown
    for q in qs:
        win = cells.windows[q]
        n = win.shape[0]
        cx, cy = (float(c) for c in aligned.centres[q])
        found = square_near(win, size, ((cx - n / 2) / size, (cy - n / 2) / size), tuning.SQUARE_NEAR,
                            tuning.SQUARE_ANGLES, tuning.SQUARE_SIZES)
        fx, fy = _frame_centre(found, n, 0)
        a = -found[1]
        tiles[q] = _tile_at(win, fx, fy, a, size)
        centres[q] = (fx, fy)
        if angles is not None:
            angles[q] = a
    return Aligned(tiles, aligned.fits, centres, angles)


@functools.cache
def _prior(n: int, pad: int) -> np.ndarray:
    """``_shift_cost(n, pad)``, kept (the same for every cell)."""
    return _shift_cost(n, pad)


_SLIDERS: dict = {}


def _looks_slider(looks: list) -> tuple[Slider, np.ndarray]:
    """A stack's looks (``stack_looks``: [(angle, grey template)]) as one ``Slider`` (its
    ``angles`` set) and each one's cost of its turn, kept per box (the same for every cell and
    reading)."""
    hit = _SLIDERS.get(id(looks))
    if hit is None or hit[0] is not looks:
        if len(_SLIDERS) > 64:
            _SLIDERS.clear()
        slider = Slider([t for _, t in looks])
        slider.angles = tuple(a for a, _ in looks)
        cost = np.float32([0.002 * abs(a) for a, _ in looks])
        hit = _SLIDERS[id(looks)] = (looks, (slider, cost))
    return hit[1]


# --- 4c. slide templates over a picture -------------------------------------------------------

class Slider:
    """Templates of one size (k, m, m) or (k, m, m, c), float32, to slide over pictures (``slide``):
    for every place of each, the normalized correlation coefficient (``cv2.TM_CCOEFF_NORMED``,
    channels summed, each channel less its own mean), by the DFT (numpy's, all templates at once) as ``cv2.matchTemplate``
    computes it, but with each template's spectrum made once per picture size and kept (a box's
    exemplars: once per box), and the picture's made once for all the templates slid over it
    (``cv2.matchTemplate`` makes both for every pair). The same values to about 1e-6."""

    def __init__(self, templates):
        self.originals = np.asarray(templates, np.float32)   # as given (what _placed puts down)
        zero = self._zero_mean()
        self.shape = zero.shape[1:3]
        self.channels = zero.shape[3]
        self.norms = np.sqrt((zero.astype(np.float64) ** 2).sum(axis=(1, 2, 3)))
        self._spectra: dict = {}
        self.angles: tuple = ()                            # the turn of each, when they are turns
        self._pair_terms: list | None = None               # what _told_all needs of each (pair_terms)

    def _zero_mean(self) -> np.ndarray:
        """(k, m, m, c): each template less each channel's mean (made when asked, not kept)."""
        t = self.originals if self.originals.ndim == 4 else self.originals[..., None]
        return (t - t.astype(np.float64).mean(axis=(1, 2), keepdims=True)).astype(np.float32)

    def spectra(self, size: tuple) -> np.ndarray:
        """(k, c, H, W // 2 + 1) complex64: each template's spectrum per channel at ``size`` (H, W),
        conjugated (a correlation), kept."""
        hit = self._spectra.get(size)
        if hit is None:
            hit = np.conj(np.fft.rfft2(self._zero_mean().transpose(0, 3, 1, 2), s=size)).astype(np.complex64)
            self._spectra[size] = hit
        return hit

    def pair_terms(self) -> list:
        """Per template (a turned exemplar, (m, m, c)): what ``_told_all`` needs of it whatever the
        cell, made once and kept (per box): the integral images of it and of its square, channels
        summed (its spread over any part), float64 (2, m + 1, m + 1); itself channels first
        (c, m, m); and per pixel a row (its square, itself per channel), float64 (m·m, 1 + c)."""
        if self._pair_terms is None:
            out = []
            for t in self.originals:
                t = t if t.ndim == 3 else t[..., None]
                m, mw, c = t.shape
                s1, s2 = cv2.integral2(np.ascontiguousarray(t), sdepth=cv2.CV_64F, sqdepth=cv2.CV_64F)
                sums = np.stack([s1.reshape(m + 1, mw + 1, c).sum(axis=2), s2.reshape(m + 1, mw + 1, c).sum(axis=2)])
                e = t.astype(np.float64).reshape(-1, c)
                pix = np.concatenate([(e * e).sum(axis=1)[:, None], e], axis=1)
                out.append((sums, np.ascontiguousarray(np.moveaxis(t, 2, 0)), pix))
            self._pair_terms = out
        return self._pair_terms

    def warm(self, shape: tuple) -> None:
        """Make the spectra for pictures of ``shape`` (h, w) now."""
        self.spectra(_dft_size(shape))


def _dft_size(shape: tuple) -> tuple:
    return cv2.getOptimalDFTSize(int(shape[0])), cv2.getOptimalDFTSize(int(shape[1]))


def slide(img: np.ndarray, *sliders: Slider) -> list[np.ndarray]:
    """Each slider's templates at every place of ``img`` (h, w[, c]) float32: per slider
    (k, h - m + 1, w - m + 1) float32, what ``cv2.matchTemplate(img, t, cv2.TM_CCOEFF_NORMED)``
    gives for each template t. The picture's spectrum and spread are made once for all."""
    return [r[0] for r in slide_each(img[None], *sliders)]


def slide_each(imgs: np.ndarray, *sliders: Slider) -> list[np.ndarray]:
    """``slide`` of each of the pictures ``imgs`` (b, h, w[, c]) float32 of one size at once:
    per slider (b, k, h - m + 1, w - m + 1). Numpy's DFTs transform each line on its own, so
    the values are those of ``slide`` picture by picture (tests/test_vision_paths.py), with
    one call per step for all the pictures instead of one per picture (``align_cells``: 16)."""
    imgs = imgs if imgs.ndim == 4 else imgs[..., None]
    size = _dft_size(imgs.shape[1:3])
    spectra = [slider.spectra(size) for slider in sliders]
    products = np.concatenate(spectra, axis=0) if len(spectra) > 1 else spectra[0]
    norms = np.concatenate([slider.norms for slider in sliders])
    r = _slid(imgs, products[None], norms[None], sliders[0].shape, size)
    ends = np.cumsum([len(sp) for sp in spectra])[:-1]
    return np.split(r, ends, axis=1) if len(spectra) > 1 else [r]


def slide_own(imgs: np.ndarray, sliders: list) -> np.ndarray:
    """``slide`` of each of the pictures ``imgs`` (b, h, w[, c]) float32 of one size, each with
    its own sliders (``sliders``: per picture a tuple of as many ``Slider``s, all with as many
    templates of one size) at once: (b, sliders, k, h - m + 1, w - m + 1), picture i's
    ``slide(imgs[i], *sliders[i])`` stacked. Each picture's spectrum taken with the others'
    in one call and multiplied by its own sliders' kept spectra (gathered into one array), and
    one inverse for all: the runner-up tests of a reading (``tell_apart_each``: ~16 cells, two
    exemplars each) in one pass instead of one per cell. The same floats as ``slide`` picture
    by picture (numpy's DFTs transform each line on its own, the products are element by
    element; tests/test_vision_batched.py)."""
    imgs = imgs if imgs.ndim == 4 else imgs[..., None]
    b, per = len(sliders), len(sliders[0])
    size = _dft_size(imgs.shape[1:3])
    every = [slider for own in sliders for slider in own]
    spectra = [slider.spectra(size) for slider in every]
    k = len(spectra[0])
    products = np.concatenate(spectra, axis=0).reshape(b, per * k, *spectra[0].shape[1:])
    norms = np.concatenate([slider.norms for slider in every]).reshape(b, per * k)
    r = _slid(imgs, products, norms, every[0].shape, size)
    return r.reshape(b, per, k, *r.shape[2:])


def _slid(imgs: np.ndarray, products: np.ndarray, norms: np.ndarray, shape: tuple, size: tuple) -> np.ndarray:
    """The normalized correlations of the pictures ``imgs`` (b, h, w, c) float32 with templates
    of ``shape`` (m, m) given by their kept spectra at the DFT ``size`` (``products``: (1 or b,
    K, c, H, W // 2 + 1), the same for every picture or each picture's own) and their norms
    ((1 or b, K)): (b, K, h - m + 1, w - m + 1) float32 (``slide_each``, ``slide_own``)."""
    b, h, w, ch = imgs.shape
    mh, mw = shape
    rh, rw = h - mh + 1, w - mw + 1
    # (b, c, H, W // 2 + 1), once: the pictures put down on zeros of the DFT size first (what
    # rfft2's s= does, line by line: the same values), ~0.45 ms instead of ~0.8 for 16 cells
    # of 44 px (numpy pads each strided line on its own)
    padded = np.zeros((b, ch, *size), imgs.dtype)
    padded[:, :, :h, :w] = np.moveaxis(imgs, 3, 1)
    picture = np.fft.rfft2(padded)
    # each place's spread: per channel its sum and sum of squares, from integral images (as
    # cv2.matchTemplate takes them)
    spread = np.empty((b, rh, rw))
    for j in range(b):
        s, sq = cv2.integral2(np.ascontiguousarray(imgs[j]), sdepth=cv2.CV_64F, sqdepth=cv2.CV_64F)
        s, sq = s.reshape(h + 1, w + 1, ch), sq.reshape(h + 1, w + 1, ch)
        box = s[mh:, mw:] - s[:-mh, mw:] - s[mh:, :-mw] + s[:-mh, :-mw]
        box2 = sq[mh:, mw:] - sq[:-mh, mw:] - sq[mh:, :-mw] + sq[:-mh, :-mw]
        spread[j] = np.sqrt(np.maximum(box2.sum(axis=2) - (box * box).sum(axis=2) / (mh * mw), 0))
    acc = products[:, :, 0] * picture[:, None, 0]
    for c in range(1, ch):                                        # channels summed
        acc += products[:, :, c] * picture[:, None, c]
    # every template at once: irfft2(acc, s=size)[..., :rh, :rw] (numpy's irfft2 is these two steps),
    # its last step only on the rows kept
    num = np.fft.irfft(np.fft.ifft(acc, n=size[0], axis=-2)[..., :rh, :], n=size[1], axis=-1)
    num = num[..., :rw].astype(np.float64)
    t = spread[:, None] * norms[:, :, None, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        r = num / t
    odd = ~(np.abs(num) < t)
    if odd.any():   # as cv2.matchTemplate: no spread, or a product out of range: 0 or ±1
        r[odd] = np.where(np.abs(num[odd]) < t[odd] * 1.125, np.sign(num[odd]), 0.0)
    return r.astype(np.float32)


# --- 5. compare each aligned tile with the exemplars ----------------------------------------

def _detail(img: np.ndarray, blur: float | None = None, wide: np.ndarray | None = None) -> np.ndarray:
    """The small things of a picture (its items), without its light and shading, blurred to a
    common level (exemplars come from sharp upright photos, cells from blurred tilted ones):
    ``DESC_BLUR``, or ``blur``. ``wide``: the picture's light (``wide_blur`` at ``DESC_WIDE``)
    when already made."""
    light = wide_blur(img, tuning.DESC_WIDE) if wide is None else wide
    return cv2.GaussianBlur(img, (0, 0), tuning.DESC_BLUR if blur is None else blur) - light


CV_CHANNELS = 128   # the most channels OpenCV 5 blurs in one picture (CV_CN_MAX; 144 fails: m->dims <= 2)


def _one_picture(imgs: np.ndarray) -> np.ndarray:
    """Pictures (k, h, w, c) as one picture of k·c channels (h, w, k·c): OpenCV's blurs, integrals
    and ``wide_blur`` take each channel on its own, with the same kernel and border, so one call
    does all k (``_pictures`` turns square ones back)."""
    k, h, w, c = imgs.shape
    return np.ascontiguousarray(imgs.transpose(1, 2, 0, 3)).reshape(h, w, k * c)


def _pictures(one: np.ndarray, c: int) -> np.ndarray:
    """``_one_picture``'s pictures again: (n, n, k·c) -> (k, n, n, c)."""
    n = one.shape[0]
    return np.ascontiguousarray(one.reshape(n, n, -1, c).transpose(2, 0, 1, 3))


def light_free(img: np.ndarray, floor: float) -> np.ndarray:
    """The log of a grey picture (``floor`` added, so dark noise does not swell): a photo is the
    art times the light falling on it (a lamp's fall-off, a shadow, the exposure), so in the log
    the light is added, and a gradient of it is the art's contrast, as strong in the dim part of
    the photo as in the bright part. Scaled so a step at mid-grey keeps about its size."""
    return (128.0 * np.log(img.astype(np.float32) + floor)).astype(np.float32)


def channels(img: np.ndarray) -> np.ndarray:
    """Each channel's mean, plus 1 (what ``gain`` and ``chroma`` start from). For (k, h, w, 3):
    per picture, the same values as one by one (numpy sums the rows in the same order; for
    (k, h, w, 3), laid out as (h·w, 3k) first, so its rows are summed 3k channels at a time)."""
    if img.ndim == 4:
        k = len(img)
        rows = np.ascontiguousarray(img.reshape(k, -1, 3).transpose(1, 0, 2)).reshape(-1, 3 * k)
        return rows.mean(axis=0).reshape(k, 3) + 1
    return img.reshape(*img.shape[:-3], -1, 3).mean(-2) + 1


def gain(mean: np.ndarray, tile: np.ndarray, tile_channels: np.ndarray | None = None) -> np.ndarray:
    """Per channel, what brings ``tile``'s light to ``mean``'s: one gain for brightness and at
    most ``GAIN_CLIP`` more or less per channel (white balance) — a full gain per channel would
    turn an orange back into a green face. ``tile_channels``: ``channels(tile)`` when known."""
    a = _mean_channels(mean)
    b = channels(tile) if tile_channels is None else tile_channels
    g = float(a.sum() / b.sum())
    return g * np.clip(a / b / g, 1 - tuning.GAIN_CLIP, 1 + tuning.GAIN_CLIP)


def gains(mean: np.ndarray, tiles: np.ndarray, tile_channels: np.ndarray | None = None) -> np.ndarray:
    """``gain(mean, tile)`` of each of ``tiles`` (k, h, w, 3): (k, 3), in the same float32 steps
    (tests/test_vision_paths.py). ``tile_channels``: ``channels(tiles)`` when known."""
    a = _mean_channels(mean)
    b = channels(tiles) if tile_channels is None else tile_channels
    g = (a.sum() / b.sum(axis=1))[:, None]
    return g * np.clip(a / b / g, 1 - tuning.GAIN_CLIP, 1 + tuning.GAIN_CLIP)


_MEAN_CHANNELS: dict = {}


def _mean_channels(mean: np.ndarray) -> np.ndarray:
    """``channels(mean)``, kept per stack's mean (the same for every cell and reading)."""
    hit = _MEAN_CHANNELS.get(id(mean))
    if hit is None or hit[0] is not mean:
        if len(_MEAN_CHANNELS) > 64:
            _MEAN_CHANNELS.clear()
        hit = _MEAN_CHANNELS[id(mean)] = (mean, channels(mean))
    return hit[1]


def chroma(img: np.ndarray, img_channels: np.ndarray | None = None) -> np.ndarray:
    v = channels(img) if img_channels is None else img_channels
    return v / v.sum()


def _inner(size: int) -> int:
    return tuning.MATCH_SLACK + int(size * tuning.DESC_INNER)


def _pool(img: np.ndarray) -> np.ndarray:
    """Half the size, each pixel the mean of 2×2 (after a blur of DESC_BLUR nothing finer is
    left, and a quarter of the pixels to compare). ``img``: (h, w, c) or (k, h, w, c), each
    picture on its own. With 3 channels the four are added in the order numpy's mean over the
    two 2-axes adds them (the same floats, without its slow reduction over non-contiguous axes;
    tests/test_vision_paths.py); numpy's own mean otherwise."""
    h, w = img.shape[-3] // 2, img.shape[-2] // 2
    x = img[..., :2 * h, :2 * w, :].reshape(*img.shape[:-3], h, 2, w, 2, img.shape[-1])
    if img.shape[-1] != 3:
        return x.mean(axis=(-4, -2))
    return (x[..., 0, :, 0, :] + x[..., 0, :, 1, :] + x[..., 1, :, 0, :] + x[..., 1, :, 1, :]) / 4


def _normed(v: np.ndarray) -> np.ndarray:
    """(k, h, w, 3) pictures as rows less each channel's mean, scaled to unit length: the terms
    of a normalized correlation (``cv2.TM_CCOEFF_NORMED``) as one matrix."""
    v = v - v.mean(axis=(1, 2), keepdims=True)
    v = v.reshape(len(v), -1)
    return (v / (np.linalg.norm(v, axis=1, keepdims=True) + 1e-6)).astype(np.float32)


def exemplar_details(tiles: list, stacks: list, means: dict, blur: float | None = None) -> np.ndarray:
    """Per exemplar: its small things less those its stack shares (CELL_PX square, full size;
    ``_detail``'s ``blur``). Returns (exemplars, CELL_PX, CELL_PX, 3) float32."""
    return np.stack([(_detail(t * gain(means[st], t), blur) - _detail(means[st], blur)).astype(np.float32)
                     for t, st in zip(tiles, stacks)])


def matched_filters(details: np.ndarray) -> np.ndarray:
    """Per exemplar (``exemplar_details``): its inner part at each turn of ``MATCH_ANGLES``,
    pooled and normalized — a matched filter that answers to what tells it from its stack's
    others. Returns (exemplars, angles, D) float32."""
    size = tuning.CELL_PX
    i = _inner(size)
    return np.stack([_normed(np.stack([_pool(_turned(d, a)[i:size - i, i:size - i]) for a in tuning.MATCH_ANGLES]))
                     for d in details])


_MEAN_DETAILS: dict = {}


def _mean_detail(mean: np.ndarray, cut: slice, blur: float | None = None) -> np.ndarray:
    """``_detail(mean, blur)[cut, cut]``, kept per stack's mean and blur (the same for every cell
    and reading)."""
    key = (id(mean), blur)
    hit = _MEAN_DETAILS.get(key)
    if hit is None or hit[0] is not mean:
        if len(_MEAN_DETAILS) > 64:
            _MEAN_DETAILS.clear()
        hit = _MEAN_DETAILS[key] = (mean, _detail(mean, blur)[cut, cut])
    return hit[1]


def cell_detail(tile: np.ndarray, mean: np.ndarray, tile_channels: np.ndarray | None = None) -> np.ndarray:
    """An aligned tile's small things less its stack's, light matched to the stack's, inner part
    with the slack round it (what ``match`` compares the matched filters with), full size.
    ``tile_channels``: ``channels(tile)`` when known."""
    return cell_details(tile[None], mean, None if tile_channels is None else tile_channels[None])[0]


def cell_details(tiles: np.ndarray, mean: np.ndarray, tile_channels: np.ndarray | None = None,
                 blur: float | None = None, kept: dict | None = None) -> np.ndarray:
    """``cell_detail`` of each of the aligned tiles ``tiles`` (k, CELL_PX, CELL_PX, 3) of one stack
    at once: their blurs as one picture of 3k channels and one pair of matrix products
    (``_details``), their gains at once (``gains``). The same floats as tile by tile
    (tests/test_vision_paths.py). ``tile_channels``: ``channels(tiles)`` when known; ``blur``:
    ``_detail``'s; ``kept``: a dict kept for these tiles, in which what does not depend on
    ``blur`` (the gains, the tiles as one picture and its wide blur) is kept when first made
    (``match``: ``classify`` describes the same tiles at two blurs)."""
    size, sl = tuning.CELL_PX, tuning.MATCH_SLACK
    i = _inner(size)
    cut = slice(i - sl, size - i + sl)
    kept = {} if kept is None else kept
    if "gains" not in kept:
        kept["gains"] = gains(mean, tiles, tile_channels)[:, None, None, :]
    return (_details(tiles, blur, kept)[:, cut, cut] * kept["gains"] - _mean_detail(mean, cut, blur)).astype(np.float32, copy=False)


def _details(imgs: np.ndarray, blur: float | None = None, kept: dict | None = None) -> np.ndarray:
    """``_detail`` of each of ``imgs`` (k, n, n, c) float32: one picture of k·c channels (each
    channel is blurred on its own, with the same kernel and border), so one ``cv2.GaussianBlur``
    and one ``wide_blur``. ``kept``: as ``cell_details``' (that picture and its wide blur, the
    same whatever ``blur``). More pictures than ``CV_CHANNELS`` channels hold are taken that many
    at a time (each channel is blurred on its own: the same floats)."""
    kept = {} if kept is None else kept
    per = max(1, CV_CHANNELS // imgs.shape[3])
    if len(imgs) > per:
        parts = kept.setdefault("parts", {})
        return np.concatenate([_details(imgs[i:i + per], blur, parts.setdefault(i, {}))
                               for i in range(0, len(imgs), per)])
    if "wide" not in kept:
        one = _one_picture(imgs)
        kept["one"], kept["wide"] = one, wide_blur(one, tuning.DESC_WIDE)
    return _pictures(_detail(kept["one"], blur, kept["wide"]), imgs.shape[3])


# --- 5b. tell look-alikes apart ------------------------------------------------------------

def turned_details(details: np.ndarray) -> np.ndarray:
    """Each exemplar's detail (``exemplar_details``) at each turn of ``MATCH_ANGLES``, inner
    part: (exemplars, angles, m, m, 3) float32, what ``tell_apart`` places on a cell."""
    size = details.shape[1]
    i = _inner(size)
    return np.stack([[_turned(d, a)[i:size - i, i:size - i] for a in tuning.MATCH_ANGLES] for d in details])


def _placed(cell: np.ndarray, turned) -> tuple[np.ndarray, np.ndarray]:
    """An exemplar (``turned_details``: at each turn, or their ``Slider``) placed where it fits
    ``cell`` best (shift and a turn of ``MATCH_ANGLES``, full size): the exemplar on a canvas the
    cell's size, and where it lies."""
    return _on_canvas(cell, *_places(cell, turned)[0])


def _places(cell: np.ndarray, *turned) -> list[tuple[int, int, np.ndarray]]:
    """For each exemplar (at each turn, or its ``Slider``): where (y, x) and at which turn it fits
    ``cell`` best (the first best turn and place, as ``cv2.minMaxLoc`` one turn after another)."""
    sliders = [t if isinstance(t, Slider) else Slider(t) for t in turned]
    return [(y, x, slider.originals[k]) for slider, (y, x, k) in zip(sliders, _places_at(cell, sliders))]


def _places_at(cell: np.ndarray, sliders: list) -> list[tuple[int, int, int]]:
    """``_places`` of each of ``sliders`` as (y, x, the turn's index in the slider)."""
    out = []
    for res in slide(cell, *sliders):
        flat = res.reshape(len(res), -1)
        at = flat.argmax(axis=1)
        k = int(np.argmax(flat[np.arange(len(res)), at]))
        y, x = divmod(int(at[k]), res.shape[2])
        out.append((y, x, k))
    return out


def _places_each(cells: np.ndarray, sliders: list) -> np.ndarray:
    """``_places_at`` of each of ``cells`` (b, h, w, c) with its own ``sliders`` (per cell a
    tuple of as many ``Slider``s, ``slide_own``) at once: (b, sliders, 3) int, (y, x, the
    turn's index) each, the same first best turn and place."""
    res = slide_own(cells, sliders)
    b, per, k, rh, rw = res.shape
    flat = res.reshape(b, per, k, rh * rw)
    at = flat.argmax(axis=3)                                          # (b, per, k): each turn's best place
    best = np.take_along_axis(flat, at[..., None], axis=3)[..., 0]
    turn = best.argmax(axis=2)                                        # the first best turn
    where = np.take_along_axis(at, turn[..., None], axis=2)[..., 0]
    return np.stack([where // rw, where % rw, turn], axis=2)


def _on_canvas(cell: np.ndarray, y: int, x: int, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    canvas = np.zeros_like(cell)
    where = np.zeros(cell.shape[:2], bool)
    canvas[y:y + t.shape[0], x:x + t.shape[1]] = t
    where[y:y + t.shape[0], x:x + t.shape[1]] = True
    return canvas, where


def _weighted_ncc(a: np.ndarray, b: np.ndarray, w: np.ndarray) -> float:
    ws = float(w.sum()) + 1e-6
    w3 = w[..., None]
    a = a - (a * w3).sum((0, 1)) / ws
    b = b - (b * w3).sum((0, 1)) / ws
    return float((a * b * w3).sum() / np.sqrt(float((a * a * w3).sum() * (b * b * w3).sum()) + 1e-9))


def tell_apart(cell: np.ndarray, first: np.ndarray, second: np.ndarray, blur: float = tuning.PAIR_BLUR) -> float:
    """How much better the cell (``cell_detail``) fits exemplar ``first`` than ``second``
    (``exemplar_details``) where the two differ: each exemplar is placed on the cell on its
    own (exemplars come from different teaching photos and are not registered to each other
    to the pixel, so their own difference is mostly edges), the places where the two placed
    pictures differ are weighted (blurred difference, squared), and the cell is correlated
    with each there. ``first``, ``second``: as ``turned_details`` gives them (or their
    ``Slider``s, kept per box). In [-2, 2]; > 0: ``first``."""
    return placed_apart(cell, *_places(cell, first, second), blur)


def tell_apart_each(cells: list, firsts: list, seconds: list, blur: float = tuning.PAIR_BLUR) -> list[float]:
    """``tell_apart`` of each of ``cells`` ((h, w, c) each, all of one size) with its own two
    exemplars (``firsts[i]``, ``seconds[i]``: ``Slider``s of one template size and number), the
    same floats as cell by cell: the exemplars placed on every cell at once (``_places_each``:
    the cells' spectra in one call, one inverse for all; the sliding was most of a ~0.2 ms test,
    in numpy's per-call costs), then each pair told apart on its cell (``placed_apart``)."""
    if not len(cells):
        return []
    at = _places_each(np.stack(cells), list(zip(firsts, seconds))).tolist()
    return [placed_apart(cell, (ya, xa, first.originals[ka]), (yb, xb, second.originals[kb]), blur)
            for cell, first, second, ((ya, xa, ka), (yb, xb, kb)) in zip(cells, firsts, seconds, at)]


def tell_apart_all(cell: np.ndarray, turned: list, blur: float = tuning.PAIR_BLUR) -> np.ndarray:
    """``tell_apart`` of every pair of the exemplars ``turned`` (each as ``tell_apart`` takes
    it) on one cell, each exemplar placed once: (k, k), [a, b] how much better the cell fits a
    than b (``reader.look_again``). Every pair at once (``_told_all``)."""
    sliders = [t if isinstance(t, Slider) else Slider(t) for t in turned]
    return _told_all(cell, sliders, _places_at(cell, sliders), blur)


def _told_all(cell: np.ndarray, sliders: list, at: list, blur: float) -> np.ndarray:
    """``placed_apart`` of every pair of the exemplars ``sliders`` placed on the cell at ``at``
    ((y, x, turn) each, ``_places_at``; templates of one size) at once: (k, k). Each pair's steps
    as ``placed_apart`` takes them, batched: each pair's spread over where both lie from the
    exemplars' integral images (kept per box, ``Slider.pair_terms``); the pairs' differences
    blurred as one picture of a channel per pair; and every weighted sum the two correlations
    need (of the cell and each exemplar per channel, and of their products) as matrix products of
    the pairs' weights (0 where the two do not both lie) with per-pixel terms, in float64 (a
    weighted centring is the sums less the product of the means). The same values as pair by pair
    to float rounding (tests/test_vision_second_look.py)."""
    k = len(at)
    out = np.zeros((k, k), np.float32)
    if k < 2:
        return out
    ia, ib = _pairs(k)
    P = len(ia)
    n, nw, ch = cell.shape
    mh, mw = sliders[0].shape
    terms = [sl.pair_terms()[t] for sl, (_, _, t) in zip(sliders, at)]   # (sums, planes, per-pixel terms)
    ys, xs = [a[0] for a in at], [a[1] for a in at]
    spreads = np.ones((P, 2), np.float32)
    boxes = []
    for p in range(P):
        a, b = ia[p], ib[p]
        y0, y1, x0, x1 = max(ys[a], ys[b]), min(ys[a], ys[b]) + mh, max(xs[a], xs[b]), min(xs[a], xs[b]) + mw
        boxes.append((y0, y1, x0, x1))
        if y0 >= y1 or x0 >= x1:
            continue
        size = float((y1 - y0) * (x1 - x0) * ch)
        for i, j in enumerate((a, b)):     # each one's std over where both lie (all channels), + 1e-6
            s1, s2 = terms[j][0]
            r0, r1, c0, c1 = y0 - ys[j], y1 - ys[j], x0 - xs[j], x1 - xs[j]
            mean = float(s1[r1, c1] - s1[r0, c1] - s1[r1, c0] + s1[r0, c0]) / size
            sq = float(s2[r1, c1] - s2[r0, c1] - s2[r1, c0] + s2[r0, c0]) / size
            spreads[p, i] = np.sqrt(max(sq - mean * mean, 0.0)) + 1e-6
    diff = np.zeros((P, ch, n, nw), np.float32)       # per pair: na - nb on the cell's canvas
    for p in range(P):
        a, b = ia[p], ib[p]
        diff[p, :, ys[a]:ys[a] + mh, xs[a]:xs[a] + mw] = terms[a][1] / spreads[p, 0]
        diff[p, :, ys[b]:ys[b] + mh, xs[b]:xs[b] + mw] -= terms[b][1] / spreads[p, 1]
    np.abs(diff, out=diff)
    d = diff[:, 0].copy()                             # (pairs, n, nw): channels summed (plane by plane:
    for c in range(1, ch):                            # numpy's sum over a short axis is slow)
        d += diff[:, c]
    w = cv2.GaussianBlur(np.ascontiguousarray(d.transpose(1, 2, 0)), (0, 0), blur).reshape(n, nw, P)
    w64 = np.zeros((P, n, nw))                        # each pair's weight where both lie, 0 elsewhere
    for p, (y0, y1, x0, x1) in enumerate(boxes):
        if y0 < y1 and x0 < x1:
            wp = w[y0:y1, x0:x1, p]
            w64[p, y0:y1, x0:x1] = (wp / (float(wp.max()) + 1e-6)) ** 2
    c64 = np.moveaxis(cell, 2, 0).astype(np.float64)  # (ch, n, nw)
    W = w64.reshape(P, -1)
    cell_terms = np.empty((1 + ch, n, nw))            # per pixel: the cell's square, the cell per channel
    cell_terms[1:] = c64
    np.multiply(c64[0], c64[0], out=cell_terms[0])
    for c in range(1, ch):
        cell_terms[0] += c64[c] * c64[c]
    Sc = W @ cell_terms.reshape(1 + ch, -1).T         # (pairs, 1 + ch): Σw c·c, Σw c per channel
    Se = np.empty((k, P, 2 + ch))                     # per exemplar: Σw c·e, Σw e·e, Σw e per channel
    for j in range(k):
        y, x = ys[j], xs[j]
        pix = terms[j][2]                             # (m·m, 1 + ch): e·e, e per channel
        under = c64[:, y:y + mh, x:x + mw].reshape(ch, -1)
        ce = under[0] * pix[:, 1]
        for c in range(1, ch):
            ce += under[c] * pix[:, 1 + c]
        wj = w64[:, y:y + mh, x:x + mw].reshape(P, -1)
        Se[j, :, 0] = wj @ ce
        Se[j, :, 1:] = wj @ pix
    sw = W.sum(axis=1)
    ws = sw + 1e-6
    f = 2 / ws - sw / (ws * ws)       # Σw (x - Sx/ws)(y - Sy/ws) = Σwxy - Sx·Sy·f
    rows = np.arange(P)
    A, B = Se[ia, rows], Se[ib, rows]                 # (pairs, 2 + ch)
    mc = Sc[:, 1:]
    cc = Sc[:, 0] - (mc * mc).sum(axis=1) * f
    ca = A[:, 0] - (mc * A[:, 2:]).sum(axis=1) * f
    cb = B[:, 0] - (mc * B[:, 2:]).sum(axis=1) * f
    aa = A[:, 1] - (A[:, 2:] * A[:, 2:]).sum(axis=1) * f
    bb = B[:, 1] - (B[:, 2:] * B[:, 2:]).sum(axis=1) * f
    told = ca / np.sqrt(cc * aa + 1e-9) - cb / np.sqrt(cc * bb + 1e-9)
    told = np.where([y0 < y1 and x0 < x1 for y0, y1, x0, x1 in boxes], told, 0.0)   # no overlap: 0
    out[ia, ib] = told
    out[ib, ia] = -out[ia, ib]
    return out


@functools.cache
def _pairs(k: int) -> tuple[np.ndarray, np.ndarray]:
    """The pairs (a < b) of k things, as two index arrays."""
    return np.triu_indices(k, 1)


def _abs_summed(x: np.ndarray) -> np.ndarray:
    """``np.abs(x).sum(axis=2)`` of a picture (h, w, c), in place of ``x``: the channels added
    plane by plane in the order numpy's sum over a short last axis adds them, in a fifth of its
    time (tests/test_vision_read_once.py)."""
    np.abs(x, out=x)
    out = x[..., 0].copy()
    for c in range(1, x.shape[2]):
        out += x[..., c]
    return out


def placed_apart(cell: np.ndarray, first: tuple, second: tuple, blur: float = tuning.PAIR_BLUR) -> float:
    """``tell_apart`` of two exemplars already placed on the cell (``_places``: (y, x, picture))."""
    (ya, xa, ta), (yb, xb, tb) = first, second
    mh, mw = ta.shape[:2]
    y0, y1, x0, x1 = max(ya, yb), min(ya, yb) + mh, max(xa, xb), min(xa, xb) + mw
    if y0 >= y1 or x0 >= x1:   # the two placed exemplars do not overlap
        return 0.0
    # only where both lie (``both``) does the weight differ from 0: the placed exemplars there
    a = ta[y0 - ya:y1 - ya, x0 - xa:x1 - xa]
    b = tb[y0 - yb:y1 - yb, x0 - xb:x1 - xb]
    sa, sb = float(np.ascontiguousarray(a).std()) + 1e-6, float(np.ascontiguousarray(b).std()) + 1e-6
    diff = np.zeros(cell.shape, np.float32)             # na - nb on the cell's canvas
    diff[ya:ya + mh, xa:xa + mw] = ta / sa
    diff[yb:yb + mh, xb:xb + mw] -= tb / sb
    w = cv2.GaussianBlur(_abs_summed(diff), (0, 0), blur)[y0:y1, x0:x1]
    w = (w / (float(w.max()) + 1e-6)) ** 2
    # _weighted_ncc(cell, a, w) - _weighted_ncc(cell, b, w) over where both lie: the cell and the
    # two placed exemplars there, each less its weighted mean per channel, and their weighted
    # products with one another as one matrix product
    ws = float(w.sum()) + 1e-6
    weights = w.reshape(-1)
    x = np.stack([cell[y0:y1, x0:x1], a, b]).reshape(3, len(weights), -1)
    x = x - (weights @ x / ws)[:, None, :]
    g = (x * weights[None, :, None]).reshape(3, -1) @ x.reshape(3, -1).T     # (3, 3)
    cc = float(g[0, 0])
    return (float(g[0, 1]) / float(np.sqrt(cc * float(g[1, 1]) + 1e-9))
            - float(g[0, 2]) / float(np.sqrt(cc * float(g[2, 2]) + 1e-9)))


def _ncc_with(c: np.ndarray, cc: float, b: np.ndarray, w3: np.ndarray, ws: float) -> float:
    """``_weighted_ncc(cell, b, w)`` from the cell already centred (``c``) and its weighted
    square sum (``cc``)."""
    b = b - (b * w3).sum((0, 1)) / ws
    return float((c * b * w3).sum() / np.sqrt(float(cc * (b * b * w3).sum()) + 1e-9))


# --- 5c. look-alikes at a finer scale ------------------------------------------------------

def fine_detail(img: np.ndarray) -> np.ndarray:
    """``_detail`` at ``FINE_PX``: the blurs scaled from CELL_PX by ``FINE_BLUR`` (less blur per
    pixel than at CELL_PX: the finer cut keeps what 48 px lost)."""
    k = tuning.FINE_PX / tuning.CELL_PX
    return (cv2.GaussianBlur(img, (0, 0), tuning.DESC_BLUR * tuning.FINE_BLUR * k)
            - wide_blur(img, tuning.DESC_WIDE * k))


def wide_blur(img: np.ndarray, sigma: float) -> np.ndarray:
    """``cv2.GaussianBlur(img, (0, 0), sigma)`` of a square float32 picture (n, n, c) as two
    matrix products with its 1-D pass as an n×n matrix (its kernel and border, reflect-101, made
    once per size): a kernel as wide as the picture (the light: 65 taps over CELL_PX's 48 px, 129
    over FINE_PX's 96) costs cv2 ~0.05 / 0.44 ms a picture, the products ~0.02 / 0.1. The same
    values to ~1e-6 of them. Other pictures: cv2's."""
    n = img.shape[0]
    if img.ndim != 3 or img.shape[1] != n or img.dtype != np.float32:
        return cv2.GaussianBlur(img, (0, 0), sigma)
    op = _blur_operator(n, sigma)
    c = img.shape[2]
    down = (op @ img.reshape(n, n * c)).reshape(n, n, c)                       # along y
    return (op @ down.transpose(1, 0, 2).reshape(n, n * c)).reshape(n, n, c).transpose(1, 0, 2)   # along x


_BLUR_OPS: dict = {}


def _blur_operator(n: int, sigma: float) -> np.ndarray:
    """(n, n) float32 K: K @ v is cv2.GaussianBlur's pass over a column v of n float32 pixels
    (its kernel size for ``sigma``, its border), kept."""
    key = (n, sigma)
    if key not in _BLUR_OPS:
        kernel = cv2.getGaussianKernel(int(round(sigma * 4 * 2 + 1)) | 1, sigma, cv2.CV_32F)
        rows = cv2.sepFilter2D(np.eye(n, dtype=np.float32), -1, kernel, np.float32([[1.0]]),
                               borderType=cv2.BORDER_REFLECT_101)   # row i: where pixel i goes
        _BLUR_OPS[key] = np.ascontiguousarray(rows.T)
    return _BLUR_OPS[key]


def _fine_inner() -> int:
    k = tuning.FINE_PX / tuning.CELL_PX
    return int(round(_inner(tuning.CELL_PX) * k))


def detail_sides() -> tuple[int, int]:
    """The side of ``cell_detail``'s picture and of ``fine_cell``'s (their cuts: the inner part with
    the slack round it): what ``tell_apart`` slides the exemplars over."""
    sl = tuning.MATCH_SLACK
    cell = tuning.CELL_PX - 2 * _inner(tuning.CELL_PX) + 2 * sl
    fine = tuning.FINE_PX - 2 * _fine_inner() + 2 * int(round(sl * tuning.FINE_PX / tuning.CELL_PX))
    return cell, fine


def fine_exemplar(picture: np.ndarray, mean: np.ndarray, mean_detail: np.ndarray | None = None) -> np.ndarray:
    """An exemplar (its registered picture, any size) at ``FINE_PX``: its small things less its
    stack's (``mean``: the stack's faces at FINE_PX), inner part at each turn of ``MATCH_ANGLES``,
    as ``turned_details`` gives them at CELL_PX. (angles, m, m, 3) float32."""
    f = tuning.FINE_PX
    t = cv2.resize(picture, (f, f), interpolation=cv2.INTER_AREA).astype(np.float32)
    d = (fine_detail(t * gain(mean, t)) - (fine_detail(mean) if mean_detail is None else mean_detail)).astype(np.float32)
    i = _fine_inner()
    return np.stack([_turned(d, a)[i:f - i, i:f - i] for a in tuning.MATCH_ANGLES])


def fine_cells(photo: Photo, outline: Outline, tile: float = 1.0) -> Cells:
    """The 16 cells cut again at ``FINE_PX`` through the same outline (from the same decode:
    a cell lies over 48 px of it in most photos); ``tile`` as ``cut_cells``'."""
    return cut_cells(photo, outline, None, size=tuning.FINE_PX, tile=tile)


def fine_cell(cells: Cells, centre: np.ndarray, pad: int, q: int, mean: np.ndarray,
              mean_detail: np.ndarray | None = None) -> np.ndarray:
    """Cell ``q`` of ``fine_cells`` round the tile's centre found at CELL_PX (``Aligned.centres``,
    scaled; ``pad``: the CELL_PX cells' pad), as ``cell_detail`` gives it at CELL_PX: small things less the stack's (``mean`` at
    FINE_PX), light matched, the inner part with a slack round it. ``mean_detail``:
    ``fine_detail(mean)`` when kept (the same for every cell of the stack)."""
    return fine_cells_at(cells, [centre], pad, [q], [mean], [mean_detail])[0]


def fine_cells_at(cells: Cells, centres: list, pad: int, qs: list, means: list, mean_details: list) -> list[np.ndarray]:
    """``fine_cell`` of each of the cells ``qs`` (with its own ``centres``, ``means`` and
    ``mean_details``, as ``fine_cell`` takes them) at once: each tile cut on its own, their
    small things as one picture of 3k channels (one ``GaussianBlur``, one ``wide_blur``: each
    channel on its own, as ``_details``), their channels at once (``channels`` of a stack). The
    same floats as cell by cell (tests/test_vision_batched.py); ~0.55-0.7 ms a cell on its own,
    most of it the blurs' and the mean's per-call costs."""
    f = tuning.FINE_PX
    k = f / tuning.CELL_PX
    tiles = []
    for q, centre in zip(qs, centres):
        win = cells.windows[q].astype(np.float32)
        cx, cy = (float(centre[0]) - pad) * k + cells.pad, (float(centre[1]) - pad) * k + cells.pad
        M = np.float32([[1, 0, f / 2 - cx], [0, 1, f / 2 - cy]])
        tiles.append(cv2.warpAffine(win, M, (f, f), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE))
    tiles = np.stack(tiles)
    details = _pictures(fine_detail(_one_picture(tiles)), tiles.shape[3])
    every = channels(tiles)
    i, sl = _fine_inner(), int(round(tuning.MATCH_SLACK * k))
    cut = slice(i - sl, f - i + sl)
    out = []
    for j, (mean, mean_detail) in enumerate(zip(means, mean_details)):
        md = fine_detail(mean) if mean_detail is None else mean_detail
        out.append((details[j][cut, cut] * gain(mean, tiles[j], every[j]) - md[cut, cut]).astype(np.float32))
    return out


def _windows(d: np.ndarray, m: int) -> tuple[np.ndarray, np.ndarray]:
    """Every m×m window of each of ``d`` (k, h, w, 3) as rows, as they are: (k, windows, D),
    and each window's length once each channel's mean is taken off (box sums), (k, windows).
    Against a filter whose channels have mean 0, a window's dot product is the same with or
    without its means: the normalized correlation is the raw product over that length."""
    k, h, w, _ = d.shape
    win = np.lib.stride_tricks.sliding_window_view(d, (m, m), axis=(1, 2))      # (k, a, b, 3, m, m)
    rows = win.transpose(0, 1, 2, 4, 5, 3).reshape(k, -1, m * m * 3)
    s1, s2 = _box_sums(d, m), _box_sums(d * d, m)                              # (k, a, b, 3)
    var = np.maximum(s2 - s1 * s1 / (m * m), 0).sum(axis=3).reshape(k, -1)
    return rows, np.sqrt(var) + 1e-6


def _box_sums(d: np.ndarray, m: int) -> np.ndarray:
    """Sums over every m×m window of each of ``d`` (k, h, w, c), from its integral image in double:
    the k pictures as one picture of k·c channels, ``CV_CHANNELS`` at a time, one ``cv2.integral``
    each (it takes each channel on its own). numpy's two cumsums, which took 0.20 ms for box2's 16
    cells against 0.07, added the same numbers down then across: the sums differ by a few units in
    the last place of a double (tests/test_vision_paths.py), and no reading of the 344 seen photos
    changes."""
    k, h, w, c = d.shape
    one = _one_picture(d)
    parts = [cv2.integral(np.ascontiguousarray(one[..., a:a + CV_CHANNELS]), sdepth=cv2.CV_64F).reshape(h + 1, w + 1, -1)
             for a in range(0, k * c, CV_CHANNELS)]
    ii = (parts[0] if len(parts) == 1 else np.concatenate(parts, axis=2)).reshape(h + 1, w + 1, k, c)
    return (ii[m:, m:] - ii[:-m, m:] - ii[m:, :-m] + ii[:-m, :-m]).transpose(2, 0, 1, 3)


_ROWS_FILTERS: dict = {}


def _rows_filters(filters: np.ndarray, stack: str, rows: list) -> np.ndarray:
    """``filters[rows]`` as one (rows × angles, D) matrix, kept per box and stack (the same for
    every cell and reading of a box)."""
    key = (id(filters), stack)
    hit = _ROWS_FILTERS.get(key)
    if hit is None or hit[0] is not filters or hit[1] != tuple(rows):
        if len(_ROWS_FILTERS) > 64:
            _ROWS_FILTERS.clear()
        hit = _ROWS_FILTERS[key] = (filters, tuple(rows), filters[np.array(rows)].reshape(-1, filters.shape[-1]))
    return hit[2]


def match(aligned: Aligned, filters: np.ndarray, rows_of: dict, means: dict, backs: dict,
          details: dict | None = None, blur: float | None = None, kept: dict | None = None,
          at: dict | None = None) -> np.ndarray:
    """(16, n) (with ``at``: one row per tile) similarity of each aligned tile with each exemplar its position allows: the best
    normalized correlation of the exemplar's matched filter (``filters``: (n, angles, D)) within
    ``MATCH_SLACK`` pixels (in steps of 2), every cell of a stack against all its exemplars as
    one matrix product. Face down or up is told first by colour (``backs``: stack -> (rows of
    its backs, their chromas, its faces' chroma)): the other kind's rows stay at -1. ``details``,
    if given, receives each cell's ``cell_detail`` (cell -> array), for the runner-up test.
    ``blur``: the cells' details at it (``filters`` made at it too), not ``DESC_BLUR``. ``kept``:
    a dict kept for these aligned tiles and the box's ``means`` and ``backs`` (``classify``
    matches them twice, at two blurs), in which what depends on neither the blur nor the
    filters is kept when first made: the tiles' channels, each stack's gains and wide blur
    (``cell_details``) and which cells look face down (the same floats, made once: classify's
    two matches 7.6-7.8 -> 6.9-7.0 ms on box2's cells, tests/test_vision_batched.py). ``at``:
    stack -> which of ``aligned``'s tiles are of it (any number of tiles; by default the 16
    cells by their positions), the rows of the result one per tile."""
    size = tuning.CELL_PX
    i = _inner(size)
    m = (size - 2 * i) // 2
    sims = np.full((len(aligned.tiles), len(filters)), -1.0, np.float32)
    kept = {} if kept is None else kept
    if "channels" not in kept:
        kept["channels"] = channels(aligned.tiles)            # per tile, once (gain and chroma)
    every = kept["channels"]
    stacks, ds = [], []                                       # the cells stack by stack
    for st, rows in rows_of.items():
        cells = [q for q in range(16) if STACK_AT[q] == st] if at is None else list(at.get(st, ()))
        if not rows or not cells:
            continue
        back_rows, back_chromas, face_chroma = backs.get(st, ((), (), None))
        chans = every[cells]
        own = kept.setdefault(("stack", st), {})
        ds.append(cell_details(aligned.tiles[cells], means[st], chans, blur, own))   # the stack's cells at once
        if "down" not in own:
            down = np.zeros(len(cells), bool)                 # per cell: its colour nearer a back's
            if back_rows:
                c = chans / chans.sum(axis=1, keepdims=True)  # chroma of each
                down = (np.abs(c[:, None] - np.asarray(back_chromas)[None]).sum(axis=2).min(axis=1)
                        < np.abs(c - face_chroma).sum(axis=1))
            own["down"] = down
        stacks.append((st, rows, cells, back_rows, own["down"]))
    if not ds:
        return sims
    ds = np.concatenate(ds)
    pooled = _pool(ds)                                           # the blur is linear: pooled after
    W, length = _windows(pooled.astype(np.float32), m)           # (cells, windows, D), (cells, windows): all at once
    start = 0
    for st, rows, cells, back_rows, down in stacks:
        at = slice(start, start + len(cells))
        start += len(cells)
        r = np.array(rows)
        F = _rows_filters(filters, st, rows)                     # (rows × angles, D)
        S = (W[at].reshape(-1, W.shape[-1]) @ F.T).reshape(len(cells), W.shape[1], len(r), -1)
        best = (S / length[at, :, None, None]).max(axis=1).max(axis=2)   # = max over (1, 3), sooner
        is_back = np.array([j in back_rows for j in rows])
        sims[np.ix_(cells, r)] = np.where(is_back[None] == down[:, None], best, _other_kind(best))
        if details is not None:
            details.update(zip(cells, ds[at]))
    return sims


def _other_kind(best: np.ndarray) -> np.ndarray | float:
    """The similarities of a cell with the kind (face or back) its colour does not point to:
    -1 (never), or, since the photo-light round (``BACK_COMPETE``), less ``COMPETE_COST``: a
    lamp's cast or a shadow turns a face's colour towards its stack's back (heldout3's
    vignette, heldout4's warm lamp), so the match may still overrule the colour."""
    return best - tuning.COMPETE_COST if tuning.BACK_COMPETE else -1.0


# --- 4b. find each tile's own square in its cell ------------------------------------------

def _perimeter_sums(e: np.ndarray, side: int, m: int) -> np.ndarray:
    """(m, m): the edge strength along the border of the ``side`` square whose top-left corner
    is at (y, x), for y, x < m."""
    cs = np.cumsum(np.pad(e, ((0, 0), (1, 0))), axis=1)
    rows = cs[:, side:] - cs[:, :-side]          # rows[y, x] = e[y, x:x + side].sum()
    cr = np.cumsum(np.pad(e, ((1, 0), (0, 0))), axis=0)
    cols = cr[side:, :] - cr[:-side, :]          # cols[y, x] = e[y:y + side, x].sum()
    s = side - 1
    return rows[:m, :m] + rows[s:s + m, :m] + cols[:m, :m] + cols[:m, s:s + m]


def frame_of(win: np.ndarray, size: int, near: tuple | None = None, within: float = 0.0,
             angles: tuple = tuning.FRAME_ANGLES, sizes: tuple = tuning.FRAME_SIZES) -> tuple:
    """Where the tile lying in ``win`` (its cell with a pad round it) is, found by its own square
    outline (a tile's border is where its edges are, whatever its art: a small shift, turn and
    size): (score, angle, side, y, x), the square's top-left corner at (y, x) of ``win`` turned by
    the angle; the score is how strongly its border carries edges against the window's mean edge
    strength. ``near``: (dx, dy), the square's centre must lie within ``within`` (parts of
    ``size``) of the window's middle moved by that much (``frame_tiles``); ``angles`` and
    ``sizes``: the turns and the squares' sides (parts of ``size``) tried."""
    n = win.shape[0]
    e = edge_map(win)
    e = e / (float(e.mean()) + 1e-3)
    best = (-1.0, 0.0, size, (n - size) // 2, (n - size) // 2)
    for a in angles:
        er = _turned(e, a)
        for f in sizes:
            side = int(round(size * f))
            m = n - side + 1
            if m < 1:
                continue
            p = _perimeter_sums(er, side, m) / (4 * side)
            if near is not None:
                yy, xx = np.mgrid[0:m, 0:m].astype(np.float32)
                dx = (xx + side / 2 - n / 2) / size - near[0]
                dy = (yy + side / 2 - n / 2) / size - near[1]
                p = np.where(np.hypot(dx, dy) <= within, p, -1.0)
            y, x = np.unravel_index(int(np.argmax(p)), p.shape)
            sc = float(p[y, x]) - tuning.FRAME_TURN_COST * abs(a)
            if sc > best[0]:
                best = (sc, a, side, int(y), int(x))
    return best


def square_near(win: np.ndarray, size: int, near: tuple, within: float, angles: tuple, sizes: tuple) -> tuple:
    """``frame_of(win, size, near, within, angles, sizes)``, the same tuple, made faster for a
    small ``within``: the sums along rows and columns made once for every turn at once, and the
    border's sums only where the square's centre may lie."""
    n = win.shape[0]
    e = edge_map(win)
    e = e / (float(e.mean()) + 1e-3)
    er = np.stack([_turned(e, a) for a in angles])                     # (turns, n, n)
    cs = np.cumsum(np.pad(er, ((0, 0), (0, 0), (1, 0))), axis=2)
    cr = np.cumsum(np.pad(er, ((0, 0), (1, 0), (0, 0))), axis=1)
    cost = tuning.FRAME_TURN_COST * np.abs(np.float32(angles))
    best = (-1.0, 0.0, size, (n - size) // 2, (n - size) // 2)
    for f in sizes:
        side = int(round(size * f))
        m = n - side + 1
        if m < 1:
            continue
        # the corners (y, x) whose square's centre may lie within ``within`` of the point asked
        ox, oy = n / 2 - side / 2 + near[0] * size, n / 2 - side / 2 + near[1] * size
        r = within * size
        y0, y1 = max(0, int(np.floor(oy - r))), min(m - 1, int(np.ceil(oy + r)))
        x0, x1 = max(0, int(np.floor(ox - r))), min(m - 1, int(np.ceil(ox + r)))
        if y1 < y0 or x1 < x0:
            continue
        ys, xs, s = slice(y0, y1 + 1), slice(x0, x1 + 1), side - 1
        xe, ye = slice(x0 + side, x1 + 1 + side), slice(y0 + side, y1 + 1 + side)
        yb, xr = slice(y0 + s, y1 + 1 + s), slice(x0 + s, x1 + 1 + s)
        p = ((cs[:, ys, xe] - cs[:, ys, xs]) + (cs[:, yb, xe] - cs[:, yb, xs])
             + (cr[:, ye, xs] - cr[:, ys, xs]) + (cr[:, ye, xr] - cr[:, ys, xr])) / (4 * side)
        yy, xx = np.mgrid[y0:y1 + 1, x0:x1 + 1].astype(np.float32)
        inside = np.hypot((xx + side / 2 - n / 2) / size - near[0], (yy + side / 2 - n / 2) / size - near[1]) <= within
        p = np.where(inside[None], p, -1.0)
        flat = p.reshape(len(angles), -1)
        at = flat.argmax(axis=1)
        scores = flat[np.arange(len(angles)), at] - cost
        for k, a in enumerate(angles):     # a tie goes to the first side, then the first turn (frame_of: the first turn, then side)
            if float(scores[k]) > best[0]:
                y, x = divmod(int(at[k]), p.shape[2])
                best = (float(scores[k]), a, side, y + y0, x + x0)
    return best


def _cut_frame(win: np.ndarray, size: int, frame: tuple) -> np.ndarray:
    _, a, side, y, x = frame
    tile = _turned(win, a)[y:y + side, x:x + side]
    return cv2.resize(tile, (size, size), interpolation=cv2.INTER_AREA if side > size else cv2.INTER_LINEAR)


def frame_tile(win: np.ndarray, size: int) -> tuple[np.ndarray, float]:
    """The tile lying in ``win`` (``frame_of``), cut out at ``size`` square, and its score."""
    frame = frame_of(win, size)
    return _cut_frame(win, size, frame), frame[0]


def frame_tiles(windows: np.ndarray, size: int, sides: list | None = None) -> list[np.ndarray]:
    """The tiles of a teaching layout, each cut out by its own square (``frame_of``), but tiles
    laid side by side lie on one lattice: a square whose centre is more than ``FRAME_DEV`` (part
    of a tile) off where the layout's squares lie (their median offset from their cells' middles)
    latched onto the art inside (a badge's ring, a rim, a hard shadow's edge) and is looked for
    again within ``FRAME_DEV`` of there."""
    return _cut_frames(windows, layout_frames(windows, size), size, sides)


def _cut_frames(windows: np.ndarray, frames: list[tuple], size: int, sides: list | None = None) -> list[np.ndarray]:
    """Each window's tile cut by its square (``frame_of``'s tuple), ``size`` px, contiguous;
    ``sides``, if given, receives each square's side as a part of its cell (``size``)."""
    if sides is not None:
        sides.extend(float(f[2]) / size for f in frames)
    return [np.ascontiguousarray(_cut_frame(w, size, f)) for w, f in zip(windows, frames)]


def layout_frames(windows: np.ndarray, size: int) -> list[tuple]:
    """``frame_tiles``' squares (``frame_of``'s tuples), one per window."""
    n = windows.shape[1]
    frames = [frame_of(w, size) for w in windows]
    offsets = np.array([((x + side / 2 - n / 2) / size, (y + side / 2 - n / 2) / size)
                        for _, _, side, y, x in frames], np.float32)
    med = np.median(offsets, axis=0)
    out = []
    for w, f, o in zip(windows, frames, offsets):
        if tuning.FRAME_CONSENSUS and float(np.hypot(*(o - med))) > tuning.FRAME_DEV:
            f = frame_of(w, size, (float(med[0]), float(med[1])), tuning.FRAME_DEV)
        out.append(f)
    return out
