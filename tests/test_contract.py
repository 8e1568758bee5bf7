"""The scoring contract (SPEC §2): POST /api/score and `python -m scorer score`, same JSON."""
import json
import subprocess
import sys

import pytest

from scorer.contract import score_request
from scorer.errors import InputError, where_text

FULL_GRID = {"cells": [["K10", "U01", "D13", "K16"],
                       ["D16", "C02", "C17", "U20"],
                       ["U19", "C08", "C09", "D15"],
                       ["K07", "D14", "U14", "K20"]]}


def grid_with(pos, value, base=FULL_GRID):
    cells = [list(r) for r in base["cells"]]
    cells[pos // 4][pos % 4] = value
    return {"cells": cells}


def one(player):
    return {"players": [{"name": "Ann", **player}]}


BAD_INPUTS = [
    # (request, where, words in the message)
    ("not a dict", "players", "The request is"),
    ({"players": []}, "players", "1 to 5 players"),
    ({"players": [{"name": f"P{i}", "counts": {}} for i in range(6)]}, "players", "1 to 5 players"),
    ({"players": ["Ann"]}, "players[0]", "must be an object"),
    ({"players": [{"counts": {}}]}, "players[0].name", "needs a name"),
    ({"players": [{"name": "Ann", "counts": {}}, {"name": "ann", "counts": {}}]}, "players[1].name", "Two players are called"),
    (one({}), "players[0]", "exactly one of"),
    (one({"counts": {}, "tiles": []}), "players[0]", "not tiles and counts"),
    (one({"counts": {"characters": ["pilot"]}}), "players[0].counts.characters[0]", "not a character"),
    (one({"counts": {"characters": ["king", "hunter", "drunkard", "gardener", "geographer"]}}), "players[0].counts.characters", "at most 4"),
    (one({"counts": {"characters": ["king", "king"]}}), "players[0].counts.characters", "only 1 such tile"),
    (one({"counts": {"rose": -1}}), "players[0].counts.rose", "cannot be negative"),
    (one({"counts": {"rose": 1.5}}), "players[0].counts.rose", "whole number"),
    (one({"counts": {"rose": True}}), "players[0].counts.rose", "whole number"),
    (one({"counts": {"unicorn": 1}}), "players[0].counts.unicorn", "not an item"),
    (one({"counts": {"face_down": 4}}), "players[0].counts.face_down", "three at a time"),
    (one({"counts": {"baobab": 3}}), "players[0].counts.baobab", "third baobab"),
    (one({"counts": {"volcano": 13}}), "players[0].counts.volcano", "cannot fit"),
    (one({"counts": {"face_down": 9, "volcano": 4}}), "players[0].counts.face_down", "more than the 12"),
    (one({"counts": {"sheep_brown": 40}}), "players[0].counts.sheep_brown", "cannot fit"),
    (one({"tiles": ["C99"]}), "players[0].tiles[0]", "not a tile"),
    (one({"tiles": ["C01", "C01"]}), "players[0].tiles[1]", "listed twice"),
    (one({"tiles": ["C04", "C05", "C06", "C07", "C08"]}), "players[0].tiles[4]", "more than 4 planet center"),
    (one({"tiles": "C01"}), "players[0].tiles", "list of tile ids"),
    (one({"planet": {"cells": [[None] * 4] * 3}}), "players[0].planet.cells", "4 rows of 4"),
    (one({"planet": [[None] * 4] * 4}), "players[0].planet", "a planet is"),
    (one({"planet": grid_with(5, "U01")}), "players[0].planet.cells[1][1]", "uphill edge tile, but row 2, column 2 takes a planet center"),
    (one({"planet": grid_with(0, "C01")}), "players[0].planet.cells[0][0]", "takes a character"),
    (one({"planet": grid_with(6, "C02")}), "players[0].planet.cells[1][2]", "twice"),
    (one({"planet": grid_with(0, "back")}), "players[0].planet.cells[0][0]", "character corner"),
    (one({"planet": grid_with(5, "Z01")}), "players[0].planet.cells[1][1]", "not a tile"),
    (one({"planet": grid_with(5, 7)}), "players[0].planet.cells[1][1]", "not a tile"),
    (one({"planet": grid_with(6, "C01")}), "players[0].planet.cells", "3 face-up baobabs"),
    (one({"planet": grid_with(5, "back")}), "players[0].planet.cells", "three at a time"),
    (one({"name": "x" * 41, "counts": {}}), "players[0].name", "longer than"),
]


@pytest.mark.parametrize("request_json,where,words", BAD_INPUTS)
def test_bad_input_is_explained(request_json, where, words):
    with pytest.raises(InputError) as info:
        score_request(request_json)
    assert where_text(info.value.where) == where
    assert words in info.value.message


@pytest.mark.parametrize("request_json,where,words", BAD_INPUTS[::3])
def test_bad_input_over_http_is_400_with_error_and_where(client, request_json, where, words):
    r = client.post("/api/score", data=json.dumps(request_json), content_type="application/json")
    assert r.status_code == 400
    assert r.json["where"] == where and words in r.json["error"]


@pytest.mark.parametrize("body", [b"", b"{", b"\xff\xfe", b"[]", b"null", b'{"players": null}', b"1e999999"])
def test_malformed_bodies_answer_400(client, body):
    r = client.post("/api/score", data=body, content_type="application/json")
    assert r.status_code == 400
    assert set(r.json) == {"error", "where"}


def test_wrong_methods_and_paths_never_500(client):
    assert client.get("/api/score").status_code == 405
    assert client.get("/api/score").json["error"]
    assert client.post("/api/nothing").status_code == 404


def test_grid_scores_and_lists_positions(client):
    r = client.post("/api/score", json=one({"planet": FULL_GRID}))
    assert r.status_code == 200
    p = r.json["players"][0]
    assert p["complete"] is True
    hunter = next(c for c in p["characters"] if c["character"] == "hunter")
    # fox on C02 (5), elephant C17 (6), snake C08 (9), sheep on C02 and D16 (4)
    assert hunter["points"] == 12 and {4, 5, 6, 9} <= set(hunter["positions"])
    assert set(p) >= {"name", "characters", "subtotal", "volcanoes", "penalty", "total", "rank", "winner"}


def test_same_tile_on_two_planets_is_a_warning_not_an_error():
    result = score_request({"players": [{"name": "A", "tiles": ["C01"]}, {"name": "B", "tiles": ["C01"]}]})
    assert any("C01 is on A and B's planets" in w for w in result["warnings"])


def test_incomplete_planet_is_scored_and_flagged():
    result = score_request(one({"tiles": ["K13", "C13"]}))
    p = result["players"][0]
    assert p["complete"] is False and p["total"] == 4
    assert any("not finished" in w for w in result["warnings"])


def test_response_keeps_request_order_and_shares_ranks():
    players = [{"name": n, "counts": {"characters": ["lamplighter"], "lamppost": k}}
               for n, k in [("A", 3), ("B", 5), ("C", 5), ("D", 1)]]
    result = score_request({"players": players})
    assert [p["name"] for p in result["players"]] == ["A", "B", "C", "D"]
    assert [p["rank"] for p in result["players"]] == [3, 1, 1, 4]
    assert result["shared_victory"] is True


def run_cli(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "scorer", "score", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_command_reads_stdin_and_file_and_matches_the_api(client, tmp_path):
    request_json = {"players": [{"name": "Ann", "planet": FULL_GRID}, {"name": "Ben", "counts": {"volcano": 2}}]}
    via_api = client.post("/api/score", json=request_json).json
    proc = run_cli("-", stdin=json.dumps(request_json))
    assert proc.returncode == 0 and json.loads(proc.stdout) == via_api
    path = tmp_path / "table.json"
    path.write_text(json.dumps(request_json))
    proc = run_cli(str(path))
    assert proc.returncode == 0 and json.loads(proc.stdout) == via_api


@pytest.mark.parametrize("stdin,where", [("{oops", "body"), ('{"players": [{"name": "A", "tiles": ["Q1"]}]}', "players[0].tiles[0]")])
def test_command_exits_2_with_error_json(stdin, where):
    proc = run_cli(stdin=stdin)
    assert proc.returncode == 2
    out = json.loads(proc.stdout)
    assert out["where"] == where and out["error"]
    assert "Traceback" not in proc.stderr


def test_command_on_missing_file_exits_2(tmp_path):
    proc = run_cli(str(tmp_path / "nope.json"))
    assert proc.returncode == 2 and "Cannot read" in json.loads(proc.stdout)["error"]


def test_more_copies_of_a_character_than_the_game_has_is_a_warning():
    result = score_request({"players": [
        {"name": "A", "counts": {"characters": ["king"], "rose": 1}},
        {"name": "B", "counts": {"characters": ["king", "gardener"]}},
        {"name": "C", "counts": {"characters": ["gardener"]}},
    ]})
    assert any("King × 2 at this table (A and B)" in w and "only 1 such tile" in w for w in result["warnings"])
    assert not any("Gardener" in w for w in result["warnings"])  # the game has two


def test_a_planet_scored_alone_explains_the_penalty_as_conditional():
    result = score_request(one({"counts": {"characters": ["lamplighter"], "lamppost": 9, "volcano": 2}}))
    assert result["penalty_explained"] == "−2 if this planet has the most volcanoes at the table (2)."
    assert result["tie_break_explained"] == "Ann: 9 points, or 7 if this planet has the most volcanoes at the table."


def test_every_problem_of_a_table_is_reported_at_once():
    table = {"players": [
        {"name": "Ann", "counts": {"rose": -1, "face_down": 4}},
        {"name": "", "counts": {}},
        {"name": "Cy", "tiles": ["C99", "C01", "C01"]},
    ]}
    with pytest.raises(InputError) as info:
        score_request(table)
    wheres = [where_text(p.where) for p in info.value.problems]
    assert wheres == ["players[0].counts.rose", "players[0].counts.face_down", "players[1].name",
                      "players[2].tiles[0]", "players[2].tiles[2]"]
    body = info.value.as_json()
    assert body["error"] == info.value.problems[0].message and body["where"] == "players[0].counts.rose"
    assert [e["where"] for e in body["errors"]] == wheres


def test_three_face_up_baobabs_point_at_each_baobab_cell():
    grid = grid_with(5, "C01", grid_with(6, "C02", grid_with(9, "C03")))
    with pytest.raises(InputError) as info:
        score_request(one({"planet": grid}))
    wheres = {where_text(p.where) for p in info.value.problems}
    assert {"players[0].planet.cells", "players[0].planet.cells[1][1]", "players[0].planet.cells[1][2]",
            "players[0].planet.cells[2][1]"} <= wheres
