"""A teaching photo with the generator's true corners, and how far an outline lies from them, for
the tests of finding layouts and outlines (``test_vision_moved``, ``_apart``, ``_trim``,
``_unfitted_layout``)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from vision import tuning
from vision.diagnose import _match_corners
from vision.stages import Photo, decode_photo, quad_side


def photo_and_truth(path: Path) -> tuple[Photo, np.ndarray]:
    """The photo decoded as teaching decodes it, and its true corners (its .json) in that decode's pixels."""
    photo = decode_photo(path.read_bytes(), min_side=tuning.LEARN_SIDE)
    truth = np.float32(json.loads(path.with_suffix(".json").read_text())["corners"]) / photo.scale
    return photo, truth


def cells_off(quad: np.ndarray, truth: np.ndarray) -> float:
    """How far an outline's corners lie from the truth's (the farthest, in cells; any start corner)."""
    return _match_corners(quad, truth)[1] / (quad_side(truth) / 4)


def taught_off(path: Path, monkeypatch) -> tuple[object, list[float]]:
    """The lesson of the teaching photo ``path`` (its grid and true corners in its .json), and how far
    each outline its tiles were cut through (``learn.cut_tiles``) lies from the true corners (cells)."""
    from vision import learn
    grid = json.loads(path.with_suffix(".json").read_text())
    offs: list[float] = []
    real = learn.cut_tiles

    def cut(photo, outline, *args, **kwargs):
        offs.append(cells_off(outline.corners, np.float32(grid["corners"]) / photo.scale))
        return real(photo, outline, *args, **kwargs)
    monkeypatch.setattr(learn, "cut_tiles", cut)
    return learn.learn(path.read_bytes(), grid), offs
