"""A seat's link belongs to the first phone that opens it; the host can give a lost seat a new
link; take-backs cannot loop a game's log without bound (issue 15)."""
from __future__ import annotations

import re

import pytest

from scorer.draft import legal
from scorer.errors import IllegalMove
from test_live import two_apps  # noqa: F401, F811 (a fixture)
from test_tracker_pages import csrf, start


def links_of(page: str) -> list[str]:
    return re.findall(r'href="https?://[^"/]+(/play/[^"]+)"', page)


@pytest.fixture
def own_game(app, client):
    gid = start(client, ["Ann", "Ben", "Cy"], mode="own", hidden=True)
    return gid, links_of(client.get(f"/games/{gid}").text)


def test_the_first_phone_keeps_the_seat_and_the_host_is_refused_after(app, client, own_game):
    gid, links = own_game
    ben = app.test_client()
    assert ben.get(links[1]).status_code == 200            # Ben's phone opens his link first
    refused = client.get(links[1])                           # the host's browser, afterwards
    assert refused.status_code == 403 and "already open on another phone" in refused.text
    assert client.get(links[1] + "/live?v=0").status_code in (204, 403)  # nothing new, or refused
    assert ben.get(links[1]).status_code == 200              # Ben, again
    host = client.get(f"/games/{gid}").text
    assert "joined on their phone" in host and links[1] not in host   # his link is no longer shown


def test_a_refused_phone_sees_no_board_and_no_move_goes_through(app, client, own_game):
    gid, links = own_game
    ann = app.test_client()
    ann_page = ann.get(links[0])
    refused = client.get(links[0])
    assert 'id="board"' not in refused.text and "Your turn" not in refused.text
    before = app.extensions["games"].load(gid).version
    assert "Your turn, Ann" in ann_page.text
    own_token = csrf(client.get("/games/new").text)  # a form token of the refused browser's own
    choose = {"csrf_token": own_token, "version": "0", "type": "choose", "stack": "center"}
    assert client.post(links[0] + "/move", data=choose).status_code == 403
    assert app.extensions["games"].load(gid).version == before


def test_the_host_gives_a_lost_seat_a_new_link(app, client, own_game):
    gid, links = own_game
    lost_phone, new_phone = app.test_client(), app.test_client()
    assert lost_phone.get(links[2]).status_code == 200
    host = client.get(f"/games/{gid}")
    r = client.post(f"/games/{gid}/seats/2/new-link", data={"csrf_token": csrf(host.text)})
    assert r.status_code == 303
    fresh = links_of(client.get(f"/games/{gid}").text)
    new_link = next(link for link in fresh if link not in links)
    assert lost_phone.get(links[2]).status_code == 404       # the old link stops working
    assert new_phone.get(new_link).status_code == 200          # the next phone gets the seat
    assert lost_phone.get(new_link).status_code == 403         # and keeps it


def test_only_the_host_can_make_a_new_link(app, client, own_game):
    gid, links = own_game
    stranger = app.test_client()
    page = stranger.get("/games/new")
    r = stranger.post(f"/games/{gid}/seats/1/new-link", data={"csrf_token": csrf(page.text)})
    assert r.status_code == 403
    assert client.post(f"/games/{gid}/seats/1/new-link", data={}).status_code == 400  # no form token
    assert app.extensions["games"].load(gid).tokens[1] in links[1]


def test_two_phones_at_the_same_moment_one_gets_the_seat(app, own_game):
    gid, _links = own_game
    games = app.extensions["games"]
    token = games.load(gid).tokens[0]
    first, second = games.claim(gid, 0, None, token), games.claim(gid, 0, None, token)
    assert first and second is None
    assert games.claim(gid, 0, first, token) == first and games.claim(gid, 0, "guess", token) is None


def test_take_backs_cannot_grow_a_game_without_bound(app, client):
    from scorer.tracker_store import MAX_UNDOS
    gid = client.post("/api/games", json={"players": ["Ann", "Ben", "Cy"]}).json["id"]
    games = app.extensions["games"]
    games.play(gid, None, legal(games.load(gid).state, 0)[0].as_json(), 0)  # choose: tiles revealed
    take = next(m for m in legal(games.load(gid).state, 0) if m.as_json()["type"] == "take").as_json()
    for _ in range(MAX_UNDOS):
        games.play(gid, None, take, 0)
        games.undo(gid, None, 0)
    games.play(gid, None, take, 0)
    with pytest.raises(IllegalMove, match="taken back already"):
        games.undo(gid, None, 0)
    assert games.load(gid).version == 2 * MAX_UNDOS + 2


def test_the_two_player_page_says_what_the_start_player_can_work_out(client):
    page = client.get("/games/new").text
    assert "With 2 players the start player draws three tiles" in page


def test_a_new_link_made_through_one_server_process_holds_on_another(two_apps):  # noqa: F811
    """Two server processes on one database: the host re-issues Cy's link through the first while
    the second has the game cached. On the second, the lost phone's old link is refused even
    though its claim is gone, and the new link opens the seat (it once kept the old tokens)."""
    first, second = two_apps
    host = first.test_client()
    gid = start(host, ["Ann", "Ben", "Cy"], mode="own", hidden=True)
    links = links_of(host.get(f"/games/{gid}").text)
    lost_phone, new_phone = second.test_client(), second.test_client()
    assert lost_phone.get(links[2]).status_code == 200       # Cy's phone, served by the second
    page = host.get(f"/games/{gid}")
    assert host.post(f"/games/{gid}/seats/2/new-link", data={"csrf_token": csrf(page.text)}).status_code == 303
    new_link = next(link for link in links_of(host.get(f"/games/{gid}").text) if link not in links)
    games = first.extensions["games"]
    loaded = games.load(gid)
    games.play(gid, loaded.version, legal(loaded.state, loaded.state.to_act)[0].as_json())
    news = lost_phone.get(f"{links[2]}/live?v={loaded.version}")   # the board's news, old link
    assert news.status_code in (403, 404) and 'id="board"' not in news.text
    assert lost_phone.get(links[2]).status_code in (403, 404)  # refused, on the second process too
    assert new_phone.get(new_link).status_code == 200         # the new link works there
    assert lost_phone.get(new_link).status_code == 403
