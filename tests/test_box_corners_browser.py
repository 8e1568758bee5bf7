"""On a phone (390×844): a teaching photo whose layout is not found (box2-heldout7's t01 turned 30°,
``not_found_photo``: a teaching photo must be upright; heldout6's t06, heldout7's t02 and heldout7's
t01 as it is, used before, are found since the layout-fit, dark-table and squared-candidate rounds),
then its four corners tapped on the photo, and the layout learned.

Taps, counted: after the refusal, 1 ("Show me where the layout is") + 4 corners, in any order (here
bottom-left before bottom-right); a fourth tap that makes no square's outline (the layout's middle)
costs 1 more (it answers with a message and is not kept; the three corners stay)."""
import json

import pytest
from PIL import Image
from playwright.sync_api import expect

from not_found_photo import not_found_photo

pytestmark = pytest.mark.browser
NOT_FOUND = not_found_photo()
LEARN_WAIT = 120_000


def test_tap_the_corners_of_a_layout_not_found(live_server, page, shot):
    page.goto(live_server.url + "/box/layout/1")
    page.set_input_files("#photo", str(NOT_FOUND))              # uploads by itself
    expect(page.locator("#scan-error")).to_contain_text("4×4", timeout=LEARN_WAIT)
    assert "0 of 6 layouts learned" in page.inner_text("main")
    page.click("#box-corners")
    taps = 1
    expect(page.locator("#corner-next")).to_contain_text("Corner 1 of 4: tap the top-left corner.")
    photo = page.locator("#tap")
    box = photo.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390                 # the whole photo on screen
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    with Image.open(NOT_FOUND) as im:
        f = box["width"] / im.width
    corners = [(x * f, y * f) for x, y in json.loads(NOT_FOUND.with_suffix(".json").read_text())["corners"]]

    def tap(k: int, expect_next: str | None):
        nonlocal taps
        page.locator("#tap").click(position={"x": corners[k][0], "y": corners[k][1]})
        taps += 1
        if expect_next:
            expect(page.locator("#corner-next")).to_contain_text(expect_next)

    tap(0, "Corner 2 of 4: tap the top-right corner.")
    tap(1, "Corner 3 of 4: tap the bottom-right corner.")
    tap(3, "Corner 4 of 4")                                    # bottom-left tapped for bottom-right
    page.wait_for_load_state("networkidle")
    shot(page, "three-taps")
    corners.append(((corners[0][0] + corners[2][0]) / 2, (corners[0][1] + corners[2][1]) / 2))
    tap(4, None)                                               # the layout's middle: no square's outline
    expect(page.locator("#scan-error")).to_contain_text("in any order")
    shot(page, "not-a-square")
    expect(page.locator("#corner-next")).to_contain_text("Corner 4 of 4")   # the three corners kept
    tap(2, None)                                               # the last corner: learned, whatever the order
    page.wait_for_selector("#box-learned", timeout=LEARN_WAIT)
    assert "1 of 6 layouts learned" in page.inner_text("main")
    assert page.locator(".box-grid.learned img").count() == 16
    page.wait_for_load_state("networkidle")
    shot(page, "learned")
    assert taps == 5 + 1
