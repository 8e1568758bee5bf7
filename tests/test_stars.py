"""Rising to the Stars (SPEC §3): the rules, the bad inputs (API 400 and command exit 2, each with
its where), the command and the API agreeing, and the tally page without a browser."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.errors import InputError
from scorer.stars import (
    Pilot,
    StoryTile,
    read_json,
    score_stars,
    tally,
    tie_break_words,
)

ROOT = Path(__file__).resolve().parents[1]
FOX, PRINCE = {"stars": 1, "story": "fox"}, {"stars": 1, "story": "little_prince"}


def pilot(name, tokens=0, tiles=(), plane=None):
    out = {"name": name, "star_tokens": tokens, "story_tiles": list(tiles)}
    if plane is not None:
        out["plane"] = plane
    return out


def line(result, name):
    return next(p for p in result["pilots"] if p["name"] == name)


# ---------------------------------------------------------------------------------------------
# the rules


def test_spec_example_and_response_keys():
    result = score_stars({"pilots": [pilot("Ann", 7, [FOX, PRINCE, {"stars": 3}], 6), pilot("Ben", 10, [], 5)]})
    assert list(result) == ["pilots", "winners", "shared_victory"]
    assert list(result["pilots"][0]) == ["name", "star_tokens", "story_stars", "bonus", "plane", "total",
                                         "rank", "winner"]
    assert result["pilots"][0] == {"name": "Ann", "star_tokens": 7, "story_stars": 5, "bonus": 6, "plane": 6,
                                   "total": 24, "rank": 1, "winner": True}
    assert line(result, "Ben")["total"] == 15
    assert result["winners"] == ["Ann"] and result["shared_victory"] is False


def test_fox_and_prince_pair_gives_eight_instead_of_two():
    both = score_stars({"pilots": [pilot("Ann", 0, [FOX, PRINCE]), pilot("Ben", 1)]})
    assert line(both, "Ann")["story_stars"] == 2
    assert line(both, "Ann")["bonus"] == 6
    assert line(both, "Ann")["total"] == 8


def test_pair_split_between_two_pilots_gives_no_bonus():
    split = score_stars({"pilots": [pilot("Ann", 0, [FOX]), pilot("Ben", 0, [PRINCE, {"stars": 2}])]})
    assert [p["bonus"] for p in split["pilots"]] == [0, 0]
    assert [p["total"] for p in split["pilots"]] == [1, 3]


def test_one_story_of_the_pair_alone_gives_no_bonus():
    alone = score_stars({"pilots": [pilot("Ann", 0, [FOX, {"stars": 4}]), pilot("Ben")]})
    assert line(alone, "Ann")["bonus"] == 0 and line(alone, "Ann")["total"] == 5


def test_sixth_pilot_without_a_plane_in_a_six_pilot_game():
    pilots = [pilot(n, 10, [], plane) for n, plane in zip("ABCDE", (6, 5, 4, 3, 2))]
    pilots.append(pilot("F", 10))  # arrived sixth: no plane left
    result = score_stars({"pilots": pilots})
    assert line(result, "F")["plane"] == 0 and line(result, "F")["total"] == 10
    assert [p["rank"] for p in result["pilots"]] == [1, 2, 3, 4, 5, 6]
    zero = score_stars({"pilots": pilots[:5] + [pilot("F", 10, [], 0)]})  # 0 is the same as none
    assert zero == result


def test_most_stars_wins_before_the_plane():
    result = score_stars({"pilots": [pilot("Ann", 20, [], 2), pilot("Ben", 15, [], 6)]})
    assert result["winners"] == ["Ann"]
    assert [p["rank"] for p in result["pilots"]] == [1, 2]


def test_tie_goes_to_more_stars_on_the_plane():
    result = score_stars({"pilots": [pilot("Ann", 15, [], 4), pilot("Ben", 13, [], 6), pilot("Cy", 30)]})
    assert [p["total"] for p in result["pilots"]] == [19, 19, 30]
    result = score_stars({"pilots": [pilot("Ann", 17, [], 4), pilot("Ben", 15, [], 6), pilot("Cy", 3)]})
    assert result["winners"] == ["Ben"] and result["shared_victory"] is False
    assert [p["rank"] for p in result["pilots"]] == [2, 1, 3]


def test_still_tied_is_a_shared_victory_ranked_1_2_2_4():
    result = score_stars({"pilots": [pilot("Ann", 20, [], 6), pilot("Ben", 16, [], 5), pilot("Cy", 16, [], 5),
                                     pilot("Di", 17, [], 4)]})
    assert [p["total"] for p in result["pilots"]] == [26, 21, 21, 21]
    assert [p["rank"] for p in result["pilots"]] == [1, 2, 2, 4]
    shared = score_stars({"pilots": [pilot("Ann", 16, [], 5), pilot("Ben", 16, [], 5), pilot("Cy", 3)]})
    assert shared["winners"] == ["Ann", "Ben"] and shared["shared_victory"] is True
    assert [p["rank"] for p in shared["pilots"]] == [1, 1, 3]
    assert [p["winner"] for p in shared["pilots"]] == [True, True, False]


def test_the_tie_break_in_words():
    by_plane = tally([Pilot("Ann", 15, (), 6), Pilot("Ben", 17, (), 4), Pilot("Cy", 3)])
    assert tie_break_words(by_plane) == ("Ann and Ben both have 21 stars; Ann wins with more stars on the "
                                         "paper plane (6 against 4).")
    shared = tally([Pilot("Ann", 15, (), 6), Pilot("Ben", 15, (), 6)])
    assert tie_break_words(shared) == "Ann and Ben both have 21 stars and 6 on the paper plane: a shared victory."
    clear = tally([Pilot("Ann", 1, (StoryTile(1, "fox"), StoryTile(1, "little_prince"))), Pilot("Ben", 1)])
    assert tie_break_words(clear) == "Ann wins with 9 stars."


# ---------------------------------------------------------------------------------------------
# a property: totals add up, ranks follow the ordering

tiles = st.lists(st.builds(lambda s: {"stars": s}, st.integers(0, 9)), max_size=4)


@st.composite
def tables(draw):
    n = draw(st.integers(2, 6))
    pilots = [{"name": f"P{i}", "star_tokens": draw(st.integers(0, 30)), "story_tiles": draw(tiles),
               "plane": draw(st.integers(0, 6)) if i < 5 else 0} for i in range(n)]
    for story in ("fox", "little_prince"):  # each story at most once at the table
        holder = draw(st.integers(-1, n - 1))
        if holder >= 0:
            pilots[holder]["story_tiles"].append({"stars": draw(st.integers(0, 3)), "story": story})
    return {"pilots": pilots}


@settings(max_examples=300, deadline=None)
@given(tables())
def test_property_totals_and_ranks(request):
    result = score_stars(request)
    out = result["pilots"]
    for given_pilot, got in zip(request["pilots"], out):
        stories = {t.get("story") for t in given_pilot["story_tiles"]}
        story_stars = sum(t["stars"] for t in given_pilot["story_tiles"])
        bonus = 6 if {"fox", "little_prince"} <= stories else 0
        assert got["story_stars"] == story_stars and got["bonus"] == bonus
        assert got["total"] == given_pilot["star_tokens"] + story_stars + bonus + given_pilot["plane"]
    for a in out:
        better = [b for b in out if (b["total"], b["plane"]) > (a["total"], a["plane"])]
        assert a["rank"] == 1 + len(better)
        for b in out:
            same = (a["total"], a["plane"]) == (b["total"], b["plane"])
            assert (a["rank"] == b["rank"]) == same
    assert result["winners"] == [p["name"] for p in out if p["rank"] == 1]
    assert result["shared_victory"] == (len(result["winners"]) > 1)


# ---------------------------------------------------------------------------------------------
# bad inputs: 400 from the API and exit 2 from the command, the same error and where

GOOD = [pilot("Ann", 3, [], 6), pilot("Ben", 4)]
BAD = [
    ("negative tokens", {"pilots": [pilot("Ann", -1), pilot("Ben")]}, "pilots[0].star_tokens"),
    ("negative story stars", {"pilots": [pilot("Ann", 0, [{"stars": 2}, {"stars": -2}]), pilot("Ben")]},
     "pilots[0].story_tiles[1].stars"),
    ("negative plane", {"pilots": [pilot("Ann"), pilot("Ben", 0, [], -6)]}, "pilots[1].plane"),
    ("non-whole tokens", {"pilots": [pilot("Ann", 2.5), pilot("Ben")]}, "pilots[0].star_tokens"),
    ("float plane", {"pilots": [pilot("Ann", 0, [], 6.0), pilot("Ben")]}, "pilots[0].plane"),
    ("bool tokens", {"pilots": [pilot("Ann", True), pilot("Ben")]}, "pilots[0].star_tokens"),
    ("string stars", {"pilots": [pilot("Ann", 0, [{"stars": "3"}]), pilot("Ben")]}, "pilots[0].story_tiles[0].stars"),
    ("story tile without stars", {"pilots": [pilot("Ann", 0, [{"story": "fox"}]), pilot("Ben")]},
     "pilots[0].story_tiles[0].stars"),
    ("one pilot", {"pilots": [pilot("Ann")]}, "pilots"),
    ("seventh pilot", {"pilots": [pilot(n) for n in "ABCDEFG"]}, "pilots"),
    ("no pilots key", {"players": GOOD}, "pilots"),
    ("pilots not a list", {"pilots": {"Ann": 3}}, "pilots"),
    ("request not an object", [GOOD], "pilots"),
    ("two fox stories", {"pilots": [pilot("Ann", 0, [FOX]), pilot("Ben", 0, [FOX])]}, "pilots[1].story_tiles[0].story"),
    ("two prince stories, one pilot", {"pilots": [pilot("Ann", 0, [PRINCE, PRINCE]), pilot("Ben")]},
     "pilots[0].story_tiles[1].story"),
    ("six planes", {"pilots": [pilot(n, 0, [], 1 + i) for i, n in enumerate("ABCDEF")]}, "pilots[5].plane"),
    ("unknown pilot key", {"pilots": [{**pilot("Ann"), "arrival": 1}, pilot("Ben")]}, "pilots[0].arrival"),
    ("unknown tile key", {"pilots": [pilot("Ann", 0, [{"stars": 1, "colour": "red"}]), pilot("Ben")]},
     "pilots[0].story_tiles[0].colour"),
    ("unknown top key", {"pilots": GOOD, "seed": 3}, "seed"),
    ("unknown story", {"pilots": [pilot("Ann", 0, [{"stars": 1, "story": "rose"}]), pilot("Ben")]},
     "pilots[0].story_tiles[0].story"),
    ("story tiles not a list", {"pilots": [{"name": "Ann", "story_tiles": 3}, pilot("Ben")]}, "pilots[0].story_tiles"),
    ("story tile not an object", {"pilots": [pilot("Ann", 0, [3]), pilot("Ben")]}, "pilots[0].story_tiles[0]"),
    ("pilot not an object", {"pilots": ["Ann", pilot("Ben")]}, "pilots[0]"),
    ("no name", {"pilots": [{"star_tokens": 3}, pilot("Ben")]}, "pilots[0].name"),
    ("blank name", {"pilots": [pilot("  "), pilot("Ben")]}, "pilots[0].name"),
    ("name not a string", {"pilots": [pilot(7), pilot("Ben")]}, "pilots[0].name"),
    ("long name", {"pilots": [pilot("A" * 41), pilot("Ben")]}, "pilots[0].name"),
    ("same name", {"pilots": [pilot("Ann"), pilot(" ANN ")]}, "pilots[1].name"),
]
RAW_BAD = [
    ("malformed JSON", b'{"pilots": [', "body"),
    ("deeply nested JSON", b"[" * 100_000, "body"),
    ("not UTF-8", b'{"pilots": "\xff"}', "body"),
    ("empty body", b"", "body"),
]


def run_command(raw: bytes, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scorer", "stars", *args], input=raw, capture_output=True, check=False,
                          cwd=ROOT, timeout=60)


@pytest.mark.parametrize("name,request_,where", BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_400_with_where(client, name, request_, where):
    response = client.post("/api/stars/score", json=request_)
    assert response.status_code == 400, response.data
    body = response.get_json()
    assert body["where"] == where
    assert isinstance(body["error"], str) and len(body["error"]) > 10


@pytest.mark.parametrize("name,raw,where", RAW_BAD, ids=[b[0] for b in RAW_BAD])
def test_unreadable_body_is_400_and_exit_2(client, name, raw, where):
    response = client.post("/api/stars/score", data=raw, content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["where"] == where
    done = run_command(raw)
    assert done.returncode == 2 and "Traceback" not in done.stderr.decode()
    assert json.loads(done.stdout) == response.get_json()


def test_every_problem_at_once():
    with pytest.raises(InputError) as caught:
        score_stars({"pilots": [pilot("Ann", -1, [{"stars": 0.5}], "six"), pilot("ann")]})
    wheres = [p.where for p in caught.value.problems]
    assert ("pilots", 0, "star_tokens") in wheres and ("pilots", 0, "plane") in wheres
    assert ("pilots", 0, "story_tiles", 0, "stars") in wheres and ("pilots", 1, "name") in wheres


def test_command_and_api_give_the_same_json(client, tmp_path):
    requests = [{"pilots": GOOD}, {"pilots": [pilot("Ann", 16, [], 5), pilot("Bén ☆", 16, [FOX], 4)]}]
    requests += [b[1] for b in BAD[:3]] + [BAD[13][1]]
    for request_ in requests:
        api = client.post("/api/stars/score", json=request_)
        raw = json.dumps(request_).encode()
        by_stdin = run_command(raw)
        path = tmp_path / "game.json"
        path.write_bytes(raw)
        by_file = run_command(b"", str(path))
        assert by_stdin.returncode == by_file.returncode == (0 if api.status_code == 200 else 2)
        assert json.loads(by_stdin.stdout) == json.loads(by_file.stdout) == api.get_json()


def test_command_on_a_missing_file_says_so():
    done = run_command(b"", "/no/such/game.json")
    assert done.returncode == 2 and json.loads(done.stdout)["where"] == "file"


def test_read_json_refuses_nesting_without_recursing_to_death():
    with pytest.raises(InputError):
        read_json("[" * 50_000 + "]" * 50_000)


# ---------------------------------------------------------------------------------------------
# the page, without a browser (no JavaScript: every button is a form post)


def token(client) -> str:
    html = client.get("/stars").get_data(as_text=True)
    return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)


def post(client, data, **extra):
    return client.post("/stars", data={**data, **extra, "csrf_token": token(client)})


def test_home_offers_the_sister_game(client):
    html = client.get("/").get_data(as_text=True)
    assert 'href="/stars"' in html and "Rising to the Stars" in html


def test_steppers_add_and_remove_without_javascript(client):
    data = {"pilots-0-name": "Ann", "pilots-1-name": "Ben"}
    html = post(client, data, **{"inc-pilots-1-star_tokens": "1"}).get_data(as_text=True)
    assert re.search(r'id="pilots-1-star_tokens" name="pilots-1-star_tokens"\s+value="1"', html)
    html = post(client, data, **{"add-tile-0": "1"}).get_data(as_text=True)
    assert 'name="pilots-0-story_tiles-0-stars"' in html and "pilots-1-story_tiles-0" not in html
    html = post(client, data, **{"add-pilot": "1"}).get_data(as_text=True)
    assert 'id="pilots-2-name"' in html
    three = {**data, "pilots-2-name": "Cy"}
    html = post(client, three, **{"remove-0": "1"}).get_data(as_text=True)
    assert 'value="Ben"' in html and 'value="Cy"' in html and 'value="Ann"' not in html
    html = post(client, data, **{"dec-pilots-0-plane": "1"}).get_data(as_text=True)
    assert re.search(r'id="pilots-0-plane" name="pilots-0-plane"\s+value="0"', html)  # never below 0


def test_seven_pilots_cannot_be_added(client):
    data = {f"pilots-{i}-name": n for i, n in enumerate("ABCDEF")}
    html = post(client, data, **{"add-pilot": "1"}).get_data(as_text=True)
    assert 'id="pilots-5-name"' in html and 'id="pilots-6-name"' not in html
    assert 'name="add-pilot"' not in html


def test_errors_beside_their_fields_all_at_once(client):
    data = {"pilots-0-name": "Ann", "pilots-0-star_tokens": "-2", "pilots-1-name": "ann",
            "pilots-1-plane": "x", "finish": "1"}
    response = post(client, data)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    for slot in ("pilots-0-star_tokens", "pilots-1-name", "pilots-1-plane"):
        assert re.search(rf'<p class="field-error" id="{slot}-error">[^<]+</p>', html), slot
    assert 'value="x"' in html  # kept as typed


def test_a_tally_is_stored_and_reopened_by_its_link(client, app):
    data = {"pilots-0-name": "Ann", "pilots-0-star_tokens": "15", "pilots-0-plane": "6",
            "pilots-1-name": "Ben", "pilots-1-star_tokens": "17", "pilots-1-plane": "4",
            "pilots-1-story_tiles-0-stars": "1", "pilots-1-story_tiles-0-story": "fox",
            "pilots-2-name": "Cy", "pilots-2-star_tokens": "3"}
    response = post(client, data, finish="1")
    assert response.status_code == 303
    link = response.headers["Location"]
    html = client.get(link).get_data(as_text=True)
    assert "Ben wins!" in html
    assert "Ann and Ben both have 21 stars" not in html  # Ben has 22: no tie
    from scorer.stars_store import load_tally
    row = load_tally(app.extensions["db"], link.rsplit("/", 1)[1])
    assert row.result["winners"] == ["Ben"] and row.request["pilots"][1]["story_tiles"] == [FOX]
    again = client.get("/stars?from=" + row.id).get_data(as_text=True)
    assert 'value="Ben"' in again
    assert re.search(r'name="pilots-1-story_tiles-0-story" value="fox"\s+checked', again)
    assert client.get("/stars/nope").status_code == 404


def test_nothing_entered_is_not_stored(client, app):
    response = post(client, {"pilots-0-name": "Ann", "pilots-1-name": "Ben"}, finish="1")
    assert response.status_code == 422
    assert "Nothing is entered yet" in response.get_data(as_text=True)


def test_stale_form_keeps_what_was_typed(csrf_app):
    client = csrf_app.test_client()
    response = client.post("/stars", data={"pilots-0-name": "Ann", "pilots-0-star_tokens": "9",
                                           "pilots-1-name": "Ben", "finish": "1", "csrf_token": "stale"})
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert "had expired" in html and 'value="Ann"' in html


def test_live_totals_fragment(client):
    html = client.post("/stars/live", data={"pilots-0-name": "Ann", "pilots-0-star_tokens": "4",
                                            "pilots-0-story_tiles-0-stars": "1", "pilots-0-story_tiles-0-story": "fox",
                                            "pilots-0-story_tiles-1-stars": "1",
                                            "pilots-0-story_tiles-1-story": "little_prince",
                                            "pilots-1-name": "Ben", "pilots-1-star_tokens": "2"},
                       headers={"X-CSRFToken": token(client)}).get_data(as_text=True)
    assert re.search(r'id="pilots-0-total"[^>]*hx-swap-oob="true"><strong>12</strong>', html)
    assert re.search(r'<li class="lead">\s*<span class="live-name">Ann</span>\s*<strong class="live-total">12', html)
