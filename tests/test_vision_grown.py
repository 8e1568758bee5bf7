"""The grown look (issue 8, stop 55; ``tuning.GROW_LOOK``, ``reader._read_grown``).

A planet whose outer tiles look like the table (pink-skied corner tiles on orange wood under a
dim lamp, dark edge tiles on a dark table) gives the masks an outline that holds only part of
it: its round disc, or 4 cells by 3. No look found an outline near enough for the lattice fit to
pull it onto the planet, and the photo was refused. The last look grows each outline found to a
whole planet (``stages.grown_quads``), reads every one cheaply, and reads the best in full."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import reads_the_planet
from vision import reader, tuning
from vision.stages import disc_quads, grown_quads

DIM = Path(__file__).resolve().parent / "data" / "box2-f9327H-dim"


def _planet(cx: float, cy: float, side: float, turn: float) -> np.ndarray:
    """A planet's outline: corners clockwise from the first row's first tile (image axes, y down)."""
    a = np.radians(turn)
    across, down = np.array([np.cos(a), np.sin(a)]) * side, np.array([-np.sin(a), np.cos(a)]) * side
    c = np.array([cx, cy]) - (across + down) / 2
    return np.float64([c, c + across, c + across + down, c + down])


def _part(planet: np.ndarray, cols: tuple[int, int], rows: tuple[int, int]) -> np.ndarray:
    """The outline of the planet's cells ``cols`` [from, to) by ``rows`` [from, to)."""
    o, across, down = planet[0], (planet[1] - planet[0]) / 4, (planet[3] - planet[0]) / 4
    (c0, c1), (r0, r1) = cols, rows
    return np.float64([o + c0 * across + r0 * down, o + c1 * across + r0 * down,
                       o + c1 * across + r1 * down, o + c0 * across + r1 * down])


def _nearest(planet: np.ndarray, quads: list) -> float:
    """How far the grown outline nearest the planet lies from it: its farthest corner, in cells."""
    cell = np.linalg.norm(planet[1] - planet[0]) / 4
    return min(float(np.linalg.norm(q - planet, axis=1).max()) for q in quads) / cell


PLANETS = dict(cx=st.floats(300, 900), cy=st.floats(300, 900), side=st.floats(120, 500), turn=st.floats(-45, 45))


@settings(max_examples=60, deadline=None)
@given(**PLANETS, left_out=st.sampled_from(["top", "bottom", "left", "right"]))
def test_four_cells_by_three_grow_to_the_planet(cx, cy, side, turn, left_out):
    """A row or column of tiles left out of the outline, on any side, at any turn: one grown
    outline is the planet (each corner within 0.01 of a cell), corners in the same order."""
    planet = _planet(cx, cy, side, turn)
    cols = {"left": (1, 4), "right": (0, 3)}.get(left_out, (0, 4))
    rows = {"top": (1, 4), "bottom": (0, 3)}.get(left_out, (0, 4))
    assert _nearest(planet, grown_quads(_part(planet, cols, rows))) < 0.01


@settings(max_examples=60, deadline=None)
@given(**PLANETS, corner=st.sampled_from([(0, 0), (0, 1), (1, 0), (1, 1)]))
def test_three_cells_by_three_grow_to_the_planet(cx, cy, side, turn, corner):
    """3 cells by 3 at any of the planet's corners grow to the planet."""
    planet = _planet(cx, cy, side, turn)
    i, j = corner
    assert _nearest(planet, grown_quads(_part(planet, (i, i + 3), (j, j + 3)))) < 0.01


@settings(max_examples=30, deadline=None)
@given(**PLANETS)
def test_the_planets_disc_grows_to_the_planet(cx, cy, side, turn):
    """The square round the planet's disc (the planet without its corners' tiles, 1/1.2 of it,
    the same centre) grows to the planet. A whole planet's outline grows only to others, none
    within 0.3 of a cell of it (the look weighs the outlines found as they are besides)."""
    planet = _planet(cx, cy, side, turn)
    centre = planet.mean(axis=0)
    disc = centre + (planet - centre) / 1.2
    assert _nearest(planet, grown_quads(disc)) < 0.01
    assert _nearest(planet, grown_quads(planet)) > 0.3


def _round_planet(turn: float, side: int, x: int, y: int) -> tuple[np.ndarray, np.ndarray]:
    """A planet drawn as the second box draws it, dim: a dark disc touching its sides' middles,
    the tiles' gaps across it, on a table barely lighter than its corner tiles: (photo, outline)."""
    img = np.full((900, 1200, 3), (40, 70, 95), np.uint8)   # dim orange wood
    planet = _planet(600 + x, 450 + y, side, turn)
    cv2.fillConvexPoly(img, planet.astype(np.int32), (50, 60, 100))   # pink-skied corner tiles, dim
    centre = planet.mean(axis=0)
    cv2.circle(img, tuple(int(c) for c in centre), side // 2, (60, 35, 30), -1)   # the dark blue disc
    for k in range(1, 4):
        for a, b in ((_part(planet, (k, 4), (0, 4))[0], _part(planet, (k, 4), (0, 4))[3]),
                     (_part(planet, (0, 4), (k, 4))[0], _part(planet, (0, 4), (k, 4))[1])):
            cv2.line(img, tuple(int(v) for v in a), tuple(int(v) for v in b), (20, 20, 20), 3)
    return img, planet


def test_a_round_planet_is_found_by_its_disc():
    """40 dim round planets (``_round_planet``; turned -44 to 44 degrees, sides 240-600 px, moved
    about the photo; drawn from a seeded generator): for all but at most 2, one of the squares about
    the photo's likeliest discs is the planet, turned as its gaps run (within 0.25 of a cell).
    Not every one: now and then (2 of 420 drawn, measured) a circle the gaps cut inside the disc
    ranks first and, within HoughCircles' least distance between centres, hides the disc itself.
    Until stop 55's review this was a hypothesis test of 12 examples, which failed once so."""
    rng = np.random.default_rng(55)
    missed = []
    for _ in range(40):
        turn, side = float(rng.uniform(-44, 44)), int(rng.integers(240, 601))
        img, planet = _round_planet(turn, side, int(rng.integers(-150, 151)), int(rng.integers(-100, 101)))
        found = disc_quads(img)
        if not found or _nearest(planet, found) >= 0.25:
            missed.append((round(turn, 1), side))
    assert len(missed) <= 2, missed


@pytest.mark.parametrize("photo, least", [("p03", 15), ("p04", 16), ("p11", 13)])
def test_a_planet_only_part_of_which_the_masks_hold_is_read(dim_learned, monkeypatch, photo, least):
    """p03: the masks hold 4 cells by 3 of the planet (its top row's dark tiles in the lamp's
    shadow); p04: its blue disc; p11: nothing within 0.7 of a cell of it, only its disc's circle
    finds it. Without the grown look all three are refused; with it p03 reads 15 of its 16 cells
    right, p04 all 16 and p11 13, every wrong cell marked doubtful. (p11 read 14 until stop 59:
    the search look's block scores put one of its doubtful cells wrong; this set, 9327 of variant
    H, is one the blocks read a little worse.)"""
    path = DIM / "test" / f"{photo}.jpg"
    ex = reader.exemplars_in(dim_learned)
    monkeypatch.setattr(tuning, "GROW_LOOK", False)
    assert not reader.read_box(path.read_bytes(), ex).ok
    monkeypatch.setattr(tuning, "GROW_LOOK", True)
    reads_the_planet(path, ex, least)


def test_a_photo_with_no_planet_is_still_refused(dim_learned):
    """The set's first no-planet photo (the same dim wood) goes through every look, the grown
    one too, and is refused."""
    reading = reader.read_box((DIM / "test" / "n01.jpg").read_bytes(), reader.exemplars_in(dim_learned))
    assert not reading.ok and reading.error


UNFITTED = Path(__file__).resolve().parent / "data" / "box2-H-unfitted"


@pytest.mark.parametrize("photo, least", [("9909-b09", 12), ("9909-b01", 15)])
def test_a_planet_the_lattice_fit_slides_off_is_read_unfitted(dim_learned, monkeypatch, photo, least):
    """Dev set 9909 (variant H: every tile hatched with thin diagonal lines, a neighbour's planet
    beside), read with 9327's box. In b09 the grown look's best outline lies 0.39 of a cell off the
    planet and the lattice fit slides it onto the hatching, 0.87 off: no look reads a planet and the
    photo is refused. Read as it lies, refitted by where its tiles were found, it ends 0.10 off and
    reads as a planet (``tuning.UNFITTED_LOOK``): 12 cells right or more, every wrong one doubtful.
    b01: 15 or more (read as it lies, the neighbour's planet reads first, off the frame's middle;
    the beside look then finds the planet aimed at)."""
    path = UNFITTED / f"{photo}.jpg"
    ex = reader.exemplars_in(dim_learned)
    monkeypatch.setattr(tuning, "UNFITTED_LOOK", False)
    assert not reader.read_box(path.read_bytes(), ex).ok
    monkeypatch.setattr(tuning, "UNFITTED_LOOK", True)
    reads_the_planet(path, ex, least)


def test_a_planet_read_unfitted_off_the_middle_is_kept_only_through_the_beside_look(dim_learned, monkeypatch):
    """Fresh set 9847's b07 (variant H, made to measure the unfitted look, then looked into): two small
    planets, the one aimed at 0.10 of the short side off the frame's middle and found by no look, the
    neighbour's 0.25 off. Read as it lies, the neighbour's reads as a planet. Kept as it is (no
    ``UNFITTED_MIDDLE``) the photo scores the neighbour's planet, some of its cells sure: worse than
    the refusal before the look. As set, a planet the unfitted look reads off the middle is kept only
    when the beside look finds one nearer the middle: here the planet aimed at, 14 cells right or
    more, every wrong one doubtful."""
    from vision.bench import compare, load_neighbour, load_truth, rotations
    path = UNFITTED / "9847-b07.jpg"
    ex = reader.exemplars_in(dim_learned)
    monkeypatch.setattr(tuning, "UNFITTED_LOOK", False)
    assert not reader.read_box(path.read_bytes(), ex).ok
    monkeypatch.setattr(tuning, "UNFITTED_LOOK", True)
    monkeypatch.setattr(tuning, "UNFITTED_MIDDLE", 9.0)
    kept_as_is = reader.read_box(path.read_bytes(), ex)
    assert kept_as_is.ok
    right, k = compare(kept_as_is.cells, load_truth(path.with_suffix(".json")))
    assert sum(compare(kept_as_is.cells, load_neighbour(path.with_suffix(".json")))[0]) >= 12
    assert any(not right[q] and not rotations(kept_as_is.doubtful)[k][q] for q in range(16))
    monkeypatch.undo()
    reads_the_planet(path, ex, 14)
