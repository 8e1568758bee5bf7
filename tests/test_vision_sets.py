"""Accuracy floors per photo set (issue 8), teaching a box, and a reader that ignores the photo
failing those floors. The photo sets: sample_photos/ (shipped art), sample_photos/box2 (the
second box, tuned on), sample_photos/box2-heldout and box2-heldout2 (held out: another seed and
another art variant each; each learned from its own six teaching photos first) — made by
vision.samples and vision.samples_box, seeded. `python -m vision.bench` prints the same figures."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from vision.bench import FLOORS, compare, floors_missed, learn_box, run
from vision.box import Box, box_from_bytes, load_box
from vision.recognize import Reading

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_photos"
BOX2 = SAMPLES / "box2"
PY = sys.executable

# Per second-box set: its floors and how many planets / photos without one it holds. box2 (tuned
# on) meets issue 8's bar (FLOORS). The held-out sets' floors are what the reader reached on
# them, measured once and not tuned to (`python -m vision.bench`, see vision/README.md):
# box2-heldout 220/256 cells, 8/16 scored; box2-heldout2 249/256 cells, 11/16 scored; both 4/4
# refused and 0 wrong cells not marked doubtful.
BOX_SETS = {
    "box2": (FLOORS, 30, 4),
    "box2-heldout": ({"cells": 0.85, "scored": 0.5, "refused": 1.0, "wrong_not_doubtful": 0}, 16, 4),
    "box2-heldout2": ({"cells": 0.97, "scored": 0.68, "refused": 1.0, "wrong_not_doubtful": 0}, 16, 4),
}


@pytest.fixture(scope="module")
def shipped():
    return run(SAMPLES)


@pytest.fixture(scope="module")
def learned(tmp_path_factory):
    folder = tmp_path_factory.mktemp("box2")
    learn_box(BOX2 / "teach", folder)
    return folder


def test_shipped_art_meets_the_issue_floors(shipped):
    assert shipped["planets"] >= 16 and shipped["empties"] >= 4
    assert floors_missed(shipped) == [], shipped["failures"][:3]


@pytest.mark.parametrize("name", list(BOX_SETS))
def test_second_box_after_learning_meets_its_floors(name, learned, tmp_path):
    floors, planets, empties = BOX_SETS[name]
    folder = learned
    if name != "box2":
        folder = tmp_path / name
        learn_box(SAMPLES / name / "teach", folder)
    r = run(SAMPLES / name / "test", reference=str(folder))
    assert r["planets"] >= planets and r["empties"] >= empties
    assert floors_missed(r, floors) == [], r["failures"][:3]


def _ignoring(reading: Reading):
    def reader(data, reference=None):
        return reading
    return reader


@pytest.mark.parametrize("kind", ["all doubtful", "fixed planet", "refuse all"])
def test_a_reader_that_ignores_the_photo_fails_the_floors(kind):
    fixed = json.loads((SAMPLES / "p01.json").read_text())
    cells = [c for row in fixed["cells"] for c in row]
    reading = {"all doubtful": Reading(ok=True, cells=cells, doubtful=[True] * 16, confidences=[0.0] * 16),
               "fixed planet": Reading(ok=True, cells=cells, doubtful=[False] * 16, confidences=[1.0] * 16),
               "refuse all": Reading(ok=False, error="no")}[kind]
    r = run(SAMPLES, reader=_ignoring(reading))
    assert floors_missed(r) != []
    for floors, _, _ in BOX_SETS.values():
        assert floors_missed(r, floors) != []


def test_learn_command_teaches_and_refuses_a_photo_without_a_layout(tmp_path):
    box = tmp_path / "box"
    t01 = BOX2 / "teach" / "t01.jpg"
    r = subprocess.run([PY, "-m", "vision", "learn", "--reference", box, t01, t01.with_suffix(".json")],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    out = json.loads(r.stdout)
    assert out["box"]["tiles"] == 16 and len(out["learned"][0]["tiles"]) == 16
    before = (box / "box.json").read_bytes()
    empty = SAMPLES / "n01.jpg"
    r = subprocess.run([PY, "-m", "vision", "learn", "--reference", box, empty, t01.with_suffix(".json")],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and "4×4" in json.loads(r.stdout)["error"]
    assert (box / "box.json").read_bytes() == before  # nothing already learned is lost
    r = subprocess.run([PY, "-m", "vision", "recognize", t01, "--reference", box, "--json"],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout
    cells = [c["tile"] for row in json.loads(r.stdout)["cells"] for c in row]
    truth = [c for row in json.loads(t01.with_suffix(".json").read_text())["cells"] for c in row]
    right, _ = compare(cells, truth)  # any quarter turn of the planet is the same planet
    assert sum(right) >= 14


def test_recognize_with_a_folder_that_holds_no_box_exits_2(tmp_path):
    r = subprocess.run([PY, "-m", "vision", "recognize", SAMPLES / "p01.jpg", "--reference", tmp_path],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "No learned box" in json.loads(r.stdout)["error"]


def test_a_box_survives_bytes_and_folder(learned, tmp_path):
    box = load_box(learned)
    assert len(box.tiles()) == 80 and len(box.backs()) == 16 and box.outward()
    again = box_from_bytes(box.to_bytes())
    assert again.samples == box.samples
    again.save(tmp_path)
    assert load_box(tmp_path).samples == box.samples
    assert Box().add([]).tiles() == []



def test_the_diagnosis_finds_the_outline_and_the_turn_the_generator_made(learned):
    """vision.diagnose compares the reader's outline with where the generator put the planet
    (the truth JSON's corners) and lines the cells up by the quarter turn those corners give."""
    from vision.diagnose import _match_corners, diagnose
    rows = {r["photo"]: r for r in diagnose(BOX2, learned)}
    assert len(rows) == 30
    assert all(r["ok"] and r["outline_err"] < 0.4 for r in rows.values())
    p05 = rows["p05.jpg"]        # read from a quarter turn: the corners say which
    assert p05["outline_err"] < 0.25 and p05["turn"] == 1
    assert sum(c["right"] for c in p05["cells"]) == 16
    truth = json.loads((BOX2 / "test" / "p05.json").read_text())["corners"]
    import numpy as np
    q = np.float32(truth)
    cell = float(np.linalg.norm(q[1] - q[0])) / 4
    assert _match_corners(np.roll(q, -1, axis=0), q) == (1, 0.0)
    k, d = _match_corners(q + [cell / 2, 0], q)         # an outline half a cell off is seen so
    assert k == 0 and abs(d / cell - 0.5) < 1e-3


def test_teaching_refuses_the_photo_of_another_layout_and_keeps_the_box():
    from vision.learn import learn
    teach = BOX2 / "teach"
    grid = {n: json.loads((teach / f"{n}.json").read_text()) for n in ("t01", "t02")}
    first = learn((teach / "t01.jpg").read_bytes(), grid["t01"])
    assert first.ok and len(first.box.tiles()) == 16
    again = learn((teach / "t01.jpg").read_bytes(), grid["t02"], first.box)   # t01 taken again
    assert not again.ok and "another layout" in again.error
    assert again.box.samples == first.box.samples
    second = learn((teach / "t02.jpg").read_bytes(), grid["t02"], first.box)
    assert second.ok and len(second.box.tiles()) == 32


def test_a_planet_never_gets_one_id_twice_but_backs_repeat():
    """reader.assign: the best assignment of one stack's four positions, each tile id once (the
    back any number of times) — here every position likes row 7 best."""
    import numpy as np
    from vision.reader import assign
    rows = np.array([3, 5, 7, 9, 11])
    scores = np.array([[.1, .2, .9, .3, .0],
                       [.1, .2, .8, .4, .0],
                       [.3, .1, .7, .2, .0],
                       [.2, .6, .95, .1, .0]])
    picked, total = assign(scores, rows, back_rows=set())
    assert picked.tolist() == [7, 9, 3, 5] and abs(total - 2.2) < 1e-9   # the best of 5×4×3×2
    picked, _ = assign(scores, rows, back_rows={7})        # row 7 a back: it may lie everywhere
    assert picked.tolist() == [7, 7, 7, 7]
