"""Synthetic test photos of planets on a table, with their truth.

``python -m vision.samples OUTDIR [--seed N] [--count N] [--empty N] [--small N]`` writes
``pNN.jpg`` + ``pNN.json`` (the planet grid, SPEC §2) and ``nNN.jpg`` + ``nNN.json``
(``{"planet": null}``: photos without a planet).

Each photo varies what a phone photo of a hand-laid planet varies: tiles shifted and turned a
little with gaps (or laid edge to edge, as ``python -m vision render`` draws them), the whole
planet turned by any angle, the camera tilted up to 30°, the planet filling 30–90% of the
frame's short side, uneven light and a shadow, blur, sensor noise, JPEG quality, table
backgrounds (wood, cloth, felt, noise, stone). Photos are the size phones save (7–12 MP, as
soft at the pixel as a phone's lens and noise reduction leave them), some stored sideways with
an EXIF orientation tag. Truths are legal planets: built by taking tiles in a random order, so
baobabs flip face down in threes as in the game.
"""
from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from .paths import reference_path


# --------------------------------------------------------------------------------------------
# planets


def random_planet(rng: np.random.Generator, backs: bool | None = None) -> dict:
    """A legal finished planet grid: tiles taken in a random order, baobab flips applied."""
    from scorer.catalog import catalog
    from scorer.planet import Planet
    cat = catalog()
    while True:
        chosen = []
        for stack in ("character", "center", "uphill", "downhill"):
            ids = [t.id for t in cat.stack(stack)]
            chosen += list(rng.choice(ids, 4, replace=False))
        n_baobab = sum(cat[t].has_baobab for t in chosen)
        if backs is True and n_baobab < 3:
            continue
        if backs is False and n_baobab >= 3:
            continue
        break
    order = list(rng.permutation(chosen))
    planet = Planet()
    for tile_id in order:
        stack = cat[tile_id].stack
        free = planet.free_positions(stack)
        planet, _ = planet.place(str(tile_id), int(rng.choice(free)), cat=cat)
    return planet.as_grid()


# --------------------------------------------------------------------------------------------
# tables


def line_kernel(n: int, angle: float) -> np.ndarray:
    """An n×n kernel of one straight line through its middle at ``angle`` (radians), summing to 1: a
    motion blur's or a brush stroke's path (``cv2.filter2D``)."""
    k = np.zeros((n, n), np.float32)
    c = n // 2
    cv2.line(k, (int(c - math.cos(angle) * c), int(c - math.sin(angle) * c)),
             (int(c + math.cos(angle) * c), int(c + math.sin(angle) * c)), 1.0, 1)
    return k / k.sum()


def _smooth_noise(rng, h, w, scale):
    small = rng.standard_normal((max(2, h // scale), max(2, w // scale))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def table(rng, h, w, kind: str) -> np.ndarray:
    """A BGR uint8 table texture."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "wood":
        base = np.array(rng.choice([[40, 80, 140], [60, 110, 170], [30, 55, 95], [90, 140, 190]]), np.float32)
        a = rng.uniform(0, math.pi)
        u = xx * math.cos(a) + yy * math.sin(a)
        warp = _smooth_noise(rng, h, w, max(8, w // 12)) * w / 40
        grain = np.sin((u + warp) / (w / rng.uniform(60, 160)) * 2 * math.pi)
        fine = _smooth_noise(rng, h, w, 3) * .3
        f = 1 + .18 * grain + .08 * fine
        img = base[None, None, :] * f[..., None]
    elif kind == "cloth":
        c1 = np.array(rng.integers(40, 230, 3), np.float32)
        c2 = np.array(rng.integers(40, 230, 3), np.float32)
        period = rng.uniform(w / 60, w / 15)
        a = rng.uniform(0, math.pi / 2)
        u = xx * math.cos(a) + yy * math.sin(a)
        v = -xx * math.sin(a) + yy * math.cos(a)
        sx = (np.sin(u / period * 2 * math.pi) > 0).astype(np.float32)
        sy = (np.sin(v / period * 2 * math.pi) > 0).astype(np.float32)
        m = (sx + sy) / 2
        img = c1[None, None] * m[..., None] + c2[None, None] * (1 - m[..., None])
        weave = np.sin(u / 1.5) * np.sin(v / 1.5) * 12
        img = img + weave[..., None]
    elif kind == "felt":
        base = np.array(rng.choice([[40, 100, 30], [90, 40, 30], [60, 60, 60], [120, 70, 50]]), np.float32)
        img = base[None, None] * (1 + .06 * _smooth_noise(rng, h, w, 4)[..., None])
    elif kind == "noise":
        img = rng.uniform(0, 255, (h // 2 + 1, w // 2 + 1, 3)).astype(np.float32)
        img = cv2.resize(img, (w, h), interpolation=cv2.INTER_NEAREST)
    elif kind in ("paper", "floor", "linen", "colour", "busy", "dark", "slats", "terrazzo", "concrete",
                  "cork", "stripes", "granite", "bamboo", "denim", "leather", "grass", "gravel", "rug",
                  "sand", "towel", "lino", "velvet", "parquet", "tray", "deskmat", "kraft", "oak",
                  "laminate", "moquette", "traytable", "glass", "perforated", "zinc"):  # the held-out tables (vision.samples_box)
        return table_b(rng, h, w, kind)
    else:  # stone / marble
        base = np.array(rng.integers(150, 235, 3), np.float32)
        vein = np.abs(np.sin(_smooth_noise(rng, h, w, max(8, w // 10)) * 4))
        img = base[None, None] * (.75 + .25 * vein[..., None])
    return np.clip(img, 0, 255).astype(np.uint8)


# --------------------------------------------------------------------------------------------
# laying tiles and taking the photo


def _tile_rgba(name: str, t: int, position: int = 0) -> np.ndarray:
    """A shipped-art tile (upright at every position) as a BGRA square of side ``t``."""
    img = cv2.imread(str(reference_path(name)), cv2.IMREAD_COLOR)
    img = cv2.resize(img, (t, t), interpolation=cv2.INTER_AREA)
    return np.dstack([img, np.full((t, t), 255, np.uint8)])


def lay_planet(rng, grid: dict, t: int, hand: bool, tile=_tile_rgba, loose: float = 1.0) -> tuple[np.ndarray, float]:
    """The planet laid on a transparent plane (BGRA); return it and the margin in pixels.
    ``tile(name, t, position)`` draws one tile as it lies there; ``loose`` scales the gaps,
    shifts and turns of hand-laid tiles."""
    cells = [c for row in grid["cells"] for c in row]
    gap = rng.uniform(0.0, 0.08) * t * loose if hand else 0.0
    pitch = t + gap
    margin = int(t * .4)
    side = int(4 * pitch + 2 * margin)
    plane = np.zeros((side, side, 4), np.uint8)
    for p, c in enumerate(cells):
        if c is None:
            continue
        r, k = divmod(p, 4)
        tile_img = tile(c, t, p)
        cx = margin + (k + .5) * pitch
        cy = margin + (r + .5) * pitch
        ang = rng.uniform(-6, 6) * loose if hand else 0.0
        if hand:
            cx += rng.uniform(-.05, .05) * t * loose
            cy += rng.uniform(-.05, .05) * t * loose
        M = cv2.getRotationMatrix2D((t / 2, t / 2), ang, 1.0)
        M[0, 2] += cx - t / 2
        M[1, 2] += cy - t / 2
        warped = cv2.warpAffine(tile_img, M, (side, side), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
        a = warped[..., 3:4].astype(np.float32) / 255
        plane[..., :3] = (warped[..., :3] * a + plane[..., :3] * (1 - a)).astype(np.uint8)
        plane[..., 3] = np.maximum(plane[..., 3], warped[..., 3])
    return plane, margin


def camera_quad(rng, w, h, side_px, angle, tilt, fill, lens=None):
    """Where the planet's square lands in the photo: rotation ``angle`` (degrees), camera tilt,
    scaled so the planet spans ``fill`` of the frame's short side. ``lens``: the camera's view
    across the frame's short side (degrees); the camera stands where that lens sees the planet
    fill ``fill`` of it (``camera_distance``), so a small planet is seen from farther away, with
    less perspective, as a phone sees it. None: 2 planet sides away whatever the fill (the
    committed sample sets were made so; a 53° lens, a phone's main camera, at a fill of 0.5)."""
    s = 1.0
    pts = np.array([[-s, -s], [s, -s], [s, s], [-s, s]], np.float64)
    th = math.radians(angle)
    R2 = np.array([[math.cos(th), -math.sin(th)], [math.sin(th), math.cos(th)]])
    pts = pts @ R2.T
    ph = math.radians(tilt)
    az = rng.uniform(0, 2 * math.pi)  # direction of the tilt
    ax = np.array([math.cos(az), math.sin(az), 0.0])
    K = np.array([[0, -ax[2], ax[1]], [ax[2], 0, -ax[0]], [-ax[1], ax[0], 0]])
    R3 = np.eye(3) + math.sin(ph) * K + (1 - math.cos(ph)) * K @ K
    P = np.c_[pts, np.zeros(4)] @ R3.T
    P[:, 2] += camera_distance(fill, lens)
    uv = P[:, :2] / P[:, 2:3]
    uv -= uv.mean(axis=0)
    ext = (uv.max(axis=0) - uv.min(axis=0)).max()
    uv *= fill * min(w, h) / ext
    lo, hi = uv.min(axis=0), uv.max(axis=0)
    room_x = (w - (hi[0] - lo[0])) / 2
    room_y = (h - (hi[1] - lo[1])) / 2
    cx = w / 2 - (lo[0] + hi[0]) / 2 + rng.uniform(-.8, .8) * max(0, room_x - 4)
    cy = h / 2 - (lo[1] + hi[1]) / 2 + rng.uniform(-.8, .8) * max(0, room_y - 4)
    return (uv + [cx, cy]).astype(np.float32)


def camera_distance(fill: float, lens: float | None) -> float:
    """How far the camera stands from the planet's middle, in half planet sides: 4 (2 sides)
    without ``lens``; else where a lens of view ``lens`` (degrees across the frame's short side)
    sees a planet facing it fill ``fill`` of that side (fill = 1 / (distance · tan(lens / 2)))."""
    if lens is None:
        return 4.0
    return 1.0 / (fill * math.tan(math.radians(lens) / 2))


PHONE_LENS = 53.0   # a phone's main camera (26 mm equivalent) across a 4:3 photo's short side, degrees


def lighting(rng, h, w, strength):
    """A smooth multiplicative light field with a soft shadow."""
    yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    a = rng.uniform(0, 2 * math.pi)
    g = (xx * math.cos(a) + yy * math.sin(a)) / max(w, h)
    field = 1 + strength * (g - g.mean()) * 1.6 + strength * .3 * _smooth_noise(rng, *g.shape, max(2, g.shape[1] // 4))
    if rng.random() < .7:  # a shadow: a soft dark polygon (a hand, a phone, a lamp)
        mask = np.zeros(g.shape, np.float32)
        cxy = rng.uniform([0, 0], [g.shape[1], g.shape[0]])
        pts = (cxy + rng.normal(0, g.shape[1] / 4, (5, 2))).astype(np.int32)
        cv2.fillPoly(mask, [cv2.convexHull(pts)], 1.0)
        k = int(g.shape[1] / 20) * 2 + 1
        mask = cv2.GaussianBlur(mask, (k, k), 0)
        field *= 1 - rng.uniform(.25, .5) * mask
    field = cv2.resize(field, (w, h), interpolation=cv2.INTER_LINEAR)
    return np.clip(field, .3, 1.6)


def table_b(rng, h, w, kind: str) -> np.ndarray:
    """The held-out tables: paper, floor tiles, linen, a coloured laminate, a cluttered table, a
    near-black one, a garden table of weathered slats, terrazzo, bare concrete, a cork board, a
    striped tablecloth, dark speckled granite, a bamboo mat, denim, brown leather, a lawn, gravel,
    a woven rug, beach sand, a terry beach towel, marbled linoleum, dark velvet, herringbone parquet,
    a glossy black tray, a grey desk mat, a kraft-paper blotter, pale oak, a train's speckled laminate
    table, a train seat's patterned moquette, a train's fold-down grey tray, a café terrace's green glass
    table top over paving, a painted steel bistro table perforated with round holes, a brushed zinc top."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "paper":
        img = np.full((h, w, 3), rng.integers(200, 240), np.float32) + rng.normal(0, 4, (h, w, 1))
    elif kind == "floor":
        p = rng.uniform(w / 10, w / 4)
        lines = ((xx % p) < p * .03) | ((yy % p) < p * .03)
        img = np.where(lines[..., None], 90.0, np.array(rng.integers(120, 200, 3), np.float32))
    elif kind == "colour":  # a strongly coloured plain table (a red, teal or yellow laminate)
        base = np.array(rng.choice([[40, 40, 190], [150, 140, 30], [40, 190, 220], [150, 60, 150]]), np.float32)
        img = base[None, None] * (1 + .05 * _smooth_noise(rng, h, w, 6)[..., None])
    elif kind == "dark":  # a near-black table (slate or dark-stained wood), darker than any tile's rim
        base = np.array(rng.integers(12, 34, 3), np.float32)
        img = base[None, None] * (1 + .12 * _smooth_noise(rng, h, w, max(4, w // 40))[..., None])
    elif kind == "slats":  # a garden table: weathered grey-brown slats with dark gaps between them
        base = np.array(rng.choice([[110, 120, 128], [96, 112, 130], [120, 128, 132]]), np.float32)
        a = rng.uniform(0, math.pi)
        u = xx * math.cos(a) + yy * math.sin(a)
        v = -xx * math.sin(a) + yy * math.cos(a)
        p = rng.uniform(w / 9, w / 5)
        gap = (u % p) < p * rng.uniform(.06, .12)
        grain = np.sin((v + _smooth_noise(rng, h, w, max(8, w // 20)) * w / 60) / (w / 90) * 2 * math.pi)
        slat = np.floor(u / p)
        tone = 1 + .06 * np.sin(slat * 2.3)
        f = tone * (1 + .07 * grain + .05 * _smooth_noise(rng, h, w, 3))
        img = np.where(gap[..., None], base * .25, base[None, None] * f[..., None])
    elif kind == "terrazzo":  # pale cement speckled with chips of stone of a few colours
        img = np.empty((h, w, 3), np.float32)
        img[:] = np.array(rng.integers(190, 225, 3), np.float32)
        chips = [np.array(c, np.float32) for c in ([70, 70, 160], [60, 120, 60], [40, 40, 40], [150, 170, 200])]
        for _ in range(int(h * w / 600)):
            c = chips[int(rng.integers(len(chips)))]
            x0, y0 = int(rng.uniform(0, w)), int(rng.uniform(0, h))
            r = max(1, int(rng.uniform(.002, .01) * w))
            cv2.ellipse(img, (x0, y0), (r, max(1, int(r * rng.uniform(.5, 1)))), float(rng.uniform(0, 180)), 0, 360,
                        tuple(float(v) for v in c), -1)
    elif kind == "concrete":  # bare grey concrete: blotchy, with small dark pores
        base = np.array(rng.integers(120, 165), np.float32)
        img = np.empty((h, w, 3), np.float32)
        img[:] = base * (1 + .08 * _smooth_noise(rng, h, w, max(8, w // 15)) + .04 * _smooth_noise(rng, h, w, 3))[..., None]
        img *= np.array([1.0, 1.0, .97], np.float32)
        pores = rng.random((h, w)) < .004
        img[pores] *= .5
    elif kind == "cork":  # a cork board or mat: warm brown, finely speckled with darker and lighter grains
        base = np.array(rng.choice([[70, 120, 170], [60, 110, 160], [80, 130, 176]]), np.float32)
        speck = cv2.resize(rng.standard_normal((h // 2 + 1, w // 2 + 1)).astype(np.float32), (w, h))
        img = base[None, None] * (1 + .16 * speck + .06 * _smooth_noise(rng, h, w, max(8, w // 25)))[..., None]
    elif kind == "stripes":  # a striped tablecloth: broad bands of two colours with a thin line between
        c1 = np.array(rng.choice([[230, 232, 236], [200, 226, 240]]), np.float32)
        c2 = np.array(rng.choice([[150, 90, 40], [60, 60, 170], [70, 140, 80]]), np.float32)
        a = rng.uniform(0, math.pi)
        u = xx * math.cos(a) + yy * math.sin(a) + _smooth_noise(rng, h, w, max(8, w // 8)) * w / 200
        p = rng.uniform(w / 14, w / 7)
        ph = np.mod(u, p) / p
        img = np.where((ph < .5)[..., None], c1, c2).astype(np.float32)
        img[np.abs(ph - .75) < .03] *= .6
    elif kind == "granite":  # dark speckled granite: near black with grey and white flecks
        img = np.empty((h, w, 3), np.float32)
        img[:] = np.array(rng.integers(30, 52, 3), np.float32)
        fleck = cv2.resize(rng.random((h // 3 + 1, w // 3 + 1)).astype(np.float32), (w, h), interpolation=cv2.INTER_NEAREST)
        img[fleck > .85] = 110
        img[fleck > .97] = 200
    elif kind == "bamboo":  # a bamboo place mat: narrow pale strips with dark seams and nodes
        base = np.array(rng.choice([[120, 180, 200], [110, 170, 196]]), np.float32)
        a = rng.uniform(0, math.pi)
        u = xx * math.cos(a) + yy * math.sin(a)
        v = -xx * math.sin(a) + yy * math.cos(a)
        p = rng.uniform(w / 60, w / 35)
        strip = np.floor(u / p)
        seam = (u % p) < p * .12
        node = np.abs(np.mod(v / (w / 6) + .37 * strip, 1.0) - .5) < .015
        f = (1 + .05 * np.sin(strip * 1.7)) * (1 + .03 * _smooth_noise(rng, h, w, 4))
        img = base[None, None] * f[..., None]
        img[seam | node] *= .6
    elif kind == "denim":  # blue denim: a fine diagonal twill, faded in blotches
        base = np.array(rng.choice([[120, 70, 40], [140, 90, 50]]), np.float32)
        twill = np.sin((xx + yy) / max(1.5, w / 700) * math.pi)
        fade = _smooth_noise(rng, h, w, max(6, w // 20))
        img = base[None, None] * (1 + .12 * twill + .15 * fade)[..., None]
    elif kind == "leather":  # brown leather: warm, soft blotches and fine creases
        base = np.array(rng.choice([[40, 70, 120], [30, 60, 100]]), np.float32)
        crease = np.abs(_smooth_noise(rng, h, w, max(10, w // 40))) < .04
        img = base[None, None] * (1 + .1 * _smooth_noise(rng, h, w, max(6, w // 12)))[..., None]
        img[crease] *= .8
    elif kind == "grass":  # a lawn: short blades in greens and yellowed tips, darker between
        base = np.array(rng.choice([[40, 120, 60], [50, 130, 80], [30, 100, 70]]), np.float32)
        blade = cv2.resize(rng.standard_normal((h // 3 + 1, w // 6 + 1)).astype(np.float32), (w, h))
        patch = _smooth_noise(rng, h, w, max(8, w // 10))
        img = base[None, None] * (1 + .25 * blade + .15 * patch)[..., None]
        img[blade > 1.6] = (90, 190, 200)
    elif kind == "gravel":  # pale gravel: small round stones of greys and buffs with dark gaps
        img = np.empty((h, w, 3), np.float32)
        img[:] = (70, 80, 90)
        for _ in range(int(h * w / 60)):
            c = tuple(float(v) for v in np.array(rng.choice([[170, 180, 190], [140, 160, 180], [120, 130, 140],
                                                                 [190, 200, 205]]), np.float32) * rng.uniform(.8, 1.1))
            cv2.ellipse(img, (int(rng.integers(0, w)), int(rng.integers(0, h))),
                        (int(rng.integers(2, 5)), int(rng.integers(2, 4))), float(rng.uniform(0, 180)), 0, 360, c, -1)
    elif kind == "rug":  # a woven rug: rows of small diamonds in two colours on a third, a fine weave
        c0 = np.array(rng.choice([[40, 40, 140], [60, 90, 150], [90, 60, 50]]), np.float32)
        c1 = np.array(rng.choice([[200, 210, 220], [120, 180, 210]]), np.float32)
        p = rng.uniform(w / 40, w / 20)
        a = rng.uniform(0, math.pi / 2)
        u = xx * math.cos(a) + yy * math.sin(a)
        v = -xx * math.sin(a) + yy * math.cos(a)
        dia = (np.abs(np.mod(u / p, 1.0) - .5) + np.abs(np.mod(v / p, 1.0) - .5)) < .3
        img = np.where(dia[..., None], c1, c0).astype(np.float32)
        img *= (1 + .06 * np.sin(u / 1.3) * np.sin(v / 1.3))[..., None]
    elif kind == "sand":  # beach sand: pale warm grains, wind ripples, a few darker shell bits
        base = np.array(rng.choice([[150, 196, 222], [140, 184, 214], [160, 200, 220]]), np.float32)
        a = rng.uniform(0, math.pi)
        u = xx * math.cos(a) + yy * math.sin(a) + _smooth_noise(rng, h, w, max(8, w // 10)) * w / 30
        ripple = np.sin(u / (w / rng.uniform(25, 45)) * 2 * math.pi)
        grain = cv2.resize(rng.standard_normal((h // 2 + 1, w // 2 + 1)).astype(np.float32), (w, h))
        img = base[None, None] * (1 + .06 * ripple + .07 * grain)[..., None]
        img[grain > 2.6] *= .55
    elif kind == "towel":  # a terry beach towel: broad stripes of bright colours, a looped pile
        cols = [np.array(c, np.float32) for c in ([60, 160, 240], [220, 120, 40], [240, 240, 236], [90, 60, 200])]
        a = rng.uniform(0, math.pi)
        u = xx * math.cos(a) + yy * math.sin(a)
        p = rng.uniform(w / 10, w / 5)
        band = (np.floor(u / p).astype(np.int64) + int(rng.integers(4))) % len(cols)
        img = np.stack(cols)[band]
        pile = cv2.resize(rng.standard_normal((h // 2 + 1, w // 2 + 1)).astype(np.float32), (w, h))
        img *= (1 + .1 * pile)[..., None]
    elif kind == "lino":  # marbled linoleum: a mid colour with soft streaks of lighter and darker
        base = np.array(rng.choice([[120, 150, 110], [110, 120, 150], [150, 150, 150]]), np.float32)
        streak = np.sin(_smooth_noise(rng, h, w, max(8, w // 8)) * 5 + xx / (w / 7))
        img = base[None, None] * (1 + .12 * streak + .03 * _smooth_noise(rng, h, w, 3))[..., None]
    elif kind == "velvet":  # dark velvet: a deep colour with a soft sheen where the pile turns
        base = np.array(rng.choice([[70, 20, 40], [30, 60, 20], [90, 30, 30]]), np.float32)
        sheen = _smooth_noise(rng, h, w, max(4, w // 200))
        img = base[None, None] * (1 + .35 * np.tanh(sheen)[..., None])
    elif kind == "parquet":  # herringbone parquet: short planks at ±45°, each its own shade
        p = rng.uniform(w / 30, w / 18)
        u, v = (xx + yy) / p, (xx - yy) / p
        col = np.floor(u / 2)
        along = np.where(np.mod(col, 2) == 0, v, v + 1.5)
        plank = np.floor(along / 3) * 7 + col * 13
        shade = .8 + .4 * np.mod(plank * .618, 1.0)
        seam = (np.mod(u, 2.0) < .06) | (np.mod(along, 3.0) < .06)
        base = np.array([60, 110, 160], np.float32)
        img = base[None, None] * shade[..., None]
        img[seam] *= .5
    elif kind == "tray":  # a glossy black tray: near black with soft reflections of the room
        img = np.full((h, w, 3), float(rng.integers(14, 30)), np.float32)
        img += 60 * np.clip(_smooth_noise(rng, h, w, max(8, w // 3)), 0, None)[..., None] ** 2
    elif kind == "deskmat":  # a grey felt desk mat
        img = np.full((h, w, 3), float(rng.integers(90, 130)), np.float32) + rng.normal(0, 5, (h, w, 1))
    elif kind == "kraft":  # a kraft-paper blotter: light brown with fibres
        base = np.array([110, 160, 196], np.float32)
        fib = cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), 1.5)
        img = base[None, None] * (1 + .25 * fib + .05 * _smooth_noise(rng, h, w, 5))[..., None]
    elif kind == "oak":  # pale oak: straight fine grain
        a = rng.uniform(0, math.pi)
        u = xx * math.cos(a) + yy * math.sin(a)
        grain = np.sin(u / rng.uniform(3, 6) + 3 * _smooth_noise(rng, h, w, max(6, w // 60)))
        img = np.array([150, 190, 215], np.float32)[None, None] * (1 + .06 * grain)[..., None]
    elif kind == "laminate":  # a train's table: grey-blue laminate finely speckled lighter and darker
        img = np.array([150, 140, 126], np.float32)[None, None] * (1 + .04 * _smooth_noise(rng, h, w, 6))[..., None]
        fleck = rng.random((h, w))
        img[fleck < .04] *= .7
        img[fleck > .97] = img[fleck > .97] * .6 + 90
    elif kind == "moquette":  # a train seat's moquette: small coloured shapes repeating on deep blue, a pile
        p = rng.uniform(w / 28, w / 16)
        u, v = np.mod(xx / p, 1.0), np.mod(yy / p, 1.0)
        odd = (np.floor(xx / p) + np.floor(yy / p)) % 2 == 1
        img = np.empty((h, w, 3), np.float32)
        img[:] = (96, 40, 24)
        img[(np.abs(u - .5) + np.abs(v - .5) < .22) & odd] = (40, 60, 200)     # red diamonds
        img[(np.abs(u - .5) < .32) & (np.abs(v - .5) < .07) & ~odd] = (40, 190, 230)  # yellow bars
        img[np.hypot(u - .1, v - .1) < .07] = (170, 160, 40)                  # teal dots
        img *= (1 + .08 * _smooth_noise(rng, h, w, 2))[..., None]
    elif kind == "traytable":  # a train's fold-down tray: pale grey plastic, a fine stipple, a cup's recess
        img = np.full((h, w, 3), float(rng.integers(150, 185)), np.float32) * np.array([1.02, 1.0, .97], np.float32)
        img *= (1 + .05 * _smooth_noise(rng, h, w, 2))[..., None]
        cx, cy, r = rng.uniform(.1, .9) * w, rng.uniform(.1, .9) * h, rng.uniform(.06, .1) * min(w, h)
        ring = np.abs(np.hypot(xx - cx, yy - cy) - r) < max(2.0, r * .06)
        img[ring] *= .72
    elif kind == "glass":  # a terrace's glass table top: dim paving slabs seen through green-tinted glass, faint sheen
        p = rng.uniform(w / 12, w / 7)
        a = rng.uniform(0, math.pi / 2)
        u, v = xx * math.cos(a) + yy * math.sin(a), -xx * math.sin(a) + yy * math.cos(a)
        slab = np.floor(u / p) * 7 + np.floor(v / p + .5 * (np.floor(u / p) % 2)) * 3
        img = np.full((h, w, 3), 70.0, np.float32) * (.8 + .4 * np.mod(slab * .618, 1.0))[..., None]
        joint = (np.mod(u, p) < p * .03) | (np.mod(v / p + .5 * (np.floor(u / p) % 2), 1.0) < .03)
        img[joint] *= .45
        img = cv2.GaussianBlur(img, (0, 0), max(1.0, w / 300))  # below the glass: out of focus
        img = img * np.array([.95, 1.04, .88], np.float32) + np.array([12, 18, 10], np.float32)
        img += 30 * np.clip(_smooth_noise(rng, h, w, max(8, w // 3)), 0, None)[..., None] ** 2
    elif kind == "perforated":  # a painted steel bistro table: enamel perforated with round holes on a grid
        base = np.array(rng.choice([[60, 110, 40], [40, 40, 150], [190, 205, 215], [50, 60, 60]]), np.float32)
        p = rng.uniform(w / 40, w / 24)
        a = rng.uniform(0, math.pi / 2)
        u, v = xx * math.cos(a) + yy * math.sin(a), -xx * math.sin(a) + yy * math.cos(a)
        hole = np.hypot(np.mod(u, p) - p / 2, np.mod(v, p) - p / 2) < p * .28
        img = base[None, None] * (1 + .08 * _smooth_noise(rng, h, w, 5))[..., None]
        img[hole] = 22
    elif kind == "zinc":  # a brushed zinc bistro top: grey metal brushed one way, a few faint rings
        a = rng.uniform(0, math.pi)
        n = cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), 1.0)
        brushed = cv2.filter2D(n, -1, line_kernel(max(3, int(w / 40)) | 1, a))
        img = np.full((h, w, 3), float(rng.integers(140, 175)), np.float32) * np.array([1.03, 1.0, .96], np.float32)
        img *= (1 + .25 * brushed + .05 * _smooth_noise(rng, h, w, 4))[..., None]
        for _ in range(int(rng.integers(1, 4))):
            cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(.04, .08) * min(w, h)
            img[np.abs(np.hypot(xx - cx, yy - cy) - r) < max(1.5, r * .04)] *= .85
    elif kind == "busy":  # a cluttered table: papers, magazines and coasters of any colour
        img = np.empty((h, w, 3), np.float32)
        img[:] = np.array(rng.integers(60, 200, 3), np.float32)
        for _ in range(int(rng.integers(12, 22))):
            c = tuple(float(v) for v in rng.integers(20, 250, 3))
            x0, y0 = int(rng.uniform(-.2, 1) * w), int(rng.uniform(-.2, 1) * h)
            if rng.random() < .3:
                cv2.circle(img, (x0, y0), int(rng.uniform(.03, .09) * w), c, -1)
            else:
                box = ((x0, y0), (rng.uniform(.1, .4) * w, rng.uniform(.1, .4) * h), rng.uniform(0, 180))
                cv2.fillPoly(img, [cv2.boxPoints(box).astype(np.int32)], c)
                if rng.random() < .5:  # printed lines on it
                    for k in range(int(rng.integers(3, 9))):
                        yk = int(y0 + k * h * .02)
                        cv2.line(img, (x0, yk), (x0 + int(w * .15), yk), (40.0, 40.0, 40.0), max(1, w // 400))
    else:
        base = np.array(rng.integers(140, 210, 3), np.float32)
        img = base + 10 * np.sin(xx / 2.3)[..., None] * np.sin(yy / 2.9)[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def take_photo(rng, grid, w, h, *, hand=True, angle=0.0, tilt=0.0, fill=.6, bg="wood",
               light=.4, blur=0.0, noise=3.0, tile=_tile_rgba, loose=1.0, truth: dict | None = None,
               neighbour: dict | None = None, lens: float | None = None) -> np.ndarray:
    """A photo of ``grid`` laid on a table, through a camera of view ``lens`` (``camera_quad``).
    ``truth``, if given, receives ``corners``: where the planet's 4×4 lattice lies in the
    (upright) photo — the outer corners of cells 0, 3, 15, 12 — and ``gap``: the gap between
    tiles as a part of a tile's side. ``neighbour``: another
    player's planet (a grid) lies beside it on the same table, as at a game's end (``neighbour_at``)."""
    t = int(np.clip(fill * min(w, h) / 4 * 1.1, 64, 512))
    plane, margin = lay_planet(rng, grid, t, hand, tile, loose)
    side = plane.shape[0]
    src = np.array([[margin, margin], [side - margin, margin], [side - margin, side - margin],
                    [margin, side - margin]], np.float32)
    dst = camera_quad(rng, w, h, side, angle, tilt, fill, lens)
    beside = None
    if neighbour is not None:
        dst, beside = neighbour_at(rng, w, h, src, dst)
    if truth is not None:
        truth["corners"] = [[round(float(x), 1), round(float(y), 1)] for x, y in dst]
        truth["gap"] = round(float((side - 2 * margin) / 4 / t - 1), 4)
        if beside is not None:
            truth["neighbour"] = {"cells": neighbour["cells"],
                                  "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in
                                              cv2.perspectiveTransform(src[None].astype(np.float64), beside)[0]]}
    H = cv2.getPerspectiveTransform(src, dst)
    # the table at a quarter of the pixels (at most ~1000 px wide), then scaled up: fast at
    # 12 MP, and as smooth at a phone's pixel scale as a phone photo's (a phone's lens and its
    # noise reduction leave no pixel-sharp texture)
    k = max(2, max(w, h) // 1000)
    bg_img = table(rng, h // k, w // k, bg)
    bg_img = cv2.resize(bg_img, (w, h), interpolation=cv2.INTER_LINEAR).astype(np.float32)
    layers = [(plane, H)]
    if beside is not None:   # the neighbour's planet first: the same tiles' size, the same camera
        layers.insert(0, (lay_planet(rng, neighbour, t, hand, tile, loose)[0], beside))
    img = bg_img
    for layer, M in layers:
        warped = cv2.warpPerspective(layer, M, (w, h), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
        alpha = warped[..., 3].astype(np.float32) / 255
        # the tiles' own shadow on the table
        sh = cv2.GaussianBlur(alpha, (0, 0), max(1.0, min(w, h) / 300))
        off = int(min(w, h) / 250) + 1
        sh = np.roll(sh, (off, off), axis=(0, 1))
        img *= (1 - .35 * sh)[..., None]
        img = warped[..., :3].astype(np.float32) * alpha[..., None] + img * (1 - alpha[..., None])
    img *= lighting(rng, h, w, light)[..., None]
    img *= rng.uniform(.9, 1.1, 3)[None, None, :]  # white balance
    phone = max(w, h) >= PHONE_SIDE
    if phone:  # a phone's lens and demosaicing: nothing is sharp to the pixel
        blur = float(np.hypot(blur, SOFTNESS * w / 1600))
    if blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    img += _grain(rng, noise, img.shape, phone)
    return np.clip(img, 0, 255).astype(np.uint8)


def neighbour_at(rng, w: int, h: int, src: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where a planet aimed at lies with a neighbour's planet beside it: the player aims at their own
    planet, so its middle lies within ``AIM`` of the frame's middle (a part of the frame's sides);
    the neighbour's lies on the same table, turned any way (it faces its own player), in any
    direction, ``NEIGHBOUR_GAP`` planet sides farther than where the two would touch (two planets
    never overlap), seen through the same camera (partly or wholly in frame). Returns the planet's
    corners and the neighbour's homography from the laid planet (``src``'s plane)."""
    mid = dst.mean(axis=0)
    aim = np.array([w / 2, h / 2]) + rng.uniform(-AIM, AIM, 2) * [w, h]
    dst = (dst + (aim - mid)).astype(np.float32)
    H = cv2.getPerspectiveTransform(src, dst)
    a, turn = rng.uniform(0, 2 * math.pi, 2)
    side = float(src[1, 0] - src[0, 0])
    c = src.mean(axis=0).astype(np.float64)
    way = np.array([math.cos(a), math.sin(a)])
    R = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])

    def placed(d: float) -> np.ndarray:   # the neighbour's move: turned about its middle, then d along ``way``
        T = np.eye(3)
        T[:2, :2] = R
        T[:2, 2] = c + d * way - R @ c
        return T

    def overlap(d: float) -> bool:
        corners = cv2.perspectiveTransform(src[None].astype(np.float64), placed(d))[0].astype(np.float32)
        return cv2.intersectConvexConvex(src.astype(np.float32), corners)[0] > 0
    lo, hi = 0.0, 1.5 * side   # 1.5 sides apart, two squares never touch (√2 at most)
    for _ in range(30):
        lo, hi = (lo, (lo + hi) / 2) if not overlap((lo + hi) / 2) else ((lo + hi) / 2, hi)
    return dst, H @ placed(hi + rng.uniform(*NEIGHBOUR_GAP) * side)


AIM = 0.08                   # how far off the frame's middle a photographed planet's middle lies
NEIGHBOUR_GAP = (0.03, 0.6)  # a neighbour's planet this many planet sides farther than where it would touch the one photographed
PHONE_SIDE = 2400   # a photo this wide or more is a phone's full-size photo
SOFTNESS = 1.0      # a phone photo's softness (blur in px at 1600 wide)
GRAIN = 0.3         # what a phone's noise reduction leaves of the sensor noise
# Phone photo sizes (long side × short side), what phones save: 12 MP now and then, mostly 7–8 MP
# (a sample set must stay small in the repository: ~0.35 MB a photo).
PHONE_SIZES = ((4000, 3000), (3264, 2448)) + ((3000, 2250),) * 6


def _grain(rng, noise: float, shape: tuple, phone: bool) -> np.ndarray:
    """Sensor noise; a phone's noise reduction leaves it as a grain of a few pixels (as big, in
    the photo, as one pixel's noise in a 1000-px-wide photo)."""
    if not phone:
        return rng.normal(0, noise, shape).astype(np.float32)
    h, w = shape[:2]
    k = max(2, max(w, h) // 1000)
    small = rng.normal(0, noise * GRAIN, (h // k, w // k, shape[2])).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def phone_size(rng, portrait: bool) -> tuple[int, int]:
    """(w, h) of a phone photo, held upright (``portrait``) or sideways."""
    long, short = PHONE_SIZES[int(rng.integers(len(PHONE_SIZES)))]
    return (short, long) if portrait else (long, short)


# --------------------------------------------------------------------------------------------
# photos without a planet


def empty_photo(rng, w, h, kind: str) -> np.ndarray:
    if kind == "blank":
        img = np.full((h, w, 3), rng.integers(120, 230), np.float32)
    elif kind == "noise":
        img = rng.uniform(0, 255, (h, w, 3)).astype(np.float32)
    elif kind == "face":
        img = table(rng, h, w, "stone").astype(np.float32)
        c = (w // 2, h // 2)
        r = min(w, h) // 3
        cv2.ellipse(img, c, (int(r * .8), r), 0, 0, 360, (150, 180, 230), -1)
        for dx in (-.3, .3):
            cv2.circle(img, (int(c[0] + dx * r), int(c[1] - .2 * r)), int(r * .1), (60, 40, 30), -1)
        cv2.ellipse(img, (c[0], int(c[1] + .35 * r)), (int(r * .35), int(r * .15)), 0, 0, 180, (60, 60, 160), int(r * .05))
        cv2.ellipse(img, (c[0], int(c[1] - .9 * r)), (int(r * .85), int(r * .35)), 0, 180, 360, (30, 50, 90), -1)
    elif kind == "text":
        img = np.full((h, w, 3), 245, np.uint8)
        fs = min(w, h) / 700
        y = int(60 * fs)
        words = "the little prince make me a planet baobab volcano sunset rose lamppost sheep fox".split()
        while y < h:
            line = " ".join(rng.choice(words, 8))
            cv2.putText(img, line, (int(30 * fs), y), cv2.FONT_HERSHEY_SIMPLEX, fs, (20, 20, 20), max(1, int(2 * fs)))
            y += int(40 * fs)
        img = img.astype(np.float32)
    else:  # objects on a table
        img = table(rng, h, w, kind if kind in ("wood", "cloth", "felt", "slats", "cork", "denim", "grass", "sand", "velvet", "deskmat",
                                                    "moquette", "glass", "perforated") else "wood").astype(np.float32)
        for _ in range(int(rng.integers(4, 9))):
            col = tuple(float(v) for v in rng.integers(0, 255, 3))
            cx, cy = int(rng.uniform(0, w)), int(rng.uniform(0, h))
            r = int(rng.uniform(.03, .15) * min(w, h))
            if rng.random() < .5:
                cv2.circle(img, (cx, cy), r, col, -1)
            else:
                box = cv2.boxPoints(((cx, cy), (r * 2, r * 1.3), rng.uniform(0, 90))).astype(np.int32)
                cv2.fillPoly(img, [box], col)
    img *= lighting(rng, h, w, .3)[..., None]
    img += rng.normal(0, 3, img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


# --------------------------------------------------------------------------------------------


def save_jpeg(path: Path, bgr: np.ndarray, quality: int, orientation: int = 1) -> None:
    """Save as JPEG; with ``orientation`` ≠ 1 the pixels are stored turned and the EXIF tag says
    how to turn them back (as a phone held sideways does)."""
    rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
    im = Image.fromarray(rgb)
    # stored = displayed turned back; tag 6: display = stored turned 90° clockwise
    if orientation == 6:
        im = im.transpose(Image.Transpose.ROTATE_90)   # counter-clockwise
    elif orientation == 8:
        im = im.transpose(Image.Transpose.ROTATE_270)
    elif orientation == 3:
        im = im.transpose(Image.Transpose.ROTATE_180)
    exif = Image.Exif()
    if orientation != 1:
        exif[0x0112] = orientation
    im.save(path, "JPEG", quality=quality, optimize=True, exif=exif.tobytes() if orientation != 1 else b"")


BACKGROUNDS = ("wood", "cloth", "felt", "noise", "stone")
# The photos with a neighbour's planet: issue 8's full conditions (the camera tilted up to 30°,
# the planet aimed at from a quarter of the short side), through a phone's lens.
BESIDE_TILT = 30.0
BESIDE_FILL = (0.25, 0.55)


def make_samples(outdir, seed=1, count=32, empty=6, small=0, lens=None, beside=0,
                 beside_tilt=BESIDE_TILT, beside_fill=BESIDE_FILL) -> list[Path]:
    """Phone photos (7–12 MP, some stored sideways with an EXIF tag); the first ``small`` are
    1600×1200 instead (a photo sent through a chat app). ``lens``: ``camera_quad``'s. ``beside``:
    that many photos more with a neighbour's planet (``make_beside``), made last, so a set made
    without them is the same byte for byte."""
    rng = np.random.default_rng(seed)
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for i in range(count):
        w, h = (1600, 1200) if i < small else phone_size(rng, portrait=i % 3 == 0)
        grid = random_planet(rng, backs=True if i % 4 == 1 else None)
        # conditions: cycle through them so each appears, with random strengths
        angle = float(rng.choice([0, 90, 180, 270])) + (rng.uniform(-180, 180) if i % 3 == 0 else rng.uniform(-4, 4))
        tilt = float(rng.uniform(0, 30)) if i % 2 == 0 else float(rng.uniform(0, 10))
        fill = float(rng.uniform(.3, .9))
        if i % 3 == 0:  # a turned square takes more room
            fill = min(fill, .7)
        bg = BACKGROUNDS[i % len(BACKGROUNDS)]
        photo = take_photo(
            rng, grid, w, h, hand=(i % 5 != 4), angle=angle, tilt=tilt, fill=fill,
            bg="stone" if bg == "noise" and max(w, h) >= PHONE_SIDE else bg, light=float(rng.uniform(.1, .7)),
            blur=float(rng.choice([0, 0, .8, 1.5, 2.5])) * (w / 1600), noise=float(rng.uniform(1, 6)), lens=lens)
        q = int(rng.integers(60, 93))
        orient = int(rng.choice([6, 8, 3])) if max(w, h) >= PHONE_SIDE and i % 4 == 0 else 1
        path = out / f"p{i + 1:02d}.jpg"
        save_jpeg(path, photo, q, orient)
        (out / f"p{i + 1:02d}.json").write_text(json.dumps(grid) + "\n")
        written.append(path)
    kinds = ("wood", "blank", "noise", "face", "text", "cloth", "felt")
    for i in range(empty):
        photo = phone_empty(rng, *phone_size(rng, portrait=False), kinds[i % len(kinds)])
        path = out / f"n{i + 1:02d}.jpg"
        save_jpeg(path, photo, int(rng.integers(60, 93)))
        (out / f"n{i + 1:02d}.json").write_text(json.dumps({"planet": None}) + "\n")
        written.append(path)
    return written + make_beside(out, rng, beside, PHONE_LENS if lens is None else lens, beside_tilt, beside_fill)


def make_beside(out: Path, rng, count: int, lens: float = PHONE_LENS, tilt: float = BESIDE_TILT,
                fill: tuple = BESIDE_FILL) -> list[Path]:
    """``sNN.jpg``: a planet of the shipped art photographed at a game's end with a neighbour's
    planet beside it on the same table, partly or wholly in frame (``take_photo``'s ``neighbour``;
    the player aims at their own, so it lies near the frame's middle), through a camera of view
    ``lens``, tilted up to ``tilt`` degrees, the planet aimed at ``fill`` (low, high) of the short
    side; phone sizes, some stored sideways, blur, noise, JPEG 60–92. The truth (``sNN.json``) is
    the planet aimed at; its ``neighbour`` holds the other's cells and corners."""
    written = []
    for i in range(count):
        w, h = phone_size(rng, portrait=i % 3 == 0)
        grid, other = random_planet(rng, backs=True if i % 4 == 1 else None), random_planet(rng)
        angle = float(rng.choice([0, 90, 180, 270])) + float(rng.uniform(-180, 180) if i % 3 == 0 else rng.uniform(-6, 6))
        bg = BACKGROUNDS[i % len(BACKGROUNDS)]
        truth: dict = {}
        photo = take_photo(rng, grid, w, h, hand=True, angle=angle, tilt=float(rng.uniform(0, tilt)),
                           fill=float(rng.uniform(*fill)), bg="stone" if bg == "noise" else bg,
                           light=float(rng.uniform(.1, .7)), blur=float(rng.choice([0, 0, .8, 1.5, 2.5])) * (w / 1600),
                           noise=float(rng.uniform(1, 6)), truth=truth, neighbour=other, lens=lens)
        orient = int(rng.choice([6, 8, 3])) if i % 4 == 0 else 1
        path = out / f"s{i + 1:02d}.jpg"
        save_jpeg(path, photo, int(rng.integers(60, 93)), orient)
        (out / f"s{i + 1:02d}.json").write_text(json.dumps({**grid, **truth}) + "\n")
        written.append(path)
    return written


def phone_empty(rng, w: int, h: int, kind: str) -> np.ndarray:
    """A phone photo without a planet: drawn at about 1000 px wide (its noise included) and
    scaled up, as soft as a phone photo."""
    k = max(1, max(w, h) // (250 if kind == "noise" else 1000))
    small = empty_photo(rng, w // k, h // k, kind)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def add_lens_argument(ap) -> None:
    """The generators' ``--lens`` (``camera_quad``'s ``lens``)."""
    ap.add_argument("--lens", type=float, default=None,
                    help=f"the camera's view across the photo's short side, degrees (a phone's main camera: "
                         f"{PHONE_LENS:g}); the camera stands where it sees the planet fill its part of the "
                         f"frame. Without it: 2 planet sides away whatever the fill, as the committed sets were made")


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m vision.samples")
    ap.add_argument("outdir")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=32)
    ap.add_argument("--empty", type=int, default=6)
    ap.add_argument("--small", type=int, default=0, help="how many 1600×1200 photos (the rest: phone size)")
    ap.add_argument("--beside", type=int, default=0,
                    help="how many photos with a neighbour's planet beside the one photographed (sNN.jpg, made last; "
                         "through a phone's lens unless --lens says otherwise)")
    ap.add_argument("--beside-tilt", type=float, default=BESIDE_TILT,
                    help="the camera's tilt in the photos with a neighbour's planet: up to this many degrees")
    ap.add_argument("--beside-fill", default=",".join(f"{x:g}" for x in BESIDE_FILL),
                    help="… the planet aimed at this part of the short side: LOW,HIGH")
    add_lens_argument(ap)
    a = ap.parse_args(argv)
    try:
        fill = tuple(float(x) for x in a.beside_fill.split(","))
    except ValueError:
        ap.error(f"--beside-fill {a.beside_fill!r}: two numbers, LOW,HIGH")
    if len(fill) != 2 or not 0 < fill[0] <= fill[1] < 1:
        ap.error(f"--beside-fill {a.beside_fill!r}: LOW,HIGH with 0 < LOW <= HIGH < 1")
    for p in make_samples(a.outdir, a.seed, a.count, a.empty, a.small, a.lens, a.beside, a.beside_tilt, fill):
        print(p)


if __name__ == "__main__":
    main()
