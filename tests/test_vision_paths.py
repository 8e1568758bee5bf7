"""The readers' faster paths (issue 8's speed round) give the same values as the plain ones.

Each fast path is compared with a plain, one-at-a-time computation written here (what the reader
did before), on real sample photos where a photo is needed. No timing: speed is measured by
``python -m vision.bench``.
"""
from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import vision.outline
import vision.recognize  # noqa: F401  (the module, not the function vision.recognize)
from vision import stages, tuning
from vision.imageio import decode
from vision.index import MANIFEST, REFERENCE_DIR, _files, _key, describe_coarse, files_key, get_index, similarity
from vision.outline import TABLE_ROWS, _block_means, _quads_of_contours, block_grid, table_distance, _largest_blob, _masks, _median_u8, _quads_from_mask, _ring_pixels

R = sys.modules["vision.recognize"]
SAMPLES = Path(__file__).resolve().parent.parent / "sample_photos"
PHOTOS = ["p02.jpg", "p07.jpg", "n01.jpg"]   # two planets (one small) and a photo without one


def _quick_one(img, quad, index) -> float:
    """One outline's ranking score, outline by outline (as recognize._quick did)."""
    straight, _ = R._rectify(img, quad, half=True)
    m, c2 = R.MARGIN // 2, R.CELL // 2
    patches = [straight[m + r * c2:m + (r + 1) * c2, m + c * c2:m + (c + 1) * c2]
               for r in range(4) for c in range(4)]
    C = similarity(describe_coarse(patches), index.coarse)
    turns = tuple(int(t) for t in R._turns_of(index))
    best = -np.inf
    for per in R._quick_cells(tuple(index.names), tuple(index.stacks) if index.stacks else None, turns):
        best = max(best, sum(float(C[cells, cols].max(axis=1).sum()) for cells, cols in per))
    return float(best / 16)


def _shipped(name: str) -> tuple[list, np.ndarray, float]:
    """A shipped-art sample photo as recognize starts on it: its pyramid, the picture its outlines
    are looked for in (``WORK`` px) and that picture's scale."""
    img, _ = decode((SAMPLES / name).read_bytes(), min_side=R.SHIPPED_SIDE)
    h, w = img.shape[:2]
    f = R.WORK / max(h, w)
    return R._pyramid(img), cv2.resize(img, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA), f


def _finding_pictures():
    """The sample photos (PHOTOS) as the outlines are looked for in them: at both finding sizes
    (the shipped reader's WORK, the box reader's FIND_SIDE)."""
    for name in PHOTOS:
        img, _ = decode((SAMPLES / name).read_bytes(), min_side=R.SHIPPED_SIDE)
        h, w = img.shape[:2]
        for side in (R.WORK, stages.tuning.FIND_SIDE):
            f = side / max(h, w)
            yield cv2.resize(img, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA)


@pytest.mark.parametrize("name", PHOTOS)
def test_outlines_ranked_at_once_score_as_one_by_one(name):
    index = get_index(None)
    pyr, work, f = _shipped(name)
    h, w = pyr[0].shape[:2]
    quads = [q / f for m in _masks(work) for q in _quads_from_mask(m)]
    quads.append(np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]]))
    with stages.one_thread():
        one = [_quick_one(pyr, q, index) for q in quads]
        many = R._quick_many(pyr, quads, index)
    assert len(quads) >= 3
    assert many == one            # the same floats, not merely close
    assert len(set(one)) > 1      # outlines that differ score differently (the test can tell)


def test_median_from_histograms_is_numpys():
    rng = np.random.default_rng(3)
    for n in (1, 2, 3, 4, 101, 1000, 1001):
        for top in (2, 7, 256):
            px = rng.integers(0, top, (n, 3)).astype(np.uint8)
            assert np.array_equal(_median_u8(px), np.median(px.astype(np.float32), axis=0)), (n, top)


def test_black_and_white_test_from_histogram_is_the_percentile():
    rng = np.random.default_rng(4)
    for n in (1, 2, 5, 37, 1000, 20001):
        for lo, hi in ((0, 40), (0, 25), (15, 22), (19, 21), (20, 21), (0, 20), (0, 256)):
            for _ in range(10):
                sat = rng.integers(lo, hi, n).astype(np.uint8)
                assert R._greyish(sat) == (float(np.percentile(sat, 95)) < 20), (n, lo, hi)


def test_folder_key_in_one_pass_is_the_key(tmp_path):
    for folder in (REFERENCE_DIR, tmp_path / "missing"):
        assert files_key(folder) == _key(_files(folder))
    for name in ("C01.png", "back-3.png", MANIFEST, "notes.txt", "C1.png"):
        (tmp_path / name).write_bytes(b"x")
    assert files_key(tmp_path) == _key(_files(tmp_path))
    assert [k[0] for k in files_key(tmp_path)] == sorted(["C01.png", "back-3.png", MANIFEST])


def test_a_folder_with_a_back_beside_its_faces_is_built_once(tmp_path, monkeypatch):
    import shutil

    import vision.index as I
    for name in ("C01.png", "C02.png", "U01.png"):
        shutil.copy(REFERENCE_DIR / name, tmp_path / name)
    shutil.copy(REFERENCE_DIR / "back.png", tmp_path / "back-3.png")   # a back per stack, no manifest
    monkeypatch.setattr(I, "_disk_cache_path", lambda folder, digest: tmp_path / "cache" / f"{digest}.pkl")
    built = []
    real_build = I.build
    monkeypatch.setattr(I, "build", lambda folder, gray=False: built.append(folder) or real_build(folder, gray))
    first = get_index(tmp_path)
    assert get_index(tmp_path) is first and len(built) == 1   # the second reading finds it kept


def _cell_detail_plain(tile, mean):
    """An aligned tile's detail as stages.cell_detail computed it, each mean taken where used."""
    a = mean.reshape(-1, 3).mean(0) + 1
    b = tile.reshape(-1, 3).mean(0) + 1
    g = float(a.sum() / b.sum())
    gain = g * np.clip(a / b / g, 1 - stages.tuning.GAIN_CLIP, 1 + stages.tuning.GAIN_CLIP)
    size, sl = stages.tuning.CELL_PX, stages.tuning.MATCH_SLACK
    i = stages._inner(size)
    cut = slice(i - sl, size - i + sl)
    return (stages._detail(tile)[cut, cut] * gain - stages._detail(mean)[cut, cut]).astype(np.float32)


def test_tiles_described_at_once_as_one_by_one():
    rng = np.random.default_rng(5)
    tiles = (rng.random((4, stages.tuning.CELL_PX, stages.tuning.CELL_PX, 3)) * 255).astype(np.float32)
    tiles[1] *= np.float32([0.5, 1.0, 1.5])    # a cast: the white balance's clip counts
    mean = (rng.random(tiles.shape[1:]) * 255).astype(np.float32)
    chans = stages.channels(tiles)
    details = []
    for t, c in zip(tiles, chans):
        v = t.reshape(-1, 3).mean(0) + 1
        assert np.array_equal(c, v)
        assert np.array_equal(stages.chroma(t, c), v / v.sum())
        details.append(stages.cell_detail(t, mean, c))
        assert np.array_equal(details[-1], _cell_detail_plain(t, mean))
    details = np.stack(details)
    assert np.array_equal(stages._pool(details), np.stack([stages._pool(d) for d in details]))


def _normalized_plain(f: np.ndarray) -> np.ndarray:
    """Each (h, w, c) picture of ``f`` less its channels' means, over its spread + 8, unit rows
    (as vision.index did with numpy's mean and std over axes (1, 2))."""
    f = f - f.mean(axis=(1, 2), keepdims=True)
    f = f / (f.std(axis=(1, 2), keepdims=True) + 8.0)
    v = f.reshape(len(f), -1)
    return (v / (np.linalg.norm(v, axis=1, keepdims=True) + 1e-6)).astype(np.float32)


def test_descriptors_normalized_as_numpy_does():
    from vision import index as ix
    rng = np.random.default_rng(6)
    for n in (1, 3, 16):
        patches = [(rng.random((ix.CELL, ix.CELL, 3)) * rng.uniform(5, 255)).astype(np.uint8) for _ in range(n)]
        minus = [(rng.normal(size=ix._small(patches[0]).shape) * 20).astype(np.float32) for _ in range(n)]
        plain = _normalized_plain(np.stack([np.rot90(ix._small(p), k) - m
                                            for p, m in zip(patches, minus) for k in (0, 1, 2, 3)]))
        assert np.array_equal(ix.describe_turns(patches, (0, 1, 2, 3), minus), plain)
        halves = [p[::2, ::2] for p in patches]
        coarse = []
        for p in halves:
            a = int(round(p.shape[0] * ix.INNER))
            f = cv2.GaussianBlur(p.astype(np.float32), (0, 0), 2.0 * p.shape[0] / ix.CELL)[a:-a, a:-a]
            coarse.append(cv2.resize(f, (ix.COARSE, ix.COARSE), interpolation=cv2.INTER_AREA))
        assert np.array_equal(ix.describe_coarse(halves), _normalized_plain(np.stack(coarse)))


@pytest.mark.parametrize("threads", [1, 2])
def test_blobs_labelled_by_bbdt_as_by_default(threads):
    """outline._largest_blob labels with BBDT: the same labels and stats as OpenCV's default."""
    before = cv2.getNumThreads()
    cv2.setNumThreads(threads)
    try:
        for name in PHOTOS:
            img, _ = decode((SAMPLES / name).read_bytes(), min_side=R.SHIPPED_SIDE)
            h, w = img.shape[:2]
            f = R.WORK / max(h, w)
            for mask in _masks(cv2.resize(img, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA)):
                n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
                m, labels2, stats2, _ = cv2.connectedComponentsWithStatsWithAlgorithm(mask, 8, cv2.CV_32S, cv2.CCL_BBDT)
                assert n == m and np.array_equal(labels, labels2) and np.array_equal(stats, stats2)
                blob = _largest_blob(mask)
                if n > 1 and blob is not None:
                    i = int(np.argmax(stats[1:, cv2.CC_STAT_AREA])) + 1
                    assert np.array_equal(blob, (labels == i).astype(np.uint8) * 255)
    finally:
        cv2.setNumThreads(before)


@pytest.mark.parametrize("name", PHOTOS)
def test_colour_distance_mask_as_computed_pixel_by_pixel(name):
    """outline._masks' second colour mask (far from the table's median colour), its median and
    distance from tables, against the plain per-pixel computation."""
    img, _ = decode((SAMPLES / name).read_bytes(), min_side=R.SHIPPED_SIDE)
    h, w = img.shape[:2]
    f = R.WORK / max(h, w)
    work = cv2.resize(img, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA)
    h, w = work.shape[:2]
    lab = cv2.cvtColor(cv2.GaussianBlur(work, (0, 0), 2.0), cv2.COLOR_BGR2LAB)
    bw = max(3, int(0.04 * min(h, w)))
    ring = np.ones((h, w), bool)
    ring[bw:h - bw, bw:w - bw] = False
    d = lab.astype(np.float32) - np.median(lab[ring].astype(np.float32), axis=0)
    dist = np.sqrt(0.3 * d[..., 0] ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)
    dist = np.clip(dist * 255 / max(1.0, float(dist.max())), 0, 255).astype(np.uint8)
    _, fg = cv2.threshold(dist, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    k = max(3, int(0.025 * min(h, w))) | 1
    fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    close = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    q = (lab[..., 0] // 43).astype(np.int32) * 256 + (lab[..., 1] // 16).astype(np.int32) * 16 + (lab[..., 2] // 16)
    hist = np.bincount(q[ring], minlength=6 * 256).astype(np.float32).reshape(6, 16, 16)
    hist = np.maximum.reduce([np.roll(hist, s, axis=a) for a in (1, 2) for s in (-1, 0, 1)])
    hist = np.maximum.reduce([hist, np.roll(hist, 1, axis=0), np.roll(hist, -1, axis=0)])
    rare = ((hist / max(1, ring.sum())).reshape(-1)[q] < 0.002).astype(np.uint8) * 255
    rare = cv2.morphologyEx(rare, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    rare = cv2.morphologyEx(rare, cv2.MORPH_CLOSE, close)
    with stages.one_thread():
        masks = _masks(work)
    assert np.array_equal(masks[2], rare)      # colours the table's border lacks
    assert np.array_equal(masks[3], fg)        # far from the table's median colour
    assert 0 < int(np.count_nonzero(fg)) < fg.size and 0 < int(np.count_nonzero(rare)) < rare.size


def test_block_means_from_integer_sums_are_cv2s_float_blurs():
    """outline._block_means (the texture mask's block means and mean squares from integer box
    sums, scaled at the blocks' centres only) gives the floats of cv2.blur over the float
    picture, on photos' Lab pictures at both finding sizes and on noise of odd sizes."""
    pictures = [cv2.cvtColor(cv2.GaussianBlur(work, (0, 0), 2.0), cv2.COLOR_BGR2LAB) for work in _finding_pictures()]
    rng = np.random.default_rng(11)
    pictures += [rng.integers(0, 256, shape, dtype=np.uint8) for shape in ((97, 203, 3), (40, 33, 3), (256, 300, 3))]
    for lab in pictures:
        h, w = lab.shape[:2]
        win = max(5, int(min(h, w) / 32)) | 1
        step = max(2, int(win * 0.75))
        ys, xs = np.arange(step // 2, h, step), np.arange(step // 2, w, step)
        f = lab.astype(np.float32)
        m, sq = _block_means(lab, win, ys, xs)
        assert m.dtype == sq.dtype == np.float32
        assert np.array_equal(m, cv2.blur(f, (win, win))[ys][:, xs])
        assert np.array_equal(sq, cv2.blur(f * f, (win, win))[ys][:, xs])


def test_ring_pixels_are_the_rings():
    """outline._ring_pixels: the pixels within bw of the border (as a boolean ring picks them,
    in another order), for colour and grey pictures, and a picture all ring."""
    rng = np.random.default_rng(12)
    for shape, bw in (((384, 512, 3), 15), ((33, 40), 3), ((7, 50, 3), 4), ((6, 6), 3)):
        a = rng.integers(0, 256, shape, dtype=np.uint8)
        h, w = shape[:2]
        ring = np.ones((h, w), bool)
        ring[bw:h - bw, bw:w - bw] = False
        got, want = _ring_pixels(a, bw), a[ring]
        assert got.shape == want.shape
        assert np.array_equal(np.sort(got, axis=0), np.sort(want, axis=0))


def test_a_reading_cuts_only_the_patches_it_describes(monkeypatch):
    """recognize._cells finds the tiles first and cuts a patch only when it is used: an outline
    refitted and read again never cuts its first patches, and of the two tile sizes of the second
    pass only the one that fitted is cut. Every patch cut is described (planets read again after
    a refit, and photos without a planet)."""
    cut, described = [], []
    real_cut, real_describe = R._cut_one, R._describe_cells
    monkeypatch.setattr(R, "_cut_one", lambda straight, place: cut.append(place) or real_cut(straight, place))
    monkeypatch.setattr(R, "_describe_cells", lambda patches, index, *a, **k: (
        described.extend(patches) or real_describe(patches, index, *a, **k)))
    reads = []
    real_read = R._read
    monkeypatch.setattr(R, "_read", lambda img, quad, index, refine=1: reads.append(refine) or real_read(img, quad, index, refine))
    for name in PHOTOS:
        assert R.recognize((SAMPLES / name).read_bytes()).error is None or name.startswith("n")
    assert reads.count(0) >= 2          # outlines were refitted and read again
    assert cut and len(cut) == len(described)


def test_pooling_adds_the_four_as_numpys_mean():
    rng = np.random.default_rng(7)
    for shape in [(32, 32, 3), (45, 43, 3), (4, 44, 44, 3), (1, 45, 44, 3), (44, 44, 1), (2, 10, 10, 2)]:
        for _ in range(10):
            d = (rng.normal(size=shape) * rng.uniform(0.1, 300)).astype(np.float32)
            h, w = shape[-3] // 2, shape[-2] // 2
            x = d[..., :2 * h, :2 * w, :]
            plain = (x.reshape(h, 2, w, 2, -1).mean(axis=(1, 3)) if d.ndim == 3
                     else x.reshape(len(d), h, 2, w, 2, -1).mean(axis=(2, 4)))
            assert np.array_equal(stages._pool(d), plain), shape


def test_lattice_fits_in_place_as_plain():
    """stages.lattice_fits (its projective coordinates worked in place) against the plain ones."""
    img, _ = decode((SAMPLES / "p02.jpg").read_bytes(), min_side=480)
    edges = stages.edge_map(img)
    h, w = edges.shape
    rng = np.random.default_rng(8)
    quad = np.float32([[0.2 * w, 0.2 * h], [0.8 * w, 0.22 * h], [0.78 * w, 0.8 * h], [0.21 * w, 0.79 * h]])
    quads = quad[None] + rng.normal(size=(17, 4, 2)).astype(np.float32) * 0.02 * w
    Hs = np.stack([cv2.getPerspectiveTransform(stages._SQUARE, q) for q in quads]).astype(np.float32)
    x, y = stages._FIT_PTS[:, 0], stages._FIT_PTS[:, 1]
    hh = [Hs[:, r, 0, None] * x + Hs[:, r, 1, None] * y + Hs[:, r, 2, None] for r in range(3)]
    v = cv2.remap(edges, hh[0] / hh[2], hh[1] / hh[2], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    n = len(stages._LINE_PTS)
    plain = v[:, :n].mean(axis=1) / (v[:, n:].mean(axis=1) + 1.0)
    fits = stages.lattice_fits(edges, quads)
    assert np.array_equal(fits, plain) and len(set(fits.tolist())) > 1


def test_the_runner_up_test_centres_the_cell_once_as_plain():
    """stages.tell_apart correlates the cell with both placed exemplars over the same weights: the
    cell's weighted centring made once (``_ncc_with``), over where both exemplars lie only (the
    weight is 0 elsewhere), gives what two plain ``_weighted_ncc`` calls over the whole cell give
    (to float rounding: the sums run over fewer zeros); and a cell's detail kept from ``match`` is
    ``cell_detail``'s."""
    rng = np.random.default_rng(5)
    cell = rng.normal(0, 10, (44, 44, 3)).astype(np.float32)
    first, second = (rng.normal(0, 10, (3, 32, 32, 3)).astype(np.float32) for _ in range(2))
    a, wa = stages._placed(cell, first)
    b, wb = stages._placed(cell, second)
    both = wa & wb
    na, nb = a / (float(a[both].std()) + 1e-6), b / (float(b[both].std()) + 1e-6)
    w = cv2.GaussianBlur(np.abs(na - nb).sum(axis=2), (0, 0), 2.0) * both
    w = (w / (float(w.max()) + 1e-6)) ** 2
    plain = stages._weighted_ncc(cell, a, w) - stages._weighted_ncc(cell, b, w)
    told = stages.tell_apart(cell, first, second, 2.0)
    assert abs(told - plain) < 1e-6 * max(1.0, abs(plain)) and abs(plain) > 1e-3

    from vision.reader import _fine_mean, _fine_mean_detail, exemplars_of
    from vision.layout import STACK_AT
    tiles = rng.uniform(0, 255, (16, 48, 48, 3)).astype(np.float32)
    refs = [(f"K{k + 1:02d}", "character", rng.uniform(0, 255, (64, 64, 3)).astype(np.uint8)) for k in range(4)]
    refs += [(f"C{k + 1:02d}", "center", rng.uniform(0, 255, (64, 64, 3)).astype(np.uint8)) for k in range(4)]
    ex = exemplars_of(refs, True)
    aligned = stages.Aligned(tiles, np.zeros(16, np.float32), np.zeros((16, 2), np.float32))
    kept: dict = {}
    stages.match(aligned, ex.filters, ex.rows_of, ex.means, ex.backs, kept)
    assert kept and all(np.array_equal(d, stages.cell_detail(tiles[q], ex.means[STACK_AT[q]])) for q, d in kept.items())
    mean = _fine_mean(ex, "center")
    assert np.array_equal(_fine_mean_detail(ex, "center"), stages.fine_detail(mean))


def test_sliding_templates_by_their_kept_spectra_is_cv2_matchtemplate():
    """stages.slide (each template's spectrum made once per box, the picture's once for all its
    templates) gives cv2.matchTemplate's TM_CCOEFF_NORMED for every template and place: grey cells
    against a stack's looks (align_cells) and colour cell details against turned exemplars
    (tell_apart), at CELL_PX and FINE_PX sizes; the best place and turn are the same."""
    rng = np.random.default_rng(14)
    for side, m, ch, k in ((70, 38, 1, 6), (44, 32, 3, 3), (88, 64, 3, 3)):
        shape = (side, side) if ch == 1 else (side, side, ch)
        tshape = (m, m) if ch == 1 else (m, m, ch)
        img = cv2.GaussianBlur(rng.normal(100, 30, shape).astype(np.float32), (0, 0), 2)
        ts = [cv2.GaussianBlur(rng.normal(0, 10, tshape).astype(np.float32), (0, 0), 2) for _ in range(k)]
        slider = stages.Slider(ts)
        got = stages.slide(img, slider)[0]
        want = np.stack([cv2.matchTemplate(img, t, cv2.TM_CCOEFF_NORMED) for t in ts])
        assert got.shape == want.shape and np.abs(got - want).max() < 1e-5
        assert [int(np.argmax(g)) for g in got] == [int(np.argmax(w)) for w in want]
        assert stages.slide(img, slider)[0].tobytes() == got.tobytes()   # the kept spectra: the same again
        if ch == 3:   # _placed: the first best turn and place, as cv2.minMaxLoc one turn after another
            best = max(range(k), key=lambda j: cv2.minMaxLoc(want[j])[1])
            _, _, _, (x, y) = cv2.minMaxLoc(want[best])
            canvas, where = stages._placed(img, slider)
            assert np.array_equal(canvas[y:y + m, x:x + m], ts[best]) and where.sum() == m * m
    flat = np.full((80, 80), 7.0, np.float32)            # no spread anywhere: 0, as cv2 gives
    assert not stages.slide(flat, stages.Slider([ts[0][..., 0]]))[0].any()


def test_cells_cut_as_plain():
    """stages.cut_cells turns each window by cv2.rotate: the same pixels as np.rot90 of the
    window of the straightened planet, for every quarter turn (tiles facing outwards, and a
    planet turned whole), for planets small (no smoothing), large, and reaching over the
    photo's edges."""
    small, _ = decode((SAMPLES / "p02.jpg").read_bytes(), min_side=480)
    shrinks = []
    for img in (small, cv2.resize(small, None, fx=2, fy=2, interpolation=cv2.INTER_LINEAR)):
        shrinks += _cut_as_plain(img)
    assert min(shrinks) < 1.6 < max(shrinks) and sum(s > 1.6 for s in shrinks) >= 6   # smoothed, or not


def _cut_as_plain(img):
    h, w = img.shape[:2]
    photo = stages.Photo(img, 1.0)
    size = stages.tuning.CELL_PX
    outlines = [np.float32([[0.2 * w, 0.25 * h], [0.75 * w, 0.2 * h], [0.8 * w, 0.8 * h], [0.22 * w, 0.75 * h]]),
                np.float32([[0.3 * w, 0.3 * h], [0.5 * w, 0.32 * h], [0.48 * w, 0.55 * h], [0.31 * w, 0.52 * h]]),
                np.float32([[0.05 * w, 0.1 * h], [0.7 * w, 0.02 * h], [0.75 * w, 0.95 * h], [0.1 * w, 0.9 * h]]),
                np.float32([[-0.1 * w, 0.3 * h], [0.45 * w, 0.2 * h], [0.5 * w, 1.1 * h], [-0.05 * w, 1.0 * h]]),
                np.float32([[0.55 * w, -0.1 * h], [1.1 * w, 0.0 * h], [1.05 * w, 0.7 * h], [0.6 * w, 0.65 * h]])]
    shrinks = []
    for corners in outlines:
        outline = stages.Outline(corners, 1.0)
        side = float(np.sqrt(cv2.contourArea(corners)))
        shrinks.append(side / (4 * size))
        src = cv2.GaussianBlur(img, (0, 0), 0.4 * shrinks[-1]) if shrinks[-1] > 1.6 else img
        for turn in (None, 0, 1, 2, 3):
            cells = stages.cut_cells(photo, outline, turn)
            pad = cells.pad
            n = 4 * size + 2 * pad
            dst = np.float32([[pad, pad], [pad + 4 * size, pad], [pad + 4 * size, pad + 4 * size], [pad, pad + 4 * size]])
            straight = cv2.warpPerspective(src, cv2.getPerspectiveTransform(corners, dst), (n, n),
                                           flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
            win = size + 2 * pad
            plain = np.stack([np.rot90(straight[(q // 4) * size:(q // 4) * size + win,
                                                (q % 4) * size:(q % 4) * size + win], cells.turns[q]) for q in range(16)])
            assert np.array_equal(cells.windows, plain) and cells.windows.flags.c_contiguous
    assert len({t % 4 for t in stages.cut_cells(photo, stages.Outline(outlines[0], 1.0)).turns}) > 1
    return shrinks


def test_a_wide_blur_by_matrix_products_is_cv2s():
    """stages.wide_blur (the light at FINE_PX: a kernel as wide as the picture) gives
    cv2.GaussianBlur's values, its kernel and reflected border included, to float rounding."""
    rng = np.random.default_rng(21)
    for n, sigma in ((96, 16.0), (48, 8.0), (96, 2.4)):
        img = cv2.GaussianBlur(rng.uniform(0, 255, (n, n, 3)).astype(np.float32), (0, 0), 1.0)
        img[:, : n // 3] += 80                                  # light falling off across it
        want = cv2.GaussianBlur(img, (0, 0), sigma)
        got = stages.wide_blur(img, sigma)
        assert got.shape == want.shape and np.abs(got - want).max() < 1e-4 * np.abs(want).max()
        assert np.abs(got - img).max() > 1.0                    # it did blur


def _best_place_by_turns(every: np.ndarray) -> tuple:
    """What ``recognize._cells`` did per cell: ``cv2.minMaxLoc`` turn after turn, a turn kept
    only when strictly better."""
    best = None
    for a, res in zip(R.ANGLES, every):
        _, mx, _, loc = cv2.minMaxLoc(res)
        if best is None or mx > best[0]:
            best = (mx, a, loc)
    return best


def _planet_maps(name: str) -> list[np.ndarray]:
    """The maps ``_cells`` looks at per cell in a shipped photo (the ring slid over the whole
    straightened planet at each turn, less each place's and turn's cost), for its first outlines."""
    index = get_index(None)
    pyr, work, f = _shipped(name)
    out = []
    with stages.one_thread():
        quads = [q / f for m in _masks(work) for q in _quads_from_mask(m)][:3]
        for quad in quads:
            straight, _ = R._rectify(pyr, quad)
            half = R._half(straight)
            whole = stages.slide(half, R._ring_slider(index.key, R._rings_of(index)))[0]
            hc, hs, hm = R.CELL // 2, R.SEARCH // 2, R.MARGIN // 2
            for r in range(4):
                for c in range(4):
                    x0, y0 = hm + c * hc - hs, hm + r * hc - hs
                    xa, ya = max(0, x0), max(0, y0)
                    hy = min(half.shape[0], y0 + hc + 2 * hs) - ya - hc + 1
                    hx = min(half.shape[1], x0 + hc + 2 * hs) - xa - hc + 1
                    prior = R._prior(hy, hx, (x0 + hs) - xa, (y0 + hs) - ya)
                    out.append(whole[:, ya:ya + hy, xa:xa + hx] - prior - R._turn_costs(R.ANGLES))
    return out


@pytest.mark.parametrize("name", ["p02.jpg", "n01.jpg"])
def test_each_tiles_best_place_and_turn_at_once_as_turn_by_turn(name):
    """recognize._best_place (every turn's map at once) finds, in every cell of real planets, the
    value, turn and place cv2.minMaxLoc found turn by turn."""
    maps = _planet_maps(name)
    assert len(maps) >= 32
    got = [R._best_place(e) for e in maps]
    want = [_best_place_by_turns(e) for e in maps]
    assert got == want
    assert len({(a, loc) for _, a, loc in want}) > 8     # places and turns differ: the test can tell


def test_ties_between_places_and_turns_go_where_they_went():
    """Equal values: the first place in row order of a turn and the first of equal turns win,
    as with cv2.minMaxLoc turn after turn (flat maps, a plateau, two equal peaks)."""
    rng = np.random.default_rng(3)
    cases = [np.zeros((len(R.ANGLES), 5, 7)), np.full((len(R.ANGLES), 9, 9), -0.25)]
    peaks = rng.normal(size=(len(R.ANGLES), 6, 8))
    peaks[2, 4, 1] = peaks[5, 1, 6] = peaks[5, 3, 2] = 9.0     # one turn's peak before another's …
    cases.append(peaks)
    plateau = rng.normal(size=(len(R.ANGLES), 7, 7))
    plateau[4, 2:5, 3:6] = 7.0                                   # … and a plateau within a turn
    cases.append(plateau)
    for every in cases:
        assert R._best_place(every) == _best_place_by_turns(every)
    assert R._best_place(peaks)[1:] == (R.ANGLES[2], (1, 4))
    assert R._best_place(plateau)[1:] == (R.ANGLES[4], (3, 2))


def test_the_rings_are_made_once_per_index_as_from_its_bytes():
    """recognize._rings_of keeps the rings per index: the rings made from its ring's bytes."""
    index = get_index(None)
    kept = R._rings_of(index)
    plain = R._rings.__wrapped__(index.key, index.ring.tobytes(), index.ring.shape[0])
    assert [t.tobytes() for t in kept] == [t.tobytes() for t in plain]
    assert R._rings_of(index) is kept



def _quads_plain(mask: np.ndarray) -> list:
    """outline._quads_from_mask as it was before speed round 6: the largest blob's holes filled
    (the background flooded from outside, 4-connected; what it did not reach added to the blob)
    before its outer contour is taken."""
    blob = _largest_blob(mask)
    if blob is None:
        return []
    h, w = blob.shape
    ff = cv2.copyMakeBorder(blob, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    cv2.floodFill(ff, np.zeros((h + 4, w + 4), np.uint8), (0, 0), 255)
    blob = blob | cv2.bitwise_not(ff)[1:-1, 1:-1]
    return _quads_of_contours(cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0])


def _same_quads(got: list, want: list) -> bool:
    return len(got) == len(want) and all(np.array_equal(a, b) for a, b in zip(got, want))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.integers(8, 70), st.integers(8, 70), st.floats(0.3, 0.8))
def test_outlines_from_a_blob_with_its_holes_as_from_it_filled(seed, h, w, density):
    """outline._quads_from_mask takes the largest blob's outer contour without filling its holes
    first: findContours (8-connected blobs, a 4-connected background, RETR_EXTERNAL) traces the
    same outer contour, so the outlines are those of the filled blob, to the float, on random
    masks full of holes, pinholes and diagonal gaps, and of several blobs."""
    rng = np.random.default_rng(seed)
    mask = (rng.random((h, w)) < density).astype(np.uint8) * 255
    assert _same_quads(_quads_from_mask(mask), _quads_plain(mask))


def test_outlines_of_the_photos_masks_as_from_filled_blobs():
    """The outlines _quads_from_mask finds in the sample photos' masks (both finding sizes) are
    those of the blobs with their holes filled, and a ring (a blob round a big hole) gives the
    box round it."""
    for work in _finding_pictures():
        for mask in _masks(work):
            assert _same_quads(_quads_from_mask(mask), _quads_plain(mask))
    ring = np.zeros((120, 160), np.uint8)
    cv2.rectangle(ring, (20, 20), (140, 100), 255, 12)
    quads = _quads_from_mask(ring)
    assert np.abs(quads[-1] - np.float32([[14, 14], [146, 14], [146, 106], [14, 106]])).max() <= 1  # its box


def _table_distance_plain(grid: np.ndarray, table: np.ndarray) -> np.ndarray:
    """outline.table_distance before speed round 6: every block's distances at once."""
    allf = grid.reshape(-1, 6)
    bf = table if len(table) <= 600 else table[np.linspace(0, len(table) - 1, 600).astype(int)]
    d2 = allf @ (-2 * bf.T)
    d2 += (allf * allf).sum(1)[:, None]
    d2 += (bf * bf).sum(1)[None, :]
    np.maximum(d2, 0, out=d2)
    return np.sqrt(np.partition(d2, min(2, len(bf) - 1), axis=1)[:, min(2, len(bf) - 1)]).reshape(grid.shape[:2])


def test_table_distances_a_few_rows_at_a_time_as_all_at_once():
    """outline.table_distance, TABLE_ROWS blocks at a time: the same floats as every block at once
    (the 3rd nearest table block, ties counted), on the sample photos' block grids at both finding
    sizes, on grids of a few rows and of more than TABLE_ROWS blocks not a multiple of it, with
    blocks repeated (ties), and with fewer than three table blocks."""
    cases = []
    for work in _finding_pictures():
        grid, _ = block_grid(cv2.cvtColor(cv2.GaussianBlur(work, (0, 0), 2.0), cv2.COLOR_BGR2LAB))
        cases.append((grid, np.concatenate([grid[0], grid[-1], grid[:, 0], grid[:, -1]])))
    rng = np.random.default_rng(13)
    for gy, gx, n in ((3, 5, 40), (TABLE_ROWS // 7 + 1, 7, 700), (41, 53, 2), (20, 20, 1)):
        grid = rng.integers(0, 40, (gy, gx, 6)).astype(np.float32)   # few values: many ties
        cases.append((grid, grid.reshape(-1, 6)[rng.integers(0, gy * gx, n)]))
    assert any(g.shape[0] * g.shape[1] > TABLE_ROWS and g.shape[0] * g.shape[1] % TABLE_ROWS for g, _ in cases)
    for grid, table in cases:
        got = table_distance(grid, table)
        assert got.dtype == np.float32 and np.array_equal(got, _table_distance_plain(grid, table))


def _tiles_found_turn_by_turn(half, templates, centres0, search, angles0, scale) -> tuple[list, list, list]:
    """What recognize._cells found per cell with each cell's own templates (the second pass)
    before speed round 6: each turn near the one found before matched and cv2.minMaxLoc'd in
    turn, a turn kept only when strictly better. Centres, fits and turns."""
    hc, hs = max(8, int(round(R.CELL / 2 * scale))), search // 2
    centres, fits, turns = [], [], []
    for q in range(16):
        x0 = int(round(centres0[q][0] / 2 - hc / 2)) - hs
        y0 = int(round(centres0[q][1] / 2 - hc / 2)) - hs
        xa, ya = max(0, x0), max(0, y0)
        win = half[ya:min(half.shape[0], y0 + hc + 2 * hs), xa:min(half.shape[1], x0 + hc + 2 * hs)]
        hy, hx = win.shape[0] - hc + 1, win.shape[1] - hc + 1
        prior = R._prior(hy, hx, (x0 + hs) - xa, (y0 + hs) - ya)
        best = None
        for a, t in zip(R.ANGLES, templates[q]):
            if abs(a - angles0[q]) > 3.5:
                continue
            res = cv2.matchTemplate(win, t, cv2.TM_CCOEFF_NORMED) - prior - R.TURN_COST * abs(a)
            _, mx, _, loc = cv2.minMaxLoc(res)
            if best is None or mx > best[0]:
                best = (mx, a, loc)
        mx, a, loc = best
        centres.append((2 * (xa + loc[0]) + hc, 2 * (ya + loc[1]) + hc))
        fits.append(mx)
        turns.append(a)
    return centres, fits, turns


@pytest.mark.parametrize("name", ["p02.jpg", "p07.jpg", "n01.jpg"])
def test_each_cells_own_picture_found_at_once_as_turn_by_turn(name):
    """recognize._cells with each cell's own templates (the second pass: the turns within 3.5°
    of the one found first, at both tile sizes) finds the centres, fits and turns the turn-by-turn
    loop found, on the first outlines of real photos, each cell looked for as several tiles."""
    index = get_index(None)
    pyr, work, f = _shipped(name)
    seen = set()
    with stages.one_thread():
        for quad in [q / f for m in _masks(work) for q in _quads_from_mask(m)][:3]:
            straight, _ = R._rectify(pyr, quad)
            half = R._half(straight)
            _, centres0, _, angles0 = R._cells(straight, index, cut=False, half=half)
            for shift in (0, 7, 31):
                rows = [(q * 5 + shift) % len(index.names) for q in range(16)]
                for sc in R.TILE_SCALES:
                    templates = [R._ref_templates(index, row, q % 4, sc) for q, row in enumerate(rows)]
                    _, centres, fits, turns = R._cells(straight, index, templates, centres0, search=8,
                                                       angles0=angles0, scale=sc, cut=False, half=half)
                    want = _tiles_found_turn_by_turn(half, templates, centres0, 8, angles0, sc)
                    assert centres.tolist() == np.array(want[0], np.float32).tolist()
                    assert fits.tolist() == np.array(want[1], np.float32).tolist()
                    assert turns == want[2]
                    seen.update(turns)
    assert len(seen) >= 3      # the cells lay at several turns: the test can tell them apart


def _every_outline_at_once(pyr, work, f, index):
    """The shipped reader's best reading of a photo's outlines as it was made before the masks
    came in two groups: every mask's outlines (and the whole frame) ranked at once, the best one
    grown and shrunk, the best of each family read in turn until one is GOOD (READS at most)."""
    quads = []
    for m in _masks(work):
        for q in _quads_from_mask(m):
            side = np.sqrt(max(1.0, cv2.contourArea(q.astype(np.float32))))
            if all(np.abs(q - o).max() > 0.03 * side for o in quads):
                quads.append(q)
    wh, ww = work.shape[:2]
    quads.append(np.array([[0, 0], [ww - 1, 0], [ww - 1, wh - 1], [0, wh - 1]], np.float32))
    scores = R._quick_many(pyr, [q / f for q in quads], index)
    first = sorted(((sc, i, q) for i, (sc, q) in enumerate(zip(scores, quads))), key=lambda t: -t[0])
    grown = []
    for _, i, q in first[:R.GROWN]:
        c = q.mean(axis=0)
        grown += [(i, (q - c) * g + c) for g in R.SCALES]
    more = [(sc, i, v) for sc, (i, v) in zip(R._quick_many(pyr, [v / f for _, v in grown], index), grown)]
    best, families = None, set()
    for _, i, q in sorted(first + more, key=lambda t: -t[0]):
        if len(families) >= R.READS or (best is not None and best["score"] >= R.GOOD):
            break
        if i in families:
            continue
        families.add(i)
        res = R._read(pyr, q / f, index, refine=1)
        if res is not None and (best is None or res["score"] > best["score"]):
            best = res
    return best


def _groups_made(monkeypatch) -> list:
    """How many of ``outline.mask_groups``' groups each reading made (one count per reading)."""
    made: list = []

    def counted(work):
        made.append(0)
        for group in vision.outline.mask_groups(work):
            made[-1] += 1
            yield group
    monkeypatch.setattr(R, "mask_groups", counted)
    return made


@pytest.mark.parametrize("name", ["p02.jpg", "p07.jpg", "n01.jpg"])
def test_outlines_of_every_mask_are_read_as_if_made_at_once_when_the_first_masks_read_no_planet(name, monkeypatch):
    """When the first masks' outlines give no GOOD reading (a photo without a planet; planets with
    GOOD raised out of reach), the outlines of every mask are ranked and read as they were when
    all were made at once: the same best reading (outlines read in the first round are not read
    again, and nothing of theirs is lost)."""
    monkeypatch.setattr(R, "GOOD", 0.99)
    # a photo where no round reads as a planet (n01) then has the masks' next largest blobs read
    # (stop 65, BESIDE_SECONDS): a third read after the two rounds, which is not what is tested here
    monkeypatch.setattr(tuning, "BESIDE_SECONDS", False)
    # … and then its masks' largest blobs trimmed (stop 67, SHIPPED_TRIM): another read after them
    monkeypatch.setattr(tuning, "SHIPPED_TRIM", False)
    # a planet read off the frame's middle (p07) then has the photo masked again with it painted over
    # (stop 66, BESIDE_OFF_PAINTED): a look after the rounds, tested in tests/test_vision_beside.py
    monkeypatch.setattr(tuning, "BESIDE_OFF_PAINTED", False)
    made = _groups_made(monkeypatch)
    last: list = []
    plain_read = R._read_candidates

    def kept(*args, **kwargs):   # what each round gave, before recognize tells look-alikes and twins
        best = plain_read(*args, **kwargs)
        last.append((best["score"], np.asarray(best["quad"]).tolist(), list(best["cells"])))
        return best
    monkeypatch.setattr(R, "_read_candidates", kept)
    index = get_index(None)
    pyr, work, f = _shipped(name)
    with stages.one_thread():
        R.recognize((SAMPLES / name).read_bytes())
        want = _every_outline_at_once(pyr, work, f, index)
    assert made == [2] and len(last) == 2
    assert last[-1] == (want["score"], np.asarray(want["quad"]).tolist(), want["cells"])


def test_a_planet_the_first_masks_find_is_read_without_making_the_others(monkeypatch):
    """The texture masks find the planets of the sample photos: each is read right (every cell's
    contents, the truth's) from them alone, and the other masks are made only for the photos
    without a planet (which are still refused). (The beside look's painted masks, made again for a
    planet read off the frame's middle since stop 66, are another look: off here.)"""
    from vision.bench import compare, load_truth, photos
    monkeypatch.setattr(tuning, "BESIDE_OFF_PAINTED", False)
    made = _groups_made(monkeypatch)
    for p in photos(SAMPLES):
        reading = R.recognize(p.read_bytes())
        truth = load_truth(p.with_suffix(".json"))
        if truth is None:
            assert not reading.ok and made[-1] == 2, p.name
        else:
            assert reading.ok and all(compare(reading.cells, truth)[0]), p.name
            assert made[-1] == 1, p.name
    assert len(made) == len(photos(SAMPLES))


def _box_sums_plain(d: np.ndarray, m: int) -> np.ndarray:
    """Window sums as stages._box_sums made them before stop 62: numpy's cumsums, down then across."""
    k, h, w, c = d.shape
    ii = np.zeros((k, h + 1, w + 1, c), np.float64)
    np.cumsum(d.astype(np.float64).cumsum(1), axis=2, out=ii[:, 1:, 1:])
    return ii[:, m:, m:] - ii[:, :-m, m:] - ii[:, m:, :-m] + ii[:, :-m, :-m]


def test_window_sums_from_one_integral_as_from_numpys_cumsums(box2_learned, monkeypatch):
    """stages._box_sums (one cv2.integral over the cells as one picture, CV_CHANNELS channels at a
    time) gives numpy's cumsums' sums to a few units in the last place of a double (the two add the
    same numbers in another order: rows then columns, not columns then rows), on every set of cells
    box2's photos are matched with (their details and squares), and on more cells than one picture
    holds. No reading changes: every reading of the 344 seen photos was the same byte for byte
    (``python -m vision.bench -q --readings``, stop 62)."""
    from vision.recognize import recognize
    seen = []
    real = stages._box_sums

    def kept(d, m):
        seen.append((d.copy(), m))
        return real(d, m)
    monkeypatch.setattr(stages, "_box_sums", kept)
    for p in sorted((SAMPLES / "box2" / "test").glob("p*.jpg"))[:4]:
        recognize(p.read_bytes(), reference=box2_learned)
    assert len(seen) >= 16
    d, m = seen[0]
    seen.append((np.concatenate([d] * (1 + stages.CV_CHANNELS // d.shape[0] // 3 + 1)), m))   # > CV_CHANNELS channels
    assert seen[-1][0].shape[0] * 3 > stages.CV_CHANNELS
    for d, m in seen:
        got, plain = real(d, m), _box_sums_plain(d, m)
        assert got.shape == plain.shape and got.dtype == np.float64
        # each window's sum to 1e-12 of the largest sum of its picture (the float32 inputs' own
        # resolution is 6e-8 of them)
        scale = np.abs(plain).max(axis=(1, 2, 3), keepdims=True) + 1e-30
        assert (np.abs(got - plain) / scale).max() < 1e-12
