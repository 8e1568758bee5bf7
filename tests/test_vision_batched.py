"""The box reader's batched stages give the floats of the one-at-a-time forms they replaced.

``align_cells`` slides each stack's cells at once (``stages.slide_each``), ``match`` describes
and windows all 16 cells at once, ``channels`` and ``gains`` take a stack of tiles. Each is
compared here, to the bit, with the plain form written out (what the reader did before), on
real cells: box2's learned box and cells cut from its test photos through the outlines the
reader reads. No timing: speed is measured by ``python -m vision.bench``.
"""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import stages, tuning
from vision.layout import STACK_AT
from vision.reader import exemplars_in

BOX2 = Path(__file__).resolve().parent.parent / "sample_photos" / "box2" / "test"
PHOTOS = ("p01.jpg", "p17.jpg", "n01.jpg")    # two planets and a photo without one


def _slide_one(img: np.ndarray, slider: stages.Slider) -> np.ndarray:
    """``stages.slide`` of one picture as it was: its spectrum alone, a full ``irfft2``."""
    img = img if img.ndim == 3 else img[..., None]
    h, w, ch = img.shape
    mh, mw = slider.shape
    rh, rw = h - mh + 1, w - mw + 1
    size = stages._dft_size((h, w))
    picture = np.fft.rfft2(np.moveaxis(img, 2, 0), s=size)
    s, sq = cv2.integral2(np.ascontiguousarray(img), sdepth=cv2.CV_64F, sqdepth=cv2.CV_64F)
    s, sq = s.reshape(h + 1, w + 1, ch), sq.reshape(h + 1, w + 1, ch)
    box = s[mh:, mw:] - s[:-mh, mw:] - s[mh:, :-mw] + s[:-mh, :-mw]
    box2 = sq[mh:, mw:] - sq[:-mh, mw:] - sq[mh:, :-mw] + sq[:-mh, :-mw]
    spread = np.sqrt(np.maximum(box2.sum(axis=2) - (box * box).sum(axis=2) / (mh * mw), 0))
    products = slider.spectra(size)
    acc = products[:, 0] * picture[0]
    for c in range(1, ch):
        acc += products[:, c] * picture[c]
    num = np.fft.irfft2(acc, s=size)[:, :rh, :rw].astype(np.float64)
    t = spread[None] * slider.norms[:, None, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        r = num / t
    odd = ~(np.abs(num) < t)
    if odd.any():
        r[odd] = np.where(np.abs(num[odd]) < t[odd] * 1.125, np.sign(num[odd]), 0.0)
    return r.astype(np.float32)


def _align_one_by_one(cells: stages.Cells, looks: dict) -> stages.Aligned:
    """``stages.align_cells`` as it was: each cell slid over its stack's looks on its own."""
    size, pad = tuning.CELL_PX, cells.pad
    i = int(round(size * tuning.ALIGN_INNER))
    tiles, fits, centres = [], [], []
    n = cells.windows.shape[1]
    grays = cv2.cvtColor(cells.windows.reshape(-1, n, 3), cv2.COLOR_BGR2GRAY).reshape(-1, n, n).astype(np.float32)
    for q in range(16):
        slider, cost = stages._looks_slider(looks[STACK_AT[q]])
        res = _slide_one(grays[q], slider)
        res -= stages._shift_cost(res.shape[1], pad)
        flat = res.reshape(len(res), -1)
        at = flat.argmax(axis=1)
        scores = flat[np.arange(len(res)), at] - cost
        k = int(np.argmax(scores))
        mx, a = float(scores[k]), slider.angles[k]
        y, x = divmod(int(at[k]), res.shape[2])
        if not mx > -2.0:
            mx, a, (x, y) = -2.0, 0.0, (pad + i, pad + i)
        cx, cy = x - i + size / 2, y - i + size / 2
        M = cv2.getRotationMatrix2D((cx, cy), -a, 1.0)
        M[0, 2] += size / 2 - cx
        M[1, 2] += size / 2 - cy
        tile = cv2.warpAffine(cells.windows[q], M, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        tiles.append(tile.astype(np.float32))
        fits.append(mx)
        centres.append((cx, cy))
    return stages.Aligned(np.stack(tiles), np.array(fits, np.float32), np.float32(centres))


def _plain_gain(mean: np.ndarray, tile: np.ndarray) -> np.ndarray:
    a = mean.reshape(-1, 3).mean(axis=0) + 1
    b = tile.reshape(-1, 3).mean(axis=0) + 1
    g = float(a.sum() / b.sum())
    return g * np.clip(a / b / g, 1 - tuning.GAIN_CLIP, 1 + tuning.GAIN_CLIP)


def _cell_detail_plain(tile: np.ndarray, mean: np.ndarray) -> np.ndarray:
    size, sl = tuning.CELL_PX, tuning.MATCH_SLACK
    i = stages._inner(size)
    cut = slice(i - sl, size - i + sl)
    return (stages._detail(tile)[cut, cut] * _plain_gain(mean, tile) - stages._detail(mean)[cut, cut]).astype(np.float32)


def _match_stack_by_stack(aligned, filters, rows_of, means, backs):
    """``stages.match`` as it was: each cell described on its own, each stack's windows apart."""
    size = tuning.CELL_PX
    i = stages._inner(size)
    m = (size - 2 * i) // 2
    sims = np.full((16, len(filters)), -1.0, np.float32)
    details = {}
    for st, rows in rows_of.items():
        cells = [q for q in range(16) if STACK_AT[q] == st]
        if not rows or not cells:
            continue
        back_rows, back_chromas, face_chroma = backs.get(st, ((), (), None))
        ds, down = [], []
        for q in cells:
            t = aligned.tiles[q]
            ds.append(_cell_detail_plain(t, means[st]))
            c = stages.chroma(t)
            down.append(bool(back_rows) and (min(float(np.abs(c - b).sum()) for b in back_chromas)
                                             < float(np.abs(c - face_chroma).sum())))
        r = np.array(rows)
        F = filters[r].reshape(-1, filters.shape[-1])
        W, length = stages._windows(stages._pool(np.stack(ds)).astype(np.float32), m)
        S = (W.reshape(-1, W.shape[-1]) @ F.T).reshape(len(cells), W.shape[1], len(r), -1)
        best = (S / length[:, :, None, None]).max(axis=(1, 3))
        is_back = np.array([j in back_rows for j in rows])
        for k, q in enumerate(cells):
            sims[q, r] = np.where(is_back == down[k], best[k], stages._other_kind(best[k]))
            details[q] = ds[k]
    return sims, details


@pytest.fixture(scope="module")
def readings(box2_learned):
    """box2's exemplars and, per photo, the cells cut through its first three outlines."""
    ex = exemplars_in(box2_learned)
    cut = []
    with stages.one_thread():
        for name in PHOTOS:
            photo = stages.decode_photo((BOX2 / name).read_bytes())
            for _, outline in zip(range(3), stages.outlines_in_turn(photo)):
                cut.append(stages.cut_cells(photo, outline, None))
    assert len(cut) >= 7
    return ex, cut


def test_a_stacks_cells_slid_at_once_as_one_by_one(readings):
    """stages.slide_each (the pictures' spectra in one call, the last inverse step on the rows
    kept) gives, per picture, the floats of the plain one-picture slide: the 16 grey windows of
    real cells against their looks, and colour cell details against turned exemplars."""
    ex, cut = readings
    for cells in cut[:3]:
        n = cells.windows.shape[1]
        grays = cv2.cvtColor(cells.windows.reshape(-1, n, 3), cv2.COLOR_BGR2GRAY).reshape(-1, n, n).astype(np.float32)
        slider, _ = stages._looks_slider(ex.looks["center"])
        many = stages.slide_each(grays, slider)[0]
        one = np.stack([_slide_one(g, slider) for g in grays])
        assert many.tobytes() == one.tobytes()
        assert len({float(r.max()) for r in one}) > 8          # the cells differ: the test can tell
    aligned = stages.align_cells(cut[0], ex.looks)
    tiles = stages.cell_details(aligned.tiles[:4], ex.means["character"])
    sliders = [stages.Slider(ex.turned[j]) for j in ex.rows_of["character"][:2]]
    both = stages.slide_each(tiles, *sliders)
    for j, cell in enumerate(tiles):
        for k, slider in enumerate(sliders):
            assert both[k][j].tobytes() == _slide_one(cell, slider).tobytes()
        assert [r.tobytes() for r in stages.slide(cell, *sliders)] == [b[j].tobytes() for b in both]


def test_cells_aligned_stack_by_stack_as_one_by_one(readings):
    """stages.align_cells (each stack's cells slid at once, their best places found at once) finds
    each tile where the cell-by-cell form did, to the bit: tiles, fits and centres."""
    ex, cut = readings
    moved = 0
    for cells in cut:
        got, want = stages.align_cells(cells, ex.looks), _align_one_by_one(cells, ex.looks)
        assert got.tiles.tobytes() == want.tiles.tobytes()
        assert got.fits.tobytes() == want.fits.tobytes()
        assert got.centres.tobytes() == want.centres.tobytes()
        moved += int((np.abs(want.centres - want.centres.mean()) > 0).sum())
    assert moved > 0


def test_cells_matched_at_once_as_stack_by_stack(readings):
    """stages.match (every cell's detail, windows and chroma at once, the best window found over
    one axis and then the turns) gives each cell's similarities and kept detail to the bit."""
    ex, cut = readings
    for cells in cut:
        aligned = stages.align_cells(cells, ex.looks)
        kept: dict = {}
        got = stages.match(aligned, ex.filters, ex.rows_of, ex.means, ex.backs, kept)
        want, details = _match_stack_by_stack(aligned, ex.filters, ex.rows_of, ex.means, ex.backs)
        assert got.tobytes() == want.tobytes()
        assert sorted(kept) == sorted(details) == list(range(16))
        assert all(kept[q].tobytes() == details[q].tobytes() for q in range(16))
        assert (got > -1).sum() > 100                          # real similarities, not the fill


def test_tiles_channels_and_gains_at_once_as_one_by_one(readings):
    """stages.channels of a stack of tiles (summed 3k channels at a time) and stages.gains give
    each tile's own channels and gain, to the bit."""
    ex, cut = readings
    tiles = np.concatenate([stages.align_cells(c, ex.looks).tiles for c in cut[:3]])
    every = stages.channels(tiles)
    assert every.tobytes() == np.stack([tiles[j].reshape(-1, 3).mean(axis=0) + 1 for j in range(len(tiles))]).tobytes()
    # aligned tiles hold whole numbers (their sums are exact in any order); blurred, they do not
    soft = np.stack([cv2.GaussianBlur(t, (0, 0), 1.3) * 1.01 for t in tiles])
    assert stages.channels(soft).tobytes() == np.stack([t.reshape(-1, 3).mean(axis=0) + 1 for t in soft]).tobytes()
    mean = ex.means["uphill"]
    got = stages.gains(mean, tiles, every)
    want = np.stack([_plain_gain(mean, t) for t in tiles])
    assert got.dtype == want.dtype and got.tobytes() == want.tobytes()
    assert np.ptp(got[:, 0]) > 0.01                            # the tiles' light differs


def _tell_lookalikes_cell_by_cell(v, ex, photo):
    """``reader.tell_lookalikes`` as it was: each cell's test (``stages.tell_apart``, at FINE_PX
    too) made and its swap decided before the next cell's."""
    from vision.reader import _fine_cell, _finer, _slider
    aligned = v.aligned
    finer, fine = _finer(v, ex, photo), None
    pairs = v.pairs.copy()
    rows, runners = list(v.rows), list(v.runners)
    sims, margins = v.sims.copy(), v.margins.copy()
    for q in range(16):
        b, a = v.runners[q], v.rows[q]
        if b is None or ex.names[a] == "back" or ex.names[b] == "back":
            continue
        cell = v.details[q] if q in v.details else stages.cell_detail(aligned.tiles[q], ex.means[STACK_AT[q]])
        pair = stages.tell_apart(cell, _slider(ex, a), _slider(ex, b))
        if finer and margins[q] < tuning.FINE_MARGIN:
            fine, fcell = _fine_cell(v, ex, photo, fine, q)
            fpair = stages.tell_apart(fcell, _slider(ex, a, fine=True), _slider(ex, b, fine=True),
                                      tuning.PAIR_BLUR * tuning.FINE_PX / tuning.CELL_PX)
            pair = tuning.FINE_WEIGHT * fpair + (1 - tuning.FINE_WEIGHT) * pair
        if tuning.SWAP and pair < tuning.SWAP_PAIR and b not in rows:
            rows[q], runners[q] = b, a
            sims[q], margins[q], pair = sims[q] - margins[q], -margins[q], -pair
        pairs[q] = min(tuning.PAIR_CAP, pair)
    return tuple(rows), tuple(runners), sims, margins, pairs


def test_runner_up_tests_of_all_cells_at_once_as_cell_by_cell(box2_learned):
    """stages.tell_apart_each (every cell's picture spectrum in one call, each multiplied by its
    own two exemplars' kept spectra, one inverse for all; stages.slide_own) gives each cell's
    places and runner-up test to the bit, at CELL_PX and FINE_PX, on the real cells of box2
    photos as the reader reads them; and reader.tell_lookalikes (every test first, the swaps
    after, cell by cell) gives the verdict of the cell-by-cell loop it replaced."""
    from vision.reader import _fine_cell, _finer, _slider, read_photo, tell_lookalikes
    ex = exemplars_in(box2_learned)
    fine_tested = 0
    with stages.one_thread():
        for name in ("p24.jpg", "p12.jpg", "p01.jpg"):
            photo = stages.decode_photo((BOX2 / name).read_bytes())
            v = read_photo(photo, ex)
            tested = [q for q in range(16) if v.runners[q] is not None
                      and ex.names[v.rows[q]] != "back" and ex.names[v.runners[q]] != "back"]
            assert len(tested) > 8
            cells = [v.details[q] if q in v.details else stages.cell_detail(v.aligned.tiles[q], ex.means[STACK_AT[q]])
                     for q in tested]
            firsts, seconds = [_slider(ex, v.rows[q]) for q in tested], [_slider(ex, v.runners[q]) for q in tested]
            many = stages.slide_own(np.stack(cells), list(zip(firsts, seconds)))
            for j, cell in enumerate(cells):
                assert many[j].tobytes() == np.stack(stages.slide(cell, firsts[j], seconds[j])).tobytes()
            told = stages.tell_apart_each(cells, firsts, seconds)
            plain = [stages.tell_apart(c, a, b) for c, a, b in zip(cells, firsts, seconds)]
            assert np.float64(told).tobytes() == np.float64(plain).tobytes()
            assert len(set(plain)) == len(plain)                  # the cells differ: the test can tell
            if _finer(v, ex, photo):
                fq = [q for q in tested if v.margins[q] < tuning.FINE_MARGIN]
                fcells = [_fine_cell(v, ex, photo, None, q)[1] for q in fq]
                fa, fb = [_slider(ex, v.rows[q], True) for q in fq], [_slider(ex, v.runners[q], True) for q in fq]
                blur = tuning.PAIR_BLUR * tuning.FINE_PX / tuning.CELL_PX
                told = stages.tell_apart_each(fcells, fa, fb, blur)
                assert told == [stages.tell_apart(c, a, b, blur) for c, a, b in zip(fcells, fa, fb)]
                fine_tested += len(fq)
            for seen in (photo, None):
                got = tell_lookalikes(v, ex, seen)
                rows, runners, sims, margins, pairs = _tell_lookalikes_cell_by_cell(v, ex, seen)
                assert (got.rows, got.runners) == (rows, runners)
                assert got.sims.tobytes() == sims.tobytes() and got.margins.tobytes() == margins.tobytes()
                assert got.pairs.tobytes() == pairs.tobytes()
    assert fine_tested >= 4


def test_two_matches_sharing_what_the_blur_leaves_as_apart(readings):
    """stages.match with ``kept`` shared between classify's two matches (the plain one and the
    sharper one, SHARP_BLUR: the tiles' channels, each stack's gains, wide blur and face-down
    test made once) gives each match's similarities and kept details to the bit."""
    ex, cut = readings
    assert ex.sharp is not None
    for cells in cut:
        aligned = stages.align_cells(cells, ex.looks)
        shared: dict = {}
        details = []
        for filters, blur in ((ex.filters, None), (ex.sharp, tuning.SHARP_BLUR)):
            apart: dict = {}
            want = stages.match(aligned, filters, ex.rows_of, ex.means, ex.backs, apart, blur=blur)
            kept: dict = {}
            got = stages.match(aligned, filters, ex.rows_of, ex.means, ex.backs, kept, blur=blur, kept=shared)
            assert got.tobytes() == want.tobytes() and (got > -1).sum() > 100
            assert sorted(kept) == sorted(apart) == list(range(16))
            assert all(kept[q].tobytes() == apart[q].tobytes() for q in range(16))
            details.append(kept[0])
        assert details[0].tobytes() != details[1].tobytes()      # the blurs differ: the test can tell


def _fine_cell_plain(cells, centre, pad, q, mean, mean_detail):
    """``stages.fine_cell`` as it was: the tile cut, described and its light matched on its own."""
    f = tuning.FINE_PX
    k = f / tuning.CELL_PX
    win = cells.windows[q].astype(np.float32)
    cx, cy = (float(centre[0]) - pad) * k + cells.pad, (float(centre[1]) - pad) * k + cells.pad
    M = np.float32([[1, 0, f / 2 - cx], [0, 1, f / 2 - cy]])
    tile = cv2.warpAffine(win, M, (f, f), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    i, sl = stages._fine_inner(), int(round(tuning.MATCH_SLACK * k))
    cut = slice(i - sl, f - i + sl)
    return (stages.fine_detail(tile)[cut, cut] * stages.gain(mean, tile) - mean_detail[cut, cut]).astype(np.float32)


def test_fine_cells_made_at_once_as_one_by_one(box2_learned):
    """stages.fine_cells_at (the tiles' small things as one picture of 3k channels, their
    channels at once) gives each cell at FINE_PX to the bit, for every cell of box2 planets cut
    finer through the outline read, cells of all four stacks at once; and reader's fine cells
    kept per reading are those."""
    from vision.reader import _fine_cells, _fine_mean, _fine_mean_detail, read_photo, read_tile
    ex = exemplars_in(box2_learned)
    pad = int(round(tuning.CELL_PX * tuning.PAD))
    with stages.one_thread():
        for name in ("p24.jpg", "p12.jpg"):
            photo = stages.decode_photo((BOX2 / name).read_bytes())
            v = read_photo(photo, ex)
            fine = stages.cut_cells(photo, v.outline, v.turn, tuning.FINE_PX, read_tile(ex))
            qs = list(range(16))
            means = [_fine_mean(ex, STACK_AT[q]) for q in qs]
            details = [_fine_mean_detail(ex, STACK_AT[q]) for q in qs]
            plain = [_fine_cell_plain(fine, v.aligned.centres[q], pad, q, means[q], details[q]) for q in qs]
            got = stages.fine_cells_at(fine, [v.aligned.centres[q] for q in qs], pad, qs, means, details)
            assert [g.tobytes() for g in got] == [p.tobytes() for p in plain]
            assert all(stages.fine_cell(fine, v.aligned.centres[q], pad, q, means[q], details[q]).tobytes()
                       == plain[q].tobytes() for q in (0, 5, 15))
            _, kept = _fine_cells(v, ex, photo, fine, [3, 9, 12])
            assert [c.tobytes() for c in kept] == [plain[q].tobytes() for q in (3, 9, 12)]
            assert len({float(p.std()) for p in plain}) == 16      # the cells differ: the test can tell
