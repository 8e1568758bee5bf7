"""Teach the reader a box from photos of known layouts (SPEC §2 "Teaching the app a real box").

``learn(photo: bytes, grid: dict, box: Box, corners=None) -> Lesson`` never raises for a bad photo
(or bad corners): the Lesson says ``ok=False`` with a message for a person, and the box is left as
it was. ``corners``: the layout's four outer corners as the teacher showed them (in any order:
``in_order`` sorts them round from the top-left; in the upright photo's pixels), for a photo
whose layout is not found (step 2 is then ``layout_from_corners``); ``corners_problem`` says what
is wrong with such corners before any learning.
``learn_from_scan(photo, cells, positions, box) -> Lesson``: a scan the player checked teaches
the tiles at ``positions`` as they look in it ("remember these tiles"); same promise.

Stages — the reader's own (``vision/stages.py``), so a tile is cut the same way when it is
learned and when it is read:
1. ``decode_photo``: the photo upright (EXIF applied), reduced for speed.
2. ``find_layout``: where the 16 tiles lie, without knowing the art: the reader's candidate
   outlines, each nudged (corners and the whole outline) until the lattice's rows and columns
   lie on edges across them (a teaching photo is upright, so the layout is nearly level); the
   lines must carry straight edges, no cell but a couple may look like the table, the lattice
   must be a whole layout (square, the table round it), not one on part of a layout, and look
   photographed from above; a lattice a cell off onto a busy table is moved back onto the layout.
3. ``cut_tiles``: each tile, ``SAMPLE_PX`` square, as it lies: the lattice moved onto the gaps
   between the tiles, then each tile's own square near where its gaps put it.
4. ``check_layout``: the photo must show the layout asked for: tiles already learned from
   another layout must not be read in it (read with the reader's stages); a layout found must lie
   where the tiles already learned put it (``off_layout``: its squares fit their stacks' looks, and
   the reading does not find the tiles half a cell or more away). Else its corners are asked for.
5. ``blank_faces``: every face cut must carry a drawing; a plain square is the table, the layout
   found (or shown) off, and nothing is learned.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from scorer.i18n import N_, _

from . import tuning
from .box import SAMPLE_PX, Box, Sample
from .imageio import UnusableImage
from .layout import STACK_AT
from .stages import (Disc, Outline, Photo, at_find_side, cut_cells, decode_photo, find_layouts, frame_tiles,
                     frame_tiles_on_gaps, is_level, lattice_on_gaps, lattice_parts, layout_fits, layout_quads, line_straightnesses,
                     moved_in_lattice, on_gap_lines, fit_layout, one_thread, oriented_edges, planet_discs, quad_side,
                     rim_strengths, shortest_side, straighten_layout, straightest_lattices)

_UNIT = np.float32([[0, 0], [4, 0], [4, 4], [0, 4]])   # a layout's 4×4 lattice, a cell a unit
NOT_AGAIN = N_("I could not find the planet in this photo again, so nothing was remembered.")
NOT_THIS_PLANET = N_("Only %(n)d of the 16 tiles in this photo look like the planet as you checked "
                     "it, so nothing was remembered. Remember tiles only from the photo they were read from.")
CORNERS_OUTSIDE = N_("A corner you marked lies outside the photo. Tap on the photo itself.")
CORNERS_ORDER = N_("These four corners do not make a square's outline. Tap the four outer corners "
                   "of the layout, in any order.")
CORNERS_SMALL = N_("These corners are too close together for 16 tiles. Tap the outer corners of the "
                   "whole layout, not of one tile.")
NO_LAYOUT = N_("I could not find 16 tiles laid in a 4×4 square in this photo. Lay them as the plan "
             "shows, take the photo from straight above with the first row at the top, and try again.")
BLANK_FOUND = N_("I found a 4×4 square in this photo, but %(n)d of its squares show no tile's drawing: "
                "it is not where the tiles lie. Show me the layout's four corners.")
OFF_FOUND = N_("I found a 4×4 square in this photo, but its squares do not look like the tiles I have learned "
               "so far: it is not where the tiles lie. Show me the layout's four corners.")
BLANK_TAPPED = N_("%(n)d of the squares inside these corners show no tile's drawing. Put each corner on "
                  "an outer corner of the layout and try again.")


@dataclass(frozen=True)
class Lesson:
    ok: bool
    box: Box | None = None
    error: str | None = None
    learned: tuple = ()           # the samples learned from this photo, by position
    kept: tuple = ()              # … not learned: the box's picture of the tile is sharper (a scan's)
    cells: tuple = field(default_factory=tuple)  # the grid's 16 names, in position order
    not_found: bool = False       # refused because no layout was found (its corners may be shown)


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


# --- 2. find the layout (the reader's own stages) -----------------------------------------

def find_layout(photo: Photo, backs: bool = False) -> Outline | None:
    """The layout's outline: the best-fitting upright candidate (``stages.find_layouts``: every
    line of its lattice on tiles' borders) whose lines carry straight edges (the tiles' borders,
    not a face's or a table's: ``layout_straightness``) and whose cells are off the table (all
    but a few, ``_few_on_table``: a sky like the table in a corner tile; ``_off_table``: unlike the
    table by colour, or busier than the table beside the outline), and that is a whole layout,
    not a lattice on part of one (``_part_of_layout``: square, the table round it), and that could
    be photographed from above (``_from_above``: opposite sides nearly equal, corners nearly
    square). When none is, the candidates straightened (``_straightened_layout``); when none is
    either, the candidates made square (``_squared_layout``); then squares about the photo's round
    discs (``_disc_layout``); then, for a layout of ``backs`` (the plan's face-down layout), the
    photo's straightest square lattices (``_backs_layout``). The one found is taken as the masks'
    own outline of the layout when that one's lines are straighter and it lies apart from the one
    found (``_unfitted_layout``: the fit drifted off the layout), then moved a cell at a time while
    the lattice moved so lies on the layout better (``_moved_onto_layout``), then its sides are
    moved onto the layout's (``_sides_onto_layout``)."""
    table = _not_table(photo.image)
    quads = layout_quads(photo)   # the masks' outlines, made once for every look at them
    edges, layouts = oriented_edges(photo.image), find_layouts(photo, quads=quads)   # fitted once, for both looks
    refused: list[Outline] = []
    found = _first_layout(table, edges, layouts, refused=refused)
    if found is None:
        found = _straightened_layout(table, edges, layouts, quads) if tuning.STRAIGHTEN else None
        if found is None and tuning.LEARN_SQUARED:
            found = _squared_layout(photo, table, edges, layouts, quads)
        if found is None and tuning.LEARN_DISCS:
            found = _disc_layout(photo, table, edges)
        if found is None and backs and tuning.LEARN_BACKS:
            found = _backs_layout(photo, table, edges)
    elif tuning.LIGHT_EDGES:
        found = _second_opinion(photo, table, found, quads, sure=not refused)
    if found is not None and tuning.LEARN_UNFITTED:
        found = _unfitted_layout(table, edges, found, quads)
    if found is not None and tuning.LEARN_MOVED:
        found = _moved_onto_layout(table, edges, found)
    if found is not None and tuning.LEARN_SIDES:
        found = _sides_onto_layout(table, edges, found)
    return found


def _unfitted_layout(table: np.ndarray, edges: tuple, found: Outline, quads: list) -> Outline:
    """``found``, or the masks' own outline of the layout as it lies (``quads``: ``layout_quads``, not
    fitted) when that one's lines are straighter (``layout_straightness`` more than
    ``LEARN_MOVED_GAIN`` times) and it lies more than ``UNFITTED_APART`` of a cell from ``found``:
    on art and tables full of short straight lines (variant P's carved lino and moquette, its
    shaken camera's doubled edges) the fit climbs from a mask's outline 0.1-0.25 of a cell off onto
    a lattice 0.4-1.7 off, whose lines are less straight. The outline taken passes every bar a
    layout found passes (``_shaped_like_a_layout``, not ``_part_of_layout``)."""
    if not quads:
        return found
    straight = np.median(line_straightnesses(edges, np.stack([found.corners] + quads)), axis=1)
    cell = quad_side(found.corners) / 4
    for k in np.argsort(-straight[1:], kind="stable"):
        q = quads[k]
        if straight[k + 1] <= tuning.LEARN_MOVED_GAIN * straight[0]:
            break
        apart = float(np.linalg.norm(q - found.corners, axis=1).max()) / cell
        if (apart > tuning.UNFITTED_APART
                and _shaped_like_a_layout(table, edges, q, tuning.LEARN_STRAIGHT)
                and not (tuning.LEARN_WHOLE and _part_of_layout(table, edges, q))):
            return Outline(q.astype(np.float32), float(layout_fits(edges, q[None], tuning.LAYOUT_WEAKEST)[0]))
    return found


_AWAY = ((0, -1), (1, 0), (0, 1), (-1, 0))   # a cell up, right, down, left


def _moved_lattices(quad: np.ndarray) -> list[np.ndarray]:
    """``quad``'s lattice moved a cell each way of ``_AWAY``, in its own perspective
    (``stages.moved_in_lattice``)."""
    return [moved_in_lattice(quad, across, down) for across, down in _AWAY]


def _moved_onto_layout(table: np.ndarray, edges: tuple, found: Outline) -> Outline:
    """``found`` moved a cell at a time (up to ``LEARN_MOVES`` cells) while the lattice moved a
    cell one way lies on the layout better: a lattice a column off the layout onto a busy table
    (shapes and lines of its own) has three columns' lines on the tiles' borders, and its outer
    line on the table, so it passes the straightness and table tests. Moved back onto the
    layout, its lines are straighter (``layout_straightness`` more than ``LEARN_MOVED_GAIN``
    times), its weakest line no weaker, its cells off the table and it is not a lattice on part
    of a layout (``_part_of_layout``). A lattice on the layout moved a cell has that cell's band
    on the table, or is part of a layout. The one moved is fitted again (``fit_layout``)."""
    quad = found.corners.astype(np.float32)
    moves = 0
    for _step in range(tuning.LEARN_MOVES):
        moved = _moved_lattices(quad)
        lines = line_straightnesses(edges, np.stack([quad] + moved))
        straight, weakest = np.median(lines, axis=1), lines.min(axis=1)
        better = [k for k in np.argsort(-straight[1:])
                  if straight[k + 1] > tuning.LEARN_MOVED_GAIN * straight[0] and weakest[k + 1] >= weakest[0]
                  and _off_table(table, edges, moved[k]) and not _part_of_layout(table, edges, moved[k])]
        if not better:
            break
        quad, moves = moved[better[0]], moves + 1
    return fit_layout(edges, quad) if moves else found


def _sides_onto_layout(table: np.ndarray, edges: tuple, found: Outline) -> Outline:
    """``found`` with its sides moved onto the layout's: a fitted lattice may have one side part of
    a cell beyond the layout, on the table, and the others on it (fresh set f9143G's t01: its top
    0.6 of a cell above the layout's, its bottom corners on it; fitting moves one corner a step at a
    time, and every small step of that side makes the lines between worse before better). The top
    and bottom sides are moved together over every pair of offsets up to ``LEARN_SIDES_REACH`` of a
    cell (``LEARN_SIDES_STEP`` apart), then the left and right sides the same (``LEARN_SIDES_PASSES``
    times each), each time to the pair whose lattice's lines are straightest (their median,
    ``stages.line_straightnesses``) with its weakest line no weaker: a lattice of half cells on a
    layout has some lines straighter, and others in the tiles' middles. The lattice so moved is
    taken when its lines are ``LEARN_SIDES_GAIN`` times straighter than ``found``'s, a corner has
    moved ``LEARN_SIDES_LEAST`` of a cell or more (a layout found a little off is taught right, each
    tile cut where it lies, and the straightest lattice near it is no nearer the truth), and it
    passes the bars a found layout passes (``_first_layout``); it is not fitted again (fitting moves
    it back towards where it was)."""
    quad = found.corners.astype(np.float32)
    lines = line_straightnesses(edges, quad[None])[0]
    first = straight = float(np.median(lines))
    weakest = float(lines.min())
    reach, step = tuning.LEARN_SIDES_REACH, tuning.LEARN_SIDES_STEP
    offsets = np.linspace(-reach, reach, int(round(2 * reach / step)) + 1, dtype=np.float32)
    one, other = (a.ravel() for a in np.meshgrid(offsets, offsets, indexing="ij"))
    zero = np.zeros_like(one)
    for _pass in range(tuning.LEARN_SIDES_PASSES):
        for boxes in (np.stack([zero, one, 4 + zero, 4 + other], 1), np.stack([one, zero, 4 + other, 4 + zero], 1)):
            quads = lattice_parts(quad, boxes)
            each = line_straightnesses(edges, quads)
            medians = np.where(each.min(axis=1) >= weakest, np.median(each, axis=1), -1.0)
            k = int(np.argmax(medians))
            if medians[k] > straight:
                quad, straight, weakest = quads[k], float(medians[k]), float(each[k].min())
    moved_by = float(np.linalg.norm(quad - found.corners, axis=1).max()) / (quad_side(found.corners) / 4)
    if not straight > tuning.LEARN_SIDES_GAIN * first or moved_by < tuning.LEARN_SIDES_LEAST:
        return found
    moved = Outline(quad, float(layout_fits(edges, quad[None], tuning.LAYOUT_WEAKEST)[0]))
    return moved if _first_layout(table, edges, [moved]) is not None else found


def _first_layout(table: np.ndarray, edges: tuple, layouts: list[Outline], image: np.ndarray | None = None,
                  refused: list | None = None) -> Outline | None:
    """The first of ``layouts`` (fitted, best first) off the table whose lines are straight
    (``image``: the photo, whose table beside each outline is then looked at too: ``_off_table``)
    and that is not a lattice on part of a layout (``_part_of_layout``; ``refused``: a list to
    which those passed over as such are added)."""
    for outline in layouts:
        if _shaped_like_a_layout(table, edges, outline.corners, tuning.LEARN_STRAIGHT, image):
            if not (tuning.LEARN_WHOLE and _part_of_layout(table, edges, outline.corners)):
                return outline
            if refused is not None:
                refused.append(outline)
    return None


def _shaped_like_a_layout(table: np.ndarray, edges: tuple, quad: np.ndarray, straight: float,
                          image: np.ndarray | None = None, on_table: bool = True,
                          both_ways: float | None = None) -> bool:
    """Does ``quad`` pass the bars every layout found passes, fitted or straightened: large enough
    (``_large_enough``), its lines straight (their median, ``layout_straightness``, at least
    ``straight``) and straight each way (``_straight_both_ways``, at least ``both_ways`` when
    given), photographed from above (``_from_above``), not a lattice of half tiles (``_not_halves``)
    and off the table (``_off_table``, ``image`` as there; not asked unless ``on_table``)? Whether
    it is a lattice on part of a layout is the caller's to ask (``_part_of_layout``)."""
    if not _large_enough(table.shape, quad):
        return False
    lines = line_straightnesses(edges, quad[None])[0]
    return (float(np.median(lines)) >= straight and _straight_both_ways(lines, both_ways) and _from_above(quad)
            and _not_halves(lines) and (not on_table or _off_table(table, edges, quad, image)))


def _large_enough(shape: tuple, quad: np.ndarray) -> bool:
    """Is every side of ``quad`` at least ``LEARN_MIN_SIDE`` of the short side of a photo of
    ``shape``? A teaching photo shows its layout large (the generator's: every side 0.46-0.84 of
    the short side); a lattice on a card and a table's grain in a photo of no planet is small
    (fresh seed 159's n01: 0.18)."""
    return shortest_side(quad) >= tuning.LEARN_MIN_SIDE * min(shape[:2])


def _straight_both_ways(lines: np.ndarray, bar: float | None = None) -> bool:
    """Do a lattice's rows and its columns each carry straight edges (``lines``: its ten lines'
    straightness, ``stages.line_straightnesses``; the median of the five each way at least
    ``bar``, ``LEARN_BOTH_WAYS`` unless given)? A layout's tiles have borders across
    and down; a table's grain or stripes are straight one way only, and a lattice on them can
    reach ``LEARN_STRAIGHT`` on its rows alone (fresh set f9043G's n04, a photo of no planet:
    rows 2.1-4.6, columns 0.19-0.68)."""
    return min(float(np.median(lines[:5])), float(np.median(lines[5:]))) >= (tuning.LEARN_BOTH_WAYS if bar is None else bar)


def _not_halves(lines: np.ndarray) -> bool:
    """Is a lattice (``lines``: its ten lines' straightness, rows then columns) not one of half
    tiles on part of the layout? Such a lattice has every other line on the tiles' borders and
    the lines between across the tiles' middles, both ways: either its middle line on a border and
    the two either side of it under ``LEARN_HALVES`` of it, or those two on borders and the middle
    and outer lines all under ``LEARN_HALVES`` of the weaker of them. A layout's inner lines are
    all borders. Measured (``/work/notes/s56/lines_stats.py``): of the 459 layouts found right in
    the 474 teaching photos of dev sets 9301-9368, 9380-9383, 9401-9412 and 9421-9450, the least
    of the two ratios, the greater way, is 0.375; set 9361's t04, a lattice of half tiles on the
    layout's bottom-right quarter, 0.15 (the first form both ways), and set 9426's t01, on its top
    middle, 0.13 (the first form across its rows, the second down its columns); each was taught
    2.4-2.7 cells off."""
    if not tuning.LEARN_HALVES:
        return True

    def halved(way: np.ndarray) -> bool:
        middle_on_border = max(way[1], way[3]) / max(1e-6, float(way[2]))
        middle_off_border = max(way[0], way[2], way[4]) / max(1e-6, float(min(way[1], way[3])))
        return min(middle_on_border, middle_off_border) < tuning.LEARN_HALVES
    return not (halved(lines[:5]) and halved(lines[5:]))


def _sides(quad: np.ndarray) -> tuple[float, float]:
    """An outline's mean width (top and bottom sides) and mean height (left and right)."""
    q = quad.astype(np.float32)
    w = (np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2
    h = (np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2
    return float(w), float(h)


def _from_above(quad: np.ndarray) -> bool:
    """Could ``quad`` be a layout photographed from above, as the teaching page asks? Its
    opposite sides are then nearly as long as each other (under ``LEARN_KEYSTONE`` times) and its
    corners nearly square (within ``LEARN_SKEW`` degrees). A lattice fitted across a busy table's
    shapes, its far side on the table, or sheared across the art, is not. A photo taken more
    obliquely is still taught from its corners (``layout_from_corners``)."""
    if not tuning.LEARN_FROM_ABOVE:
        return True
    q = quad.astype(np.float32)
    along = [q[(i + 1) % 4] - q[i] for i in range(4)]    # each side, from its corner to the next
    sides = [float(np.linalg.norm(v)) for v in along]
    if any(max(a, b) >= tuning.LEARN_KEYSTONE * min(a, b) for a, b in ((sides[0], sides[2]), (sides[1], sides[3]))):
        return False
    for i in range(4):   # the corner between side i-1 (reversed) and side i
        cos = float(np.dot(-along[i - 1], along[i])) / max(1e-6, sides[i - 1] * sides[i])
        if abs(np.degrees(np.arccos(np.clip(cos, -1.0, 1.0))) - 90.0) > tuning.LEARN_SKEW:
            return False
    return True


def _aspect(quad: np.ndarray) -> float:
    """An outline's mean sides' ratio, long to short (1: square)."""
    w, h = _sides(quad)
    return max(w, h) / max(1e-6, min(w, h))


def _part_of_layout(table: np.ndarray, edges: tuple, quad: np.ndarray) -> bool:
    """Is the lattice of ``quad`` a smaller one on a layout's tiles, not the layout? Fitting moves
    a candidate's corners one by one, and a lattice of half-tiles, every other line on the tiles'
    borders and the others on the art, can fit (under a lamp's fall-off, when the whole layout's
    dim side carries weak borders). Such a lattice has all its cells on tiles, so the table tests
    pass it. But a layout is square (``LEARN_SQUARE_ASPECT``: more than a tilt gives), and it has
    the table all round it: beyond each side of it, the band of cells of the lattice shifted a
    cell that way is on the table. A lattice inside a layout has, beyond a side, a band of cells
    off the table (``LEARN_BEYOND_CELLS`` of its 4, by colour and texture: ``_not_table``) whose
    lattice's lines go on straight across it (the tiles' borders: ``_band_straightness`` at least
    ``LEARN_STRAIGHT``, the layout's own bar)."""
    if _aspect(quad) >= tuning.LEARN_SQUARE_ASPECT:
        return True
    H = cv2.getPerspectiveTransform(_UNIT, quad.astype(np.float32))
    cover = (table > 0).astype(np.float32)
    for (dx, dy), shifted in zip(_AWAY, _moved_lattices(quad)):
        parts = _cell_means(cover, shifted).reshape(4, 4)
        band = parts[{(0, -1): (0, slice(None)), (1, 0): (slice(None), 3),
                      (0, 1): (3, slice(None)), (-1, 0): (slice(None), 0)}[(dx, dy)]]
        if (int((band >= tuning.LEARN_COVERED).sum()) >= tuning.LEARN_BEYOND_CELLS
                and _band_straightness(edges, H, dx, dy) >= tuning.LEARN_STRAIGHT):
            return True
    return False


def _band_straightness(edges: tuple, H: np.ndarray, dx: int, dy: int) -> float:
    """``stages.layout_straightness`` of the lattice's five lines that cross the band one cell
    beyond the side of it (``dx``, ``dy``: the way out of the side; ``H`` maps the lattice's
    0-4 square onto the photo) carried on into that band (from 0.15 to 0.85 of a cell out)."""
    gx, gy, _ = edges
    t = np.linspace(0.15, 0.85, 15, dtype=np.float32)
    out = (4 + t) if dx + dy > 0 else -t
    k = np.arange(5, dtype=np.float32)
    if dx:      # left or right: the rows' lines, across them dy
        pts = np.stack(np.broadcast_arrays(out[None, :], k[:, None]), axis=-1)
        across, along = gy, gx
    else:
        pts = np.stack(np.broadcast_arrays(k[:, None], out[None, :]), axis=-1)
        across, along = gx, gy
    xy = cv2.perspectiveTransform(pts.reshape(1, -1, 2).astype(np.float32), H.astype(np.float32))[0]
    mx, my = xy[:, 0].reshape(1, -1).astype(np.float32), xy[:, 1].reshape(1, -1).astype(np.float32)

    def at(img: np.ndarray) -> np.ndarray:
        return cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0).reshape(5, -1)
    return float(np.median(np.median(at(across), axis=1) / (np.median(at(along), axis=1) + 1.0)))


def _squared_layout(photo: Photo, table: np.ndarray, edges: tuple, layouts: list[Outline], quads: list) -> Outline | None:
    """When neither a fitted nor a straightened candidate is found. A layout is square, so a
    candidate that is not (``_squared``) is part of one, a row or column of its tiles left with the
    table by the masks (box2-heldout7's t01: tiles as busy and, in the lamp's fall-off, as dark as
    its wood grain; the masks' best outline 3 columns of 4 wide, every fitted candidate 1-4 cells
    off). Such candidates made square and fitted (``fit_layout``) are ranked with the fitted ones,
    and the first whose lines are straight (``LEARN_STRAIGHT``) and whose cells are off the table
    is taken; a cell is off the table here also when it is unlike the table beside the outline
    (``_off_table(image=)``, ``_unlike_beside``), not only the photo's border."""
    squared = [fit_layout(edges, s) for q in quads for s in _squared(q)]
    return _first_layout(table, edges, sorted(list(layouts) + squared, key=lambda o: -o.fit), photo.image)


def _squared(quad: np.ndarray) -> list[np.ndarray]:
    """An upright outline whose mean sides' ratio is ``LEARN_SQUARE_ASPECT`` or more, made square:
    its short sides lengthened to its long sides' mean, from either end (in its own perspective:
    the unit square mapped onto it, stretched); none for an outline nearly square."""
    q = quad.astype(np.float32)
    w, h = _sides(q)
    r = _aspect(q)
    if r < tuning.LEARN_SQUARE_ASPECT:
        return []
    H = cv2.getPerspectiveTransform(np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]), q)
    boxes = ([(0, 0, r, 1), (1 - r, 0, 1, 1)] if w < h else [(0, 0, 1, r), (0, 1 - r, 1, 1)])
    return [cv2.perspectiveTransform(np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])[None], H)[0]
            for x0, y0, x1, y1 in boxes]


def _disc_layout(photo: Photo, table: np.ndarray, edges: tuple) -> Outline | None:
    """When no candidate of the masks is found, fitted, straightened or squared: the squares
    about the photo's round discs (``stages.planet_discs``, the grown look's), those level
    (``is_level``, as every teaching candidate) fitted (``fit_layout``), best first. The first that
    passes the bars a squared candidate passes (``_first_layout`` with the photo) is taken; failing
    that, the first that passes them all but the table's (``_shaped_like_a_layout``, not
    ``_part_of_layout``), its lines straight both ways at ``LEARN_DISC_STRAIGHT`` in place of
    ``LEARN_STRAIGHT`` (in the same dim light the tiles' borders are faint), lies about its disc
    (``_about_its_disc``) and whose disc has an edge all round it (``stages.rim_strength`` at least
    ``LEARN_DISC_RIM``: a circle found in a table's grain has not). Under a dim lamp, pink-skied
    corner tiles on orange wood (variant H), the masks hold the planet's blue disc or part of the
    planet, and no candidate lies within a cell of the layout; the disc's square, fitted, lies
    0.06-0.19 of a cell off it (dev sets 9362's t01, 9364's t03, 9401-9412). Its corner tiles and
    the tiles in the lamp's shadow look like the table (3-11 cells of 16, the true layout's as
    many), so the table's test refuses it; a round disc the size of a planet with the layout's
    straight lattice about it, concentric, is evidence no table gives."""
    discs = planet_discs(photo.image)
    fitted = sorted(((fit_layout(edges, q), k) for k, disc in enumerate(discs)
                     for q in disc.squares if is_level(q)), key=lambda ok: -ok[0].fit)
    found = _first_layout(table, edges, [o for o, _k in fitted], photo.image)
    if found is not None or not tuning.LEARN_DISC_ROUND:
        return found
    rims: list[float] = []   # every disc's rim, measured once, when first asked for
    for outline, k in fitted:
        if not _about_its_disc(outline.corners, discs[k]):
            continue
        rims = rims or rim_strengths(photo.image, discs)
        if (rims[k] >= tuning.LEARN_DISC_RIM
                and _shaped_like_a_layout(table, edges, outline.corners, tuning.LEARN_DISC_STRAIGHT, on_table=False,
                                          both_ways=tuning.LEARN_DISC_STRAIGHT)
                and not _part_of_layout(table, edges, outline.corners)):
            return outline
    return None


def _about_its_disc(quad: np.ndarray, disc: Disc) -> bool:
    """Does ``quad`` lie about ``disc`` as a planet about its own: its lattice's middle within
    ``LEARN_DISC_CENTRE`` of a cell of the disc's centre, and its mean side ``LEARN_DISC_SIDE`` of
    the disc's diameter? A lattice a cell off the layout has its middle a cell off the disc; one of
    3 or 5 cells a side, a side 3/4 or 5/4 of the layout's."""
    H = cv2.getPerspectiveTransform(_UNIT, quad.astype(np.float32))
    middle = cv2.perspectiveTransform(np.float32([[[2, 2]]]), H)[0, 0]
    side = float(np.mean(_sides(quad)))
    low, high = tuning.LEARN_DISC_SIDE
    return (float(np.linalg.norm(middle - (disc.x, disc.y))) <= tuning.LEARN_DISC_CENTRE * side / 4
            and low * 2 * disc.radius <= side <= high * 2 * disc.radius)


def _backs_layout(photo: Photo, table: np.ndarray, edges: tuple) -> Outline | None:
    """A face-down layout no other look found: dark backs on a dark table look like it by colour
    and texture, so the masks hold no candidate near it, and the table's test refuses even the
    true layout. The photo's straightest square lattices (``stages.straightest_lattices``), each
    as found, straightened (``straighten_layout``) and fitted (``fit_layout``), are weighed; a
    lattice that passes every bar a layout passes but the table's (``_shaped_like_a_layout``, not
    ``_part_of_layout``), has its lines on the tiles' borders (``_lines_on_borders``) and whose
    backs are apart from the table (``_backs_apart``, at least ``LEARN_BACKS_APART``) may be the
    layout, and the one most apart is taken. A lattice a cell off the layout has a band of backs
    beyond one side, and a band of the table inside it; a lattice on a table, a page or a floor
    has the same beyond it as in it."""
    best: tuple[float, np.ndarray] | None = None
    for quad in straightest_lattices(photo.image):
        for tried in (quad, straighten_layout(edges, quad)[0], fit_layout(edges, quad).corners):
            if not (_lines_on_borders(edges, tried)
                    and _shaped_like_a_layout(table, edges, tried, tuning.LEARN_STRAIGHT, on_table=False)
                    and not _part_of_layout(table, edges, tried)):
                continue
            apart = _backs_apart(photo.image, edges, tried)
            if apart >= tuning.LEARN_BACKS_APART and (best is None or apart > best[0]):
                best = (apart, tried)
    if best is None:
        return None
    return Outline(best[1], float(layout_fits(edges, best[1][None], tuning.LAYOUT_WEAKEST)[0]))


def _lines_on_borders(edges: tuple, quad: np.ndarray) -> bool:
    """Are ``quad``'s lattice's lines on the tiles' borders, both ways: its rows' lines
    ``LEARN_BACKS_BORDERS`` times straighter (the median of the five, ``line_straightnesses``)
    than those of the lattice moved half a cell down (across the tiles' middles), and its columns'
    than those of the lattice moved half a cell across? A table's planks or grain, or a page's
    lines of text, are as straight half a cell on, one way or both."""
    lines = line_straightnesses(edges, np.stack([quad, moved_in_lattice(quad, 0.0, 0.5), moved_in_lattice(quad, 0.5, 0.0)]))
    rows = float(np.median(lines[0, :5])) / max(1e-6, float(np.median(lines[1, :5])))
    cols = float(np.median(lines[0, 5:])) / max(1e-6, float(np.median(lines[2, 5:])))
    return min(rows, cols) >= tuning.LEARN_BACKS_BORDERS


_AROUND = 32   # pixels a cell, of the lattice and the band of cells about it, made straight (``_backs_apart``)


def _backs_apart(img: np.ndarray, edges: tuple, quad: np.ndarray) -> float:
    """How far apart from the table beyond each side ``quad``'s cells are, against how alike they
    are: each of the 16 cells and of the 16 beside them (a cell beyond each side, the corners left
    out) described by its middle's (0.15-0.85 of it) mean and spread of colour (Lab) and its mean
    edge strength (``edges``), each measure scaled by its spread over the 16 cells; the cells beyond
    each side are their median distance from the nearest of the 16, over the 16 cells' median
    distance from the nearest other one of them; the least of the four sides. A face-down layout's
    backs are alike (a few designs, one per stack), the table beyond unlike them all. Beyond a side
    that runs out of the photo there is nothing to weigh; a layout photographed whole has the table
    beyond ``LEARN_BACKS_SIDES`` of its sides at least (0 when fewer: a lattice in a corner of the
    photo, on the table's pattern)."""
    n = _AROUND
    around = lattice_parts(quad, np.float32([[-1, -1, 5, 5]]))[0]   # the lattice and a cell all round it
    H = cv2.getPerspectiveTransform(np.float32([[0, 0], [6 * n, 0], [6 * n, 6 * n], [0, 6 * n]]), around.astype(np.float32))
    size = (6 * n, 6 * n)
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP

    def straight(values: np.ndarray) -> np.ndarray:
        return cv2.warpPerspective(values, H, size, flags=flags, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    lab = straight(cv2.cvtColor(img, cv2.COLOR_BGR2LAB)).astype(np.float32)
    mag = straight(edges[2])
    inside = straight(np.ones(img.shape[:2], np.uint8)) > 0
    lo, hi = int(0.15 * n), int(0.85 * n)
    cells: dict[tuple[int, int], np.ndarray | None] = {}
    for r in range(-1, 5):
        for c in range(-1, 5):
            ys, xs = slice((r + 1) * n + lo, (r + 1) * n + hi), slice((c + 1) * n + lo, (c + 1) * n + hi)
            seen = inside[ys, xs]
            if seen.mean() < 0.5:
                cells[(r, c)] = None
                continue
            colour = lab[ys, xs][seen]
            cells[(r, c)] = np.concatenate([colour.mean(0), colour.std(0), [float(mag[ys, xs][seen].mean())]])
    inner = [cells[(r, c)] for r in range(4) for c in range(4)]
    if any(v is None for v in inner):   # a cell out of the photo: the page asks for the whole layout in it
        return 0.0
    tiles = np.array(inner)
    spread = tiles.std(axis=0) + tuning.LEARN_BACKS_SPREAD
    scaled = tiles / spread
    apart = np.linalg.norm(scaled[:, None] - scaled[None], axis=2)
    np.fill_diagonal(apart, np.inf)
    alike = max(1e-6, float(np.median(apart.min(axis=1))))
    sides = []
    for band in ([(-1, c) for c in range(4)], [(4, c) for c in range(4)],
                 [(r, -1) for r in range(4)], [(r, 4) for r in range(4)]):
        beyond = [float(np.linalg.norm(scaled - cells[rc] / spread, axis=1).min()) for rc in band if cells[rc] is not None]
        if len(beyond) >= 2:
            sides.append(float(np.median(beyond)) / alike)
    return min(sides) if sides and len(sides) >= tuning.LEARN_BACKS_SIDES else 0.0


def _straightened_layout(table: np.ndarray, edges: tuple, layouts: list[Outline], quads: list) -> Outline | None:
    """When no fitted candidate has straight lines: each candidate outline, as found and as
    fitted, moved until its lines are straightest (``stages.straighten_layout``: on art full of
    edges along the rows, box2-heldout14's waves, every fitted lattice lay 0.3-1 cell off, on the
    art), the straightest off the table. Straightening raises any outline's straightness, a
    no-planet photo's too, so it must reach ``STRAIGHTENED_MIN``, not ``LEARN_STRAIGHT``."""
    starts = list(quads) + [o.corners for o in layouts]
    best: tuple[np.ndarray, float] | None = None
    for q in starts:
        quad, straight = straighten_layout(edges, q)
        if ((best is None or straight > best[1]) and _shaped_like_a_layout(table, edges, quad, tuning.STRAIGHTENED_MIN)
                and not (tuning.LEARN_WHOLE and _part_of_layout(table, edges, quad))):
            best = (quad, straight)
    if best is None:
        return None
    return Outline(best[0], float(layout_fits(edges, best[0][None], tuning.LAYOUT_WEAKEST)[0]))


def _second_opinion(photo: Photo, table: np.ndarray, found: Outline, quads: list, sure: bool = True) -> Outline:
    """The layout found again on edges with the light taken out (``stages.light_free``: under a
    lamp falling off to one side the tiles' borders in the dim part are weak, and a lattice a
    whole cell off can fit the bright part better: heldout4's t04). When the two lie more than
    ``LAYOUT_AGREE`` of a cell apart, the one whose weakest lines carry more edges on the
    light-free edges is taken; otherwise the first (the seen sets' layouts agreed within 0.25
    when it was set, up to 0.51 since).
    Not ``sure``: a better-fitting lattice on part of the layout was passed over for ``found``
    (``_part_of_layout``: the sign of that lamp, heldout4's t04 again), so the one whose weakest
    lines carry more edges on the light-free edges is taken however near the two lie."""
    edges = oriented_edges(photo.image, light=True)
    other = _first_layout(table, edges, find_layouts(photo, light=True, quads=quads))
    if other is None:
        return found
    cell = quad_side(found.corners) / 4
    if sure and float(np.linalg.norm(found.corners - other.corners, axis=1).max()) / cell <= tuning.LAYOUT_AGREE:
        return found
    fits = layout_fits(edges, np.stack([found.corners, other.corners]), tuning.LAYOUT_WEAKEST)
    return other if fits[1] > fits[0] else found


def _not_table(img: np.ndarray) -> np.ndarray:
    """Where the photo does not look like its border (the table), by local colour and texture."""
    from .outline import _texture_mask
    h, w = img.shape[:2]
    work, _f = at_find_side(img)
    lab = cv2.cvtColor(cv2.GaussianBlur(work, (0, 0), 2.0), cv2.COLOR_BGR2LAB)
    mask = _texture_mask(lab)[0]
    return cv2.resize(mask, (w, h), interpolation=cv2.INTER_NEAREST)


def _cell_means(values: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The mean of ``values`` over each cell's middle (0.2-0.8 of the cell) of ``quad``'s
    lattice, (16,) in position order."""
    H = cv2.getPerspectiveTransform(_UNIT, quad.astype(np.float32))
    parts = []
    for r in range(4):
        for c in range(4):
            pts = np.float32([[c + .2, r + .2], [c + .8, r + .2], [c + .8, r + .8], [c + .2, r + .8]])
            poly = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), H).reshape(-1, 2).astype(np.int32)
            m = np.zeros(values.shape[:2], np.uint8)
            cv2.fillConvexPoly(m, poly, 1)
            parts.append(float(values[m > 0].mean(dtype=np.float64)) if m.any() else 0.0)
    return np.array(parts)


def _off_table(mask: np.ndarray, edges: tuple, quad: np.ndarray, image: np.ndarray | None = None) -> bool:
    """Are the cells of ``quad`` off the table, all but a few (``_few_on_table``; which lie on
    it: ``_table_cells``)?"""
    return _few_on_table(_table_cells(mask, edges, quad, image))


_MIDDLE = np.isin(np.arange(16), (5, 6, 9, 10))   # the middle four cells, position order


def _few_on_table(on: np.ndarray) -> bool:
    """Do few enough of a lattice's cells (``on``: (16,) bool, position order) lie on the table
    for it to be a layout? At most ``LEARN_TABLE_CELLS`` in all; with ``LEARN_MIDDLE_APART``, at
    most that many of the outer twelve and that many of the middle four, counted apart: a lattice
    a cell off the layout has a whole outer row or column on the table, while a planet's middle
    may look like the table as its corner tiles' sky does (fresh seed 191's t02: two cells of the
    left column and one of the middle green like the green gingham)."""
    if not tuning.LEARN_MIDDLE_APART:
        return int(on.sum()) <= tuning.LEARN_TABLE_CELLS
    return (int((on & ~_MIDDLE).sum()) <= tuning.LEARN_TABLE_CELLS
            and int((on & _MIDDLE).sum()) <= tuning.LEARN_TABLE_CELLS)


def _table_cells(mask: np.ndarray, edges: tuple, quad: np.ndarray, image: np.ndarray | None = None) -> np.ndarray:
    """Which cells of ``quad`` lie on the table, (16,) bool in position order. A cell is off the
    table when at least ``LEARN_COVERED`` of its middle looks unlike the table (``_not_table``:
    colour and texture unlike the photo's border), or, failing that, when its middle carries more
    edges than the table beside the outline (``_busier_than_beside``): dark art on a dark table,
    under a lamp that leaves the photo's border as dim as the art, looks like the table by colour
    (box2-heldout7's t02, t03: 0.0-0.3 not table), but its pictures and borders carry edges a
    plain table does not. A lattice a cell off the layout has a row or column of cells on the
    table, and the table beside it takes in the tiles it left. ``image``: the photo, and failing
    both, a cell is off the table also when it is unlike the table beside the outline by colour
    and texture (``_unlike_beside``; only for the squared candidates, ``_squared_layout``). Each
    later look is taken only while too many cells lie on the table (``_few_on_table``)."""
    on = _cell_means((mask > 0).astype(np.float32), quad) < tuning.LEARN_COVERED
    if _few_on_table(on) or not tuning.LEARN_BUSY:
        return on
    busy = _busier_than_beside(edges[2], quad)
    if busy is None:
        return on
    on &= ~busy
    if not _few_on_table(on) and tuning.LEARN_BESIDE_LOOK and image is not None:
        unlike = _unlike_beside(image, quad)
        if unlike is not None:
            on &= ~unlike
    return on


def _unlike_beside(img: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """Which cells of ``quad`` are unlike the table beside the outline, by local colour and
    texture: ``_not_table``'s test (``outline.block_grid``, ``table_distance``, its looser bar
    ``table_bars``) with the blocks of the ring from ``BESIDE_RING[0]`` to ``BESIDE_RING[1]`` of a
    cell outside the outline for the table, not the photo's border: under a lamp's fall-off the
    border holds a table as dark as the dim tiles (box2-heldout7's t01: its right column 0.0-0.4
    not table against the border). A cell is unlike when ``LEARN_COVERED`` of its middle is. A
    lattice a cell off the layout has the tiles it left in its ring, so its tiles look like the
    table too. None when too little of the ring is in the photo (under a cell's area)."""
    from .outline import block_grid, table_bars, table_distance
    h, w = img.shape[:2]
    work, f = at_find_side(img)
    grid, step = block_grid(cv2.cvtColor(cv2.GaussianBlur(work, (0, 0), 2.0), cv2.COLOR_BGR2LAB))
    small = (quad * f).astype(np.float32)
    cell = quad_side(small) / 4
    ring = _ring(small, work.shape[:2])
    at = ring[step // 2::step, step // 2::step][:grid.shape[0], :grid.shape[1]] > 0
    if int(ring.sum()) < cell * cell or int(at.sum()) < 3:
        return None
    dist = table_distance(grid, grid[at])
    unlike = (dist > table_bars(float(np.percentile(dist[at], 90)))[0]).astype(np.float32)
    return _cell_means(cv2.resize(unlike, (w, h), interpolation=cv2.INTER_NEAREST), quad) >= tuning.LEARN_COVERED


def _ring(quad: np.ndarray, shape: tuple) -> np.ndarray:
    """The table beside the outline ``quad``: from ``BESIDE_RING[0]`` to ``BESIDE_RING[1]`` of a
    cell outside it, a 0/1 mask of ``shape``."""
    H = cv2.getPerspectiveTransform(_UNIT, quad.astype(np.float32))

    def outline(d: float) -> np.ndarray:
        pts = np.float32([[-d, -d], [4 + d, -d], [4 + d, 4 + d], [-d, 4 + d]])
        return cv2.perspectiveTransform(pts[None], H)[0].astype(np.int32)
    ring = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(ring, outline(tuning.BESIDE_RING[1]), 1)
    cv2.fillConvexPoly(ring, outline(tuning.BESIDE_RING[0]), 0)
    return ring


def _busier_than_beside(mag: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """Which cells of ``quad`` carry more edges (``mag``: the gradient's magnitude) in their
    middle than the table beside the outline does anywhere: the ring from ``BESIDE_RING[0]`` to
    ``BESIDE_RING[1]`` of a cell outside it, looked at in windows of ``BESIDE_WINDOW`` of a cell,
    at its ``BESIDE_QUANTILE`` percentile (a speck or two of the table left out). None when too
    little of that ring is in the photo to say (less than a cell's area)."""
    cell = quad_side(quad) / 4
    ring = _ring(quad, mag.shape)
    if int(ring.sum()) < cell * cell:
        return None
    win = max(3, int(tuning.BESIDE_WINDOW * cell)) | 1
    beside = float(np.percentile(cv2.blur(mag, (win, win))[ring > 0], tuning.BESIDE_QUANTILE))
    return _cell_means(mag, quad) > beside + tuning.BESIDE_FLOOR


# --- 2b. the layout where the teacher showed it ---------------------------------------------

def in_order(corners) -> np.ndarray:
    """Four corners tapped in any order, as the layout's top-left, top-right, bottom-right and
    bottom-left (the photo is upright): clockwise as seen round their mean, starting from the
    top-left-most (the least x + y). (4, 2) float64; raises ValueError unless 4 points."""
    q = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    c = q.mean(axis=0)
    q = q[np.argsort(np.arctan2(q[:, 1] - c[1], q[:, 0] - c[0]), kind="stable")]  # y down: clockwise
    return np.roll(q, -int(np.argmin(q.sum(axis=1))), axis=0)


def corners_problem(corners, width: float, height: float) -> str | None:
    """What is wrong with four corners given for a layout in a ``width``×``height`` photo, for a
    person (None: nothing): each inside the photo, in any order (``in_order`` puts them round),
    a convex outline turning at each corner (``CORNER_TURN``), each side at least ``MIN_PLANET`` of the photo's short side."""
    try:
        q = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    except (TypeError, ValueError):
        return _(CORNERS_ORDER)
    if not np.isfinite(q).all():
        return _(CORNERS_OUTSIDE)
    if (q[:, 0] < 0).any() or (q[:, 1] < 0).any() or (q[:, 0] > width).any() or (q[:, 1] > height).any():
        return _(CORNERS_OUTSIDE)
    q = in_order(q)
    sides = np.roll(q, -1, axis=0) - q
    turns = sides[:, 0] * np.roll(sides, -1, axis=0)[:, 1] - sides[:, 1] * np.roll(sides, -1, axis=0)[:, 0]
    lengths = np.linalg.norm(sides, axis=1) * np.linalg.norm(np.roll(sides, -1, axis=0), axis=1)
    # x right, y down: clockwise as seen turns positive; a corner on a straight line (a triangle) is none
    if (turns <= tuning.CORNER_TURN * lengths).any():
        return _(CORNERS_ORDER)
    if shortest_side(q) < tuning.MIN_PLANET * min(width, height):
        return _(CORNERS_SMALL)
    return None


def layout_from_corners(photo: Photo, quad: np.ndarray) -> Outline:
    """The layout's outline from corners a teacher tapped (``quad`` in ``photo.image`` pixels): the
    lattice inside them as it is; ``cut_tiles`` then finds each tile's own square in its cell
    (``frame_tiles``), which takes up a finger's error. Nudging the lattice onto edges first
    (``fit_layout``'s two finest steps, up to 0.3 of a cell) moved box2-heldout6's t06 a third of
    a cell onto the wrong edges: on 21 teaching photos of the seen sets, from their true corners
    jittered by ±1.5% of the side, the median tile's likeness to the tile cut from the true
    corners was no better with it (the figures: vision/README.md)."""
    quad = np.asarray(quad, np.float32).reshape(4, 2)
    return Outline(quad, float(layout_fits(oriented_edges(photo.image), quad[None], tuning.LAYOUT_WEAKEST)[0]))


# --- 3. cut the tiles ----------------------------------------------------------------------

def cut_tiles(photo: Photo, outline: Outline, turn: int = 0, backs: bool = False,
              sides: list | None = None) -> list[np.ndarray]:
    """Each tile as it lies (upright in the photo; a planet of upright art read turned:
    ``turn`` quarter turns), SAMPLE_PX square: the layout's lattice moved onto the gaps between
    its tiles (``stages.lattice_on_gaps``: one outline for 16 loose tiles cuts them a tenth of a
    cell off where the art is full of edges or the layout was found off), then each tile's own
    square looked for near where its own gaps put it (``frame_tiles_on_gaps``). When too few
    gaps agree: each cell the reader cuts, narrowed to the tile's own square (``frame_tiles``:
    loose tiles leave table in their cell; a square far off the layout's others looked for again
    near where they lie). ``GAP_LINES_TEACH``: the layout moved onto its gap lines
    (``stages.on_gap_lines``) where no lattice on the gaps is found (or always: ``GAP_LINES_ALWAYS``);
    with ``GAP_LINES_SCALE`` only when that changes its size by that part or more, and not for a
    layout of ``backs`` only (a box's backs photo). ``sides``, if given, receives each tile's square's
    side as a part of its cell (``Sample.frame``)."""
    if tuning.GAP_LINES_TEACH and tuning.GAP_LINES_ALWAYS:   # the layout first moved onto its gap lines
        outline = on_gap_lines(photo, outline, SAMPLE_PX) or outline
    if tuning.GAPS:
        on_gaps = lattice_on_gaps(photo, outline, SAMPLE_PX)
        if on_gaps is None and tuning.GAP_LINES_TEACH and not tuning.GAP_LINES_ALWAYS:
            moved = None if backs else on_gap_lines(photo, outline, SAMPLE_PX)
            if moved is not None and abs(quad_side(moved.corners) / quad_side(outline.corners) - 1) >= tuning.GAP_LINES_SCALE:
                outline = moved
                on_gaps = lattice_on_gaps(photo, outline, SAMPLE_PX)
        if on_gaps is not None:
            return frame_tiles_on_gaps(photo, outline, on_gaps, SAMPLE_PX, turn, sides)
    cells = cut_cells(photo, outline, turn=turn, size=SAMPLE_PX)
    return frame_tiles(cells.windows, SAMPLE_PX, sides)


# --- 4. is it the layout asked for? --------------------------------------------------------

def check_layout(cells: list, box: Box, photo: Photo, outline: Outline, found: bool = False) -> tuple[str, bool] | None:
    """Is it the layout asked for, where it was found? The photo read with the box as taught so far
    (the reader's stages): tiles the box already knows from another layout must not be read here
    (the photo of another layout, taken again by mistake). ``found``: a face-up layout was found,
    not shown by its corners; it must also lie where the tiles the box knows put it (``off_layout``).
    The problem: its message, and whether the layout's corners may be shown instead (``Lesson.not_found``)."""
    if not box.tiles():
        return None
    from .reader import confidence, exemplars_of, read_outline, tell_lookalikes
    ex = exemplars_of(box.references(), box.outward())
    v = tell_lookalikes(read_outline(photo, outline, ex), ex)
    mine = {c for c in cells if c not in (None, "back")}
    sure = (confidence(v, ex=ex, bar=tuning.LOOK_SURE) >= tuning.DOUBT) & (v.sims >= tuning.WRONG_LAYOUT_SIM)
    known = [ex.names[r] for r, s in zip(v.rows, sure) if s and ex.names[r] not in mine and ex.names[r] != "back"]
    if len(known) >= tuning.WRONG_LAYOUT_CELLS:
        return _("This photo shows tiles already learned from another layout (%(n)d of them). Check that the "
                 "tiles lie as this layout of the plan shows, and take its photo again.", n=len(known)), False
    if found and off_layout(v, outline, ex):
        return _(OFF_FOUND), True
    return None


def off_layout(v, outline: Outline, ex) -> bool:
    """A face-up layout found (``outline``) that the tiles the box knows say is not where the tiles
    lie (``v``: the photo read through it with the box as taught so far, ``ex``): its cells fit their
    stacks' looks poorly (their mean fit under ``LAYOUT_OFF_FIT``, once the box knows the faces of
    ``LAYOUT_OFF_FACES`` layouts or more), or the reading found the tiles ``LAYOUT_OFF_MOVED`` of a cell
    or more from it (the reading refits its outline through where the tiles were found)."""
    from .reader import moved_by
    faces = sum(n != "back" for n in ex.names)
    if faces >= 16 * tuning.LAYOUT_OFF_FACES and float(np.mean(v.fits)) < tuning.LAYOUT_OFF_FIT:
        return True
    return moved_by(outline, v.outline) >= tuning.LAYOUT_OFF_MOVED


# --- the whole lesson ----------------------------------------------------------------------

def learn(data: bytes, grid: dict, box: Box | None = None, corners=None) -> Lesson:
    """Learn how the tiles of ``grid`` look from a photo of them laid out so (first row at the
    top of the upright photo). Returns the box with them added; on any problem the Lesson says
    why and ``box`` is unchanged. ``corners``: where the layout's four outer corners are (in any
    order, ``in_order``; in the upright photo's pixels), shown by the teacher when the layout was
    not found."""
    box = box or Box()
    problem = check_grid(grid)
    if problem:
        return Lesson(ok=False, box=box, error=problem)
    cells = _cells_of(grid)
    try:
        photo = decode_photo(data, min_side=tuning.LEARN_SIDE)
    except UnusableImage as exc:
        return Lesson(ok=False, box=box, error=str(exc))
    if corners is not None:
        h, w = photo.image.shape[:2]
        problem = corners_problem(corners, w * photo.scale, h * photo.scale)
        if problem:
            return Lesson(ok=False, box=box, error=problem)
        quad = in_order(corners).astype(np.float32) / photo.scale
    with one_thread():
        return _learn_photo(photo, cells, box, None if corners is None else quad)


def learn_from_scan(data: bytes, cells: list, positions, box: Box) -> Lesson:
    """Learn the tiles at ``positions`` of a scan the player checked: ``cells`` are its 16
    names (tile ids, "back" or None) as confirmed, in the order the scan was read in. The photo
    is read again with ``box`` as the scan was; it must be the same planet (``SCAN_AGREE``
    cells agree, or, read poorly, no sure cell changed and the rest mostly among the likely
    tiles: ``_same_planet``). Each tile is cut, as a teaching photo's are, from a finer decode
    (``SCAN_SIDE``), where a reading of it found the tiles. The box is unchanged unless the
    Lesson is ok."""
    cells = list(cells)
    problem = check_grid({"cells": [cells[r * 4:r * 4 + 4] for r in range(4)]}) if len(cells) == 16 else "16"
    if problem or not box.samples:
        return Lesson(ok=False, box=box, error=_(NOT_AGAIN))
    try:
        photo = decode_photo(data)                               # as the scan was read
        fine = decode_photo(data, min_side=tuning.SCAN_SIDE)     # as the tiles are cut
    except UnusableImage as exc:
        return Lesson(ok=False, box=box, error=str(exc))
    from .reader import exemplars_of_box, is_planet, read_photo
    with one_thread():
        ex = exemplars_of_box(box)   # as the scan was read
        v = read_photo(photo, ex)
        if v is None or not is_planet(v, ex):
            return Lesson(ok=False, box=box, error=_(NOT_AGAIN))
        if not _same_planet(v, ex, cells):
            return Lesson(ok=False, box=box, error=_(NOT_THIS_PLANET, n=_agreeing(v, ex, cells)))
        # the tiles are cut where a reading of the finer decode found them (a tile cut a pixel or
        # two off its place is a worse picture of it: cut through the outline found in the scan's
        # decode, a remembered tile was then read in none of 6 other photos, 4 of 6 so), unless
        # that reading is of another planet than the one checked
        finer = read_photo(fine, ex)
        if finer is not None and finer.turn == v.turn and _same_planet(finer, ex, cells):
            outline = finer.outline
        else:
            outline = Outline((v.outline.corners * (photo.scale / fine.scale)).astype(np.float32), v.outline.fit)
        sides: list = []
        tiles = cut_tiles(fine, outline, v.turn, sides=sides)
    return _lesson(box, cells, tiles, positions, sides, sharper=tuning.REMEMBER_SHARPER)


def _agreeing(v, ex, cells: list) -> int:
    """How many cells of a reading show what the checked planet shows there."""
    from .reader import _content
    return sum(1 for q, r in enumerate(v.rows) if cells[q] is not None and ex.contents[r] == _content(cells[q]))


def _same_planet(v, ex, cells: list) -> bool:
    """Is the checked planet the one this reading read? It agrees on ``SCAN_AGREE`` cells, or,
    for a box the reader reads poorly, the player changed no cell the reading was sure of (not
    doubtful) and on all but ``SCAN_UNLIKELY`` cells put the tile read or one of the next
    likeliest (``Reading.likely``). An empty square changes nothing either way."""
    if _agreeing(v, ex, cells) >= tuning.SCAN_AGREE:
        return True
    from .reader import _content, _doubts, likely_of
    from .reading import LIKELY
    conf = _doubts(v, ex)[0]
    likely = likely_of(v, ex)
    unlikely = 0
    for q, r in enumerate(v.rows):
        if cells[q] is None:
            continue
        want = _content(cells[q])
        if ex.contents[r] == want:
            continue
        if conf[q] >= tuning.DOUBT:   # the reader was sure of another tile here
            return False
        unlikely += all(_content(t) != want for t in likely[q][:LIKELY])   # as measured: the first 4
    return unlikely <= tuning.SCAN_UNLIKELY


def _learn_photo(photo: Photo, cells: list, box: Box, quad: np.ndarray | None = None) -> Lesson:
    """The lesson of a decoded teaching photo: find the layout (or take it from the corners the
    teacher showed, ``quad``), check it, cut its tiles."""
    backs = all(c == "back" for c in cells)
    outline = find_layout(photo, backs) if quad is None else layout_from_corners(photo, quad)
    if outline is None:
        return Lesson(ok=False, box=box, error=_(NO_LAYOUT), not_found=True)
    problem = check_layout(cells, box, photo, outline, found=quad is None and not backs)
    if problem:
        return Lesson(ok=False, box=box, error=problem[0], not_found=problem[1])
    sides: list = []
    tiles = cut_tiles(photo, outline, backs=backs, sides=sides)
    blank = blank_faces(tiles, cells)
    if blank:   # a square of the table cut as a tile: the layout was found (or shown) off
        if quad is None:
            return Lesson(ok=False, box=box, error=_(BLANK_FOUND, n=len(blank)), not_found=True)
        return Lesson(ok=False, box=box, error=_(BLANK_TAPPED, n=len(blank)))
    return _lesson(box, cells, tiles, range(16), sides)


def fine_detail(tile: np.ndarray) -> float:
    """How much drawing a cut tile carries: the spread of its grey less a blur of a sixteenth of
    its side, over its inner part (its frame and the gap round it left out)."""
    grey = cv2.cvtColor(np.clip(tile, 0, 255).astype(np.uint8), cv2.COLOR_BGR2GRAY)
    grey = cv2.resize(grey, (64, 64), interpolation=cv2.INTER_AREA).astype(np.float32)[6:58, 6:58]
    return float((grey - cv2.GaussianBlur(grey, (0, 0), 4)).std())


def blank_faces(tiles: list, cells: list) -> list[int]:
    """The positions whose face (a tile id of ``cells``, not a back or an empty square) carries no
    drawing: fine detail under ``LEARN_BLANK`` of the median of the layout's faces (a layout of
    backs only is never judged: a back may be plain; nor one of fewer than 4 faces, too few for a
    median)."""
    faces = [p for p in range(16) if cells[p] not in (None, "back")]
    if len(faces) < 4:
        return []
    detail = {p: fine_detail(tiles[p]) for p in faces}
    typical = float(np.median(list(detail.values())))
    return [p for p in faces if detail[p] < tuning.LEARN_BLANK * typical]


def _lesson(box: Box, cells: list, tiles: list, positions, sides: list | None = None,
            sharper: bool = False) -> Lesson:
    """The box with the tiles at ``positions`` learned (each named by ``cells``; empty squares
    and positions off the planet teach nothing); ``sides``: each tile's square's side, a part of
    its cell (``Sample.frame``; none: 1.0). ``sharper`` (a scan's lesson, ``REMEMBER_SHARPER``): a
    tile whose picture in the box carries more drawing than this one (``fine_detail``) keeps it,
    and goes to the lesson's ``kept``."""
    samples, kept = [], []
    for p in sorted(set(positions)):
        if 0 <= p < 16 and cells[p] is not None:
            ok, png = cv2.imencode(".png", tiles[p])
            sample = Sample(cells[p], p, png.tobytes(), round(float(sides[p]), 4) if sides else 1.0)
            had = box.samples.get(sample.key)
            if sharper and had is not None and fine_detail(had.image()) > fine_detail(tiles[p]):
                kept.append(sample)
            else:
                samples.append(sample)
    if not samples:   # nothing new: the box as it was, its blend kept
        return Lesson(ok=True, box=box, cells=tuple(cells), kept=tuple(kept))
    learned = box.add(samples)
    if not learned.missing():  # every face known: how to compare them is kept in the box
        from .reader import box_with_blend
        learned = box_with_blend(learned)
    return Lesson(ok=True, box=learned, learned=tuple(samples), cells=tuple(cells), kept=tuple(kept))
