"""Teaching moves a layout found a cell off back onto the layout (``vision.learn._moved_onto_layout``,
``tuning.LEARN_MOVED``). On a table of coloured shapes and ruled lines (the second box's variant G),
a lattice a column off the layout can pass every test of ``find_layout``: three of its columns'
lines lie on the tiles' borders, its outer line on the table's own shapes, and its cells are busy
like tiles (fresh set f4017G's t04, stop 50: found 1.03 cells off, and 16 tiles taught from the
wrong squares). Moved a cell back, its lines are straighter and its weakest line stronger.

The photo is f4017G's t04 (``tests/data/box2-f4017G-busy-table-t04``: the second box's generator,
``python -m vision.samples_box DIR --seed 4017 --variant G``), its true corners in its .json."""
import json
from pathlib import Path

import numpy as np
import pytest

from vision import learn, tuning
from vision.stages import Outline, oriented_edges
from layout_truth import cells_off, photo_and_truth, taught_off

ROOT = Path(__file__).resolve().parents[1]
BUSY = ROOT / "tests" / "data" / "box2-f4017G-busy-table-t04.jpg"
BOX2 = ROOT / "sample_photos" / "box2" / "teach"


def test_a_layout_found_a_column_off_onto_a_busy_table_is_moved_back(monkeypatch):
    photo, truth = photo_and_truth(BUSY)
    found = learn.find_layout(photo)
    assert found is not None and cells_off(found.corners, truth) < 0.25
    monkeypatch.setattr(tuning, "LEARN_MOVED", False)       # as before: the lattice a column off
    before = learn.find_layout(photo)
    assert before is not None and cells_off(before.corners, truth) > 0.8


def test_the_lesson_of_that_photo_cuts_its_tiles_from_the_layout(monkeypatch):
    """The tiles taught are those of the layout: the lesson's outline is the one found, on the layout."""
    lesson, offs = taught_off(BUSY, monkeypatch)
    assert lesson.ok, lesson.error
    off, = offs
    assert off < 0.25


@pytest.mark.parametrize("name", ["t01", "t02", "t03", "t04", "t05"])
def test_a_lattice_on_the_layout_is_not_moved(name):
    photo, truth = photo_and_truth(BOX2 / f"{name}.jpg")
    on = Outline(truth, 0.0)
    moved = learn._moved_onto_layout(learn._not_table(photo.image), oriented_edges(photo.image), on)
    assert moved is on


@pytest.mark.parametrize("dy", [-1, 1])
def test_a_lattice_a_row_off_comes_back(dy):
    photo, truth = photo_and_truth(BOX2 / "t01.jpg")
    off = Outline(learn._moved_lattices(truth)[learn._AWAY.index((0, dy))], 0.0)
    moved = learn._moved_onto_layout(learn._not_table(photo.image), oriented_edges(photo.image), off)
    assert cells_off(moved.corners, truth) < 0.15


# --- a layout is photographed from above (learn._from_above, tuning.LEARN_FROM_ABOVE) ---------------
# Two more fresh photos of the second box's generator (stop 50): f6006G's t04 (seed 6006, variant G),
# whose best lattice was fitted across the busy table's shapes, its far side 1.41 times its near
# one (1.36 cells off; 16 tiles taught from the wrong squares); and f5003D's t05 (seed 5003,
# variant D), whose best lattice was sheared 20° across the art (1.04 cells off, taught too).

SHEARED = ROOT / "tests" / "data" / "box2-f5003D-sheared-t05.jpg"
KEYSTONED = ROOT / "tests" / "data" / "box2-f6006G-busy-table-t04.jpg"


def test_a_square_seen_from_above_is_and_a_sheared_or_keystoned_one_is_not():
    square = np.float32([[0, 0], [100, 0], [100, 100], [0, 100]])
    assert learn._from_above(square)
    assert learn._from_above(square + np.float32([[0, 0], [0, 8], [0, 8], [0, 0]]))     # 4.6°: a hand's tilt
    assert not learn._from_above(square + np.float32([[0, 0], [0, 30], [0, 30], [0, 0]]))   # sheared 16.7°
    assert not learn._from_above(np.float32([[0, 0], [100, -20], [100, 120], [0, 100]]))    # far side 1.4 times
    for path in sorted(BOX2.glob("t*.jpg")):                                             # every true layout
        assert learn._from_above(np.float32(json.loads(path.with_suffix(".json").read_text())["corners"])), path.name


def test_a_sheared_lattice_is_passed_over_for_the_layout(monkeypatch):
    photo, truth = photo_and_truth(SHEARED)
    found = learn.find_layout(photo)
    assert found is not None and cells_off(found.corners, truth) < 0.25
    monkeypatch.setattr(tuning, "LEARN_FROM_ABOVE", False)   # as before: the sheared lattice
    monkeypatch.setattr(tuning, "LEARN_UNFITTED", False)     # (which the masks' own outline, 0.16 off, also mends)
    before = learn.find_layout(photo)
    assert before is not None and cells_off(before.corners, truth) > 0.8


def test_a_keystoned_lattice_on_a_busy_table_is_not_taught_and_the_page_asks_for_corners(monkeypatch):
    """Without the disc's squares (stop 56), no other candidate is found, and the page asks for
    the corners; with them, the layout is found from the planet's disc (below)."""
    monkeypatch.setattr(tuning, "LEARN_DISCS", False)
    grid = json.loads(KEYSTONED.with_suffix(".json").read_text())
    box = learn.Box()
    lesson = learn.learn(KEYSTONED.read_bytes(), {"cells": grid["cells"]}, box)
    assert not lesson.ok and lesson.not_found and lesson.box is box and not lesson.learned
    tapped = learn.learn(KEYSTONED.read_bytes(), {"cells": grid["cells"]}, box, corners=grid["corners"])
    assert tapped.ok, tapped.error                                 # its corners, tapped, teach it
    monkeypatch.setattr(tuning, "LEARN_FROM_ABOVE", False)       # as before: taught 1.36 cells off
    photo, truth = photo_and_truth(KEYSTONED)
    before = learn.find_layout(photo)
    assert before is not None and cells_off(before.corners, truth) > 1.0


def test_the_busy_tables_layout_is_found_from_its_disc():
    """Stop 56's disc pass (``learn._disc_layout``) finds f6006G's t04 where the keystoned lattice
    was: within a quarter of a cell."""
    photo, truth = photo_and_truth(KEYSTONED)
    found = learn.find_layout(photo)
    assert found is not None and cells_off(found.corners, truth) < 0.25
