"""kill -9 in the middle of a burst of moves loses nothing that was acknowledged and corrupts
nothing: the real server (``python -m scorer serve``) is killed and restarted on the same file."""
from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import requests

from scorer.catalog import STACKS
from scorer.db import Database
from scorer.tracker_store import Games

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, url: str) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-m", "scorer", "serve", "--host", "127.0.0.1", "--port", str(port), "--database", url],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(ROOT), "PLANET_RATE_LIMITS": "off"},
        start_new_session=True)  # its own process group: the server is a master and its workers
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            requests.get(f"http://127.0.0.1:{port}/api/games/none", timeout=1)
            return proc
        except requests.RequestException:  # not up yet (refused, or a worker still starting)
            if proc.poll() is not None:
                kill_group(proc)
                raise RuntimeError("the server did not start") from None
            time.sleep(0.1)
    kill_group(proc)
    raise RuntimeError("the server did not answer within 30 s")


def kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def play_one(base, gid, tokens, rng, session):
    """Play one random legal move; return (version, move) once acknowledged, or None if finished."""
    public = session.get(f"{base}/api/games/{gid}", timeout=10).json()
    if public["finished"]:
        return None
    seat = public["to_act"]
    auth = {"Authorization": f"Bearer {tokens[seat]}"}
    mine = session.get(f"{base}/api/games/{gid}", headers=auth, timeout=10).json()
    move = rng.choice(mine["legal"])
    r = session.post(f"{base}/api/games/{gid}/moves", json={"version": mine["version"], "move": move},
                     headers=auth, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()["version"], move


def test_kill_9_mid_burst_loses_no_acknowledged_move(tmp_path):
    db_path = tmp_path / "crash.sqlite3"
    url = f"sqlite:///{db_path}"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start_server(port, url)
    games = []
    try:
        for i, players in enumerate((["Ann", "Ben"], ["Ann", "Ben", "Cy"], ["A", "B", "C", "D", "E"],
                                     ["Ann", "Ben", "Cy", "Di"])):
            r = requests.post(f"{base}/api/games", json={"players": players, "seed": i,
                                                         "hidden_characters": i % 2 == 0}, timeout=10)
            assert r.status_code == 201
            games.append((r.json()["id"], [s["token"] for s in r.json()["seats"]]))
        acked = {gid: [] for gid, _ in games}
        stop = threading.Event()

        def burst(gid, tokens, seed):
            rng = random.Random(seed)
            session = requests.Session()
            try:
                while not stop.is_set():
                    done = play_one(base, gid, tokens, rng, session)
                    if done is None:
                        return
                    acked[gid].append(done)
            except requests.RequestException:
                return  # the server died under us: that move was not acknowledged

        threads = [threading.Thread(target=burst, args=(gid, tokens, n)) for n, (gid, tokens) in enumerate(games)]
        for t in threads:
            t.start()
        # kill once the burst is well under way, but long before any game can end
        deadline = time.monotonic() + 20
        while sum(len(a) for a in acked.values()) < 40 and time.monotonic() < deadline:
            time.sleep(0.01)
        os.killpg(proc.pid, signal.SIGKILL)  # every process of the server at once, as a crash would
        proc.wait(timeout=10)
        stop.set()
        for t in threads:
            t.join(timeout=15)
        assert all(0 < len(a) for a in acked.values()), "every game had moves acknowledged"
        assert not any(len(a) >= 64 for a in acked.values()), "the kill came mid-burst"
    finally:
        kill_group(proc)

    # the file is sound
    with sqlite3.connect(db_path) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"

    proc = start_server(port, url)
    try:
        db = Database(url)
        for gid, _tokens in games:
            loaded = Games(db).load(gid)
            log = loaded.log
            for version, move in acked[gid]:
                assert log[version - 1] == move, f"acknowledged move {version} of {gid} is there"
            assert loaded.version >= len(acked[gid])
            assert loaded.version <= len(acked[gid]) + 1  # at most the one move in flight
            game = loaded.state
            tiles = ([c.tile for p in game.planets for c in p.cells if c]
                     + [t for s in STACKS for t in game.piles[s] + game.removed[s]]
                     + [*game.revealed, *game.discarded])
            assert sorted(tiles) == sorted(set(tiles)) and len(tiles) == 80
            view = requests.get(f"{base}/api/games/{gid}", timeout=10).json()
            assert view["version"] == loaded.version
        db.dispose()
        # and the games go on to the end
        session = requests.Session()
        for n, (gid, tokens) in enumerate(games):
            rng = random.Random(100 + n)
            while play_one(base, gid, tokens, rng, session) is not None:
                pass
            final = session.get(f"{base}/api/games/{gid}", timeout=10).json()
            assert final["finished"] and final["result"]["players"] and final["table_id"]
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            kill_group(proc)
