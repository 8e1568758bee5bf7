"""The tracker at the table, in a phone-sized Chromium (390×844): what a round costs in taps on one
phone, take-backs, and how fast a move reaches the other phones.

Taps are counted by the page itself: an init script counts the trusted ``pointerdown`` events the
browser really received (sessionStorage, so a full page load would not reset it), and every tap
this test makes goes through ``tap``, which also checks that the tap changed the page in place
(a new ``#play``/``#board`` swapped in by htmx, the same document: no page load).
"""
from __future__ import annotations

import random
import statistics
import time
from urllib.parse import urlsplit

import pytest

from scorer.web import create_app
from tests.conftest import LiveServer, close_database, database_url
from tests.test_tracker_browser import new_game

pytestmark = pytest.mark.browser

COUNT_TAPS = """
(() => {
  const key = 'taps';
  if (sessionStorage.getItem(key) === null) sessionStorage.setItem(key, '0');
  document.addEventListener('pointerdown', e => {
    if (e.isTrusted) sessionStorage.setItem(key, String(Number(sessionStorage.getItem(key)) + 1));
  }, true);
})();
"""


def taps(page) -> int:
    return int(page.evaluate("Number(sessionStorage.getItem('taps'))"))


def tap(page, locator, area="#play"):
    """One real tap on ``locator``; it must swap ``area`` in place (same document, new element)."""
    page.evaluate("a => { window.__before = document.querySelector(a); window.__doc = window.__doc || Math.random(); "
                  "return window.__doc; }", area)
    doc = page.evaluate("window.__doc")
    before = taps(page)
    locator.click()
    page.wait_for_function("a => document.querySelector(a) && document.querySelector(a) !== window.__before", arg=area)
    assert page.evaluate("window.__doc") == doc, "the tap loaded a new page instead of swapping in place"
    assert taps(page) == before + 1, "one tap in the test is one pointerdown on the page"


def play_one_phone(page, live_server, names, hidden, seed, shot, label):
    """Play a whole game on one phone by random taps: the taps of each round, each round's stack,
    and how many pass-the-phone screens were confirmed."""
    page.add_init_script(COUNT_TAPS)
    gid = new_game(page, live_server.url, names, hidden=hidden)
    games = live_server.app.extensions["games"]
    rng = random.Random(seed)
    per_round: dict[int, int] = {}
    kinds: dict[int, str] = {}
    gates = 0
    shots = set()
    while page.locator(".tend").count() == 0:
        state = games.load(gid).state
        r, before = state.round, taps(page)
        if state.round_stack:
            kinds[r] = state.round_stack
        if page.locator("#gate").count():
            assert hidden and state.round_stack == "character", "a pass screen only where a tile is one player's alone"
            if "gate" not in shots:
                shot(page, f"{label}-gate")
                shots.add("gate")
            tap(page, page.locator("#gate button"))
            gates += 1
        else:
            phase = page.locator("#board").get_attribute("data-phase")
            if phase not in shots and r > 3:
                shot(page, f"{label}-{phase}")
                shots.add(phase)
            buttons = page.locator("#act button[type=submit]")
            tap(page, buttons.nth(rng.randrange(buttons.count())))
        per_round[r] = per_round.get(r, 0) + taps(page) - before
    shot(page, f"{label}-end")
    assert sorted(per_round) == list(range(1, 17)) == sorted(kinds)
    return gid, [per_round[r] for r in range(1, 17)], [kinds[r] for r in range(1, 17)], gates


def budget(n: int, hidden: bool, stack: str) -> int:
    """The issue's budget for a round: 1 tap to choose, 1 per take, 1 per appoint (the last taker
    is appointed without a tap), and a pass-the-phone confirmation only where hidden information
    needs it — with hidden characters, each taker of a character round after the first."""
    return 1 + n + (n - 2) + (n - 1 if hidden and stack == "character" else 0)


def test_three_players_whole_game_on_one_phone_within_the_tap_budget(live_server, page, shot):
    gid, per_round, kinds, gates = play_one_phone(page, live_server, ["Ann", "Ben", "Cy"], False, 7, shot, "3p")
    print(f"\n3 players, one phone: taps per round {per_round}, total {sum(per_round)}")
    assert len(per_round) == 16 and gates == 0
    assert per_round == [budget(3, False, k) for k in kinds] == [5] * 16
    assert sum(per_round) == 80
    text = page.inner_text("#board")
    assert "Game over" in text and page.locator(".tranking li").count() == 3
    # Back leaves the game: the moves were swapped in place, never pushed to the history
    page.go_back()
    page.wait_for_load_state()
    assert urlsplit(page.url).path == "/games/new"


def test_five_players_hidden_game_on_one_phone_within_the_tap_budget(live_server, page, shot):
    names = ["Ann", "Ben", "Cy", "Di", "Eve"]
    gid, per_round, kinds, gates = play_one_phone(page, live_server, names, True, 5, shot, "5p-hidden")
    print(f"\n5 players hidden, one phone: taps per round {per_round} ({kinds}), total {sum(per_round)}, "
          f"pass screens {gates}")
    assert len(per_round) == 16
    assert per_round == [budget(5, True, k) for k in kinds]
    assert kinds.count("character") == 4 and gates == 4 * 4
    assert sum(per_round) == 12 * 9 + 4 * 13
    # at the end the hidden characters are shown together: every player's four, by name
    reveal = page.locator(".treveal li")
    assert reveal.count() == 5
    result = live_server.app.extensions["games"].load(gid).state.result
    for line in reveal.all():
        text = line.inner_text()
        player = next(p for p in result["players"] if text.split(":")[0].strip().endswith(p["name"]))
        assert all(c["name"] in text for c in player["characters"]) and len(player["characters"]) == 4


def test_take_back_on_one_phone_with_a_confirm_or_the_reason_it_cannot(live_server, page, shot):
    base = live_server.url
    page.add_init_script(COUNT_TAPS)
    gid = new_game(page, base, ["Ann", "Ben", "Cy"])
    games = live_server.app.extensions["games"]
    tap(page, page.locator("#act .tstack-btn").first)
    # the choose showed tiles: it cannot be taken back, and the page says why
    assert page.locator("#undo").count() == 0 and "New tiles have been shown" in page.inner_text("#undo-no")
    tap(page, page.locator("#act .ttile-take").first)
    tap(page, page.locator("#act .tappoint-btn").first)          # Ann names the next taker
    assert games.load(gid).state.to_act in (1, 2)
    # the turn has passed; whoever holds the phone can still take the appoint back, after a confirm
    page.locator("#undo summary").click()
    shot(page, "undo-confirm")
    assert "appointed" in page.inner_text("#undo")
    tap(page, page.locator("#undo-confirm"))
    state = games.load(gid).state
    assert state.phase == "appoint" and state.to_act == 0 and "Taken back." in page.inner_text("#board")
    # and the take before it (the tile goes back on the table)
    page.locator("#undo summary").click()
    tap(page, page.locator("#undo-confirm"))
    state = games.load(gid).state
    assert state.phase == "take" and state.to_act == 0 and len(state.revealed) == 3


@pytest.fixture
def long_poll_server(tmp_path):
    """A live server that holds the phones' "anything new?" requests (as gunicorn's gevent workers
    do in production) instead of answering "nothing new" at once."""
    app = create_app({"INSTANCE_PATH": tmp_path / "lp-instance", "LIVE_MAX_WAIT": 25,
                      "DATABASE_URL": database_url(tmp_path, "lp.sqlite3")})
    server = LiveServer(app).start()
    yield server
    server.stop()
    close_database(app)


def test_the_other_phone_sees_a_move_within_a_second(long_poll_server, phone, shot):
    """Two phones of one game: the time from a tap on one to the move shown on the other (the
    push channel is the event stream of ``scorer.web.live``: one request per phone for the game,
    not one per move)."""
    live_server = long_poll_server
    base = live_server.url
    host = phone().new_page()
    gid = new_game(host, base, ["Ann", "Ben", "Cy"], mode="own")
    links = [urlsplit(a.get_attribute("href")).path for a in host.locator("a.tlink").all()]
    pages = [phone().new_page() for _ in links]
    asked_live: list[str] = []
    for p, link in zip(pages, links):
        p.add_init_script(SPY)
        p.on("request", lambda request: asked_live.append(request.url) if "/live?" in request.url else None)
        p.goto(base + link)
    games = live_server.app.extensions["games"]
    rng = random.Random(3)
    delays, turns_seen = [], []
    for _ in range(30):
        loaded = games.load(gid)
        seat = loaded.state.to_act
        me = pages[seat]
        other = pages[(seat + 1) % 3]
        me.wait_for_selector(f"#board[data-version='{loaded.version}'] #act")
        other.wait_for_selector(f"#board[data-version='{loaded.version}']")
        time.sleep(rng.uniform(0.1, 0.6))  # the other phone's request is somewhere in its wait
        buttons = me.locator("#act button[type=submit]")
        button = buttons.nth(rng.randrange(buttons.count()))
        t0 = time.monotonic()
        button.click()
        other.wait_for_selector(f"#board[data-version='{loaded.version + 1}']", timeout=5000)
        delays.append(time.monotonic() - t0)
        if games.load(gid).state.to_act == (seat + 1) % 3:  # the stream's board made it the other's turn
            turns_seen.append((other.title(), other.evaluate("window.__vibrations.length")))
    delays.sort()
    p95 = delays[int(0.95 * (len(delays) - 1))]
    print(f"\nmove to the other phone: median {statistics.median(delays) * 1000:.0f} ms, "
          f"p95 {p95 * 1000:.0f} ms, max {delays[-1] * 1000:.0f} ms over {len(delays)} moves")
    shot(pages[0], "two-phones")
    assert p95 <= 1.0
    assert len(asked_live) == len(pages), asked_live     # each page's one stream carried all 30 moves
    assert all(url.endswith("live?v=0&stream=1") for url in asked_live)
    assert turns_seen and all(title.startswith("● ") for title, _ in turns_seen), turns_seen  # its title says so
    assert turns_seen[-1][1] >= 1                                          # and the phone buzzed


SPY = """
window.__vibrations = [];
Object.defineProperty(navigator, 'vibrate', {value: ms => { window.__vibrations.push(ms); return true; }});
"""


def test_own_phones_your_turn_vibration_awake_undo_and_the_host_playing_beside_the_codes(live_server, phone, shot):
    base = live_server.url
    host = phone().new_page()
    host.add_init_script(SPY)
    host.add_init_script(COUNT_TAPS)
    gid = new_game(host, base, ["Ann", "Ben", "Cy"], mode="own")
    assert host.locator("#host-plays").count() == 1
    # the host is Ann: her own link opens her seat on this phone, the codes fold at its top
    # (the links carry the address phones on the network use; here the test server's)
    host.goto(base + urlsplit(host.locator("a.tlink[data-seat='0']").get_attribute("href")).path)
    assert host.locator("details#invite").count() == 1 and host.locator("#invite .tqr svg").count() == 2
    assert host.title().startswith("● Your turn")
    host.wait_for_function("() => document.documentElement.dataset.awake === 'true'")
    links = [urlsplit(a.get_attribute("href")).path for a in host.locator("a.tlink").all()]
    ben = phone().new_page()
    ben.add_init_script(SPY)
    ben.goto(base + links[0])  # Ben's link: the first of the two left
    assert "Ben" in ben.locator(".tyou").inner_text() and not ben.title().startswith("●")
    games = live_server.app.extensions["games"]
    tap(host, host.locator("#act .tstack-btn").first, area="#board")
    tap(host, host.locator("#act .ttile-take").first, area="#board")
    # Ann's take can be taken back by Ann (after a confirm), not by Ben
    ben.wait_for_selector(f"#board[data-version='{games.load(gid).version}']")
    assert host.locator("#undo").count() == 1 and ben.locator("#undo, #undo-no").count() == 0
    tap(host, host.locator("#act .tappoint-btn[value='1']"), area="#board")
    ben.wait_for_function("() => document.title.startsWith('● Your turn')")
    ben.wait_for_function("() => window.__vibrations.length > 0")
    assert ben.evaluate("window.__vibrations") == [200]
    shot(ben, "ben-your-turn")
    assert host.evaluate("window.__vibrations") == [] and not host.title().startswith("●")
    # Ann takes her appoint back before Ben moves: Ben's phone is told it is not his turn after all
    host.locator("#undo summary").click()
    tap(host, host.locator("#undo-confirm"), area="#board")
    assert games.load(gid).state.to_act == 0
    ben.wait_for_function("() => !document.title.startsWith('●')")
    shot(host, "ann-after-undo")
    # the codes are still there for the others
    host.locator("#invite > summary").click()
    host.locator("#invite details.tseat summary", has_text="Cy").click()
    assert host.locator("#invite a.tlink[data-seat='2']").is_visible()  # Cy has not joined yet
    shot(host, "host-codes-at-hand")
