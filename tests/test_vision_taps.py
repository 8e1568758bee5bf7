"""A box taught partly from tapped corners (issue 8's taps round): when the app cannot find a
layout, the player taps its four corners and ``vision.learn.learn(..., corners=)`` learns it. One
layout learned so must not poison the whole box.

box2-heldout8 (seen): its layouts t01-t05 learned as found, its layout of backs (t06) learned
from corners tapped with a finger's error (``vision.bench.tapped_corners``, ``TAP_SEED``) in its
photo lit by two coloured lamps (magenta from the left, cyan from the right, dimmer at the top;
a light falling across the photo). The light tints every back the same way as they lie, and
``Box.outward`` comparing them in colour found them more alike as they lay than turned upright:
the whole box was taken as lying upright, every exemplar turned wrongly, and its first photos
read 25/128 cells where the box learned automatically reads 65/128."""
from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from vision.bench import TAP_SEED, compare, load_truth, tapped_corners
from vision.box import Box
from vision.learn import learn
from vision.recognize import recognize

SET = Path(__file__).resolve().parent.parent / "sample_photos" / "box2-heldout8"
PHOTOS = ("p01.jpg", "p02.jpg", "p03.jpg")
# Cells right in PHOTOS: with the backs compared in colour 6 (p01 and p02 refused as no planet),
# compared with their light taken out 20 (6, 7, 7); p01-p08: 25 -> 59/128, the box learned
# automatically 65/128 (/tmp scripts, 01:25-01:40 UTC, load 2-4).
FLOOR = 16


def _two_lamps(data: bytes) -> bytes:
    """The photo under a magenta lamp from the left and a cyan one from the right, dimmer at the top."""
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR).astype(np.float32)
    h, w = img.shape[:2]
    x = np.linspace(0, 1, w, dtype=np.float32)[None, :, None]
    gain = (1 - x) * np.array([1.3, 0.5, 1.4], np.float32) + x * np.array([1.4, 1.2, 0.4], np.float32)     # BGR
    fall = np.linspace(0.6, 1.2, h, dtype=np.float32)[:, None, None]
    return cv2.imencode(".jpg", np.clip(img * gain * fall, 0, 255).astype(np.uint8))[1].tobytes()


def _cells_right(box: Box, folder: Path) -> int:
    box.save(folder)
    right = 0
    for name in PHOTOS:
        photo = SET / "test" / name
        reading = recognize(photo.read_bytes(), reference=str(folder))
        if reading.ok:
            right += sum(compare(reading.cells, load_truth(photo.with_suffix(".json")))[0])
    return right


def test_backs_learned_from_tapped_corners_under_a_coloured_light_do_not_turn_the_box_upright(tmp_path):
    box = Box()
    for photo in sorted((SET / "teach").glob("t0[1-5].jpg")):
        lesson = learn(photo.read_bytes(), json.loads(photo.with_suffix(".json").read_text()), box)
        assert lesson.ok, lesson.error
        box = lesson.box
    backs = SET / "teach" / "t06.jpg"
    truth = json.loads(backs.with_suffix(".json").read_text())
    lesson = learn(_two_lamps(backs.read_bytes()), truth, box,
                   corners=tapped_corners(truth, np.random.default_rng(TAP_SEED)))
    assert lesson.ok, lesson.error
    assert len(lesson.box.backs()) == 16
    assert lesson.box.outward()       # the backs' own art says the tiles face outwards
    assert _cells_right(lesson.box, tmp_path) >= FLOOR
