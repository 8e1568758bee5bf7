"""A planet whose blob in the table masks a strip of the table joins (issue 8's trimmed look,
``tuning.TRIM_LOOK``).

The masks find "not the table"; a strip of shadowed cloth, a fold or a stripe unlike the photo's
border that touches the planet joins its blob, and the hull's corners go out along the strip: every
outline lies cells off and the planet is refused (fresh seed 101's p17, on gingham under a soft
shadow). When no other look found a planet, the reader opens each mask's blob by a disc a little
smaller than a cell (``outline.trimmed``) and reads the outlines of what is left."""
from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from vision import reader, stages, tuning
from vision.bench import compare, load_truth
from vision.outline import _quads_from_mask, trimmed
from layout_truth import cells_off

ROOT = Path(__file__).resolve().parent.parent
TEST = ROOT / "sample_photos" / "box2" / "test"


def test_a_strip_hanging_off_a_square_is_trimmed_away():
    """A 120 px square with a 14 px strip running 150 px out of its corner: the blob's outlines go
    out along the strip; trimmed, both lie on the square."""
    mask = np.zeros((400, 400), np.uint8)
    square = np.float32([[100, 100], [220, 100], [220, 220], [100, 220]])
    cv2.fillConvexPoly(mask, square.astype(np.int32), 255)
    cv2.line(mask, (215, 215), (320, 320), 255, 14)
    plain = _quads_from_mask(mask)
    cut = _quads_from_mask(mask, trim=tuning.TRIM_OPEN)
    assert plain and min(np.abs(q - square).max() for q in plain) > 40
    assert len(cut) == 2
    assert all(np.abs(q - square).max() <= 5 for q in cut)   # a disc's rounding of the corners: 0.04 of the side
    assert cv2.countNonZero(trimmed(mask, tuning.TRIM_OPEN)) < 120 * 120 * 1.02


def test_trimming_leaves_a_plain_square_as_it_is():
    """A blob with nothing hanging off keeps its outline, but for the corners the disc rounds (at
    most 0.04 of its side: the lattice fit that follows climbs from there)."""
    mask = np.zeros((300, 300), np.uint8)
    square = np.float32([[80, 80], [200, 80], [200, 200], [80, 200]])
    cv2.fillConvexPoly(mask, square.astype(np.int32), 255)
    assert all(np.abs(q - square).max() <= 5 for q in _quads_from_mask(mask, trim=tuning.TRIM_OPEN))


def _shadowed(name: str, width: float = 0.5, length: float = 1.0, dark: float = 0.3) -> tuple[np.ndarray, np.ndarray]:
    """box2's photo ``name`` with a shadow strip (``width`` cells wide, ``dark`` of the light) running
    ``length`` planet sides out of the planet's first corner, and the truth's corners."""
    img = cv2.imread(str(TEST / name))
    truth = np.float32(json.loads((TEST / name).with_suffix(".json").read_text())["corners"])
    side = stages.quad_side(truth) / 4
    out = (truth[0] - truth.mean(0)) / np.linalg.norm(truth[0] - truth.mean(0))
    a, b = truth[0] + out * 0.1 * side, truth[0] + out * length * 4 * side
    strip = np.zeros(img.shape[:2], np.uint8)
    cv2.line(strip, tuple(int(v) for v in a), tuple(int(v) for v in b), 255, int(width * side))
    planet = np.zeros_like(strip)
    cv2.fillConvexPoly(planet, truth.astype(np.int32), 255)
    strip[planet > 0] = 0
    shade = cv2.GaussianBlur(strip, (0, 0), 3).astype(np.float32) / 255
    return (img * (1 - (1 - dark) * shade[..., None])).astype(np.uint8), truth


def test_a_shadow_strip_joined_to_the_planet_is_trimmed_off_and_the_planet_read(box2_learned):
    """p01 with a shadow strip running out of its corner: the texture masks' outlines (the first
    two, what finds most planets) lie cells off; the first trimmed outline lies on the planet and
    reads all 16 cells."""
    img, truth = _shadowed("p01.jpg")
    photo = stages.Photo(img, 1.0)
    kept: dict = {}
    first = stages.candidate_quads(img, kept=kept)[:2]
    assert min(cells_off(q, truth) for q in first) > 2
    trimmed_first = next(stages.trimmed_outlines(photo, kept))
    assert cells_off(trimmed_first.corners, truth) < 0.25
    ex = reader.exemplars_in(box2_learned)
    v = reader.read_outline(photo, trimmed_first, ex)
    assert reader.is_planet(v, ex)
    assert sum(compare([ex.names[r] for r in v.rows], load_truth(TEST / "p01.json"))[0]) == 16


def test_the_trimmed_look_comes_only_when_no_other_look_found_a_planet_surely(box2_learned, monkeypatch):
    """``read_photo`` asks for the trimmed outlines on a photo with no planet, and on a planet read
    less than surely (``TRIM_UNSURE``; here every reading made unsure by raising READ_SURE), never on
    a planet the first look reads surely."""
    asked = []
    real = reader.trimmed_outlines
    monkeypatch.setattr(reader, "trimmed_outlines", lambda *a, **k: asked.append(1) or real(*a, **k))
    ex = reader.exemplars_in(box2_learned)
    v = reader.read_photo(stages.decode_photo((TEST / "p01.jpg").read_bytes()), ex)
    assert reader.is_planet(v, ex) and asked == []
    v = reader.read_photo(stages.decode_photo((TEST / "n01.jpg").read_bytes()), ex)
    assert not reader.is_planet(v, ex) and asked == [1]
    p01 = stages.decode_photo((TEST / "p01.jpg").read_bytes())
    monkeypatch.setattr(tuning, "READ_SURE", 10.0)
    assert reader.is_planet(reader.read_photo(p01, ex), ex) and asked == [1, 1]
    monkeypatch.setattr(tuning, "TRIM_UNSURE", False)
    reader.read_photo(p01, ex)
    assert asked == [1, 1]
    monkeypatch.setattr(tuning, "TRIM_LOOK", False)
    reader.read_photo(stages.decode_photo((TEST / "n01.jpg").read_bytes()), ex)
    assert asked == [1, 1]


def test_the_outlines_a_cap_left_unread_are_read_last_when_no_look_found_a_planet(box2_learned, monkeypatch):
    """``REST_LOOK``: with every look's cap at nothing (and the other looks off), p01 is read from
    the outlines the first look left unread, in the first look's order and none lost at the cap;
    without it, the photo is refused."""
    ex = reader.exemplars_in(box2_learned)
    photo = stages.decode_photo((TEST / "p01.jpg").read_bytes())
    for look in ("FLAT_LOOK", "LATE_LOOK", "GRID_LOOK", "TRIM_LOOK", "GROW_LOOK"):
        monkeypatch.setattr(tuning, look, False)
    order = [o.corners.tobytes() for o in stages.outlines_in_turn(photo)]
    read = []
    real = reader.read_outline
    monkeypatch.setattr(reader, "read_outline", lambda ph, o, *a, **k: read.append(o.corners.tobytes()) or real(ph, o, *a, **k))
    monkeypatch.setattr(tuning, "READ_OUTLINES", 1)
    monkeypatch.setattr(tuning, "READ_SURE", 10.0)       # no reading stops the looks: all are read
    monkeypatch.setattr(tuning, "PLANET_LATTICE", 10.0)  # … and none is a planet, so the rest is read
    reader.read_photo(photo, ex)
    looked = [c for c in read if c in order]            # not the refits (read_outline reads again through them)
    assert len(order) >= 3 and looked == order[:1 + tuning.REST_OUTLINES]
    monkeypatch.undo()
    for look in ("FLAT_LOOK", "LATE_LOOK", "GRID_LOOK", "TRIM_LOOK", "GROW_LOOK"):
        monkeypatch.setattr(tuning, look, False)
    monkeypatch.setattr(tuning, "READ_OUTLINES", 0)
    assert reader.is_planet(reader.read_photo(photo, ex), ex)
    monkeypatch.setattr(tuning, "REST_LOOK", False)
    assert reader.read_photo(photo, ex) is None
