"""The tracker's JSON API (SPEC §2 "Tracker, as JSON"): views, moves, errors, undo."""
from __future__ import annotations

import json
import random
import threading

from hypothesis import HealthCheck, given, settings, strategies as st

from scorer.db import load_table


def new_game(client, players=("Ann", "Ben", "Cy"), **kw):
    r = client.post("/api/games", json={"players": list(players), "seed": 42, **kw})
    assert r.status_code == 201, r.json
    body = r.json
    assert set(body) >= {"id", "seats"}
    assert [s["name"] for s in body["seats"]] == list(players)
    return body["id"], [s["token"] for s in body["seats"]]


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def view(client, gid, token=None):
    r = client.get(f"/api/games/{gid}", headers=auth(token) if token else {})
    assert r.status_code == 200
    return r.json


def post(client, gid, token, version, move):
    return client.post(f"/api/games/{gid}/moves", json={"version": version, "move": move}, headers=auth(token))


def test_the_view_has_the_contract_fields(client):
    gid, tokens = new_game(client)
    v = view(client, gid, tokens[0])
    for key in ("version", "round", "to_act", "stacks", "revealed", "planets", "legal", "finished", "result"):
        assert key in v
    assert v["version"] == 0 and v["round"] == 1 and v["to_act"] == 0 and not v["finished"]
    assert v["stacks"] == {"center": 12, "uphill": 12, "downhill": 12, "character": 12}
    assert v["planets"][0]["name"] == "Ann" and v["planets"][0]["cells"] == [[None] * 4] * 4
    assert len(v["legal"]) == 4 and all(m["type"] == "choose" for m in v["legal"])
    assert view(client, gid)["legal"] == [] and view(client, gid, tokens[1])["legal"] == []


def test_a_whole_game_through_the_api_ends_scored_and_saved(client, app):
    gid, tokens = new_game(client, ("Ann", "Ben", "Cy", "Di"))
    rng = random.Random(1)
    v = view(client, gid)
    while not v["finished"]:
        seat = v["to_act"]
        mine = view(client, gid, tokens[seat])
        r = post(client, gid, tokens[seat], mine["version"], rng.choice(mine["legal"]))
        assert r.status_code == 200, r.json
        v = r.json
    assert v["result"]["players"][0]["name"] == "Ann" and v["to_act"] is None
    assert v["table_url"] == f"/tables/{v['table_id']}"
    with app.app_context():
        saved = load_table(app.extensions["db"], v["table_id"])
    assert saved.result == v["result"]
    assert view(client, gid)["result"] == v["result"]


def test_an_illegal_move_is_400_with_a_reason_and_changes_nothing(client):
    gid, tokens = new_game(client)
    r = post(client, gid, tokens[0], 0, {"type": "choose", "seat": 0, "stack": "moon"})
    assert r.status_code == 400 and r.json["where"] == "move.stack" and "moon" in r.json["error"]
    r = post(client, gid, tokens[0], 0, {"type": "take", "seat": 0, "tile": "C01", "position": 5})
    assert r.status_code == 400 and "choose a stack" in r.json["error"]
    for body in ({"version": 0}, {"move": {}}, {"version": "0", "move": {}}, [1, 2]):
        r = client.post(f"/api/games/{gid}/moves", json=body, headers=auth(tokens[0]))
        assert r.status_code == 400 and set(r.json) == {"error", "where"}
    r = client.post(f"/api/games/{gid}/moves", data="{not json", headers=auth(tokens[0]),
                    content_type="application/json")
    assert r.status_code == 400 and r.json["where"] == "body"
    assert view(client, gid)["version"] == 0


def test_another_seats_move_or_a_bad_token_is_403(client):
    gid, tokens = new_game(client)
    move = {"type": "choose", "seat": 0, "stack": "center"}
    assert post(client, gid, tokens[1], 0, move).status_code == 403          # Ben posts Ann's move
    r = post(client, gid, tokens[1], 0, {**move, "seat": 1})                  # not Ben's turn
    assert r.status_code == 403 and "Ann's turn" in r.json["error"]
    assert post(client, gid, "not-a-token", 0, move).status_code == 403
    r = client.post(f"/api/games/{gid}/moves", json={"version": 0, "move": move})
    assert r.status_code in (400, 403)
    assert client.get(f"/api/games/{gid}", headers=auth("nope")).status_code == 403
    assert view(client, gid)["version"] == 0
    # the seat may be left out: the token says who is moving
    r = post(client, gid, tokens[0], 0, {"type": "choose", "stack": "center"})
    assert r.status_code == 200 and r.json["version"] == 1


def test_a_stale_version_is_409_and_changes_nothing(client):
    gid, tokens = new_game(client)
    move = {"type": "choose", "seat": 0, "stack": "center"}
    assert post(client, gid, tokens[0], 0, move).status_code == 200
    r = post(client, gid, tokens[0], 0, {**move, "stack": "uphill"})
    assert r.status_code == 409 and r.json["where"] == "version" and "moved first" in r.json["error"]
    v = view(client, gid)
    assert v["version"] == 1 and v["stacks"]["uphill"] == 12


def test_two_writers_at_once_only_one_wins(app):
    client = app.test_client()
    gid, tokens = new_game(client)
    v = view(client, gid, tokens[0])
    codes = []
    barrier = threading.Barrier(6)

    def go(stack):
        c = app.test_client()
        barrier.wait()
        codes.append(post(c, gid, tokens[0], v["version"], {"type": "choose", "seat": 0, "stack": stack}).status_code)

    threads = [threading.Thread(target=go, args=(s,)) for s in ("center", "uphill", "downhill", "character") * 2][:6]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [200] + [409] * 5
    assert view(client, gid)["version"] == 1


def test_unknown_games_are_404_as_json(client):
    r = client.get("/api/games/nope")
    assert r.status_code == 404 and set(r.json) == {"error", "where"}
    assert client.post("/api/games/nope/moves", json={"version": 0, "move": {}}).status_code == 404


def test_bad_new_games_are_400(client):
    for body in ({"players": ["Solo"]}, {"players": ["A", "a"]}, {}, {"players": ["A", "B"], "mode": "x"}):
        r = client.post("/api/games", json=body)
        assert r.status_code == 400 and set(r.json) == {"error", "where"}
    r = client.post("/api/games", data="nope", content_type="application/json")
    assert r.status_code == 400


def test_undo_takes_back_the_last_take_until_tiles_are_revealed(client):
    gid, tokens = new_game(client)
    r = post(client, gid, tokens[0], 0, {"type": "choose", "seat": 0, "stack": "uphill"})
    v = r.json
    r = client.post(f"/api/games/{gid}/undo", json={}, headers=auth(tokens[0]))
    assert r.status_code == 400 and "cannot be taken back" in r.json["error"]
    take = v["legal"][0]
    v = post(client, gid, tokens[0], 1, take).json
    assert v["can_undo"] and v["phase"] == "appoint"
    assert client.post(f"/api/games/{gid}/undo", json={}, headers=auth(tokens[1])).status_code == 403
    assert client.post(f"/api/games/{gid}/undo", json={"version": 1}, headers=auth(tokens[0])).status_code == 409
    r = client.post(f"/api/games/{gid}/undo", json={"version": 2}, headers=auth(tokens[0]))
    assert r.status_code == 200
    v = r.json
    assert v["version"] == 3 and v["phase"] == "take" and take["tile"] in v["revealed"]
    assert v["planets"][0]["cells"] == [[None] * 4] * 4
    assert take in v["legal"]
    assert client.post(f"/api/games/{gid}/undo", json={}).status_code in (400, 403)


def test_hidden_information_never_reaches_another_seat_or_the_public(client):
    gid, tokens = new_game(client, ("Ann", "Ben"), hidden_characters=True)
    rng = random.Random(5)
    secret = {}
    for _ in range(64):
        v = view(client, gid)
        if v["finished"]:
            break
        seat = v["to_act"]
        mine = view(client, gid, tokens[seat])
        move = rng.choice(mine["legal"])
        v = post(client, gid, tokens[seat], mine["version"], move).json
        own = view(client, gid, tokens[seat])
        for row in own["planets"][seat]["cells"]:
            for cell in row:
                if cell and cell.startswith("K"):
                    secret[cell] = seat
        if own["phase"] == "take" and own["face_down"] not in (None, "hidden"):
            other_view = json.dumps(view(client, gid, tokens[1 - seat]))
            assert f'"{own["face_down"]}"' not in other_view
        if not v["finished"]:
            for viewer in (None, 0, 1):
                text = json.dumps(view(client, gid, tokens[viewer] if viewer is not None else None))
                for tile, owner in secret.items():
                    if owner != viewer:
                        assert f'"{tile}"' not in text and f"{tile} " not in text
    assert view(client, gid)["finished"]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False) | st.text(max_size=8)
    | st.sampled_from(["center", "hidden", "C01", "K03", "take", "choose", "appoint", "hide"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(
        ["type", "seat", "stack", "tile", "position", "to", "version", "move", "players"]), inner, max_size=4),
    max_leaves=8)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=json_values, move=json_values)
def test_no_input_is_ever_a_500(client, body, move):
    gid, tokens = new_game(client)
    for payload in (body, {"version": 0, "move": move}, {"version": 0, "move": {"type": "take", "seat": 0, **(move if isinstance(move, dict) else {})}}):
        r = client.post(f"/api/games/{gid}/moves", json=payload, headers=auth(tokens[0]))
        assert r.status_code in (200, 400, 403, 409), r.json
        assert r.is_json
    r = client.post("/api/games", json=body)
    assert r.status_code in (201, 400) and r.is_json
    r = client.post(f"/api/games/{gid}/undo", json=body, headers=auth(tokens[0]))
    assert r.status_code in (200, 400, 403, 409) and r.is_json


def test_odd_tokens_are_403_not_500(client):
    gid, tokens = new_game(client)
    for token in ("é", "x" * 5000, tokens[0] + "\u00ff"):
        r = client.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {token}".encode().decode("latin-1")})
        assert r.status_code == 403 and r.is_json
    assert client.get(f"/play/{gid}/%C3%A9").status_code == 404


def test_a_blind_take_cannot_be_undone_to_peek_at_the_face_down_tile(client):
    gid, tokens = new_game(client, ("Ann", "Ben"), hidden_characters=True)
    v = view(client, gid, tokens[0])
    v = post(client, gid, tokens[0], v["version"], {"type": "choose", "seat": 0, "stack": "center"}).json
    v = post(client, gid, tokens[0], v["version"], {"type": "hide", "seat": 0, "tile": v["revealed"][0]}).json
    ben = view(client, gid, tokens[1])
    blind = next(m for m in ben["legal"] if m["tile"] == "hidden")
    after = post(client, gid, tokens[1], ben["version"], blind).json
    assert after["can_undo"] is False
    r = client.post(f"/api/games/{gid}/undo", json={"version": after["version"]}, headers=auth(tokens[1]))
    assert r.status_code == 400 and "cannot be taken back" in r.json["error"]
    assert view(client, gid)["version"] == after["version"]
