"""After the game in a phone-sized Chromium (390×844): score a table, find it in the history,
open a player's stats; the results page offers the picture and BG Stats. Taps are counted."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from test_browser_scoring import ANTOINE, BRUNO, assert_layout, enter_player

pytestmark = pytest.mark.browser


def test_score_a_table_find_it_in_the_history_and_open_a_players_stats(live_server, page, shot):
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(live_server.url + "/score")
    enter_player(page, 0, "Bruno", BRUNO)
    enter_player(page, 1, "Antoine", ANTOINE)
    page.get_by_role("button", name="See results").click()
    page.wait_for_url(re.compile(r"/tables/"))
    table_url = page.url
    picture = page.locator("img.results-picture")
    picture.scroll_into_view_if_needed()
    expect(picture).to_be_visible()
    assert page.evaluate("document.querySelector('img.results-picture').naturalWidth") == 1200
    expect(page.get_by_role("link", name="Send to BG Stats")).to_have_attribute(
        "href", re.compile(r"^https://app\.bgstatsapp\.com/createPlay\.html\?data="))
    expect(page.get_by_role("link", name="Download the picture")).to_be_visible()
    assert_layout(page, "results")
    shot(page, "results")

    page.get_by_role("link", name="History").first.click()   # tap 1: the topbar link
    page.wait_for_url(re.compile(r"/history$"))
    row = page.locator("li.play").first
    expect(row).to_contain_text("Antoine")
    expect(row).to_contain_text("41")
    expect(row.locator(".won")).to_contain_text("Antoine")
    assert_layout(page, "history")
    shot(page, "history")
    row.get_by_role("link", name="Open results").click()    # the row reopens the table
    expect(page).to_have_url(table_url)
    page.go_back()
    page.locator("li.play").first.get_by_role("link", name="Bruno").click()  # tap 2: a player
    page.wait_for_url(re.compile(r"/players/Bruno$"))
    expect(page.locator("h1")).to_have_text("Bruno")
    stats = page.locator("dl.stats")
    expect(stats).to_contain_text("Plays")
    expect(stats.locator("div", has_text="Best score")).to_contain_text("39")
    expect(stats.locator("div", has_text="Volcano penalties")).to_contain_text("1 time")
    expect(page.locator("svg.chart circle")).to_have_count(1)
    assert_layout(page, "player")
    shot(page, "player")
    assert not errors, errors


def test_delete_from_the_history_with_a_confirm_and_no_javascript(live_server, phone, shot):
    page = phone(java_script_enabled=False).new_page()
    page.goto(live_server.url + "/score")
    page.fill("#players-0-name", "Ann")
    page.fill("#players-1-name", "Ben")
    page.fill("#players-0-lamppost", "3")
    page.get_by_role("button", name="See results").click()
    page.wait_for_url(re.compile(r"/tables/"))
    page.goto(live_server.url + "/history")
    row = page.locator("li.play").first
    row.locator("summary", has_text="Delete").click()
    shot(page, "delete-confirm")
    row.get_by_role("button", name="Yes, delete it").click()
    expect(page.locator(".notice")).to_have_text("Deleted.")
    expect(page.locator("li.play")).to_have_count(0)
