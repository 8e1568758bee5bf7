"""``python -m scorer serve`` as it runs on game night: it prints where to open it, and a handful
of silent or slow sockets neither stop it answering nor stay open for ever."""
from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from conftest import free_port
from scorer.flood_bench import scan_phone
from scorer.load_bench import answering

ROOT = Path(__file__).resolve().parents[1]
SCORE = {"players": [{"name": "Ann", "counts": {"characters": ["king"], "volcano": 1}}]}


@pytest.fixture
def server(tmp_path):
    port = free_port()
    out = open(tmp_path / "serve.out", "wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "scorer", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--database", f"sqlite:///{tmp_path / 'serve.sqlite3'}", "--client-timeout", "2", "--workers", "1"],
        cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "SECRET_KEY": "test"})
    base = f"http://127.0.0.1:{port}"
    assert answering(proc, base), (tmp_path / "serve.out").read_text()
    yield port, base, tmp_path / "serve.out"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    out.close()


def test_serve_prints_where_to_open_it(server):
    port, _base, printed = server
    text = printed.read_text()
    assert "Make Me a Planet is running." in text
    assert f"On this machine:                      http://127.0.0.1:{port}/" in text
    assert "Stop with Ctrl+C." in text


def test_silent_and_slow_sockets_neither_stop_answers_nor_stay_open(server):
    port, base, _printed = server
    silent = [socket.create_connection(("127.0.0.1", port)) for _ in range(16)]
    for sock in silent:
        sock.sendall(b"G")          # one byte of a request, then nothing
    slow = [socket.create_connection(("127.0.0.1", port)) for _ in range(20)]
    for sock in slow:                # the headers, then a body that never comes
        sock.sendall(b"POST /api/score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 9999\r\n\r\n{")
    time.sleep(0.5)
    for _ in range(5):               # the server still answers everyone else
        r = requests.post(f"{base}/api/score", json=SCORE, timeout=5)
        assert r.status_code == 200 and r.json()["players"][0]["name"] == "Ann"
    for sock in silent + slow:       # ... and drops the silent and the slow (2 s for headers here)
        sock.settimeout(10)
        answer = b""
        while chunk := sock.recv(4096):
            answer += chunk
        # closed, or told off (408, or 400 when the JSON reader sees the body cut short)
        assert answer == b"" or re.match(rb"HTTP/1.1 40[08] ", answer), answer[:80]
        sock.close()


def worst_case_photo() -> bytes:
    """The worst photo a phone can send: an all-black PNG at the 16 MP cap (decoded whole, and
    looked at to the end for a planet that is not there)."""
    import cv2
    import numpy as np
    ok, png = cv2.imencode(".png", np.zeros((4000, 4000, 3), np.uint8))
    assert ok
    return png.tobytes()


def test_a_photo_being_read_does_not_hold_the_others(server):
    """Gevent serves a worker's connections on one loop: the photo is read in a native thread
    (``scorer/web/cpu.py``), so the score API answers while it works. Read on the loop (the
    mutation: call ``work`` directly in ``off_the_loop``), every probe waits for the photo."""
    import threading
    _port, base, _printed = server
    photo = worst_case_photo()
    answers: list[int] = []

    def scan():
        phone, token = scan_phone(base)
        r = phone.post(f"{base}/scan", data={"csrf_token": token}, files={"photo": ("p.png", photo, "image/png")},
                       timeout=60, allow_redirects=False)
        answers.append(r.status_code)

    scans = [threading.Thread(target=scan) for _ in range(2)]
    for t in scans:
        t.start()
    time.sleep(0.4)          # both photos uploaded and being read
    waits = []
    while any(t.is_alive() for t in scans):
        start = time.perf_counter()
        r = requests.post(f"{base}/api/score", json=SCORE, timeout=30)
        waits.append(time.perf_counter() - start)
        assert r.status_code == 200
        time.sleep(0.05)
    for t in scans:
        t.join()
    assert answers == [422, 422], answers   # "no planet in this photo", said to a person
    print(f"\n/api/score while 2 photos were read: {len(waits)} probes, slowest {max(waits) * 1000:.0f} ms")
    assert len(waits) >= 3, waits            # the probes ran while the photos were read
    assert max(waits) < 1.0, waits           # read on the loop: the slowest waited seconds


class _Wire:
    """A socket that keeps each write apart."""

    def __init__(self):
        self.writes: list[bytes] = []

    def sendall(self, data: bytes) -> None:
        self.writes.append(bytes(data))


class _Request:
    version, method = (1, 1), "GET"

    def should_close(self) -> bool:
        return False


def _answer(status: str, headers: list[tuple[str, str]], body: list[bytes], method: str = "GET") -> list[bytes]:
    from gunicorn.config import Config
    from gunicorn.http.wsgi import Response

    from scorer.serve import one_write
    one_write()
    request, wire = _Request(), _Wire()
    request.method = method
    response = Response(request, wire, Config())
    response.start_response(status, headers)
    for piece in body:
        response.write(piece)
    response.close()
    return wire.writes


def test_an_answer_with_a_body_leaves_in_one_write_headers_first():
    board = b"<div id=board>" + b"x" * 5000 + b"</div>"
    writes = _answer("200 OK", [("Content-Type", "text/html"), ("Content-Length", str(len(board)))], [board])
    assert len(writes) == 1
    head, _, body = writes[0].partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 OK\r\n") and b"Content-Length: 5020" in head and b"Date: " in head
    assert body == board


def test_answers_that_are_not_one_whole_body_go_as_gunicorn_sends_them():
    # no body (204): the headers alone
    writes = _answer("204 No Content", [("ETag", '"3"')], [])
    assert len(writes) == 1 and writes[0].startswith(b"HTTP/1.1 204 No Content\r\n") and writes[0].endswith(b"\r\n\r\n")
    # streamed (no Content-Length): chunked, headers first, each piece framed, then the end
    writes = _answer("200 OK", [("Content-Type", "text/plain")], [b"ab", b"cde"])
    assert b"Transfer-Encoding: chunked" in writes[0] and writes[0].endswith(b"\r\n\r\n")
    assert b"".join(writes[1:]) == b"2\r\nab\r\n3\r\ncde\r\n0\r\n\r\n"
    # a body in two pieces with a Content-Length: the headers, then each piece as it comes
    writes = _answer("200 OK", [("Content-Length", "5")], [b"ab", b"cde"])
    assert writes[0].endswith(b"\r\n\r\n") and writes[1:] == [b"ab", b"cde"]
    # HEAD: no body on the wire at all
    writes = _answer("200 OK", [("Content-Length", "5")], [b"abcde"], method="HEAD")
    assert len(writes) == 1 and writes[0].endswith(b"\r\n\r\n")


def test_a_body_is_timed_by_the_waiting_in_its_reads_not_by_a_busy_worker():
    """The slow-body guard counts only the time spent inside the body's reads: a worker that comes
    to a post's body late (busy with other phones) does not blame the client, a trickle still fails."""
    from scorer.serve import _BodyDeadline
    now = [0.0]

    class Sock:
        timeout = None

        def settimeout(self, seconds):
            self.timeout = seconds

    class Stream:
        def __init__(self, wait):
            self.wait = wait

        def read(self, *args):
            now[0] += self.wait       # the time the client took to send the next bytes
            return b"x"

        readline = read

    late = _BodyDeadline(Stream(0.0), Sock(), 1.0, clock=lambda: now[0])
    now[0] += 30                       # the worker reads the body 30 s after the headers came
    assert late.read() == b"x"
    now[0] += 10                       # ... and parses for a while between two reads
    assert late.readline() == b"x"
    sock = Sock()
    trickle = _BodyDeadline(Stream(0.4), sock, 1.0, clock=lambda: now[0])
    assert [trickle.read(), trickle.read(), trickle.read()] == [b"x"] * 3   # the third began with 0.2 s left
    assert abs(sock.timeout - 0.2) < 1e-9                                  # ... and the socket waited no longer
    with pytest.raises(TimeoutError):
        trickle.read()


def test_two_workers_share_their_drawings_in_a_private_folder_removed_when_the_server_stops(tmp_path):
    # scorer.web.shared_boards.Shelf: serve makes the folder before forking (owner only) and
    # removes it when it stops; a one-worker server makes none.
    import glob

    from scorer.web.shared_boards import shelf_parent
    parent = shelf_parent()
    before = set(glob.glob(os.path.join(parent, "planet-boards-*")))
    port = free_port()
    out = open(tmp_path / "serve.out", "wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "scorer", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--database", f"sqlite:///{tmp_path / 'serve.sqlite3'}", "--workers", "2"],
        cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "SECRET_KEY": "test"})
    try:
        assert answering(proc, f"http://127.0.0.1:{port}"), (tmp_path / "serve.out").read_text()
        made = set(glob.glob(os.path.join(parent, "planet-boards-*"))) - before
        assert made and all(os.stat(folder).st_mode & 0o777 == 0o700 for folder in made)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
        out.close()
    assert not any(os.path.exists(folder) for folder in made)


COLLECTOR_PROBE = r"""
import gc, json, threading, time, weakref
from scorer.serve import collect_fully_on_a_timer

class Node:
    pass

collect_fully_on_a_timer(every=2.0, spawn=lambda f: threading.Thread(target=f, daemon=True).start())
started = time.monotonic()
node = Node(); node.me = node            # a cycle, alive long enough to be counted long-lived
garbage = weakref.ref(node)
gc.collect(1); gc.collect(1)
del node                                 # ... then left: only a full collection frees it
held = []
for _ in range(30):                      # phones' requests held a while: many young collections
    held.append([[i] for i in range(20_000)])
young_only = garbage() is not None
held.clear()
before_the_timer = time.monotonic() - started < 2.0
time.sleep(2.6)
print(json.dumps({"young_only": young_only, "before_the_timer": before_the_timer,
                  "freed_by_the_timer": garbage() is None}))
"""


def test_full_collections_wait_for_the_timer_and_the_timer_runs_them():
    """A held request outlives young collections; with thousands held, the collector's own count
    ran a full collection (0.4-0.6 s, the whole worker stopped) every ~14 s. The worker's full
    collections run on a timer instead, and nothing is left uncollected for longer than that."""
    out = subprocess.run([sys.executable, "-c", COLLECTOR_PROBE], cwd=ROOT, capture_output=True,
                         text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    seen = json.loads(out.stdout)
    assert seen["before_the_timer"], "the probe was too slow to tell the timer's collection apart"
    assert seen["young_only"], "a full collection ran on the collector's count"
    assert seen["freed_by_the_timer"], "the timer's full collection did not run"


def test_the_terminal_shows_no_traceback_after_starting_and_rate_limited_posts(server):
    """A new user's first `make run`: the terminal shows where to open the app and nothing that
    looks like a crash. (The rate limiter's memory storage starts a timer thread; one started in
    the launcher, before the fork, ended in each gevent worker with a KeyError traceback.)"""
    _port, base, printed = server
    for _ in range(3):   # a limited endpoint: the limiter counts (and schedules its expiry timer)
        r = requests.post(f"{base}/api/games", json={"players": ["Ann", "Ben", "Cy"]}, timeout=5)
        assert r.status_code == 201 and "X-RateLimit-Limit" in r.headers
    time.sleep(1.0)      # the limiter's timers have run in the worker by now
    assert requests.get(f"{base}/", timeout=5).status_code == 200
    text = printed.read_text()
    assert "Traceback" not in text and "Error" not in text, text


LOOP_PROBE = r"""
import io, json, time
from gevent import monkey
monkey.patch_all()
import gevent
from scorer.serve import watch_the_loop
out = io.StringIO()
watch_the_loop(0.5, out=out)
gevent.sleep(0.3)                                  # the loop free: the sleeps wake on time
monkey.get_original("time", "sleep")(0.25)         # a request that keeps the loop for 250 ms
gevent.sleep(0.4)
gevent.sleep(0.6)                                  # a window with the loop free again
print(json.dumps(out.getvalue().splitlines()))
"""


def test_the_loop_report_says_how_late_the_event_loop_woke_a_sleep():
    """``serve --loop-report``: each worker says how late its loop woke a 10 ms sleep; one request
    that keeps the loop for 250 ms shows as the longest wait of its window, while most sleeps wake
    on time; each line counts only the sleeps since the line before, so the next window, the loop
    free again, shows no long wait."""
    before = time.time()
    out = subprocess.run([sys.executable, "-c", LOOP_PROBE], cwd=ROOT, capture_output=True,
                         text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    # the first two windows: the stall's and the free one after it (a third may close if the
    # probe's last sleep ends past 1.5 s, as it did once on a loaded machine)
    lines = json.loads(out.stdout)[:2]
    windows = [re.fullmatch(r"loop lateness pid=\d+ at=([\d.]+) n=(\d+) p50=([\d.]+) p95=([\d.]+) p99=([\d.]+) max=([\d.]+) ms",
                            line) for line in lines]
    assert len(windows) == 2 and all(windows), lines
    (at1, n1, p50, _p95, _p99, longest), (at2, n2, _p50, _p95b, _p99b, longest2) = (
        [float(x) for x in w.groups()] for w in windows)
    assert n1 >= 5 and p50 < 5 and 230 <= longest < 400, lines   # ~45 sleeps a free window; fewer on a loaded machine
    assert before < at1 < at2 < time.time() and n2 >= 5 and longest2 < 100, lines
