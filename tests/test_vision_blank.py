"""Teaching never takes a square of the table for a tile (``vision.learn.blank_faces``,
``tuning.LEARN_BLANK``): a layout found, or shown by its corners, a column off onto a plain table
cuts that column's "tiles" from the table, and the box would then hold flat pictures that match any
plain cell of a later photo surely and wrongly (fresh set f4006G, stop 49). Such a lesson is refused
and learns nothing; a layout found off asks for its corners.

The photos are box2's layout 1 (``sample_photos/box2/teach/t01``, its true corners in its .json),
with a strip painted flat as a plain table would show it."""
import json
from pathlib import Path

import cv2
import numpy as np

from vision import learn as learn_module
from vision import tuning
from vision.box import Box
from vision.learn import _UNIT as UNIT  # the layout's 4×4 lattice, a cell a unit
from vision.learn import blank_faces, fine_detail, layout_from_corners, learn

ROOT = Path(__file__).resolve().parents[1]
T01 = ROOT / "sample_photos" / "box2" / "teach" / "t01.jpg"
FLAT = (60, 140, 200)   # a plain table's colour (BGR), like no tile's face


def _grid() -> dict:
    return json.loads(T01.with_suffix(".json").read_text())


def _cells(grid: dict) -> list:
    return [c for row in grid["cells"] for c in row]


def _lattice(corners) -> np.ndarray:
    """The layout's lattice (0-4 square) onto the file's pixels."""
    return cv2.getPerspectiveTransform(UNIT, np.float32(corners))


def _with_flat_columns(columns: tuple) -> bytes:
    """t01 with the lattice's columns ``columns`` (x from..to, in cells; may lie beyond the layout)
    painted one plain colour, as JPEG."""
    img = cv2.imread(str(T01))
    H = _lattice(_grid()["corners"])
    x0, x1 = columns
    strip = cv2.perspectiveTransform(np.float32([[[x0, 0], [x1, 0], [x1, 4], [x0, 4]]]), H)[0]
    cv2.fillConvexPoly(img, np.int32(np.round(strip)), FLAT)
    return cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 95])[1].tobytes()


def _tiles(lesson) -> list:
    return [cv2.imdecode(np.frombuffer(s.png, np.uint8), cv2.IMREAD_COLOR) for s in lesson.learned]


def test_a_flat_face_is_blank_and_a_drawn_one_is_not():
    grid = _grid()
    lesson = learn(T01.read_bytes(), grid, Box())
    assert lesson.ok, lesson.error
    tiles, cells = _tiles(lesson), list(lesson.cells)
    assert len(tiles) == 16
    assert blank_faces(tiles, cells) == []                      # every tile of layout 1 is drawn
    flat = np.full_like(tiles[5], FLAT)
    assert fine_detail(flat) < 0.01 * np.median([fine_detail(t) for t in tiles])
    assert blank_faces(tiles[:5] + [flat] + tiles[6:], cells) == [5]
    # a slightly shaded plain square is still blank: the light's slow change is not a drawing
    shaded = np.clip(flat + np.linspace(0, 30, flat.shape[1])[None, :, None], 0, 255).astype(np.uint8)
    assert blank_faces(tiles[:5] + [shaded] + tiles[6:], cells) == [5]
    # a layout of backs only is never judged (a back may be plain); nor is an empty square
    assert blank_faces([flat] * 16, ["back"] * 16) == []
    assert blank_faces(tiles[:5] + [flat] + tiles[6:], cells[:5] + [None] + cells[6:]) == []


def test_corners_that_take_in_a_column_of_plain_table_are_refused():
    grid = _grid()
    assert learn(T01.read_bytes(), grid, Box(), corners=grid["corners"]).ok
    painted = _with_flat_columns((0.0, 1.0))                   # the layout's first column hidden
    lesson = learn(painted, grid, Box(), corners=grid["corners"])
    assert not lesson.ok and not lesson.not_found
    assert "4 of the squares inside these corners show no tile" in lesson.error, lesson.error
    assert lesson.box is not None and not lesson.box.tiles()   # nothing learned
    assert lesson.learned == ()


def test_a_layout_found_a_column_off_onto_a_plain_table_asks_for_its_corners(monkeypatch):
    """The automatic path finding the lattice a column to the left, on a plain table: refused as
    a layout not found (the pages then ask for its corners), the box as it was."""
    grid = _grid()
    H = _lattice(grid["corners"])
    off = cv2.perspectiveTransform((UNIT - np.float32([1, 0]))[None], H)[0]   # a column to the left
    painted = _with_flat_columns((-1.0, 0.0))                  # the table there made plain

    def found_off(photo, backs=False):
        return layout_from_corners(photo, off / photo.scale)
    monkeypatch.setattr(learn_module, "find_layout", found_off)
    before = Box()
    lesson = learn(painted, grid, before)
    assert not lesson.ok and lesson.not_found
    assert "4 of its squares show no tile's drawing" in lesson.error, lesson.error
    assert lesson.box is before


def test_without_the_bar_the_plain_column_is_learned(monkeypatch):
    """The check is what refuses it: with ``LEARN_BLANK`` at 0 the same corners teach four flat
    pictures (what f4006G's box held)."""
    monkeypatch.setattr(tuning, "LEARN_BLANK", 0.0)
    grid = _grid()
    lesson = learn(_with_flat_columns((0.0, 1.0)), grid, Box(), corners=grid["corners"])
    assert lesson.ok
    tiles = _tiles(lesson)
    details = [fine_detail(t) for t in tiles]
    assert sorted(range(16), key=details.__getitem__)[:4] == sorted([0, 4, 8, 12])
