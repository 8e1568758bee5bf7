"""Teaching the face-down layout from the photo's straightest square lattices (issue 8, stop 57;
``learn._backs_layout``, ``stages.straightest_lattices``).

The plan's sixth photo is a layout of 16 backs. Dark backs on a dark table look like it by colour
and texture: the masks hold no candidate within a cell of the layout, the table's test refuses even
the true layout, and the page had to ask the teacher for the four corners (9 of the 13 layouts not
found on the dev sets at stop 56). The photo's straightest square lattices, searched over position,
size and turn, hold one a tenth of a cell off it; it is told from a lattice a cell off, and from a
page or a floor, by its cells being alike and the table beyond each side unlike them. The photos here
are dev material: the face-down photos of sets 9309 (variant J) and 9382 (H), and photos of no planet
of sets 9310 (K: a page of text running out of the photo) and 9308 (I: planks, in
``box2-teach-disc``), and seen set box2-heldout8's n03 (in ``sample_photos``)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from vision import learn, tuning
from vision.box import Box
from vision.stages import decode_photo, moved_in_lattice, oriented_edges, straightest_lattices

DATA = Path(__file__).resolve().parent / "data" / "box2-teach-backs"
DISC = Path(__file__).resolve().parent / "data" / "box2-teach-disc"
SEEN = Path(__file__).resolve().parent.parent / "sample_photos" / "box2-heldout8" / "test"
FACE_DOWN = ["f9309J-t06", "f9382H-t06"]


def _photo(path: Path):
    return decode_photo(path.read_bytes(), min_side=tuning.LEARN_SIDE)


def _truth(name: str, photo) -> np.ndarray:
    return np.float32(json.loads((DATA / f"{name}.json").read_text())["corners"]) / photo.scale


def _cells_off(found: np.ndarray, truth: np.ndarray) -> float:
    """How far an outline lies from the truth: its farthest corner, in cells."""
    cell = np.mean([np.linalg.norm(truth[i] - truth[(i + 1) % 4]) for i in range(4)]) / 4
    return float(np.linalg.norm(found - truth, axis=1).max() / cell)


@pytest.mark.parametrize("name", FACE_DOWN)
def test_a_face_down_layout_on_a_dark_table_is_found(name, monkeypatch):
    """Found within a quarter of a cell as the face-down layout; as a face-up one (no backs asked
    for), or without the lattice search, not found at all, as before."""
    photo = _photo(DATA / f"{name}.jpg")
    found = learn.find_layout(photo, backs=True)
    assert found is not None and _cells_off(found.corners, _truth(name, photo)) < 0.25
    assert learn.find_layout(photo) is None
    monkeypatch.setattr(tuning, "LEARN_BACKS", False)
    assert learn.find_layout(photo, backs=True) is None


@pytest.mark.parametrize("name", FACE_DOWN)
def test_the_straightest_lattices_hold_the_layout(name):
    """``straightest_lattices``: one of those it gives lies within 0.35 of a cell of the layout,
    no two lie within a cell of each other, and there are at most ``LATTICE_COUNT``."""
    photo = _photo(DATA / f"{name}.jpg")
    truth = _truth(name, photo)
    lattices = straightest_lattices(photo.image)
    assert 2 <= len(lattices) <= tuning.LATTICE_COUNT
    assert min(_cells_off(q, truth) for q in lattices) < 0.35
    for i, a in enumerate(lattices):
        for b in lattices[:i]:
            assert _cells_off(a, b) > tuning.LATTICE_APART


@pytest.mark.parametrize("name", FACE_DOWN)
def test_a_lattice_a_cell_off_the_backs_is_not_apart(name):
    """``_backs_apart``: the true layout's backs are alike and the table beyond each side unlike
    them (over ``LEARN_BACKS_APART``); the lattice moved a cell any way has a band of backs beyond
    one side (under it)."""
    photo = _photo(DATA / f"{name}.jpg")
    truth, edges = _truth(name, photo), oriented_edges(photo.image)
    assert learn._backs_apart(photo.image, edges, truth) >= tuning.LEARN_BACKS_APART
    for across, down in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        moved = moved_in_lattice(truth, across, down)
        assert learn._backs_apart(photo.image, edges, moved) < tuning.LEARN_BACKS_APART, (across, down)


@pytest.mark.parametrize("name", FACE_DOWN)
def test_a_lattice_half_a_cell_off_has_no_lines_on_borders(name):
    """``_lines_on_borders``: the true layout's lines are on the tiles' borders both ways; moved
    half a cell either way, its lines cross the tiles' middles."""
    photo = _photo(DATA / f"{name}.jpg")
    truth, edges = _truth(name, photo), oriented_edges(photo.image)
    assert learn._lines_on_borders(edges, truth)
    assert not learn._lines_on_borders(edges, moved_in_lattice(truth, 0.5, 0.0))
    assert not learn._lines_on_borders(edges, moved_in_lattice(truth, 0.0, 0.5))


_GUARDS = {"lines on borders": lambda mp: mp.setattr(tuning, "LEARN_BACKS_BORDERS", 0.0),
           "apart": lambda mp: mp.setattr(tuning, "LEARN_BACKS_APART", 0.0),
           "sides": lambda mp: mp.setattr(tuning, "LEARN_BACKS_SIDES", 1)}


@pytest.mark.parametrize("path, guard", [
    (DATA / "f9310K-n02.jpg", "apart"),
    (DISC / "f9308I-n01.jpg", "lines on borders"),
    (SEEN / "n03.jpg", "sides")])
def test_no_planet_is_a_face_down_layout(path, guard, monkeypatch):
    """Photos of no planet sent as the face-down layout: nothing is found, and learning one says
    so and leaves the box unchanged. Each guard is needed by one of them: with it off, a lattice on
    the page of text running out of the photo, on the planks, or in a corner of the photo on the
    table's pattern (the table beyond two of its sides only) is taken."""
    photo = _photo(path)
    assert learn.find_layout(photo, backs=True) is None
    box = Box()
    lesson = learn.learn(path.read_bytes(), {"cells": [["back"] * 4] * 4}, box)
    assert not lesson.ok and lesson.not_found and "4×4" in lesson.error and lesson.box is box
    _GUARDS[guard](monkeypatch)
    assert learn.find_layout(photo, backs=True) is not None


def test_learning_the_face_down_layout_adds_its_backs():
    """The whole of ``learn``: the face-down photo found by the lattice search teaches the box its
    backs, 16 of them, each where it lies."""
    name = "f9382H-t06"
    grid = json.loads((DATA / f"{name}.json").read_text())
    lesson = learn.learn((DATA / f"{name}.jpg").read_bytes(), {"cells": grid["cells"]}, Box())
    assert lesson.ok, lesson.error
    assert len(lesson.learned) == 16
    assert {s.name for s in lesson.box.samples.values()} == {"back"}
