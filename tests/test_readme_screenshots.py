"""The README's screenshots, made in the phone-sized browser (390×844): the score page by counts,
the tile picker, a table read from three photos, its results. Saved as WebP in test-artifacts/
and, with UPDATE_SCREENSHOTS=1, in docs/screenshots/ (what the README shows); each < 150 KB."""
from __future__ import annotations

import io
import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[1]
PHOTOS = ROOT / "sample_photos"


def save(page, name: str) -> int:
    from PIL import Image
    png = page.screenshot()  # the phone's screen, not the whole page
    out = io.BytesIO()
    Image.open(io.BytesIO(png)).convert("RGB").save(out, "WEBP", quality=70, method=6)
    targets = [ROOT / "test-artifacts" / f"readme-{name}.webp"]
    if os.environ.get("UPDATE_SCREENSHOTS"):
        targets.append(ROOT / "docs" / "screenshots" / f"{name}.webp")
    for path in targets:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(out.getvalue())
    return len(out.getvalue())


def scroll_to(page, selector: str) -> None:
    """Bring an element to the middle of the screen once htmx is quiet. In one step in the page:
    a name typed just before a scan sends a live update after it, which swaps the planets in again
    (the same planets), and Playwright's scroll_into_view_if_needed fails on an element that is
    swapped out while it waits for it to be stable."""
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
    page.locator(selector).first.evaluate("e => e.scrollIntoView({block: 'center'})")


def test_readme_screenshots(live_server, page):
    from tests.test_browser_scoring import BRUNO, enter_by_counts
    sizes = {}
    page.goto(live_server.url + "/score")
    enter_by_counts(page, 0, "Bruno", BRUNO)
    scroll_to(page, "#players-0 .items")
    expect(page.locator("#live-score li", has_text="Bruno")).to_be_visible()
    sizes["score-by-counts"] = save(page, "score-by-counts")

    page.goto(live_server.url + "/score?players=3")
    for i, (name, photo) in enumerate(zip(["Ann", "Ben", "Cy"], ["p01", "p02", "p03"])):
        page.fill(f"#players-{i}-name", name)
        page.set_input_files(f"#photo-{i}", str(PHOTOS / f"{photo}.jpg"))
        expect(page.locator(f"#players-{i}-cells-15")).not_to_have_value("", timeout=30_000)
    page.wait_for_timeout(500)  # the name's live update is sent 400 ms after its last key
    scroll_to(page, "#players-1 .planet.edit")
    sizes["three-photos"] = save(page, "three-photos")
    page.locator("#players-1 [data-cell='6']").click()
    expect(page.locator("#players-1 .chooser-title")).to_contain_text("row 2, column 3")
    scroll_to(page, "#players-1 .chooser-title")
    sizes["tile-picker"] = save(page, "tile-picker")
    page.get_by_role("button", name="See results").click()
    page.wait_for_url(re.compile(r"/tables/"))
    sizes["results"] = save(page, "results")
    print("\nREADME screenshots:", ", ".join(f"{k} {v / 1000:.0f} KB" for k, v in sizes.items()))
    assert all(size < 150_000 for size in sizes.values()), sizes
