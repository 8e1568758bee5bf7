"""The load bench's own bookkeeping (its figures come from ``make bench``): errors cannot hide."""
from __future__ import annotations

import json
import threading
from collections import Counter

from scorer.load_bench import Stats, held


def test_every_error_is_counted_by_what_failed_and_its_status():
    stats = Stats()
    for _ in range(9007):
        stats.error("refresh", 403, b"<!doctype html>")
    stats.error("move", "TimeoutError")
    assert stats.error_count == 9008
    assert stats.causes.most_common() == [("refresh: 403", 9007), ("move: TimeoutError", 1)]
    assert len(stats.errors) == 4  # only the first few of each kind are kept in full


def test_a_run_with_a_single_error_does_not_hold():
    stats = Stats(refresh_ms=[10.0] * 100, move_ms=[10.0] * 100, delivery_ms=[10.0] * 100)
    out = {"load": type("L", (), {"stats": stats})(), "mode": "wait", "logs_ok": 1, "results_ok": 1, "tables": 1}
    assert held(out)
    stats.error("refresh", 403)
    assert not held(out)



def test_the_bench_taps_what_the_board_offers_and_reads_whose_turn_it_shows(client, app):
    """The bench's phones act from the board as the page does: the move form's buttons are legal
    moves, only the seat to act gets them, and every board names that seat."""
    from scorer.draft import legal
    from scorer.load_bench import act_form, move_of, to_act_on
    made = client.post("/api/games", json={"players": ["Ann", "Ben", "Cy"], "seed": 5}).get_json()
    gid, tokens = made["id"], [s["token"] for s in made["seats"]]
    games = app.extensions["games"]
    for version in range(12):                       # through choose, take and appoint
        state = games.load(gid).state
        boards = [client.get(f"/play/{gid}/{t}").data for t in tokens]
        assert [to_act_on(b) for b in boards] == [state.to_act] * 3
        assert [act_form(b) is None for b in boards] == [s != state.to_act for s in range(3)]
        fields, buttons = act_form(boards[state.to_act])
        allowed = [m.as_json() for m in legal(state, state.to_act)]
        for button in buttons:
            offered = move_of({**fields, **dict([button])})
            assert any(all(m.get(k) == v for k, v in offered.items()) for m in allowed), offered
        r = client.post(f"/play/{gid}/{tokens[state.to_act]}/move", data={**fields, **dict([buttons[-1]])},
                        headers={"HX-Request": "true"})
        assert r.status_code == 200 and b"tmsg-" not in r.data
        assert games.load(gid).version == version + 1


def test_the_server_watch_tells_each_workers_share_and_what_its_main_thread_was_doing():
    # Why a server holds fewer tables than its CPU allows (issue 10): each worker's CPU, its share
    # of the servers' CPU and what its main thread was found doing.
    import os
    import socket

    from scorer.load_bench import ServerWatch
    watch = ServerWatch([])
    assert watch.report() == []                                # nothing watched, nothing said
    assert watch.state(os.getpid()) == "on a core or waiting for one"   # this test, running
    assert watch.state(2**22 + 7) == "gone"
    held = socket.socket()
    try:
        assert watch.sockets(os.getpid()) >= 1
    finally:
        held.close()
    watch.windows = [{"generator": 0.2, "worker 0": 0.9, "worker 1": 0.1},
                     {"generator": 0.4, "worker 0": 0.7, "worker 1": 0.3}]
    watch.connections = {"worker 0": [900, 1100], "worker 1": [300, 310]}
    watch.states = {"worker 0": Counter({"on a core or waiting for one": 3, "idle in its event loop": 1})}
    lines = watch.report()
    assert "    worker 0: 0.90 / 0.90; 80%; 900-1100 sockets" in lines
    assert "    worker 1: 0.30 / 0.30; 20%; 300-310 sockets" in lines
    assert "    generator: 0.40 / 0.40" in lines
    assert "    busiest window: servers 1.00 cores, generator 0.20" in lines
    assert "    worker 0's main thread, 4 looks: on a core or waiting for one 75.0%, idle in its event loop 25.0%" in lines


def test_the_server_watch_counts_connections_waiting_to_be_accepted():
    # A listening socket nobody accepts from: the connections made to it wait in its queue.
    import socket

    from scorer.load_bench import ServerWatch
    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    listening.listen(16)
    port = listening.getsockname()[1]
    clients = []
    try:
        watch = ServerWatch([(None, f"http://127.0.0.1:{port}")])
        assert watch.waiting() == 0
        clients = [socket.create_connection(("127.0.0.1", port)) for _ in range(3)]
        assert watch.waiting() == 3
        listening.accept()[0].close()
        assert watch.waiting() == 2
        watch.backlog = [0, 0, 1, 5]
        watch.windows = [{"generator": 0.1, "worker 0": 0.5}]
        assert "    connections waiting to be accepted (4 looks): p50 1, p95 5, max 5" in watch.report()
    finally:
        for sock in [*clients, listening]:
            sock.close()


def test_the_generator_puts_off_its_own_collections_while_it_plays_and_times_any_asked_for():
    """The generator's own pauses would count against the server (latency runs from the scheduled
    time): while it plays no collection runs on the collector's count, one asked for is timed, and
    all is put back after."""
    import gc
    import weakref

    from scorer.load_bench import OwnPauses

    class Node:
        pass

    with OwnPauses() as pauses:
        node = Node()
        node.me = node
        garbage = weakref.ref(node)
        gc.collect(1)
        gc.collect(1)      # long-lived now: only a full collection frees it
        del node
        asked = pauses.count   # the two above
        held = [[[i] for i in range(20_000)] for _ in range(30)]   # enough for many collections
        put_off = garbage() is not None and pauses.count == asked
        del held
        gc.collect(0)      # one more asked for, as a library might
    assert put_off, "a collection ran while the generator played"
    assert asked == 2 and pauses.count == 3 and pauses.longest_ms > 0 and "3 asked for" in str(pauses)
    assert gc.isenabled()
    gc.collect()
    assert garbage() is None


def test_the_bench_reads_each_workers_loop_reports_of_the_played_part_only(tmp_path):
    from scorer.load_bench import LOOP_REPORT, loop_lateness
    began, ended = 1000.0, 1000.0 + 6 * LOOP_REPORT
    line = lambda pid, at, n, p50, p95, p99, longest: (   # noqa: E731
        f"loop lateness pid={pid} at={at:.3f} n={n} p50={p50} p95={p95} p99={p99} max={longest} ms\n")
    (tmp_path / "server0.log").write_text(
        line(11, began - 1, 500, 9.0, 900.0, 2000.0, 2600.0)              # the join: not counted
        + line(11, began + LOOP_REPORT / 2, 500, 9.0, 900.0, 2000.0, 2600.0)  # may hold the join's end
        + line(11, began + 2 * LOOP_REPORT, 400, 0.5, 10.0, 20.0, 40.0)
        + line(12, began + 2 * LOOP_REPORT, 300, 0.7, 12.0, 30.0, 70.0)
        + "a warning\n"
        + line(11, began + 3 * LOOP_REPORT, 400, 0.6, 30.0, 90.0, 150.0)
        + line(11, began + 4 * LOOP_REPORT, 400, 0.4, 20.0, 50.0, 60.0)
        + line(11, ended + 1, 500, 9.0, 900.0, 2000.0, 2600.0))            # after the play: not counted
    said, = loop_lateness(tmp_path, 1, began, ended)
    assert "p50 0.5, p95 20.0 (worst window 30.0), p99 worst 90.0, max 150.0 ms over 1200 in 3 windows" in said
    assert "p50 0.7, p95 12.0 (worst window 12.0), p99 worst 30.0, max 70.0 ms over 300 in 1 windows" in said
    assert "2600" not in said and "900.0" not in said
    assert loop_lateness(tmp_path, 2, began, ended) == [said] and loop_lateness(tmp_path / "none", 1, began, ended) == []
    assert loop_lateness(tmp_path, 1, ended + 100, ended + 200) == []




def test_phones_on_event_streams_through_the_real_server_see_every_move_and_every_game_checks(tmp_path):
    """A small game night through ``python -m scorer serve`` (gunicorn, gevent workers), every phone
    on the page's event stream: each other phone gets each move's board, with nothing asked again."""
    from scorer.load_bench import deal_openings, one_run, parse
    database = f"sqlite:///{tmp_path / 'night.sqlite3'}"
    args = parse(["--tables", "4", "--moves", "3", "--openings", "2", "--double", "0", "--workers", "2"])
    assert args.mode == "stream"
    openings = deal_openings(args.openings, args.moves, args.seed)
    ran: dict = {}
    # in a thread of its own: the browser tests' Playwright keeps an event loop running in this one
    night = threading.Thread(target=lambda: ran.setdefault("out", one_run(4, args, openings, database, tmp_path)))
    night.start()
    night.join(240)
    out = ran["out"]
    out["mode"] = args.mode
    stats = out["load"].stats
    assert stats.error_count == 0, stats.errors[:3]
    assert out["logs_ok"] == out["results_ok"] == 4
    others = sum(len(t.tokens) - 1 for t in out["load"].tables) * args.moves
    assert len(stats.delivery_ms) == others           # every move on every other phone, by the stream
    assert stats.nothing_new == 0 and stats.streams == out["phones"]  # one stream a phone, for the whole game
    # (no p95 here: speed is the bench's to measure; a test timed on a shared machine fails on its load)


def test_every_table_of_a_night_can_be_its_own_game_played_by_the_rules_to_near_its_end():
    """Tables copied from a few openings draw the same planets, whose drawings the server shares by
    what they show, as real tables' never are: by default each table gets a game of its own."""
    from scorer.draft import Setup, legal, parse_entry, replay
    from scorer.load_bench import deal_openings, parse
    assert parse([]).openings == 0                    # one opening for each table unless asked
    openings = deal_openings(40, 5, seed=3)
    assert len({tuple(log) for _, _, log in openings}) == 40   # 40 different games
    assert deal_openings(40, 5, seed=3) == openings   # and the same again from the same seed
    for setup_json, mode, log in openings:
        setup = Setup.parse(json.loads(setup_json))
        state = replay(setup, [json.loads(m) for m in log])
        assert mode == "own" and not state.finished and legal(state, state.to_act)
        assert [parse_entry(json.loads(m)).as_json() for m in log] == [json.loads(m) for m in log]
    assert {len(json.loads(s)["players"]) for s, _, _ in openings} == {3, 4, 5}
    assert {json.loads(s)["hidden_characters"] for s, _, _ in openings} == {True, False}
