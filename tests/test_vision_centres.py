"""A centre tile found by its own square (issue 8's centres round, ``tuning.CENTRES_BY_SQUARE``).

The reader finds each tile in its cell by the look its stack shares; a centre tile's look is the
ground all centres share, so where the lattice lies off a loose centre tile the look leaves the
tile where the lattice put it. Each centre cell is also found by its own square
(``stages.squares_aligned``) and kept so where its tiles match better (``reader._centres_by_square``)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision import reader, stages, tuning
from vision.bench import compare, load_truth, rotations
from vision.recognize import recognize

ROOT = Path(__file__).resolve().parent.parent
P28 = ROOT / "sample_photos" / "box2" / "test" / "p28.jpg"
CENTRES = [5, 6, 9, 10]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), corner=st.integers(6, 18), side=st.integers(40, 50),
       nx=st.floats(-0.12, 0.12), ny=st.floats(-0.12, 0.12), within=st.sampled_from([0.05, 0.15, 0.3]))
def test_square_near_finds_the_square_frame_of_finds(seed, corner, side, nx, ny, within):
    """``square_near`` is ``frame_of`` made faster for a small reach: the same square, turn and score
    on a noisy window with a tile's border drawn in it."""
    rng = np.random.default_rng(seed)
    n, size = 70, tuning.CELL_PX
    win = (rng.random((n, n, 3)) * 120 + 60).astype(np.uint8)
    end = min(n - 1, corner + side)
    win[corner:end, corner] = 250
    win[corner:end, end] = 250
    win[corner, corner:end] = 10
    win[end, corner:end] = 10
    args = (win, size, (nx, ny), within, tuning.SQUARE_ANGLES, tuning.SQUARE_SIZES)
    slow, fast = stages.frame_of(*args), stages.square_near(*args)
    assert fast[1:] == slow[1:]
    assert abs(fast[0] - slow[0]) < 1e-4


def test_a_centre_tile_off_its_lattice_cell_is_read_by_its_own_square(box2_learned):
    """sample_photos/box2's p28: its C14 lies loose, 7.5 px (0.15 of a tile at CELL_PX) below where
    the lattice and the centres' look put it, past the match's slack: found there it matches its
    own tile at 0.65 and the planet read it as C19. Found by its own square it matches at 0.94, and
    the planet is read right."""
    ex = reader.exemplars_in(box2_learned)
    truth = load_truth(P28.with_suffix(".json"))
    photo = stages.decode_photo(P28.read_bytes())
    v = reader.read_photo(photo, ex)
    cells = stages.cut_cells(photo, v.outline, None, tile=reader.read_tile(ex))
    looked = stages.align_cells(cells, ex.looks)
    squared = stages.squares_aligned(cells, looked, CENTRES)
    _, k = compare([ex.names[r] for r in v.rows], truth)
    q = rotations(list(range(16)))[k][truth.index("C14")]
    assert q in CENTRES
    c14 = [j for j, name in enumerate(ex.names) if name == "C14"]
    rows = {"center": ex.rows_of["center"]}
    on_look = stages.match(looked, ex.filters, rows, ex.means, ex.backs)[q, c14].max()
    on_square = stages.match(squared, ex.filters, rows, ex.means, ex.backs)[q, c14].max()
    assert on_square > on_look + 0.2, (on_look, on_square)
    assert np.hypot(*(squared.centres[q] - looked.centres[q])) > 0.1 * tuning.CELL_PX

    reading = recognize(P28.read_bytes(), reference=str(box2_learned))
    assert reading.ok
    right, k = compare(reading.cells, truth)
    assert all(right), rotations(reading.cells)[k]


def test_a_centre_cell_keeps_the_looks_place_where_its_square_matches_worse(box2_learned):
    """The square is taken only where the cell's tiles match over ``SQUARE_GAIN`` better so: a centre
    cell whose square latched onto its art, or gains a hair, keeps the look's place."""
    ex = reader.exemplars_in(box2_learned)
    rows = {"center": ex.rows_of["center"]}
    kept_any = False
    for name in ("p01", "p02", "p03", "p04", "p05", "p06"):
        photo = stages.decode_photo((P28.parent / f"{name}.jpg").read_bytes())
        v = reader.read_photo(photo, ex)
        cells = stages.cut_cells(photo, v.outline, None, tile=reader.read_tile(ex))
        looked = stages.align_cells(cells, ex.looks)
        chosen = reader._centres_by_square(cells, looked, ex)
        squared = stages.squares_aligned(cells, looked, CENTRES)
        best = {what: stages.match(a, ex.filters, rows, ex.means, ex.backs).max(axis=1)
                for what, a in (("look", looked), ("square", squared), ("chosen", chosen))}
        for q in CENTRES:
            moves = best["square"][q] > best["look"][q] + tuning.SQUARE_GAIN
            assert best["chosen"][q] == (best["square"][q] if moves else best["look"][q])
            kept_any |= bool(not moves and best["square"][q] != best["look"][q])
    assert kept_any   # some cell's look was kept: the choice is made, not the square always taken


def test_match_of_any_tiles_of_a_stack_gives_each_tile_its_cells_floats(box2_learned):
    """``match(..., at=)``: the look's and the squares' centre tiles matched in one product give
    each tile the same floats as matched in its own cell (what ``_centres_by_square`` relies on)."""
    ex = reader.exemplars_in(box2_learned)
    rows = {"center": ex.rows_of["center"]}
    photo = stages.decode_photo(P28.read_bytes())
    v = reader.read_photo(photo, ex)
    cells = stages.cut_cells(photo, v.outline, None, tile=reader.read_tile(ex))
    looked = stages.align_cells(cells, ex.looks)
    squared = stages.squares_aligned(cells, looked, CENTRES)
    both = stages.Aligned(np.concatenate([looked.tiles[CENTRES], squared.tiles[CENTRES]]), looked.fits, looked.centres)
    together = stages.match(both, ex.filters, rows, ex.means, ex.backs, at={"center": range(8)})
    apart = np.concatenate([stages.match(a, ex.filters, rows, ex.means, ex.backs)[CENTRES] for a in (looked, squared)])
    assert together.shape == apart.shape
    assert np.array_equal(together, apart)
    assert (together.max(axis=1) > 0).all()
