"""The tracker's pages through the test client (CSRF on): every phase renders, nothing leaks,
stale forms say "someone moved first", bad input is never a 500."""
from __future__ import annotations

import random
import re

import pytest

from conftest import mentions
from scorer.draft import legal

CSRF = re.compile(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"')


def csrf(html: str) -> str:
    m = (CSRF.search(html) or re.search(r'id="csrf_token" name="csrf_token" type="hidden" value="([^"]+)"', html)
         or re.search(r'"X-CSRFToken": "([^"]+)"', html))
    assert m, "the page has a CSRF token"
    return m.group(1)


def start(client, names, mode="one", hidden=False):
    page = client.get("/games/new")
    assert page.status_code == 200
    data = {"csrf_token": csrf(page.text), "mode": mode}
    for i, n in enumerate(names):
        data[f"p{i}"] = n
    if hidden:
        data["hidden"] = "y"
    r = client.post("/games/new", data=data)
    assert r.status_code == 302, r.text
    return r.location.rsplit("/", 1)[-1]


def form_for(move, version, token):
    data = {"csrf_token": token, "version": str(version), "type": move["type"]}
    for key in ("stack", "tile", "position", "to"):
        if key in move:
            data[key] = str(move[key])
    return data


def game_of(app, gid):
    with app.app_context():
        return app.extensions["games"].load(gid)


def test_new_game_form_refuses_bad_input_with_a_message(client):
    page = client.get("/games/new")
    token = csrf(page.text)
    for data in ({"p0": "Ann"}, {"p0": "Ann", "p1": "ann"}, {"p0": "A" * 41, "p1": "B"}, {"mode": "x", "p0": "A", "p1": "B"}):
        r = client.post("/games/new", data={"csrf_token": token, **data})
        assert r.status_code == 400 and 'id="form-error"' in r.text
    assert client.post("/games/new", data={"p0": "Ann", "p1": "Ben"}).status_code == 400  # no CSRF token


def test_one_phone_three_players_whole_game_through_the_pages(client, app):
    gid = start(client, ["Ann", "Ben", "Cy"])
    rng = random.Random(3)
    page = client.get(f"/games/{gid}")
    assert "Your turn, Ann" in page.text and "choose a stack" in page.text and "gate" not in page.text
    while True:
        loaded = game_of(app, gid)
        if loaded.state.finished:
            break
        page = client.get(f"/games/{gid}")
        assert page.status_code == 200
        assert f"Round {loaded.state.round} of 16" in page.text
        move = rng.choice(legal(loaded.state, loaded.state.to_act)).as_json()
        r = client.post(f"/games/{gid}/move", data=form_for(move, loaded.version, csrf(page.text)))
        assert r.status_code == 302
        assert game_of(app, gid).version == loaded.version + 1
    page = client.get(f"/games/{gid}")
    assert "Game over" in page.text and f'href="/tables/{loaded.table_id}"' in page.text
    assert "Rematch" in page.text
    r = client.post(f"/games/{gid}/rematch", data={"csrf_token": csrf(page.text)})
    assert r.status_code == 302 and r.location != f"/games/{gid}"
    again = client.get(r.location)
    assert "Round 1 of 16" in again.text and "Ann" in again.text


def test_one_phone_private_game_passes_the_phone_before_showing_private_things(client, app):
    gid = start(client, ["Ann", "Ben"], hidden=True)
    page = client.get(f"/games/{gid}")
    # choosing a stack shows nothing private: no pass-the-phone screen, one tap
    assert "Pass the phone" not in page.text and "Choose a stack" in page.text
    client.post(f"/games/{gid}/move", data=form_for({"type": "choose", "stack": "character"}, 0, csrf(page.text)))
    page = client.get(f"/games/{gid}")  # still Ann (she chose, she holds it): she hides one of the three
    drawn = game_of(app, gid).state.revealed
    assert "Put one tile face down" in page.text and all(t in page.text for t in drawn)
    client.post(f"/games/{gid}/move", data=form_for({"type": "hide", "tile": drawn[0]}, 1, csrf(page.text)))
    page = client.get(f"/games/{gid}")
    # Ben takes from two shown tiles and one face down: nothing on his turn is his alone, no pass screen
    assert "Pass the phone" not in page.text and "The face-down tile (blind)" in page.text
    assert drawn[0] not in page.text
    shown = [t for t in drawn if t != drawn[0]]
    client.post(f"/games/{gid}/move", data=form_for({"type": "take", "tile": shown[0], "position": 0}, 2, csrf(page.text)))
    page = client.get(f"/games/{gid}")
    # Ann takes next and she knows the face-down tile: pass the phone back to her first
    assert "Pass the phone to Ann" in page.text and drawn[0] not in page.text
    assert f'action="/games/{gid}/move"' not in page.text
    # a move posted without Ann having taken the phone is refused, nothing changes
    client.post(f"/games/{gid}/move", data=form_for({"type": "take", "tile": drawn[0], "position": 3}, 3, csrf(page.text)))
    assert game_of(app, gid).version == 3
    client.post(f"/games/{gid}/look", data={"csrf_token": csrf(page.text), "seat": "0"})
    page = client.get(f"/games/{gid}")
    assert "Take a tile" in page.text and drawn[0] in page.text and "Pass the phone" not in page.text


def test_own_phones_links_qr_codes_polling_and_someone_moved_first(client, app):
    gid = start(client, ["Ann", "Ben", "Cy"], mode="own")
    host = client.get(f"/games/{gid}")
    assert host.text.count("<svg") >= 3 and "scan your code" in host.text
    links = re.findall(r'href="https?://[^"/]+(/play/[^"]+)"', host.text)
    assert len(links) == 3
    ann, ben = client.get(links[0]), client.get(links[1])
    assert "Your turn, Ann" in ann.text and "Choose a stack" in ann.text
    assert "Ann’s turn" in ben.text and "Choose a stack" not in ben.text
    assert 'hx-trigger="load, live-again"' in ben.text and '&amp;wait=25' in ben.text
    assert client.get(links[1] + "/live?v=0").status_code == 204
    r = client.post(links[0] + "/move", data=form_for({"type": "choose", "stack": "center"}, 0, csrf(ann.text)))
    assert r.status_code == 302
    fresh = client.get(links[1] + "/live?v=0")
    assert fresh.status_code == 200 and 'id="board"' in fresh.text and "?v=1" in fresh.text
    # the same form posted again (a second phone at the same moment): nothing changes
    r = client.post(links[0] + "/move", data=form_for({"type": "choose", "stack": "uphill"}, 0, csrf(ann.text)),
                    follow_redirects=True)
    assert "Someone moved first" in r.text and game_of(app, gid).version == 1
    # Ben cannot act for Ann
    loaded = game_of(app, gid)
    move = legal(loaded.state, 0)[0].as_json()
    client.post(links[1] + "/move", data=form_for(move, 1, csrf(ann.text)))
    assert game_of(app, gid).version == 1
    assert client.get(f"/play/{gid}/not-a-token").status_code == 404


@pytest.mark.parametrize("data", [
    {"type": "take", "tile": "C01", "position": "x"},
    {"type": "take", "position": "5"},
    {"type": "choose", "stack": "moon"},
    {"type": "", "stack": "center"},
    {"type": "choose", "stack": "center", "version": "abc"},
    {"type": "appoint", "to": "99"},
])
def test_no_500_on_any_input(client, app, data):
    gid = start(client, ["Ann", "Ben", "Cy"])
    page = client.get(f"/games/{gid}")
    r = client.post(f"/games/{gid}/move", data={"csrf_token": csrf(page.text), "version": "0", **data},
                    follow_redirects=True)
    assert r.status_code == 200 and 'role="alert"' in r.text
    assert game_of(app, gid).version == 0
    for url in ("/games/nope", "/games/nope/live", f"/play/{gid}/x/live", f"/games/{gid}/live?v=zz"):
        assert client.get(url).status_code in (200, 204, 404)
    assert client.post(f"/games/{gid}/undo", data={"csrf_token": csrf(page.text), "version": "0"},
                       follow_redirects=True).status_code == 200


def test_a_public_table_page_shows_no_hidden_character(client, app):
    gid = start(client, ["Ann", "Ben", "Cy"], mode="own", hidden=True)
    loaded = game_of(app, gid)
    rng = random.Random(1)
    other = app.test_client()  # not the host: the public table
    with app.app_context():
        games = app.extensions["games"]
        for _ in range(30):
            loaded = games.load(gid)
            games.play(gid, loaded.version, rng.choice(legal(loaded.state, loaded.state.to_act)).as_json())
        loaded = games.load(gid)
    held = [c.tile for p in loaded.state.planets for pos, c in enumerate(p.cells) if c and pos in (0, 3, 12, 15)]
    assert held
    text = other.get(f"/games/{gid}").text
    for tile in held:
        assert not mentions(text, tile)
    for seat, token in enumerate(loaded.tokens):
        text = client.get(f"/play/{gid}/{token}").text
        for s, p in enumerate(loaded.state.planets):
            for pos in (0, 3, 12, 15):
                c = p.cells[pos]
                if c and s != seat:
                    assert not mentions(text, c.tile)


def finish(app, gid, seed=0):
    rng = random.Random(seed)
    with app.app_context():
        games = app.extensions["games"]
        while True:
            loaded = games.load(gid)
            if loaded.state.finished:
                return loaded
            games.play(gid, loaded.version, rng.choice(legal(loaded.state, loaded.state.to_act)).as_json())


def test_own_phones_rematch_brings_every_phone_along(client, app):
    gid = start(client, ["Ann", "Ben"], mode="own")
    loaded = finish(app, gid)
    ann_link, ben_link = (f"/play/{gid}/{t}" for t in loaded.tokens)
    ben = app.test_client()
    page = ben.get(ben_link)
    assert "Game over" in page.text and f"/tables/{loaded.table_id}" in page.text
    r = ben.post(ben_link + "/rematch", data={"csrf_token": csrf(page.text)})
    assert r.status_code == 302 and "/play/" in r.location
    new_gid = r.location.split("/")[2]
    assert new_gid != gid and "Ben" in ben.get(r.location).text
    # Ann's phone now offers to join; her old link leads to her new seat
    ann = client.get(ann_link)
    assert "Join the rematch" in ann.text
    r = client.get(ann_link + "/next")
    assert r.status_code == 302
    assert "Your turn, Ann" in client.get(r.location).text
    # a second "rematch" tap does not make a second game
    r = client.post(ann_link + "/rematch", data={"csrf_token": csrf(ann.text)})
    assert r.location.split("/")[2] == new_gid


def test_two_players_without_hidden_characters_gate_only_the_private_turns(client, app):
    gid = start(client, ["Ann", "Ben"])
    page = client.get(f"/games/{gid}")
    assert "Pass the phone" not in page.text and "Choose a stack" in page.text  # nothing private yet
    client.post(f"/games/{gid}/move", data=form_for({"type": "choose", "stack": "center"}, 0, csrf(page.text)))
    page = client.get(f"/games/{gid}")
    assert "Put one tile face down" in page.text  # Ann goes on: the phone is still in her hands
    drawn = game_of(app, gid).state.revealed
    client.post(f"/games/{gid}/move", data=form_for({"type": "hide", "tile": drawn[2]}, 1, csrf(page.text)))
    page = client.get(f"/games/{gid}")
    assert "Pass the phone" not in page.text and "Take a tile" in page.text  # Ben sees only public things
    assert drawn[2] not in page.text
    client.post(f"/games/{gid}/move", data=form_for({"type": "take", "tile": drawn[0], "position": 5}, 2, csrf(page.text)))
    page = client.get(f"/games/{gid}")
    assert "Pass the phone to Ann" in page.text and drawn[2] not in page.text


def test_one_phone_undo_takes_back_a_take(client, app):
    gid = start(client, ["Ann", "Ben", "Cy"])
    page = client.get(f"/games/{gid}")
    client.post(f"/games/{gid}/move", data=form_for({"type": "choose", "stack": "uphill"}, 0, csrf(page.text)))
    tile = game_of(app, gid).state.revealed[1]
    page = client.get(f"/games/{gid}")
    assert "Take back" not in page.text  # tiles were just revealed: nothing to take back
    client.post(f"/games/{gid}/move", data=form_for({"type": "take", "tile": tile, "position": 7}, 1, csrf(page.text)))
    page = client.get(f"/games/{gid}")
    assert "Who takes next?" in page.text and "Take back the last move" in page.text
    r = client.post(f"/games/{gid}/undo", data={"csrf_token": csrf(page.text), "version": "2"}, follow_redirects=True)
    assert "Taken back." in r.text and "Take a tile" in r.text
    game = game_of(app, gid).state
    assert tile in game.revealed and game.planets[0].tile_count == 0 and game_of(app, gid).version == 3


def test_no_tracker_page_or_view_is_ever_stored_by_the_browser(client, app):
    # Back, or a tab restored from the cache, must not show the previous player's private turn.
    gid = start(client, ["Ann", "Ben"], mode="own", hidden=True)
    loaded = game_of(app, gid)
    token = loaded.tokens[0]
    for url in (f"/games/{gid}", f"/games/{gid}/live", f"/play/{gid}/{token}",
                f"/play/{gid}/{token}/live", f"/api/games/{gid}", "/games/new"):
        r = client.get(url, headers={"Authorization": f"Bearer {token}"} if "/api/" in url else {})
        assert r.status_code == 200, url
        assert "no-store" in r.headers.get("Cache-Control", ""), url


def test_the_join_codes_fold_away_once_the_game_is_under_way(client, app):
    # The table page often lies in the middle of the table: a code left open mid-game lets
    # anyone scan another player's link and see their hidden characters.
    gid = start(client, ["Ann", "Ben", "Cy"], mode="own", hidden=True)
    page = client.get(f"/games/{gid}").text
    assert "scan your code" in page and re.search(r'<details class="tseat" open>', page)
    loaded = game_of(app, gid)
    with app.app_context():
        app.extensions["games"].play(gid, 0, legal(loaded.state, 0)[0].as_json())
    page = client.get(f"/games/{gid}").text
    assert '<details class="card tinvite" id="invite">' in page  # closed
    assert not re.search(r"<details[^>]*\bopen\b", page)
    assert len(re.findall(r'href="https?://[^"/]+(/play/[^"]+)"', page)) == 3  # still there for a lost phone
    # the host's open page learns of the first move by polling: the codes fold there too
    live = client.get(f"/games/{gid}/live?v=0").text
    assert 'id="board"' in live and 'hx-swap-oob="true"' in live and not re.search(r"<details[^>]*\bopen\b", live)
    assert "/play/" not in client.get(f"/games/{gid}/live?v=1").text  # only the first time
    # never for anyone but the host: the links are the seats' keys
    other = app.test_client()
    for url in (f"/games/{gid}", f"/games/{gid}/live?v=0", f"/games/{gid}/live"):
        text = other.get(url).text
        assert "/play/" not in text and not any(t in text for t in loaded.tokens)


def test_no_rematch_before_the_game_is_over(client, app):
    gid = start(client, ["Ann", "Ben"], mode="own")
    loaded = game_of(app, gid)
    link = f"/play/{gid}/{loaded.tokens[1]}"
    page = client.get(link)
    for url in (link + "/rematch", f"/games/{gid}/rematch"):
        r = client.post(url, data={"csrf_token": csrf(client.get(f"/games/{gid}").text)}, follow_redirects=True)
        assert r.status_code == 200 and "not over yet" in r.text
    with app.app_context():
        assert app.extensions["games"].find_rematch(gid) is None
    assert page.status_code == 200


def test_the_start_player_sees_which_tile_they_put_face_down_and_the_other_does_not(client, app):
    gid = start(client, ["Ann", "Ben"], mode="own")
    with app.app_context():
        games = app.extensions["games"]
        g = games.load(gid).state
        games.play(gid, 0, {"type": "choose", "seat": 0, "stack": "center"})
        g = games.load(gid).state
        face_down = g.revealed[0]
        games.play(gid, 1, {"type": "hide", "seat": 0, "tile": face_down})
        g = games.load(gid).state
        shown = next(t for t in g.revealed if t != face_down)
        games.play(gid, 2, {"type": "take", "seat": 1, "tile": shown, "position": 5})
        loaded = games.load(gid)
    ann = client.get(f"/play/{gid}/{loaded.tokens[0]}").text
    assert "the one you put face down" in ann and "discarded face up" in ann
    ben = client.get(f"/play/{gid}/{loaded.tokens[1]}").text
    assert "the one you put face down" not in ben and not mentions(ben, face_down)


def test_the_ranking_says_why_tied_players_stand_as_they_do(app):
    from scorer.contract import score_request
    from scorer.web.tracker_pages import player_marks, ranking
    king = {"characters": ["king", "vain_man", "astronomer", "lamplighter"], "rose": 1}
    request = {"players": [
        {"name": "Ann", "counts": {**king, "volcano": 1, "lamppost": 1}},  # 15 less 1 volcano = 14
        {"name": "Ben", "counts": {**king, "volcano": 0}},          # 14, 0 volcanoes: ahead of Ann
        {"name": "Cy", "counts": {**king, "volcano": 0}},           # the same as Ben: they share
        {"name": "Di", "counts": {**king, "rose": 3, "volcano": 0}},
    ]}
    with app.test_request_context():
        result = score_request(request)
        lines = ranking(result, player_marks(["Ann", "Ben", "Cy", "Di"]))
    why = {line["name"]: (line["rank"], line["why"]) for line in lines}
    assert [line["name"] for line in lines] == ["Ben", "Cy", "Ann", "Di"]
    assert why["Ben"] == (1, "shares the rank with Cy: same points and volcanoes")
    assert why["Cy"] == (1, "shares the rank with Ben: same points and volcanoes")
    assert why["Ann"] == (3, "behind on the tie: more volcanoes (1)")
    assert why["Di"][1] == "" and lines[0]["total"] == lines[2]["total"] == 14


def test_a_move_from_a_seats_phone_is_one_read_of_the_game_and_one_insert(client, app):
    """The claim check's read of the game is the one the move writes after, and the seat's claim
    is checked in memory: no second read of the moves, no claim query."""
    from test_tracker_store import Statements
    gid = start(client, ["Ann", "Ben", "Cy"], mode="own")
    links = re.findall(r'href="https?://[^"/]+(/play/[^"]+)"', client.get(f"/games/{gid}").text)
    ann = app.test_client()
    page = ann.get(links[0])
    form = form_for({"type": "choose", "stack": "center"}, 0, csrf(page.text))
    with Statements(app.extensions["db"].engine) as sent:
        r = ann.post(links[0] + "/move", data=form, headers={"HX-Request": "true"})
    assert r.status_code == 200 and 'data-version="1"' in r.text and "tmsg-stale" not in r.text
    assert game_of(app, gid).version == 1
    assert sent.count("tracker_seat_claims") == 0, sent.sent
    assert sent.count("tracker_moves", "select") == 1 and sent.count("tracker_moves", "insert") == 1, sent.sent


def test_a_seats_board_in_place_carries_no_token_and_a_move_still_needs_the_pages(client, app):
    # A seat's board is the same bytes for every phone of its class (scorer.web.shared_boards): a
    # board swapped in place carries no CSRF token and no seat link; the move is protected by the
    # token htmx sends from the page (hx-headers), and the full page (no JavaScript) fills it in.
    gid = start(client, ["Ann", "Ben", "Cy"], mode="own")
    host = client.get(f"/games/{gid}")
    links = re.findall(r'href="https?://[^"/]+(/play/[^"]+)"', host.text)
    ann = client.get(links[0])
    token = csrf(ann.text)
    assert f'name="csrf_token" value="{token}"' in ann.text and f'<base href="{links[0]}/">' in ann.text
    move = {"type": "choose", "stack": "center"}
    # no token at all, or another's: refused, nothing changes
    r = client.post(links[0] + "/move", data=form_for(move, 0, ""), headers={"HX-Request": "true"})
    assert r.status_code == 400 and game_of(app, gid).version == 0
    r = client.post(links[0] + "/move", data=form_for(move, 0, ""), headers={"HX-Request": "true", "X-CSRFToken": "x"})
    assert r.status_code == 400 and game_of(app, gid).version == 0
    # the page's token as htmx sends it: applied, and the answer (a board in place) carries none
    r = client.post(links[0] + "/move", data=form_for(move, 0, ""), headers={"HX-Request": "true", "X-CSRFToken": token})
    assert r.status_code == 200 and game_of(app, gid).version == 1
    ben = client.get(links[1] + "/live?v=0")
    assert 'id="act"' in r.text and 'name="csrf_token" value=""' in r.text  # Ann takes next
    for board in (r.text, ben.text):
        assert 'data-version="1"' in board and token not in board and not CSRF.search(board)
        assert not any(link.rsplit("/", 1)[-1] in board for link in links)
