"""``python -m scorer serve`` as it runs on game night: it prints where to open it, and a handful
of silent or slow sockets neither stop it answering nor stay open for ever."""
from __future__ import annotations

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

ROOT = Path(__file__).resolve().parents[1]
SCORE = {"players": [{"name": "Ann", "counts": {"characters": ["king"], "volcano": 1}}]}


@pytest.fixture
def server(tmp_path):
    port = free_port()
    out = open(tmp_path / "serve.out", "wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "scorer", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--database", f"sqlite:///{tmp_path / 'serve.sqlite3'}", "--client-timeout", "2"],
        cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "SECRET_KEY": "test"})
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            requests.get(f"{base}/api/games/none", timeout=2)
            break
        except requests.RequestException:
            assert proc.poll() is None and time.monotonic() < deadline, (tmp_path / "serve.out").read_text()
            time.sleep(0.2)
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
