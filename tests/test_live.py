"""The live refresh (``scorer.web.live``): "nothing new" is 204/304 without loading the game, a
new version is the board, and a long poll wakes on a move made through another app on the same
database (as a phone on one server process sees a move made through another)."""
from __future__ import annotations

import re
import threading
import time

import pytest

from scorer.web import create_app

from conftest import close_database, database_url


def new_game(client, players=("Ann", "Ben", "Cy")):
    made = client.post("/api/games", json={"players": list(players), "seed": 11}).get_json()
    return made["id"], [s["token"] for s in made["seats"]]


def move(client, gid, tokens, version):
    """The player to act plays their first legal move; the new version."""
    to_act = client.get(f"/api/games/{gid}").get_json()["to_act"]
    auth = {"Authorization": f"Bearer {tokens[to_act]}"}
    mine = client.get(f"/api/games/{gid}", headers=auth).get_json()
    r = client.post(f"/api/games/{gid}/moves", headers=auth, json={"version": version, "move": mine["legal"][0]})
    assert r.status_code == 200, r.text
    return r.get_json()["version"]


def board_version(response) -> int:
    return int(re.search(r'id="board"[^>]*data-version="(\d+)"', response.text).group(1))


@pytest.fixture
def two_apps(tmp_path):
    """Two apps on one database, as two server processes are; long polls held up to 10 s."""
    url = database_url(tmp_path, "shared.sqlite3")
    apps = [create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "instance", "DATABASE_URL": url,
                        "LIVE_MAX_WAIT": 10}) for _ in range(2)]
    yield apps
    close_database(apps[0], apps[1])


def test_nothing_new_is_204_and_a_new_version_is_the_board(client):
    gid, tokens = new_game(client)
    seat = f"/play/{gid}/{tokens[1]}/live"
    r = client.get(f"{seat}?v=0")
    assert r.status_code == 204 and r.data == b"" and r.headers["ETag"] == '"0"'
    assert r.headers["Cache-Control"] == "no-store" and r.headers["X-Frame-Options"] == "DENY"
    assert client.get(f"/games/{gid}/live?v=0").status_code == 204        # the table's public view too
    move(client, gid, tokens, 0)
    r = client.get(f"{seat}?v=0")                                         # the version moved: the board
    assert r.status_code == 200 and board_version(r) == 1 and r.headers["ETag"] == '"1"'
    assert client.get(f"{seat}?v=1").status_code == 204
    assert client.get(f"/games/{gid}/live?v=0").status_code == 200


def test_an_etag_answers_304_while_current_and_the_board_when_stale(client):
    gid, tokens = new_game(client)
    seat = f"/play/{gid}/{tokens[0]}/live"
    assert client.get(seat, headers={"If-None-Match": '"0"'}).status_code == 304
    move(client, gid, tokens, 0)
    r = client.get(seat, headers={"If-None-Match": '"0"'})                # a stale ETag
    assert r.status_code == 200 and board_version(r) == 1 and r.headers["ETag"] == '"1"'
    assert client.get(seat, headers={"If-None-Match": r.headers["ETag"]}).status_code == 304


def test_the_fast_answer_keeps_secrets_and_refuses_what_the_views_refuse(client):
    gid, tokens = new_game(client)
    assert client.get(f"/play/{gid}/not-a-seat/live?v=0").status_code == 404
    assert client.get(f"/play/{gid}/{tokens[0]}x/live?v=0").status_code == 404
    assert client.get("/play/nosuchgame/abc/live?v=0").status_code == 404
    assert client.get("/games/nosuchgame/live?v=0").status_code == 404


def test_a_threaded_server_answers_at_once_instead_of_holding_a_long_poll(client):
    # the test client, like the browser tests' waitress, is not the gevent server: no waiting
    gid, tokens = new_game(client)
    started = time.monotonic()
    assert client.get(f"/play/{gid}/{tokens[0]}/live?v=0&wait=25").status_code == 204
    assert time.monotonic() - started < 10


def test_a_long_poll_wakes_on_a_move_made_through_another_app(two_apps):
    here, there = (app.test_client() for app in two_apps)
    gid, tokens = new_game(there)
    answers = {}

    def wait_for_news():
        answers["r"] = here.get(f"/play/{gid}/{tokens[2]}/live?v=0&wait=10")

    waiting = threading.Thread(target=wait_for_news)
    waiting.start()
    time.sleep(0.5)          # the phone is waiting on this app before the move is made on the other
    move(there, gid, tokens, 0)
    waiting.join(5)          # woken by the move, not by the end of its 10-s wait
    assert not waiting.is_alive(), "the long poll was not woken by the move"
    assert answers["r"].status_code == 200 and board_version(answers["r"]) == 1


def test_a_long_poll_with_nothing_new_ends_in_204(two_apps):
    here = two_apps[0].test_client()
    gid, tokens = new_game(here)
    with_wait = two_apps[0].extensions["live"]
    game = with_wait.lookup(gid)
    assert game is not None and with_wait.wait(game, 0, 0.2) is False
    assert here.get(f"/play/{gid}/{tokens[0]}/live?v=1&wait=1").status_code == 200  # v ahead: the board


def test_a_plain_refresh_sees_a_move_made_through_another_app(two_apps):
    here, there = (app.test_client() for app in two_apps)
    gid, tokens = new_game(there)
    assert here.get(f"/play/{gid}/{tokens[0]}/live?v=0").status_code == 204   # this app now watches it
    move(there, gid, tokens, 0)
    deadline = time.monotonic() + 5
    while (r := here.get(f"/play/{gid}/{tokens[0]}/live?v=0")).status_code == 204 and time.monotonic() < deadline:
        time.sleep(0.02)      # the watcher looks every 0.05 s
    assert r.status_code == 200 and board_version(r) == 1


def seats_on_their_phones(tmp_path):
    """A new game whose seats each opened their page on their own phone (long polls held up to
    10 s): the app, the game, its seat tokens, the phones, the pages' CSRF token and the state."""
    app = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "instance", "LIVE_MAX_WAIT": 10,
                      "DATABASE_URL": database_url(tmp_path, "seats.sqlite3")})
    gid, tokens = new_game(app.test_client())
    phones = [app.test_client() for _ in tokens]
    pages = [phone.get(f"/play/{gid}/{token}") for phone, token in zip(phones, tokens)]
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', pages[0].text).group(1)
    return app, gid, tokens, phones, csrf, app.extensions["games"].load(gid).state


def test_a_seats_own_move_from_its_page_is_not_drawn_again_for_its_held_poll(tmp_path):
    """One round trip per move: the page's move is answered with the mover's new board, so the
    long poll that phone held from before is answered 204; another seat's held poll gets the board."""
    from scorer.draft import legal
    app, gid, tokens, phones, csrf, state = seats_on_their_phones(tmp_path)
    mover, other = state.to_act, (state.to_act + 1) % 3
    answers, versions = {}, app.extensions["live"]
    waiting, wait = threading.Semaphore(0), versions.wait

    def counted_wait(*args):
        waiting.release()
        return wait(*args)

    versions.wait = counted_wait

    def hold(seat):
        answers[seat] = phones[seat].get(f"/play/{gid}/{tokens[seat]}/live?v=0&wait=10")

    held = [threading.Thread(target=hold, args=(seat,)) for seat in (mover, other)]
    for thread in held:
        thread.start()
    assert waiting.acquire(timeout=10) and waiting.acquire(timeout=10)  # both polls are held before the move
    move = legal(state, mover)[0].as_json()
    r = phones[mover].post(f"/play/{gid}/{tokens[mover]}/move", headers={"HX-Request": "true"},
                           data={"csrf_token": csrf, "version": "0", "type": move["type"], "stack": move["stack"]})
    assert r.status_code == 200 and board_version(r) == 1     # the mover's new board, in the answer
    for thread in held:
        thread.join(5)
    assert answers[mover].status_code == 204                 # not the same board a second time
    assert answers[other].status_code == 200 and board_version(answers[other]) == 1
    assert phones[mover].get(f"/play/{gid}/{tokens[mover]}/live?v=0").status_code == 200  # asked afresh: the board
    close_database(app)


def test_the_held_poll_waits_for_its_own_post_when_the_watcher_sees_the_move_first(tmp_path, monkeypatch):
    """The watcher reads the move table every 10 ms: on a busy server it saw the stored move and
    woke the mover's held poll while the post was still drawing its answer, so that poll drew the
    same board again (seen as a flaky test under load). A poll woken while its own seat's post is
    in flight waits for that post's answer. Here the answer is held back 0.3 s on purpose."""
    from scorer.draft import legal
    from scorer.web import tracker_pages
    app, gid, tokens, phones, csrf, state = seats_on_their_phones(tmp_path)
    mover = state.to_act
    versions = app.extensions["live"]
    waiting, wait = threading.Semaphore(0), versions.wait
    woken_at: list[float] = []

    def counted_wait(*args):
        waiting.release()
        out = wait(*args)
        woken_at.append(time.monotonic())
        return out

    versions.wait = counted_wait
    answer = tracker_pages._seat_answer
    answered_at: list[float] = []

    def slow_answer(*args, **kwargs):
        time.sleep(0.3)  # the watcher sees the stored move meanwhile
        answered_at.append(time.monotonic())
        return answer(*args, **kwargs)

    monkeypatch.setattr(tracker_pages, "_seat_answer", slow_answer)
    held: dict[str, object] = {}
    poll = threading.Thread(target=lambda: held.setdefault(
        "r", phones[mover].get(f"/play/{gid}/{tokens[mover]}/live?v=0&wait=10")))
    poll.start()
    assert waiting.acquire(timeout=10)
    move = legal(state, mover)[0].as_json()
    r = phones[mover].post(f"/play/{gid}/{tokens[mover]}/move", headers={"HX-Request": "true"},
                           data={"csrf_token": csrf, "version": "0", "type": move["type"], "stack": move["stack"]})
    assert r.status_code == 200 and board_version(r) == 1
    poll.join(5)
    assert woken_at and answered_at and woken_at[0] < answered_at[0]  # the watcher did wake it first
    assert held["r"].status_code == 204  # and it still did not draw the mover's board a second time
    close_database(app)


def test_a_watcher_that_cannot_read_the_moves_says_so_once_without_a_traceback(client, caplog):
    """The database went away (a test dropped it, or it is down): the watcher keeps trying every
    tick, but says so once per kind of failure, in one line. A traceback formatted in its thread
    while another thread compiled a URL rule once failed a test (CPython 3.11's "AST constructor
    recursion depth mismatch")."""
    import logging
    versions = client.application.extensions["live"]
    ticks = {"n": 0}

    def away():
        ticks["n"] += 1
        if ticks["n"] >= 50:
            versions.asked = -1e9               # nobody watches any more: the watcher stops
        raise RuntimeError("relation \"tracker_moves\" does not exist\nLINE 2: FROM tracker_moves")

    versions.look = away
    versions.every = 0.001
    versions.asked = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="scorer.web.live"):
        versions._run()
    said = [r for r in caplog.records if r.name == "scorer.web.live"]
    assert ticks["n"] == 50
    assert len(said) == 1 and said[0].exc_info is None
    assert "(RuntimeError: relation \"tracker_moves\" does not exist); trying again" in said[0].getMessage()


def test_a_move_stored_through_another_process_reaches_the_watcher_here_and_a_refused_one_does_not(
        two_apps, monkeypatch):
    """Two server processes on one database: a move stored through one reaches the other's
    watcher (and so its phones) without a full check of every game (``SWEEP``, put off here).
    On PostgreSQL it is heard, announced when it commits, and the move table is never looked
    at; on SQLite the watcher looks at it (``tick``). A move refused as stale moves nothing."""
    from scorer.tracker_store import announces
    from scorer.web import live
    monkeypatch.setattr(live, "SWEEP", 3600.0)
    here, there = two_apps
    versions = here.extensions["live"]
    looked = []
    tick = versions.tick
    versions.tick = lambda: (looked.append(1), tick())[1]
    gid, tokens = new_game(there.test_client())
    game = versions.lookup(gid)                    # watched here: the watcher starts
    deadline = time.monotonic() + 10
    while versions.ticked == 0.0 and time.monotonic() < deadline:   # its first look is done
        time.sleep(0.01)
    assert game.version == 0 and versions.ticked > 0
    version = move(there.test_client(), gid, tokens, 0)
    while game.version < version and time.monotonic() < deadline:
        time.sleep(0.005)
    assert game.version == version == 1
    auth = {"Authorization": f"Bearer {tokens[0]}"}
    stale = there.test_client().post(f"/api/games/{gid}/moves", headers=auth,
                                     json={"version": 0, "move": {"type": "choose", "stack": "C"}})
    assert stale.status_code == 409
    time.sleep(0.3)
    assert game.version == 1
    if announces(here.extensions["db"]):
        assert looked == []          # heard, not looked for
    else:
        assert looked


def test_a_watcher_that_cannot_hear_the_moves_looks_for_them_and_says_so_once(two_apps, caplog):
    """Where moves are announced but this process cannot listen (the database refuses LISTEN, or
    the listening connection broke), the watcher looks at the move table instead, says why once,
    and tries to listen again only after ``DEAF`` seconds."""
    import logging

    from scorer.web import live
    here, there = two_apps
    versions = here.extensions["live"]
    tried = []

    def refused(seconds):
        tried.append(seconds)
        raise RuntimeError("LISTEN is not supported here")
    versions.feed.listens = True                  # as on PostgreSQL, here only
    versions.feed.heard = refused
    gid, tokens = new_game(there.test_client())
    with caplog.at_level(logging.WARNING, logger="scorer.web.live"):
        game = versions.lookup(gid)
        version = move(there.test_client(), gid, tokens, 0)
        deadline = time.monotonic() + 10
        while game.version < version and time.monotonic() < deadline:
            time.sleep(0.005)
        time.sleep(0.3)
    assert game.version == version == 1
    assert len(tried) == 1 and live.DEAF >= 1   # not tried again at every look
    said = [r.getMessage() for r in caplog.records if r.name == "scorer.web.live"]
    assert said == ["live versions: could not read the moves (RuntimeError: LISTEN is not supported here); trying again"]


def test_the_watchers_own_feed_reads_each_move_committed_by_another_app_as_the_store_query_does(two_apps):
    from scorer.tracker_store import MoveFeed, moves_since
    here, there = two_apps
    feed = MoveFeed(here.extensions["db"])
    gid, tokens = new_game(there.test_client())
    assert feed.since(0) == []
    version = move(there.test_client(), gid, tokens, 0)   # committed through the other app
    first = feed.since(0)
    assert [(g, v) for _i, g, v in first] == [(gid, 1)] == [(g, v) for _i, g, v in moves_since(here.extensions["db"], 0)]
    move(there.test_client(), gid, tokens, version)
    assert [(g, v) for _i, g, v in feed.since(first[-1][0])] == [(gid, 2)]   # only what came after
    assert len(feed.since(0, limit=1)) == 1
    feed.close()
    assert [v for _i, _g, v in feed.since(0)] == [1, 2]   # opened again after closing
    feed.close()


def test_a_board_drawn_by_one_worker_is_handed_out_by_the_other_from_the_shelf(tmp_path):
    """Two workers of one server (two apps on one database and one SHARED_BOARDS_DIR): the mover's
    post draws the new board in one; a phone whose refresh reaches the other is handed those same
    bytes there, in front of Flask, from the shelf (not loaded and drawn a second time). A seat of
    another class is not handed that drawing; a game over leaves nothing on the shelf."""
    from scorer.draft import legal
    url, shelf = database_url(tmp_path, "workers.sqlite3"), tmp_path / "shelf"
    shelf.mkdir(mode=0o700)
    apps = [create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "instance", "DATABASE_URL": url,
                        "SHARED_BOARDS_DIR": str(shelf)}) for _ in range(2)]
    gid, tokens = new_game(apps[0].test_client())
    phones = [apps[0].test_client() for _ in tokens]
    pages = [phone.get(f"/play/{gid}/{token}") for phone, token in zip(phones, tokens)]
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', pages[0].text).group(1)
    state = apps[0].extensions["games"].load(gid).state
    mover, other = state.to_act, (state.to_act + 1) % 3
    on_b = apps[1].test_client()  # the other seat's phone, its request reaching the second worker
    claim = phones[other].get_cookie(f"seat-{gid}-{other}", path=f"/play/{gid}/")
    on_b.set_cookie(claim.key, claim.value, path=f"/play/{gid}/")
    move = legal(state, mover)[0].as_json()
    r = phones[mover].post(f"/play/{gid}/{tokens[mover]}/move", headers={"HX-Request": "true"},
                           data={"csrf_token": csrf, "version": "0", "type": move["type"], "stack": move["stack"]})
    assert r.status_code == 200 and board_version(r) == 1
    assert sorted(p.name for p in (shelf / gid).iterdir()) == ["en.1.meta", "en.1.public"]
    boards_b = apps[1].extensions["boards"]
    got = on_b.get(f"/play/{gid}/{tokens[other]}/live?v=0")
    assert got.status_code == 200 and board_version(got) == 1
    assert boards_b.served == 1                               # answered in front of Flask, from the shelf
    assert got.data == phones[other].get(f"/play/{gid}/{tokens[other]}/live?v=0").data  # what the first hands out
    # a seat of a class nobody drew for: the second worker draws it (the view), nothing taken from the shelf
    board = boards_b.board((gid, 1, "en"), lambda: None)
    board.classes = tuple(s if s == other else c for s, c in enumerate(board.classes))
    assert boards_b.answer(gid, 1, "en", other, "") is None
    for app in apps:
        app.extensions["boards"].forget(gid)
    assert not (shelf / gid).exists()
    close_database(apps[0], apps[1])


def test_the_shelf_refuses_names_that_are_not_a_game_or_a_language(tmp_path):
    """A game id or language from a URL never reaches the file system as a path."""
    from scorer.web.shared_boards import PUBLIC, Board, Shelf
    shelf = Shelf(tmp_path / "shelf")
    (tmp_path / "shelf").mkdir()
    board = Board((PUBLIC,), 0, None, 1)
    for game, locale in (("..", "en"), ("g/../../x", "en"), ("g", "../en"), ("g", "e.n")):
        shelf.put(game, locale, board, PUBLIC, "<div>x</div>")
        assert shelf.board(game, 1, locale) is None and shelf.drawing(game, 1, locale, PUBLIC) is None
    assert list(tmp_path.rglob("*.meta")) == [] and sorted(p.name for p in tmp_path.iterdir()) == ["shelf"]
    shelf.put("g", "en", board, PUBLIC, "<div>x</div>")
    read = shelf.board("g", 1, "en")
    assert (read.classes, read.to_act, read.mover, read.version) == ((PUBLIC,), 0, None, 1)
    assert shelf.drawing("g", 1, "en", PUBLIC) == "<div>x</div>"
    later = Board((PUBLIC,), 0, 0, 2)
    shelf.put("g", "en", later, PUBLIC, "<div>y</div>")
    assert shelf.board("g", 1, "en") is None and shelf.drawing("g", 2, "en", PUBLIC) == "<div>y</div>"


def test_a_new_shelf_removes_the_folders_of_servers_that_were_killed(tmp_path, monkeypatch):
    # A server killed with SIGKILL (the crash test does it) could not remove its folder: the next
    # one does, and leaves a running server's alone.
    import os

    from scorer.web import shared_boards
    monkeypatch.setattr(shared_boards, "shelf_parent", lambda: str(tmp_path))
    dead, alive = tmp_path / f"planet-boards-{2**22 + 7}-x", tmp_path / f"planet-boards-{os.getpid()}-y"
    dead.mkdir(), alive.mkdir(), (tmp_path / "other").mkdir()
    made = shared_boards.new_shelf_folder()
    assert not dead.exists() and alive.exists() and (tmp_path / "other").exists()
    assert os.path.basename(made).startswith(f"planet-boards-{os.getpid()}-") and os.stat(made).st_mode & 0o777 == 0o700


# -- the event stream (``&stream=1``) ----------------------------------------------------------------

def events(response, timeout: float = 5.0):
    """The events of a held stream as they come: (name, id, data) for each, ("comment", None,
    text) for a comment line; the iterator's each step waits for the server's next write."""
    for chunk in response.response:
        for block in chunk.decode().split("\n\n"):
            if not block:
                continue
            lines = block.split("\n")
            if lines[0].startswith(":"):
                yield "comment", None, lines[0][1:].strip()
                continue
            fields = {}
            for line in lines:
                key, _, value = line.partition(": ")
                fields[key] = fields[key] + "\n" + value if key == "data" and key in fields else value
            yield fields.get("event", "retry"), fields.get("id"), fields.get("data", fields.get("retry"))


def in_a_while(seconds: float, do) -> threading.Timer:
    timer = threading.Timer(seconds, do)
    timer.start()
    return timer


def test_an_event_stream_carries_each_new_board_once_and_keeps_the_connection_alive(tmp_path):
    """One request held for the game: each move's board is an event (its id the version, its data
    the board the long poll answers, byte for byte), and a comment when a wait runs out."""
    app = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "instance", "LIVE_MAX_WAIT": 1,
                      "DATABASE_URL": database_url(tmp_path, "stream.sqlite3")})
    api, phone = app.test_client(), app.test_client()
    gid, tokens = new_game(api)
    assert phone.get(f"/play/{gid}/{tokens[1]}").status_code == 200   # the seat's page: its claim
    r = phone.get(f"/play/{gid}/{tokens[1]}/live?v=0&stream=1", buffered=False,
                  headers={"Accept-Encoding": "gzip, deflate, br"})             # as a browser asks
    assert r.status_code == 200 and r.headers["Content-Type"].startswith("text/event-stream")
    assert r.headers["Cache-Control"] == "no-store" and "Content-Encoding" not in r.headers
    stream = events(r)
    assert next(stream) == ("retry", None, "2000")
    in_a_while(0.2, lambda: move(api, gid, tokens, 0))
    name, version, board = next(stream)
    assert (name, version) == ("board", "1")
    assert board == phone.get(f"/play/{gid}/{tokens[1]}/live?v=0").text    # the same board, not compressed
    started = time.monotonic()
    assert next(stream) == ("comment", None, "still here")                   # nothing new for a second
    assert 0.5 < time.monotonic() - started < 5
    in_a_while(0.1, lambda: move(api, gid, tokens, 1))
    assert next(stream)[:2] == ("board", "2")                                # the next move, not board 1 again
    r.close()
    close_database(app)


def test_a_seats_own_move_from_its_page_is_not_sent_on_its_stream(tmp_path):
    """The mover's page has its new board from its post's answer: its stream skips that version
    and carries the next move's board."""
    from scorer.draft import legal
    app, gid, tokens, phones, csrf, state = seats_on_their_phones(tmp_path)
    mover = state.to_act
    r = phones[mover].get(f"/play/{gid}/{tokens[mover]}/live?v=0&stream=1", buffered=False)
    stream = events(r)
    assert next(stream)[0] == "retry"
    waiting, wait = threading.Semaphore(0), app.extensions["live"].wait

    def counted_wait(*args):
        waiting.release()
        return wait(*args)

    app.extensions["live"].wait = counted_wait
    got = []
    reader = threading.Thread(target=lambda: got.append(next(stream)))
    reader.start()
    assert waiting.acquire(timeout=10)          # the stream waits for news before the move
    move_json = legal(state, mover)[0].as_json()
    answer = phones[mover].post(f"/play/{gid}/{tokens[mover]}/move", headers={"HX-Request": "true"},
                                data={"csrf_token": csrf, "version": "0", "type": move_json["type"],
                                      "stack": move_json["stack"]})
    assert answer.status_code == 200 and board_version(answer) == 1
    api = app.test_client()
    assert waiting.acquire(timeout=10)          # woken by its own move, it waits again without a word
    move(api, gid, tokens, 1)
    reader.join(10)
    assert got and got[0][:2] == ("board", "2")
    r.close()
    close_database(app)


def test_a_reconnecting_stream_starts_after_its_last_event_id(tmp_path):
    app = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "instance", "LIVE_MAX_WAIT": 1,
                      "DATABASE_URL": database_url(tmp_path, "again.sqlite3")})
    api, phone = app.test_client(), app.test_client()
    gid, tokens = new_game(api)
    phone.get(f"/play/{gid}/{tokens[2]}")
    move(api, gid, tokens, 0)
    # the page was opened at version 0 and its stream carried board 1 before the network broke
    r = phone.get(f"/play/{gid}/{tokens[2]}/live?v=0&stream=1", headers={"Last-Event-ID": "1"}, buffered=False)
    stream = events(r)
    assert next(stream)[0] == "retry" and next(stream) == ("comment", None, "still here")
    r.close()
    r = phone.get(f"/play/{gid}/{tokens[2]}/live?v=0&stream=1", buffered=False)  # no id: board 1 again
    stream = events(r)
    assert next(stream)[0] == "retry" and next(stream)[:2] == ("board", "1")
    r.close()
    close_database(app)


def test_a_stream_of_a_seat_another_phone_holds_ends_without_a_board(tmp_path):
    """The board is the claimed phone's alone: another browser's stream with the same link gets
    no board when the game moves, only the end of the stream."""
    app = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "instance", "LIVE_MAX_WAIT": 1,
                      "DATABASE_URL": database_url(tmp_path, "foreign.sqlite3")})
    api, owner, stranger = app.test_client(), app.test_client(), app.test_client()
    gid, tokens = new_game(api)
    assert owner.get(f"/play/{gid}/{tokens[0]}").status_code == 200
    r = stranger.get(f"/play/{gid}/{tokens[0]}/live?v=0&stream=1", buffered=False)
    stream = events(r)
    assert next(stream)[0] == "retry"
    in_a_while(0.2, lambda: move(api, gid, tokens, 0))
    name, _, data = next(stream)
    assert name == "end" and "data-version" not in (data or "")
    r.close()
    close_database(app)


def test_pages_open_a_stream_only_where_the_server_holds_requests(tmp_path, client):
    gid, tokens = new_game(client)
    page = client.get(f"/play/{gid}/{tokens[0]}").text          # a threaded server: the board asks itself
    assert "sse-connect" not in page and 'hx-get="live?v=0&amp;wait=25"' in page
    assert client.get(f"/play/{gid}/{tokens[0]}/live?v=0&stream=1").status_code == 204  # answered at once
    app = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "instance", "LIVE_MAX_WAIT": 25,
                      "DATABASE_URL": database_url(tmp_path, "held.sqlite3")})
    held = app.test_client()
    gid, tokens = new_game(held)
    page = held.get(f"/play/{gid}/{tokens[0]}").text
    assert 'sse-connect="live?v=0&amp;stream=1"' in page and 'hx-get="live' not in page
    assert "htmx-ext-sse-2.2.4.min.js" in page
    table = held.get(f"/games/{gid}").text
    assert f'sse-connect="/games/{gid}/live?v=0&amp;stream=1"' in table and "hx-get=\"/games/" not in table
    close_database(app)


def test_a_board_already_drawn_for_the_class_goes_on_the_stream_as_the_same_board(tmp_path):
    """Kept drawings are framed once as an event (``shared_boards.EVENT``) for every phone of the
    class: the event carries the board the long poll hands out, cut to this seat's roles."""
    app = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "instance", "LIVE_MAX_WAIT": 1,
                      "DATABASE_URL": database_url(tmp_path, "kept.sqlite3")})
    api = app.test_client()
    gid, tokens = new_game(api)
    phones = [app.test_client() for _ in tokens]
    for phone, token in zip(phones, tokens):
        phone.get(f"/play/{gid}/{token}")
    to_act = api.get(f"/api/games/{gid}").get_json()["to_act"]
    move(api, gid, tokens, 0)
    first = phones[to_act].get(f"/play/{gid}/{tokens[to_act]}/live?v=0").text   # draws the class's board
    boards = app.extensions["boards"]
    served = boards.served
    other = (to_act + 1) % 3
    r = phones[other].get(f"/play/{gid}/{tokens[other]}/live?v=0&stream=1", buffered=False)
    stream = events(r)
    assert next(stream)[0] == "retry"
    name, version, board = next(stream)
    assert (name, version) == ("board", "1") and boards.served == served + 1      # handed out, not drawn
    assert board == phones[other].get(f"/play/{gid}/{tokens[other]}/live?v=0").text != first  # its own roles
    r.close()
    close_database(app)


def test_a_stream_whose_server_fails_closes_without_the_end_so_the_browser_connects_again(tmp_path, monkeypatch):
    """A 5xx while drawing (the database away) is not a refusal: no ``event: end`` (which makes
    the page close its stream for good), only the end of the connection, which EventSource retries."""
    from scorer.web import tracker_pages
    app = create_app({"TESTING": False, "INSTANCE_PATH": tmp_path / "instance", "LIVE_MAX_WAIT": 1,
                      "DATABASE_URL": database_url(tmp_path, "fails.sqlite3")})
    api, phone = app.test_client(), app.test_client()
    gid, tokens = new_game(api)
    phone.get(f"/play/{gid}/{tokens[1]}")
    r = phone.get(f"/play/{gid}/{tokens[1]}/live?v=0&stream=1", buffered=False)
    stream = events(r)
    assert next(stream)[0] == "retry"

    def away(*args, **kwargs):
        raise RuntimeError("the database is away")

    monkeypatch.setattr(tracker_pages, "_own_board", away)
    in_a_while(0.2, lambda: move(api, gid, tokens, 0))
    assert list(stream) == []      # the stream ended, and said nothing that would stop the page
    r.close()
    close_database(app)


@pytest.mark.parametrize("warmed", [True, False])
def test_a_warmed_worker_compiles_no_template_when_its_first_phones_come(tmp_path, warmed):
    """``python -m scorer serve`` warms each worker before its first request (``warm``): a seat's
    first page, its board and the home page, in every language, then compile nothing (the
    unwarmed app, the control, compiles on the first page)."""
    from scorer.web import warm
    app = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "instance",
                      "DATABASE_URL": database_url(tmp_path, "warm.sqlite3")})
    try:
        if warmed:
            assert warm(app) is app
        compiled: list[str] = []
        compile_now = app.jinja_env.compile
        app.jinja_env.compile = lambda source, name=None, *a, **k: compiled.append(name) or compile_now(source, name, *a, **k)
        client = app.test_client()
        gid, tokens = new_game(client)
        version = move(client, gid, tokens, 0)
        for language in ("en", "fr", "zh-TW"):
            headers = {"Accept-Language": language}
            for path in (f"/play/{gid}/{tokens[1]}", f"/play/{gid}/{tokens[2]}/live?v=0", f"/games/{gid}", "/"):
                assert client.get(path, headers=headers).status_code == 200, path
        assert version == 1
        if warmed:
            assert compiled == []
        else:
            assert "tracker/_board.html" in compiled
    finally:
        close_database(app)


def test_a_stopped_watcher_ends_at_once_and_a_phone_asking_starts_it_again(two_apps):
    """``Versions.stop`` (a test's teardown, before the tables go) ends the watcher thread, even
    while it waits for news; the next phone's question starts a new one that sees the moves."""
    here, there = two_apps
    versions = here.extensions["live"]
    gid, tokens = new_game(there.test_client())
    versions.lookup(gid)
    first = versions._watcher
    assert first is not None and first.is_alive()
    started = time.monotonic()
    versions.stop()
    assert not first.is_alive() and time.monotonic() - started < 2.0
    game = versions.lookup(gid)
    assert versions._watcher is not None and versions._watcher is not first and versions._watcher.is_alive()
    version = move(there.test_client(), gid, tokens, 0)
    deadline = time.monotonic() + 10
    while game.version < version and time.monotonic() < deadline:
        time.sleep(0.01)
    assert game.version == version == 1
