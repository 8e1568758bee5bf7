"""Photos of the second box (``vision/boxart.py``): its six teaching photos and test photos.

``python -m vision.samples_box OUTDIR [--seed N] [--variant A|B|...|Q] [--count N] [--empty N] [--small N] [--beside N]``
writes ``OUTDIR/teach/tNN.jpg`` + ``.json`` (the box plan's six layouts, ``vision.plan``:
upright, a few degrees turned and tilted, as a person teaching the box takes them) and
``OUTDIR/test/pNN.jpg`` + ``.json`` (legal planets under every condition of ``vision.samples``:
any angle, tilt up to 30°, loose tiles, shadows, blur, JPEG 60–92, phone sizes 7–12 MP) and
``OUTDIR/test/nNN.jpg`` (no planet: ``{"planet": null}``), and with ``--beside`` ``OUTDIR/test/bNN.jpg``
(a planet with a neighbour's planet beside it on the table, ``make_beside``; made last, so a set
made without them is the same).

Variants B to H are held-out material — B: ``sample_photos/box2-heldout`` (seed 7), C:
``sample_photos/box2-heldout2`` (seed 23), D: ``sample_photos/box2-heldout3`` (seed 41, made
before the round that tuned on B and C; seen (tuned on) from the next round), E:
``sample_photos/box2-heldout4`` (seed 59, made first in the round that tuned on D, before any
change; seen (tuned on) from the photo-light round), F: ``sample_photos/box2-heldout5`` (seed 73,
made first in the photo-light round, before any change; seen (diagnosed and tuned on) from the
generalisation round), G: ``sample_photos/box2-heldout6`` (seed 89, ``--count 20 --empty 4``,
made first in the generalisation round, before any reader change, held out through it: with the
reader unchanged 2 of its 6 teaching photos were not learned, 109/320 cells, 1/20 scored, 4/4
refused, 2 wrong cells not doubtful, 11.6-11.8x a decode, load 0.9-1.9; after the round: t01 and
t06 still not learned, 118/320 cells, 1/20 scored, 4/4 refused, 0 wrong cells not doubtful, 13.9x
a decode, load 1.3-1.9; seen (diagnosed and tuned on) from issue 8's learning round), H:
``sample_photos/box2-heldout7`` (seed 101, ``--count 20 --empty 4``, 7.9 MB, made first in the
learning round, before any reader change; nothing is tuned on it, only its totals are read: with
the reader unchanged 146/320 cells, 2/20 scored, 4/4 refused, 1 wrong cell not doubtful, 9.2x a
decode, load 1.6-1.7; seen (diagnosed on) from the round after), I: ``sample_photos/box2-heldout8``
(seed 131, ``--count 20 --empty 4``, 13 MB, made first in issue 8's part-comparison round, before
any reader change; nothing is tuned on it, only its totals are read: with the reader unchanged
(the vision code of 6fb9d45, ``python -m vision.bench --set=box2-heldout8 -q``, one run, load
2.7-3.2) all 6 teaching photos learned in 8.2 s, 165/320 cells, 0/20 exact, 0/20 scored, 4/4
refused, 11 wrong cells not doubtful (of 155 wrong), 93/165 right cells doubtful, 7.6x a
decode; after the round, its final bench, load 4.7: 165/320 cells, 0/20 scored, 4/4 refused, 5
wrong cells not doubtful, 103/165 doubtful, 8.6x a decode). The box is drawn in other
colours and layouts (``boxart`` variants B, C) and the photos are taken another way — B: other
tables (paper, floor tiles, linen), a vignette, motion blur instead of focus blur; C: any
table, a lamp's warm colour cast and a glare; D: plainer tables, a cool cast, a strong off-centre
vignette, lifted shadows and a veil, the camera tilted more (teaching photos 2–14° at phone
size, test photos 6–30°); E: indoor tables under a warm lamp falling off to one side, a hard
shadow across part of the frame, high-ISO noise (teaching photos 2–14° at phone size); F:
daylight from a window (a cool-to-neutral cast falling off across the frame), the soft broad
shadow of the phone and hand, auto-exposure a little dark or bright, wood, patterned floor tiles
or checked cloth, tiles looser (teaching photos 2–14° at phone size); G: overhead fluorescent
tubes (flat light, a green cast) or the phone's flash (a hot spot falling off to dark corners),
a specular glare on glossy tiles, a coloured laminate or a cluttered table, stone or cloth, the
planet a quarter to a third of the short side in about 2 of 5 test photos (teaching photos
2–14° at phone size); H: candle light in a dim room (a deep orange cast falling off steeply from a
source just off the frame, exposure dim and lifted, coarse high-ISO colour noise), a near-black
table darker than the tiles' rims, light paper near the card edge's colour or wood, the cards'
corners rounded off (the table shows there), strong perspective (22–32°) in about 2 of 5 test
photos (teaching photos 2–14° at phone size); I: cool overcast daylight outdoors through a
phone's HDR look (a blue cast, flat light brighter towards the open sky, shadows lifted and
highlights pulled down by a local tone map, a wide unsharp mask's soft halos along strong edges,
colours a little more saturated), on a garden table of weathered slats with dark gaps, terrazzo
or bare concrete (teaching photos 2–14° at phone size); J: ``sample_photos/box2-heldout9`` (seed 173,
``--count 20 --empty 4``, made first in issue 8's speed round, before any reader change; nothing
is tuned on it, only its totals are read: with the reader unchanged (the vision code of dcdf5da,
``python -m vision.bench --set=box2-heldout9 -q``, one run, load 4.9-6.0) all 6 teaching photos
learned in 6.8 s, 51/320 cells, 0/20 exact, 0/20 scored, 4/4 refused, 0 wrong cells not doubtful
(of 269), 48/51 right cells doubtful, 75.7x a decode; after the round, its final bench, load
1.8-3.5: the same totals, 64.5x a decode; seen (diagnosed on) from the generalisation-of-learning
round: its box had been taken as lying upright, ``box.Box.outward``), an evening kitchen: a warm ceiling light and a cool
screen or window from one side mixing across the frame, the phone's night-mode smoothing (flat
areas made waxy, edges kept), lateral colour fringes towards the frame's edges, on a cork board,
a striped tablecloth or dark speckled granite (teaching photos 2–14° at phone size); K:
``sample_photos/box2-heldout10`` (seed 199, ``--count 20 --empty 4``, made first in issue 8's
generalisation-of-learning round, before any reader change; nothing is tuned on it, only its
totals are read), a low sun near sunset through a window: raking golden light on one side falling
off to a cool shade, the long soft shadows of things beside the table, a milky flare from the
sun's side (blacks lifted, colours washed), a phone's portrait look (an oval vignette, the edges
blurred, the middle sharp), on a bamboo mat, denim or brown leather (teaching photos 2–14° at
phone size); seen (diagnosed and tuned on) from issue 8's generalisation round 2; L:
``sample_photos/box2-heldout11`` (seed 211, ``--count 20 --empty 4``, 12 MB, made first in issue 8's
generalisation round 2, before any reader change; nothing is tuned on it, only its totals are
read: with the reader unchanged (the vision code of 0457a53, ``python -m vision.bench
--set=box2-heldout11 -q``, one run, 10:23 UTC, load 1.8) 5 of its 6 teaching photos (t01-t05) not
learned, so 0/320 cells, 0/20 scored, 4/4 refused, 0 wrong cells not doubtful, 8.4x a decode,
learning 1.7 s; learned again from tapped corners (5/5): 284/320 cells, 8/20 exact, 9/20 scored, 0
wrong cells not doubtful), outdoors in a tree's shade: a cool green-tinted shade broken by dappled
sunlight through the leaves (warm bright soft-edged patches anywhere), a shallow depth of field
(a blur growing from a sharp band towards one side) and the phone's sharpening, on a lawn, gravel
or a woven rug (teaching photos 2–14° at phone size); seen (diagnosed and tuned on) from issue 8's
generalisation round 3; M: ``sample_photos/box2-heldout12`` (seed 212, ``--count 20 --empty 4``,
10 MB, made first in issue 8's generalisation round 3, before any reader or teaching change; nothing
is tuned on it, only its totals are read: with the code unchanged (the vision code of 7e11d80,
``python -m vision.bench --set=box2-heldout12 -q``, one run, 13:31 UTC, load 5.9-6.2) all 6 teaching
photos learned in 17.2 s, 246/320 cells, 1/20 exact, 2/20 scored, 4/4 refused, 1 wrong cell not
doubtful (of 74), 148/246 right cells doubtful, 7.7x a decode), midday at the beach: a harsh sun the
phone over-exposes (a warm gain, highlights clipped), the curved blue shade of a parasol's edge across
part of the frame, a greasy lens's halation round every bright part, on sand, a striped terry towel
or a marbled lino mat (teaching photos 2–14° at phone size); N: ``sample_photos/box2-heldout13``
(seed 313, ``--count 20 --empty 4``, made first in issue 8's generalisation round 4, before any
reader change; nothing is tuned on it, only its totals are read), a shop window at night: two
coloured lights (magenta from one side, cyan from the other) mixing across the frame, a bloom round
bright parts, the phone's noise reduction smearing fine texture, on dark velvet, herringbone parquet
or a glossy black tray (teaching photos 2–14° at phone size); O: ``sample_photos/box2-heldout14``
(seed 331, ``--count 20 --empty 4``, made in the same round to diagnose and tune on: seen), an
office desk under cold LED panels with a warm desk lamp's pool on one side, a little defocus and
chroma noise, on a grey desk mat, a kraft-paper blotter or pale oak (teaching photos 2–14°); P:
``sample_photos/box2-heldout15`` (seed 415, ``--count 20 --empty 4``, made in issue 8's photo-scoring
round, before any reader change; nothing is tuned on it, only its totals are read: held out), a
table on a moving train: the carriage's dim, cool overhead light, a band of low sun through the window
sweeping across the frame (a warm bright stripe, its leading edge crisp and its trailing edge smeared
by the train's movement during the exposure, the window pillar's narrow shadow inside it, highlights
clipped), and the carriage's vibration shaking the phone (a jagged short path: a ghosted double
image, not a straight streak), on a speckled grey-blue laminate, a seat's patterned moquette or a
fold-down grey tray with a cup's recess (teaching photos 2–14° at phone size); Q:
``sample_photos/box2-heldout16`` (seed 1616, ``--count 20 --empty 4``, 7.1 MB, made 2026-12-03 after
the vision43 doubt round, before any reader change, by a helper that never ran the reader on it;
nothing is tuned on it, only its totals may be read: held out), its art a risograph print
(``boxart`` Q), the photos taken on a café terrace at dusk: the blue hour's dim cool light with a
string of warm bulbs overhead lighting the frame from one side, the bulbs' point highlights along the
string's sagging curve and a few out-of-focus bokeh discs, the glass table top reflecting the bulbs
faintly over part of the frame (a soft cool veil with the bulbs' blurred copies in it), a smudged lens
(a soft diagonal streak of haze with the highlights smeared along it), a dim scene's coarse noise; on
green-tinted glass over dim paving, a painted steel bistro table perforated with round holes, or
brushed zinc; the test and no-planet photos then sent on through a messaging app (the phone's JPEG
decoded, turned upright with no EXIF tag, the long side scaled down to 1600–2400 px, saved again at
quality 60–72; the truth's corners scaled with it); teaching photos 2–14° at phone size, not resent.
"""
from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import cv2
import numpy as np

from .boxart import card_alpha, tile_as_laid
from .plan import teaching_plan
from .samples import BACKGROUNDS, add_lens_argument, line_kernel, phone_empty, phone_size, random_planet, save_jpeg, take_photo


def tile_source(variant: str):
    def tile(name: str, t: int, position: int) -> np.ndarray:
        img = cv2.resize(tile_as_laid(name, position, variant), (t, t), interpolation=cv2.INTER_AREA)
        return np.dstack([img, card_alpha(variant, t)])
    return tile


def _style_b(rng, photo: np.ndarray) -> np.ndarray:
    """The held-out camera: a vignette and motion blur."""
    h, w = photo.shape[:2]
    yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    r = np.hypot((xx - w / 2) / w, (yy - h / 2) / h)
    vig = cv2.resize(1 - rng.uniform(.2, .5) * r ** 2 * 2, (w, h))
    img = photo.astype(np.float32) * vig[..., None]
    n = int(rng.integers(1, 4)) * max(1, w // 1000) * 2 + 1
    img = cv2.filter2D(img, -1, line_kernel(n, rng.uniform(0, math.pi)))
    return np.clip(img, 0, 255).astype(np.uint8)


def _style_c(rng, photo: np.ndarray) -> np.ndarray:
    """The second held-out camera: a lamp's warm light (a colour cast the white balance left
    in) and a soft highlight from it, glare on part of the planet."""
    h, w = photo.shape[:2]
    img = photo.astype(np.float32) * np.array([rng.uniform(.7, .85), rng.uniform(.9, 1.0), 1.1], np.float32)
    yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    cx, cy = rng.uniform(.2, .8) * w, rng.uniform(.2, .8) * h
    glare = np.exp(-(((xx - cx) / (.25 * w)) ** 2 + ((yy - cy) / (.25 * h)) ** 2)) * rng.uniform(20, 45)
    img += cv2.resize(glare, (w, h))[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def _style_d(rng, photo: np.ndarray) -> np.ndarray:
    """The third held-out camera: a cool cast (shade or a cloudy window the white balance left
    in: blue up, red down), a strong vignette from an off-centre point, the shadows lifted (a
    phone's HDR) and a faint veil over part of the frame."""
    h, w = photo.shape[:2]
    img = photo.astype(np.float32) * np.array([rng.uniform(1.08, 1.22), rng.uniform(.98, 1.04),
                                               rng.uniform(.72, .86)], np.float32)
    yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    cx, cy = rng.uniform(.35, .65) * w, rng.uniform(.35, .65) * h
    r = np.hypot((xx - cx) / w, (yy - cy) / h)
    vig = cv2.resize(np.clip(1 - rng.uniform(1.2, 1.9) * r ** 2, .25, 1), (w, h))
    img *= vig[..., None]
    img = 255 * (img / 255) ** rng.uniform(.8, .92)  # lifted shadows
    a = rng.uniform(0, 2 * math.pi)
    ramp = np.clip(((xx - w / 2) * math.cos(a) + (yy - h / 2) * math.sin(a)) / max(w, h) + .2, 0, 1)
    img += cv2.resize(ramp * rng.uniform(10, 30), (w, h))[..., None] * np.array([1.0, .95, .85], np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def _style_e(rng, photo: np.ndarray) -> np.ndarray:
    """The fourth held-out camera: a warm indoor lamp (a tungsten cast the white balance left
    in: red up, blue well down) falling off away from the lamp, a hard shadow (an arm or the
    phone) with a straight, slightly soft edge across part of the frame, and the high-ISO noise
    of a dim room."""
    h, w = photo.shape[:2]
    img = photo.astype(np.float32) * np.array([rng.uniform(.6, .75), rng.uniform(.88, .96),
                                               rng.uniform(1.12, 1.25)], np.float32)
    yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    lx, ly = rng.uniform(-.3, 1.3) * w, rng.uniform(-.3, 0.2) * h  # the lamp, off to one side
    fall = 1 / (1 + rng.uniform(.6, 1.2) * (((xx - lx) / w) ** 2 + ((yy - ly) / h) ** 2))
    img *= cv2.resize(fall / fall.max(), (w, h))[..., None]
    # the hard shadow: every point beyond a line through the frame's middle part
    a = rng.uniform(0, 2 * math.pi)
    px, py = rng.uniform(.3, .7) * w, rng.uniform(.3, .7) * h
    d = ((xx - px) * math.cos(a) + (yy - py) * math.sin(a)) / max(w, h)
    soft = rng.uniform(.004, .012)
    shade = 1 - rng.uniform(.35, .5) * np.clip(d / soft + .5, 0, 1)
    img *= cv2.resize(shade.astype(np.float32), (w, h))[..., None]
    k = max(2, max(w, h) // 1000)
    noise = rng.normal(0, rng.uniform(1.5, 3), (h // k, w // k, 3)).astype(np.float32)
    img += cv2.resize(noise, (w, h), interpolation=cv2.INTER_LINEAR)
    return np.clip(img, 0, 255).astype(np.uint8)


def _style_f(rng, photo: np.ndarray) -> np.ndarray:
    """The fifth held-out camera: daylight from a window off to one side (a cool-to-neutral cast,
    the light falling off broadly across the frame), the soft broad shadow of the phone and the
    hand holding it (a blurred rounded block from one edge), and auto-exposure a little dark or
    a little bright (a gain and a tone curve)."""
    h, w = photo.shape[:2]
    img = photo.astype(np.float32) * np.array([rng.uniform(1.0, 1.15), rng.uniform(.97, 1.03),
                                               rng.uniform(.86, .98)], np.float32)
    yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    a = rng.uniform(0, 2 * math.pi)   # the window's side
    ramp = ((xx - w / 2) * math.cos(a) + (yy - h / 2) * math.sin(a)) / max(w, h) + .5
    light = 1 - rng.uniform(.25, .45) * np.clip(ramp, 0, 1.2)
    # the phone's and hand's shadow: a rounded block reaching in from one edge, very soft
    mask = np.zeros(yy.shape, np.float32)
    gh, gw = mask.shape
    side = int(rng.integers(4))
    depth, span, at = rng.uniform(.25, .45), rng.uniform(.25, .45), rng.uniform(.2, .8)
    if side == 0:
        x0, x1, y0, y1 = (at - span / 2) * gw, (at + span / 2) * gw, -gh, depth * gh
    elif side == 1:
        x0, x1, y0, y1 = (at - span / 2) * gw, (at + span / 2) * gw, (1 - depth) * gh, 2 * gh
    elif side == 2:
        x0, x1, y0, y1 = -gw, depth * gw, (at - span / 2) * gh, (at + span / 2) * gh
    else:
        x0, x1, y0, y1 = (1 - depth) * gw, 2 * gw, (at - span / 2) * gh, (at + span / 2) * gh
    cv2.rectangle(mask, (int(x0), int(y0)), (int(x1), int(y1)), 1.0, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(.04, .08) * max(gh, gw))
    light *= 1 - rng.uniform(.25, .4) * mask
    img *= cv2.resize(light.astype(np.float32), (w, h))[..., None]
    exposure = rng.uniform(.75, 1.25)
    img = 255 * np.clip(img * exposure / 255, 0, 1) ** rng.uniform(.9, 1.1)
    return np.clip(img, 0, 255).astype(np.uint8)


def _style_g(rng, photo: np.ndarray, flash: bool, gloss: bool) -> np.ndarray:
    """The sixth held-out camera: either overhead fluorescent tubes (flat light with a green cast
    the white balance left in: green up, red and blue down, a slight tone compression) or the
    phone's flash (a hot spot near the frame's middle, falling off to dark corners, warmer at the
    centre); and, on glossy tiles, the specular glare of the light source: a bright, near-white,
    soft-edged elongated patch (a tube's or the flash's reflection) that washes out what is under
    it."""
    h, w = photo.shape[:2]
    img = photo.astype(np.float32)
    yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    if flash:
        cx, cy = rng.uniform(.35, .65) * w, rng.uniform(.35, .65) * h
        r2 = ((xx - cx) / (.5 * max(w, h))) ** 2 + ((yy - cy) / (.5 * max(w, h))) ** 2
        fall = np.clip(1.25 / (1 + rng.uniform(1.5, 3.0) * r2), .2, 1.3)
        img *= cv2.resize(fall.astype(np.float32), (w, h))[..., None]
        img *= np.array([rng.uniform(.88, .96), 1.0, rng.uniform(1.02, 1.1)], np.float32)
    else:
        img *= np.array([rng.uniform(.84, .94), rng.uniform(1.06, 1.16), rng.uniform(.82, .92)], np.float32)
        img = 255 * (img.clip(0, 255) / 255) ** rng.uniform(1.05, 1.2) * rng.uniform(1.0, 1.12)
    if gloss:
        # the light's reflection: an elongated soft ellipse somewhere on the middle of the frame
        gx, gy = rng.uniform(.3, .7) * w, rng.uniform(.3, .7) * h
        a = rng.uniform(0, math.pi)
        lx, ly = rng.uniform(.06, .14) * min(w, h), rng.uniform(.02, .05) * min(w, h)
        if flash:
            ly = lx * rng.uniform(.6, 1.0)
        u = ((xx - gx) * math.cos(a) + (yy - gy) * math.sin(a)) / lx
        v = (-(xx - gx) * math.sin(a) + (yy - gy) * math.cos(a)) / ly
        spec = np.exp(-(u ** 2 + v ** 2) ** 1.5) * rng.uniform(.55, .85)
        spec = cv2.resize(spec.astype(np.float32), (w, h))[..., None]
        img = img * (1 - spec) + 250 * spec
    return np.clip(img, 0, 255).astype(np.uint8)


def _style_h(rng, photo: np.ndarray) -> np.ndarray:
    """The seventh held-out camera: candle or oil-lamp light in a dim room — a deep orange cast
    (red up, blue far down), the light falling off steeply from a small source low beside the
    frame, exposure dim (the phone's gain up: a gain, a lifted tone curve) and the coarse colour
    noise of a high-ISO shot in the dark."""
    h, w = photo.shape[:2]
    img = photo.astype(np.float32) * np.array([rng.uniform(.45, .6), rng.uniform(.8, .9),
                                               rng.uniform(1.15, 1.3)], np.float32)
    yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    a = rng.uniform(0, 2 * math.pi)  # the candle: just outside the frame on one side
    lx, ly = w / 2 + math.cos(a) * .75 * w, h / 2 + math.sin(a) * .75 * h
    fall = 1 / (1 + rng.uniform(1.5, 3.0) * (((xx - lx) / w) ** 2 + ((yy - ly) / h) ** 2))
    img *= cv2.resize((fall / fall.max()).astype(np.float32), (w, h))[..., None]
    img *= rng.uniform(.5, .7)  # dim
    img = 255 * np.clip(img / 255, 0, 1) ** rng.uniform(.75, .88)  # the phone lifts the dark
    k = max(2, max(w, h) // 400)  # blotches of a few pixels: what the phone's noise reduction leaves
    noise = rng.normal(0, rng.uniform(2.5, 5), (h // k, w // k, 3)).astype(np.float32)
    noise += rng.normal(0, rng.uniform(1.5, 3), (h // k, w // k, 1)).astype(np.float32)
    img += cv2.resize(noise, (w, h), interpolation=cv2.INTER_LINEAR)
    return np.clip(img, 0, 255).astype(np.uint8)


def _style_i(rng, photo: np.ndarray) -> np.ndarray:
    """The eighth held-out camera: cool overcast daylight outdoors (a blue cast the white balance
    left in, flat soft light brighter towards the open sky) through a phone's HDR look: the
    shadows lifted and the highlights pulled down by a local tone map (a heavy blur of the light
    sets each area's gain), local contrast pushed (a wide unsharp mask that leaves soft halos
    along strong edges) and the colours made a little more saturated."""
    h, w = photo.shape[:2]
    img = photo.astype(np.float32) * np.array([rng.uniform(1.06, 1.16), rng.uniform(.99, 1.04),
                                               rng.uniform(.84, .93)], np.float32)
    yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    a = rng.uniform(0, 2 * math.pi)  # the open sky's side: a broad, gentle gradient
    ramp = ((xx - w / 2) * math.cos(a) + (yy - h / 2) * math.sin(a)) / max(w, h)
    img *= cv2.resize((1 + rng.uniform(.1, .22) * ramp).astype(np.float32), (w, h))[..., None]
    img = 128 + (img - 128) * rng.uniform(.75, .88)  # overcast: flat
    # the HDR tone map, computed small and scaled up
    k = 8
    small = cv2.resize(img, (w // k, h // k), interpolation=cv2.INTER_AREA)
    lum = small.mean(axis=2) + 1
    base = cv2.GaussianBlur(np.log(lum), (0, 0), max(2.0, .03 * max(w, h) / k))
    gain = np.exp(-rng.uniform(.35, .55) * (base - float(np.median(base))))
    img *= cv2.resize(gain.astype(np.float32), (w, h))[..., None]
    sigma = rng.uniform(.008, .016) * max(w, h)
    wide = cv2.resize(cv2.GaussianBlur(small * cv2.resize(gain.astype(np.float32), (w // k, h // k))[..., None],
                                       (0, 0), sigma / k), (w, h))
    img += rng.uniform(.35, .6) * (img - wide)  # local contrast: halos along edges
    grey = img.mean(axis=2, keepdims=True)
    img = grey + (img - grey) * rng.uniform(1.1, 1.25)
    return np.clip(img, 0, 255).astype(np.uint8)


def _style_j(rng, photo: np.ndarray) -> np.ndarray:
    """The ninth held-out camera: an evening kitchen — a warm ceiling light from one end of the
    frame and a cool screen or window from a side, mixing across it (two casts the white balance
    split), the phone's night-mode smoothing (flat areas blurred, strong edges kept) and a cheap
    lens's lateral colour (red and blue scaled a little about the centre: fringes towards the
    frame's edges)."""
    h, w = photo.shape[:2]
    img = photo.astype(np.float32)
    yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    a = rng.uniform(0, 2 * math.pi)
    t = np.clip(((xx - w / 2) * math.cos(a) + (yy - h / 2) * math.sin(a)) / max(w, h) + .5, 0, 1)
    warm = np.array([rng.uniform(.72, .84), rng.uniform(.92, .98), rng.uniform(1.08, 1.18)], np.float32)
    cool = np.array([rng.uniform(1.08, 1.2), rng.uniform(.98, 1.04), rng.uniform(.8, .9)], np.float32)
    level = 1 - rng.uniform(.1, .25) * np.abs(t - .5) * 2
    light = (warm * (1 - t)[..., None] + cool * t[..., None]) * level[..., None]
    img *= cv2.resize(light.astype(np.float32), (w, h))
    # night mode: blend towards a blur where the picture is flat
    k = max(1.0, max(w, h) / 2000)
    soft = cv2.GaussianBlur(img, (0, 0), 1.6 * k)
    grey = cv2.cvtColor(np.clip(soft, 0, 255).astype(np.uint8), cv2.COLOR_BGR2GRAY).astype(np.float32)
    grad = np.abs(cv2.Sobel(grey, cv2.CV_32F, 1, 0)) + np.abs(cv2.Sobel(grey, cv2.CV_32F, 0, 1))
    flat = np.exp(-(grad / rng.uniform(30, 50)) ** 2)[..., None] * rng.uniform(.6, .85)
    img = img * (1 - flat) + soft * flat
    # lateral colour: red a little bigger, blue a little smaller, about the centre
    s = rng.uniform(.0008, .0016)
    for ch, f in ((2, 1 + s), (0, 1 - s)):
        m = np.float32([[f, 0, (1 - f) * w / 2], [0, f, (1 - f) * h / 2]])
        img[..., ch] = cv2.warpAffine(img[..., ch], m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    return np.clip(img, 0, 255).astype(np.uint8)


def _style_k(rng, photo: np.ndarray) -> np.ndarray:
    """The tenth held-out camera: a low sun near sunset through a window — raking golden light
    (red up, blue down) strong on one side and falling off to a cool shade across the frame, the
    long soft shadows of things beside the table (a few blurred dark bands stretched along the
    light's direction), a veiling flare from the sun's side (a milky haze lifting the blacks and
    washing out colour), and a phone's portrait look: a soft oval vignette and a lens blur
    growing towards the frame's edges (the middle kept sharp)."""
    h, w = photo.shape[:2]
    img = photo.astype(np.float32)
    yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    gh, gw = yy.shape
    a = rng.uniform(0, 2 * math.pi)  # where the sun comes from
    u = ((xx - w / 2) * math.cos(a) + (yy - h / 2) * math.sin(a)) / max(w, h)  # towards the sun: +
    t = np.clip(u + .5, 0, 1)
    gold = np.array([rng.uniform(.7, .8), rng.uniform(.95, 1.02), rng.uniform(1.15, 1.28)], np.float32)
    shade = np.array([rng.uniform(1.04, 1.14), rng.uniform(.98, 1.02), rng.uniform(.86, .94)], np.float32)
    level = rng.uniform(.55, .7) + (1 - rng.uniform(.55, .7)) * t
    light = (gold * t[..., None] + shade * (1 - t)[..., None]) * level[..., None]
    # long shadows: soft bands along the light's direction, offset sideways
    mask = np.zeros((gh, gw), np.float32)
    for _ in range(int(rng.integers(1, 4))):
        off = rng.uniform(-.45, .45) * max(gh, gw)
        width = rng.uniform(.03, .09) * max(gh, gw)
        cx, cy = gw / 2 - math.sin(a) * off, gh / 2 + math.cos(a) * off
        d = np.abs(-(xx / 8 - cx) * math.sin(a) + (yy / 8 - cy) * math.cos(a))
        along = (xx / 8 - cx) * math.cos(a) + (yy / 8 - cy) * math.sin(a)
        band = (d < width) & (along < rng.uniform(-.1, .4) * max(gh, gw))
        mask = np.maximum(mask, band.astype(np.float32) * rng.uniform(.3, .5))
    mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(.015, .03) * max(gh, gw))
    light *= (1 - mask)[..., None]
    img *= cv2.resize(light.astype(np.float32), (w, h))
    # the flare: a milky haze from the sun's side
    haze = np.clip(u * 1.6 + .3, 0, 1) ** 2 * rng.uniform(25, 55)
    img += cv2.resize(haze.astype(np.float32), (w, h))[..., None] * np.array([.8, .92, 1.0], np.float32)
    grey = img.mean(axis=2, keepdims=True)
    img = grey + (img - grey) * rng.uniform(.8, .92)
    # portrait look: an oval vignette and a blur growing towards the edges
    r = np.hypot((xx - w / 2) / (w / 2), (yy - h / 2) / (h / 2))
    vig = 1 - rng.uniform(.2, .35) * np.clip(r - .45, 0, None) ** 1.5
    img *= cv2.resize(vig.astype(np.float32), (w, h))[..., None]
    soft = cv2.GaussianBlur(img, (0, 0), rng.uniform(2.0, 3.5) * max(1.0, max(w, h) / 2000))
    edge = cv2.resize(np.clip((r - .6) / .5, 0, 1).astype(np.float32), (w, h))[..., None]
    img = img * (1 - edge) + soft * edge
    return np.clip(img, 0, 255).astype(np.uint8)


def _style_l(rng, photo: np.ndarray) -> np.ndarray:
    """The eleventh held-out camera: outdoors in the shade of a tree — a cool green-tinted shade
    (the white balance left it: green up a little, red down) broken by dappled sunlight through the
    leaves (soft-edged warm bright patches of any size scattered across the frame), a shallow depth
    of field (a blur growing from a sharp band across the frame towards one side, as a phone held
    at a slant focuses), and the phone's sharpening (a small unsharp mask: thin light and dark
    fringes along edges)."""
    h, w = photo.shape[:2]
    img = photo.astype(np.float32) * np.array([rng.uniform(.88, .98), rng.uniform(1.02, 1.1),
                                               rng.uniform(.84, .94)], np.float32)
    yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    gh, gw = yy.shape
    # the dapple: smooth noise at two scales, thresholded softly into patches of sun
    k1, k2 = max(3, int(rng.uniform(3, 6))), max(6, int(rng.uniform(8, 14)))
    n = cv2.resize(rng.standard_normal((k1, k1)).astype(np.float32), (gw, gh), interpolation=cv2.INTER_CUBIC)
    n += .6 * cv2.resize(rng.standard_normal((k2, k2)).astype(np.float32), (gw, gh), interpolation=cv2.INTER_CUBIC)
    sun = 1 / (1 + np.exp(-(n - rng.uniform(.2, .7)) / rng.uniform(.08, .18)))
    shade = rng.uniform(.5, .65)
    light = shade + (1 - shade) * sun
    warm = np.array([rng.uniform(.86, .94), 1.0, rng.uniform(1.06, 1.14)], np.float32)
    tint = np.ones((gh, gw, 3), np.float32) * (1 - sun[..., None]) + warm * sun[..., None]
    img *= cv2.resize((light[..., None] * tint).astype(np.float32), (w, h))
    # depth of field: sharp along a band, blurred growing towards one side
    a = rng.uniform(0, 2 * math.pi)
    u = ((xx - w / 2) * math.cos(a) + (yy - h / 2) * math.sin(a)) / max(w, h)
    far = np.clip((u - rng.uniform(-.05, .15)) / .35, 0, 1)
    soft = cv2.GaussianBlur(img, (0, 0), rng.uniform(2.0, 4.0) * max(1.0, max(w, h) / 2000))
    f = cv2.resize(far.astype(np.float32), (w, h))[..., None]
    img = img * (1 - f) + soft * f
    # the phone's sharpening
    fine = cv2.GaussianBlur(img, (0, 0), 1.2 * max(1.0, max(w, h) / 3000))
    img += rng.uniform(.4, .8) * (img - fine)
    return np.clip(img, 0, 255).astype(np.uint8)


def _style_m(rng, photo: np.ndarray) -> np.ndarray:
    """The twelfth held-out camera: midday at the beach — harsh sun over-exposed by the phone
    (a warm gain, highlights clipped to white), the curved shadow of a parasol's edge across part
    of the frame (blue-tinted: lit by the sky only, its edge soft by the sun's size), a greasy lens's
    halation (a wide glow bleeding from every bright part), and a slight lift of the shadows."""
    h, w = photo.shape[:2]
    img = photo.astype(np.float32) * np.array([rng.uniform(.9, 1.0), rng.uniform(1.0, 1.06),
                                               rng.uniform(1.06, 1.16)], np.float32) * rng.uniform(1.12, 1.35)
    yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    gh, gw = yy.shape
    # the parasol: a big disc whose edge crosses the frame, its shade blue
    a = rng.uniform(0, 2 * math.pi)
    rad = rng.uniform(.7, 1.3) * max(gh, gw)
    reach = rng.uniform(.2, .55) * max(gh, gw)  # how far the shade comes in from its side
    cx = gw / 2 + math.cos(a) * (rad + max(gh, gw) / 2 - reach)
    cy = gh / 2 + math.sin(a) * (rad + max(gh, gw) / 2 - reach)
    inside = (np.hypot(xx / 8 - cx, yy / 8 - cy) < rad).astype(np.float32)
    inside = cv2.GaussianBlur(inside, (0, 0), rng.uniform(.006, .015) * max(gh, gw))
    depth = rng.uniform(.4, .55)
    shade = np.ones((gh, gw, 3), np.float32) - depth * inside[..., None] * np.array([.8, 1.0, 1.15], np.float32)
    img *= cv2.resize(shade, (w, h))
    # halation: what is over the clip glows into its neighbours
    bright = np.clip(img - 220, 0, None)
    small = cv2.resize(bright, (w // 8, h // 8), interpolation=cv2.INTER_AREA)
    glow = cv2.resize(cv2.GaussianBlur(small, (0, 0), max(w, h) / 8 * .012), (w, h))
    img += rng.uniform(.6, 1.1) * glow
    img = 255 * (np.clip(img, 0, 255) / 255) ** rng.uniform(.88, .96)
    return np.clip(img, 0, 255).astype(np.uint8)


def _style_n(rng, photo: np.ndarray) -> np.ndarray:
    """The thirteenth held-out camera: a shop window at night — two coloured lights (magenta
    from one side, cyan from the other) mixing across the frame, dim overall, a bloom round the
    bright parts, and the phone's noise reduction smearing the fine texture (a bilateral-like
    smoothing: a blur where the picture is flat), with a little fine noise left."""
    h, w = photo.shape[:2]
    yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    a = rng.uniform(0, 2 * math.pi)
    u = np.clip(((xx - w / 2) * math.cos(a) + (yy - h / 2) * math.sin(a)) / max(w, h) + .5, 0, 1)
    magenta = np.array([rng.uniform(1.0, 1.2), rng.uniform(.6, .75), rng.uniform(1.05, 1.25)], np.float32)  # BGR
    cyan = np.array([rng.uniform(1.05, 1.2), rng.uniform(1.0, 1.1), rng.uniform(.55, .7)], np.float32)
    light = (1 - u)[..., None] * magenta + u[..., None] * cyan
    light *= rng.uniform(.7, .9)
    img = photo.astype(np.float32) * cv2.resize(light, (w, h))
    bright = np.clip(img - 180, 0, None)
    small = cv2.resize(bright, (w // 8, h // 8), interpolation=cv2.INTER_AREA)
    img += rng.uniform(.5, .9) * cv2.resize(cv2.GaussianBlur(small, (0, 0), max(w, h) / 8 * .008), (w, h))
    # noise reduction: blurred where flat, kept at edges
    soft = cv2.GaussianBlur(img, (0, 0), 1.6 * max(1.0, max(w, h) / 3000))
    grad = cv2.GaussianBlur(np.abs(cv2.Laplacian(cv2.cvtColor(np.clip(img, 0, 255).astype(np.uint8), cv2.COLOR_BGR2GRAY),
                                                  cv2.CV_32F)), (0, 0), 2)
    keep = np.clip(grad / 12, 0, 1)[..., None]
    img = img * keep + soft * (1 - keep)
    img += rng.normal(0, 2.0, img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def _style_o(rng, photo: np.ndarray) -> np.ndarray:
    """The camera of the seen set made beside heldout13: an office desk under cold LED panels (a
    blue-white cast) with a warm desk lamp's pool of light on one side, a little defocus all over,
    and chroma noise (colour blotches at a coarse scale)."""
    h, w = photo.shape[:2]
    img = photo.astype(np.float32) * np.array([rng.uniform(1.05, 1.15), 1.0, rng.uniform(.88, .96)], np.float32)
    yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    cx, cy = rng.uniform(-.2, 1.2) * w, rng.uniform(-.2, 1.2) * h
    pool = np.exp(-(((xx - cx) / (.45 * w)) ** 2 + ((yy - cy) / (.45 * h)) ** 2))
    warm = np.array([.75, .95, 1.25], np.float32)
    gain = 1 + pool[..., None] * (warm * rng.uniform(.3, .6))
    img *= cv2.resize(gain.astype(np.float32), (w, h))
    img = cv2.GaussianBlur(img, (0, 0), rng.uniform(.8, 1.6) * max(1.0, max(w, h) / 3000))
    k = max(4, max(w, h) // 400)
    chroma = rng.normal(0, rng.uniform(3, 6), (h // k + 1, w // k + 1, 3)).astype(np.float32)
    chroma -= chroma.mean(axis=2, keepdims=True)
    img += cv2.resize(chroma, (w, h))
    return np.clip(img, 0, 255).astype(np.uint8)


def _style_p(rng, photo: np.ndarray) -> np.ndarray:
    """The fifteenth held-out camera: a table on a moving train — the carriage's dim, cool overhead
    light; a band of low sun through the window across the frame (warm, bright enough to clip the
    palest parts, its leading edge crisp and its trailing edge smeared by the train's movement during
    the exposure) with the window pillar's narrow shadow inside it; and the carriage's vibration
    shaking the phone along a short jagged path (a few ghosted copies of the picture, not a straight
    streak)."""
    h, w = photo.shape[:2]
    img = photo.astype(np.float32) * np.array([rng.uniform(1.04, 1.14), rng.uniform(1.0, 1.05),
                                               rng.uniform(.86, .94)], np.float32) * rng.uniform(.72, .88)
    yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    a = rng.uniform(0, math.pi)  # the band runs along this direction's normal
    u = ((xx - w / 2) * math.cos(a) + (yy - h / 2) * math.sin(a)) / max(w, h)
    c, half = rng.uniform(-.25, .25), rng.uniform(.12, .25)
    crisp, smeared = rng.uniform(.004, .012), rng.uniform(.04, .09)
    if rng.random() < .5:  # which edge leads depends on the way the train goes
        crisp, smeared = smeared, crisp
    band = 1 / (1 + np.exp(np.clip(-(u - (c - half)) / crisp, -60, 60)))
    band /= 1 + np.exp(np.clip(-((c + half) - u) / smeared, -60, 60))
    pillar = np.exp(-((u - (c + rng.uniform(-.5, .5) * half)) / rng.uniform(.015, .035)) ** 4)
    band *= 1 - rng.uniform(.6, .85) * pillar
    sun = np.array([.78, .94, 1.18], np.float32) * rng.uniform(.5, .85)
    img *= cv2.resize((1 + band[..., None] * sun).astype(np.float32), (w, h))
    # the shake: a few taps along a short jagged path, joined by faint lines
    r = max(3, int(max(w, h) * rng.uniform(.0012, .0026)))
    k = np.zeros((2 * r + 1, 2 * r + 1), np.float32)
    pts = [(r, r)] + [(int(r + rng.integers(-r, r + 1)), int(r + rng.integers(-r, r + 1))) for _ in range(int(rng.integers(2, 4)))]
    for p0, p1 in zip(pts, pts[1:]):
        cv2.line(k, p0, p1, .15, 1)
    for p0 in pts:
        k[p0[1], p0[0]] += float(rng.uniform(.5, 1.0))
    img = cv2.filter2D(img, -1, k / k.sum())
    return np.clip(img, 0, 255).astype(np.uint8)


def _style_q(rng, photo: np.ndarray) -> np.ndarray:
    """The sixteenth held-out camera: a café terrace at dusk — the blue hour's dim, cool light and
    a string of warm bulbs overhead lighting the frame from one side; the bulbs' point highlights on
    the glossy tiles along the string's sagging curve and a few out-of-focus bokeh discs; the glass
    table top reflecting the bulbs faintly over part of the frame (a soft cool veil with the bulbs'
    blurred copies in it); a smudged lens (a soft diagonal streak of haze, highlights smeared along
    it); and a dim scene's coarse noise."""
    h, w = photo.shape[:2]
    m = min(w, h)
    img = photo.astype(np.float32) * np.array([rng.uniform(1.05, 1.18), rng.uniform(.95, 1.0),
                                               rng.uniform(.78, .88)], np.float32) * rng.uniform(.62, .78)
    yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    a = rng.uniform(0, 2 * math.pi)  # the side the string of bulbs hangs on
    g = np.clip(.55 - ((xx - w / 2) * math.cos(a) + (yy - h / 2) * math.sin(a)) / max(w, h), 0, 1)
    warm = np.array([.55, .95, 1.45], np.float32)
    img *= cv2.resize((1 + rng.uniform(.3, .6) * g[..., None] ** 1.5 * warm).astype(np.float32), (w, h))
    # the string's curve across the frame (a sagging catenary), its bulbs spaced along it
    s0 = np.array([rng.uniform(-.1, .3) * w, rng.uniform(-.1, 1.1) * h])
    s1 = np.array([rng.uniform(.7, 1.1) * w, rng.uniform(-.1, 1.1) * h])
    if rng.random() < .5:
        s0, s1 = s0[::-1] * [w / h, h / w], s1[::-1] * [w / h, h / w]  # top to bottom instead
    sag = rng.uniform(.08, .25) * m
    nb = int(rng.integers(7, 13))
    ts = (np.arange(nb) + rng.uniform(.2, .8)) / nb
    dirv = (s1 - s0) / max(1.0, float(np.hypot(*(s1 - s0))))
    normal = np.array([-dirv[1], dirv[0]])
    bulbs = [s0 + (s1 - s0) * t + normal * sag * 4 * t * (1 - t) for t in ts]
    add = np.zeros((h // 4 + 1, w // 4 + 1, 3), np.float32)  # light added, at a quarter of the pixels
    ay, ax = np.mgrid[0:add.shape[0], 0:add.shape[1]].astype(np.float32) * 4
    glint = np.array([.6, .88, 1.0], np.float32)
    for bx, by in bulbs:  # a point highlight: a hot core and a faint glow round it
        r2 = (ax - bx) ** 2 + (ay - by) ** 2
        sg = rng.uniform(.0025, .005) * m
        add += (rng.uniform(170, 255) * np.exp(-r2 / (2 * sg ** 2)) + 22 * np.exp(-r2 / (2 * (5 * sg) ** 2)))[..., None] * glint
    for _ in range(int(rng.integers(2, 6))):  # bokeh: soft-edged discs, a little brighter at the rim
        bx, by = bulbs[int(rng.integers(nb))] + rng.normal(0, .15 * m, 2)
        r = rng.uniform(.03, .08) * m
        d = np.hypot(ax - bx, ay - by) / r
        disc = np.clip((1 - d) / .06, 0, 1) * (.8 + .3 * np.clip(d, 0, 1) ** 4)
        tint = np.array(rng.choice([[.45, .8, 1.0], [.6, .7, 1.0], [.35, .9, 1.0]]), np.float32)
        add += (rng.uniform(25, 60) * disc)[..., None] * tint
    # the glass top's reflection over part of the frame: a cool veil, the bulbs' blurred copies in it
    b = rng.uniform(0, 2 * math.pi)
    px, py = rng.uniform(.3, .7) * w, rng.uniform(.3, .7) * h
    side = 1 / (1 + np.exp(-((ax - px) * math.cos(b) + (ay - py) * math.sin(b)) / (.06 * m)))
    veil = side * rng.uniform(14, 28)
    off = np.array([math.cos(b), math.sin(b)]) * rng.uniform(.1, .3) * m
    for bx, by in bulbs:
        r2 = (ax - bx - off[0]) ** 2 + (ay - by - off[1]) ** 2
        veil += side * rng.uniform(20, 45) * np.exp(-r2 / (2 * (.02 * m) ** 2))
    add += veil[..., None] * np.array([1.0, .95, .85], np.float32)
    img += cv2.resize(add, (w, h))[:h, :w]
    # the smudged lens: a soft diagonal streak where the picture is hazed and its highlights smeared along it
    c = rng.uniform(math.pi / 6, math.pi / 3) * (1 if rng.random() < .5 else -1)
    qx, qy = rng.uniform(.25, .75) * w, rng.uniform(.25, .75) * h
    across = ((ax - qx) * -math.sin(c) + (ay - qy) * math.cos(c)) / m
    streak = np.exp(-(across / rng.uniform(.08, .16)) ** 2) * rng.uniform(.55, .85)
    small = cv2.resize(img, (add.shape[1], add.shape[0]), interpolation=cv2.INTER_AREA)
    haze = cv2.GaussianBlur(small, (0, 0), .006 * m) * .85 + small.mean() * .3
    hi = np.clip(small - 200, 0, None)
    haze += cv2.filter2D(hi, -1, line_kernel(max(5, int(.03 * m / 4)) | 1, c)) * 1.5
    mix = cv2.resize(streak.astype(np.float32), (w, h))[..., None]
    img = img * (1 - mix) + cv2.resize(haze, (w, h)) * mix
    kq = max(2, max(w, h) // 1000)
    noise = rng.normal(0, rng.uniform(2, 4), (h // kq + 1, w // kq + 1, 3)).astype(np.float32)
    img += cv2.resize(noise, (w, h))[:h, :w]
    return np.clip(img, 0, 255).astype(np.uint8)


def _messaging(rng, photo: np.ndarray, truth: dict | None = None) -> np.ndarray:
    """A photo as a messaging app passes it on: the phone's own JPEG (quality 85-95) decoded, turned
    upright (no EXIF tag kept), its long side scaled down to 1600-2400 px; ``truth``'s corners scaled
    with it. The caller saves it again at quality 60-72."""
    ok, buf = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(85, 96))])
    photo = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    h, w = photo.shape[:2]
    long = int(rng.integers(1600, 2401))
    f = long / max(w, h)
    if f < 1:
        photo = cv2.resize(photo, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA)
        if truth is not None and "corners" in truth:
            fx, fy = photo.shape[1] / w, photo.shape[0] / h
            truth["corners"] = [[round(x * fx, 1), round(y * fy, 1)] for x, y in truth["corners"]]
    return photo


def _photo(rng, grid, w, h, variant, truth=None, teach=False, **kw):
    if variant == "B":  # the held-out tables
        kw["bg"] = str(rng.choice(["paper", "floor", "linen"]))
    elif variant == "C":  # any table of either
        kw["bg"] = str(rng.choice(["paper", "floor", "linen", "wood", "cloth", "felt", "stone"]))
    elif variant == "D":  # plainer tables (a set must stay small in the repository), tilted more
        kw["bg"] = str(rng.choice(["floor", "linen", "felt", "stone"]))
        kw["tilt"] = kw.get("tilt", 0.0) * 1.5 + 2.0 if teach else min(30.0, kw.get("tilt", 0.0) * 1.5 + 6.0)
    elif variant == "E":  # indoor tables; teaching photos tilted as D's
        kw["bg"] = str(rng.choice(["wood", "cloth", "paper", "felt"]))
        if teach:
            kw["tilt"] = kw.get("tilt", 0.0) * 1.5 + 2.0
    elif variant == "F":  # a wood table, patterned floor tiles or checked cloth; tiles looser
        kw["bg"] = str(rng.choice(["wood", "floor", "cloth"]))
        kw["loose"] = kw.get("loose", 1.0) * 1.25
        if teach:
            kw["tilt"] = kw.get("tilt", 0.0) * 1.5 + 2.0
    elif variant == "G":  # a coloured or cluttered table, stone or cloth; planets may be small
        kw["bg"] = str(rng.choice(["colour", "busy", "stone", "cloth"]))
        if teach:
            kw["tilt"] = kw.get("tilt", 0.0) * 1.5 + 2.0
        elif rng.random() < .4:  # the planet a quarter to a third of the frame's short side
            kw["fill"] = float(rng.uniform(.25, .33))
    elif variant == "H":  # a dark table darker than the tiles' rims, or light paper near the edge's colour
        kw["bg"] = str(rng.choice(["dark", "dark", "paper", "wood"]))
        if teach:
            kw["tilt"] = kw.get("tilt", 0.0) * 1.5 + 2.0
        elif rng.random() < .4:  # strong perspective: the phone held low, 22-32°
            kw["tilt"] = float(rng.uniform(22, 32))
    elif variant == "I":  # outdoors: a garden table of slats, terrazzo or concrete
        kw["bg"] = str(rng.choice(["slats", "terrazzo", "concrete"]))
        if teach:
            kw["tilt"] = kw.get("tilt", 0.0) * 1.5 + 2.0
    elif variant == "J":  # an evening kitchen: a cork board, a striped tablecloth or dark granite
        kw["bg"] = str(rng.choice(["cork", "stripes", "granite"]))
        if teach:
            kw["tilt"] = kw.get("tilt", 0.0) * 1.5 + 2.0
    elif variant == "K":  # a low sun: a bamboo mat, denim or brown leather
        kw["bg"] = str(rng.choice(["bamboo", "denim", "leather"]))
        if teach:
            kw["tilt"] = kw.get("tilt", 0.0) * 1.5 + 2.0
    elif variant == "L":  # under a tree: a lawn, gravel or a woven rug on the ground
        kw["bg"] = str(rng.choice(["grass", "gravel", "rug"]))
        if teach:
            kw["tilt"] = kw.get("tilt", 0.0) * 1.5 + 2.0
    elif variant == "M":  # at the beach: sand, a terry towel or a marbled lino picnic mat
        kw["bg"] = str(rng.choice(["sand", "towel", "lino"]))
        if teach:
            kw["tilt"] = kw.get("tilt", 0.0) * 1.5 + 2.0
    elif variant == "N":  # a shop window at night: dark velvet, herringbone parquet or a black tray
        kw["bg"] = str(rng.choice(["velvet", "parquet", "tray"]))
        if teach:
            kw["tilt"] = kw.get("tilt", 0.0) * 1.5 + 2.0
    elif variant == "O":  # an office desk: a grey desk mat, a kraft blotter or pale oak
        kw["bg"] = str(rng.choice(["deskmat", "kraft", "oak"]))
        if teach:
            kw["tilt"] = kw.get("tilt", 0.0) * 1.5 + 2.0
    elif variant == "P":  # a train: a speckled laminate table, a seat's moquette or a fold-down tray
        kw["bg"] = str(rng.choice(["laminate", "moquette", "traytable"]))
        if teach:
            kw["tilt"] = kw.get("tilt", 0.0) * 1.5 + 2.0
    elif variant == "Q":  # a café terrace: a glass table top, a perforated steel bistro table or brushed zinc
        kw["bg"] = str(rng.choice(["glass", "perforated", "zinc"]))
        if teach:
            kw["tilt"] = kw.get("tilt", 0.0) * 1.5 + 2.0
    photo = take_photo(rng, grid, w, h, tile=tile_source(variant), truth=truth, **kw)
    if variant == "B":
        photo = _style_b(rng, photo)
    elif variant == "C":
        photo = _style_c(rng, photo)
    elif variant == "D":
        photo = _style_d(rng, photo)
    elif variant == "E":
        photo = _style_e(rng, photo)
    elif variant == "F":
        photo = _style_f(rng, photo)
    elif variant == "G":
        photo = _style_g(rng, photo, flash=bool(rng.random() < .5), gloss=bool(rng.random() < (.35 if teach else .6)))
    elif variant == "H":
        photo = _style_h(rng, photo)
    elif variant == "I":
        photo = _style_i(rng, photo)
    elif variant == "J":
        photo = _style_j(rng, photo)
    elif variant == "K":
        photo = _style_k(rng, photo)
    elif variant == "L":
        photo = _style_l(rng, photo)
    elif variant == "M":
        photo = _style_m(rng, photo)
    elif variant == "N":
        photo = _style_n(rng, photo)
    elif variant == "O":
        photo = _style_o(rng, photo)
    elif variant == "P":
        photo = _style_p(rng, photo)
    elif variant == "Q":
        photo = _style_q(rng, photo)
    return photo


def make_teaching(out: Path, rng, variant: str, truths: list | None = None, lens: float | None = None) -> list[Path]:
    """The six teaching photos, each with its grid and where its layout lies (``take_photo``'s
    ``truth``: ``corners``, ``gap``) in ``tNN.json``; ``truths``, if given, receives each truth
    too (the photos are the same either way)."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for i, grid in enumerate(teaching_plan()):
        truth: dict = {}
        # D: taken with a phone at its full size (the others: 1600×1200)
        w, h = phone_size(rng, portrait=False) if variant in "DEFGHIJKLMNOPQ" else (1600, 1200)
        photo = _photo(rng, grid, w, h, variant, truth, teach=True, hand=True, angle=float(rng.uniform(-4, 4)),
                       tilt=float(rng.uniform(0, 8)), fill=float(rng.uniform(.6, .85)),
                       bg=BACKGROUNDS[i % 3], light=float(rng.uniform(.1, .35)), blur=0.0,
                       noise=float(rng.uniform(1, 3)), loose=.35, lens=lens)
        path = out / f"t{i + 1:02d}.jpg"
        save_jpeg(path, photo, 84 if variant == "D" else 70 if variant in "EFGHIJKLMNOPQ" else 88)
        # the grid and where its lattice lies (``corners``: the outer corners of cells 0, 3, 15, 12,
        # ``gap``), as a test photo's truth: the corners a teacher would tap (``vision.bench``)
        (out / f"t{i + 1:02d}.json").write_text(json.dumps({**grid, **truth}) + "\n")
        written.append(path)
        if truths is not None:
            truths.append(truth)
    return written


def _test_quality(rng, variant: str) -> int:
    """A test photo's JPEG quality (60 up): phone-size variants D to Q kept small."""
    return int(rng.integers(60, 87 if variant == "D" else 75 if variant in "EFGHIJKLMNOPQ" else 93))


def make_tests(out: Path, rng, variant: str, count: int, empty: int, small: int, lens: float | None = None) -> list[Path]:
    """Phone photos (``samples.PHONE_SIZES``); the first ``small`` are 1280×960 instead."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for i in range(count):
        w, h = ((1280, 960) if i % 3 else (960, 1280)) if i < small else phone_size(rng, portrait=i % 3 == 0)
        grid = random_planet(rng, backs=True if i % 4 == 1 else None)
        angle = float(rng.choice([0, 90, 180, 270])) + (rng.uniform(-180, 180) if i % 3 == 0 else rng.uniform(-4, 4))
        fill = float(rng.uniform(.3, .9)) if i % 3 else float(rng.uniform(.3, .7))
        truth: dict = {}
        photo = _photo(rng, grid, w, h, variant, truth, hand=(i % 5 != 4), angle=angle,
                       tilt=float(rng.uniform(0, 30)) if i % 2 == 0 else float(rng.uniform(0, 10)),
                       fill=fill, bg=BACKGROUNDS[i % 5] if BACKGROUNDS[i % 5] != "noise" else "stone",
                       light=float(rng.uniform(.1, .7)), blur=float(rng.choice([0, 0, .8, 1.5, 2.5])) * (max(w, h) / 1600),
                       noise=float(rng.uniform(1, 6)), lens=lens)
        q = _test_quality(rng, variant)
        path = out / f"p{i + 1:02d}.jpg"
        if variant == "Q":  # sent on through a messaging app: scaled down, upright, recompressed
            photo = _messaging(rng, photo, truth)
            save_jpeg(path, photo, int(rng.integers(60, 73)))
        else:
            save_jpeg(path, photo, q, int(rng.choice([6, 8, 3])) if i % 4 == 0 and i >= small else 1)
        (out / f"p{i + 1:02d}.json").write_text(json.dumps({**grid, **truth}) + "\n")
        written.append(path)
    kinds = ("wood", "blank", "noise", "face", "text", "cloth", "felt")
    if variant == "D":  # other no-planet photos than the other sets' (and smaller files)
        kinds = ("face", "text", "felt", "blank")
    if variant == "E":
        kinds = ("text", "wood", "face", "cloth")
    if variant == "F":
        kinds = ("wood", "face", "blank", "text")
    if variant == "G":
        kinds = ("cloth", "text", "face", "wood")
    if variant == "H":
        kinds = ("wood", "face", "text", "blank")
    if variant == "I":
        kinds = ("slats", "text", "face", "blank")
    if variant == "J":
        kinds = ("cork", "face", "blank", "text")
    if variant == "K":
        kinds = ("denim", "text", "face", "blank")
    if variant == "L":
        kinds = ("grass", "face", "text", "blank")
    if variant == "M":
        kinds = ("sand", "text", "blank", "face")
    if variant == "N":
        kinds = ("velvet", "face", "text", "blank")
    if variant == "O":
        kinds = ("deskmat", "text", "face", "blank")
    if variant == "P":
        kinds = ("moquette", "face", "blank", "text")
    if variant == "Q":
        kinds = ("perforated", "face", "glass", "text")
    for i in range(empty):
        path = out / f"n{i + 1:02d}.jpg"
        img = phone_empty(rng, *phone_size(rng, portrait=False), kinds[i % len(kinds)])
        if variant == "D":  # the same camera (and kept small: flat pictures of grain)
            img = _style_d(rng, img)
        elif variant == "E":
            img = _style_e(rng, img)
        elif variant == "F":
            img = _style_f(rng, img)
        elif variant == "G":
            img = _style_g(rng, img, flash=bool(rng.random() < .5), gloss=bool(rng.random() < .6))
        elif variant == "H":
            img = _style_h(rng, img)
        elif variant == "I":
            img = _style_i(rng, img)
        elif variant == "J":
            img = _style_j(rng, img)
        elif variant == "K":
            img = _style_k(rng, img)
        elif variant == "L":
            img = _style_l(rng, img)
        elif variant == "M":
            img = _style_m(rng, img)
        elif variant == "N":
            img = _style_n(rng, img)
        elif variant == "O":
            img = _style_o(rng, img)
        elif variant == "P":
            img = _style_p(rng, img)
        elif variant == "Q":
            img = _messaging(rng, _style_q(rng, img))
        save_jpeg(path, img, int(rng.integers(60, 73)) if variant == "Q" else int(rng.integers(60, 81 if variant in "DEFGHIJKLMNOPQ" else 93)))
        (out / f"n{i + 1:02d}.json").write_text(json.dumps({"planet": None}) + "\n")
        written.append(path)
    return written


def make_beside(out: Path, rng, variant: str, count: int, lens: float | None = None, tilt: float = 20.0,
                fill: tuple = (0.28, 0.5)) -> list[Path]:
    """``bNN.jpg``: a planet photographed at the table's end of game, with a neighbour's planet
    beside it on the same table, partly or wholly in frame (``samples.take_photo``'s
    ``neighbour``); the player aims at their own, so it lies near the frame's middle. The truth
    (``bNN.json``) is the planet aimed at; ``neighbour`` holds the other's cells and corners. The
    camera tilted up to ``tilt`` degrees, the planet ``fill`` (low, high) of the short side (issue
    8's full conditions: 30, 0.25 up; stop 62's sets were made at 20, 0.28-0.5)."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for i in range(count):
        w, h = phone_size(rng, portrait=i % 3 == 0)
        grid, other = random_planet(rng), random_planet(rng)
        angle = float(rng.choice([0, 90, 180, 270])) + float(rng.uniform(-180, 180) if i % 3 == 0 else rng.uniform(-6, 6))
        truth: dict = {}
        photo = _photo(rng, grid, w, h, variant, truth, hand=True, angle=angle, tilt=float(rng.uniform(0, tilt)),
                       fill=float(rng.uniform(*fill)), bg=BACKGROUNDS[i % 5] if BACKGROUNDS[i % 5] != "noise" else "stone",
                       light=float(rng.uniform(.1, .6)), blur=float(rng.choice([0, 0, .8, 1.5])) * (max(w, h) / 1600),
                       noise=float(rng.uniform(1, 5)), neighbour=other, lens=lens)
        path = out / f"b{i + 1:02d}.jpg"
        save_jpeg(path, photo, _test_quality(rng, variant))
        (out / f"b{i + 1:02d}.json").write_text(json.dumps({**grid, **truth}) + "\n")
        written.append(path)
    return written


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m vision.samples_box")
    ap.add_argument("outdir")
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--variant", choices=tuple("ABCDEFGHIJKLMNOPQ"), default="A")
    ap.add_argument("--count", type=int, default=32)
    ap.add_argument("--empty", type=int, default=7)
    ap.add_argument("--small", type=int, default=0, help="how many 1280×960 photos (the rest: phone size)")
    ap.add_argument("--beside", type=int, default=0,
                    help="how many photos with a neighbour's planet beside the one photographed (test/bNN.jpg, made last)")
    ap.add_argument("--beside-tilt", type=float, default=20.0,
                    help="the camera's tilt in the photos with a neighbour's planet: up to this many degrees")
    ap.add_argument("--beside-fill", default="0.28,0.5",
                    help="… the planet aimed at this part of the short side: LOW,HIGH")
    add_lens_argument(ap)
    a = ap.parse_args(argv)
    rng = np.random.default_rng(a.seed)
    out = Path(a.outdir)
    for p in (make_teaching(out / "teach", rng, a.variant, lens=a.lens)
              + make_tests(out / "test", rng, a.variant, a.count, a.empty, a.small, lens=a.lens)
              + make_beside(out / "test", rng, a.variant, a.beside, lens=a.lens, tilt=a.beside_tilt,
                            fill=tuple(float(x) for x in a.beside_fill.split(",")))):
        print(p)


if __name__ == "__main__":
    main()
