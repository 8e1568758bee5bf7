"""Teach the reader a box from photos of known layouts (SPEC §2 "Teaching the app a real box").

``learn(photo: bytes, grid: dict, box: Box) -> Lesson`` never raises for a bad photo: the Lesson
says ``ok=False`` with a message for a person, and the box is left as it was.

Stages (each a function, typed values between them):
1. ``decode``: the photo upright (EXIF applied), reduced for speed.
2. ``find_layout``: where the 16 tiles lie, without knowing the art. Candidate outlines come
   from the same table-vs-not-table masks the reader uses; a teaching photo is upright, so the
   candidate must be nearly square and nearly level. Each candidate is straightened and every
   tile is looked for in its cell with the outline the 16 cells share (their mean picture), and
   the outline is re-fitted from where the tiles were found (as the reader does).
3. ``cut_tiles``: each tile, where it was found, straightened to ``SAMPLE_PX`` as it lies.
4. ``check_layout``: the photo must show the layout asked for: tiles already learned from
   another layout must not be read in it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from . import tuning
from .box import SAMPLE_PX, Box, Sample
from .imageio import UnusableImage, decode
from .index import CELL
from .layout import STACK_AT
from .recognize import LATTICE as _IDEAL

NO_LAYOUT = ("I could not find 16 tiles laid in a 4×4 square in this photo. Lay them as the plan "
             "shows, take the photo from straight above with the first row at the top, and try again.")


@dataclass(frozen=True)
class Layout:
    """Where the tiles lie in the photo: the photo→straight homography at ``CELL`` per tile,
    each tile's centre (straight pixels) and turn (degrees), and how well they were found."""
    H: np.ndarray
    centres: np.ndarray
    angles: tuple
    fit: float
    quad: np.ndarray        # the corners in the photo (as decoded)


@dataclass(frozen=True)
class Lesson:
    ok: bool
    box: Box | None = None
    error: str | None = None
    learned: tuple = ()           # the samples learned from this photo, by position
    cells: tuple = field(default_factory=tuple)  # the grid's 16 names, in position order


def _cells_of(grid) -> list | None:
    try:
        rows = grid["cells"]
        cells = [c for row in rows for c in row]
    except (TypeError, KeyError):
        return None
    if len(rows) != 4 or len(cells) != 16 or any(len(r) != 4 for r in rows):
        return None
    return cells


def check_grid(grid) -> str | None:
    """What is wrong with a teaching grid, for a person (None: nothing)."""
    from scorer.catalog import catalog
    cells = _cells_of(grid)
    if cells is None:
        return 'A layout is a planet grid: {"cells": [[4 names] × 4 rows]}.'
    cat = catalog()
    seen = set()
    for p, c in enumerate(cells):
        if c is None:
            continue
        if c != "back" and c not in cat:
            return f"Position {p} names a tile that does not exist ({c!r})."
        if c != "back" and cat[c].stack != STACK_AT[p]:
            return f"Tile {c} is a {cat[c].stack} tile and cannot lie at position {p}."
        if c != "back" and c in seen:
            return f"Tile {c} is in the layout twice."
        seen.add(c)
    return None


# --- 2. find the layout --------------------------------------------------------------------

def _candidates(work: np.ndarray) -> list[np.ndarray]:
    from .recognize import _masks, _quads_from_mask
    out = []
    h, w = work.shape[:2]
    for m in _masks(work):
        for q in _quads_from_mask(m):
            sides = [np.linalg.norm(q[i] - q[(i + 1) % 4]) for i in range(4)]
            if min(sides) < tuning.LEARN_MIN_SIDE * min(h, w):
                continue
            if max(sides) / max(1e-6, min(sides)) > tuning.LEARN_MAX_ASPECT:
                continue
            level = abs(np.degrees(np.arctan2(q[1][1] - q[0][1], q[1][0] - q[0][0])))
            if level > tuning.LEARN_MAX_TURN:
                continue
            if all(np.abs(q - o).max() > 0.03 * min(sides) for o in out):
                out.append(q)
    return out


def _edges(straight: np.ndarray) -> np.ndarray:
    """Edge strength of the straightened photo (float32, grey)."""
    g = cv2.GaussianBlur(cv2.cvtColor(straight, cv2.COLOR_BGR2GRAY), (0, 0), 1.0).astype(np.float32)
    mag = cv2.magnitude(cv2.Sobel(g, cv2.CV_32F, 1, 0), cv2.Sobel(g, cv2.CV_32F, 0, 1))
    return cv2.GaussianBlur(mag, (0, 0), 1.5)


_LINES = None


def _line_mask() -> np.ndarray:
    """The 4×4 lattice's lines (the tiles' edges) in the straightened picture."""
    global _LINES
    if _LINES is None:
        from .recognize import MARGIN, SIDE
        m = np.zeros((SIDE, SIDE), bool)
        lo, hi = MARGIN, MARGIN + 4 * CELL
        for i in range(5):
            v = MARGIN + i * CELL
            m[v - 1:v + 2, lo:hi] = True
            m[lo:hi, v - 1:v + 2] = True
        _LINES = m
    return _LINES


def lattice_score(pyr, quad: np.ndarray) -> float:
    """How strongly the photo has edges along the lattice a quad puts the tiles on (tile edges
    are the one thing every box shows), against the edges inside the planet."""
    from .recognize import MARGIN, _rectify
    straight, _ = _rectify(pyr, quad)
    e = _edges(straight)
    lo, hi = MARGIN, MARGIN + 4 * CELL
    return float(e[_line_mask()].mean() / (e[lo:hi, lo:hi].mean() + 1.0))


def _fit(pyr, quad: np.ndarray) -> Layout:
    """Nudge the corners to where the lattice lines meet the tiles' edges best."""
    from .recognize import _rectify
    quad = quad.astype(np.float32).copy()
    best = lattice_score(pyr, quad)
    side = float(np.sqrt(max(1.0, cv2.contourArea(quad))))
    for step in (0.02, 0.01, 0.005):
        improved = True
        while improved:
            improved = False
            for i in range(4):
                for axis in (0, 1):
                    for d in (-1, 1):
                        trial = quad.copy()
                        trial[i, axis] += d * step * side
                        sc = lattice_score(pyr, trial)
                        if sc > best + 1e-4:
                            best, quad, improved = sc, trial, True
    _, H = _rectify(pyr, quad)
    return Layout(H=H, centres=_IDEAL.copy(), angles=(0.0,) * 16, fit=best, quad=quad)


def find_layout(img: np.ndarray) -> Layout | None:
    from .recognize import WORK, _pyramid
    h, w = img.shape[:2]
    f = min(1.0, WORK / max(h, w))
    work = cv2.resize(img, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA)
    pyr = _pyramid(img)
    table = _not_table(work)
    best = None
    for q in _candidates(work)[:tuning.LEARN_CANDIDATES]:
        if _covered(table, q) < tuning.LEARN_COVERED:
            continue
        layout = _fit(pyr, q / f)
        if best is None or layout.fit > best.fit:
            best = layout
    if best is None or best.fit < tuning.LEARN_MIN_FIT or _contrast(img, best) < tuning.LEARN_CONTRAST:
        return None
    return best


def _contrast(img: np.ndarray, layout: Layout) -> float:
    """Edges on the lattice's six inner lines against edges half a cell off them (median of the
    six ratios): tiles meet on the lines; a photo of other things has no such lattice."""
    from .recognize import MARGIN, SIDE
    e = _edges(cv2.warpPerspective(img, layout.H, (SIDE, SIDE), flags=cv2.INTER_AREA))
    lo, hi = MARGIN, MARGIN + 4 * CELL

    def strength(i: float) -> tuple:
        v = int(MARGIN + i * CELL)
        return e[v - 1:v + 2, lo:hi].mean(), e[lo:hi, v - 1:v + 2].mean()
    ratios = [a / (b + 1.0) for i in (1, 2, 3) for a, b in zip(strength(i), strength(i + .5))]
    return float(np.median(ratios))


def _not_table(work: np.ndarray) -> np.ndarray:
    """Where the photo does not look like its border (the table), by local colour and texture."""
    from .recognize import _texture_mask
    lab = cv2.cvtColor(cv2.GaussianBlur(work, (0, 0), 2.0), cv2.COLOR_BGR2LAB)
    return _texture_mask(lab, None)[0]


def _covered(mask: np.ndarray, quad: np.ndarray) -> float:
    """The least part of any of the 16 cells of ``quad`` that is not table: every cell holds a
    tile, so none is table."""
    H = cv2.getPerspectiveTransform(np.float32([[0, 0], [4, 0], [4, 4], [0, 4]]), quad.astype(np.float32))
    least = 1.0
    for r in range(4):
        for c in range(4):
            pts = np.float32([[c + .2, r + .2], [c + .8, r + .2], [c + .8, r + .8], [c + .2, r + .8]])
            poly = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), H).reshape(-1, 2).astype(np.int32)
            m = np.zeros(mask.shape, np.uint8)
            cv2.fillConvexPoly(m, poly, 1)
            n = int(m.sum())
            least = min(least, float((mask[m > 0] > 0).sum()) / max(1, n))
    return least


# --- 3. cut the tiles ----------------------------------------------------------------------

def cut_tiles(img: np.ndarray, layout: Layout) -> list[np.ndarray]:
    """Each tile where it was found, straightened (its small turn undone), SAMPLE_PX square."""
    s = SAMPLE_PX / CELL
    out = []
    for (cx, cy), a in zip(layout.centres, layout.angles):
        M = cv2.getRotationMatrix2D((float(cx), float(cy)), -float(a), 1.0)
        M[0, 2] += CELL / 2 - cx
        M[1, 2] += CELL / 2 - cy
        P = np.vstack([M * s, [0, 0, 1]])
        out.append(cv2.warpPerspective(img, P @ layout.H, (SAMPLE_PX, SAMPLE_PX), flags=cv2.INTER_AREA,
                                       borderMode=cv2.BORDER_REPLICATE))
    return out


# --- 4. is it the layout asked for? --------------------------------------------------------

def check_layout(cells: list, box: Box, data: bytes) -> str | None:
    """Is it the layout asked for? Tiles the box already knows from another layout must not be
    read here. (Telling face-down from face-up tiles by how alike they look failed on the
    second box: its edge tiles share their sky and rim, so faces looked as alike as backs.)"""
    if box.tiles():
        return _seen_elsewhere(cells, box, data)
    return None


def _seen_elsewhere(cells: list, box: Box, data: bytes) -> str | None:
    """Refuse a photo whose tiles the box already knows from another layout (the photo of
    another layout, taken again by mistake)."""
    import tempfile
    from .recognize import recognize
    with tempfile.TemporaryDirectory() as tmp:
        box.save(tmp)
        reading = recognize(data, reference=tmp)
    if not reading.ok:
        return None
    mine = {c for c in cells if c not in (None, "back")}
    known = [c for c, d in zip(reading.cells, reading.doubtful)
             if not d and c not in (None, "back") and c not in mine]
    if len(known) >= tuning.WRONG_LAYOUT_CELLS:
        return (f"This photo shows tiles already learned from another layout ({len(known)} of them). "
                "Check that the tiles lie as this layout of the plan shows, and take its photo again.")
    return None


# --- the whole lesson ----------------------------------------------------------------------

def learn(data: bytes, grid: dict, box: Box | None = None) -> Lesson:
    """Learn how the tiles of ``grid`` look from a photo of them laid out so (first row at the
    top of the upright photo). Returns the box with them added; on any problem the Lesson says
    why and ``box`` is unchanged."""
    box = box or Box()
    problem = check_grid(grid)
    if problem:
        return Lesson(ok=False, box=box, error=problem)
    cells = _cells_of(grid)
    try:
        img, _ = decode(data, min_side=tuning.LEARN_MIN_SIDE_PX)
    except UnusableImage as exc:
        return Lesson(ok=False, box=box, error=str(exc))
    layout = find_layout(img)
    if layout is None:
        return Lesson(ok=False, box=box, error=NO_LAYOUT)
    tiles = cut_tiles(img, layout)
    problem = check_layout(cells, box, data)
    if problem:
        return Lesson(ok=False, box=box, error=problem)
    samples = []
    for p, (name, tile) in enumerate(zip(cells, tiles)):
        if name is None:
            continue
        ok, png = cv2.imencode(".png", tile)
        samples.append(Sample(name, p, png.tobytes()))
    return Lesson(ok=True, box=box.add(samples), learned=tuple(samples), cells=tuple(cells))
