"""The second look's batched runner-up tests (reader.look_again, branch vision28) give what the
plain pair-by-pair test gives.

``stages.tell_apart_all`` tells a doubtful cell's few likeliest tiles apart two by two, all pairs at
once (``stages._told_all``: the exemplars' spreads from integral images kept per box, the pairs'
differences blurred as one picture, the weighted correlations as matrix products in float64). It is
compared here with the test written out plainly (``_plain_told``: each exemplar placed by
``cv2.matchTemplate`` turn after turn, then each pair on its own as ``stages.tell_apart`` describes
it), on real cells: box2's learned box and the cells of its test photos as the reader cuts them, at
CELL_PX and at FINE_PX. No timing: speed is measured by ``python -m vision.bench``.
"""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import stages, tuning
from vision.layout import STACK_AT
from vision.reader import _fine_cell, _slider, exemplars_in, is_planet, read_photo, tell_lookalikes

BOX2 = Path(__file__).resolve().parent.parent / "sample_photos" / "box2" / "test"
PHOTOS = ("p01.jpg", "p17.jpg")


def _plain_place(cell: np.ndarray, turns: np.ndarray) -> tuple[int, int, np.ndarray]:
    """Where and at which turn an exemplar (its turns, (angles, m, m, 3)) fits the cell best: the
    first best of ``cv2.matchTemplate`` (TM_CCOEFF_NORMED) turn after turn."""
    best = None
    for t in turns:
        _, score, _, (x, y) = cv2.minMaxLoc(cv2.matchTemplate(cell, t, cv2.TM_CCOEFF_NORMED))
        if best is None or score > best[0]:
            best = (score, y, x, t)
    return best[1], best[2], best[3]


def _plain_ncc(c: np.ndarray, e: np.ndarray, w: np.ndarray) -> float:
    """The weighted normalized correlation of two pictures (each less its weighted mean per channel)."""
    ws = float(w.sum()) + 1e-6
    w3 = w[..., None].astype(np.float64)
    c = c.astype(np.float64) - (c * w3).sum((0, 1)) / ws
    e = e.astype(np.float64) - (e * w3).sum((0, 1)) / ws
    return float((c * e * w3).sum() / np.sqrt((c * c * w3).sum() * (e * e * w3).sum() + 1e-9))


def _plain_told(cell: np.ndarray, exemplars: list, blur: float) -> np.ndarray:
    """(k, k): each pair of exemplars told apart on its own: both placed on a canvas the cell's
    size, each scaled by its spread where both lie, their difference summed over the channels and
    blurred, squared as a part of its highest where both lie (0 elsewhere), and the cell correlated
    with each there."""
    placed = [_plain_place(cell, e) for e in exemplars]
    k = len(placed)
    out = np.zeros((k, k))
    for a in range(k):
        for b in range(a + 1, k):
            canvases, wheres = [], []
            for y, x, t in (placed[a], placed[b]):
                canvas, where = np.zeros_like(cell), np.zeros(cell.shape[:2], bool)
                canvas[y:y + t.shape[0], x:x + t.shape[1]] = t
                where[y:y + t.shape[0], x:x + t.shape[1]] = True
                canvases.append(canvas)
                wheres.append(where)
            both = wheres[0] & wheres[1]
            na, nb = (c / (float(c[both].std()) + 1e-6) for c in canvases)
            w = cv2.GaussianBlur(np.abs(na - nb).sum(axis=2), (0, 0), blur) * both
            w = (w / (float(w.max()) + 1e-6)) ** 2
            out[a, b] = _plain_ncc(cell, canvases[0], w) - _plain_ncc(cell, canvases[1], w)
            out[b, a] = -out[a, b]
    return out


def _likeliest(v, ex, q: int) -> list[int]:
    """Cell ``q``'s tile and the best tiles of other contents its position allows,
    ``SECOND_LOOK_TILES`` in all (as ``reader.look_again`` picks them)."""
    at = v.order[q].tolist()
    tiles, seen = [v.rows[q]], {ex.contents[v.rows[q]]}
    for j in sorted(ex.rows_of[STACK_AT[q]], key=lambda j: -at[j]):
        if len(tiles) == tuning.SECOND_LOOK_TILES:
            break
        if ex.names[j] != "back" and at[j] > -1 and ex.contents[j] not in seen:
            tiles.append(j)
            seen.add(ex.contents[j])
    return tiles


@pytest.fixture(scope="module")
def second_looks(box2_learned):
    """box2's exemplars and, per face cell of its planets read, (the cell's detail, its likeliest
    rows, its detail at FINE_PX: cut there whether or not the reader would, ``_finer``, as box2's
    cells cover fewer than FINE_MIN_PX pixels of the decode)."""
    ex = exemplars_in(box2_learned)
    out = []
    with stages.one_thread():
        for name in PHOTOS:
            photo = stages.decode_photo((BOX2 / name).read_bytes())
            v = read_photo(photo, ex)
            assert is_planet(v, ex)
            v = tell_lookalikes(v, ex, photo)
            fine = v.fine
            for q in range(16):
                if ex.names[v.rows[q]] == "back":
                    continue
                fine, fcell = _fine_cell(v, ex, photo, fine, q)
                out.append((v.details[q], _likeliest(v, ex, q), fcell))
    return ex, out


def test_the_second_looks_pairs_told_at_once_as_one_by_one(second_looks):
    """Every pair of each face cell's likeliest tiles, told apart at once, at CELL_PX and FINE_PX,
    gives the plain pair-by-pair value to 1e-4 (float32 rounding: the plain test runs in float64,
    the reader's in float32 where the plain one does), the same sign wherever it is not near 0, and
    the same tile beating the most (what look_again takes)."""
    ex, cells = second_looks
    fine_blur = tuning.PAIR_BLUR * tuning.FINE_PX / tuning.CELL_PX
    compared = fine_compared = 0
    worst = 0.0
    with stages.one_thread():
        for cell, tiles, fcell in cells:
            tests = [(cell, [_slider(ex, j) for j in tiles], [ex.turned[j] for j in tiles], tuning.PAIR_BLUR),
                     (fcell, [_slider(ex, j, fine=True) for j in tiles],
                      [_slider(ex, j, fine=True).originals for j in tiles], fine_blur)]
            for c, sliders, turned, blur in tests:
                got = stages.tell_apart_all(c, sliders, blur)
                want = _plain_told(c, turned, blur)
                assert got.shape == want.shape == (len(tiles), len(tiles))
                worst = max(worst, float(np.abs(got - want).max()))
                sure = np.abs(want) > 1e-3
                assert np.array_equal(np.sign(got[sure]), np.sign(want[sure]))
                wins = lambda t: (t > 0).sum(axis=1) + 1e-3 * t.sum(axis=1)
                assert int(np.argmax(wins(got))) == int(np.argmax(wins(want)))
                compared += 1
                fine_compared += c is fcell
    assert worst < 1e-4, worst
    assert compared >= 40 and fine_compared >= 20, (compared, fine_compared)
    assert any(len(t) == tuning.SECOND_LOOK_TILES for _, t, _ in cells)


def test_a_pair_told_by_the_runner_up_test_is_the_batched_pair(second_looks):
    """``stages.tell_apart`` (the runner-up test of tell_lookalikes, one pair) and the batched
    form agree on real cells: a pair's value does not depend on which other tiles are told with it."""
    ex, cells = second_looks
    with stages.one_thread():
        for cell, tiles, _ in cells[:8]:
            sliders = [_slider(ex, j) for j in tiles]
            told = stages.tell_apart_all(cell, sliders)
            for a, b in ((0, 1), (0, len(tiles) - 1)):
                pair = stages.tell_apart(cell, sliders[a], sliders[b])
                assert abs(told[a, b] - pair) < 1e-4 and told[b, a] == -told[a, b]
                assert abs(stages.tell_apart_all(cell, [sliders[a], sliders[b]])[0, 1] - pair) < 1e-4
