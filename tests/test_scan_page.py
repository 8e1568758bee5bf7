"""The "Scan a planet" page: upload, review on the grid editor, score; every bad upload explained."""
import io
import json
import re
import zlib
import struct
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PHOTOS = ROOT / "sample_photos"


def first_planet_photo():
    for jpg in sorted(PHOTOS.glob("*.jpg")):
        if "cells" in json.loads(jpg.with_suffix(".json").read_text()):
            return jpg
    pytest.fail("sample_photos has no planet photo")


def no_planet_photo():
    for jpg in sorted(PHOTOS.glob("*.jpg")):
        if "cells" not in json.loads(jpg.with_suffix(".json").read_text()):
            return jpg
    pytest.fail("sample_photos has no photo without a planet")


@pytest.fixture
def plain(app):
    app.config["WTF_CSRF_ENABLED"] = False
    return app.test_client()


def upload(client, data: bytes, name="photo.jpg"):
    return client.post("/scan", data={"photo": (io.BytesIO(data), name)}, content_type="multipart/form-data")


def error_of(response) -> str:
    found = re.findall(r'scan-error"[^>]*>(.*?)</p>', response.get_data(as_text=True), re.S)
    return found[0] if found else ""


def test_scan_page_has_a_camera_button(client):
    html = client.get("/scan").get_data(as_text=True)
    assert 'accept="image/*"' in html and 'capture="environment"' in html
    assert 'name="csrf_token"' in html


def test_scan_page_says_the_planet_in_the_middle_is_read(client):
    """Both readers read the planet nearer the frame's middle when a neighbour's shows too
    (tests/test_vision_beside.py): the player is told before the photo, in each language."""
    for lang, words in (("en", "Keep yours in the middle"), ("fr", "Gardez la vôtre au milieu"),
                        ("zh-TW", "讓你的星球在畫面中央")):
        html = client.get("/scan", headers={"Accept-Language": lang}).get_data(as_text=True)
        assert words in html, lang


def test_upload_without_csrf_token_is_400(client):
    r = upload(client, first_planet_photo().read_bytes())
    assert r.status_code == 400


def png_bomb(width=30000, height=30000) -> bytes:
    """A tiny PNG that claims 900 megapixels."""
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    raw = zlib.compress(b"\x00" * (width // 8 + 1) * 64, 9)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0))
            + chunk(b"IDAT", raw) + chunk(b"IEND", b""))


@pytest.mark.parametrize("data,words", [
    (b"", "Choose a photo"),
    (b"GIF8", "too small"),
    (b"%PDF-1.4 " + b"x" * 4000, "not"),
    (png_bomb(), ""),
])
def test_bad_uploads_are_explained_and_never_500(plain, data, words):
    r = upload(plain, data)
    assert 400 <= r.status_code < 500
    assert words in error_of(r)
    assert error_of(r)


def test_truncated_photo_is_refused(plain):
    data = first_planet_photo().read_bytes()
    r = upload(plain, data[: len(data) // 3])
    assert r.status_code == 422 and error_of(r)


def test_photo_without_a_planet_is_refused(plain):
    r = upload(plain, no_planet_photo().read_bytes())
    assert r.status_code == 422 and "planet" in error_of(r)


def test_too_large_upload_gets_413_with_a_message(plain):
    r = upload(plain, b"\xff\xd8" + b"0" * (26 * 1024 * 1024))
    assert r.status_code == 413
    assert "too large" in r.get_data(as_text=True)


def without_csrf_token(html: str) -> str:
    """The page with its CSRF tokens blanked: a token carries the second it was signed in."""
    html = re.sub(r'("X-CSRFToken": ")[^"]+"', r'\1"', html)
    return re.sub(r'(<input id="csrf_token" name="csrf_token" type="hidden" value=")[^"]+"', r'\1"', html)


def test_reading_fills_the_grid_then_scores_and_stores_the_table(plain):
    photo = first_planet_photo()
    r = upload(plain, photo.read_bytes())
    assert r.status_code == 303 and re.fullmatch(r"/scan/[A-Za-z0-9_-]{12}", r.location)  # its own address
    review = r.location
    r = plain.get(review)
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    # a reload shows the same reading (the CSRF token is signed with the time, so it may differ)
    assert without_csrf_token(plain.get(review).get_data(as_text=True)) == without_csrf_token(html)
    # the planet cut out of the photo beside the reading, the whole photo a tap away
    assert f'src="{review}/planet.jpg"' in html and f'href="{review}/photo.jpg"' in html
    for picture in ("/planet.jpg", "/photo.jpg"):
        pic = plain.get(review + picture)
        assert pic.status_code == 200 and pic.mimetype == "image/jpeg"
    chosen = re.findall(r'<input type="hidden" name="players-0-cells-(\d+)" id="[^"]*" value="([^"]*)"', html)
    assert len(chosen) == 16
    cells = [v or None for _, v in sorted(chosen, key=lambda t: int(t[0]))]
    form = {f"players-0-cells-{p}": v or "" for p, v in enumerate(cells)}
    form["players-0-name"] = "Ann"
    r = plain.post("/scan/score", data=form)
    assert r.status_code == 303
    result = plain.get(r.headers["Location"]).get_data(as_text=True)
    assert "Ann" in result


def test_a_fixed_grid_with_an_impossible_cell_is_explained_beside_it(plain):
    form = {f"players-0-cells-{p}": "" for p in range(16)}
    form["players-0-cells-5"] = "U01"  # an uphill edge on a center position
    r = plain.post("/scan/score", data=form)
    assert r.status_code == 422
    html = r.get_data(as_text=True)
    assert "takes a planet center" in html and re.search(r'class="cell stack-center[^"]*invalid[^"]*"\s+name="cell-0" value="5"', html)


def test_add_to_a_table_opens_the_score_page_with_the_planet(plain):
    form = {f"players-0-cells-{p}": "" for p in range(16)}
    form.update({"players-0-cells-0": "K07", "players-0-cells-5": "C10", "players-0-name": "Ann",
                 "players-0-mode": "grid", "update": "1"})
    r = plain.post("/score", data=form)
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert 'value="Ann"' in html and re.search(r'name="players-0-cells-5" id="players-0-cells-5" value="C10"', html)


def test_an_expired_review_keeps_the_planet_being_checked(client):
    """Without a valid token the review comes back with the player's corrections, not an error page."""
    form = {f"players-0-cells-{p}": "" for p in range(16)}
    form.update({"players-0-cells-0": "K07", "players-0-cells-5": "C10", "players-0-name": "Ann",
                 "players-0-doubtful": "5", "csrf_token": "stale"})
    r = client.post("/scan/score", data=form)
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert "expired" in html and "Check the planet" in html and 'value="Ann"' in html
    assert re.search(r'name="players-0-cells-5" id="players-0-cells-5" value="C10"', html) and "doubtful" in html
    r = upload(client, first_planet_photo().read_bytes())
    assert r.status_code == 400 and "choose the photo again" in error_of(r)


def test_add_another_planet_appends_to_the_table(plain):
    """"Add it to the table" after a second scan adds a second planet; it used to replace the first."""
    def add(name, tile):
        form = {f"players-0-cells-{p}": "" for p in range(16)}
        form.update({"players-0-cells-5": tile, "players-0-name": name, "players-0-mode": "grid"})
        return plain.post("/scan/add", data=form)
    r = add("Ann", "C10")
    assert r.status_code == 303 and "/score?scanned=1" in r.location
    add("Ben", "C11")
    html = plain.get(r.location).get_data(as_text=True)
    assert 'name="players-0-name" value="Ann"' in html and 'name="players-1-name" value="Ben"' in html
    assert re.search(r'name="players-0-cells-5" id="players-0-cells-5" value="C10"', html)
    assert re.search(r'name="players-1-cells-5" id="players-1-cells-5" value="C11"', html)
    assert plain.get("/scan/nope-not-an-id").status_code == 404
    assert plain.get("/scan/AAAAAAAAAAAA/photo.jpg").status_code == 404


def test_forgetting_old_scans_passes_over_one_another_worker_just_forgot(tmp_path, monkeypatch):
    """Two workers keep scans in one folder and forget the oldest at the same moment: a scan that
    vanishes between the listing and its look is passed over (it was a 500 in the flood bench)."""
    import os
    from pathlib import Path

    from scorer.web import scan as scan_module
    for k in range(scan_module.KEEP + 5):
        folder = tmp_path / f"scan{k:04d}"
        folder.mkdir()
        os.utime(folder, (1_000_000 + k, 1_000_000 + k))
    gone = tmp_path / "scan0002"
    real_stat = Path.stat

    def stat(self, *args, **kwargs):
        if self == gone:
            raise FileNotFoundError(self)
        return real_stat(self, *args, **kwargs)
    monkeypatch.setattr(Path, "stat", stat)
    scan_module._forget_the_oldest(tmp_path)
    left = sorted(p.name for p in tmp_path.iterdir())
    assert len(left) == scan_module.KEEP + 1   # the newest KEEP, and the one that could not be looked at
    assert left[-1] == f"scan{scan_module.KEEP + 4:04d}" and "scan0000" not in left and "scan0002" in left


def test_the_instance_folder_can_be_set_from_the_environment(tmp_path):
    from scorer.settings import Settings
    settings = Settings.load(environ={"PLANET_INSTANCE": str(tmp_path / "elsewhere")})
    assert settings.instance_path == tmp_path / "elsewhere"
    assert settings.database_url == f"sqlite:///{tmp_path / 'elsewhere' / 'planet.sqlite3'}"
