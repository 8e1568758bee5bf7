"""Reference art for the 80 tiles and the tile back, drawn by code from the catalog.

Run ``python -m vision.art [OUTDIR]`` (default ``vision/reference``) to (re)draw
``<id>.png`` for every tile and ``back.png``. The pictures are placeholders for the real tile art:
each stack has its own colour and band (centers sand, uphill edges green with ▲, downhill edges
blue with ▼, characters lilac with the character's name), items are simple icons, and every tile
carries its id small in the bottom-right corner. A user who owns the game may replace the files
with scans (see ``vision/README.md``).

Drawn at 2× and scaled down for smooth edges. Pure Pillow, deterministic.
"""
from __future__ import annotations

import math
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

SIZE = 256
S = 2  # supersampling
W = SIZE * S

FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu",
             "/usr/share/fonts/TTF", "/Library/Fonts", "C:/Windows/Fonts")

STACK_STYLE = {
    # face colour, band colour, band text colour
    "center": ((246, 222, 150), (214, 160, 60), (60, 35, 0)),
    "uphill": ((170, 222, 140), (60, 140, 60), (255, 255, 255)),
    "downhill": ((150, 200, 240), (40, 90, 170), (255, 255, 255)),
    "character": ((236, 200, 236), (140, 70, 150), (255, 255, 255)),
}
FRAME = (40, 38, 60)
INK = (40, 38, 60)

CHARACTER_STYLE = {
    # robe colour, prop — colours kept far apart so a blurred photo still tells them apart
    "vain_man": ((215, 35, 45), "hat"),
    "geographer": ((160, 150, 70), "globe"),
    "astronomer": ((35, 55, 150), "telescope"),
    "king": ((125, 40, 165), "crown"),
    "lamplighter": ((240, 150, 20), "lamp"),
    "hunter": ((65, 85, 35), "rifle"),
    "drunkard": ((80, 80, 100), "bottle"),
    "businessman_white": ((245, 245, 245), "tie"),
    "businessman_grey": ((140, 140, 140), "tie"),
    "businessman_brown": ((140, 90, 45), "tie"),
    "gardener": ((40, 165, 60), "can"),
    "turkish_astronomer": ((20, 175, 200), "fez"),
    "little_prince": ((240, 120, 170), "scarf"),
}


def _font(size: int, bold: bool = True):
    names = ("DejaVuSans-Bold.ttf", "DejaVuSansCondensed-Bold.ttf") if bold else ("DejaVuSans.ttf",)
    for d in FONT_DIRS:
        for n in names:
            p = Path(d) / n
            if p.exists():
                return ImageFont.truetype(str(p), size)
    return ImageFont.load_default(size=size)


# --------------------------------------------------------------------------------------------
# icons: each draws into the box (x, y, s) — top-left corner and side, in supersampled pixels


def _ell(d, cx, cy, rx, ry, **kw):
    d.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), **kw)


def icon_baobab(d, x, y, s):
    lw = max(2, int(s // 30))
    d.polygon([(x + s * .40, y + s * .95), (x + s * .44, y + s * .45), (x + s * .56, y + s * .45),
               (x + s * .60, y + s * .95)], fill=(120, 72, 30), outline=INK, width=lw)
    for cx, cy, r in ((.30, .38, .22), (.70, .38, .22), (.5, .25, .25), (.5, .45, .2)):
        _ell(d, x + s * cx, y + s * cy, s * r, s * r * .85, fill=(40, 120, 50), outline=INK, width=lw)
    for cx, cy, r in ((.30, .38, .15), (.70, .38, .15), (.5, .25, .18)):
        _ell(d, x + s * cx, y + s * cy, s * r, s * r * .8, fill=(60, 150, 60))


def icon_volcano(d, x, y, s):
    lw = max(2, int(s // 30))
    _ell(d, x + s * .55, y + s * .18, s * .14, s * .09, fill=(170, 170, 170))
    _ell(d, x + s * .68, y + s * .10, s * .10, s * .07, fill=(190, 190, 190))
    d.polygon([(x + s * .08, y + s * .92), (x + s * .38, y + s * .35), (x + s * .62, y + s * .35),
               (x + s * .92, y + s * .92)], fill=(110, 80, 70), outline=INK, width=lw)
    d.polygon([(x + s * .38, y + s * .35), (x + s * .62, y + s * .35), (x + s * .56, y + s * .52),
               (x + s * .50, y + s * .44), (x + s * .44, y + s * .55)], fill=(240, 80, 20))


def icon_sunset(d, x, y, s):
    lw = max(2, int(s // 30))
    d.rectangle((x + s * .05, y + s * .15, x + s * .95, y + s * .62), fill=(250, 190, 120))
    cx, cy = x + s * .5, y + s * .62
    for k in range(7):
        a = math.pi * (k + .5) / 7
        d.line((cx - math.cos(a) * s * .30, cy - math.sin(a) * s * .30,
                cx - math.cos(a) * s * .43, cy - math.sin(a) * s * .43), fill=(230, 90, 30), width=int(lw * 2))
    d.pieslice((cx - s * .26, cy - s * .26, cx + s * .26, cy + s * .26), 180, 360,
               fill=(240, 110, 30), outline=INK, width=lw)
    d.rectangle((x + s * .05, y + s * .62, x + s * .95, y + s * .85), fill=(120, 70, 140), outline=INK, width=lw)


def icon_rose(d, x, y, s):
    lw = max(2, int(s // 30))
    d.line((x + s * .5, y + s * .45, x + s * .5, y + s * .95), fill=(40, 120, 40), width=int(lw * 3))
    _ell(d, x + s * .36, y + s * .70, s * .12, s * .06, fill=(60, 150, 60), outline=INK, width=lw)
    _ell(d, x + s * .64, y + s * .62, s * .12, s * .06, fill=(60, 150, 60), outline=INK, width=lw)
    _ell(d, x + s * .5, y + s * .30, s * .24, s * .22, fill=(210, 30, 50), outline=INK, width=lw)
    _ell(d, x + s * .5, y + s * .28, s * .13, s * .12, fill=(240, 70, 90), outline=INK, width=lw)


def icon_lamppost(d, x, y, s):
    lw = max(2, int(s // 30))
    _ell(d, x + s * .5, y + s * .22, s * .26, s * .22, fill=(255, 236, 120))
    d.rectangle((x + s * .46, y + s * .30, x + s * .54, y + s * .90), fill=(50, 50, 70))
    d.rectangle((x + s * .32, y + s * .88, x + s * .68, y + s * .96), fill=(50, 50, 70))
    d.polygon([(x + s * .36, y + s * .32), (x + s * .40, y + s * .12), (x + s * .60, y + s * .12),
               (x + s * .64, y + s * .32)], fill=(255, 210, 40), outline=INK, width=lw)
    d.rectangle((x + s * .38, y + s * .06, x + s * .62, y + s * .12), fill=(50, 50, 70))


def icon_box(d, x, y, s):
    lw = max(2, int(s // 30))
    d.polygon([(x + s * .12, y + s * .38), (x + s * .62, y + s * .38), (x + s * .62, y + s * .90),
               (x + s * .12, y + s * .90)], fill=(200, 150, 90), outline=INK, width=lw)
    d.polygon([(x + s * .12, y + s * .38), (x + s * .36, y + s * .18), (x + s * .88, y + s * .18),
               (x + s * .62, y + s * .38)], fill=(225, 180, 120), outline=INK, width=lw)
    d.polygon([(x + s * .62, y + s * .38), (x + s * .88, y + s * .18), (x + s * .88, y + s * .70),
               (x + s * .62, y + s * .90)], fill=(170, 120, 70), outline=INK, width=lw)
    for cx, cy in ((.27, .55), (.47, .55), (.37, .72)):
        _ell(d, x + s * cx, y + s * cy, s * .04, s * .04, fill=INK)


def _star_points(cx, cy, r, inner=.45, n=5, rot=-math.pi / 2):
    pts = []
    for k in range(2 * n):
        rr = r if k % 2 == 0 else r * inner
        a = rot + k * math.pi / n
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return pts


def icon_star(d, x, y, s):
    lw = max(2, int(s // 25))
    d.polygon(_star_points(x + s * .5, y + s * .53, s * .46), fill=(255, 205, 30), outline=(150, 90, 0), width=lw)
    d.polygon(_star_points(x + s * .5, y + s * .53, s * .2), fill=(255, 245, 160))


def icon_fox(d, x, y, s):
    lw = max(2, int(s // 30))
    orange = (230, 110, 30)
    d.polygon([(x + s * .18, y + s * .12), (x + s * .40, y + s * .36), (x + s * .22, y + s * .48)],
              fill=orange, outline=INK, width=lw)
    d.polygon([(x + s * .82, y + s * .12), (x + s * .60, y + s * .36), (x + s * .78, y + s * .48)],
              fill=orange, outline=INK, width=lw)
    d.polygon([(x + s * .14, y + s * .40), (x + s * .86, y + s * .40), (x + s * .5, y + s * .92)],
              fill=orange, outline=INK, width=lw)
    d.polygon([(x + s * .30, y + s * .62), (x + s * .70, y + s * .62), (x + s * .5, y + s * .92)],
              fill=(255, 245, 230))
    _ell(d, x + s * .36, y + s * .52, s * .04, s * .04, fill=INK)
    _ell(d, x + s * .64, y + s * .52, s * .04, s * .04, fill=INK)
    _ell(d, x + s * .5, y + s * .88, s * .05, s * .04, fill=INK)


def icon_elephant(d, x, y, s):
    lw = max(2, int(s // 30))
    g = (150, 150, 165)
    for lx in (.26, .40, .58, .72):
        d.rectangle((x + s * lx, y + s * .62, x + s * (lx + .09), y + s * .88), fill=g, outline=INK, width=lw)
    _ell(d, x + s * .48, y + s * .52, s * .32, s * .22, fill=g, outline=INK, width=lw)
    _ell(d, x + s * .80, y + s * .40, s * .15, s * .15, fill=g, outline=INK, width=lw)
    d.line((x + s * .92, y + s * .45, x + s * .95, y + s * .70, x + s * .88, y + s * .86),
           fill=INK, width=int(lw * 5), joint="curve")
    d.line((x + s * .92, y + s * .45, x + s * .95, y + s * .70, x + s * .88, y + s * .86),
           fill=g, width=int(lw * 3), joint="curve")
    _ell(d, x + s * .72, y + s * .40, s * .09, s * .13, fill=(175, 175, 190), outline=INK, width=lw)
    _ell(d, x + s * .84, y + s * .36, s * .025, s * .025, fill=INK)


def icon_snake(d, x, y, s):
    lw = max(2, int(s // 30))
    pts = [(x + s * (.08 + .8 * t / 40), y + s * (.55 + .22 * math.sin(t / 40 * 2.2 * math.pi)))
           for t in range(41)]
    d.line(pts, fill=INK, width=int(s * .16), joint="curve")
    d.line(pts, fill=(90, 170, 60), width=int(s * .12), joint="curve")
    for px, py in pts[4:36:6]:
        _ell(d, px, py, s * .025, s * .025, fill=(230, 200, 60))
    hx, hy = pts[-1]
    _ell(d, hx, hy - s * .02, s * .10, s * .08, fill=(90, 170, 60), outline=INK, width=lw)
    _ell(d, hx + s * .03, hy - s * .05, s * .02, s * .02, fill=INK)


SHEEP_WOOL = {"sheep_white": (255, 255, 255), "sheep_grey": (150, 150, 150), "sheep_brown": (150, 95, 45)}


def icon_sheep(d, x, y, s, wool):
    lw = max(2, int(s // 30))
    for lx in (.30, .42, .58, .70):
        d.rectangle((x + s * lx, y + s * .65, x + s * (lx + .06), y + s * .90), fill=INK)
    for cx, cy in ((.30, .45), (.45, .35), (.60, .35), (.72, .47), (.40, .58), (.60, .60), (.50, .47)):
        _ell(d, x + s * cx, y + s * cy, s * .16, s * .14, fill=INK)
    for cx, cy in ((.30, .45), (.45, .35), (.60, .35), (.72, .47), (.40, .58), (.60, .60), (.50, .47)):
        _ell(d, x + s * cx, y + s * cy, s * .16 - lw, s * .14 - lw, fill=wool)
    _ell(d, x + s * .18, y + s * .42, s * .11, s * .09, fill=(50, 45, 50), outline=INK, width=lw)
    _ell(d, x + s * .14, y + s * .40, s * .02, s * .02, fill=(255, 255, 255))


ICONS = {
    "baobab": icon_baobab, "volcano": icon_volcano, "sunset": icon_sunset, "rose": icon_rose,
    "lamppost": icon_lamppost, "box": icon_box, "star": icon_star, "fox": icon_fox,
    "elephant": icon_elephant, "snake": icon_snake,
    "sheep_white": lambda d, x, y, s: icon_sheep(d, x, y, s, SHEEP_WOOL["sheep_white"]),
    "sheep_grey": lambda d, x, y, s: icon_sheep(d, x, y, s, SHEEP_WOOL["sheep_grey"]),
    "sheep_brown": lambda d, x, y, s: icon_sheep(d, x, y, s, SHEEP_WOOL["sheep_brown"]),
}


# --------------------------------------------------------------------------------------------
# characters


def draw_character(d, character, x, y, s):
    """A figure in the box (x, y, s): robe in the character's colour, head, and a prop."""
    robe, prop = CHARACTER_STYLE[character]
    lw = max(3, int(s // 40))
    skin = (250, 215, 180)
    # robe
    d.polygon([(x + s * .5, y + s * .38), (x + s * .18, y + s * .98), (x + s * .82, y + s * .98)],
              fill=robe, outline=INK, width=lw)
    # head
    _ell(d, x + s * .5, y + s * .30, s * .14, s * .14, fill=skin, outline=INK, width=lw)
    _ell(d, x + s * .45, y + s * .29, s * .018, s * .018, fill=INK)
    _ell(d, x + s * .55, y + s * .29, s * .018, s * .018, fill=INK)
    if prop == "hat":  # tall hat with a feather
        d.rectangle((x + s * .38, y + s * .02, x + s * .62, y + s * .19), fill=(30, 30, 30), outline=INK, width=lw)
        d.rectangle((x + s * .30, y + s * .17, x + s * .70, y + s * .21), fill=(30, 30, 30))
        d.line((x + s * .62, y + s * .05, x + s * .78, y + s * -.0), fill=(230, 60, 80), width=int(lw * 3))
    elif prop == "globe":
        _ell(d, x + s * .80, y + s * .60, s * .16, s * .16, fill=(80, 150, 220), outline=INK, width=lw)
        d.polygon([(x + s * .72, y + s * .52), (x + s * .84, y + s * .50), (x + s * .82, y + s * .64),
                   (x + s * .74, y + s * .66)], fill=(90, 170, 70))
        d.line((x + s * .80, y + s * .76, x + s * .80, y + s * .90), fill=INK, width=lw)
        _ell(d, x + s * .5, y + s * .19, s * .12, s * .05, fill=(200, 200, 200))
    elif prop == "telescope":
        d.line((x + s * .56, y + s * .50, x + s * .95, y + s * .10), fill=(200, 170, 60), width=int(s * .09))
        d.line((x + s * .56, y + s * .50, x + s * .95, y + s * .10), fill=INK, width=lw)
        d.polygon(_star_points(x + s * .15, y + s * .14, s * .08), fill=(255, 220, 60))
    elif prop == "crown":
        d.polygon([(x + s * .34, y + s * .20), (x + s * .34, y + s * .04), (x + s * .42, y + s * .12),
                   (x + s * .50, y + s * .00), (x + s * .58, y + s * .12), (x + s * .66, y + s * .04),
                   (x + s * .66, y + s * .20)], fill=(250, 200, 30), outline=INK, width=lw)
        d.polygon([(x + s * .5, y + s * .44), (x + s * .10, y + s * .98), (x + s * .30, y + s * .98)],
                  fill=(250, 250, 250), outline=INK, width=lw)
    elif prop == "lamp":
        d.line((x + s * .80, y + s * .30, x + s * .80, y + s * .98), fill=(50, 50, 70), width=int(lw * 2))
        _ell(d, x + s * .80, y + s * .22, s * .12, s * .12, fill=(255, 230, 90), outline=INK, width=lw)
        d.polygon([(x + s * .38, y + s * .20), (x + s * .62, y + s * .20), (x + s * .5, y + s * .08)],
                  fill=(60, 60, 90))
    elif prop == "rifle":
        d.line((x + s * .20, y + s * .80, x + s * .92, y + s * .20), fill=(90, 60, 30), width=int(s * .05))
        d.line((x + s * .60, y + s * .47, x + s * .92, y + s * .20), fill=(60, 60, 60), width=int(s * .03))
        d.rectangle((x + s * .36, y + s * .12, x + s * .64, y + s * .19), fill=(60, 90, 40), outline=INK, width=lw)
    elif prop == "bottle":
        d.rectangle((x + s * .74, y + s * .52, x + s * .88, y + s * .86), fill=(40, 130, 70), outline=INK, width=lw)
        d.rectangle((x + s * .78, y + s * .42, x + s * .84, y + s * .52), fill=(40, 130, 70), outline=INK, width=lw)
        _ell(d, x + s * .5, y + s * .34, s * .04, s * .03, fill=(220, 60, 60))
    elif prop == "tie":
        d.polygon([(x + s * .5, y + s * .46), (x + s * .45, y + s * .52), (x + s * .5, y + s * .80),
                   (x + s * .55, y + s * .52)], fill=(200, 30, 40), outline=INK, width=lw)
        d.rectangle((x + s * .70, y + s * .62, x + s * .95, y + s * .86), fill=(250, 250, 235), outline=INK, width=lw)
        for k in range(3):
            d.line((x + s * .74, y + s * (.68 + .06 * k), x + s * .91, y + s * (.68 + .06 * k)), fill=INK, width=lw)
        d.rectangle((x + s * .40, y + s * .13, x + s * .60, y + s * .17), fill=(40, 40, 40))
    elif prop == "can":
        d.polygon([(x + s * .70, y + s * .62), (x + s * .90, y + s * .62), (x + s * .88, y + s * .88),
                   (x + s * .72, y + s * .88)], fill=(150, 160, 170), outline=INK, width=lw)
        d.line((x + s * .70, y + s * .68, x + s * .58, y + s * .55), fill=(150, 160, 170), width=int(lw * 2))
        d.pieslice((x + s * .33, y + s * .08, x + s * .67, y + s * .36), 180, 360, fill=(220, 190, 90), outline=INK, width=lw)
    elif prop == "fez":
        d.polygon([(x + s * .40, y + s * .20), (x + s * .43, y + s * .04), (x + s * .57, y + s * .04),
                   (x + s * .60, y + s * .20)], fill=(210, 30, 30), outline=INK, width=lw)
        d.line((x + s * .5, y + s * .04, x + s * .63, y + s * .12), fill=INK, width=lw)
        d.polygon(_star_points(x + s * .82, y + s * .22, s * .08), fill=(255, 220, 60))
    elif prop == "scarf":
        for cx, cy in ((.40, .18), (.5, .13), (.60, .18), (.45, .16), (.55, .15)):
            _ell(d, x + s * cx, y + s * cy, s * .08, s * .06, fill=(250, 205, 40))
        d.polygon([(x + s * .40, y + s * .44), (x + s * .60, y + s * .44), (x + s * .86, y + s * .36),
                   (x + s * .84, y + s * .46), (x + s * .60, y + s * .50)], fill=(250, 215, 60), outline=INK, width=lw)


# --------------------------------------------------------------------------------------------
# whole tiles


def _text_center(d, box, text, font, fill):
    x0, y0, x1, y1 = box
    l, t, r, b = d.textbbox((0, 0), text, font=font)
    d.text(((x0 + x1 - (r - l)) / 2 - l, (y0 + y1 - (b - t)) / 2 - t), text, font=font, fill=fill)


def _fit_font(d, text, max_w, size):
    while size > 10:
        f = _font(size)
        l, _, r, _ = d.textbbox((0, 0), text, font=f)
        if r - l <= max_w:
            return f
        size -= 2
    return _font(size)


def _icon_boxes(n, x0, y0, x1, y1):
    """Square boxes for n icons laid out in the rectangle."""
    cols = {1: 1, 2: 2, 3: 3, 4: 2, 5: 3, 6: 3}.get(n, 4)
    rows = math.ceil(n / cols)
    w, h = x1 - x0, y1 - y0
    s = min(w / cols, h / rows) * .92
    out = []
    for i in range(n):
        r, c = divmod(i, cols)
        in_row = min(cols, n - r * cols)
        ox = x0 + (w - in_row * w / cols) / 2
        cx = ox + (c + .5) * w / cols
        cy = y0 + (r + .5) * h / rows
        out.append((cx - s / 2, cy - s / 2, s))
    return out


# The band of a tile without words (the pages, in any language): the stack's sign alone; a
# character tile's figure is its emblem.
WORDLESS_BAND = {"center": "◆", "uphill": "▲  ▲  ▲", "downhill": "▼  ▼  ▼", "character": ""}


def draw_tile(tile, words: bool = True) -> Image.Image:
    """One tile's picture; ``words=False`` leaves out every word (the pages use it: a French or
    Chinese reader sees no English), the reference images keep them (the recognizer uses them)."""
    face, band, band_ink = STACK_STYLE[tile.stack]
    img = Image.new("RGB", (W, W), FRAME)
    d = ImageDraw.Draw(img)
    m = 10 * S  # dark frame
    d.rectangle((m, m, W - m - 1, W - m - 1), fill=face)
    band_h = 44 * S
    d.rectangle((m, m, W - m - 1, m + band_h), fill=band)
    from scorer.catalog import CHARACTER_NAMES
    if not words:
        label = WORDLESS_BAND[tile.stack]
    elif tile.stack == "character":
        label = CHARACTER_NAMES[tile.character]
    else:
        label = {"center": "CENTER", "uphill": "▲ UPHILL ▲", "downhill": "▼ DOWNHILL ▼"}[tile.stack]
    if label:
        font = _fit_font(d, label, W - 2 * m - 16 * S, 26 * S)
        _text_center(d, (m, m, W - m, m + band_h), label, font, band_ink)
    top, bottom = m + band_h + 6 * S, W - m - 22 * S
    if tile.stack == "character":
        fig = bottom - top
        draw_character(d, tile.character, (W - fig) / 2 - 14 * S, top, fig)
        stars = tile.count("star")
        for k in range(stars):
            icon_star(d, W - m - 58 * S, top + k * 56 * S, 52 * S)
    else:
        # wavy ground line hints at the planet's rim: up for uphill, down for downhill
        if tile.stack in ("uphill", "downhill"):
            col = tuple(int(c * .8) for c in face)
            sign = -1 if tile.stack == "uphill" else 1
            for k in range(3):
                yy = W - m - 10 * S - k * 8 * S
                x0 = m + 20 * S
                d.line([(x0 + t * 6 * S, yy + sign * (t * 1.0 * S)) for t in range(0, 28)],
                       fill=col, width=3 * S)
        icons = [it for it in tile.items for _ in range(tile.items[it])]
        for (ix, iy, s), it in zip(_icon_boxes(len(icons), m + 8 * S, top, W - m - 8 * S, bottom), icons):
            ICONS[it](d, ix, iy, s)
    # the id, small, bottom-right
    f = _font(16 * S)
    l, t, r, b = d.textbbox((0, 0), tile.id, font=f)
    d.text((W - m - (r - l) - 6 * S - l, W - m - (b - t) - 5 * S - t), tile.id, font=f, fill=INK)
    return img.resize((SIZE, SIZE), Image.LANCZOS)


def draw_back() -> Image.Image:
    """The tile back: the same dark frame as the faces, a golden rim, and a golden planet on a
    night sky with rays and stars."""
    img = Image.new("RGB", (W, W), FRAME)
    d = ImageDraw.Draw(img)
    m = 10 * S
    d.rectangle((m, m, W - m - 1, W - m - 1), fill=(244, 214, 120))
    r = m + 9 * S
    d.rectangle((r, r, W - r - 1, W - r - 1), fill=(22, 30, 70))
    c = W / 2
    for k in range(16):
        a = k * math.pi / 8
        d.line((c + math.cos(a) * 60 * S, c + math.sin(a) * 60 * S,
                c + math.cos(a) * 100 * S, c + math.sin(a) * 100 * S), fill=(60, 80, 150), width=6 * S)
    _ell(d, c, c, 74 * S, 74 * S, fill=(240, 190, 60), outline=(255, 240, 180), width=5 * S)
    _ell(d, c, c, 48 * S, 48 * S, fill=(220, 120, 50))
    _ell(d, c - 15 * S, c - 15 * S, 15 * S, 15 * S, fill=(250, 210, 120))
    for (sx, sy, rr) in ((48, 48, 11), (208, 48, 9), (48, 208, 9), (208, 208, 12), (128, 36, 6), (128, 220, 6)):
        d.polygon(_star_points(sx * S, sy * S, rr * S), fill=(255, 240, 170))
    return img.resize((SIZE, SIZE), Image.LANCZOS)


def draw_empty(size: int) -> Image.Image:
    """An empty position: a pale cell with a dashed outline."""
    img = Image.new("RGB", (size, size), (236, 236, 232))
    d = ImageDraw.Draw(img)
    step = max(4, size // 16)
    w = max(1, size // 64)
    for i in range(0, size, step * 2):
        for (a, b) in (((i, w), (min(i + step, size - 1), w)), ((i, size - 1 - w), (min(i + step, size - 1), size - 1 - w)),
                       ((w, i), (w, min(i + step, size - 1))), ((size - 1 - w, i), (size - 1 - w, min(i + step, size - 1)))):
            d.line((a, b), fill=(170, 170, 165), width=w)
    return img


def generate(outdir: Path | str | None = None) -> Path:
    from scorer.catalog import catalog
    from .paths import REFERENCE_DIR
    out = Path(outdir) if outdir else REFERENCE_DIR
    out.mkdir(parents=True, exist_ok=True)
    for tile in catalog():
        draw_tile(tile).save(out / f"{tile.id}.png", optimize=True)
    draw_back().save(out / "back.png", optimize=True)
    return out


if __name__ == "__main__":
    print(generate(sys.argv[1] if len(sys.argv) > 1 else None))
