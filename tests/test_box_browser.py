"""Teach the app a box on a phone (390×844), then scan a planet of that box and score it; bad
teaching photos (no planet, the wrong layout, not an image) are refused on the way.

Taps, counted: per layout 2 (take the photo, "Next"), plus the first "Start"; the planet scan as
on the scan page. Learning takes several seconds a photo, so the waits are long."""
import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorer.contract import score_request

pytestmark = pytest.mark.browser
BOX2 = Path(__file__).resolve().parents[1] / "sample_photos" / "box2"
LEARN_WAIT = 120_000


def quarter_turns(cells):
    """The planet's 16 cells in each of its four quarter turns (clockwise)."""
    out = [list(cells)]
    for _ in range(3):
        prev = out[-1]
        out.append([prev[(3 - c) * 4 + r] for r in range(4) for c in range(4)])
    return out


def no_horizontal_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def same_contents(tile_id: str) -> list[str]:
    """The ids of the tiles that look the same as this one (itself included)."""
    from scorer.catalog import catalog
    if tile_id == "back":
        return ["back"]
    cat = catalog()
    key = lambda t: (t.stack, t.character, sorted(t.items.items()))  # noqa: E731
    return [t.id for t in cat if key(t) == key(cat[tile_id])]


def remember_another_tile(page, square: int) -> None:
    """On the review: put another tile (other contents) on ``square``, then "Remember the tiles I
    corrected"."""
    page.locator(f"[data-cell='{square}']").click()
    page.wait_for_load_state("networkidle")
    now = page.input_value(f"#players-0-cells-{square}")
    other = next(v for v in page.locator(".choice:enabled").evaluate_all("cs => cs.map(c => c.value)")
                 if v and v not in same_contents(now))
    page.locator(f".choice[value='{other}']").click()
    expect(page.locator(f"#players-0-cells-{square}")).to_have_value(other)
    page.click("#remember")


def test_teach_a_box_then_scan_and_score_a_planet_of_it(live_server, page, shot, monkeypatch, tmp_path):
    # the player below also puts a tile on a square that holds another: a picture of another tile,
    # which the box keeps when its own shows more drawing (REMEMBER_SHARPER, switched on at the end)
    monkeypatch.setattr("vision.tuning.REMEMBER_SHARPER", False)
    taps = 0
    page.goto(live_server.url + "/box")
    assert "0 of 6 layouts learned" in page.inner_text("main")
    no_horizontal_scroll(page)
    shot(page, "box")
    page.click("text=Start with layout 1")
    taps += 1
    page.wait_for_selector("h1:has-text('Layout 1 of 6')")
    assert page.locator(".box-grid .box-slot").count() == 16
    no_horizontal_scroll(page)
    shot(page, "plan-1")
    for n in range(1, 7):
        # bad photos, each refused with its reason, and nothing learned before is lost: no planet
        # on it, the photo of layout 1 again, a file that is not an image
        bad = {2: (str(BOX2 / "test" / "n01.jpg"), "4×4"),
               3: (str(BOX2 / "teach" / "t01.jpg"), "already learned from another layout"),
               4: ({"name": "planet.jpg", "mimeType": "image/jpeg", "buffer": b"not a photo, only words " * 20},
                   "image")}
        if n in bad:
            upload, words = bad[n]
            page.set_input_files("#photo", upload)
            expect(page.locator("#scan-error")).to_contain_text(words, timeout=LEARN_WAIT)
            assert f"{n - 1} of 6 layouts learned" in page.inner_text("main")
            if n == 2:
                shot(page, "refused")
        page.set_input_files("#photo", str(BOX2 / "teach" / f"t{n:02d}.jpg"))   # uploads by itself
        taps += 1
        page.wait_for_selector("#box-learned", timeout=LEARN_WAIT)
        assert f"{n} of 6 layouts learned" in page.inner_text("main")
        assert page.locator(".box-grid.learned img").count() == 16
        if n in (1, 6):
            page.wait_for_load_state("networkidle")
            no_horizontal_scroll(page)
            shot(page, f"learned-{n}")
        page.click("#box-next")
        taps += 1
    assert taps == 13
    page.wait_for_selector("h1:has-text('Scan a planet')")
    truth = json.loads((BOX2 / "test" / "p01.json").read_text())
    page.set_input_files("#photo", str(BOX2 / "test" / "p01.jpg"))
    page.wait_for_selector("h1:has-text('Check the planet')", timeout=60_000)
    review_url = page.url
    shot(page, "review")
    read = [page.input_value(f"#players-0-cells-{p}") for p in range(16)]
    cells = max(quarter_turns([c for row in truth["cells"] for c in row]),   # SPEC: any quarter
                key=lambda turned: sum(a in same_contents(b) for a, b in zip(read, turned)))  # turn is the planet
    # wrong: another picture; a twin (same contents, the other id) is right (SPEC), and which twin
    # the reader names may differ from run to run
    wrong = [p for p in range(16) if read[p] not in same_contents(cells[p])]
    assert len(wrong) <= 8, wrong       # read with the learned box (the shipped art reads none)
    # the player puts right what was misread: tap the square, then the tile's picture (a tile
    # still shown elsewhere is greyed until that square is put right, so go round until done)
    left = list(wrong)
    while left:
        done = []
        for p in left:
            # identical tiles are one choice (either id is right): find the one with its contents
            twins = ",".join(f".choice[value='{t}']" for t in same_contents(cells[p]))
            choice = page.locator(twins).first
            # tap once htmx is quiet: a tap on the squares the last choice's answer was still
            # swapping in did nothing once in CI (cell 12 never lit, 10 s)
            page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
            page.locator(f"[data-cell='{p}']").click()
            expect(page.locator(f"[data-cell='{p}']")).to_have_class(re.compile(r"\bactive\b"))
            page.wait_for_load_state("networkidle")  # the picker is redrawn for that square
            no_horizontal_scroll(page)   # the picker once widened the review past the screen
            if choice.is_enabled():
                choice.click()
                expect(page.locator(f"#players-0-cells-{p}")).to_have_value(
                    re.compile("^(" + "|".join(same_contents(cells[p])) + ")$"))
                done.append(p)
        assert done, f"squares {left} could not be put right"
        left = [p for p in left if p not in done]
    checked = [page.input_value(f"#players-0-cells-{p}") for p in range(16)]
    page.click("#remember")          # teach the box what was put right (or be told there is none)
    page.wait_for_selector("#remembered, #review-error", timeout=LEARN_WAIT)
    corrected = [p for p in range(16) if checked[p] != read[p]]   # twins may have kept their id
    if corrected:
        assert page.locator("#remembered img").count() == len(corrected)
    else:
        assert "corrected no tile" in page.inner_text("#review-error")
    assert [page.input_value(f"#players-0-cells-{p}") for p in range(16)] == checked   # the check is kept
    no_horizontal_scroll(page)
    shot(page, "remembered")
    page.fill("#players-0-name", "Ann")
    page.click("button:has-text('Score this planet')")
    page.wait_for_url("**/tables/**")
    expected = score_request({"players": [{"name": "Ann", "planet": truth}]})["players"][0]
    assert page.inner_text("#player-0-name .total").strip() == str(expected["subtotal"])   # scored alone
    no_horizontal_scroll(page)
    shot(page, "scored")
    page.goto(live_server.url + "/box")
    assert "Scans read with your box" in page.inner_text("#box-in-use")
    assert "6 of 6 layouts" in page.inner_text("#box-in-use")
    # back on the review: put another tile in a square and remember it (the box learns that
    # picture for that tile, as a player fixing a misread tile would teach it)
    page.goto(review_url)
    remember_another_tile(page, 5)
    expect(page.locator("#remembered img")).to_have_count(1, timeout=LEARN_WAIT)
    assert "remembered 1 tile" in page.inner_text("#remembered")
    page.wait_for_load_state("networkidle")
    no_horizontal_scroll(page)
    shot(page, "remembered-one")
    # a blurred photo of the planet: the box keeps its sharper picture of the tile, and says so
    monkeypatch.setattr("vision.tuning.REMEMBER_SHARPER", True)
    import cv2
    blurred = tmp_path / "blurred.jpg"
    cv2.imwrite(str(blurred), cv2.GaussianBlur(cv2.imread(str(BOX2 / "test" / "p01.jpg")), (0, 0), 6))
    page.goto(live_server.url + "/scan")
    page.set_input_files("#photo", str(blurred))
    page.wait_for_selector("h1:has-text('Check the planet')", timeout=60_000)
    remember_another_tile(page, 5)
    expect(page.locator("#kept-sharper img")).to_have_count(1, timeout=LEARN_WAIT)
    assert "kept its own picture of 1 tile" in page.inner_text("#kept-sharper")
    assert page.locator("#remembered").count() == 0
    page.wait_for_load_state("networkidle")
    no_horizontal_scroll(page)
    shot(page, "kept-sharper")
