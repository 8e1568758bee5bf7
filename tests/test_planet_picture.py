"""The review's picture of the planet: cut out of the photo along the reading's corners and made
square, turned as the grid reads it (``Reading.quad``: cell 0's outer corner first, clockwise, in
the upright photo's pixels; ``scorer.web.kept_photos.straightened``), so that a square of the grid
is the same square of the picture whatever way round the photo was taken."""
from __future__ import annotations

import io
import re
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from scorer.web.kept_photos import straightened
from vision.recognize import recognize
from vision.render import render_grid

ROOT = Path(__file__).resolve().parents[1]
PHOTOS = ROOT / "sample_photos"


def _grey(img: np.ndarray, side: int = 96) -> np.ndarray:
    g = cv2.resize(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), (side, side), interpolation=cv2.INTER_AREA)
    g = cv2.GaussianBlur(g, (0, 0), 1.5).astype(np.float32)
    g -= g.mean()
    return g / (np.linalg.norm(g) + 1e-6)


def _likeness_by_turn(square: np.ndarray, cells: list) -> list[float]:
    """How much ``square`` (BGR) looks like the planet ``cells`` drawn from the shipped art, with
    the drawing turned 0, 1, 2 and 3 quarter turns: the whole planet, so tiles lying loose or a
    tile whose drawing looks alike turned cannot decide it."""
    drawn = cv2.cvtColor(np.asarray(render_grid({"cells": [cells[r * 4:r * 4 + 4] for r in range(4)]}, 400)),
                         cv2.COLOR_RGB2BGR)
    g = _grey(square)
    return [float((_grey(np.ascontiguousarray(np.rot90(drawn, k))) * g).sum()) for k in range(4)]


def _upright(likeness: list[float]) -> bool:
    return likeness[0] > max(likeness[1:]) + 0.1


@pytest.mark.parametrize("name", ["p01", "p02", "p03", "p04", "p05", "p06", "p07", "p08"])
def test_the_shipped_readers_corners_are_in_the_photos_pixels_and_the_readings_order(name):
    """The photo cut along the reading's corners is the planet as read, upright: the corners are
    the photo's pixels (not the reduced decode's) and start at cell 0's. (Before, they were the
    decode's pixels and started at the outline's own first corner whatever the reading's turn.)
    Measured: the upright drawing 0.52–0.92 alike, the best turned one 0.20–0.55 below it."""
    data = (PHOTOS / f"{name}.jpg").read_bytes()
    reading = recognize(data)
    assert reading.ok
    photo = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    side = 400
    square = cv2.warpPerspective(photo, cv2.getPerspectiveTransform(
        np.float32(reading.quad), np.float32([[0, 0], [side, 0], [side, side], [0, side]])), (side, side))
    likeness = _likeness_by_turn(square, reading.cells)
    assert _upright(likeness), likeness


def test_the_learned_box_readers_corners_start_at_the_readings_cell_0(box2_learned):
    """The learned-box reader: its first corner is the one the reading's cell 0 has in the
    generator's truth (the truth's cells turned to that corner are the cells read)."""
    from vision.bench import content_key
    from vision.diagnose import _cells, _match_corners, _turned
    checked = 0
    for name in ("p01", "p02", "p03", "p04"):
        path = PHOTOS / "box2" / "test" / f"{name}.jpg"
        truth, corners = _cells(path.with_suffix(".json"))
        reading = recognize(path.read_bytes(), reference=str(box2_learned))
        assert reading.ok
        k, off = _match_corners(np.float32(reading.quad), corners)
        side = float(np.linalg.norm(corners[1] - corners[0]))
        assert off < side / 8
        read = _turned(reading.cells, k)
        assert sum(content_key(a) == content_key(b) for a, b in zip(read, truth)) >= 14
        checked += 1
    assert checked == 4


def _photo_with_quadrants(turned_in_file: bool) -> tuple[bytes, list]:
    """A 600×400 photo (upright) of a square of four colours seen at a slant: red at the top left,
    green top right, blue bottom right, yellow bottom left; stored a quarter turn off with EXIF
    orientation 6 when ``turned_in_file``. Returns the JPEG and the square's corners (upright px)."""
    w, h = 600, 400
    img = np.full((h, w, 3), 90, np.uint8)
    corners = np.float32([[150, 60], [470, 90], [440, 350], [120, 330]])
    centre = corners.mean(axis=0)
    colours = [(0, 0, 255), (0, 255, 0), (255, 0, 0), (0, 255, 255)]  # BGR
    for i, colour in enumerate(colours):
        a, b = corners[i], corners[(i + 1) % 4]
        mid_ab, mid_prev = (a + b) / 2, (a + corners[i - 1]) / 2
        cv2.fillConvexPoly(img, np.int32([a, mid_ab, centre, mid_prev]), colour)
    pil = Image.fromarray(cv2.cvtColor(img, cv2.COLOR_BGR2RGB))
    out = io.BytesIO()
    if turned_in_file:  # stored as a phone held upright stores it: turned, with orientation 6
        exif = Image.Exif()
        exif[0x0112] = 6
        pil.transpose(Image.Transpose.ROTATE_90).save(out, "JPEG", quality=95, exif=exif)
    else:
        pil.save(out, "JPEG", quality=95)
    return out.getvalue(), corners.tolist()


@pytest.mark.parametrize("turned_in_file", [False, True])
@pytest.mark.parametrize("first", [0, 1, 2, 3])
def test_straightened_puts_the_first_corner_at_the_top_left_of_the_upright_photo(turned_in_file, first):
    data, corners = _photo_with_quadrants(turned_in_file)
    expected = ["red", "green", "blue", "yellow"]
    picture = np.asarray(straightened(data, corners[first:] + corners[:first], 200))
    assert picture.shape == (200, 200, 3)
    seen = []
    for y, x in ((40, 40), (40, 160), (160, 160), (160, 40)):   # clockwise from the top left
        r, g, b = (int(v) for v in picture[y, x])
        seen.append({(True, False, False): "red", (False, True, False): "green", (False, False, True): "blue",
                     (True, True, False): "yellow"}.get((r > 150, g > 150, b > 150), f"{r},{g},{b}"))
    assert seen == expected[first:] + expected[:first]


def test_the_review_shows_the_planet_cut_out_and_turned_as_the_grid(app):
    """A scan's review shows the planet's picture (480 px square), the whole photo a link away;
    a scan whose picture could not be made shows the whole photo, as before."""
    app.config["WTF_CSRF_ENABLED"] = False
    client = app.test_client()
    data = (PHOTOS / "p01.jpg").read_bytes()
    r = client.post("/scan", data={"photo": (io.BytesIO(data), "p.jpg")}, content_type="multipart/form-data")
    review = r.location
    html = client.get(review).get_data(as_text=True)
    assert f'<img src="{review}/planet.jpg"' in html and f'href="{review}/photo.jpg"' in html
    picture = Image.open(io.BytesIO(client.get(review + "/planet.jpg").data))
    assert picture.format == "JPEG" and picture.size == (480, 480)
    # the picture is the planet the grid shows, turned as the grid
    read = re.findall(r'name="players-0-cells-(\d+)" id="[^"]*" value="([^"]*)"', html)
    cells = [v or None for _, v in sorted(read, key=lambda t: int(t[0]))]
    likeness = _likeness_by_turn(cv2.cvtColor(np.asarray(picture), cv2.COLOR_RGB2BGR), cells)
    assert _upright(likeness), likeness
    folder = Path(app.instance_path) / "scans" / review.rsplit("/", 1)[1]
    (folder / "planet.jpg").unlink()
    html = client.get(review).get_data(as_text=True)
    assert f'<img src="{review}/photo.jpg"' in html and "planet.jpg" not in html
    assert client.get(review + "/planet.jpg").status_code == 404


def test_a_picture_that_cannot_be_made_leaves_the_scan_as_it_was(app, monkeypatch):
    import scorer.web.scan as scan
    app.config["WTF_CSRF_ENABLED"] = False
    monkeypatch.setattr(scan, "straightened", lambda *a: (_ for _ in ()).throw(ValueError("no")))
    client = app.test_client()
    r = client.post("/scan", data={"photo": (io.BytesIO((PHOTOS / "p01.jpg").read_bytes()), "p.jpg")},
                    content_type="multipart/form-data")
    assert r.status_code == 303
    html = client.get(r.location).get_data(as_text=True)
    assert f'<img src="{r.location}/photo.jpg"' in html
    assert len(re.findall(r'name="players-0-cells-\d+"', html)) == 16
