"""A seen teaching photo the automatic path cannot find, for the tests of tapped corners.

Since issue 8's squared-candidate round every seen teaching photo's layout is found, so the
tapped-corners tests make one: box2-heldout7's t01 (layout 1 of the plan) turned by ``TURN``
degrees about its layout's middle (and shrunk to keep the layout inside the photo). A teaching
photo must be upright (its layout within ``LEARN_MAX_TURN`` of level), so no outline of it is
looked for; its tiles are all there, and its true corners are turned with it into the .json
beside it."""
from __future__ import annotations

import atexit
import json
import shutil
import tempfile
from functools import cache
from pathlib import Path

import cv2
import numpy as np

SOURCE = Path(__file__).resolve().parents[1] / "sample_photos" / "box2-heldout7" / "teach" / "t01.jpg"
TURN = 30.0     # degrees, more than a teaching photo may be turned
SHRINK = 0.8    # the turned layout's outline still inside the photo


@cache
def not_found_photo() -> Path:
    """The turned photo (``t01.jpg``, with its ``t01.json``: layout 1's grid, the turned corners),
    made once per test run in a temporary folder (removed at its end)."""
    img = cv2.imread(str(SOURCE))
    truth = json.loads(SOURCE.with_suffix(".json").read_text())
    corners = np.float32(truth["corners"])
    h, w = img.shape[:2]
    m = cv2.getRotationMatrix2D(tuple(map(float, corners.mean(axis=0))), TURN, SHRINK)
    m[:, 2] += np.float32([w / 2, h / 2]) - corners.mean(axis=0)        # the layout to the middle
    fill = tuple(float(v) for v in np.median(img[:h // 8].reshape(-1, 3), axis=0))   # the table's colour
    turned = cv2.warpAffine(img, m, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT, borderValue=fill)
    folder = Path(tempfile.mkdtemp(prefix="not-found-photo-"))
    atexit.register(shutil.rmtree, folder, True)
    out = folder / "t01.jpg"
    cv2.imwrite(str(out), turned, [cv2.IMWRITE_JPEG_QUALITY, 90])
    truth["corners"] = cv2.transform(corners[None], m)[0].round(1).tolist()
    out.with_suffix(".json").write_text(json.dumps(truth))
    return out
