"""Work the readers did more than once per photo, or the long way, now done once, gives the
same values (issue 8's bar: a reading ≤ 4× a full decode).

The outline masks counted blob areas by ``np.bincount`` over 64-bit copies of the labels; the box
reader found the photo's outlines and edges again when it looked at the later outlines. Each
faster form is compared here with the plain one written out (what the reader did before), on
real photos and on made cases where ties decide (the shipped reader's best place per cell:
tests/test_vision_paths.py). No timing: speed is measured by ``python -m vision.bench``.
"""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import stages
from vision.outline import _largest_blob

SAMPLES = Path(__file__).resolve().parent.parent / "sample_photos"


def _largest_blob_plain(mask: np.ndarray):
    """The blob of the largest area, by OpenCV's stats (the first of equal areas)."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n <= 1:
        return None
    i = int(np.argmax(stats[1:, cv2.CC_STAT_AREA])) + 1
    if stats[i, cv2.CC_STAT_AREA] < 0.008 * mask.size:
        return None
    return (labels == i).astype(np.uint8) * 255


@pytest.mark.parametrize("shape", [(384, 512), (511, 255), (600, 600)])
def test_largest_blob_counted_in_16_bits_as_by_stats(shape):
    """outline._largest_blob (16-bit labels where every blob's label fits, 32-bit where not:
    600×600 may hold 90000 blobs; a lone blob's area from the mask's count, speed round 6) picks
    the blob OpenCV's stats pick, on masks of many blobs, with equal areas, the most blobs there
    can be (one pixel in every 2×2 block), and one blob: too small, just big enough, big, and set to 1, not 255."""
    rng = np.random.default_rng(sum(shape))
    h, w = shape
    speckle = ((rng.random(shape) < 0.3) * 255).astype(np.uint8)
    twins = np.zeros(shape, np.uint8)
    twins[10:70, 10:70] = twins[100:160, 150:210] = 255                 # two blobs of one area
    most = np.zeros(shape, np.uint8)
    most[::2, ::2] = 255                                                # ⌈h/2⌉·⌈w/2⌉ blobs of one pixel
    big = most.copy()
    big[h // 3:h // 3 + h // 4, w // 3:w // 3 + w // 4] = 255
    lone_small, lone = np.zeros(shape, np.uint8), np.zeros(shape, np.uint8)
    lone_small[5:15, 5:15] = 255                                        # under 0.8% of the mask
    lone[h // 4:h // 2, w // 5:w // 2] = 1
    just = np.zeros(h * 40, np.uint8)                                   # a blob of just 0.8% of the mask
    just[:int(np.ceil(0.008 * h * w))] = 255
    just = np.pad(just.reshape(h, 40), ((0, 0), (0, w - 40)))
    for mask in (speckle, twins, most, big, np.zeros(shape, np.uint8), lone_small, lone, just):
        got, want = _largest_blob(mask), _largest_blob_plain(mask)
        assert (got is None) == (want is None)
        if want is not None:
            assert got.tobytes() == want.tobytes()
    assert _largest_blob(twins)[30, 30] == 255 and _largest_blob(twins)[120, 180] == 0   # the first of equal areas
    assert _largest_blob(big) is not None
    assert _largest_blob(lone_small) is None and _largest_blob(lone).max() == 255 and _largest_blob(just) is not None


def test_the_later_outlines_from_what_the_first_look_kept_as_found_again():
    """stages.outlines_in_turn with ``kept`` (the photo's outlines and edge map, made by the first
    look) gives the later outlines it gives on its own, without finding the outlines or the edges
    again: box2-heldout6's p05, whose planet's outline comes 9th of 11. The corners to the bit; the
    fits to float32 rounding: ``edge_map``'s float filters are not bit-reproducible between two
    calls on one image (a few pixels differ in the last bit in some calls, as before this change),
    so an edge map made again may move a fit by a unit in its last place."""
    photo = stages.decode_photo((SAMPLES / "box2-heldout6" / "test" / "p05.jpg").read_bytes())
    with stages.one_thread():
        alone = list(stages.outlines_in_turn(photo, later=True))
        kept: dict = {}
        first = list(stages.outlines_in_turn(photo, kept=kept))
        calls = []
        quads, edges = stages.candidate_quads, stages.edge_map
        stages.candidate_quads = lambda *a, **k: calls.append("quads") or quads(*a, **k)
        stages.edge_map = lambda *a, **k: calls.append("edges") or edges(*a, **k)
        try:
            again = list(stages.outlines_in_turn(photo, later=True, kept=kept))
        finally:
            stages.candidate_quads, stages.edge_map = quads, edges
    assert len(first) == stages.tuning.CANDIDATES and len(alone) >= 2 and calls == []
    assert [o.corners.tobytes() for o in again] == [o.corners.tobytes() for o in alone]
    assert [o.fit for o in again] == pytest.approx([o.fit for o in alone], rel=1e-6, abs=0)
    assert len({round(o.fit, 3) for o in alone}) == len(alone)       # the outlines differ: the test can tell


def test_the_runner_ups_weights_summed_plane_by_plane_as_numpys_sum(box2_learned):
    """stages._abs_summed (the runner-up test's |difference| summed over the channels plane by
    plane) gives numpy's np.abs(x).sum(axis=2), to the bit: on every difference of placed
    exemplars the runner-up tests of two box2 photos make, and on random pictures."""
    from vision.reader import exemplars_in, read_box
    ex = exemplars_in(box2_learned)
    seen = []
    real = stages._abs_summed

    def kept(x):
        seen.append(x.copy())
        return real(x)
    stages._abs_summed = kept
    try:
        for name in ("p01.jpg", "p17.jpg"):
            assert read_box((SAMPLES / "box2" / "test" / name).read_bytes(), ex).ok
    finally:
        stages._abs_summed = real
    rng = np.random.default_rng(11)
    seen += [rng.normal(0, s, (44, 44, c)).astype(np.float32) for s, c in ((1.0, 3), (30.0, 3), (5.0, 1), (2.0, 4))]
    assert len(seen) > 10
    for x in seen:
        want = np.abs(x).sum(axis=2)
        got = stages._abs_summed(x.copy())
        assert got.shape == want.shape and got.tobytes() == want.tobytes()
