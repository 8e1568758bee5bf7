"""The tracker in a phone-sized Chromium: a whole 3-player game on one phone, and a 2-player
hidden-characters game on two phones that update each other by polling."""
from __future__ import annotations

import random
import re
from urllib.parse import urlsplit

import pytest

from conftest import mentions


pytestmark = pytest.mark.browser


def click_and_wait(page, locator):
    """Tap, and wait for the answer: swapped in place by htmx (a new ``#board``), or a new page."""
    page.evaluate("() => { window.__board = document.getElementById('board'); }")
    locator.click()
    page.wait_for_function("() => document.getElementById('board') && document.getElementById('board') !== window.__board")


def act(page, rng) -> bool:
    """Make one random legal move through the page; False when this page has nothing to do."""
    if page.locator("#act").count() == 0:
        return False
    buttons = page.locator("#act .tstack-btn")
    if buttons.count():
        click_and_wait(page, buttons.nth(rng.randrange(buttons.count())))
        return True
    hide = page.locator("#act .ttile-btn")
    if hide.count():
        click_and_wait(page, hide.nth(rng.randrange(hide.count())))
        return True
    picks = page.locator("#act .ttile-take")
    if picks.count():
        click_and_wait(page, picks.nth(rng.randrange(picks.count())))
        return True
    appoint = page.locator("#act .tappoint button")
    click_and_wait(page, appoint.nth(rng.randrange(appoint.count())))
    return True


def new_game(page, base, names, mode="one", hidden=False, shot=None):
    page.goto(base + "/games/new")
    for i, name in enumerate(names):
        page.fill(f"#p{i}", name)
    page.locator(f"input[name=mode][value={mode}]").check()
    if hidden:
        page.locator("#hidden").check()
    if shot:
        shot(page, "00-new-game")
        tap_targets_are_big(page)
    click_and_wait(page, page.get_by_role("button", name="Start the game"))
    return page.url.rstrip("/").rsplit("/", 1)[-1]


def tap_targets_are_big(page):
    small = page.evaluate("""() => [...document.querySelectorAll('#main button, #main a.button, #main .ttile-pick')]
        .filter(e => e.offsetParent !== null)
        .map(e => e.getBoundingClientRect())
        .filter(r => r.height < 44 || r.width < 44).length""")
    assert small == 0, f"{small} tap targets smaller than 44 px"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "nothing is wider than the phone"


def test_three_players_play_a_whole_game_on_one_phone(live_server, page, shot):
    base = live_server.url
    new_game(page, base, ["Ann", "Ben", "Cy"], shot=shot)
    expect_turn = page.locator("#turn")
    assert "Your turn, Ann" in expect_turn.inner_text()
    shot(page, "01-start")
    tap_targets_are_big(page)
    rng = random.Random(7)
    shots = {"take": False, "appoint": False, "flip": False}
    moves = 0
    while page.locator(".tend").count() == 0:
        phase = page.locator("#board").get_attribute("data-phase")
        assert page.locator("#turn").count() == 1 and "round" in page.locator(".tstatus .eyebrow").inner_text().lower()
        if phase in shots and not shots[phase] and moves > 20:
            shot(page, f"02-{phase}")
            tap_targets_are_big(page)
            shots[phase] = True
        if page.locator(".tflip").count() and not shots["flip"]:
            shot(page, "03-flip")
            shots["flip"] = True
        assert act(page, rng)
        moves += 1
        assert moves <= 80
    assert moves == 80  # 16 rounds × (3 takes + 1 choose + 1 appoint; the last is appointed alone)
    shot(page, "04-end")
    assert "Game over" in page.inner_text("#board")
    page.get_by_role("link", name="See the full results").click()
    page.wait_for_url(re.compile(r"/tables/"))
    assert page.locator("body").inner_text().count("Ann") >= 1
    shot(page, "05-results")


def test_two_phones_hidden_characters(live_server, phone, shot):
    base = live_server.url
    host = phone().new_page()
    gid = new_game(host, base, ["Ann", "Ben"], mode="own", hidden=True)
    assert host.locator(".tqr svg").count() == 2
    host.locator(".tseat summary").nth(1).click()
    shot(host, "01-invite")
    links = [urlsplit(a.get_attribute("href")).path for a in host.locator("a.tlink").all()]
    assert len(links) == 2
    ann, ben = phone().new_page(), phone().new_page()
    ann.goto(base + links[0])
    ben.goto(base + links[1])
    assert "Your turn, Ann" in ann.inner_text("#turn") and ben.locator("#act").count() == 0
    shot(ben, "02-ben-waits")
    games = live_server.app.extensions["games"]

    def check_no_leak():
        loaded = games.load(gid)
        game = loaded.state
        if game.finished:
            return
        for seat, page in ((0, ann), (1, ben)):
            html = page.content()
            if f'data-version="{loaded.version}"' not in html:
                continue  # an older page shows only what this player saw then
            for owner, planet in enumerate(game.planets):
                if owner == seat:
                    continue
                for pos in (0, 3, 12, 15):
                    cell = planet.cells[pos]
                    if cell is not None:
                        assert not mentions(html, cell.tile), f"{cell.tile} leaked to seat {seat}"
            if game.face_down in game.revealed and seat != game.start:
                assert not mentions(html, game.face_down), "the face-down tile leaked"

    rng = random.Random(11)
    pages = (ann, ben)
    # the first turns: the waiting phone updates by itself (htmx polling), no reload
    polled = 0
    moves = 0
    shot_hide = shot_blind = False
    while True:
        loaded = games.load(gid)
        if loaded.state.finished:
            break
        seat = loaded.state.to_act
        me, other = pages[seat], pages[1 - seat]
        if polled < 3:
            me.wait_for_selector(f"#board[data-version='{loaded.version}'] #act", timeout=6000)
            polled += 1
        else:
            me.reload()
        if not shot_hide and me.locator("#act .ttile-btn").count():
            shot(me, "03-ann-hides" if seat == 0 else "03-ben-hides")
            shot_hide = True
        if not shot_blind and me.locator("#act .ttile-pick .ttile-hidden").count():
            shot(me, "04-blind-choice")
            tap_targets_are_big(me)
            shot_blind = True
        check_no_leak()
        assert act(me, rng)
        moves += 1
        if moves == 20:
            other.reload()
            shot(ann, "05-ann-mid")
            shot(ben, "05-ben-mid")
        check_no_leak()
    assert moves == 64
    for page in pages:
        page.reload()
        assert "Game over" in page.inner_text("#board")
    shot(ann, "06-end")
    table = games.load(gid).table_id
    assert ann.locator(f"a[href='/tables/{table}']").count() == 1


def test_a_second_phone_acting_at_the_same_moment_is_told_someone_moved_first(live_server, phone, shot):
    base = live_server.url
    host = phone().new_page()
    new_game(host, base, ["Ann", "Ben", "Cy"], mode="own")
    link = urlsplit(host.locator("a.tlink").first.get_attribute("href")).path
    # The same player's link open twice (the seat belongs to the phone that opened it first, so
    # the second page carries that phone's cookies): the second without JavaScript, so it cannot
    # refresh itself before the tap.
    first_phone = phone()
    first = first_phone.new_page()
    first.goto(base + link)
    stale_tab = phone(java_script_enabled=False)
    stale_tab.add_cookies(first_phone.cookies())
    second = stale_tab.new_page()
    second.goto(base + link)
    click_and_wait(first, first.locator("#act .tstack-btn").first)
    click_and_wait(second, second.locator("#act .tstack-btn").nth(1))
    assert "Someone moved first" in second.inner_text("#board")
    shot(second, "moved-first")
    assert second.locator("#board").get_attribute("data-version") == "1"


def test_one_phone_hidden_characters_asks_to_pass_the_phone(live_server, page, shot):
    base = live_server.url
    new_game(page, base, ["Ann", "Ben"], hidden=True)
    assert page.locator("#gate").count() == 0  # choosing a stack shows nothing private
    shot(page, "01-ann-chooses")
    tap_targets_are_big(page)
    click_and_wait(page, page.locator("#act .tstack-btn").last)      # the character stack
    click_and_wait(page, page.locator("#act .ttile-btn").first)      # hide one
    gid = page.url.rstrip("/").rsplit("/", 1)[-1]
    games = live_server.app.extensions["games"]
    hidden_tile = games.load(gid).state.face_down
    # Ben takes from two shown tiles and the face-down one: nothing of his turn is his alone
    assert page.locator("#gate").count() == 0 and not mentions(page.content(), hidden_tile)
    assert page.locator("#act .ttile-take .ttile-hidden").count() == 1
    shot(page, "02-ben-takes")
    shown = [t for t in games.load(gid).state.revealed if t != hidden_tile]
    click_and_wait(page, page.locator(f"#act .ttile-take[value='{shown[0]}']"))
    # Ann knows the face-down tile: the phone goes back to her behind a pass screen
    assert "Pass the phone to Ann" in page.inner_text("#gate") and not mentions(page.content(), hidden_tile)
    shot(page, "03-back-to-ann")
    tap_targets_are_big(page)
    click_and_wait(page, page.locator("#gate button"))
    assert hidden_tile in page.content()


def test_a_tile_picture_that_cannot_load_leaves_the_tile_words(live_server, page):
    """No art server (a phone that lost the network for pictures): each offered tile still says
    what it is, with no broken-image icon, and nothing the security policy refuses."""
    page.route("**/art/*.webp", lambda route: route.fulfill(status=404, body=""))
    new_game(page, live_server.url, ["Ann", "Ben", "Cy"])
    click_and_wait(page, page.locator("#act .tstack-btn").first)  # the offer: tiles with pictures
    offer = page.locator("#act .ttile")
    assert offer.count() >= 3
    page.wait_for_function("() => document.querySelectorAll('#act .ttile img').length === 0")
    labels = [t.inner_text().strip() for t in offer.all()]
    assert all(re.fullmatch(r"[A-Z][0-9]{2}|face down", label) for label in labels), labels
