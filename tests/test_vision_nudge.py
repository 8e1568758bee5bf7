"""A planet read less surely, read again through its outline nudged in its own lattice
(issue 8's small-planets round, stop 51: ``reader.nudged``, ``tuning.NUDGE``).

Fresh seeds 166-181 of the second box lost 29 of their 32 wrong cells on small planets whose
outline lay 0.2-0.5 of a cell off; read through the truth's outline they read every cell, and
at a higher score. The nudge moves the outline while the score says it reads better."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision import reader, stages, tuning
from vision.bench import compare, load_truth, rotations
from vision.diagnose import _match_corners as match_corners
from vision.stages import Outline, moved_in_lattice, quad_side

ROOT = Path(__file__).resolve().parent.parent
BOX2 = ROOT / "sample_photos" / "box2" / "test"

SQUARE = np.float32([[100, 50], [300, 50], [300, 250], [100, 250]])   # cells of 50 px


def test_moved_in_lattice_moves_by_cells_scales_and_turns_about_the_centre():
    assert np.allclose(moved_in_lattice(SQUARE), SQUARE, atol=1e-3)
    assert np.allclose(moved_in_lattice(SQUARE, across=1.0), SQUARE + [50, 0], atol=1e-3)
    assert np.allclose(moved_in_lattice(SQUARE, down=-0.5), SQUARE - [0, 25], atol=1e-3)
    centre = SQUARE.mean(axis=0)
    assert np.allclose(moved_in_lattice(SQUARE, scale=0.5), centre + (SQUARE - centre) / 2, atol=1e-3)
    # a quarter turn of a square lands each corner on the next one
    assert np.allclose(moved_in_lattice(SQUARE, turn=90.0), np.roll(SQUARE, -1, axis=0), atol=1e-3)


@settings(max_examples=40, deadline=None)
@given(x=st.floats(-3, 3), y=st.floats(-3, 3), angle=st.floats(-40, 40), tilt=st.floats(-0.2, 0.2))
def test_moves_follow_the_outlines_own_lattice(x, y, angle, tilt):
    """In a turned, keystoned outline a cell's move lands where the outline's own lattice puts the
    next cell, and a move there and back is none."""
    a = np.deg2rad(angle)
    spin = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    quad = (SQUARE - 200) @ spin.T + 200 + [x, y]
    quad[1] += [0, 200 * tilt]
    quad = quad.astype(np.float32)
    there = moved_in_lattice(quad, across=0.5, down=-0.25)
    assert np.allclose(moved_in_lattice(there, across=-0.5, down=0.25), quad, atol=0.05)
    # the top row's corners move along the top side, by a part of it (projectively, near a quarter)
    shifted = moved_in_lattice(quad, across=1.0)
    along = (quad[1] - quad[0]) / np.linalg.norm(quad[1] - quad[0])
    step = shifted[0] - quad[0]
    assert abs(float(along[0] * step[1] - along[1] * step[0])) < 0.05 * np.linalg.norm(step) + 1e-3
    assert 0.15 < np.linalg.norm(step) / np.linalg.norm(quad[1] - quad[0]) < 0.35


def _cell_off(a: np.ndarray, b: np.ndarray) -> float:
    """How far the outline ``a`` lies from ``b`` (either corner order), as a part of ``b``'s cell."""
    return match_corners(a, b)[1] / (quad_side(b) / 4)


@pytest.fixture
def nudge_on(monkeypatch):
    """The nudge on for planets of any size (box2's test planets are 0.3-0.8 of the photo's short side)."""
    monkeypatch.setattr(tuning, "NUDGE", True)
    monkeypatch.setattr(tuning, "NUDGE_SMALL", 1.0)


@pytest.mark.parametrize("name,move", [("p01", (0.2, -0.2, 1.0, 0.0)), ("p12", (-0.2, 0.0, 1.0, 0.0)),
                                       ("p21", (0.0, 0.2, 1.0, 0.0)), ("p05", (0.0, 0.0, 1.0, 6.5)),
                                       ("p09", (0.0, 0.0, 1.08, 0.0))])
def test_an_outline_read_off_is_nudged_back_onto_the_planet(box2_learned, nudge_on, monkeypatch, name, move):
    """box2's planet read through its own outline moved a fifth of a cell or more off (shifted,
    turned 6.5 degrees or grown 8%) reads less
    surely (some of each tile out of its cell), still as a planet; nudged, the outline comes back
    onto the planet (as near the truth's corners as the reader's own outline, within a tenth of a
    cell: p12's tiles lie loose, and its outline 0.2 of a cell off the truth's), and reads as many cells
    right as the reader's own outline, as surely."""
    ex = reader.exemplars_in(box2_learned)
    photo = stages.decode_photo((BOX2 / f"{name}.jpg").read_bytes())
    truth = load_truth(BOX2 / f"{name}.json")
    true_corners = np.float32(json.loads((BOX2 / f"{name}.json").read_text())["corners"]) / photo.scale
    with stages.one_thread():
        found = reader.read_photo(photo, ex)
        off = Outline(moved_in_lattice(found.outline.corners, *move), found.outline.fit)
        read_off = reader.read_outline(photo, off, ex, refit=0, turns=(found.turn,))
        assert read_off.score < found.score - 0.1 and reader.is_planet(read_off, ex)
        assert _cell_off(read_off.outline.corners, true_corners) > 0.2
        monkeypatch.setattr(tuning, "NUDGE_BELOW", read_off.score + 0.01)   # nudge the reading off
        back = reader.nudged(photo, read_off, ex)
    assert _cell_off(back.outline.corners, true_corners) < _cell_off(found.outline.corners, true_corners) + 0.1
    assert back.score > found.score - 0.02
    def cells_right(v):   # once the look-alikes are told apart, as read_box does next
        told = reader.tell_lookalikes(v, ex, photo)
        return sum(compare([ex.names[r] for r in told.rows], truth)[0])
    assert cells_right(back) >= cells_right(found) >= 15


def test_a_reading_is_left_as_it_is_when_off_sure_large_or_no_planet(box2_learned, monkeypatch):
    """Off (``NUDGE`` False), read surely (at ``NUDGE_BELOW`` or over), a planet larger than
    ``NUDGE_SMALL`` of the photo's short side, or not a planet: the reading comes back as it was,
    and no outline is read again."""
    ex = reader.exemplars_in(box2_learned)
    photo = stages.decode_photo((BOX2 / "p01.jpg").read_bytes())
    with stages.one_thread():
        found = reader.read_photo(photo, ex)
        off = Outline(moved_in_lattice(found.outline.corners, 0.3, -0.3), found.outline.fit)
        read_off = reader.read_outline(photo, off, ex, refit=0, turns=(found.turn,))
    reads = []
    monkeypatch.setattr(reader, "read_outline", lambda *a, **k: reads.append(a) or read_off)
    monkeypatch.setattr(tuning, "NUDGE", False)
    assert reader.nudged(photo, read_off, ex) is read_off
    monkeypatch.setattr(tuning, "NUDGE", True)
    monkeypatch.setattr(tuning, "NUDGE_BELOW", read_off.score)
    assert reader.nudged(photo, read_off, ex) is read_off
    monkeypatch.setattr(tuning, "NUDGE_BELOW", 9.0)
    planet_side = quad_side(read_off.outline.corners) / min(photo.image.shape[:2])   # p01: about 0.31
    monkeypatch.setattr(tuning, "NUDGE_SMALL", planet_side - 0.01)
    assert reader.nudged(photo, read_off, ex) is read_off
    monkeypatch.setattr(tuning, "NUDGE_SMALL", 1.0)
    monkeypatch.setattr(reader, "is_planet", lambda v, ex: False)
    assert reader.nudged(photo, read_off, ex) is read_off
    assert reads == []


def test_the_nudge_reads_at_most_its_cap(box2_learned, nudge_on, monkeypatch):
    """However the score moves, a nudge reads the photo ``NUDGE_READS`` times at most."""
    ex = reader.exemplars_in(box2_learned)
    photo = stages.decode_photo((BOX2 / "p01.jpg").read_bytes())
    with stages.one_thread():
        found = reader.read_photo(photo, ex)
    climbing = iter(range(1, 10_000))
    reads = []

    def better(photo, outline, ex, refit=0, turns=None):
        reads.append(outline)
        return reader.replace(found, outline=outline, sims=found.sims + 0.01 * next(climbing))

    monkeypatch.setattr(reader, "read_outline", better)
    monkeypatch.setattr(tuning, "NUDGE_BELOW", 99.0)
    monkeypatch.setattr(tuning, "NUDGE_READS", 13)
    reader.nudged(photo, found, ex)
    assert len(reads) == 13


SMALL = ROOT / "tests" / "data" / "box2-seed177-small-p13.jpg"


def test_a_small_planet_found_off_is_read_right_nudged(box2_learned, monkeypatch):
    """Fresh seed 177's p13 (the second box's own generator, variant A: box2's art): a small planet
    (0.30 of the photo's short side) on a dark table, its dark corners lost in it. Its outline is
    found 0.41 of a cell off the truth and reads 14 of 16 cells; nudged it lies 0.19 off and reads
    all 16, none wrong and sure. The search look (stop 54's ``reader.look_searched``), a later
    stage, puts those two cells right through the outline as found too; it is held off here, so the
    test is about the outline the nudge finds."""
    monkeypatch.setattr(tuning, "SEARCH_LOOK", False)
    ex = reader.exemplars_in(box2_learned)
    data = SMALL.read_bytes()
    truth = load_truth(SMALL.with_suffix(".json"))
    true_corners = np.float32(json.loads(SMALL.with_suffix(".json").read_text())["corners"])

    def read(nudge: bool):
        monkeypatch.setattr(tuning, "NUDGE", nudge)
        r = reader.read_box(data, ex)
        assert r.ok
        right, k = compare(list(r.cells), truth)
        sure_wrong = [q for q, (ok, doubtful) in enumerate(zip(right, rotations(list(r.doubtful))[k]))
                      if not ok and not doubtful]
        return sum(right), sure_wrong, _cell_off(np.float32(r.quad), true_corners)

    right_before, _, off_before = read(False)
    right_after, sure_wrong, off_after = read(True)
    assert right_before <= 14 and off_before > 0.35
    assert right_after == 16 and sure_wrong == []
    assert off_after < 0.25
