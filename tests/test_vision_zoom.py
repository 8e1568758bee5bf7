"""A tile lying smaller or larger in its cell than teaching cut it (issue 8's zoom round,
``tuning.ZOOM_LOOK``).

The match slides and turns each exemplar over a cell but never scales it, so a loose tile, or an
outline pulled out at a corner by one, that lies at 0.9 of the size it is cut at is matched
poorly by its own tile and a look-alike may win (seeds 42 and 44's K14 read as K03). The stage
after the doubt (``reader.look_zoomed``) cuts each doubtful face cell again at a few zooms
(``stages.zoomed_tile``) and lets the best match over them choose, without lifting the doubt."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import reader, stages, tuning
from vision.bench import compare, load_truth

ROOT = Path(__file__).resolve().parent.parent
P01 = ROOT / "sample_photos" / "box2" / "test" / "p01.jpg"


def _side_of_bright(tile: np.ndarray) -> int:
    """The side of the bright square in a cut tile (its bright columns in the middle row)."""
    row = tile[tile.shape[0] // 2, :, 0]
    return int((row > 128).sum())


@pytest.mark.parametrize("zoom", [0.8, 0.9, 1.0, 1.1, 1.25])
def test_a_zoomed_cut_shows_the_tile_at_one_over_the_zoom(zoom):
    """Cut at ``zoom``, a square of side 24 px lying in the window shows 24 / ``zoom`` px wide: a
    tile lying at 0.8 of the size it was cut at is brought back to its taught size."""
    n, size = 90, tuning.CELL_PX
    win = np.full((n, n, 3), 40, np.uint8)
    win[33:57, 33:57] = 230                                  # a 24 px square centred at (45, 45)
    cut = stages.zoomed_tile(win, 45.0, 45.0, 0.0, size, zoom)
    assert cut.shape == (size, size, 3)
    assert abs(_side_of_bright(cut) - 24 / zoom) <= 1.5


def test_a_zoomed_cut_keeps_the_turn_it_was_cut_at():
    """The zoomed cut turns back by the angle the tile was found at (``Aligned.angles``: the turn it
    lies at, in ``cv2.getRotationMatrix2D``'s sense), as the first cut did: a bar turned 10° in the
    window comes out level."""
    n, size = 90, tuning.CELL_PX
    win = np.full((n, n, 3), 40, np.uint8)
    cv2.rectangle(win, (25, 42), (65, 48), (230, 230, 230), -1)
    M = cv2.getRotationMatrix2D((45.0, 45.0), 10.0, 1.0)
    turned = cv2.warpAffine(win, M, (n, n), borderMode=cv2.BORDER_REPLICATE)
    flat = stages.zoomed_tile(turned, 45.0, 45.0, 10.0, size, 0.9)
    ys = np.nonzero(flat[:, :, 0] > 128)
    assert ys[0].max() - ys[0].min() <= 9        # a level bar, ~6.7 px thick at this zoom
    assert ys[1].max() - ys[1].min() >= 40       # … and 40 / 0.9 px long


@pytest.mark.parametrize("photo", ["p01.jpg", "p28.jpg"])
def test_a_cell_cut_again_at_zoom_1_is_the_tile_as_read(box2_learned, photo):
    """Each cell cut again from the verdict's own cells where and at the turn it was found
    (``Aligned.centres``, ``Aligned.angles``) at zoom 1 is the very tile the reading matched, the
    same floats: the centres found by their own square included (p28's loose C14,
    ``reader._centres_by_square``)."""
    ex = reader.exemplars_in(box2_learned)
    with stages.one_thread():
        v = reader.read_photo(stages.decode_photo((P01.parent / photo).read_bytes()), ex)
    assert v.cells is not None and v.aligned.angles is not None
    for q in range(16):
        cx, cy = (float(c) for c in v.aligned.centres[q])
        again = stages.zoomed_tile(v.cells.windows[q], cx, cy, float(v.aligned.angles[q]), tuning.CELL_PX, 1.0)
        assert np.array_equal(again, v.aligned.tiles[q]), q


def _reclassified(box2_learned, photo: str, q: int, tile: str, warp):
    """box2's ``photo``, read right, with its cell ``q`` (``tile``) warped in its window by ``warp``
    (the tile's centre -> a 2×3 matrix): the reading and the reading classified again from those
    cells."""
    ex = reader.exemplars_in(box2_learned)
    path = P01.with_name(photo)
    with stages.one_thread():
        v = reader.read_photo(stages.decode_photo(path.read_bytes()), ex)
    assert all(compare([ex.names[r] for r in v.rows], load_truth(path.with_suffix(".json")))[0])
    assert ex.names[v.rows[q]] == tile
    win = v.cells.windows[q]
    windows = v.cells.windows.copy()
    windows[q] = cv2.warpAffine(win, warp(*(float(c) for c in v.aligned.centres[q])), win.shape[1::-1],
                                flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    cells = replace(v.cells, windows=windows)
    with stages.one_thread():
        return ex, v, reader.classify(cells, stages.align_cells(cells, ex.looks), ex, v.outline, v.turn)


@pytest.fixture(scope="module")
def shrunk_k09(box2_learned):
    """box2's p01, read right, with its cell 12 (K09, a character with a look-alike, K04) shrunk to
    0.9 of its size about the tile's centre: the reading classified again from those cells."""
    ex, v, shrunk = _reclassified(box2_learned, "p01.jpg", 12, "K09",
                                  lambda cx, cy: cv2.getRotationMatrix2D((cx, cy), 0.0, 0.9))
    return ex, v, shrunk, 12


def test_a_tile_lying_smaller_than_its_cut_is_read_by_the_zoomed_look(shrunk_k09, monkeypatch):
    """Shrunk to 0.9, the match reads K09's cell as K04; looked at again cut at the zooms (the moved
    cuts left out, so that the zooms alone are tested), it is K09, its margin negative (still
    doubtful), and no other cell changes."""
    monkeypatch.setattr(tuning, "ZOOM_LOOK_SHIFTS", ())
    ex, v, shrunk, q = shrunk_k09
    assert ex.names[shrunk.rows[q]] == "K04"
    conf = np.ones(16, np.float32)
    conf[q] = 0.0
    with stages.one_thread():
        again = reader.look_zoomed(shrunk, ex, conf)
    assert ex.names[again.rows[q]] == "K09"
    assert again.margins[q] < 0
    assert ex.names[again.runners[q]] == "K04"
    assert [r for k, r in enumerate(again.rows) if k != q] == [r for k, r in enumerate(shrunk.rows) if k != q]


def test_the_zoomed_look_leaves_sure_cells_and_ids_held_elsewhere(shrunk_k09):
    """A cell not doubtful is not looked at again; nor is a tile taken that another cell of the
    planet holds (an id once per planet)."""
    ex, v, shrunk, q = shrunk_k09
    with stages.one_thread():
        sure = reader.look_zoomed(shrunk, ex, np.ones(16, np.float32))
        assert sure.rows == shrunk.rows
        other = next(k for k in range(16) if k != q and stages.STACK_AT[k] == "character")
        rows = list(shrunk.rows)
        rows[other] = ex.names.index("K09")
        held = replace(shrunk, rows=tuple(rows))
        conf = np.ones(16, np.float32)
        conf[q] = 0.0
        assert reader.look_zoomed(held, ex, conf).rows == held.rows


def test_the_zoomed_look_is_off_with_its_setting(shrunk_k09, monkeypatch):
    ex, v, shrunk, q = shrunk_k09
    monkeypatch.setattr(tuning, "ZOOM_LOOK", False)
    conf = np.zeros(16, np.float32)
    assert reader.look_zoomed(shrunk, ex, conf) is shrunk


def test_a_tile_the_match_preferred_as_cut_is_not_brought_back_by_the_zooms(box2_learned, monkeypatch):
    """box2's p15: one downhill cell shows U01 (a grey sheep), which the match as cut ranks under
    U02 (an elephant of the same grey); the look-alike test before (``tell_lookalikes``) reads it
    U01, rightly. The zooms match U02 no better than the cut as it was, so the zoomed look, even
    with every cell doubtful, leaves the sheep: it changes only what a zoom changes."""
    ex = reader.exemplars_in(box2_learned)
    p15 = P01.with_name("p15.jpg")
    seen = []
    real = reader.look_zoomed
    monkeypatch.setattr(reader, "look_zoomed", lambda v, ex, conf, settled=frozenset(): seen.append(v) or real(v, ex, conf, settled))
    got = reader.read_box(p15.read_bytes(), ex)
    assert all(compare(got.cells, load_truth(p15.with_suffix(".json")))[0])
    v = seen[0]
    u01, u02 = ex.names.index("U01"), ex.names.index("U02")
    q = v.rows.index(u01)
    assert v.base[q, u02] > v.base[q, u01]       # the match as cut prefers the elephant
    with stages.one_thread():
        again = real(v, ex, np.zeros(16, np.float32))
    assert again.rows[q] == u01


def test_match_takes_more_tiles_of_a_stack_than_opencv_blurs_at_once(box2_learned):
    """``match`` blurs a stack's tiles as one picture of 3 channels each, and OpenCV 5 blurs at most
    128 channels at once: 48 tiles of one stack (twelve cuts of four cells) are taken in parts, with
    the same floats as each tile matched on its own."""
    ex = reader.exemplars_in(box2_learned)
    with stages.one_thread():
        v = reader.read_photo(stages.decode_photo(P01.read_bytes()), ex)
    qs = [q for q in range(16) if stages.STACK_AT[q] == "center"]
    rng = np.random.default_rng(7)
    tiles = []
    for k in range(48):
        q = qs[k % 4]
        cx, cy = (float(c) for c in v.aligned.centres[q])
        tiles.append(stages.zoomed_tile(v.cells.windows[q], cx + rng.uniform(-3, 3), cy + rng.uniform(-3, 3),
                                        float(v.aligned.angles[q]), tuning.CELL_PX, rng.uniform(0.9, 1.1)))
    many = stages.Aligned(np.stack(tiles), v.aligned.fits, v.aligned.centres)
    with stages.one_thread():
        together = stages.match(many, ex.filters, ex.rows_of, ex.means, ex.backs, at={"center": range(48)})
        alone = [stages.match(stages.Aligned(np.stack([t]), v.aligned.fits, v.aligned.centres), ex.filters,
                              ex.rows_of, ex.means, ex.backs, at={"center": [0]})[0] for t in tiles]
    assert np.array_equal(together, np.stack(alone))


@pytest.fixture(scope="module")
def moved_d14(box2_learned):
    """box2's p12, read right, with its cell 2 (D14) moved 7.5 px right and 3.75 px down in its
    window (0.16 of a tile: past the match's slack of 6 px), classified again from those cells."""
    ex, _, moved = _reclassified(box2_learned, "p12.jpg", 2, "D14",
                                 lambda cx, cy: np.float32([[1, 0, 7.5], [0, 1, 3.75]]))
    return ex, moved, 2


def test_a_tile_lying_past_the_slack_is_read_by_a_moved_cut(moved_d14, monkeypatch):
    """Moved 0.16 of a tile, the match reads D14's cell as D12 and the zooms alone do not bring
    it back; the cuts moved by ``ZOOM_LOOK_SHIFTS`` read it D14, still doubtful."""
    ex, moved, q = moved_d14
    assert ex.names[moved.rows[q]] == "D12"
    conf = np.ones(16, np.float32)
    conf[q] = 0.0
    with stages.one_thread():
        monkeypatch.setattr(tuning, "ZOOM_LOOK_SHIFTS", ())
        assert ex.names[reader.look_zoomed(moved, ex, conf).rows[q]] == "D12"
        monkeypatch.undo()
        again = reader.look_zoomed(moved, ex, conf)
    assert ex.names[again.rows[q]] == "D14"
    assert again.margins[q] < 0
