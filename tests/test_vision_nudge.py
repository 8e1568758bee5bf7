"""An outline moved in its own lattice (``stages.moved_in_lattice``)."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.stages import moved_in_lattice

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
