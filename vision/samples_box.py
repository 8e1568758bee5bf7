"""Photos of the second box (``vision/boxart.py``): its six teaching photos and test photos.

``python -m vision.samples_box OUTDIR [--seed N] [--variant A|B] [--count N] [--empty N] [--big N]``
writes ``OUTDIR/teach/tNN.jpg`` + ``.json`` (the box plan's six layouts, ``vision.plan``:
upright, a few degrees turned and tilted, as a person teaching the box takes them) and
``OUTDIR/test/pNN.jpg`` + ``.json`` (legal planets under every condition of ``vision.samples``:
any angle, tilt up to 30°, loose tiles, shadows, blur, JPEG 60–92, some 12 MP) and
``OUTDIR/test/nNN.jpg`` (no planet: ``{"planet": null}``).

Variant B is the held-out material: the box drawn in its other colours and layout (``boxart``
variant B), and photos taken another way (other tables: paper, floor tiles, linen; a vignette;
motion blur instead of focus blur).
"""
from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import cv2
import numpy as np

from .boxart import tile_as_laid
from .plan import teaching_plan
from .samples import BACKGROUNDS, empty_photo, random_planet, save_jpeg, take_photo


def tile_source(variant: str):
    def tile(name: str, t: int, position: int) -> np.ndarray:
        img = cv2.resize(tile_as_laid(name, position, variant), (t, t), interpolation=cv2.INTER_AREA)
        return np.dstack([img, np.full((t, t), 255, np.uint8)])
    return tile


def _style_b(rng, photo: np.ndarray) -> np.ndarray:
    """The held-out camera: a vignette and motion blur."""
    h, w = photo.shape[:2]
    yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    r = np.hypot((xx - w / 2) / w, (yy - h / 2) / h)
    vig = cv2.resize(1 - rng.uniform(.2, .5) * r ** 2 * 2, (w, h))
    img = photo.astype(np.float32) * vig[..., None]
    n = int(rng.integers(1, 4)) * max(1, w // 1000) * 2 + 1
    k = np.zeros((n, n), np.float32)
    a = rng.uniform(0, math.pi)
    c = n // 2
    cv2.line(k, (int(c - math.cos(a) * c), int(c - math.sin(a) * c)),
             (int(c + math.cos(a) * c), int(c + math.sin(a) * c)), 1.0, 1)
    img = cv2.filter2D(img, -1, k / k.sum())
    return np.clip(img, 0, 255).astype(np.uint8)


def _photo(rng, grid, w, h, variant, truth=None, **kw):
    if variant == "B":  # the held-out tables
        kw["bg"] = str(rng.choice(["paper", "floor", "linen"]))
    photo = take_photo(rng, grid, w, h, tile=tile_source(variant), truth=truth, **kw)
    if variant == "B":
        photo = _style_b(rng, photo)
    return photo


def make_teaching(out: Path, rng, variant: str) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for i, grid in enumerate(teaching_plan()):
        photo = _photo(rng, grid, 1600, 1200, variant, hand=True, angle=float(rng.uniform(-4, 4)),
                       tilt=float(rng.uniform(0, 8)), fill=float(rng.uniform(.6, .85)),
                       bg=BACKGROUNDS[i % 3], light=float(rng.uniform(.1, .35)), blur=0.0,
                       noise=float(rng.uniform(1, 3)), loose=.35)
        path = out / f"t{i + 1:02d}.jpg"
        save_jpeg(path, photo, 88)
        (out / f"t{i + 1:02d}.json").write_text(json.dumps(grid) + "\n")
        written.append(path)
    return written


def make_tests(out: Path, rng, variant: str, count: int, empty: int, big: int) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for i in range(count):
        is_big = i < big
        w, h = (4000, 3000) if is_big else ((1280, 960) if i % 3 else (960, 1280))
        grid = random_planet(rng, backs=True if i % 4 == 1 else None)
        angle = float(rng.choice([0, 90, 180, 270])) + (rng.uniform(-180, 180) if i % 3 == 0 else rng.uniform(-4, 4))
        fill = float(rng.uniform(.3, .9)) if i % 3 else float(rng.uniform(.3, .7))
        truth: dict = {}
        photo = _photo(rng, grid, w, h, variant, truth, hand=(i % 5 != 4), angle=angle,
                       tilt=float(rng.uniform(0, 30)) if i % 2 == 0 else float(rng.uniform(0, 10)),
                       fill=fill, bg=BACKGROUNDS[i % 5] if not is_big else "stone",
                       light=float(rng.uniform(.1, .7)), blur=float(rng.choice([0, 0, .8, 1.5, 2.5])) * (w / 1600),
                       noise=float(rng.uniform(1, 6)))
        q = int(rng.integers(60, 70)) if is_big else int(rng.integers(60, 93))
        path = out / f"p{i + 1:02d}.jpg"
        save_jpeg(path, photo, q, int(rng.choice([6, 8, 3])) if is_big else 1)
        (out / f"p{i + 1:02d}.json").write_text(json.dumps({**grid, **truth}) + "\n")
        written.append(path)
    kinds = ("wood", "blank", "noise", "face", "text", "cloth", "felt")
    for i in range(empty):
        path = out / f"n{i + 1:02d}.jpg"
        save_jpeg(path, empty_photo(rng, 1280, 960, kinds[i % len(kinds)]), 80)
        (out / f"n{i + 1:02d}.json").write_text(json.dumps({"planet": None}) + "\n")
        written.append(path)
    return written


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m vision.samples_box")
    ap.add_argument("outdir")
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--variant", choices=("A", "B"), default="A")
    ap.add_argument("--count", type=int, default=32)
    ap.add_argument("--empty", type=int, default=7)
    ap.add_argument("--big", type=int, default=2)
    a = ap.parse_args(argv)
    rng = np.random.default_rng(a.seed)
    out = Path(a.outdir)
    for p in make_teaching(out / "teach", rng, a.variant) + make_tests(out / "test", rng, a.variant, a.count, a.empty, a.big):
        print(p)


if __name__ == "__main__":
    main()
