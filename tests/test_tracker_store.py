"""The tracker store (``scorer.tracker_store.Games``) and the one map from refusals to HTTP."""
from __future__ import annotations

import dataclasses
import json
import random
import secrets
import threading

import pytest
from flask import jsonify
from sqlalchemy import func, select
from sqlalchemy.exc import OperationalError

from scorer import tracker_store
from scorer.db import Database, SavedTable
from scorer.draft import HIDDEN, Setup, apply, legal, parse_move, replay, undoable, view
from scorer.history_store import Play, play_for_table
from scorer.errors import GameNotFound, IllegalMove, InputError, NotYourTurn, StaleVersion, where_text
from scorer.tracker_store import Games
from scorer.web import create_app


def _sizes(games: Games) -> dict[str, int]:
    """How many things each container the store holds has."""
    return {name: len(value) for name, value in vars(games).items() if hasattr(value, "__len__")}


@pytest.fixture
def db(tmp_path):
    database = Database(f"sqlite:///{tmp_path / 'store.sqlite3'}")
    database.create_all()
    yield database
    database.dispose()


def play_out(games: Games, gid: str, rng: random.Random, moves: int = 10**6) -> None:
    for _ in range(moves):
        loaded = games.load(gid)
        if loaded.state.finished:
            return
        games.play(gid, loaded.version, rng.choice(legal(loaded.state, loaded.state.to_act)).as_json())


def test_asking_for_unknown_games_leaves_nothing_behind(client, app):
    # the old store kept a lock for every id ever asked for: 1,000 GETs, 1,000 locks for good
    games = app.extensions["games"]
    client.get("/api/games/warm-up")
    before = _sizes(games)
    for _ in range(1000):
        assert client.get(f"/api/games/{secrets.token_urlsafe(9)}").status_code == 404
    assert _sizes(games) == before


@pytest.mark.timeout(120)
def test_one_lock_for_all_games_plays_whole_games_without_waiting_on_itself(db):
    # every call takes a game's lock once: with a single stripe, a nested take would hang here
    games = Games(db, stripes=1)
    a = games.create(Setup(("Ann", "Ben"), 1, True)).id
    b = games.create(Setup(("Ann", "Ben", "Cy"), 2, False)).id
    rng = random.Random(3)
    play_out(games, a, rng, moves=7)
    loaded = games.load(a)  # 2 players, 7 moves: the second round's first take, B's face-up one
    assert undoable(loaded.state, None) is None
    games.undo(a, loaded.version, seat=None)
    play_out(games, b, rng)
    play_out(games, a, rng)
    for gid in (a, b):
        loaded = games.load(gid)
        assert loaded.state.finished and loaded.table_id
        # as if a crash came between the last move and its save: the check takes the lock too
        assert games.ensure_result_saved(dataclasses.replace(loaded, table_id=None)) == loaded.table_id


def test_a_games_last_move_is_stored_with_its_result_and_its_play_or_not_at_all(db, monkeypatch):
    games = Games(db)
    gid = games.create(Setup(("Ann", "Ben", "Cy"), 8, False)).id
    rng = random.Random(8)
    while True:  # up to the move that finishes the game
        loaded = games.load(gid)
        last = rng.choice(legal(loaded.state, loaded.state.to_act))
        if apply(loaded.state, last)[0].finished:
            break
        games.play(gid, loaded.version, last.as_json())

    def disk_full(conn, play):
        raise OperationalError("INSERT INTO plays", {}, Exception("database or disk is full"))
    monkeypatch.setattr(tracker_store, "record_play", disk_full)
    with pytest.raises(OperationalError):
        games.play(gid, loaded.version, last.as_json())

    def stored() -> tuple[int, int]:
        with db.engine.connect() as conn:
            return (conn.execute(select(func.count()).select_from(SavedTable)).scalar_one(),
                    conn.execute(select(func.count()).select_from(Play)).scalar_one())
    for store in (games, Games(db)):  # this process, and one that reads it all afresh
        again = store.load(gid)
        assert (again.version, again.state.finished, again.table_id) == (loaded.version, False, None)
    assert stored() == (0, 0)

    monkeypatch.undo()
    after = games.play(gid, loaded.version, last.as_json())
    fresh = Games(db).load(gid)
    assert fresh.state.finished and fresh.table_id == after.table_id is not None
    assert stored() == (1, 1)
    play = play_for_table(db, after.table_id)
    assert play.kind == "game" and play.game_id == gid and play.duration_min == 1
    assert [p.start_player for p in play.players] == [True, False, False]  # seat 0 starts round 1
    assert [p.score for p in play.players] == [p["total"] for p in after.state.result["players"]]
    assert games.ensure_result_saved(fresh) == after.table_id and stored() == (1, 1)


def test_a_game_whose_result_the_history_cannot_list_still_ends_with_its_table(db, monkeypatch):
    # as the history's hook does for any saved table: kept and reopened by its link, not listed
    from scorer.history import RecordError

    def unlistable(result):
        raise RecordError("players[0].name is missing or longer than 40 characters.")
    monkeypatch.setattr(tracker_store, "players_of_game", unlistable)
    games = Games(db)
    gid = games.create(Setup(("Ann", "Ben"), 9, False)).id
    play_out(games, gid, random.Random(9))
    fresh = Games(db).load(gid)
    assert fresh.state.finished and fresh.table_id is not None
    with db.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(Play)).scalar_one() == 0
        saved = conn.execute(select(SavedTable.result_json).where(SavedTable.id == fresh.table_id)).scalar_one()
    assert json.loads(saved) == fresh.state.result


def test_a_store_that_did_not_write_the_moves_reads_the_same_game(db):
    # two processes on one database: each goes on from its own cached state, undos included
    one, other = Games(db), Games(db)
    gid = one.create(Setup(("Ann", "Ben", "Cy"), 5, True)).id
    rng = random.Random(5)
    for _ in range(40):
        other.load(gid)  # cache an older state there
        loaded = one.load(gid)
        state = loaded.state
        if state.last_move is not None and state.last_move.type == "take" and rng.random() < 0.5:
            try:
                one.undo(gid, loaded.version, seat=None)
                continue
            except IllegalMove:
                pass
        one.play(gid, loaded.version, rng.choice(legal(state, state.to_act)).as_json())
    mine, theirs = one.load(gid), other.load(gid)
    assert theirs.log == mine.log and theirs.version == mine.version
    fresh = replay(mine.setup, mine.log)
    for seat in (None, 0, 1, 2):
        assert view(theirs.state, seat) == view(mine.state, seat) == view(fresh, seat)


def test_two_processes_writing_at_once_one_is_refused_and_reads_afresh(db):
    # both read version 0; the first to append wins, the unique constraint refuses the other
    one, other = Games(db), Games(db)
    gid = one.create(Setup(("Ann", "Ben"), 9, False)).id
    seen = other.load(gid)
    one.play(gid, 0, {"type": "choose", "seat": 0, "stack": "center"})
    move = parse_move({"type": "choose", "seat": 0, "stack": "uphill"})
    with pytest.raises(StaleVersion) as exc:
        other._append(seen, move.as_json(), apply(seen.state, move)[0])  # the write of a race
    assert where_text(exc.value.where) == "version"
    assert other.load(gid).version == 1 and other.load(gid).state.round_stack == "center"


def test_each_app_has_its_own_store(tmp_path):
    a = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "a",
                    "DATABASE_URL": f"sqlite:///{tmp_path / 'a.sqlite3'}"})
    b = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "b",
                    "DATABASE_URL": f"sqlite:///{tmp_path / 'b.sqlite3'}"})
    try:
        assert a.extensions["games"] is not b.extensions["games"]
        gid = a.test_client().post("/api/games", json={"players": ["Ann", "Ben"]}).json["id"]
        assert a.test_client().get(f"/api/games/{gid}").status_code == 200
        assert b.test_client().get(f"/api/games/{gid}").status_code == 404
    finally:
        a.extensions["db"].dispose()
        b.extensions["db"].dispose()


@pytest.mark.parametrize("error, status", [
    (InputError("That is not valid JSON.", ("body",)), 400),
    (IllegalMove("The game is over; there are no more moves.", ("move",)), 400),
    (NotYourTurn("It is Ann's turn, not Ben's.", ("move", "seat")), 403),
    (GameNotFound("There is no such game.", ("id",)), 404),
    (StaleVersion("Someone moved first.", ("version",)), 409),
])
def test_every_refusal_has_one_status_as_json_and_as_a_page(tmp_path, error, status):
    app = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "i",
                      "DATABASE_URL": f"sqlite:///{tmp_path / 'e.sqlite3'}"})

    def refuse():
        raise error

    app.add_url_rule("/api/refuse", "api_refuse", refuse)
    app.add_url_rule("/refuse", "refuse", refuse)
    app.add_url_rule("/fine", "fine", lambda: jsonify(ok=True))
    client = app.test_client()
    r = client.get("/api/refuse")
    assert r.status_code == status and r.json == {"error": error.message, "where": where_text(error.where)}
    page = client.get("/refuse")
    assert page.status_code == status and page.mimetype == "text/html"
    assert error.message.replace("'", "&#39;") in page.text
    assert client.get("/fine").status_code == 200
    app.extensions["db"].dispose()


def test_a_seat_may_not_name_the_face_down_tile_through_the_store(db):
    games = Games(db)
    gid = games.create(Setup(("Ann", "Ben"), 4, False)).id
    games.play(gid, 0, {"type": "choose", "stack": "center"}, seat=0)
    face_down = games.load(gid).state.revealed[0]
    games.play(gid, 1, {"type": "hide", "tile": face_down}, seat=0)
    with pytest.raises(NotYourTurn):  # Ann's link posting Ben's move
        games.play(gid, 2, {"type": "take", "seat": 1, "tile": HIDDEN, "position": 5}, seat=0)
    with pytest.raises(IllegalMove):  # Ben naming the tile he has not seen
        games.play(gid, 2, {"type": "take", "tile": face_down, "position": 5}, seat=1)
    assert games.load(gid).version == 2


def test_a_version_just_checked_elsewhere_is_served_from_the_cache_only_when_it_matches(db):
    # the live refresh passes the version its watcher has just read: a cached state at that
    # version needs no read; one behind it (another process moved) is read afresh
    one, other = Games(db), Games(db)
    gid = one.create(Setup(("Ann", "Ben", "Cy"), 6, False)).id
    rng = random.Random(6)
    play_out(one, gid, rng, moves=3)
    cached = other.load(gid)
    assert other.load(gid, known=cached.version) is cached
    play_out(one, gid, rng, moves=1)  # through the other "process"
    fresh = other.load(gid, known=cached.version + 1)
    assert fresh.version == cached.version + 1 and fresh.state == one.load(gid).state


def test_sqlite_writers_of_two_processes_take_turns_on_the_lock_file(tmp_path):
    """Two server processes on one SQLite file (two ``Database`` objects open the lock file each,
    as two processes do): a move waits while the other process writes, then is stored."""
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    first, second = Database(url), Database(url)
    first.create_all()
    games = Games(second)
    gid = games.create(Setup.parse({"players": ["Ann", "Ben", "Cy"], "seed": 3})).id
    state = games.load(gid).state
    stored = threading.Event()

    def play() -> None:
        games.play(gid, 0, legal(state, state.to_act)[0].as_json())
        stored.set()

    held, go_on = threading.Event(), threading.Event()

    def other_process_writes(conn) -> None:
        held.set()
        go_on.wait(10)
    other = threading.Thread(target=first.write, args=(other_process_writes,))
    other.start()
    assert held.wait(10)
    writer = threading.Thread(target=play)
    writer.start()
    assert not stored.wait(0.5), "a write went ahead while another process held the writers' lock"
    go_on.set()
    other.join()
    assert stored.wait(10) and games.load(gid).version == 1
    writer.join()
    assert (tmp_path / "shared.sqlite3-writer").exists()
    first.dispose()
    second.dispose()


class Statements:
    """The SQL statements this thread sends to ``engine`` inside ``with``: ``count(table, verb)``."""

    def __init__(self, engine):
        self.engine, self.sent, self.thread = engine, [], threading.get_ident()

    def _seen(self, conn, cursor, statement, parameters, context, executemany):  # noqa: PLR0913
        if threading.get_ident() == self.thread:
            self.sent.append(" ".join(statement.split()).upper())

    def __enter__(self):
        from sqlalchemy import event
        event.listen(self.engine, "before_cursor_execute", self._seen)
        return self

    def __exit__(self, *exc):
        from sqlalchemy import event
        event.remove(self.engine, "before_cursor_execute", self._seen)

    def count(self, table: str, verb: str = "") -> int:
        return sum(1 for s in self.sent if table.upper() in s and s.startswith(verb.upper()))


def test_a_seats_claim_is_asked_of_the_database_again_once_the_links_read_are_a_second_old(db):
    """A claim is checked in memory only while the game's links were read from the database
    within ``LINKS_TRUST``: a link re-issued through another process is refused as before."""
    from scorer.tracker_store import LINKS_TRUST
    now = [1000.0]
    games = Games(db, clock=lambda: now[0])
    gid = games.create(Setup.parse({"players": ["Ann", "Ben", "Cy"]})).id
    token = games.load(gid).tokens[1]
    claim = games.claim(gid, 1, None, token)
    assert claim
    games.load(gid)                                    # the links read now
    with Statements(db.engine) as fresh:
        assert games.claim(gid, 1, claim, token) == claim
        assert games.claim(gid, 1, "another phone", token) is None
    assert fresh.count("tracker_seat_claims") == 0 and fresh.count("tracker_games") == 0
    now[0] += LINKS_TRUST + 0.5
    with Statements(db.engine) as stale:
        assert games.claim(gid, 1, claim, token) == claim
    assert stale.count("tracker_seat_claims", "select") == 1
    # another process re-issues the link: its claim is gone; here the old link is refused again
    other = Games(db)
    other.reissue(gid, 1)
    now[0] += LINKS_TRUST + 0.5
    assert games.claim(gid, 1, claim, token) is None
    new_token = games.load(gid).tokens[1]
    assert new_token != token and games.claim(gid, 1, None, new_token) not in (None, claim)


HOLD_THE_TURN = r"""
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
time.sleep(float(sys.argv[2]))
"""  # another process (a worker) holding the write turn for a while, then letting go (it ends)

WRITE_BESIDE_A_BUSY_LOOP = r"""
import fcntl, os, sqlite3, subprocess, sys, time
from gevent import monkey
monkey.patch_all()
import gevent
from sqlalchemy import text
from scorer import tracker_store
from scorer.db import Database, SavedTable

path, hold = sys.argv[1], sys.argv[2]
db = Database(f"sqlite:///{path}")
with db.engine.begin() as conn:
    conn.execute(text("CREATE TABLE t (x INTEGER)"))
holder = subprocess.Popen([sys.executable, "-c", hold, path + "-writer", "0.4"], stdout=subprocess.PIPE, text=True)
assert holder.stdout.readline().strip() == "held"      # another process has the turn
writer = gevent.spawn(db.write, lambda conn: conn.execute(text("INSERT INTO t VALUES (1)")))
gevent.sleep(0.2)                      # the writer now waits for its turn, and gets it when the other lets go
mine = os.open(path + "-writer", os.O_RDWR)
reader, deadline = sqlite3.connect(path), time.monotonic() + 5
while time.monotonic() < deadline:     # this loop is busy: it never yields to the writer's greenlet
    stored = reader.execute("SELECT count(*) FROM t").fetchone()[0]
    try:
        fcntl.flock(mine, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        continue
    fcntl.flock(mine, fcntl.LOCK_UN)
    if stored:
        print("stored and the turn given back while the loop was busy")
        break
else:
    print("the turn stayed held until the loop came back")
writer.get(timeout=5)
holder.wait(timeout=5)
"""


def test_a_write_under_gevent_gives_the_turn_back_without_waiting_for_a_busy_event_loop(tmp_path):
    """Under ``serve`` (gevent) ``Database.write`` waits for the SQLite write turn, commits and
    gives the turn back without yielding to other greenlets in between: the other worker's writers
    never wait until this worker's event loop comes back to the writer (a busy loop held the lock
    file for a whole turn of it, and at 600 tables writes waited 0.8 s at the median for a 0.5 ms
    commit)."""
    import subprocess
    import sys
    from pathlib import Path
    done = subprocess.run([sys.executable, "-c", WRITE_BESIDE_A_BUSY_LOOP, str(tmp_path / "w.sqlite3"), HOLD_THE_TURN],
                          capture_output=True, text=True, timeout=60, cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "stored and the turn given back while the loop was busy"


REFUSED_WRITE_UNDER_GEVENT = r"""
import subprocess, sys
from gevent import monkey
monkey.patch_all()
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError
from scorer import tracker_store
from scorer.db import Database, SavedTable
path, hold = sys.argv[1], sys.argv[2]
db = Database(f"sqlite:///{path}")
db.write(lambda conn: conn.execute(text("CREATE TABLE t (x INTEGER PRIMARY KEY)")))
db.write(lambda conn: conn.execute(text("INSERT INTO t VALUES (1)")))
native_id = monkey.get_original("_thread", "get_ident")
where = []
db.write(lambda conn: where.append(native_id()))
print("here" if where == [native_id()] else "in another thread")
try:                                   # the turn free: written where it is called
    db.write(lambda conn: conn.execute(text("INSERT INTO t VALUES (1)")))
except IntegrityError:
    print("refused")
import gevent, time
holder = subprocess.Popen([sys.executable, "-c", hold, path + "-writer", "0.3"], stdout=subprocess.PIPE, text=True)
assert holder.stdout.readline().strip() == "held"      # another process has the turn
def request():                         # as a request would: the refusal caught where write was called
    started = time.monotonic()
    try:
        db.write(lambda conn: (where.append(native_id()), conn.execute(text("INSERT INTO t VALUES (1)"))))
    except IntegrityError:
        print("refused after waiting" if time.monotonic() - started > 0.1 else "refused without waiting")
    print("here" if where[-1] == native_id() else "in another thread")
gevent.spawn(request).get(timeout=10)
holder.wait(timeout=5)
"""


def test_a_refused_write_under_gevent_is_raised_to_its_caller_and_logged_by_nobody(tmp_path):
    """A move another process stored first (the unique key: a 409) is raised where ``write`` was
    called, with nothing printed; a write is done where it is called, without a thread, whether
    its turn was free or it waited for another process to let go of it."""
    import subprocess
    import sys
    from pathlib import Path
    done = subprocess.run([sys.executable, "-c", REFUSED_WRITE_UNDER_GEVENT, str(tmp_path / "r.sqlite3"), HOLD_THE_TURN],
                          capture_output=True, text=True, timeout=60, cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["here", "refused", "refused", "after", "waiting", "here"] and done.stderr == ""


def test_every_write_of_the_app_waits_for_the_turn_another_process_holds(tmp_path):
    """Not only moves: a scored table saved, a history imported, players merged and separated, a
    play deleted, a box saved and forgotten, the expiry: each waits while another process (the
    other worker) has the write turn, instead of taking SQLite's lock beside it (which left that
    worker's own write in SQLite's busy wait, its event loop stopped)."""
    import json
    import subprocess
    import sys
    import time

    from test_history import T1, T2, T3, store_tables

    from scorer.box_store import forget_box, save_box_bytes
    from scorer.contract import score_request
    from scorer.db import save_table
    from scorer.expiry_store import expire
    from scorer.history import name_key
    from scorer.history_store import delete_play, export_json, import_plays, list_plays, merge, separate

    create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "instance",
                "DATABASE_URL": f"sqlite:///{tmp_path / 'unused.sqlite3'}"}).extensions["db"].dispose()  # every model known
    paths = {name: tmp_path / f"{name}.sqlite3" for name in ("main", "imported")}
    dbs = {name: Database(f"sqlite:///{path}") for name, path in paths.items()}
    for db in dbs.values():
        db.create_all()
    db = dbs["main"]
    store_tables(db, [T1, T2])
    exported = json.loads("".join(export_json(db)))
    plays, _count = list_plays(db)
    writes = [
        ("main", "a scored table saved", lambda: save_table(db, T3, score_request(T3))),
        ("imported", "a history imported", lambda: import_plays(dbs["imported"], exported)),
        ("main", "players merged", lambda: merge(db, "Ben", "Ann")),
        ("main", "players separated", lambda: separate(db, name_key("Ben"))),
        ("main", "a play deleted", lambda: delete_play(db, plays[0].id)),
        ("main", "a box saved", lambda: save_box_bytes(db, b"box", None)),
        ("main", "the box forgotten", lambda: forget_box(db)),
        ("main", "the expiry", lambda: expire(db, keep_days=0)),
    ]
    waited, plays_after = {}, []
    for name, what, write in writes:
        holder = subprocess.Popen([sys.executable, "-c", HOLD_THE_TURN, f"{paths[name]}-writer", "0.5"],
                                  stdout=subprocess.PIPE, text=True)
        assert holder.stdout.readline().strip() == "held"
        started = time.monotonic()
        write()
        waited[what] = time.monotonic() - started
        holder.wait(timeout=10)
        plays_after.append(len(list_plays(db)[0]))
    assert all(seconds >= 0.3 for seconds in waited.values()), waited
    assert plays_after == [3, 3, 3, 3, 2, 2, 2, 0]          # each write was done: saved, deleted, expired
    assert len(list_plays(dbs["imported"])[0]) == 2
    for each in dbs.values():
        each.dispose()
