"""A reading's likely tiles: per cell, the tiles the reader found likeliest after the one it read,
which the review's picker shows first (issue 8: fixing a doubtful cell)."""
import json
import re
from pathlib import Path

from scorer.catalog import catalog
from scorer.planet import STACK_AT
from vision.reader import _content
from scorer.web.planet_view import FIRST_ROW
from vision.reading import LIKELY, LIKELY_KEPT, first_row, likely_tiles

ROOT = Path(__file__).resolve().parents[1]
PHOTOS = ROOT / "sample_photos"


def test_likely_tiles_best_first_one_per_look_never_the_tile_read():
    contents = {"A": 1, "A2": 1, "B": 2, "C": 3, "D": 4, "E": 5}.get
    cands = [[("A", 0.9), ("A2", 0.8), ("B", 0.7), ("C", 0.95), ("D", 0.1), ("E", 0.2)]]
    # C best, then A and its twin A2 once, B; the tile read (B's look) is left out
    assert likely_tiles(cands, ["B"], contents, most=3) == [["C", "A", "E"]]
    assert likely_tiles(cands, ["B"], contents) == [["C", "A", "E", "D"][:LIKELY_KEPT]]
    assert likely_tiles(cands, ["C"], contents, most=2) == [["A", "B"]]
    assert likely_tiles([[]], ["A"], contents) == [[]]
    assert likely_tiles(cands, [None], contents, most=6) == [["C", "A", "B", "E", "D"]]


def test_each_cell_of_a_shipped_reading_lists_tiles_its_stack_allows_each_look_once():
    from vision import recognize
    for jpg in sorted(PHOTOS.glob("p0[1-4].jpg")):
        r = recognize(jpg.read_bytes())
        assert r.ok
        for q, (cell, likely) in enumerate(zip(r.cells, r.likely)):
            assert 1 <= len(likely) <= LIKELY_KEPT
            looks = [_content(t) for t in likely]
            assert _content(cell) not in looks and len(set(looks)) == len(looks)
            for t in likely:
                assert (t == "back" and STACK_AT[q] != "character") or catalog()[t].stack == STACK_AT[q]


def _upload(client, data):
    import io
    return client.post("/scan", data={"photo": (io.BytesIO(data), "p.jpg")}, content_type="multipart/form-data")


def _picker(client, review, cells, square):
    form = {f"players-0-cells-{p}": v or "" for p, v in enumerate(cells)}
    form.update({"scan": review.rsplit("/", 1)[1], "cell-0": str(square), "players-0-name": "Ann"})
    return client.post("/scan/score", data=form).get_data(as_text=True)


def test_the_review_picker_shows_the_likely_tiles_first_and_marked(app):
    client, review, path = _scanned(app)
    html = client.get(review).get_data(as_text=True)
    chosen = re.findall(r'<input type="hidden" name="players-0-cells-(\d+)" id="[^"]*" value="([^"]*)"', html)
    cells = [v or None for _, v in sorted(chosen, key=lambda t: int(t[0]))]
    kept = json.loads(path.read_text())
    for square in (0, 5):
        page = _picker(client, review, cells, square)
        buttons = re.findall(r'<button type="submit" class="choice( likely)?" name="tile-0" value="([^"]*)"', page)
        # the first row: the likely tiles, in the reader's order, that no other square has taken
        others = {c for p, c in enumerate(cells) if p != square}
        free = [t for t in kept["likely"][square] if any(i not in others for i in _alike(t))][:FIRST_ROW]
        assert free and [bool(m) for m, _ in buttons[:len(free)]] == [True] * len(free)
        assert not any(m for m, _ in buttons[len(free):])
        assert [_content(v) for _, v in buttons[:len(free)]] == [_content(t) for t in free]
        assert "First: the tiles the photo looks most like here." in page


def test_a_likely_tile_another_square_holds_gives_its_place_in_the_first_row_to_the_next(app):
    client, review, path = _scanned(app)
    kept = json.loads(path.read_text())
    cells, square = list(kept["cells"]), 5
    likely = kept["likely"][square]
    assert len(likely) > FIRST_ROW                  # the reading keeps more than the first row
    taken = next(t for t in likely[:FIRST_ROW] if _alike(t) == [t])   # a tile without a twin
    other = next(p for p in range(16) if p != square and STACK_AT[p] == STACK_AT[square])
    cells[other] = taken                            # the player put it in another square
    page = _picker(client, review, cells, square)
    marked = re.findall(r'<button type="submit" class="choice likely" name="tile-0" value="([^"]*)"', page)
    assert taken not in marked and len(marked) == FIRST_ROW
    others = {c for p, c in enumerate(cells) if p != square}
    assert [_content(v) for v in marked] == [_content(t) for t in likely
                                             if any(i not in others for i in _alike(t))][:FIRST_ROW]


def test_the_first_row_skips_looks_every_tile_of_which_is_taken():
    twins = {"A": ["A", "A2"], "A2": ["A", "A2"], "B": ["B"], "C": ["C"], "D": ["D"], "back": [None]}.get
    assert first_row(["A", "B", "C", "D", "back"], {"B"}, twins) == ["A", "C", "D", "back"]
    assert first_row(["A", "B", "C", "D", "back"], {"A", "B"}, twins) == ["A", "C", "D", "back"]   # A2 is free
    assert first_row(["A", "B", "C", "D", "back"], {"A", "A2", "C"}, twins) == ["B", "D", "back"]
    assert len(first_row(list("BCD") + ["back"] * 3, set(), twins)) == LIKELY


def _alike(tile):
    """The ids that look like ``tile`` in the box (itself too); none for the back."""
    return [None] if tile == "back" else [t.id for t in catalog() if _content(t.id) == _content(tile)]


def _scanned(app):
    """A client, the review address of p03.jpg scanned, and the reading kept for it (its file)."""
    app.config["WTF_CSRF_ENABLED"] = False
    client = app.test_client()
    review = _upload(client, (PHOTOS / "p03.jpg").read_bytes()).location
    return client, review, Path(app.instance_path) / "scans" / review.rsplit("/", 1)[1] / "reading.json"


def test_a_scan_kept_without_likely_tiles_shows_the_picker_as_before(app):
    client, review, path = _scanned(app)
    kept = json.loads(path.read_text())
    path.write_text(json.dumps({"cells": kept["cells"], "doubtful": kept["doubtful"]}))
    page = _picker(client, review, kept["cells"], 5)
    assert 'class="choice likely"' not in page and "First: the tiles" not in page
    assert re.search(r'<button type="submit" class="choice" name="tile-0"', page)


def test_a_kept_reading_damaged_shows_the_picker_without_likely_tiles(app):
    client, review, path = _scanned(app)
    kept = json.loads(path.read_text())
    for damaged in ({**kept, "likely": {"5": ["C01"]}}, {**kept, "likely": "C01"}, [1, 2]):
        path.write_text(json.dumps(damaged))
        page = _picker(client, review, kept["cells"], 5)
        assert 'class="choice likely"' not in page and re.search(r'<button type="submit" class="choice" name="tile-0"', page)


def test_without_javascript_the_review_picker_greys_a_tile_another_square_holds(app):
    client, review, path = _scanned(app)
    cells = list(json.loads(path.read_text())["cells"])
    other = next(p for p in range(16) if p != 5 and STACK_AT[p] == STACK_AT[5] and _alike(cells[p]) == [cells[p]])
    page = _picker(client, review, cells, 5)
    button = re.search(r'<button type="submit" class="choice[^"]*" name="tile-0" value="' + re.escape(cells[other]) + r'"[^>]*>', page)
    assert button and " disabled" in button.group(0)     # the tile lies in another square: not given twice
