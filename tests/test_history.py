"""After the game: plays recorded from saved tables, a player's stats against figures worked out
by hand, merging spellings, the BG Stats link read back field by field, the history page
(newest first, delete with CSRF), and export → import into a fresh database losing nothing."""
from __future__ import annotations

import json
import random
import re
from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from sqlalchemy import delete

from scorer.contract import score_request
from scorer.db import load_table, save_table
from scorer.history import bgstats_link, name_key, player_stats, score_chart
from scorer.history_store import (
    Play,
    PlayCharacter,
    PlayPlayer,
    character_totals,
    keys_of,
    list_plays,
    mark_game,
    play_for_table,
    resolve,
    totals,
)

# Four tables, worked out by hand from the SPEC's character table (counts input):
# T1  Ann: lamplighter 5 + astronomer 2×2=4 + king (1 rose) 14 + vain man 1 snake 4 = 27, 2 volcanoes
#     Ben: lamplighter 3 + hunter (fox) 3 + king (2 roses) 7 + drunkard 3×3=9 = 22, 4 volcanoes → 18
#     → Ann 27 wins, Ben 18.
# T2  ann: lamplighter 2 + gardener 7 + turkish astronomer 3 + astronomer 0 = 12, 5 volcanoes → 7
#     Cy: hunter 4 species 12 + vain man 2×4=8 + businessman brown 5 + king 0 = 25, 1 volcano → Cy wins.
# T3  ANN: lamplighter 4 + drunkard 6×3=18 + astronomer 2 + king 14 = 38, 3 volcanoes → 35
#     Ben: gardener 14 + lamplighter 1 + vain man 4 + hunter (snake) 3 = 22, 3 volcanoes → 19
#     Cy: businessman white 2×2=4 + little prince (white) 3 + 1 box = 4 + 0 + 0 = 8 → ANN wins.
# T4  Ann alone (a planet scored alone: not a play for the stats): 56.
T1 = {"players": [
    {"name": "Ann", "counts": {"characters": ["lamplighter", "astronomer", "king", "vain_man"],
                               "lamppost": 5, "sunset": 2, "rose": 1, "snake": 1, "volcano": 2}},
    {"name": "Ben", "counts": {"characters": ["lamplighter", "hunter", "king", "drunkard"],
                               "lamppost": 3, "fox": 1, "rose": 2, "face_down": 3, "volcano": 4}}]}
T2 = {"players": [
    {"name": "ann", "counts": {"characters": ["lamplighter", "gardener", "turkish_astronomer", "astronomer"],
                               "lamppost": 2, "baobab": 1, "star": 3, "volcano": 5}},
    {"name": "Cy", "counts": {"characters": ["hunter", "vain_man", "businessman_brown", "king"],
                              "fox": 1, "elephant": 1, "snake": 2, "sheep_brown": 1, "volcano": 1}}]}
T3 = {"players": [
    {"name": "ANN", "counts": {"characters": ["lamplighter", "drunkard", "astronomer", "king"],
                               "lamppost": 4, "face_down": 6, "sunset": 1, "rose": 1, "volcano": 3}},
    {"name": "Ben", "counts": {"characters": ["gardener", "lamplighter", "vain_man", "hunter"],
                               "baobab": 2, "lamppost": 1, "snake": 1, "volcano": 3}},
    {"name": "Cy", "counts": {"characters": ["businessman_white", "little_prince", "lamplighter", "astronomer"],
                              "sheep_white": 2, "box": 1}}]}
T4 = {"players": [
    {"name": "Ann", "counts": {"characters": ["lamplighter", "king", "drunkard", "astronomer"],
                               "lamppost": 9, "rose": 1, "face_down": 9, "sunset": 3}}]}


def store_tables(db, tables=(T1, T2, T3, T4)):
    return [save_table(db, t, score_request(t)) for t in tables]


def stats_of(db, name):
    with db.engine.connect() as conn:
        keys = keys_of(conn, resolve(conn, name_key(name)))
        return player_stats(totals(conn, keys), character_totals(conn, keys))


def test_the_hand_worked_tables_score_as_worked_out():
    # the fixture itself, checked against the figures in the comment above
    totals_of = [[p["total"] for p in score_request(t)["players"]] for t in (T1, T2, T3)]
    assert totals_of == [[27, 18], [7, 25], [35, 19, 8]]
    assert score_request(T4)["players"][0]["subtotal"] == 56


def test_player_stats_match_figures_worked_out_by_hand(app):
    db = app.extensions["db"]
    store_tables(db)
    ann = stats_of(db, "aNN")
    assert (ann.plays, ann.wins, ann.best) == (3, 2, 35)          # T4 alone is not a play
    assert ann.average == pytest.approx(69 / 3)                  # (27 + 7 + 35) / 3
    assert (ann.penalties, ann.penalty_points) == (2, -8)        # T2 −5, T3 −3
    # most played: lamplighter 3 (avg 11/3) before astronomer 3 (avg 2), then king 2
    assert [(c.character, c.plays) for c in ann.most_played] == [("lamplighter", 3), ("astronomer", 3), ("king", 2)]
    # best scoring on average: drunkard 18, king 14, gardener 7
    assert [(c.character, c.average) for c in ann.best_scoring] == [("drunkard", 18), ("king", 14), ("gardener", 7)]
    ben = stats_of(db, "Ben")
    assert (ben.plays, ben.wins, ben.best, ben.average, ben.penalties, ben.penalty_points) == (2, 0, 19, 18.5, 2, -7)
    cy = stats_of(db, "cy")
    assert (cy.plays, cy.wins, cy.best, cy.average, cy.penalties) == (2, 1, 25, 16.5, 0)


def test_the_stats_page_shows_them(client, app):
    store_tables(app.extensions["db"])
    page = client.get("/players/ann").get_data(as_text=True)
    numbers = dict(re.findall(r"<dt>([^<]+)</dt>\s*<dd>([^<]+)", page))
    assert numbers == {"Plays": "3", "Wins": "2", "Average score": "23.0", "Best score": "35",
                       "Volcano penalties taken": "2 times "}
    assert "8 points lost" in page and "<h1 class=\"player-title\">Ann</h1>" in page  # latest spelling
    assert page.count("<circle") == 3                             # the chart: one dot a play
    assert client.get("/players/Nobody%20here").status_code == 404


def test_names_are_compared_case_folded_and_normalised():
    assert name_key("  ÉVA  Marie ") == name_key("e\u0301va marie") == "éva marie"
    assert name_key("STRASSE") == name_key("straße")


def test_merging_two_spellings_and_separating_them_again(client, app):
    db = app.extensions["db"]
    store_tables(db)
    token = csrf_of(client.get("/players/Cy").get_data(as_text=True))
    assert client.post("/players/Cy/merge", data={"into": "ben"}).status_code == 400  # no token
    assert stats_of(db, "Ben").plays == 2
    r = client.post("/players/Cy/merge", data={"into": "ben", "csrf_token": token})
    assert r.status_code == 303
    ben = stats_of(db, "Ben")
    assert (ben.plays, ben.wins, ben.best, ben.average) == (4, 1, 25, 17.5)  # (18+19+25+8)/4
    assert stats_of(db, "cy").plays == 4                          # Cy now opens Ben's stats
    again = client.post("/players/Cy/merge", data={"into": "BEN", "csrf_token": token})
    assert again.status_code == 422 and "already the same player" in again.get_data(as_text=True)
    nobody = client.post("/players/Cy/merge", data={"into": "Zed", "csrf_token": token})
    assert nobody.status_code == 422 and stats_of(db, "Ben").plays == 4
    client.post("/players/Ben/separate", data={"key": "cy", "csrf_token": token})
    assert stats_of(db, "Ben").plays == 2 and stats_of(db, "Cy").plays == 2
    # a chain: Cy into Ben, then Ben into Ann — Cy's plays follow Ben's
    client.post("/players/Cy/merge", data={"into": "Ben", "csrf_token": token})
    client.post("/players/Ben/merge", data={"into": "Ann", "csrf_token": token})
    assert stats_of(db, "cy").plays == stats_of(db, "Ann").plays == 3 + 2 + 2


def bgstats_data(link: str) -> dict:
    parts = urlsplit(link)
    assert (parts.scheme, parts.netloc, parts.path) == ("https", "app.bgstatsapp.com", "/createPlay.html")
    return json.loads(parse_qs(parts.query)["data"][0])


def test_the_bgstats_link_carries_the_play_field_by_field(client, app):
    db = app.extensions["db"]
    t1 = store_tables(db, [T1])[0]
    page = client.get(f"/tables/{t1}").get_data(as_text=True)
    link = re.search(r'href="(https://app\.bgstatsapp\.com/[^"]+)"', page).group(1).replace("&amp;", "&")
    data = bgstats_data(link)
    play = play_for_table(db, t1)
    assert data["sourceName"] == "Make Me a Planet companion"
    assert data["sourcePlayId"] == play.id
    created = load_table(db, t1).created.replace(tzinfo=UTC)
    assert data["playDate"] == created.strftime("%Y-%m-%d %H:%M:%S")
    assert data["game"] == {"name": "The Little Prince: Make Me a Planet", "sourceGameId": "make-me-a-planet",
                            "highestWins": True, "noPoints": False}
    assert "durationMin" not in data                              # a table scored by hand has no duration
    assert data["players"] == [
        {"name": "Ann", "sourcePlayerId": "ann", "score": 27, "rank": 1, "winner": True, "startPlayer": False},
        {"name": "Ben", "sourcePlayerId": "ben", "score": 18, "rank": 2, "winner": False, "startPlayer": False}]
    again = client.get(f"/tables/{t1}").get_data(as_text=True)    # the same play keeps its id
    assert bgstats_data(re.search(r'href="(https://app\.bgstatsapp[^"]+)"', again).group(1).replace("&amp;", "&"))[
        "sourcePlayId"] == play.id


def test_a_planet_scored_alone_offers_no_bgstats_link(client, app):
    t4 = store_tables(app.extensions["db"], [T4])[0]
    page = client.get(f"/tables/{t4}").get_data(as_text=True)
    assert "bgstatsapp" not in page and "Picture of the table" in page


def play_tracked_game(client, players=("Ann", "Ben", "Cy")):
    r = client.post("/api/games", json={"players": list(players), "seed": 5})
    gid, tokens = r.json["id"], [s["token"] for s in r.json["seats"]]
    rng = random.Random(3)
    v = client.get(f"/api/games/{gid}").json
    while not v["finished"]:
        seat = v["to_act"]
        mine = client.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {tokens[seat]}"}).json
        v = client.post(f"/api/games/{gid}/moves", json={"version": mine["version"], "move": rng.choice(mine["legal"])},
                        headers={"Authorization": f"Bearer {tokens[seat]}"}).json
    return gid, v


def test_a_finished_tracked_game_is_a_play_with_its_start_player_and_duration(client, app):
    db = app.extensions["db"]
    gid, v = play_tracked_game(client)
    play = play_for_table(db, v["table_id"])
    assert play.kind == "game" and play.game_id == gid and play.duration_min >= 1
    assert [p.start_player for p in play.players] == [True, False, False]  # seat 0 starts round 1
    assert [p.score for p in play.players] == [p["total"] for p in v["result"]["players"]]
    data = bgstats_data(bgstats_link(play))
    assert data["durationMin"] == play.duration_min
    assert [p["startPlayer"] for p in data["players"]] == [True, False, False]
    assert [p["rank"] for p in data["players"]] == [p["rank"] for p in v["result"]["players"]]
    history = client.get("/history").get_data(as_text=True)
    assert "Tracked game" in history and f"/tables/{v['table_id']}" in history


def test_games_finished_before_plays_were_recorded_are_listed_as_games_once_the_history_opens(client, app):
    db = app.extensions["db"]
    gid, v = play_tracked_game(client)
    with db.engine.begin() as conn:  # as stored before plays were recorded: the game and its table only
        for model in (PlayCharacter, PlayPlayer, Play):
            conn.execute(delete(model))
    assert play_for_table(db, v["table_id"]) is None
    history = client.get("/history").get_data(as_text=True)
    assert "Tracked game" in history and f"/tables/{v['table_id']}" in history
    play = play_for_table(db, v["table_id"])
    assert play.kind == "game" and play.game_id == gid
    assert [p.start_player for p in play.players] == [True, False, False]


def test_a_rematch_links_to_the_game_it_followed(client, app):
    db = app.extensions["db"]
    first, second = store_tables(db, [T1, T2])
    started = datetime.now(UTC) - timedelta(minutes=30)
    with db.engine.begin() as conn:
        mark_game(conn, "game-1", first, started, None)
        mark_game(conn, "game-2", second, started, "game-1")
    assert play_for_table(db, second).duration_min == 30
    page = client.get("/history").get_data(as_text=True)
    assert re.search(rf'<a href="/tables/{first}">Rematch of the game of', page)


def test_the_history_lists_newest_first_and_pages(client, app):
    db = app.extensions["db"]
    ids = store_tables(db, [T1, T2, T3] * 9)                      # 27 tables
    plays, total = list_plays(db, 1, 20)
    assert total == 27 and [p.table_id for p in plays] == ids[::-1][:20]
    page2 = client.get("/history?page=2").get_data(as_text=True)
    assert page2.count('class="card play"') == 7 and "Page 2 of 2" in page2
    assert client.get("/history?page=abc").status_code == 200     # a bad page number is page 1


def csrf_of(html: str) -> str:
    return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)


def test_deleting_needs_the_form_token_and_then_removes_the_play_everywhere(csrf_app):
    client = csrf_app.test_client()
    db = csrf_app.extensions["db"]
    t1, _ = store_tables(db, [T1, T2])
    play = play_for_table(db, t1)
    stale = client.post(f"/history/{play.id}/delete")
    assert stale.status_code == 400 and play_for_table(db, t1) is not None
    token = csrf_of(client.get("/history").get_data(as_text=True))
    r = client.post(f"/history/{play.id}/delete", data={"csrf_token": token})
    assert r.status_code == 303
    assert play_for_table(db, t1) is None and client.get(f"/tables/{t1}").status_code == 404
    assert stats_of(db, "Ann").plays == 1 and stats_of(db, "Ben").plays == 0
    assert client.post(f"/history/{play.id}/delete", data={"csrf_token": token}).status_code == 404


def test_the_chart_puts_higher_scores_higher_and_spaces_plays_evenly():
    day = datetime(2025, 1, 1, tzinfo=UTC)
    chart = score_chart([(day, 10), (day + timedelta(days=1), 30), (day + timedelta(days=9), 20)])
    xs, ys = [p[0] for p in chart.points], [p[1] for p in chart.points]
    assert xs[1] - xs[0] == pytest.approx(xs[2] - xs[1])
    assert ys[1] == chart.top_y and ys[1] < ys[2] < ys[0] < chart.bottom_y  # 0 is the bottom line
    assert (chart.top, chart.bottom) == (30, 0)


def test_tables_stored_before_plays_were_recorded_join_the_history(client, app):
    from sqlalchemy import insert

    from scorer.db import SavedTable
    db = app.extensions["db"]
    result = score_request(T1)
    with db.engine.begin() as conn:  # a Core insert: no hook, as in a database from before
        conn.execute(insert(SavedTable).values(id="old-table", created=datetime(2024, 5, 1),
                                               request_json=json.dumps(T1), result_json=json.dumps(result)))
    assert play_for_table(db, "old-table") is None
    page = client.get("/history").get_data(as_text=True)
    assert 'href="/tables/old-table"' in page and "2024-05-01 00:00 UTC" in page
    assert stats_of(db, "Ann").plays == 1
