"""Safe to leave open (issue 15): bad bodies, headers, cookies, cross-site posts, file modes and
a database that cannot be used. Each test here failed on the code before the fix."""
from __future__ import annotations

import io
import json
import os
import re
import stat
import subprocess
import sys

import pytest

from scorer.web import create_app

NESTED = b"[" * 5000 + b"]" * 5000
TABLE = {"players": [{"name": "Ann", "counts": {"rose": 1}}, {"name": "Ben", "counts": {"volcano": 2}}]}


def new_game(client):
    r = client.post("/api/games", json={"players": ["Ann", "Ben", "Cy"]})
    assert r.status_code == 201
    return r.json["id"], r.json["seats"][0]["token"]


def test_json_nested_5000_deep_is_400_everywhere(client):
    gid, token = new_game(client)
    bearer = {"Authorization": f"Bearer {token}"}
    for url, headers in (("/api/score", {}), ("/api/games", {}), (f"/api/games/{gid}/moves", bearer),
                         (f"/api/games/{gid}/undo", bearer)):
        r = client.post(url, data=NESTED, content_type="application/json", headers=headers)
        assert r.status_code == 400, url
        assert "nested" in r.json["error"]


def test_the_command_refuses_nested_json_with_exit_2_and_no_traceback():
    proc = subprocess.run([sys.executable, "-m", "scorer", "score", "-"], input=NESTED, capture_output=True,
                          timeout=60)
    assert proc.returncode == 2
    assert b"Traceback" not in proc.stderr
    assert "nested" in json.loads(proc.stdout)["error"]


@pytest.mark.parametrize("body", [
    {"players": ["Ann\ud800", "Ben"]},
    {"players": ["Ann", "Ben"], "hidden_characters": False, "\udfff": 1},
])
def test_a_lone_surrogate_in_a_new_game_is_400_and_stores_nothing(app, client, body):
    raw = json.dumps(body).encode()  # json.dumps escapes it as \\ud800: valid JSON, unencodable text
    r = client.post("/api/games", data=raw, content_type="application/json")
    assert r.status_code == 400 and "cannot be stored" in r.json["error"]
    with app.extensions["db"].engine.connect() as connection:
        assert connection.exec_driver_sql("SELECT COUNT(*) FROM tracker_games").scalar() == 0


def test_a_lone_surrogate_in_counts_keys_is_400(client):
    raw = json.dumps({"players": [{"name": "Ann", "counts": {"rose\ud800": 1}}]}).encode()
    r = client.post("/api/score", data=raw, content_type="application/json")
    assert r.status_code == 400 and r.json["where"].startswith("players[0].counts")


def test_json_bodies_are_small_and_uploads_alone_are_large(client):
    big = json.dumps({"players": [[]] * 200_000}).encode()  # ~1 MB: once cost seconds of CPU
    assert len(big) > 300_000
    r = client.post("/api/score", data=big, content_type="application/json")
    assert r.status_code == 413 and r.is_json


def test_a_chunked_body_over_the_limit_is_413_not_invalid_json(live_server):
    import socket
    body = b'{"players": [' + b'{"name": "x", "counts": {}},' * 20_000 + b"]}"
    with socket.create_connection(("127.0.0.1", live_server.port), timeout=10) as s:
        s.sendall(b"POST /api/score HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                  b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
        for i in range(0, len(body), 8192):
            chunk = body[i:i + 8192]
            try:
                s.sendall(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
            except OSError:
                break  # the server may stop reading once it knows
        try:
            s.sendall(b"0\r\n\r\n")
        except OSError:
            pass
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    assert answer.split(b"\r\n", 1)[0].split()[1] == b"413"


@pytest.mark.parametrize("url", ["/api/score", "/api/games"])
def test_cross_site_text_plain_posts_create_nothing(app, client, url):
    r = client.post(url, data=json.dumps(TABLE if url == "/api/score" else {"players": ["A", "B"]}),
                    content_type="text/plain")
    assert r.status_code == 415
    with app.extensions["db"].engine.connect() as connection:
        assert connection.exec_driver_sql("SELECT COUNT(*) FROM tracker_games").scalar() == 0


@pytest.mark.parametrize("url", ["/", "/score", "/games/new", "/api/games/nope", "/static/css/app.css"])
def test_security_headers_on_every_response(client, url):
    r = client.get(url)
    csp = r.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert r.headers["X-Frame-Options"] == "DENY"
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert r.headers["Referrer-Policy"] == "no-referrer"


def test_session_cookie_is_samesite_lax_and_secure_behind_tls(tmp_path):
    for tls, secure in (("", False), ("1", True)):
        app = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / f"i{tls}", "PLANET_TLS": tls,
                          "DATABASE_URL": f"sqlite:///{tmp_path / f'db{tls}.sqlite3'}"})
        client = app.test_client()
        r = client.get("/games/new")  # its form's CSRF token starts the session
        cookie = next(h for h in r.headers.getlist("Set-Cookie") if h.startswith("session="))
        assert "SameSite=Lax" in cookie and "HttpOnly" in cookie
        assert ("Secure" in cookie) is secure
        app.extensions["db"].dispose()


def test_absolute_links_do_not_take_the_host_header_on_trust(app, client):
    from scorer.contract import score_request
    from scorer.db import save_table
    table_id = save_table(app.extensions["db"], TABLE, score_request(TABLE))
    page = client.get(f"/tables/{table_id}", headers={"Host": "evil.example"}).get_data(as_text=True)
    assert f"/tables/{table_id}" in page and "evil.example" not in page
    evil = {"Host": "evil.example"}
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', client.get("/games/new", headers=evil).text)
    r = client.post("/games/new", data={"csrf_token": token.group(1), "p0": "Ann", "p1": "Ben", "mode": "own"},
                    headers=evil, follow_redirects=True)
    assert "/play/" in r.text and "evil.example" not in r.text


def test_key_and_database_files_are_private(tmp_path):
    app = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "inst",
                      "DATABASE_URL": f"sqlite:///{tmp_path / 'inst' / 'planet.sqlite3'}"})
    app.test_client().get("/")
    for name in ("secret_key", "planet.sqlite3"):
        mode = stat.S_IMODE(os.stat(tmp_path / "inst" / name).st_mode)
        assert mode == 0o600, (name, oct(mode))
    app.extensions["db"].dispose()


def _serve(tmp_path, url):
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    return subprocess.run([sys.executable, "-m", "scorer", "serve", "--port", "0", "--database", url],
                          capture_output=True, text=True, timeout=60, env=env, cwd=tmp_path)


def test_a_damaged_database_stops_serve_with_one_line(tmp_path):
    path = tmp_path / "planet.sqlite3"
    path.write_bytes(b"SQLite format 3\x00" + os.urandom(4096))
    proc = _serve(tmp_path, f"sqlite:///{path}")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert "cannot be used" in proc.stderr


def test_a_read_only_database_stops_serve_with_one_line(tmp_path):
    if os.geteuid() == 0:
        folder = tmp_path / "ro"
        folder.mkdir()
        path = folder / "planet.sqlite3"
        create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "i", "DATABASE_URL": f"sqlite:///{path}"}
                   ).extensions["db"].dispose()
        # root ignores file modes: a read-only URL stands in for a read-only disk
        url = f"sqlite:///file:{path}?mode=ro&uri=true"
    else:
        path = tmp_path / "planet.sqlite3"
        create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "i", "DATABASE_URL": f"sqlite:///{path}"}
                   ).extensions["db"].dispose()
        path.chmod(0o400)
        url = f"sqlite:///{path}"
    proc = _serve(tmp_path, url)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("second", ["ann", "Ann\u200b", "\u0410nn", "A\u0301nn", "Ann\u202e"])
def test_look_alike_or_invisible_names_are_refused(client, second):
    """Zero-width, Cyrillic "А", a combining accent on a plain A (NFC makes it Á, a different
    name: allowed) and a right-to-left override."""
    r = client.post("/api/score", json={"players": [{"name": "Ann", "counts": {}}, {"name": second, "counts": {}}]})
    if second == "A\u0301nn":
        assert r.status_code == 200 and r.json["players"][1]["name"] == "\u00c1nn"
    else:
        assert r.status_code == 400 and r.json["where"] == "players[1].name"


def test_nfd_and_nfc_spellings_are_one_player(client):
    r = client.post("/api/score", json={"players": [{"name": "\u00c5sa", "counts": {}},
                                                    {"name": "A\u030asa", "counts": {}}]})
    assert r.status_code == 400 and "Two players" in r.json["error"]


def test_one_client_cannot_flood_the_server_with_games(tmp_path):
    app = create_app({"INSTANCE_PATH": tmp_path / "i", "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"})
    client = app.test_client()
    codes = [client.post("/api/games", json={"players": ["Ann", "Ben"]}).status_code for _ in range(25)]
    assert codes[:20] == [201] * 20 and codes[20:] == [429] * 5
    r = client.post("/api/games", json={"players": ["Ann", "Ben"]})
    assert r.status_code == 429 and r.is_json and r.json["error"]
    with app.extensions["db"].engine.connect() as connection:
        assert connection.exec_driver_sql("SELECT COUNT(*) FROM tracker_games").scalar() == 20
    # another phone at the table is not held back by the first
    other = client.post("/api/games", json={"players": ["Ann", "Ben"]}, environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 201
    app.extensions["db"].dispose()


def test_steppers_are_not_rate_limited_but_stored_tables_are(tmp_path):
    app = create_app({"INSTANCE_PATH": tmp_path / "i", "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
                      "WTF_CSRF_ENABLED": False})
    client = app.test_client()
    form = {"players-0-name": "Ann", "players-1-name": "Ben", "players-1-rose": "1"}
    steps = [client.post("/score", data={**form, "inc-0-rose": "1"}).status_code for _ in range(40)]
    assert set(steps) == {200}
    stored = [client.post("/score", data={**form, "finish": "1"}).status_code for _ in range(31)]
    assert stored[:30] == [303] * 30 and stored[30] == 429
    app.extensions["db"].dispose()


def test_photos_are_read_one_at_a_time_a_few_wait_and_the_rest_are_refused():
    """A worker reads one photo at a time; the next ones wait their turn (a table scanning its
    planets together) up to a few; past those, or past the wait, a message (429)."""
    import threading
    import time

    from scorer.web.ratelimits import Busy, ScanPlaces
    places = ScanPlaces(reading=1, waiting=1, wait=2.0)
    events: list[str] = []
    first_reading, first_done = threading.Event(), threading.Event()

    def first():
        with places.one():
            first_reading.set()
            first_done.wait(5)
            events.append("first read")

    def second():
        with places.one():
            events.append("second read")

    a = threading.Thread(target=first)
    a.start()
    assert first_reading.wait(5)
    b = threading.Thread(target=second)
    b.start()
    time.sleep(0.2)                          # the second photo is waiting its turn ...
    assert events == [] and places.full()
    with pytest.raises(Busy, match="other photos"):
        with places.one():                   # ... and a third has no place: refused at once
            pass
    first_done.set()
    a.join(5)
    b.join(5)
    assert events == ["first read", "second read"]
    assert not places.full()
    # a photo that waited its whole time without a turn is refused
    hasty = ScanPlaces(reading=1, waiting=1, wait=0.2)
    with hasty.one():
        start = time.perf_counter()
        with pytest.raises(Busy):
            with hasty.one():
                pass
        assert 0.15 < time.perf_counter() - start < 2.0


def test_a_photo_past_the_scan_places_is_refused_before_its_upload_is_parsed(client, monkeypatch):
    """With every scan place taken, ``POST /scan`` answers the page with the message, 429, and
    the score page's camera button gets the message in that player's card, without the multipart
    body being parsed (a flood of refused photos costs a look at a semaphore, not a parse)."""
    from werkzeug.wrappers import Request

    from scorer.web.ratelimits import ScanPlaces
    places = client.application.extensions["scan_places"] = ScanPlaces(reading=1, waiting=0)
    parsed = []
    real = Request._load_form_data
    monkeypatch.setattr(Request, "_load_form_data", lambda self: (parsed.append(self.path), real(self))[1])
    photo = {"photo": (io.BytesIO(b"\xff\xd8" + b"x" * 5000), "p.jpg", "image/jpeg")}
    with places.one():
        page = client.post("/scan", data=photo, content_type="multipart/form-data")
        card = client.post("/score/scan", data={"photo-2": (io.BytesIO(b"\xff\xd8" + b"x" * 5000), "p.jpg"),
                                                "players-2-name": "Cy"},
                           content_type="multipart/form-data", headers={"HX-Request": "true", "HX-Trigger-Name": "photo-2"})
    assert page.status_code == 429 and "reading other photos" in page.get_data(as_text=True)
    assert card.status_code == 200
    assert 'id="players-2-error" hx-swap-oob="true"' in card.get_data(as_text=True)
    assert "reading other photos" in card.get_data(as_text=True)
    assert parsed == []
    # a place free again: the same post is parsed (and, having no CSRF token, told the form expired)
    again = client.post("/scan", data={"photo": (io.BytesIO(b"\xff\xd8" + b"x" * 5000), "p.jpg")},
                        content_type="multipart/form-data")
    assert again.status_code == 400 and parsed == ["/scan"]
