"""The scoring pages in a phone-sized Chromium (390×844): the rulebook example by counts, a planet
tile by tile, a validation error fixed, the whole flow without JavaScript, and layout checks."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

BRUNO = {"characters": ["Hunter", "Gardener", "Businessman (white)", "King"],
         "counts": {"fox": 1, "elephant": 1, "snake": 1, "sheep_white": 6, "baobab": 2, "rose": 2, "volcano": 6}}
ANTOINE = {"characters": ["Geographer", "Drunkard", "Little Prince", "Businessman (brown)"],
           "counts": {"face_down": 1, "volcano": 3, "sheep_white": 1, "sheep_grey": 1, "sheep_brown": 2, "box": 4}}
# face_down is counted in presses: one press is 3 tiles

INTERACTIVE = ("a, button, select, summary, input:not([type=hidden]):not([type=radio]), "
               "label.pick, label.seg, textarea")


def pick_character(page, player: int, slot: int, name: str):
    picker = page.locator(f"#players-{player} details[data-picker]").nth(slot)
    if not picker.evaluate("d => d.open"):
        picker.locator("summary").click()
    picker.locator("label.pick", has=page.get_by_text(name, exact=True)).click()


def press(page, player: int, item: str, times: int, sign: str = "inc"):
    for _ in range(times):
        page.locator(f"button[name='{sign}-{player}-{item}']").click()


def enter_player(page, i, name, data):
    page.fill(f"#players-{i}-name", name)
    for k, ch in enumerate(data["characters"]):
        pick_character(page, i, k, ch)
    for item, n in data["counts"].items():
        press(page, i, item, n)


def assert_layout(page, name=""):
    """No horizontal scroll at 390 px, and every visible control at least 44×44 px."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"{name}: page is {width}px wide"
    small = page.evaluate("""(sel) => {
        const out = [];
        for (const el of document.querySelectorAll(sel)) {
            const r = el.getBoundingClientRect();
            const st = getComputedStyle(el);
            if (r.width === 0 || r.height === 0 || st.visibility === 'hidden') continue;
            if (el.closest('.visually-hidden, [hidden]')) continue;
            if (r.height < 44 || r.width < 44) out.push(`${el.tagName}.${el.className} "${(el.textContent||el.name||'').trim().slice(0,30)}" ${Math.round(r.width)}x${Math.round(r.height)}`);
        }
        return out;
    }""", INTERACTIVE)
    assert not small, f"{name}: tap targets under 44px: {small}"


def test_home_page_three_choices(live_server, page, shot):
    page.goto(live_server.url + "/")
    assert "Make Me a Planet" in page.title()
    for text, href in (("Score a table", "/score"), ("Scan a planet", "/scan"), ("Start a game", "/games/new")):
        link = page.get_by_role("link", name=re.compile("^" + text + " →"))
        expect(link).to_have_attribute("href", href)
    assert_layout(page, "home")
    shot(page, "home")


def test_rulebook_example_by_counts(live_server, page, shot):
    page.goto(live_server.url + "/")
    page.get_by_role("link", name=re.compile("Score a table")).first.click()
    page.evaluate("window.__noReload = true")
    enter_player(page, 0, "Bruno", BRUNO)
    enter_player(page, 1, "Antoine", ANTOINE)
    live = page.locator("#live-score")
    expect(live).to_contain_text("Bruno")
    expect(live.locator("li", has_text="Bruno")).to_contain_text("39")
    expect(live.locator("li.lead")).to_contain_text("Antoine")
    expect(live.locator("li.lead")).to_contain_text("41")
    assert page.evaluate("window.__noReload") is True, "the live score reloaded the page"
    assert live.get_attribute("aria-live") == "polite"
    assert_layout(page, "score")
    shot(page, "score-filled")
    page.get_by_role("button", name="See results").click()
    page.wait_for_url(re.compile(r"/tables/"))
    expect(page.locator("h1")).to_contain_text("Antoine wins")
    rows = page.locator(".rank-row")
    expect(rows.nth(0)).to_contain_text("Antoine")
    expect(rows.nth(0)).to_contain_text("41")
    expect(rows.nth(1)).to_contain_text("Bruno")
    expect(rows.nth(1)).to_contain_text("39")
    expect(page.locator(".winner")).to_contain_text("Bruno has the most volcanoes (6) and loses 6 points.")
    expect(page.locator("#copy-text")).to_have_value(re.compile(r"1\. Antoine: 41"))
    expect(page.locator("#player-0 .char-detail", has_text="fox, elephant, snake and sheep: 4 species × 3 = 12")).to_be_visible()
    assert_layout(page, "results")
    shot(page, "results")
    # the link reopens the same table
    url = page.url
    page.goto(url)
    expect(page.locator("h1")).to_contain_text("Antoine wins")
