"""vision/descriptors.py: the second way of comparing tiles (hog), the blend, and each box's choice."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from vision import tuning
from vision.bench import learn_box
from vision.descriptors import blended, choose_blend, hog, views
from vision.layout import STACK_AT
from vision.reader import exemplars_in

SAMPLES = Path(__file__).resolve().parent.parent / "sample_photos"
S = tuning.CELL_PX


def _stripes(vertical: bool, period: int = 8) -> np.ndarray:
    yy, xx = np.mgrid[0:S, 0:S]
    v = 90 + 80 * (((xx if vertical else yy) // (period // 2)) % 2)
    return np.repeat(v[..., None], 3, axis=2).astype(np.float32)


def test_hog_drops_the_light_and_tells_edge_directions_apart():
    level, vertical = _stripes(False), _stripes(True)
    h = hog(np.stack([level, level * 0.45, vertical]))
    assert h.shape[0] == 3 and np.allclose(np.linalg.norm(h, axis=1), 1, atol=1e-3)
    assert float(h[0] @ h[1]) > 0.97          # half the light: the same edges
    assert float(h[0] @ h[2]) < 0.2           # the same stripes turned a quarter: other edges


def test_blend_zero_is_the_match_and_a_refused_row_stays_refused():
    rng = np.random.default_rng(3)
    base = rng.uniform(0, 1, (16, 6)).astype(np.float32)
    base[:, 5] = -1.0                          # a row no cell may take
    other = rng.uniform(-1, 1, (16, 6)).astype(np.float32)
    assert blended(base, other, 0.0) is base
    mixed = blended(base, other, 100.0)
    assert np.all(mixed[:, 5] == -1.0)
    # a heavy weight orders each cell's allowed rows as the other descriptor does
    assert np.array_equal(np.argmax(mixed[:, :5], axis=1), np.argmax(other[:, :5], axis=1))
    # the other descriptor enters less its mean over the allowed rows: a constant adds nothing
    assert np.allclose(blended(base, np.full_like(other, 0.7), 2.0), base)


def test_views_show_each_positions_stack_faces():
    pictures, stacks, names = [], [], []
    rng = np.random.default_rng(0)
    for st in ("character", "center", "uphill", "downhill"):
        for k in range(5):
            pictures.append(rng.integers(0, 255, (64, 64, 3), dtype=np.uint8))
            stacks.append(st)
            names.append(f"{st[0].upper()}{k:02d}")
        pictures.append(np.full((64, 64, 3), 120, np.uint8))
        stacks.append(st)
        names.append("back")
    batches = list(views(pictures, stacks, names, rounds=3))
    assert len(batches) == 3
    for cells, truth in batches:
        assert cells.windows.shape == (16, S + 2 * cells.pad, S + 2 * cells.pad, 3)
        assert [stacks[j] for j in truth] == [STACK_AT[q] for q in range(16)]
        assert all(names[j] != "back" for j in truth)
    # a stack without a face learned: no views (nothing to tell apart there)
    none = [i for i, s in enumerate(stacks) if s != "uphill" or names[i] == "back"]
    assert list(views([pictures[i] for i in none], [stacks[i] for i in none], [names[i] for i in none], 2)) == []


@pytest.fixture(scope="module")
def boxes(tmp_path_factory):
    out = {}
    for name in ("box2", "box2-heldout9"):
        folder = tmp_path_factory.mktemp(name)
        learn_box(SAMPLES / name / "teach", folder)
        out[name] = exemplars_in(folder)
    return out


def test_each_box_chooses_how_it_compares_tiles(boxes):
    """box2's filled pictures keep the match alone (its photos read worse with the hog: 410 -> 406 of
    414 faces at weight 2, true outlines); heldout9's take the hog beside it (its views, since stop 44:
    411 -> 431 of 480 at weight 2). heldout8's hollow line drawings took it until stop 44 (104 -> 122 of
    281 faces in its photos); with the taught pictures lit evenly (stages.even_light) its views gain
    under BLEND_GAIN and it keeps the match alone."""
    assert boxes["box2"].blend == 0.0
    assert boxes["box2-heldout9"].blend > 0.0
    w, _, right = choose_blend(replace(boxes["box2-heldout9"], blend=0.0))
    assert w == boxes["box2-heldout9"].blend and set(right) == set(tuning.BLEND_WEIGHTS)
    assert right[w] - right[0.0] >= tuning.BLEND_GAIN * 16 * tuning.BLEND_ROUNDS
