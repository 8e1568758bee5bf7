"""The Rising to the Stars tally in a phone-sized Chromium (390×844): a 3-pilot game whose tie is
broken by the paper plane, tapped in from the home page (taps counted), and the same without
JavaScript."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from test_browser_scoring import assert_layout

pytestmark = pytest.mark.browser

# Ann 15 + plane 6 = 21; Ben 10 + fox 1 + Little Prince 1 + 6 for the pair + plane 3 = 21;
# Cy 5 + a 2-star story + plane 4 = 11. Ann and Ben tie on 21; Ann's plane (6) beats Ben's (3).
GAME = [
    {"name": "Ann", "star_tokens": 15, "tiles": [], "plane": 6},
    {"name": "Ben", "star_tokens": 10, "tiles": [(1, "Fox"), (1, "Little Prince")], "plane": 3},
    {"name": "Cy", "star_tokens": 5, "tiles": [(2, None)], "plane": 4},
]


class Taps:
    """Every tap on the page, counted (typing a name is not a tap)."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def tap(self, locator):
        locator.click()
        self.count += 1

    def step(self, field: str, times: int):
        for _ in range(times):
            self.tap(self.page.locator(f"button[name='inc-{field}']"))


def enter(page, taps: Taps, i: int, pilot: dict):
    page.fill(f"#pilots-{i}-name", pilot["name"])
    taps.step(f"pilots-{i}-star_tokens", pilot["star_tokens"])
    for k, (stars, story) in enumerate(pilot["tiles"]):
        taps.tap(page.locator(f"button[name='add-tile-{i}']"))  # a form post: the page comes back
        expect(page.locator(f"#pilots-{i}-story_tiles-{k}-stars")).to_have_value("1")
        taps.step(f"pilots-{i}-story_tiles-{k}-stars", stars - 1)
        if story:
            taps.tap(page.locator(f"#pilots-{i}-story_tiles-{k} label.seg", has_text=story))
    taps.step(f"pilots-{i}-plane", pilot["plane"])


def test_three_pilots_tie_broken_by_the_plane(live_server, page, shot):
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.goto(live_server.url + "/")
    taps = Taps(page)
    taps.tap(page.get_by_role("link", name=re.compile("Rising to the Stars")))
    page.wait_for_url(re.compile(r"/stars$"))
    expect(page.locator("section.pilot")).to_have_count(2)
    taps.tap(page.get_by_role("button", name="+ Add a pilot"))
    expect(page.locator("section.pilot")).to_have_count(3)
    for i, pilot in enumerate(GAME):
        enter(page, taps, i, pilot)
    # live totals: in each card and in the bar, Ann ahead on the plane
    expect(page.locator("#pilots-0-total strong")).to_have_text("21")
    expect(page.locator("#pilots-1-total strong")).to_have_text("21")
    expect(page.locator("#pilots-1-total")).to_contain_text("fox + prince +6")
    expect(page.locator("#pilots-2-total strong")).to_have_text("11")
    expect(page.locator("#live-score li.lead")).to_have_count(1)
    expect(page.locator("#live-score li.lead")).to_contain_text("Ann")
    assert_layout(page, "tally")
    shot(page, "tally-filled")
    taps.tap(page.get_by_role("button", name="See who wins"))
    page.wait_for_url(re.compile(r"/stars/[A-Za-z0-9_-]+$"))
    expect(page.locator("h1")).to_have_text("Ann wins!")
    expect(page.locator(".winner .explain")).to_have_text(
        "Ann and Ben both have 21 stars; Ann wins with more stars on the paper plane (6 against 3).")
    rows = page.locator(".rank-row")
    expect(rows).to_have_count(3)
    for n, (name, total, rank) in enumerate((("Ann", "21", "1"), ("Ben", "21", "2"), ("Cy", "11", "3"))):
        expect(rows.nth(n).locator(".rank-name")).to_have_text(name)
        expect(rows.nth(n).locator(".rank-score strong")).to_have_text(total)
        expect(rows.nth(n).locator(".rank")).to_have_text(rank)
    assert_layout(page, "result")
    shot(page, "result")
    print(f"\ntaps from the home page to the result: {taps.count}")
    # 1 (home) + 1 (add pilot) + Ann 21 + Ben 10 + 2 tiles × (add + story) + 3 + Cy 5 + (add + 1) + 4 + 1
    assert taps.count == 1 + 1 + 21 + (10 + 4 + 3) + (5 + 2 + 4) + 1
    link = page.url
    page.goto(link)  # the link reopens the stored tally
    expect(page.locator("h1")).to_have_text("Ann wins!")
    assert not errors, errors


def test_tally_without_javascript(live_server, phone, shot):
    page = phone(java_script_enabled=False).new_page()
    page.goto(live_server.url + "/stars?pilots=2")
    page.fill("#pilots-0-name", "Ann")
    page.fill("#pilots-1-name", "Ben")
    for _ in range(3):
        page.locator("button[name='inc-pilots-0-star_tokens']").click()
    expect(page.locator("#pilots-0-star_tokens")).to_have_value("3")
    expect(page.locator("#pilots-0-name")).to_have_value("Ann")  # kept through each post
    page.locator("button[name='add-tile-1']").click()
    page.locator("#pilots-1-story_tiles-0 label.seg", has_text="Fox").click()
    page.locator("button[name='inc-pilots-1-plane']").click()
    expect(page.locator("#pilots-1-total strong")).to_have_text("2")
    page.fill("#pilots-1-name", "ann")  # a clash, shown beside the name on posting
    page.get_by_role("button", name="See who wins").click()
    expect(page.locator("#pilots-1-name-error")).to_contain_text("Two pilots are called ann")
    shot(page, "nojs-error")
    page.fill("#pilots-1-name", "Ben")
    page.get_by_role("button", name="See who wins").click()
    page.wait_for_url(re.compile(r"/stars/[A-Za-z0-9_-]+$"))
    expect(page.locator("h1")).to_have_text("Ann wins!")
    expect(page.locator(".winner .explain")).to_have_text("Ann wins with 3 stars.")
