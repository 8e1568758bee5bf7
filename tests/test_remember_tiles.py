""""Remember the tiles I corrected" (issue 8): a scan the player checked teaches the learned box
how the corrected tiles look in that photo, and later photos are read with what it learned. The
photo is read again first and must be the planet as checked; anything else changes nothing."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from scorer.catalog import catalog
from vision.bench import learn_box
from vision.box import Box, load_box
from vision.learn import learn_from_scan
from vision.reader import _content, exemplars_of, exemplars_of_box, read_box

BOX2 = Path(__file__).resolve().parent.parent / "sample_photos" / "box2"
TEST = BOX2 / "test"
MISSING = "K08"     # left out of the box: the reader cannot read it until a scan teaches it


@pytest.fixture(scope="module")
def box(tmp_path_factory) -> Box:
    folder = tmp_path_factory.mktemp("box2")
    learn_box(BOX2 / "teach", folder)
    return load_box(folder)


def truth(name: str, test: Path = TEST) -> list:
    return [c for row in json.loads((test / f"{name}.json").read_text())["cells"] for c in row]


def turned(cells: list, k: int) -> list:
    grid = [cells[r * 4:r * 4 + 4] for r in range(4)]
    for _ in range(k):
        grid = [list(row) for row in zip(*grid[::-1])]
    return [c for row in grid for c in row]


def read(box: Box, name: str, test: Path = TEST, exemplars=None):
    """The reading of a test photo (with ``exemplars``; default: the box's tiles without its
    blend), and its truth turned as the reading is (a planet read from above has no first row:
    any quarter turn is the same planet)."""
    ex = exemplars if exemplars is not None else exemplars_of(box.references(), box.outward())
    reading = read_box((test / f"{name}.jpg").read_bytes(), ex)
    assert reading.ok, reading.error
    return reading, as_read(reading, truth(name, test))


def as_read(reading, cells: list) -> list:
    """The planet ``cells`` turned as ``reading`` reads it (the quarter turn agreeing most)."""
    same = [sum(_content(a) == _content(b) for a, b in zip(reading.cells, turned(cells, k))) for k in range(4)]
    return turned(cells, same.index(max(same)))


def without(box: Box, key: str) -> Box:
    return Box(samples={k: s for k, s in box.samples.items() if k != key})


def test_a_remembered_tile_is_read_in_other_photos(box):
    partial = without(box, MISSING)
    for name in ("p03", "p06", "p14"):                      # MISSING lies in each of these
        reading, _t = read(partial, name)
        assert MISSING not in reading.cells
    reading, right = read(partial, "p01")
    q = right.index(MISSING)
    checked = list(reading.cells)
    checked[q] = MISSING                                    # the player's correction
    lesson = learn_from_scan((TEST / "p01.jpg").read_bytes(), checked, [q], partial)
    assert lesson.ok, lesson.error
    assert [s.key for s in lesson.learned] == [MISSING] and lesson.learned[0].position == q
    assert set(lesson.box.samples) == set(box.samples)      # only the corrected tile was added
    for name in ("p03", "p06", "p14"):
        reading, right = read(lesson.box, name)
        assert reading.cells[right.index(MISSING)] == MISSING, name


def test_what_is_not_the_checked_planet_teaches_nothing(box):
    p01 = (TEST / "p01.jpg").read_bytes()
    other, _t = read(box, "p03")
    lesson = learn_from_scan(p01, list(other.cells), [0, 5], box)     # another planet's reading
    assert not lesson.ok and "Only" in lesson.error and lesson.box is box
    mine, _t = read(box, "p01")
    for data, words in [((TEST / "n01.jpg").read_bytes(), "could not find the planet"),
                        (b"not a photo at all " * 20, "image")]:
        lesson = learn_from_scan(data, list(mine.cells), [0], box)
        assert not lesson.ok and words in lesson.error and lesson.box is box
    bad = list(mine.cells)
    bad[0] = "C01"                                          # a centre tile in a corner: not a planet
    assert not learn_from_scan(p01, bad, [0], box).ok
    assert not learn_from_scan(p01, list(mine.cells), [0], Box()).ok   # no box to add to


def test_positions_outside_the_planet_are_ignored(box):
    mine, _t = read(box, "p01")
    lesson = learn_from_scan((TEST / "p01.jpg").read_bytes(), list(mine.cells), [-1, 16, 99], box)
    assert lesson.ok and lesson.learned == () and lesson.box.samples == box.samples
    assert {t.id for t in catalog()} >= set(box.tiles())


# A box the reader reads poorly (box2-heldout8's art, light and tables: about 8 cells in 10 right).
# Its photo p01 (4 cells read wrong), read again, agrees with its own planet on fewer than SCAN_AGREE
# cells, so that check alone told the player who had checked every cell that this was not the
# planet. (p15 until stop 44: with the taught pictures lit evenly, stages.even_light, it agrees on
# 10; p07 until stop 58: since the search look's block scores, stop 59, it reads 3 cells wrong.)
HARD = BOX2.parent / "box2-heldout8"
HARD_PHOTO = "p01"


@pytest.fixture(scope="module")
def hard_box(tmp_path_factory) -> Box:
    folder = tmp_path_factory.mktemp("box2-heldout8")
    learn_box(HARD / "teach", folder)
    box = load_box(folder)
    assert not box.missing()
    return box


def _hard_photo(box: Box):
    reading, right = read(box, HARD_PHOTO, HARD / "test", exemplars_of_box(box))   # as the scan was read
    return (HARD / "test" / f"{HARD_PHOTO}.jpg").read_bytes(), reading, right


def test_a_poorly_read_planet_the_player_checked_is_remembered(hard_box, monkeypatch):
    data, reading, right = _hard_photo(hard_box)
    wrong = [q for q in range(16) if _content(reading.cells[q]) != _content(right[q])]
    assert len(wrong) >= 4                                   # a planet read poorly
    lesson = learn_from_scan(data, right, wrong, hard_box)
    assert lesson.ok, lesson.error
    taken = lesson.learned + lesson.kept                     # each corrected tile learned, or kept as sharper
    assert sorted(s.position for s in taken) == wrong
    assert [s.name for s in sorted(taken, key=lambda s: s.position)] == [right[q] for q in wrong]
    assert lesson.learned                                    # this photo is sharp: some are its own
    # the check by agreement alone refuses it (why this rule exists)
    monkeypatch.setattr("vision.tuning.SCAN_UNLIKELY", -1)
    refused = learn_from_scan(data, right, wrong, hard_box)
    assert not refused.ok and "Only" in refused.error and refused.box is hard_box


def test_a_checked_planet_that_changes_a_sure_cell_is_not_remembered(hard_box):
    data, reading, right = _hard_photo(hard_box)
    sure = [q for q in range(16) if not reading.doubtful[q] and reading.cells[q] != "back"
            and _content(reading.cells[q]) == _content(right[q])]
    assert sure
    q = sure[0]
    stack = catalog()[right[q]].stack
    other = next(t.id for t in catalog() if t.stack == stack and t.id not in right and _content(t.id) != _content(right[q])
                 and all(_content(t.id) != _content(x) for x in reading.likely[q]))
    changed = list(right)
    changed[q] = other                                       # the reader was sure of another tile here
    wrong = [p for p in range(16) if _content(reading.cells[p]) != _content(changed[p])]
    lesson = learn_from_scan(data, changed, wrong, hard_box)
    assert not lesson.ok and "Only" in lesson.error and lesson.box is hard_box


# A scan is a planet photo: often smaller in the frame, tilted, blurred or JPEG'd. Its picture of a
# tile replaces the box's only when it carries as much drawing (``learn.fine_detail``,
# ``tuning.REMEMBER_SHARPER``): a player who corrects and remembers never blurs the box.

def _jpeg(img, quality: int = 92) -> bytes:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return buf.tobytes()


def _photo(name: str):
    return cv2.imread(str(TEST / f"{name}.jpg"), cv2.IMREAD_COLOR)


def _faces(reading, right: list) -> list:
    """The cells of a reading that are right and show a face."""
    return [q for q in range(16) if right[q] != "back" and _content(reading.cells[q]) == _content(right[q])]


def test_a_blurred_scan_does_not_replace_a_sharper_picture(box, monkeypatch):
    blurred = _jpeg(cv2.GaussianBlur(_photo("p01"), (0, 0), 6))
    reading = read_box(blurred, exemplars_of_box(box))
    assert reading.ok, reading.error
    right = as_read(reading, truth("p01"))
    assert sum(_content(a) == _content(b) for a, b in zip(reading.cells, right)) >= 12
    qs = _faces(reading, right)[:3]
    assert len(qs) == 3
    lesson = learn_from_scan(blurred, right, qs, box)
    assert lesson.ok, lesson.error
    assert lesson.learned == () and sorted(s.position for s in lesson.kept) == qs
    assert lesson.box is box                                # nothing stored: the box as it was
    monkeypatch.setattr("vision.tuning.REMEMBER_SHARPER", False)
    replaced = learn_from_scan(blurred, right, qs, box)     # without the rule: the blurred pictures taken
    assert sorted(s.position for s in replaced.learned) == qs and replaced.kept == ()
    assert all(replaced.box.samples[right[q]].png != box.samples[right[q]].png for q in qs)


def test_a_sharp_scan_replaces_a_washed_out_picture(box):
    data = (TEST / "p01.jpg").read_bytes()
    reading, right = read(box, "p01", exemplars=exemplars_of_box(box))
    q, washed = _faces(reading, right)[0], _faces(reading, right)[1]
    hazy = dict(box.samples)
    for key in (right[q], right[washed]):                   # glare over a teaching photo: the drawing paled
        img = box.samples[key].image().astype(np.float32)
        pale = np.clip(0.35 * img + 0.65 * 235, 0, 255).astype(np.uint8)
        hazy[key] = replace(box.samples[key], png=cv2.imencode(".png", cv2.GaussianBlur(pale, (0, 0), 1.5))[1].tobytes())
    pale_box = Box(samples=hazy)
    lesson = learn_from_scan(data, right, [q], pale_box)
    assert lesson.ok, lesson.error
    assert [s.key for s in lesson.learned] == [right[q]] and lesson.kept == ()
    assert lesson.box.samples[right[q]].png != pale_box.samples[right[q]].png
    assert lesson.box.samples[right[washed]].png == pale_box.samples[right[washed]].png   # not asked: kept
