"""The load bench's own bookkeeping (its figures come from ``make bench``): errors cannot hide."""
from __future__ import annotations

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
