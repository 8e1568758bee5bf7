"""Read a planet of a learned box: the stages of ``vision/stages.py``, then classify.

``read_box(data, exemplars) -> Reading``. Stages: decode_photo → outlines_in_turn → (per
outline, until one reads surely) cut_cells → align_cells → match → classify (each cell against
the exemplars its position allows; one id at most once per planet, the back may repeat; twins
with identical contents may come back as either id) → refit_outline through the tiles found,
and read again while that reads better → the best reading, or no planet → nudged (a small planet
read less surely: read again through its outline moved a part of a cell in its own lattice while
that reads better) → read_finer (a planet
whose cells lie over fewer than ``SMALL_CELL`` px of the decode: read again from a finer decode of
its region, its doubt bounded by the first reading's) → tell_lookalikes →
the doubt (confidence) → look_again (each doubtful face cell's few likeliest tiles told apart
two by two) → look_zoomed (each doubtful face cell matched again cut at a few zooms and moved: a
tile lying smaller, larger or further off in its cell than the match looks) → look_searched
(in a photo read unsurely, each doubtful face cell's likeliest tiles compared at ``SEARCH_PX``,
each searched over small zooms, turns and shifts: ``vision/searched.py``).
"""
from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache

import cv2
import numpy as np

from . import tuning
from .imageio import UnusableImage
from .descriptors import blend_tag, blended, hog_sims, with_blend
from .reading import NO_PLANET, Reading, likely_tiles
from scorer.i18n import _
from .facedown import in_threes
from .layout import STACK_AT
from .searched import Picture as SearchPicture, detail as search_detail, searched
from .stages import (STACKS, lattice_fits, Aligned, beside_places, squares_along_edges, elsewhere, joined_rest, Cells, Outline, Photo, align_cells, cell_detail, chroma, cut_cells, zoomed_tile,
                     decode_photo, exemplar_details, finer_region, fine_cells_at, fine_detail, fine_cells, fine_exemplar, match,
                     grid_outlines, matched_filters, moved_in_lattice, on_gap_lines, one_thread, outlines_in_turn, quad_side, tell_apart_all,
                     even_light, refit_outline, register_exemplars, stack_looks, tell_apart_each, turned_details,
                     Slider, detail_sides, squares_aligned, trimmed_outlines, fit_outline, flattened_outlines, grown_candidates, kept_edges,
                     fitted_in_turn, painted_over, cut_by_frame, off_middle)


@dataclass(frozen=True)
class Exemplars:
    """What a learned box's tiles look like, cut and described by the reader's own stages."""
    names: tuple            # tile id or "back", per row
    stacks: tuple           # per row: its stack (a back: the stack it was learned in)
    contents: tuple         # per row: what it shows (twins share it)
    looks: dict             # stack -> [(angle, grey template)] (faces and backs)
    filters: np.ndarray     # per row: matched filters (stages.matched_filters), (n, angles, D)
    turned: np.ndarray      # per row: its small things less its stack's, turned (stages.turned_details)
    rows_of: dict           # stack -> rows allowed there
    means: dict             # stack -> the mean colour look of its faces (CELL_PX² × 3)
    backs: dict             # stack -> (rows of its backs, their chromas, its faces' chroma)
    outward: bool           # tiles lie turned to face outwards round the planet
    lacking: frozenset = frozenset()  # stacks some of whose contents (or whose back) were never learned
    pictures: tuple = ()    # per row: its registered picture (any size), for the finer look (tell_lookalikes)
    fine: dict = field(default_factory=dict, compare=False, repr=False)  # row or stack -> at FINE_PX, made when asked
    hog: np.ndarray | None = field(default=None, compare=False, repr=False)  # per row: descriptors.hog
    blend: float = 0.0      # weight of the hog beside the match, the box's own (descriptors.choose_blend)
    blend_scale: float = 1.0  # … and what brings the blend's margins to the match's
    sharp: np.ndarray | None = field(default=None, compare=False, repr=False)  # per row: matched filters at SHARP_BLUR
    frame: float = 1.0      # the box's tiles' own squares as teaching cut them, a part of their cells (Box.frame)


@dataclass(frozen=True)
class Verdict:
    """The reading of one outline."""
    rows: tuple             # per cell: exemplar row
    sims: np.ndarray        # per cell: similarity with its tile
    margins: np.ndarray     # per cell: to the best tile with other contents allowed there
    fits: np.ndarray        # per cell: how well its stack's look fitted
    pairs: np.ndarray       # per cell: its tile against the runner-up where the two differ (stages.tell_apart)
    outline: Outline
    turn: int
    runners: tuple = ()     # per cell: the runner-up's row (None: no other contents allowed)
    aligned: Aligned | None = None  # the tiles as aligned (for tell_twins_apart)
    details: dict = field(default_factory=dict, compare=False, repr=False)  # cell -> its cell_detail (match's)
    base: np.ndarray | None = field(default=None, compare=False, repr=False)   # (16, n): the match (classify's)
    order: np.ndarray | None = field(default=None, compare=False, repr=False)  # (16, n): what orders the tiles
    fine: Cells | None = field(default=None, compare=False, repr=False)       # the cells at FINE_PX, once cut
    fine_kept: dict = field(default_factory=dict, compare=False, repr=False)   # cell -> (fine, _fine_cell), once made
    cells: Cells | None = field(default=None, compare=False, repr=False)      # the cells the tiles were found in
    # cell -> the rows the search look compared there, best first (``look_searched``): what the
    # picker shows first (``likely_of``)
    searched: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def score(self) -> float:
        return float(np.median(self.fits) + np.mean(self.sims))

    @property
    def planet(self) -> float:
        """How much it looks like a planet (``is_planet``): the cells' median fit to their
        stack's look plus ``PLANET_SIM_WEIGHT`` × the chosen tiles' mean match. The fit
        drops under uneven light and with the art (a warm lamp's fall-off and a hard shadow
        across heldout4's planets: 0.45-0.6) and a smooth face fits a stack's smooth look
        well (0.74); the match says more."""
        return float(np.median(self.fits) + tuning.PLANET_SIM_WEIGHT * np.mean(self.sims))


def _content(name: str):
    from scorer.catalog import catalog
    if name == "back":
        return ("back",)
    t = catalog()[name]
    return (t.stack, t.character, tuple(sorted(t.items.items())))


def exemplars_of(references, outward: bool) -> Exemplars:
    """``references``: (name, stack, picture turned as at its stack's first position), as
    ``Box.references()`` gives them."""
    size = tuning.CELL_PX
    names = [name for name, _, _ in references]
    stacks = [stack for _, stack, _ in references]
    evened = [even_light(img) if tuning.EVEN_LIGHT else img for _, _, img in references]
    pictures = register_exemplars(evened, stacks, [n == "back" for n in names])
    tiles = [cv2.resize(img, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32) for img in pictures]
    groups: dict = {}
    for n, s, t in zip(names, stacks, tiles):
        groups.setdefault((s, n == "back"), []).append(t)
    means = {s: np.mean(groups[(s, False)], axis=0) for s in STACKS if (s, False) in groups}
    for s in STACKS:  # a stack not taught yet: its backs stand in
        if s not in means and (s, True) in groups:
            means[s] = np.mean(groups[(s, True)], axis=0)
    rows_of = {s: [i for i, (n, t) in enumerate(zip(names, stacks)) if t == s and (s != "character" or n != "back")]
               for s in STACKS}
    backs = {s: (frozenset(j for j in rows_of[s] if names[j] == "back"),
                 tuple(chroma(tiles[j]) for j in rows_of[s] if names[j] == "back"), chroma(means[s]))
             for s in STACKS if s in means}
    details = exemplar_details(tiles, stacks, means)
    contents = tuple(_content(n) for n in names)
    sharp = matched_filters(exemplar_details(tiles, stacks, means, tuning.SHARP_BLUR)) if tuning.SHARP else None
    return Exemplars(tuple(names), tuple(stacks), contents, stack_looks(groups),
                     matched_filters(details), turned_details(details), rows_of, means, backs, outward,
                     _lacking(names, stacks, contents), tuple(pictures), sharp=sharp)


def _fine_mean(ex: Exemplars, stack: str) -> np.ndarray:
    """The stack's faces' mean look at FINE_PX (its backs' when no face was learned), kept."""
    key = ("mean", stack)
    if key not in ex.fine:
        f = tuning.FINE_PX
        rows = [j for j in ex.rows_of[stack] if ex.names[j] != "back"] or [
            j for j, (n, s) in enumerate(zip(ex.names, ex.stacks)) if s == stack]
        ex.fine[key] = np.mean([cv2.resize(ex.pictures[j], (f, f), interpolation=cv2.INTER_AREA).astype(np.float32)
                                for j in rows], axis=0)
    return ex.fine[key]


def _fine_mean_detail(ex: Exemplars, stack: str) -> np.ndarray:
    """``stages.fine_detail`` of the stack's mean look at FINE_PX, kept (every cell and exemplar
    of the stack subtracts it)."""
    key = ("mean detail", stack)
    if key not in ex.fine:
        ex.fine[key] = fine_detail(_fine_mean(ex, stack))
    return ex.fine[key]


def _fine_turned(ex: Exemplars, row: int) -> np.ndarray:
    """Exemplar ``row`` at FINE_PX as ``tell_apart`` places it (``stages.fine_exemplar``), kept."""
    if row not in ex.fine:
        stack = ex.stacks[row]
        ex.fine[row] = fine_exemplar(ex.pictures[row], _fine_mean(ex, stack), _fine_mean_detail(ex, stack))
    return ex.fine[row]


def _slider(ex: Exemplars, row: int, fine: bool = False) -> Slider:
    """Exemplar ``row`` as ``tell_apart`` places it (``Exemplars.turned``; at FINE_PX,
    ``_fine_turned``), ready to slide, kept."""
    key = ("fine slider" if fine else "slider", row)
    if key not in ex.fine:
        ex.fine[key] = Slider(_fine_turned(ex, row) if fine else ex.turned[row])
    return ex.fine[key]


def _lacking(names, stacks, contents) -> frozenset:
    """The stacks of which the box lacks some tile's contents or the back: a tile of such a
    stack in a photo may be one never learned, read as the likeliest one learned."""
    from scorer.catalog import catalog
    cat = catalog()
    out = set()
    for s in STACKS:
        need = {_content(i) for i, t in cat.tiles.items() if t.stack == s}
        if s != "character":  # a character is never read as a back (exemplars_of's rows_of)
            need.add(("back",))
        have = {c for c, t in zip(contents, stacks) if t == s}
        if not need <= have:
            out.add(s)
    return frozenset(out)


@lru_cache(maxsize=8)
def _combos(k: int) -> np.ndarray:
    return np.array(list(itertools.product(range(k), repeat=4)))


def assign(scores: np.ndarray, rows: np.ndarray, back_rows: set, top: int = 6):
    """Best assignment of exemplar rows to the 4 positions of one stack (each row once, a back
    any number of times). ``scores`` is (4, len(rows)). Returns (chosen rows, total)."""
    first = np.argmax(scores, axis=1)              # each position's best: the answer when no id repeats
    picked = rows[first]
    faces = [int(r) for r in picked if int(r) not in back_rows]
    if len(set(faces)) == len(faces):
        return picked, float(scores[np.arange(len(first)), first].sum())
    k = min(top, len(rows))
    order = np.argsort(-scores, axis=1)[:, :k]
    combos = _combos(k)
    picks = order[np.arange(4)[None, :], combos]
    chosen = rows[picks]
    total = scores[np.arange(4)[None, :], picks].sum(axis=1)
    is_back = np.isin(chosen, list(back_rows)) if back_rows else np.zeros(chosen.shape, bool)
    dup = np.zeros(len(combos), bool)
    for a in range(4):
        for b in range(a + 1, 4):
            dup |= (chosen[:, a] == chosen[:, b]) & ~is_back[:, a]
    total = np.where(dup, -np.inf, total)
    best = int(np.argmax(total))
    return chosen[best], float(total[best])


def _assign_all(sims: np.ndarray, ex: Exemplars) -> list[int]:
    """Per cell, its exemplar row: the best assignment per stack (each id once, backs repeat)."""
    back_rows = {i for i, n in enumerate(ex.names) if n == "back"}
    rows = [0] * 16
    for stack in STACKS:
        allowed = np.array(ex.rows_of[stack], np.int64)
        pos = [q for q in range(16) if STACK_AT[q] == stack]
        if len(allowed) == 0:
            continue
        picked, _ = assign(sims[pos][:, allowed], allowed, back_rows)
        for q, r in zip(pos, picked):
            rows[q] = int(r)
    return rows


def _runner_up(sims: np.ndarray, ex: Exemplars, q: int, row: int) -> int | None:
    """The best row with other contents than ``row`` that may lie at ``q``."""
    at = sims[q].tolist()     # the same values as Python floats (indexing numpy one by one is slow)
    others = [j for j in ex.rows_of[STACK_AT[q]] if ex.contents[j] != ex.contents[row] and at[j] > -1]
    return max(others, key=at.__getitem__) if others else None


def classify(cells: Cells, aligned: Aligned, ex: Exemplars, outline: Outline, turn: int) -> Verdict:
    details: dict = {}
    shared: dict = {}   # what the two matches share (the tiles' channels, gains, wide blurs)
    base = match(aligned, ex.filters, ex.rows_of, ex.means, ex.backs, details, kept=shared)      # (16, n)
    # the sharper match (SHARP) and the box's own blend (descriptors.choose_blend) order the
    # tiles; the match alone is the chosen tile's similarity (the bars of is_planet and the doubt
    # are set on it), and a cell's margin is never surer than the match's
    order = base if ex.sharp is None else match(aligned, ex.sharp, ex.rows_of, ex.means, ex.backs,
                                                blur=tuning.SHARP_BLUR, kept=shared)
    sims = order if not ex.blend or ex.hog is None else blended(order, hog_sims(aligned.tiles, ex.hog, ex.rows_of), ex.blend)
    rows = _assign_all(sims, ex)
    chosen = np.array([base[q, rows[q]] for q in range(16)], np.float32)
    margins = np.zeros(16, np.float32)
    runners: list[int | None] = []
    for q in range(16):
        b = _runner_up(sims, ex, q, rows[q])
        runners.append(b)
        if order is not base:  # against the match's own runner-up: the sharper order's may match it worse
            b = _runner_up(base, ex, q, rows[q])
        margins[q] = chosen[q] - (base[q, b] if b is not None else -1.0)
        b = runners[q]
        if sims is not base:  # the order's margin, brought to the match's scale, and never surer than the match
            margins[q] = min(margins[q], (sims[q, rows[q]] - (sims[q, b] if b is not None else -1.0)) * ex.blend_scale)
    return Verdict(tuple(rows), chosen, margins, aligned.fits, np.full(16, tuning.PAIR_CAP, np.float32),
                   outline, turn, tuple(runners), aligned, details, base, sims, cells=cells)


def tell_lookalikes(v: Verdict, ex: Exemplars, photo: Photo | None = None) -> Verdict:
    """The stage after classify, for the reading kept: each face cell against its runner-up
    (the best tile with other contents) only where the two differ (``stages.tell_apart``).
    Tiles with the same contents are never each other's runner-up, so twins cost no doubt.
    Where the runner-up fits clearly better there (under ``SWAP_PAIR``) and no other cell of the
    planet holds it (an id once per planet), the cell takes the runner-up: the two tiles share
    most of their look (as many items, in the same places) and the whole-tile match was won by
    what they share; its margin is then negative, so the cell is doubtful.
    With ``photo`` (``FINE``), when the planet's cells cover ``FINE_MIN_PX`` or more of the decode,
    the test is made (for cells whose margin is under ``FINE_MARGIN``) at ``FINE_PX`` as well: the cells cut again through the same outline and each
    of the two exemplars placed on them there (an elephant and a sheep of the same grey, in the same
    place, differ by a few pixels at 48 px)."""
    if v.aligned is None:
        return v
    aligned = v.aligned
    finer, fine = _finer(v, ex, photo), None   # the finer cut is made when a cell first asks for it
    pairs = v.pairs.copy()
    rows, runners = list(v.rows), list(v.runners)
    sims, margins = v.sims.copy(), v.margins.copy()
    # each cell's test first, all cells at once (stages.tell_apart_each: the same floats as cell by
    # cell): a cell's test takes only its own tile, runner-up and margin as classified (a swap
    # changes the cell's own margin after its test), so only the swaps below go cell by cell
    tested = [q for q in range(16) if v.runners[q] is not None
              and ex.names[v.rows[q]] != "back" and ex.names[v.runners[q]] != "back"]
    cells = [v.details[q] if q in v.details else cell_detail(aligned.tiles[q], ex.means[STACK_AT[q]]) for q in tested]
    told = dict(zip(tested, tell_apart_each(cells, [_slider(ex, v.rows[q]) for q in tested],
                                            [_slider(ex, v.runners[q]) for q in tested])))
    finest = [q for q in tested if finer and v.margins[q] < tuning.FINE_MARGIN]
    if finest:
        fine, fcells = _fine_cells(v, ex, photo, fine, finest)
        w = tuning.FINE_WEIGHT
        for q, fpair in zip(finest, tell_apart_each(fcells, [_slider(ex, v.rows[q], fine=True) for q in finest],
                                                    [_slider(ex, v.runners[q], fine=True) for q in finest],
                                                    tuning.PAIR_BLUR * tuning.FINE_PX / tuning.CELL_PX)):
            told[q] = w * fpair + (1 - w) * told[q]
    for q in tested:
        a, b, pair = v.rows[q], v.runners[q], told[q]
        if tuning.SWAP and pair < tuning.SWAP_PAIR and b not in rows:
            rows[q], runners[q] = b, a
            sims[q], margins[q], pair = sims[q] - margins[q], -margins[q], -pair
        pairs[q] = min(tuning.PAIR_CAP, pair)
    return replace(v, rows=tuple(rows), runners=tuple(runners), sims=sims, margins=margins, pairs=pairs, fine=fine)


def _finer(v: Verdict, ex: Exemplars, photo: Photo | None) -> bool:
    """The planet's cells cover ``FINE_MIN_PX`` or more of the decode (and the box keeps its
    pictures): the runner-up tests are made at ``FINE_PX`` as well."""
    if not (tuning.FINE and photo is not None and ex.pictures):
        return False
    side = quad_side(v.outline.corners) / 4
    return side >= tuning.FINE_MIN_PX


def _fine_cell(v: Verdict, ex: Exemplars, photo: Photo | None, fine: Cells | None, q: int) -> tuple[Cells, np.ndarray]:
    """Cell ``q`` at ``FINE_PX`` for the runner-up tests, with the finer cut of the planet it is
    taken from (``fine``: made now, through the same outline, when no stage has made it yet).
    Made once per reading (``Verdict.fine_kept``, shared by the verdicts ``tell_lookalikes`` and
    ``look_again`` make from it: the same cut, outline and centres): both stages ask for most
    doubtful cells."""
    fine, cells = _fine_cells(v, ex, photo, fine, [q])
    return fine, cells[0]


def _fine_cells(v: Verdict, ex: Exemplars, photo: Photo | None, fine: Cells | None, qs: list) -> tuple[Cells, list]:
    """``_fine_cell`` of each of the cells ``qs``, those not made yet made at once
    (``stages.fine_cells_at``: the same floats as one by one)."""
    assert photo is not None and v.aligned is not None
    if fine is None:
        tile = read_tile(ex)
        fine = fine_cells(photo, v.outline, tile) if ex.outward else cut_cells(photo, v.outline, v.turn, tuning.FINE_PX, tile)
    todo = [q for q in qs if v.fine_kept.get(q, (None,))[0] is not fine]
    if todo:
        pad = int(round(tuning.CELL_PX * tuning.PAD))
        made = fine_cells_at(fine, [v.aligned.centres[q] for q in todo], pad, todo,
                             [_fine_mean(ex, STACK_AT[q]) for q in todo], [_fine_mean_detail(ex, STACK_AT[q]) for q in todo])
        for q, cell in zip(todo, made):
            v.fine_kept[q] = (fine, cell)
    return fine, [v.fine_kept[q][1] for q in qs]


def _likeliest(ex: Exemplars, order: np.ndarray, stack: str, a: int, most: int, taken=()) -> list[int]:
    """Row ``a`` (a cell's tile) and the likeliest face rows of other contents its ``stack``
    allows, by ``order`` (the cell's row of what orders the tiles), one per contents, ``most`` in
    all; rows in ``taken`` (held by other cells) left out."""
    at = order.tolist()
    tiles, seen = [a], {ex.contents[a]}
    for j in sorted(ex.rows_of[stack], key=lambda j: -at[j]):
        if len(tiles) == most:
            break
        if ex.names[j] != "back" and at[j] > -1 and ex.contents[j] not in seen and j not in taken:
            tiles.append(j)
            seen.add(ex.contents[j])
    return tiles


def look_again(v: Verdict, ex: Exemplars, photo: Photo | None, conf: np.ndarray) -> Verdict:
    """The stage after the doubt, for the doubtful face cells only (``conf`` under ``DOUBT``):
    the match ranks the tile shown on line-art (thin dark lines, pale stripes) low, since its
    blur turns small thin items into blobs alike, so the true tile is often not the runner-up
    but 3rd-5th (heldout8, heldout10). Each such cell's tile and the ``SECOND_LOOK_TILES`` - 1
    best tiles of other contents its position allows are told apart two by two by the runner-up
    test (``stages.tell_apart``, at ``FINE_PX`` as well where ``tell_lookalikes`` makes it
    there, weighed as there; each placed once), and the cell takes the tile that beats the most
    of the others (ties: by the sum of the tests) when it beats the cell's own tile by more than
    ``SECOND_LOOK_BEAT`` and no other cell holds it; only in a photo with ``SECOND_LOOK_MANY``
    doubtful cells or more (where the match blurs the art). A cell's doubt
    is not lifted: the reader's ``conf`` is kept as it was (under ``DOUBT``), its margin turned
    negative when its tile changed."""
    if not tuning.SECOND_LOOK or v.aligned is None or v.order is None or v.base is None:
        return v
    aligned, order = v.aligned, v.order
    if int(np.sum(np.asarray(conf) < tuning.DOUBT)) < tuning.SECOND_LOOK_MANY:
        return v
    finer = _finer(v, ex, photo)
    fine = v.fine
    rows, runners = list(v.rows), list(v.runners)
    sims, margins = v.sims.copy(), v.margins.copy()
    for q in range(16):
        a = rows[q]
        if conf[q] >= tuning.DOUBT or ex.names[a] == "back":
            continue
        st = STACK_AT[q]
        tiles = _likeliest(ex, order[q], st, a, tuning.SECOND_LOOK_TILES)
        if len(tiles) < 2:
            continue
        cell = v.details[q] if q in v.details else cell_detail(aligned.tiles[q], ex.means[st])
        told = tell_apart_all(cell, [_slider(ex, j) for j in tiles])
        if finer:
            fine, fcell = _fine_cell(v, ex, photo, fine, q)
            w = tuning.FINE_WEIGHT
            told = w * tell_apart_all(fcell, [_slider(ex, j, fine=True) for j in tiles],
                                      tuning.PAIR_BLUR * tuning.FINE_PX / tuning.CELL_PX) + (1 - w) * told
        wins = (told > 0).sum(axis=1) + 1e-3 * told.sum(axis=1)
        k = int(np.argmax(wins))
        b = tiles[k]
        if b == a or b in rows or told[k, 0] <= tuning.SECOND_LOOK_BEAT:
            continue
        rows[q], runners[q] = b, a
        sims[q], margins[q] = v.base[q, b], -abs(float(margins[q]))
    return replace(v, rows=tuple(rows), runners=tuple(runners), sims=sims, margins=margins, fine=fine)


def look_zoomed(v: Verdict, ex: Exemplars, conf: np.ndarray, settled: frozenset = frozenset()) -> Verdict:
    """The stage after ``look_again``, for the doubtful face cells only (``conf`` under
    ``DOUBT``): a loose tile, or an outline pulled out at a corner by one, lies smaller or
    larger in its cell than teaching cut it (seeds 42 and 44's K14: best matched at 0.9 of its
    picture's size, 0.93 -> 0.98 raw colour correlation), and the match, which slides and turns
    but never scales, then ranks a look-alike first. Each such cell is cut again from its window
    at each of ``ZOOM_LOOK_ZOOMS`` (the tile's side a part of the side it was cut at), and at its
    size moved by each of ``ZOOM_LOOK_SHIFTS`` (a loose tile lying past the match's slack), and
    matched there (one product for all). Of the tiles its position allows that a cut matches
    better than the cut as it was, the best over the cuts takes the cell when it beats the cell's
    own tile (its best, as cut or cut again) by more than ``ZOOM_LOOK_BEAT``, has other contents
    and no other cell holds it. A cell's doubt is not lifted: its margin turns negative when its tile
    changed. ``settled``: cells ``look_again`` has just given another tile, left as they are (on
    line-art its runner-up tests find the tile the match ranked low, heldout8's p16; the zooms'
    match would rank it low again)."""
    if (not tuning.ZOOM_LOOK or v.cells is None or v.aligned is None or v.aligned.angles is None
            or v.base is None):
        return v
    qs = [q for q in range(16) if conf[q] < tuning.DOUBT and ex.names[v.rows[q]] != "back" and q not in settled]
    if not qs:
        return v
    aligned, size = v.aligned, tuning.CELL_PX
    cuts = [(z, 0.0, 0.0) for z in tuning.ZOOM_LOOK_ZOOMS] + [(1.0, dx, dy) for dx, dy in tuning.ZOOM_LOOK_SHIFTS]
    tiles, at = [], {}
    for q in qs:
        cx, cy = (float(c) for c in aligned.centres[q])
        for z, dx, dy in cuts:
            at.setdefault(STACK_AT[q], []).append(len(tiles))
            tiles.append(zoomed_tile(v.cells.windows[q], cx + dx * size, cy + dy * size, float(aligned.angles[q]), size, z))
    sims = match(Aligned(np.stack(tiles), aligned.fits, aligned.centres), ex.filters, ex.rows_of, ex.means,
                 ex.backs, at=at)
    rows, runners = list(v.rows), list(v.runners)
    out_sims, margins = v.sims.copy(), v.margins.copy()
    for k, q in enumerate(qs):
        zoomed = sims[k * len(cuts):(k + 1) * len(cuts)].max(axis=0)
        a = rows[q]
        # only a tile a new cut matches better than the cut as it was: the stages before have
        # judged the cell as cut (an elephant the match prefers to the sheep there, kept a sheep
        # by tell_lookalikes, is not this stage's to change back)
        allowed = [j for j in ex.rows_of[STACK_AT[q]]
                   if ex.names[j] != "back" and zoomed[j] > -1 and zoomed[j] > v.base[q, j]]
        if not allowed:
            continue
        b = max(allowed, key=lambda j: float(zoomed[j]))
        own = max(float(v.base[q, a]), float(zoomed[a]))
        if ex.contents[b] == ex.contents[a] or b in rows or zoomed[b] <= own + tuning.ZOOM_LOOK_BEAT:
            continue
        rows[q], runners[q] = b, a
        out_sims[q], margins[q] = v.base[q, b], -abs(float(margins[q]))
    return replace(v, rows=tuple(rows), runners=tuple(runners), sims=out_sims, margins=margins)


def _search_picture(ex: Exemplars, row: int) -> SearchPicture:
    """Row ``row``'s picture as ``searched.Picture`` takes it (kept with the box's finer looks)."""
    key = ("search", row)
    if key not in ex.fine:
        size = tuning.SEARCH_PX
        ex.fine[key] = SearchPicture(search_detail(cv2.resize(np.asarray(ex.pictures[row], np.float32), (size, size),
                                                 interpolation=cv2.INTER_AREA)))
    return ex.fine[key]


def look_searched(v: Verdict, ex: Exemplars, photo: Photo | None, conf: np.ndarray) -> Verdict:
    """The stage after ``look_zoomed``, for the doubtful face cells only (``conf`` under
    ``DOUBT``), in a photo with ``SEARCH_MANY`` of them or more (art the match reads unsurely):
    the cell and its ``SEARCH_TILES`` likeliest tiles of other contents (by what orders the tiles,
    each placed once) compared at ``SEARCH_PX``, each picture searched over small zooms, turns
    and shifts (``vision.searched``). On line-drawn items the match at ``CELL_PX`` tells tiles
    that share an edge stack's arc apart little better than by chance, and a tile lying a few
    degrees turned or a tenth smaller than teaching cut it matches a look-alike as well as itself.
    The cell takes the tile that matches best there when it beats the cell's own tile by more
    than ``SEARCH_BLOCKS_BEAT`` (``SEARCH_BEAT`` when the search scores the whole picture only,
    ``SEARCH_BY_BLOCKS`` off) and no other cell holds it. A cell's doubt is not lifted: its
    margin turns negative when its tile changed."""
    if not tuning.SEARCH_LOOK or photo is None or not ex.pictures or v.order is None or v.base is None:
        return v
    qs = [q for q in range(16) if conf[q] < tuning.DOUBT and ex.names[v.rows[q]] != "back"]
    if len(qs) < tuning.SEARCH_MANY:
        return v
    cells = cut_cells(photo, v.outline, None if ex.outward else v.turn, tuning.SEARCH_PX)
    beat = tuning.SEARCH_BLOCKS_BEAT if tuning.SEARCH_BY_BLOCKS else tuning.SEARCH_BEAT
    rows, runners = list(v.rows), list(v.runners)
    sims, margins = v.sims.copy(), v.margins.copy()
    ranked = {}
    for q in qs:
        a = rows[q]
        tiles = _likeliest(ex, v.order[q], STACK_AT[q], a, tuning.SEARCH_TILES, taken=rows)
        if len(tiles) < 2:
            continue
        got = searched(search_detail(cells.windows[q]), [_search_picture(ex, j) for j in tiles])
        if tuning.SEARCH_PICKER_FIRST:
            ranked[q] = tuple(tiles[i] for i in np.argsort(-got, kind="stable"))
        k = int(np.argmax(got))
        if k == 0 or got[k] <= got[0] + beat:
            continue
        rows[q], runners[q] = tiles[k], a
        sims[q], margins[q] = v.base[q, tiles[k]], -abs(float(margins[q]))
    return replace(v, rows=tuple(rows), runners=tuple(runners), sims=sims, margins=margins, searched=ranked)


def face_down_in_threes(v: Verdict, ex: Exemplars) -> Verdict:
    """A planet shows its backs three at a time (``facedown.in_threes``): a reading with another
    count turns the cells that cost what orders the tiles (``Verdict.order``) least. A cell turned
    so takes a negative margin (doubtful) and its old tile as its runner-up."""
    order = v.order if v.order is not None else v.base
    if not tuning.FACE_DOWN_IN_THREES or order is None:
        return v
    moves = in_threes(order.tolist(), v.rows, lambda q: ex.rows_of[STACK_AT[q]], lambda j: ex.names[j] == "back")
    if not moves:
        return v
    rows, runners, sims, margins = list(v.rows), list(v.runners), v.sims.copy(), v.margins.copy()
    for q, j in moves:
        rows[q], runners[q] = j, rows[q]
        sims[q], margins[q] = (v.base if v.base is not None else order)[q, j], -abs(float(margins[q]))
    return replace(v, rows=tuple(rows), runners=tuple(runners), sims=sims, margins=margins)


def read_outline(photo: Photo, outline: Outline, ex: Exemplars, refit: int = tuning.REFITS,
                 before: float | None = None, turns: tuple | None = None) -> Verdict:
    """Cut, align, describe and classify one outline (every quarter turn when tiles lie upright,
    or those of ``turns``); then read again through where the tiles were found (``refit`` times
    at most) while that moves the outline and reads better (``before``: the score of the reading
    this one refits; a refit that gained less than ``REFIT_GAIN`` on it is not refitted again)."""
    best, found = None, None
    if tuning.GAP_LINES_READ:   # cut on the gaps between the tiles, as teaching cuts its tiles
        outline = on_gap_lines(photo, outline, tuning.GAP_LINE_PX, bilinear=False) or outline
    for turn in ((None,) if ex.outward else turns or (0, 1, 2, 3)):
        cells = cut_cells(photo, outline, turn, tile=read_tile(ex))
        looked = align_cells(cells, ex.looks)
        aligned = _centres_by_square(cells, looked, ex) if tuning.CENTRES_BY_SQUARE else looked
        v = classify(cells, aligned, ex, outline, turn or 0)
        if best is None or v.score > best.score:
            best, found = v, refit_outline(outline, cells, aligned)
    gained = before is None or best.score >= before + tuning.REFIT_GAIN
    if (refit and gained and found is not None and best.score < tuning.REFIT_BELOW
            and moved_by(outline, found) > tuning.REFIT_MOVE):
        again = read_outline(photo, found, ex, refit - 1, best.score, turns)
        if again.score > best.score:
            return again
    return best


def _centres_by_square(cells: Cells, aligned: Aligned, ex: Exemplars) -> Aligned:
    """Each centre cell found by its own square (``stages.squares_aligned``) where its tiles
    match better so: the best match among the tiles allowed there over ``SQUARE_GAIN`` more
    than as the look found it."""
    qs = [q for q in range(16) if STACK_AT[q] == "center"]
    rows = {"center": ex.rows_of.get("center", [])}
    if not rows["center"]:
        return aligned
    by_square = squares_aligned(cells, aligned, qs)
    # the look's tiles then the squares' as one stack's tiles (match reads only the tiles; fits and
    # centres ride along unread)
    both = Aligned(np.concatenate([aligned.tiles[qs], by_square.tiles[qs]]), aligned.fits, aligned.centres)
    sims = match(both, ex.filters, rows, ex.means, ex.backs, at={"center": range(2 * len(qs))})  # one product
    best = sims.max(axis=1)
    moved = [q for k, q in enumerate(qs) if best[len(qs) + k] > best[k] + tuning.SQUARE_GAIN]
    if not moved:
        return aligned
    tiles, centres = aligned.tiles.copy(), aligned.centres.copy()
    tiles[moved], centres[moved] = by_square.tiles[moved], by_square.centres[moved]
    angles = None
    if aligned.angles is not None and by_square.angles is not None:
        angles = aligned.angles.copy()
        angles[moved] = by_square.angles[moved]
    return Aligned(tiles, aligned.fits, centres, angles)


def read_tile(ex: Exemplars) -> float:
    """The part of an outline's cell the reader takes as the tile's own square (``cut_cells``' ``tile``):
    ``READ_TILE_CUT`` off, the whole cell (as before); on, the box's own (``Exemplars.frame``: its tiles'
    squares as teaching cut them in their cells) with ``READ_TILE_BOX``, else ``READ_TILE_GAPS`` when the
    outline is first moved onto its gap lines (``GAP_LINES_READ``), else ``READ_TILE``."""
    if not tuning.READ_TILE_CUT:
        return 1.0
    if tuning.READ_TILE_BOX:
        return ex.frame
    return tuning.READ_TILE_GAPS if tuning.GAP_LINES_READ else tuning.READ_TILE


def moved_by(a: Outline, b: Outline) -> float:
    """How far ``b``'s corners lie from ``a``'s, as a part of a cell."""
    side = quad_side(a.corners) / 4
    return float(np.linalg.norm(a.corners - b.corners, axis=1).max()) / side


def read_photo(photo: Photo, ex: Exemplars, beside: bool = True,
               where: Callable[[np.ndarray], bool] | None = None) -> Verdict | None:
    """The best reading over the candidate outlines, read one by one until one reads as surely
    as a planet does (None: no outline at all). None read as a planet: the photo with its slow
    light taken out (``FLAT_LOOK``), then the outlines the masks found after the first
    ``CANDIDATES`` (``LATE_LOOK``), then the planet's own lattice of tiles (``GRID_LOOK``). Last, the
    masks' blobs with what hangs off them trimmed (``TRIM_LOOK``), also when the best is a planet
    read less than surely (``TRIM_UNSURE``). Still no planet: the outlines each look's cap left
    unread, in the looks' order (``REST_LOOK``). A planet read: another planet nearer the frame's
    middle, when the masks found one (``BESIDE_LOOK``, ``_read_beside``; ``beside`` False: not looked for).
    ``where``: only outlines whose corners it holds true for are read (``None``: every one)."""
    kept: dict = {}   # the photo's outlines and edge map, made once for both looks at them
    rest: list = []   # each look's outlines its cap left unread, in the looks' order

    def only(outlines):
        return outlines if where is None else (o for o in outlines if where(o.corners))
    best = _read_in_turn(photo, only(outlines_in_turn(photo, kept=kept)), ex, None, tuning.READ_OUTLINES, rest)
    if tuning.FLAT_LOOK and not is_planet(best, ex):
        best = _read_flattened(photo, ex, best, rest, kept, only)
    if tuning.LATE_LOOK and not is_planet(best, ex):
        best = _read_in_turn(photo, only(outlines_in_turn(photo, later=True, kept=kept)), ex, best, tuning.READ_OUTLINES, rest)
    if tuning.GRID_LOOK and not is_planet(best, ex):
        best = _read_in_turn(photo, only(grid_outlines(photo, kept)), ex, best, tuning.GRID_OUTLINES, rest)
    if tuning.TRIM_LOOK and (not is_planet(best, ex) or (tuning.TRIM_UNSURE and best.score < tuning.READ_SURE)):
        best = _read_in_turn(photo, only(trimmed_outlines(photo, kept)), ex, best, tuning.READ_OUTLINES, rest)
    if tuning.REST_LOOK and not is_planet(best, ex):
        best = _read_in_turn(photo, itertools.chain.from_iterable(rest), ex, best, tuning.REST_OUTLINES)
    if tuning.GROW_LOOK and not is_planet(best, ex):
        best = _read_grown(photo, ex, best, kept, where, beside)
    if beside and tuning.BESIDE_LOOK and is_planet(best, ex):
        best = _read_beside(photo, ex, best, kept)
    return nudged(photo, best, ex) if best is not None else None


def _read_beside(photo: Photo, ex: Exemplars, best: Verdict, kept: dict) -> Verdict:
    """A planet read, and another planet on the table, nearer the frame's middle: the planet the
    player aimed at. The outlines the masks found (``kept``: ``outlines_in_turn``'s, and
    ``"beside"``: their next largest blobs'), and where a planet joined to the one read may lie
    (``BESIDE_JOINED``: ``stages.joined_rest``), that pass ``stages.beside_places``' bars are fitted and
    read in the order of how well the lattice lies on the photo's edges before fitting
    (``stages.fitted_in_turn``, as ``outlines_in_turn``'s; ``BESIDE_READS`` at most); the best that
    reads as a planet is kept, the first that reads surely (``READ_SURE``) at once. None reads
    surely (``BESIDE_PAINTED``), or none is found and the frame cuts the planet read (``stages.cut_by_frame``:
    the player frames their own planet whole): the photo read again whole (``read_photo``) with the
    planet read painted over as the table (``stages.painted_over``), as if it were a photo of the
    planet aimed at alone; its planet, when it lies at one of those places (or, the planet read cut,
    elsewhere and wholly in frame) and reads better, is kept. The same, with no place read as a planet,
    when the planet read lies off the frame's middle (``BOX_OFF_PAINTED``, ``stages.off_middle``): a
    planet found then that passes ``beside_places``' bars against it (nearer the middle) and lies
    wholly in frame is kept (no mask outlined the planet aimed at, dim and joined to the table, while
    the neighbour's stood out); only outlines that pass those bars are read then (``where``: a photo
    of one planet off the middle is read again at the cost of the few outlines nearer the middle,
    not of every look's). No place and a planet wholly in frame about the middle (a photo of
    one planet): ``best``, nothing read."""
    h, w = photo.image.shape[:2]
    found = kept.get("quads", []) + kept.get("beside", [])
    if tuning.BESIDE_JOINED:
        found = found + joined_rest(photo, kept, best.outline.corners)
    places = beside_places(found, best.outline.corners, h, w)
    chosen = None
    for outline in itertools.islice(fitted_in_turn(photo, places, kept), tuning.BESIDE_READS):
        v = read_outline(photo, outline, ex)
        if is_planet(v, ex) and elsewhere(v.outline.corners, best.outline.corners) \
                and (chosen is None or v.score > chosen.score):
            chosen = v
            if v.score >= tuning.READ_SURE:
                return v
    cut = cut_by_frame(best.outline.corners, h, w)
    off = tuning.BOX_OFF_PAINTED and chosen is None and off_middle(best.outline.corners, h, w)
    if tuning.BESIDE_PAINTED and (places or cut or off):
        read = best.outline.corners

        def nearer(q) -> bool:   # a planet nearer the middle than the one read, wholly in frame
            return bool(beside_places([q], read, h, w)) and not cut_by_frame(q, h, w)
        alone = read_photo(painted_over(photo, read, tuning.BESIDE_PAINT_GROW), ex, beside=False,
                           where=None if places or cut else nearer)
        if alone is not None and is_planet(alone, ex) and (chosen is None or alone.score > chosen.score) \
                and (any(not elsewhere(alone.outline.corners, q) for q in places)
                     or (cut and elsewhere(alone.outline.corners, best.outline.corners)
                         and not cut_by_frame(alone.outline.corners, h, w))
                     or (off and nearer(alone.outline.corners))):
            chosen = alone
    return best if chosen is None else chosen


def _read_grown(photo: Photo, ex: Exemplars, best: Verdict | None, kept: dict,
                where: Callable[[np.ndarray], bool] | None = None, beside: bool = True) -> Verdict | None:
    """Still no planet: the grown look. A planet whose outer row of tiles, or whose corners'
    tiles, look like the table (pink skies on orange wood under a dim lamp) has outlines from the
    masks that hold only part of it: its round disc, or 4 cells by 3. Every outline the looks
    found, and those grown to a whole planet (``stages.grown_candidates``), is read once as it
    lies, cheaply (not fitted to the lattice, no refit); the ``GROW_OUTLINES`` read best are then
    fitted and read in full, as every look's are. The lattice's fit ranks these outlines poorly
    (the planet's own came 7th to 25th of 34-48 on dev set 9327), the cheap reading first. Still
    no planet: the squared look (``_read_squared``), then the unfitted one (``_read_unfitted``)."""
    found = [q for q in grown_candidates(photo, kept) if where is None or where(q)]
    if not found:
        return best
    order = _screened(photo, found, ex)
    edges = kept_edges(photo, kept)
    best = _read_in_turn(photo, (fit_outline(edges, found[k]) for k in order), ex, best, tuning.GROW_OUTLINES)
    if tuning.SQUARED_LOOK and not is_planet(best, ex):
        best = _read_squared(photo, ex, best, [found[k] for k in order[:tuning.SQUARED_OF]], edges)
    if tuning.UNFITTED_LOOK and not is_planet(best, ex):
        best = _read_unfitted(photo, ex, best, [found[k] for k in order[:tuning.GROW_OUTLINES]], edges,
                              kept if beside else None)
    return best


def _read_unfitted(photo: Photo, ex: Exemplars, best: Verdict | None, quads: list, edges: np.ndarray,
                   kept: dict | None = None) -> Verdict | None:
    """Still no planet: the unfitted look. On art whose every tile is hatched or striped the
    lattice fit (``fit_outline``) may slide an outline a third of a cell off the planet onto lines
    of the art, a cell off; read as it lies instead, the outline is moved by where its tiles were
    found (``read_outline``'s refit), as teaching's cut is. Each of ``quads`` (the grown look's
    best screened, which it read fitted) is read so, and judged with the lattice's fit where the
    reading ended (``is_planet``'s bar on how the lattice lies on the photo's edges, unchanged).
    The last look, and the least sure: a planet it reads is kept as it is only when it ends about the
    frame's middle (within ``UNFITTED_MIDDLE`` of the short side), where the player aims. Off it, on a
    table with a neighbour's planet, it may be the neighbour's: it is kept only through the beside
    look (``_read_beside``, ``kept``), when that finds a planet nearer the middle; otherwise the photo
    is refused, as before this look. Without ``kept`` (a photo read again for the beside look, whose
    caller judges where the planet found lies) every planet read is kept as it is."""
    h, w = photo.image.shape[:2]
    for q in quads:
        v = read_outline(photo, Outline(np.float32(q), 0.0), ex)
        corners = v.outline.corners
        v = replace(v, outline=Outline(corners, float(lattice_fits(edges, np.float32(corners)[None])[0])))
        if is_planet(v, ex) and kept is not None and off_middle(corners, h, w, tuning.UNFITTED_MIDDLE):
            aimed = _read_beside(photo, ex, v, kept) if tuning.BESIDE_LOOK else v
            if aimed is v:
                continue
            v = aimed
        if best is None or _ranked(v, ex) > _ranked(best, ex):
            best = v
    return best


def _screened(photo: Photo, quads: list, ex: Exemplars) -> np.ndarray:
    """The outlines ``quads`` read once each as they lie, cheaply (not fitted to the lattice, no
    refit): their order, the best read first."""
    screen = [read_outline(photo, Outline(q, 0.0), ex, refit=0).score for q in quads]
    return np.argsort(-np.float32(screen), kind="stable")


def _read_squared(photo: Photo, ex: Exemplars, best: Verdict | None, quads: list, edges: np.ndarray) -> Verdict | None:
    """Still no planet: the squared look. The masks round a blob's corners off, and an outline fitted
    to what is left may sit square to the frame, or a cell off, while the planet in it is turned; the
    lattice fit then slides onto the wrong edges. Squares about the middles of ``quads`` (the grown
    look's best screened), turned as the edges inside them run (``stages.squares_along_edges``,
    ``SQUARED_SIDES`` of their side), are screened as the grown look screens its outlines, and the
    ``SQUARED_BOX_READS`` best fitted and read in full."""
    squares = [sq for q in quads for sq in squares_along_edges(photo.image, q, tuning.SQUARED_SIDES)]
    if not squares:
        return best
    order = _screened(photo, squares, ex)
    return _read_in_turn(photo, (fit_outline(edges, squares[k]) for k in order), ex, best, tuning.SQUARED_BOX_READS)


def _nudges(step: float) -> tuple:
    """The moves ``nudged`` tries at ``step`` (a part of a cell): across and down each way, a scale
    each way (a corner, 2 sqrt 2 cells from the centre, moves sqrt 2 times ``step``), and a turn
    each way that moves a corner by ``step``."""
    turn = float(np.rad2deg(step / (2 * np.sqrt(2))))   # a corner lies 2 sqrt 2 cells from the centre
    return ((step, 0.0, 1.0, 0.0), (-step, 0.0, 1.0, 0.0), (0.0, step, 1.0, 0.0), (0.0, -step, 1.0, 0.0),
            (0.0, 0.0, 1.0 + step / 2, 0.0), (0.0, 0.0, 1.0 - step / 2, 0.0),
            (0.0, 0.0, 1.0, turn), (0.0, 0.0, 1.0, -turn))


def nudged(photo: Photo, v: Verdict, ex: Exemplars) -> Verdict:
    """A small planet (a side of ``NUDGE_SMALL`` of the photo's short side or less) read less surely
    than ``NUDGE_BELOW``, read again through its outline moved in its own lattice
    (``stages.moved_in_lattice``, ``_nudges``), each move kept while the reading's score gains more
    than ``NUDGE_GAIN``: ``NUDGE_STEP`` of a cell first, halved when no move gains, down to
    ``NUDGE_FINEST`` (no gain at the first two steps: ``v``, after 16 readings); ``NUDGE_READS``
    readings at most, in the quarter turn found. The outline nudged is kept when it moved
    ``NUDGE_MOVE`` of a cell or more (less: the score's own noise over a planet's loose tiles, not a
    planet found off)."""
    if (not tuning.NUDGE or v.score >= tuning.NUDGE_BELOW or not is_planet(v, ex)
            or quad_side(v.outline.corners) > tuning.NUDGE_SMALL * min(photo.image.shape[:2])):
        return v
    best, step, reads = v, tuning.NUDGE_STEP, 0
    while step >= tuning.NUDGE_FINEST and reads < tuning.NUDGE_READS:
        gained = False
        for move in _nudges(step):
            if reads == tuning.NUDGE_READS:
                break
            outline = Outline(moved_in_lattice(best.outline.corners, *move), best.outline.fit)
            again = read_outline(photo, outline, ex, refit=0, turns=(best.turn,))
            reads += 1
            if again.score > best.score + tuning.NUDGE_GAIN:
                best, gained = again, True
        if not gained:
            if best is v and step < tuning.NUDGE_STEP:
                return v   # no move gained at the first two steps
            step /= 2
    return best if moved_by(v.outline, best.outline) >= tuning.NUDGE_MOVE else v


def cell_side(outline: Outline) -> float:
    """The side of the outline's cells, in pixels of the image it was found in."""
    return quad_side(outline.corners) / 4


def read_finer(data: bytes, photo: Photo, v: Verdict, ex: Exemplars) -> tuple[Verdict, Photo]:
    """A planet whose cells lie over fewer than ``SMALL_CELL`` pixels of the decode it was found
    in: its region decoded again finer (``stages.finer_region``: cells of ``SMALL_TARGET`` px at
    least) and read there through the outline found, mapped (cut, align, classify, refit; the
    quarter turn found kept). The finer reading and its photo, when it is a planet and
    reads at least as well less ``SMALL_SLACK``; else ``v`` and ``photo``."""
    if not tuning.SMALL_FINER or not is_planet(v, ex) or cell_side(v.outline) >= tuning.SMALL_CELL:
        return v, photo
    try:
        got = finer_region(data, photo, v.outline, tuning.SMALL_TARGET, tuning.SMALL_GROW, tuning.SMALL_FINEST)
    except UnusableImage:
        got = None
    if got is None:
        return v, photo
    region, outline = got
    again = read_outline(region, outline, ex, tuning.SMALL_REFITS, turns=(v.turn,))
    if is_planet(again, ex) and again.score >= v.score - tuning.SMALL_SLACK:
        return again, region
    return v, photo


def bounded(conf: np.ndarray, rows: tuple, first: tuple, ex: Exemplars) -> np.ndarray:
    """The finer reading's doubt no surer than the first reading's (``first``: its rows and
    confidences, the same cells in the same order): a cell where both show the same contents
    keeps the lower confidence; where they differ it is doubtful (under ``DOUBT``)."""
    rows0, conf0 = first
    same = np.array([ex.contents[a] == ex.contents[b] for a, b in zip(rows, rows0)])
    low = np.minimum(conf, conf0)
    return np.where(same, low, np.minimum(low, tuning.DOUBT - 0.01)).astype(conf.dtype)


def _read_in_turn(photo: Photo, outlines, ex: Exemplars, best: Verdict | None, most: int,
                  rest: list | None = None) -> Verdict | None:
    """``best`` or the best reading of ``outlines`` (at most ``most``), until one reads surely.
    ``rest``: where the outlines ``most`` left unread go (one iterator of them, for ``REST_LOOK``).
    The best: the surest (``score``); with ``PLANET_FIRST``, any planet (``is_planet``) before any
    outline that is not one, and only a planet read surely ends the reading (an outline whose
    lattice lies too poorly on the photo's edges to be a planet may match its tiles well: a
    neighbour's planet cut by the frame, or half on a tablecloth's stripes)."""
    outlines = iter(outlines)
    for n, outline in enumerate(outlines):
        if n == most:
            if rest is not None:
                rest.append(itertools.chain([outline], outlines))
            break
        v = read_outline(photo, outline, ex)
        if best is None or _ranked(v, ex) > _ranked(best, ex):
            best = v
        if best.score >= tuning.READ_SURE and (not tuning.PLANET_FIRST or is_planet(best, ex)):
            break
    return best


def _ranked(v: Verdict, ex: Exemplars) -> tuple:
    """How a reading ranks among the outlines read (``_read_in_turn``): by its score, a planet
    before any outline that is not one (``PLANET_FIRST``)."""
    return (tuning.PLANET_FIRST and is_planet(v, ex), v.score)


def _read_flattened(photo: Photo, ex: Exemplars, best: Verdict | None, rest: list | None = None,
                    kept: dict | None = None, only: Callable | None = None) -> Verdict | None:
    """No outline read as a planet: look for outlines again in the photo with its slow light taken
    out (``stages.flattened``: a strong vignette or a lamp's fall-off had hidden the planet's
    outline, heldout3's and heldout4's refused planets); each is read from the photo itself.
    ``rest``: as ``_read_in_turn``'s. ``kept``: the photo's (``stages.flattened_outlines``).
    ``only``: what the outlines go through first (``read_photo``'s ``where``)."""
    outlines = flattened_outlines(photo, kept)
    return _read_in_turn(photo, outlines if only is None else only(outlines), ex, best, tuning.FLAT_OUTLINES, rest)


def is_planet(v: Verdict | None, ex: Exemplars) -> bool:
    """An outline read as a planet: its lattice on the photo's edges, its faces matching their
    tiles (``face_match``, ``PLANET_FACES``: a table's grain or cloth can pass for a stack's back,
    never for the drawings on the faces), and either the fit with the stacks' looks and the match
    together (``score``, ``PLANET_SCORE``; a box taught in part matches its untaught tiles poorly)
    or the match weighed over the fit (``planet``, ``PLANET_MATCH``; a lamp's fall-off or a hard
    shadow lowers the fit)."""
    return (v is not None and v.outline.fit >= tuning.PLANET_LATTICE
            and face_match(v, ex) >= tuning.PLANET_FACES
            and (v.score >= tuning.PLANET_SCORE or v.planet >= tuning.PLANET_MATCH))


def face_match(v: Verdict, ex: Exemplars) -> float:
    """The mean match of the cells read face up (a planet always has some: its corners'
    characters are never face down)."""
    face = [q for q, r in enumerate(v.rows) if ex.names[r] != "back"]
    return float(np.mean(v.sims[face])) if face else 0.0


def sureness(v: Verdict, ex: Exemplars | None = None) -> np.ndarray:
    """Per cell, how surely its tile is told from every tile with other contents: the margin to
    the runner-up, plus what the runner-up test (``tell_lookalikes``), the match and the fit
    with the stack's look add (``tuning.SURE_*``), and how surely the photo's cells are told apart
    as a whole (``SURE_PHOTO`` × the median margin of the 16: in a photo read poorly a cell's own
    margin says less). With ``ex`` (and the verdict's order): the tile's lead in the order too
    (``order_margins``, ``SURE_ORDER``), less what its tile matches another cell better
    (``hubs``, ``SURE_HUB``; a tile matching this cell far better than its stack's other cells
    earns at most ``HUB_FLOOR``'s worth: that sets it apart from those cells' tiles, not from a
    look-alike runner-up). Under ``BOX_SURE`` a cell is doubtful."""
    sure = (v.margins + tuning.SURE_PAIR * np.minimum(v.pairs, tuning.PAIR_CAP)
            + tuning.SURE_SIM * (v.sims - tuning.SURE_SIM_AT) + tuning.SURE_FIT * (v.fits - tuning.SURE_FIT_AT)
            + tuning.SURE_PHOTO * float(np.median(v.margins)))
    if ex is not None and v.order is not None:
        sure = sure + tuning.SURE_ORDER * order_margins(v, ex) - tuning.SURE_HUB * np.maximum(hubs(v, ex), tuning.HUB_FLOOR)
    return sure


def order_margins(v: Verdict, ex: Exemplars) -> np.ndarray:
    """Per cell, its tile's lead in what orders the tiles (``Verdict.order``: the sharper match,
    with the box's blend) over the best tile of other contents its position allows (-1 when
    none): the margin as the order sees it, where ``margins`` keeps the smaller of the match's and
    the order's (a tile a look-alike took over, ``tell_lookalikes``, trails: negative)."""
    out = np.zeros(16, np.float32)
    for q in range(16):
        a, at = v.rows[q], v.order[q].tolist()
        others = [at[j] for j in ex.rows_of[STACK_AT[q]] if ex.contents[j] != ex.contents[a] and at[j] > -1]
        out[q] = at[a] - (max(others) if others else -1.0)
    return out


def hubs(v: Verdict, ex: Exemplars) -> np.ndarray:
    """Per face cell, how much better its tile matches (in ``Verdict.order``) another face cell of
    its stack than this one (negative: worse; 0 for a back or a cell alone): a tile whose look is
    plain matches every cell of its stack about as well (heldout8's dim downhill tiles, D06 and D08,
    read wrong in one photo after another, their margins clear)."""
    out = np.zeros(16, np.float32)
    faces = [ex.names[r] != "back" for r in v.rows]
    for q in range(16):
        if not faces[q]:
            continue
        a = v.rows[q]
        others = [float(v.order[p, a]) for p in range(16) if p != q and faces[p] and STACK_AT[p] == STACK_AT[q]]
        if others:
            out[q] = max(others) - float(v.order[q, a])
    return out


def sureness_bars(bar: float | None = None) -> np.ndarray:
    """Per cell, the sureness under which it is doubtful: ``BOX_SURE`` (or ``bar``: ``LOOK_SURE``, the
    reader's own working bar), for the corners' characters ``CHARACTER_SURE`` when ``CHARACTER_BAR`` is on
    (tuning's doubt-bar round under the tile-size cut)."""
    bar = tuning.BOX_SURE if bar is None else bar
    return np.array([tuning.CHARACTER_SURE if tuning.CHARACTER_BAR and STACK_AT[q] == "character" else bar
                     for q in range(16)])


def confidence(v: Verdict, lacking: frozenset = frozenset(), backs=None, ex: Exemplars | None = None,
               bar: float | None = None, sure: np.ndarray | None = None) -> np.ndarray:
    """Per cell, in [0, 1]; under ``DOUBT`` doubtful. A cell of a stack the box has not
    learned whole (``lacking``) may show a tile never learned: in the doubt shown (``bar`` None,
    ``UNLEARNED_ALL``) it is doubtful whatever its match and margin; at the reader's working bar,
    when its match is under ``UNLEARNED_SIM`` (where right cells' matches seldom are). So is a cell
    read as a back (``backs``: per cell) that matches it under ``BACK_SIM``. ``ex``: the doubt's
    terms from the order (``sureness``). The bar of the sureness is ``BOX_SURE``, for the corners'
    characters ``CHARACTER_SURE`` when ``CHARACTER_BAR`` is on; ``bar``: another than ``BOX_SURE`` (the
    reader's working bar ``LOOK_SURE``: which cells the second look takes, which teaching counts sure);
    ``sure``: ``sureness(v, ex)`` when already made."""
    by_sureness = np.clip((sureness(v, ex) if sure is None else sure) / (2 * sureness_bars(bar)), 0, 1)
    by_match = np.clip((v.sims - tuning.BOX_SIM_FLOOR) / tuning.BOX_SIM_SPAN, 0, 1)
    conf = np.minimum(by_sureness, by_match)
    lacks = np.array([STACK_AT[q] in lacking for q in range(16)])
    unsure = lacks & (v.sims < tuning.UNLEARNED_SIM)
    conf = np.where(unsure, np.minimum(conf, tuning.DOUBT * np.clip(v.sims, 0, None) / tuning.UNLEARNED_SIM), conf)
    if bar is None and tuning.UNLEARNED_ALL:   # the doubt shown: any cell may be a tile never learned
        conf = np.where(lacks, np.minimum(conf, tuning.DOUBT - 0.01), conf)
    if backs is not None:  # a back is one flat picture: read as one but matching it poorly, doubtful
        poor = np.asarray(backs, bool) & (v.sims < tuning.BACK_SIM)
        conf = np.where(poor, np.minimum(conf, tuning.DOUBT * np.clip(v.sims, 0, None) / tuning.BACK_SIM), conf)
    return conf


def box_with_blend(box):
    """``box`` (vision.box.Box) with its blend (``descriptors.choose_blend``) worked out and kept
    in it: what ``exemplars_in`` would work out each time it builds the box's exemplars (0.9-3.2 s
    a box)."""
    if not tuning.BLEND or not box.samples:
        return box
    ex = with_blend(exemplars_of(box.references(), box.outward()))
    return box.with_blend(ex.blend, ex.blend_scale, blend_tag())


# --- the whole reading --------------------------------------------------------------------

_CACHE: dict = {}


def exemplars_of_box(box) -> Exemplars:
    """The exemplars a learned box (vision.box.Box) is read with: its tiles, the blend kept in
    it (worked out when none is), its tiles' own size in their cells."""
    return replace(with_blend(exemplars_of(box.references(), box.outward()), box.stored_blend(blend_tag())),
                   frame=box.frame())


def exemplars_in(folder) -> Exemplars:
    """The exemplars of the box learned into ``folder``, rebuilt when its files change."""
    from pathlib import Path

    from .box import load_box
    from .index import files_key
    folder = Path(folder)
    key = files_key(folder)
    hit = _CACHE.get(str(folder))
    if hit is not None and hit[0] == key:
        return hit[1]
    box = load_box(folder)
    if not box.samples:
        raise FileNotFoundError(f"no learned box in {folder}")
    ex = exemplars_of_box(box)
    # the faces as tell_lookalikes slides them over the cells (at FINE_PX too), made once per
    # box rather than during a reading: their spectra at the cells' size
    cell, fine = detail_sides()
    for row, name in enumerate(ex.names):
        if name != "back":
            _slider(ex, row).warm((cell, cell))
            if tuning.FINE:
                _slider(ex, row, fine=True).warm((fine, fine))
    _CACHE[str(folder)] = (key, ex)
    return ex


def _doubts(v: Verdict, ex: Exemplars) -> tuple[np.ndarray, np.ndarray]:
    """A reading's confidences at the doubt shown (``BOX_SURE``) and at the reader's working bar
    (``LOOK_SURE``: what the second look takes), from one sureness."""
    backs = [ex.names[r] == "back" for r in v.rows]
    sure = sureness(v, ex)
    return (confidence(v, ex.lacking, backs, ex, sure=sure),
            confidence(v, ex.lacking, backs, ex, bar=tuning.LOOK_SURE, sure=sure))


def likely_of(v: Verdict, ex: Exemplars) -> list:
    """Per cell, the next likeliest tiles after the one read (``reading.likely_tiles``), by what
    orders the tiles (``Verdict.order``) among those its stack allows; where the search look
    compared the cell with its likeliest tiles (``Verdict.searched``), the ``SEARCH_PICKER_FIRST``
    it ranked best (other than the tile read) first: it tells the likeliest tile apart better than
    the match that chose them, which orders the rest."""
    order = v.order if v.order is not None else v.base
    if order is None:
        return [[] for _ in range(16)]
    candidates = []
    for q in range(16):
        own, at = ex.contents[v.rows[q]], order[q].tolist()   # the same values as Python floats
        first = [j for j in v.searched.get(q, ()) if ex.contents[j] != own][:tuning.SEARCH_PICKER_FIRST]
        rows = first + sorted((j for j in ex.rows_of[STACK_AT[q]] if at[j] > -1 and j not in first), key=lambda j: -at[j])
        candidates.append([(ex.names[j], -float(i)) for i, j in enumerate(rows)])   # in that order
    return likely_tiles(candidates, [ex.names[r] for r in v.rows], _content)


def read_box(data: bytes, ex: Exemplars) -> Reading:
    """Read the planet in a photo of a learned box. Raises nothing for a bad photo."""
    try:
        photo = decode_photo(data)
    except UnusableImage as exc:
        return Reading(ok=False, error=str(exc))
    with one_thread():   # no-op when recognize() already holds it
        v = read_photo(photo, ex)
        first, seen = None, photo   # the first reading's rows and doubt when a finer one is kept; the photo
        if is_planet(v, ex):        # the runner-up tests at FINE_PX are cut from (None: not made)
            finer, region = read_finer(data, photo, v, ex)
            if finer is not v:
                if tuning.SMALL_BOUND:
                    c = tell_lookalikes(v, ex, photo) if tuning.SMALL_BOUND_TOLD else v
                    first = (c.rows, *_doubts(c, ex))
                v, photo = finer, region
                seen = region if tuning.SMALL_FINE_TEST else None
            v = tell_lookalikes(v, ex, seen)
        planet = is_planet(v, ex)   # judged before look_again, which leaves the doubt as it was
        if planet:
            v = face_down_in_threes(v, ex)
            conf, looked = _doubts(v, ex)
            if first is not None:
                rows0, conf0, looked0 = first
                conf, looked = bounded(conf, v.rows, (rows0, conf0), ex), bounded(looked, v.rows, (rows0, looked0), ex)
            again = look_again(v, ex, seen, looked)
            v = look_zoomed(again, ex, looked, frozenset(q for q in range(16) if again.rows[q] != v.rows[q]))
            v = look_searched(v, ex, photo, looked)
    if not planet or v is None:
        return Reading(ok=False, error=_(NO_PLANET),
                       score=float(np.mean(v.sims)) if v is not None else 0.0)
    return Reading(ok=True, cells=[ex.names[r] for r in v.rows], confidences=[round(float(c), 3) for c in conf],
                   doubtful=[bool(c < tuning.DOUBT) for c in conf], score=float(np.mean(v.sims)),
                   likely=likely_of(v, ex),
                   quad=photo.in_file(v.outline.corners).tolist(),
                   details={"sims": [float(x) for x in v.sims], "margins": [float(x) for x in v.margins],
                            "fits": [float(x) for x in v.fits],
                            "pairs": [float(x) for x in v.pairs], "lattice": v.outline.fit, "scale": photo.scale})
