"""Expiry of abandoned games, and of old plays when the server is told to keep them a while."""
from __future__ import annotations

import json
import subprocess
import sys
from datetime import timedelta

from sqlalchemy import text

from scorer.contract import score_request
from scorer.db import save_table, utcnow
from scorer.expiry_store import expire

TABLE = {"players": [{"name": "Ann", "counts": {"rose": 1}}, {"name": "Ben", "counts": {"volcano": 1}}]}


def count(db, table: str) -> int:
    with db.engine.connect() as connection:
        return connection.exec_driver_sql(f"SELECT COUNT(*) FROM {table}").scalar()


def age(db, table: str, row_id: str, days: int) -> None:
    with db.engine.begin() as connection:
        connection.execute(text(f"UPDATE {table} SET created = :created WHERE id = :id"),  # any database's placeholders
                           {"created": utcnow() - timedelta(days=days), "id": row_id})


def test_abandoned_games_go_and_live_ones_stay(app, client):
    db = app.extensions["db"]
    old = client.post("/api/games", json={"players": ["Ann", "Ben"]}).json
    new = client.post("/api/games", json={"players": ["Ann", "Ben"]}).json
    view = client.get(f"/api/games/{old['id']}", headers={"Authorization": f"Bearer {old['seats'][0]['token']}"}).json
    client.post(f"/api/games/{old['id']}/moves", json={"version": view["version"], "move": view["legal"][0]},
                headers={"Authorization": f"Bearer {old['seats'][0]['token']}"})
    age(db, "tracker_games", old["id"], 40)
    with db.engine.begin() as connection:  # its last move, long ago too
        connection.execute(text("UPDATE tracker_moves SET created = :created"), {"created": utcnow() - timedelta(days=35)})
    done = expire(db, abandoned_days=30)
    assert done.abandoned_games == 1 and done.tables == 0
    with db.engine.connect() as connection:
        left = [row[0] for row in connection.exec_driver_sql("SELECT id FROM tracker_games")]
    assert left == [new["id"]] and count(db, "tracker_moves") == 0


def test_a_game_moved_in_lately_is_not_abandoned_however_old(app, client):
    db = app.extensions["db"]
    game = client.post("/api/games", json={"players": ["Ann", "Ben"]}).json
    token = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    view = client.get(f"/api/games/{game['id']}", headers=token).json
    client.post(f"/api/games/{game['id']}/moves", json={"version": view["version"], "move": view["legal"][0]},
                headers=token)
    age(db, "tracker_games", game["id"], 90)
    assert expire(db, abandoned_days=30).abandoned_games == 0


def test_old_tables_go_only_when_told_to_keep_them_a_while(app, client):
    db = app.extensions["db"]
    old = save_table(db, TABLE, score_request(TABLE))
    new = save_table(db, TABLE, score_request(TABLE))
    age(db, "saved_tables", old, 400)
    assert expire(db).tables == 0  # kept by default: they are the history
    done = expire(db, keep_days=365)
    assert done.tables == 1
    assert client.get(f"/tables/{old}").status_code == 404 and client.get(f"/tables/{new}").status_code == 200
    history = client.get("/history").get_data(as_text=True)
    assert new in history and old not in history


def test_the_command_expires_now_and_says_how_much(tmp_path):
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    proc = subprocess.run([sys.executable, "-m", "scorer", "expire", "--database", url, "--keep-days", "10"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"abandoned_games": 0, "finished_games": 0, "tables": 0, "tallies": 0}
