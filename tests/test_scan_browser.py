"""Scan a planet in a phone-sized browser: photo in, reviewed planet, score out."""
import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
PHOTOS = Path(__file__).resolve().parents[1] / "sample_photos"


def planet_photo():
    return next(j for j in sorted(PHOTOS.glob("*.jpg")) if "cells" in json.loads(j.with_suffix(".json").read_text()))


def no_planet_photo():
    return next(j for j in sorted(PHOTOS.glob("*.jpg")) if "cells" not in json.loads(j.with_suffix(".json").read_text()))


def no_horizontal_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_photo_in_review_then_score_out(live_server, page, shot):
    page.goto(live_server.url + "/scan")
    camera = page.locator("label.camera")
    box = camera.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44
    shot(page, "scan")
    page.set_input_files("#photo", str(planet_photo()))  # chosen: it uploads by itself
    page.wait_for_selector("h1:has-text('Check the planet')", timeout=30_000)
    no_horizontal_scroll(page)
    shot(page, "review")
    squares = page.locator(".planet.edit button.cell")
    assert squares.count() == 16
    doubtful = page.locator(".cell.doubtful").count()
    assert f"{16 - doubtful} of 16" in page.inner_text(".lead") or doubtful == 0
    page.fill("#players-0-name", "Ann")
    page.click("button:has-text('Score this planet')")
    page.wait_for_url("**/tables/**")
    assert "Ann" in page.inner_text("main")
    no_horizontal_scroll(page)
    shot(page, "result")


def test_no_planet_photo_is_explained(live_server, page, shot):
    page.goto(live_server.url + "/scan")
    page.set_input_files("#photo", str(no_planet_photo()))
    page.wait_for_selector("#scan-error", timeout=30_000)
    assert "planet" in page.inner_text("#scan-error")
    shot(page, "no-planet")


def test_scan_works_without_javascript(live_server, phone, shot):
    page = phone(java_script_enabled=False).new_page()
    page.goto(live_server.url + "/scan")
    page.set_input_files("#photo", str(planet_photo()))
    page.click("#scan-submit")
    page.wait_for_selector("h1:has-text('Check the planet')", timeout=30_000)
    page.click("button:has-text('Score this planet')")
    page.wait_for_url("**/tables/**")
    shot(page, "nojs-result")


def test_without_javascript_the_chosen_photo_is_shown(live_server, phone):
    """Without JS nothing uploads by itself, and the file box was a hidden 1-px input: a player
    could not tell whether a photo was chosen before tapping "Read the planet"."""
    page = phone(java_script_enabled=False).new_page()
    page.goto(live_server.url + "/scan")
    box = page.locator("#photo").bounding_box()
    assert box and box["height"] >= 44 and box["width"] >= 200
    no_horizontal_scroll(page)
