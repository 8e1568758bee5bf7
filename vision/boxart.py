"""A second box of tiles, drawn our own way, to test teaching the app a box it has never seen.

Unlike the shipped reference art (``vision/art.py``: a flat colour per stack, the id printed in
a corner) these tiles carry no ids and no colour per stack. Laid as a planet they make one round
planet on a starry sky: every tile is a piece of the same picture, and the edge and corner tiles
show the planet's curved rim. Items are small pictures; characters are figures (no names).
Twins (tiles with the same contents) are drawn identically, as in a real box.

As on a real planet, a tile is turned to face outwards: each tile is drawn as it lies at its
stack's first position (character at 0, uphill at 1, downhill at 2, center at 5) and turned a
quarter turn clockwise for each step clockwise round the planet (``vision.layout.TURNS``).

Tile backs differ by stack: the character backs show stars and a comet, the others are pieces
of a second (orange) planet.

Seventeen variations (``variant`` "A" to "Q"): B, C and D have other colours, another planet
size and other icon layouts (C: a thicker card edge, bigger icons; D: icons outlined in ink, a
dark card edge, a softer rounder planet edge with a glow, backs of stripes and rings; E: a light sky, a dark
planet with a bumpy rim, a thick gold edge, icons stamped in one ink on badges, backs of dots; F: a dark green night, a pale saffron
planet with a thin orange rim, a sky-blue edge, small icons outlined thinly, backs of checks; G: a dusky plum sky without stars but with
thin constellation lines, a mint-teal planet spotted with craters and a dashed cream rim, a
charcoal card edge with rounded inner corners, icons with a soft drop shadow on a pale tag,
backs of waves; H: a coral-to-rose evening sky with soft clouds, a slate planet hatched
with thin diagonal lines and a thin white rim, an ivory edge with rounded-off corners, icons as
ivory silhouettes, backs of concentric arcs round a small sun; I: a pale sage sky printed in
halftone dots, a raspberry planet drawn as a contour map with a double rim (navy and cream), a
navy card edge with a thin gold line inside it, icons as hollow line drawings in one navy ink,
backs of a honeycomb round a small rocket; J: a deep burgundy sky with faint orbit rings and
paper grain, an ochre planet of wavy dune stripes ringed by a row of cream dots, a thin terracotta
card edge, icons printed as a two-ink risograph (a dark teal shape over a pink copy a little off
register), backs of a spiral round a keyhole moon; K: a night sky hung with green and violet aurora
curtains, a slate-blue planet laid as a mosaic of polar pieces in two tones, its rim a coral
zigzag saw band, a thick mustard card edge, icons as engravings (an ink outline filled with thin
stripes of the icon's colour over pale paper), backs of rows of triangles under a small crescent;
L: a chalkboard sky with chalk strokes, a shaded magenta globe with pale latitude and longitude
lines and a thin lime rim, a cream card edge perforated like a stamp, icons as pixel art with a
dark outline, backs of an argyle of diamonds round a four-pointed star; M: a watercolour sky of
blue washes on warm paper, a terracotta planet stippled with darker dots and ringed by a dark
brush stroke, a navy embossed card edge with its corners cut off at 45°, icons as die-cut
stickers with a white border, backs of a tartan round a small heart; N: a sky of small glass
tesserae set in grout, a pale jade planet crazed by a glaze's dark cracks with a thin plum rim, a
black card edge with a dashed cream stitch inside it, icons embroidered (their colour under a
cross-stitch grid, a dashed ink outline), backs of concentric squares round a small diamond; O: a
sky fading from deep teal at the top to amber at the bottom with sparse crosses, a steel-blue
planet of wavy dunes ringed by dots, a thick brick-red card edge with rounded-off corners, icons
outlined thickly in ink, backs of checks; P: a linocut print — an indigo ink sky carved with gouge
strokes radiating from the planet, a vermilion planet with the woodblock's grain printed through it and
cross-hatched in ink towards its rim, a cream rim chipped as if cut by hand, a walnut card edge
whose inner margin wobbles like a print's and whose corners are bitten in (concave), icons printed as
lino blocks (their colour mottled where the ink did not take, short carved cuts, a chipped ink outline),
backs of a carved sunburst round a small flower; Q: a risograph print in three spot inks (medium blue,
fluorescent pink, yellow), each drum a little off register and the inks multiplying where they
overlap, on off-white recycled paper with fibres — a flat blue sky starved of ink in streaks, its
stars knocked out to the paper with a pink dot in each, a yellow planet with blue continents (green
where the inks overprint), its limb shaded by a coarse pink halftone growing to a solid pink rim, the
card's edge an unprinted paper margin dotted in pink and uneven where the drums are off, icons
separated into the three inks (solid or a halftone dot each) and knocked out of the picture with a blue
keyline, backs of blue chevrons (as many as the stack's number plus two) over a pink halftone round a
small yellow planet); they are used only for the held-out photos. Pure Pillow, deterministic.
"""
from __future__ import annotations

import math
import random
import zlib
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFilter

SIZE = 256
S = 2                      # supersampling
W = SIZE * S
CANON = {"character": 0, "uphill": 1, "downhill": 2, "center": 5}  # where each stack is drawn


@dataclass(frozen=True)
class Palette:
    space: tuple
    ground: tuple
    ground2: tuple
    rim: tuple
    edge: tuple
    radius: float           # the planet's radius in tiles (the grid is 4×4, centre at (2, 2))
    back_planet: tuple
    back_sky: tuple
    icon_scale: float
    edge_width: float = .012  # the card's white edge, part of the tile's side
    rim_width: float = .07    # the planet's rim band, in tiles
    halo: float = 0.0         # a glow outside the rim (an atmosphere), in tiles: a rounder, softer edge
    icon_line: float = 0.0    # a dark outline round each icon, part of the icon's size
    backs: str = "planet"     # the backs' design: "planet" (A, B, C), "rings" (D) "dots" (E) or "checks" (F)
    bumps: float = 0.0        # the rim's relief (mountains round the edge), in tiles
    badges: bool = False      # icons printed in one ink on a pale round badge (a stamp look)
    ink: tuple = (0, 0, 0)    # … that ink
    texture: str = "bands"    # the ground's texture: "bands" (A-F) or "spots" (craters, G)
    rim_dash: int = 0         # a dashed rim: this many dashes round the planet (0: a solid rim)
    sky: str = "stars"        # the sky: "stars" (A-F) or "lines" (constellation lines, G)
    tags: bool = False        # each icon on a pale rounded tag with a soft drop shadow (G)
    glyphs: bool = False      # icons as one pale ink's silhouettes, no badge (H)
    corner: float = 0.0       # the card's corners rounded off (the table shows there), part of the side (H)
    lineart: bool = False     # icons as hollow line drawings: only each shape's outline, in ``ink`` (I)
    rim2: tuple | None = None  # a second, inner rim band in this colour (a double rim, I)
    edge_line: tuple | None = None  # a thin line of this colour just inside the card's edge (I)
    offset: tuple | None = None  # icons printed in ``ink`` over a copy in this second ink, off register (J)
    rim_dots: int = 0         # the rim as a row of this many round dots (no solid band, J)
    rim_zig: int = 0          # the rim as a zigzag band with this many teeth (a saw edge, K)
    hatchfill: bool = False   # icons as engravings: each shape's outline in ``ink``, filled with thin stripes of its colour (K)
    pixel: float = 0.0        # icons as pixel art: blocks of this part of an icon's size, with a one-block dark outline (L)
    perforated: int = 0       # the card's edge perforated like a stamp: this many round notches a side (L)
    brush: float = 0.0        # the rim as a brush stroke: its width swells and thins round the planet by this part (M)
    bevel: bool = False       # the card's edge embossed: a light inner line on two sides, a dark one on the others (M)
    chamfer: float = 0.0      # the card's corners cut off straight at 45°, part of the side (the table shows there, M)
    sticker: float = 0.0      # icons as die-cut stickers: a white border this part of an icon's size round each (M)
    stitch: bool = False      # icons embroidered: a cross-stitch grid over their colour, a dashed ink outline (N)
    edge_dash: tuple | None = None  # a dashed line of this colour inside the card's edge, a stitch (N)
    lino: bool = False        # icons as linocut prints: mottled colour, carved cuts, a chipped ink outline (P)
    rim_rough: float = 0.0    # the rim's width chipped irregularly round the planet by this part (P)
    edge_rough: float = 0.0   # the card edge's inner margin wobbles by this part of its width (a print's margin, P)
    notch: float = 0.0        # the card's corners bitten in (a concave quarter circle), part of the side (P)
    riso: bool = False        # printed as a risograph: spot-ink plates, each off register, on recycled paper (Q)


PALETTES = {
    "A": Palette(space=(28, 30, 74), ground=(120, 190, 120), ground2=(100, 170, 105),
                 rim=(60, 110, 70), edge=(230, 226, 210), radius=1.86,
                 back_planet=(236, 150, 60), back_sky=(40, 24, 60), icon_scale=1.0),
    "B": Palette(space=(60, 28, 50), ground=(214, 190, 140), ground2=(196, 170, 120),
                 rim=(130, 100, 60), edge=(245, 245, 240), radius=1.8,
                 back_planet=(90, 160, 220), back_sky=(20, 40, 40), icon_scale=.85),
    # the second held-out material (seed 23): a pale day sky, a red-brown planet, a thick edge
    "C": Palette(space=(150, 196, 226), ground=(170, 96, 70), ground2=(150, 84, 62),
                 rim=(90, 50, 40), edge=(250, 240, 200), radius=1.95,
                 back_planet=(120, 200, 110), back_sky=(70, 40, 90), icon_scale=1.1, edge_width=.03),
    # the third held-out material (seed 41): a teal night, a lilac planet with a wide pale rim
    # and a glow round it (a rounder, softer edge), a dark card edge, icons outlined in ink,
    # backs of stripes and rings instead of planets
    "D": Palette(space=(16, 56, 64), ground=(178, 150, 208), ground2=(162, 134, 196),
                 rim=(236, 228, 246), edge=(46, 42, 40), radius=1.72,
                 back_planet=(222, 96, 120), back_sky=(24, 34, 80), icon_scale=.92, edge_width=.02,
                 rim_width=.13, halo=.12, icon_line=.07, backs="rings"),
    # the fourth held-out material (seed 59): a pale cream dusk sky, a deep blue planet with a
    # bumpy (mountainous) near-black rim, a thick gold card edge, icons stamped in one dark red
    # ink on pale badges, backs of dots (as many as the stack's number) on a plain ground
    "E": Palette(space=(236, 214, 178), ground=(52, 84, 140), ground2=(64, 98, 156),
                 rim=(18, 20, 34), edge=(196, 160, 70), radius=1.9,
                 back_planet=(60, 130, 120), back_sky=(200, 90, 60), icon_scale=.8, edge_width=.045,
                 rim_width=.05, backs="dots", bumps=.06, badges=True, ink=(150, 30, 40)),
    # the fifth held-out material (seed 73): a deep forest-green night, a pale saffron planet
    # with a thin orange rim and no texture bands, a sky-blue card edge, icons outlined thinly
    # in ink and drawn small, backs of checks (as many rows as the stack's number) round a moon
    "F": Palette(space=(30, 64, 44), ground=(242, 206, 110), ground2=(242, 206, 110),
                 rim=(214, 104, 34), edge=(130, 196, 232), radius=1.84, back_planet=(120, 70, 150),
                 back_sky=(230, 230, 214), icon_scale=.74, edge_width=.025, rim_width=.04,
                 icon_line=.04, backs="checks"),
    # the sixth held-out material (seed 89): a dusky plum sky with constellation lines instead of
    # star dots, a mint-teal planet spotted with darker craters, a dashed cream rim, a thick
    # charcoal card edge, each icon on a pale rounded tag with a soft drop shadow, backs of waves
    "G": Palette(space=(92, 52, 84), ground=(96, 196, 176), ground2=(70, 160, 146),
                 rim=(246, 232, 196), edge=(54, 54, 58), radius=1.88, back_planet=(226, 120, 90),
                 back_sky=(36, 70, 96), icon_scale=.8, edge_width=.035, rim_width=.06,
                 backs="waves", texture="spots", rim_dash=28, sky="lines", tags=True),
    # the seventh held-out material (seed 101): a dusty coral evening sky fading to rose with a few
    # soft clouds and no stars, a slate-grey planet hatched with thin diagonal lines, a thin white
    # rim, a thin ivory card edge with rounded-off corners, icons as ivory silhouettes (one pale
    # ink), backs of concentric arcs (as many as the stack's number plus two) round a small sun
    "H": Palette(space=(214, 128, 112), ground=(86, 96, 112), ground2=(62, 70, 84),
                 rim=(250, 250, 246), edge=(242, 236, 220), radius=1.82, back_planet=(232, 196, 90),
                 back_sky=(70, 44, 60), icon_scale=.86, edge_width=.018, rim_width=.035,
                 backs="arcs", texture="hatch", sky="dusk", glyphs=True, ink=(246, 238, 214), corner=.09),
    # the eighth held-out material (seed 131): a pale sage sky printed in halftone dots, a raspberry
    # planet drawn as a contour map (concentric wavy lines round a summit), a double rim (navy
    # outside, cream inside), a navy card edge with a thin gold line inside it, icons as hollow line
    # drawings (each shape's outline only) in one navy ink, backs of a honeycomb round a small rocket
    "I": Palette(space=(168, 196, 170), ground=(184, 62, 108), ground2=(150, 44, 86),
                 rim=(36, 40, 86), edge=(34, 38, 80), radius=1.78, back_planet=(226, 176, 64),
                 back_sky=(40, 92, 88), icon_scale=.9, edge_width=.04, rim_width=.05,
                 backs="hexes", texture="contours", sky="halftone", lineart=True, ink=(30, 34, 76),
                 rim2=(246, 236, 206), edge_line=(214, 170, 60)),
    # the ninth held-out material (seed 173): a deep burgundy sky with faint orbit rings and a
    # paper grain, an ochre planet of wavy dune stripes, its rim a row of cream dots, a thin
    # terracotta card edge, icons printed as a two-ink risograph (a dark teal shape over a pink
    # copy a little off register), backs of a spiral (turns: the stack's number) round a keyhole moon
    "J": Palette(space=(92, 30, 52), ground=(214, 168, 64), ground2=(186, 134, 46),
                 rim=(246, 232, 200), edge=(176, 84, 54), radius=1.83, back_planet=(96, 176, 190),
                 back_sky=(38, 28, 46), icon_scale=.88, edge_width=.022, rim_width=.09,
                 backs="spiral", texture="dunes", sky="orbits", ink=(28, 84, 92), offset=(232, 96, 150),
                 rim_dots=36),
    # the tenth held-out material (seed 199): a night sky with green and violet aurora curtains, a
    # slate-blue planet laid as a mosaic of polar pieces (rings by wedges in two tones), its rim a
    # zigzag saw band in coral, a thick mustard card edge, icons as engravings (each shape's
    # outline in one brown ink, filled with thin stripes of its own colour over pale paper), backs of rows of
    # triangles (rows: the stack's number plus one) under a small crescent
    "K": Palette(space=(20, 26, 54), ground=(84, 118, 150), ground2=(110, 146, 176),
                 rim=(240, 128, 112), edge=(214, 176, 40), radius=1.8, back_planet=(150, 200, 120),
                 back_sky=(70, 40, 30), icon_scale=.9, edge_width=.04, rim_width=.1,
                 backs="triangles", texture="mosaic", sky="aurora", ink=(92, 52, 40), hatchfill=True,
                 rim_zig=30),
    # the eleventh held-out material (seed 211): a chalkboard sky (dark green-grey with chalk
    # scribbles and smudges), a shaded magenta globe lit from the upper left with pale latitude
    # and longitude lines, a thin lime rim, a cream card edge perforated like a postage stamp (the
    # table shows through its notches), icons as pixel art with a dark one-block outline, backs of
    # an argyle of diamonds (rows: the stack's number plus two) round a small four-pointed star
    "L": Palette(space=(46, 62, 54), ground=(176, 64, 150), ground2=(236, 190, 224),
                 rim=(176, 224, 70), edge=(238, 230, 204), radius=1.85, back_planet=(236, 136, 70),
                 back_sky=(40, 60, 110), icon_scale=.86, edge_width=.03, rim_width=.04,
                 backs="argyle", texture="globe", sky="chalk", ink=(24, 22, 30), pixel=.1,
                 perforated=9),
    # the twelfth held-out material (seed 212): a watercolour sky (pale warm paper with soft blue
    # washes and a paper grain, no stars), a terracotta planet stippled with darker dots, its rim a
    # dark brown brush stroke swelling and thinning round it, a deep navy card edge embossed (a
    # light line inside two sides, a dark one inside the others) with its corners cut off at 45°,
    # icons as die-cut stickers (a thick white border round each), backs of a tartan of crossing
    # bands (as many as the stack's number plus two) round a small pale heart
    "M": Palette(space=(214, 226, 236), ground=(200, 104, 66), ground2=(150, 70, 44),
                 rim=(70, 40, 30), edge=(30, 40, 76), radius=1.87, back_planet=(200, 60, 70),
                 back_sky=(36, 70, 56), icon_scale=.8, edge_width=.028, rim_width=.07,
                 backs="plaid", texture="stipple", sky="wash", brush=.55, bevel=True, chamfer=.07,
                 sticker=.1),
    # the thirteenth held-out material (seed 313): a sky of small square glass tesserae (each its
    # own shade of indigo to violet) set in pale grout, a pale jade planet crazed by the dark cracks
    # of a glaze, a thin plum rim, a black card edge with a dashed cream stitch just inside it, icons
    # embroidered (their own colour under a dark cross-stitch grid, a dashed ink outline), backs of
    # concentric squares (as many as the stack's number plus two) round a small diamond
    "N": Palette(space=(62, 48, 120), ground=(170, 214, 190), ground2=(70, 96, 84),
                 rim=(110, 40, 80), edge=(18, 18, 20), radius=1.9, back_planet=(236, 196, 70),
                 back_sky=(120, 30, 44), icon_scale=.84, edge_width=.026, rim_width=.045,
                 backs="squares", texture="crackle", sky="tesserae", ink=(40, 30, 30), stitch=True,
                 edge_dash=(240, 230, 200)),
    # a seen material (seed 331), made to diagnose and tune on beside heldout13: a sky fading from
    # deep teal at the top to amber at the bottom with sparse small crosses, a steel-blue planet of
    # wavy dunes ringed by a row of pale dots, a thick brick-red card edge with rounded-off corners,
    # icons in their own colours outlined thickly in ink, backs of checks
    "O": Palette(space=(20, 84, 96), ground=(96, 130, 170), ground2=(70, 100, 140),
                 rim=(236, 226, 190), edge=(150, 56, 40), radius=1.86, back_planet=(220, 220, 200),
                 back_sky=(60, 40, 80), icon_scale=.82, edge_width=.04, rim_width=.08,
                 backs="checks", texture="dunes", sky="fade", icon_line=.06,
                 rim_dots=32, corner=.06),
    # the fifteenth held-out material (seed 415): a linocut print — an indigo ink sky carved with gouge
    # strokes radiating from the planet (the paper showing in them), a vermilion planet with the
    # woodblock's grain printed through it in a darker red and cross-hatched in ink towards its rim
    # (its upper left as drawn at each stack's first position), a cream rim chipped irregularly, a
    # walnut card edge whose inner margin wobbles and whose corners are bitten in, icons printed as
    # lino blocks (mottled colour, paper specks, short carved cuts, a chipped ink outline), backs of a
    # carved sunburst (wedges: 8 plus 4 times the stack's number) round a small five-petalled flower
    "P": Palette(space=(34, 40, 72), ground=(206, 72, 50), ground2=(160, 44, 34),
                 rim=(238, 228, 200), edge=(122, 86, 54), radius=1.84, back_planet=(214, 160, 60),
                 back_sky=(36, 74, 58), icon_scale=.86, edge_width=.034, rim_width=.08,
                 backs="sunburst", texture="woodgrain", sky="carved", ink=(26, 24, 30), lino=True,
                 rim_rough=.45, edge_rough=.35, notch=.07),
    # the sixteenth held-out material (seed 1616): a risograph print in three spot inks (medium blue,
    # fluorescent pink, yellow), each drum a little off register, multiplied where they overlap, on
    # off-white recycled paper with fibres — a flat blue sky, ink-starved in streaks, with stars knocked
    # out to the paper and a pink dot printed into each; a yellow planet with blue continents (green where
    # the inks overprint), its limb shaded by a coarse pink halftone growing towards a solid pink rim; the
    # card's edge an unprinted paper margin, uneven where the drums are off, dotted with small pink dots;
    # icons separated into the three inks (solid or a halftone dot each), knocked out of the picture with
    # a blue keyline; backs of blue chevrons (as many as the stack's number plus two) over a pink halftone
    # growing downwards, round a small yellow planet
    "Q": Palette(space=(0, 120, 191), ground=(255, 232, 0), ground2=(0, 120, 191),
                 rim=(255, 72, 176), edge=(236, 231, 216), radius=1.81, back_planet=(255, 72, 176),
                 back_sky=(0, 120, 191), icon_scale=.84, edge_width=.04, rim_width=.075,
                 backs="chevrons", riso=True, ink=(0, 120, 191)),
}

PAPER = (238, 228, 204)   # the paper a print shows where it is carved (P)

INK = (30, 28, 40)


def _smooth(rng, n, scale):
    small = rng.standard_normal((scale, scale)).astype(np.float32)
    return cv2.resize(small, (n, n), interpolation=cv2.INTER_CUBIC)


def _ell(d, cx, cy, rx, ry, **kw):
    d.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), **kw)


# --------------------------------------------------------------------------------------------
# items: flat pictures with a white outline (a sticker look, unlike the shipped art)

def _baobab(d, x, y, s):
    d.rectangle((x + s * .42, y + s * .45, x + s * .58, y + s * .95), fill=(110, 70, 40))
    d.polygon([(x + s * .1, y + s * .5), (x + s * .5, y + s * .05), (x + s * .9, y + s * .5)], fill=(30, 100, 40))
    d.line((x + s * .2, y + s * .95, x + s * .8, y + s * .95), fill=(110, 70, 40), width=int(s * .06))


def _volcano(d, x, y, s):
    d.polygon([(x + s * .05, y + s * .95), (x + s * .4, y + s * .3), (x + s * .6, y + s * .3),
               (x + s * .95, y + s * .95)], fill=(80, 60, 60))
    _ell(d, x + s * .5, y + s * .22, s * .18, s * .12, fill=(255, 60, 0))


def _sunset(d, x, y, s):
    d.pieslice((x + s * .1, y + s * .3, x + s * .9, y + s * 1.1), 180, 360, fill=(255, 120, 40))
    for k in range(3):
        d.line((x + s * .05, y + s * (.75 + .08 * k), x + s * .95, y + s * (.75 + .08 * k)),
               fill=(200, 60, 120), width=int(s * .04))


def _rose(d, x, y, s):
    d.line((x + s * .5, y + s * .4, x + s * .5, y + s * .95), fill=(20, 130, 40), width=int(s * .07))
    d.polygon([(x + s * .5, y + s * .05), (x + s * .8, y + s * .3), (x + s * .5, y + s * .5),
               (x + s * .2, y + s * .3)], fill=(230, 20, 60))


def _lamppost(d, x, y, s):
    d.rectangle((x + s * .46, y + s * .25, x + s * .54, y + s * .95), fill=(40, 40, 40))
    _ell(d, x + s * .5, y + s * .2, s * .16, s * .16, fill=(255, 250, 150))


def _box(d, x, y, s):
    d.rectangle((x + s * .15, y + s * .3, x + s * .85, y + s * .9), fill=(170, 120, 60))
    d.line((x + s * .15, y + s * .3, x + s * .85, y + s * .9), fill=(90, 60, 30), width=int(s * .05))
    d.line((x + s * .85, y + s * .3, x + s * .15, y + s * .9), fill=(90, 60, 30), width=int(s * .05))


def _star(d, x, y, s):
    cx, cy, r = x + s * .5, y + s * .5, s * .48
    pts = [(cx + (r if k % 2 == 0 else r * .3) * math.cos(k * math.pi / 4 - math.pi / 2),
            cy + (r if k % 2 == 0 else r * .3) * math.sin(k * math.pi / 4 - math.pi / 2)) for k in range(8)]
    d.polygon(pts, fill=(255, 230, 0))


def _fox(d, x, y, s):
    d.polygon([(x + s * .1, y + s * .1), (x + s * .9, y + s * .1), (x + s * .5, y + s * .9)], fill=(240, 100, 0))
    d.polygon([(x + s * .35, y + s * .55), (x + s * .65, y + s * .55), (x + s * .5, y + s * .9)], fill=(255, 255, 255))


def _elephant(d, x, y, s):
    _ell(d, x + s * .45, y + s * .55, s * .35, s * .25, fill=(120, 120, 140))
    d.rectangle((x + s * .78, y + s * .45, x + s * .88, y + s * .95), fill=(120, 120, 140))
    d.rectangle((x + s * .2, y + s * .7, x + s * .3, y + s * .95), fill=(120, 120, 140))


def _snake(d, x, y, s):
    pts = [(x + s * (.05 + .9 * t / 20), y + s * (.5 + .3 * math.sin(t / 20 * 3 * math.pi))) for t in range(21)]
    d.line(pts, fill=(0, 140, 90), width=int(s * .14), joint="curve")


def _sheep(wool):
    def draw(d, x, y, s):
        _ell(d, x + s * .5, y + s * .5, s * .42, s * .3, fill=wool)
        _ell(d, x + s * .12, y + s * .45, s * .12, s * .1, fill=INK)
        for lx in (.3, .65):
            d.rectangle((x + s * lx, y + s * .75, x + s * (lx + .07), y + s * .95), fill=INK)
    return draw


def _one_ink(pal: Palette) -> bool:
    """Whether the style prints the items in one ink (a badge's stamp, a glyph, a line drawing, a
    risograph's offset plates), so the sheep's wool colour does not show."""
    return pal.badges or pal.glyphs or pal.lineart or pal.offset is not None


def _wool_mark(layer_draw, item, x, y, s):
    """In a one-ink style, what tells the sheep apart where their wool's colour cannot: holes cut in
    the body on the items' layer (a grey sheep one round hole, a brown one two; a white one none),
    which the style then prints as it prints the shape (a glyph's gap, a line drawing's inner ring).
    Without it a white and a grey sheep print alike, and C14 (a box and a white sheep) and C15 (a box
    and a grey sheep) came out the same to the pixel in variants E, H, I and J: two tiles of other
    contents that no reader, and no player, could tell apart (stop 60)."""
    clear = (0, 0, 0, 0)
    if item == "sheep_grey":
        _ell(layer_draw, x + s * .55, y + s * .5, s * .15, s * .15, fill=clear)
    elif item == "sheep_brown":
        for hx in (.4, .7):
            _ell(layer_draw, x + s * hx, y + s * .5, s * .1, s * .1, fill=clear)


ICONS = {
    "baobab": _baobab, "volcano": _volcano, "sunset": _sunset, "rose": _rose, "lamppost": _lamppost,
    "box": _box, "star": _star, "fox": _fox, "elephant": _elephant, "snake": _snake,
    "sheep_white": _sheep((255, 255, 255)), "sheep_grey": _sheep((140, 140, 140)),
    "sheep_brown": _sheep((130, 80, 35)),
}

# characters: coat, hat and a sign held up (shapes, not words)
FIGURES = {
    "vain_man": ((200, 30, 40), (20, 20, 20), "tall"), "geographer": ((150, 140, 60), (90, 60, 30), "round"),
    "astronomer": ((30, 50, 160), (30, 50, 160), "cone"), "king": ((120, 30, 160), (250, 200, 20), "crown"),
    "lamplighter": ((230, 140, 20), (40, 40, 40), "flat"), "hunter": ((60, 90, 30), (60, 90, 30), "flat"),
    "drunkard": ((90, 90, 110), (150, 40, 40), "round"), "businessman_white": ((240, 240, 240), (20, 20, 20), "tall"),
    "businessman_grey": ((130, 130, 130), (20, 20, 20), "tall"),
    "businessman_brown": ((130, 80, 40), (20, 20, 20), "tall"), "gardener": ((30, 160, 60), (230, 200, 120), "round"),
    "turkish_astronomer": ((20, 170, 190), (200, 20, 20), "cone"),
    "little_prince": ((40, 150, 60), (250, 210, 40), "none"),
}


def _figure(d, character, x, y, s):
    coat, hat, kind = FIGURES[character]
    d.polygon([(x + s * .5, y + s * .35), (x + s * .22, y + s * .95), (x + s * .78, y + s * .95)], fill=coat,
              outline=INK, width=max(2, int(s * .02)))
    _ell(d, x + s * .5, y + s * .28, s * .12, s * .12, fill=(250, 220, 190), outline=INK, width=max(2, int(s * .02)))
    if kind == "tall":
        d.rectangle((x + s * .4, y + s * .02, x + s * .6, y + s * .18), fill=hat)
    elif kind == "round":
        d.pieslice((x + s * .36, y + s * .06, x + s * .64, y + s * .3), 180, 360, fill=hat)
    elif kind == "cone":
        d.polygon([(x + s * .38, y + s * .2), (x + s * .5, y + s * .0), (x + s * .62, y + s * .2)], fill=hat)
    elif kind == "crown":
        d.polygon([(x + s * .38, y + s * .2), (x + s * .38, y + s * .05), (x + s * .5, y + s * .14),
                   (x + s * .62, y + s * .05), (x + s * .62, y + s * .2)], fill=hat)
    elif kind == "flat":
        d.rectangle((x + s * .32, y + s * .14, x + s * .68, y + s * .19), fill=hat)
    # a sign in the hand: each character's own mark (a shape and a colour from its name)
    rnd = random.Random(character)
    col = tuple(rnd.randrange(40, 250) for _ in range(3))
    sides = 3 + sum(map(ord, character)) % 4
    cx, cy, r = x + s * .85, y + s * .55, s * .13
    d.polygon([(cx + r * math.cos(2 * math.pi * k / sides), cy + r * math.sin(2 * math.pi * k / sides))
               for k in range(sides)], fill=col, outline=INK)


# --------------------------------------------------------------------------------------------
# the round planet, piece by piece

def _scene(pos: int, pal: Palette, seed: str, sky, ground, rim, ground2=None) -> Image.Image:
    """The piece of a round planet on a starry sky that a tile at ``pos`` covers (upright)."""
    r0, c0 = divmod(pos, 4)
    n = W
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) / n
    gx, gy = c0 + xx, r0 + yy
    dist = np.hypot(gx - 2, gy - 2)
    if pal.bumps > 0:  # mountains round the rim: the edge's radius varies with the angle
        th = np.arctan2(gy - 2, gx - 2)
        dist = dist - pal.bumps * (np.sin(9 * th) + .5 * np.sin(23 * th + 1.0))
    img = np.empty((n, n, 3), np.float32)
    img[:] = sky
    rng = np.random.default_rng(sum(map(ord, seed)) * 7919 + pos)
    if pal.sky == "lines":  # constellations: a few pale points joined by thin lines
        sky_img = Image.fromarray(img.astype(np.uint8))
        sd = ImageDraw.Draw(sky_img)
        for _ in range(3):
            pts = [tuple(int(v) for v in rng.integers(0, n, 2)) for _ in range(int(rng.integers(3, 5)))]
            sd.line(pts, fill=(200, 170, 200), width=S)
            for px, py in pts:
                _ell(sd, px, py, 3 * S, 3 * S, fill=(250, 236, 250))
        img = np.asarray(sky_img).astype(np.float32)
    elif pal.sky == "dusk":  # an evening sky: coral fading to rose across the planet, soft clouds
        t = np.clip((gy + .3 * gx) / 5.2, 0, 1)[..., None]
        img = np.array(sky, np.float32) * (1 - t) + np.array((150, 70, 110), np.float32) * t
        cl = Image.new("L", (n, n), 0)
        cd = ImageDraw.Draw(cl)
        for _ in range(3):
            cx, cy = rng.integers(0, n, 2)
            _ell(cd, cx, cy, int(rng.integers(n // 8, n // 4)), int(rng.integers(n // 30, n // 14)), fill=90)
        cl = np.asarray(cl.filter(ImageFilter.GaussianBlur(n * .02)), np.float32)[..., None] / 255
        img = img * (1 - cl) + 245 * cl
    elif pal.sky == "halftone":  # a printed look: darker dots on a grid, bigger towards one corner
        u, v = (gx + gy) * 14, (gx - gy) * 14
        fu, fv = np.mod(u, 1.0) - .5, np.mod(v, 1.0) - .5
        rad = .18 + .16 * np.clip((gx + gy) / 8, 0, 1)
        dot = (np.hypot(fu, fv) < rad)[..., None]
        img = np.where(dot, np.array(sky, np.float32) * .72, img)
    elif pal.sky == "aurora":  # curtains of green and violet light hanging down a dark sky
        th = gx * 1.7 + .35 * np.sin(gy * 2.1 + gx)
        curtain = np.clip(np.sin(th * math.pi) * .5 + .5, 0, 1) ** 3 * np.clip(1.2 - np.abs(gy - 1.2) / 2.2, 0, 1)
        tint = np.where((np.mod(gx + .3 * gy, 2.0) < 1.0)[..., None], np.array((120, 220, 90), np.float32),
                        np.array((200, 90, 160), np.float32))
        img = img * (1 - .55 * curtain[..., None]) + tint * .55 * curtain[..., None]
        for _ in range(12):  # a few faint stars
            sx, sy = rng.integers(0, n, 2)
            _r = 2 * S
            img[max(0, sy - _r):sy + _r, max(0, sx - _r):sx + _r] = (230, 230, 240)
    elif pal.sky == "chalk":  # a chalkboard: soft pale smudges and short chalk strokes
        sm = _smooth(rng, n, 6)
        img = img * (1 + .08 * sm[..., None])
        board = Image.fromarray(np.clip(img, 0, 255).astype(np.uint8))
        bd = ImageDraw.Draw(board)
        for _ in range(14):
            x0, y0 = rng.integers(0, n, 2)
            a = rng.uniform(0, math.pi)
            ln = rng.uniform(.05, .2) * n
            bd.line((int(x0), int(y0), int(x0 + ln * math.cos(a)), int(y0 + ln * math.sin(a))),
                    fill=(170, 184, 176), width=S)
        img = np.asarray(board).astype(np.float32)
    elif pal.sky == "wash":  # watercolour: soft blue washes pooling on warm paper, a paper grain
        wash = np.clip(_smooth(rng, n, 4) * .6 + .2, 0, 1)[..., None]
        paper = np.array((240, 232, 214), np.float32)
        img = paper * (1 - .6 * wash) + np.array(sky, np.float32) * .6 * wash
        img = img * (1 + .035 * rng.standard_normal((n, n, 1)).astype(np.float32))
    elif pal.sky == "tesserae":  # small square glass tesserae, each its own shade, set in pale grout
        k = 18  # tesserae across a tile
        trng = np.random.default_rng(777 + pos)
        shades = trng.uniform(.7, 1.3, (k, k, 1)).astype(np.float32) * np.array(sky, np.float32)
        shades[..., 0] *= trng.uniform(.8, 1.25, (k, k)).astype(np.float32)
        img = cv2.resize(shades, (n, n), interpolation=cv2.INTER_NEAREST)
        fu, fv = np.mod(xx * k, 1.0), np.mod(yy * k, 1.0)
        grout = (fu < .12) | (fv < .12)
        img[grout] = (200, 196, 186)
    elif pal.sky == "fade":  # a vertical fade from the sky's colour to amber, sparse small crosses
        t = np.clip(gy / 4, 0, 1)[..., None]
        img = np.array(sky, np.float32) * (1 - t) + np.array((230, 160, 70), np.float32) * t
        for _ in range(6):
            sx, sy = rng.integers(0, n, 2)
            _r, _w = 6 * S, S
            img[max(0, sy - _r):sy + _r, max(0, sx - _w):sx + _w] = (250, 246, 230)
            img[max(0, sy - _w):sy + _w, max(0, sx - _r):sx + _r] = (250, 246, 230)
    elif pal.sky == "carved":  # a linocut's inked sky: gouge strokes radiating from the planet, cut to the paper
        k = 96  # strokes round the planet, each at fixed radii (one picture across the tiles)
        th = np.mod(np.arctan2(gy - 2, gx - 2) / (2 * math.pi), 1.0)
        rr = np.hypot(gx - 2, gy - 2)
        lane = np.floor(th * k).astype(np.int64) % k
        grng = np.random.default_rng(606)
        start = grng.uniform(pal.radius + .12, 2.5, k)[lane]
        length = grng.uniform(.2, .75, k)[lane]
        along = np.clip((rr - start) / length, 0, 1)
        cut = (np.abs(np.mod(th * k, 1.0) - .5) < .17 * (1 - along)) & (rr > start) & (rr < start + length)
        img = np.where(cut[..., None], np.array(PAPER, np.float32), img)
    elif pal.sky == "orbits":  # a print on rough paper: faint rings round the planet and a grain
        ring = np.abs(np.mod(np.hypot(gx - 2, gy - 2) * 2.2, 1.0) - .5) < .025
        img = np.where(ring[..., None], np.array(sky, np.float32) * 1.25, img)
        img = img * (1 + .06 * rng.standard_normal((n, n, 1)).astype(np.float32))
    else:
        for _ in range(40):  # stars in the sky
            sx, sy = rng.integers(0, n, 2)
            rr = int(rng.integers(1, 4)) * S
            img[max(0, sy - rr):sy + rr, max(0, sx - rr):sx + rr] = (250, 250, 210)
    inside = dist < pal.radius
    g = np.array(ground, np.float32)
    if ground2 is not None and pal.texture == "spots":  # craters at fixed places on the planet
        crng = np.random.default_rng(12345)
        spot = np.zeros((n, n), bool)
        for cx, cy, cr in zip(crng.uniform(.3, 3.7, 40), crng.uniform(.3, 3.7, 40), crng.uniform(.08, .22, 40)):
            spot |= np.hypot(gx - cx, gy - cy) < cr
        g = np.where(spot[..., None], np.array(ground2, np.float32), g)
    elif ground2 is not None and pal.texture == "contours":  # a contour map: wavy rings round a summit
        th = np.arctan2(gy - 1.7, gx - 2.3)
        hgt = np.hypot(gx - 2.3, gy - 1.7) + .12 * np.sin(3 * th + 1.3) + .06 * np.sin(7 * th)
        line = (np.mod(hgt * 5.0, 1.0) < .12)[..., None]
        g = np.where(line, np.array(ground2, np.float32), g)
    elif ground2 is not None and pal.texture == "dunes":  # wavy stripes across the planet, like dunes
        wave = gy * 3.4 + .18 * np.sin(gx * 2.6 * math.pi + gy)
        dune = (np.mod(wave, 1.0) < .3)[..., None]
        g = np.where(dune, np.array(ground2, np.float32), g)
    elif ground2 is not None and pal.texture == "mosaic":  # polar pieces: rings by wedges, two tones
        th = np.arctan2(gy - 2, gx - 2)
        ring = np.floor(np.hypot(gx - 2, gy - 2) * 3.2)
        wedge = np.floor((th + math.pi) / (2 * math.pi) * (10 + 4 * ring))
        tone = (np.mod(ring + wedge, 2) == 1)[..., None]
        seam = (np.mod(np.hypot(gx - 2, gy - 2) * 3.2, 1.0) < .05)[..., None]
        g = np.where(tone, np.array(ground2, np.float32), g)
        g = np.where(seam, g * .7, g)
    elif ground2 is not None and pal.texture == "globe":  # a shaded sphere with latitude and longitude lines
        rr = np.clip(np.hypot(gx - 2, gy - 2) / pal.radius, 0, .999)
        nz = np.sqrt(1 - rr ** 2)
        lam = np.clip(((-(gx - 2) - (gy - 2)) / pal.radius * .55 + nz * .65), 0, 1)
        lat = np.arcsin(np.clip((gy - 2) / pal.radius, -1, 1))
        lon = np.arctan2((gx - 2) / pal.radius, np.maximum(nz, 1e-3))
        grid = (np.abs(np.mod(lat / (math.pi / 9), 1.0) - .5) > .45) | (np.abs(np.mod(lon / (math.pi / 9), 1.0) - .5) > .45)
        g = np.array(ground, np.float32) * (.5 + .7 * lam)[..., None]
        g = np.where(grid[..., None], np.array(ground2, np.float32) * (.6 + .4 * lam)[..., None], g)
    elif ground2 is not None and pal.texture == "stipple":  # darker dots stippled at fixed places on the planet
        srng = np.random.default_rng(4242)
        dots = np.zeros((n, n), bool)
        for cx, cy, cr in zip(srng.uniform(0, 4, 260), srng.uniform(0, 4, 260), srng.uniform(.02, .05, 260)):
            dots |= np.hypot(gx - cx, gy - cy) < cr
        g = np.where(dots[..., None], np.array(ground2, np.float32), g)
    elif ground2 is not None and pal.texture == "crackle":  # a glaze's cracks: the borders of fixed cells
        crng = np.random.default_rng(5151)
        pts = crng.uniform(-.2, 4.2, (90, 2)).astype(np.float32)
        d2 = np.stack([np.hypot(gx - px, gy - py) for px, py in pts])
        two = np.partition(d2, 1, axis=0)[:2]
        crack = (two[1] - two[0]) < .025
        g = np.where(crack[..., None], np.array(ground2, np.float32), g)
    elif ground2 is not None and pal.texture == "woodgrain":  # the block's grain printed through, cross-hatched shade
        warp = .35 * np.sin(gx * 1.3 + .7) + .25 * np.sin(gy * 2.1 + 1.9)
        v = gy * 5.5 + 1.1 * np.sin(gx * 1.2 + 2 * warp) + 3 * warp
        streak = (np.abs(np.mod(v, 1.0) - .5) < .08 + .05 * np.sin(gx * 7.3 + gy))[..., None]
        g = np.where(streak, np.array(ground2, np.float32), g)
        shade = -((gx - 2) + (gy - 2)) / (pal.radius * math.sqrt(2))  # towards the upper left: 1
        h1 = np.mod((gx + gy) * 9.0, 1.0) < .15
        h2 = np.mod((gx - gy) * 9.0, 1.0) < .15
        hatch = ((shade > .45) & h1) | ((shade > .72) & h2)
        g = np.where(hatch[..., None], np.array(pal.ink, np.float32), g)
    elif ground2 is not None and pal.texture == "hatch":  # thin diagonal hatching over the planet
        hatch = (np.mod((gx - gy) * 9.0, 1.0) < .16)[..., None]
        g = np.where(hatch, np.array(ground2, np.float32), g)
    elif ground2 is not None:  # gentle bands of terrain, so a tile's piece has a texture
        band = (np.sin((gx * 2.1 + gy * 1.3) * math.pi) > 0.4)[..., None]
        g = np.where(band, np.array(ground2, np.float32), g)
    if pal.halo > 0:  # an atmosphere: the rim's colour fading out into the sky
        a = np.clip(1 - (dist - pal.radius) / pal.halo, 0, 1)[..., None] * (dist >= pal.radius)[..., None]
        img = img * (1 - .7 * a) + np.array(rim, np.float32) * .7 * a
    img = np.where(inside[..., None], g, img)
    rim_band = inside & (dist > pal.radius - pal.rim_width)
    if pal.halo > 0:  # shaded: brightest at the very edge
        t = np.clip((dist - (pal.radius - pal.rim_width)) / pal.rim_width, 0, 1)[..., None]
        img = np.where(rim_band[..., None], g * (1 - t) + np.array(rim, np.float32) * t, img)
    elif pal.rim_dots:  # a row of round dots along the rim, the ground between them
        th = np.arctan2(gy - 2, gx - 2)
        step = 2 * math.pi / pal.rim_dots
        along = (np.mod(th, step) - step / 2) * (pal.radius - pal.rim_width / 2)
        across = dist - (pal.radius - pal.rim_width / 2)
        dot = inside & (np.hypot(along, across) < pal.rim_width * .45)
        img[dot] = rim
    elif pal.rim_zig:  # a zigzag (saw) band: teeth pointing outwards, the ground between them
        th = np.arctan2(gy - 2, gx - 2)
        tri = np.abs(np.mod(th / (2 * math.pi) * pal.rim_zig, 1.0) - .5) * 2  # 0 at a tooth's tip
        reach = pal.radius - pal.rim_width * (.35 + .65 * tri)
        img[inside & (dist > reach - pal.rim_width * .35)] = rim
    elif pal.rim_rough:  # a carved rim: its width chipped irregularly round the planet
        th = np.arctan2(gy - 2, gx - 2)
        chip = np.sin(11 * th + .4) * .4 + np.sin(29 * th + 1.7) * .35 + np.sin(53 * th + 2.9) * .25
        img[inside & (dist > pal.radius - pal.rim_width * (1 + pal.rim_rough * chip))] = rim
    elif pal.brush:  # a brush stroke: the band swells and thins round the planet
        th = np.arctan2(gy - 2, gx - 2)
        wid = pal.rim_width * (1 + pal.brush * (np.sin(3 * th + .7) * .7 + np.sin(8 * th) * .3))
        img[inside & (dist > pal.radius - wid)] = rim
    elif pal.rim_dash:  # a dashed rim: the rim's colour on every other stretch of the edge
        th = np.arctan2(gy - 2, gx - 2)
        dash = np.sin(th * pal.rim_dash) > -0.2
        img[rim_band & dash] = rim
    else:
        img[rim_band] = rim
    if pal.rim2 is not None:  # a double rim: a second band just inside the first
        img[inside & (dist <= pal.radius - pal.rim_width) & (dist > pal.radius - 2 * pal.rim_width)] = pal.rim2
    return Image.fromarray(img.astype(np.uint8))


def _ground_box(stack: str) -> tuple:
    """Where a tile's items go, in parts of the tile's own side (x0, y0, x1, y1): the ground."""
    if stack == "center":
        return (.08, .08, .92, .92)
    if stack in ("uphill", "downhill"):
        return (.08, .48, .92, .94)
    return (.5, .5, .98, .98)


def _icon_boxes(n, x0, y0, x1, y1):
    if n == 0:
        return []
    cols = {1: 1, 2: 2, 3: 3, 4: 2, 5: 3, 6: 3}.get(n, 4)
    rows = math.ceil(n / cols)
    s = min((x1 - x0) / cols, (y1 - y0) / rows) * .88
    out = []
    for i in range(n):
        r, c = divmod(i, cols)
        in_row = min(cols, n - r * cols)
        ox = x0 + ((x1 - x0) - in_row * (x1 - x0) / cols) / 2
        out.append((ox + (c + .5) * (x1 - x0) / cols - s / 2, y0 + (r + .5) * (y1 - y0) / rows - s / 2, s))
    return out


def _card_edge(d, pal: Palette):
    w = int(W * pal.edge_width)
    d.rectangle((0, 0, W - 1, W - 1), outline=pal.edge, width=w)
    if pal.bevel:  # embossed: a light line inside the top and left sides, a dark one inside the others
        k = max(2, int(W * .012))
        light = tuple(min(255, c + 110) for c in pal.edge)
        dark = tuple(max(0, c // 3) for c in pal.edge)
        d.line((w, w + k // 2, W - 1 - w, w + k // 2), fill=light, width=k)
        d.line((w + k // 2, w, w + k // 2, W - 1 - w), fill=light, width=k)
        d.line((w, W - 1 - w - k // 2, W - 1 - w, W - 1 - w - k // 2), fill=dark, width=k)
        d.line((W - 1 - w - k // 2, w, W - 1 - w - k // 2, W - 1 - w), fill=dark, width=k)
    if pal.edge_dash is not None:  # a stitch: short dashes along a line just inside the edge
        k = max(2, int(W * .01))
        at = w + 2 * k
        step = W // 24
        for a in range(at, W - at, step):
            b = min(a + step // 2, W - at)
            d.line((a, at, b, at), fill=pal.edge_dash, width=k)
            d.line((a, W - 1 - at, b, W - 1 - at), fill=pal.edge_dash, width=k)
            d.line((at, a, at, b), fill=pal.edge_dash, width=k)
            d.line((W - 1 - at, a, W - 1 - at, b), fill=pal.edge_dash, width=k)
    if pal.edge_rough > 0:  # a print's margin: the edge's inner line wobbles, the same on every card
        k = 48
        for side in range(4):
            line = []
            for i in range(k + 1):
                t = i / k
                off = w * (1 + pal.edge_rough * (math.sin(t * 17 + side * 1.3) * .6 + math.sin(t * 41 + side * 2.1) * .4))
                a = t * (W - 1)
                line.append({0: (a, off), 1: (W - 1 - off, a), 2: (a, W - 1 - off), 3: (off, a)}[side])
            outer = {0: [(W - 1, 0), (0, 0)], 1: [(W - 1, W - 1), (W - 1, 0)],
                     2: [(W - 1, W - 1), (0, W - 1)], 3: [(0, W - 1), (0, 0)]}[side]
            d.polygon(line + outer, fill=pal.edge)
    if pal.edge_line is not None:  # a thin line just inside the edge
        k = max(2, int(W * .008))
        d.rectangle((w + k, w + k, W - 1 - w - k, W - 1 - w - k), outline=pal.edge_line, width=k)


@lru_cache(maxsize=256)
def _tile(stack: str, character: str | None, items: tuple, variant: str) -> Image.Image:
    pal = PALETTES[variant]
    pos = CANON[stack]
    if pal.riso:
        return _tile_riso(stack, character, items, pal)
    img = _scene(pos, pal, f"{stack}{character}{items}", pal.space, pal.ground, pal.rim, pal.ground2)
    d = ImageDraw.Draw(img)
    icons = [it for it, n in items for _ in range(n)]
    if variant == "B":
        icons = icons[::-1]
    elif variant == "C":
        icons = icons[1:] + icons[:1]
    elif variant == "D":
        icons = icons[2:] + icons[:2]
    elif variant == "E":
        icons = icons[::-1][1:] + icons[::-1][:1]
    elif variant == "F":
        icons = icons[3:] + icons[:3]
    elif variant == "G":
        icons = icons[1::2] + icons[::2]
    elif variant == "H":
        icons = icons[::2][::-1] + icons[1::2]
    elif variant == "I":
        icons = icons[-2:] + icons[:-2]
    elif variant == "J":
        icons = icons[1::3] + icons[::3] + icons[2::3]
    elif variant == "K":
        icons = icons[2::2] + icons[:2] + icons[3::2]
    elif variant == "L":
        icons = icons[1:][::-1] + icons[:1]
    elif variant == "M":
        icons = icons[2:][::-1] + icons[:2]
    elif variant == "N":
        icons = icons[1::2][::-1] + icons[::2]
    elif variant == "O":
        icons = icons[-1:] + icons[:-1][::-1]
    elif variant == "P":
        icons = icons[::3][::-1] + icons[2::3] + icons[1::3]
    x0, y0, x1, y1 = (v * W for v in _ground_box(stack))
    sc = pal.icon_scale
    if stack == "character":
        _figure(d, character, W * .08, W * .08, W * .62)
        boxes = _icon_boxes(len(icons), x0, y0, x1, y1)
    else:
        boxes = _icon_boxes(len(icons), x0, y0, x1, y1)
    layered = pal.icon_line > 0 or pal.badges or pal.tags or pal.glyphs or pal.lineart or pal.offset is not None or pal.hatchfill or pal.pixel > 0 or pal.sticker > 0 or pal.stitch or pal.lino
    if layered:  # icons drawn on their own layer first
        layer = Image.new("RGBA", (W, W), (0, 0, 0, 0))
        ld = ImageDraw.Draw(layer)
    if pal.tags and boxes:  # pale rounded tags with a soft shadow down and to the right
        sh = Image.new("L", (W, W), 0)
        shd = ImageDraw.Draw(sh)
        for ix, iy, s in boxes:
            off = s * .07
            shd.rounded_rectangle((ix + off, iy + off, ix + s + off, iy + s + off), radius=s * .2, fill=150)
        sh = sh.filter(ImageFilter.GaussianBlur(W * .012))
        base = np.asarray(img).astype(np.float32) * (1 - np.asarray(sh, np.float32)[..., None] / 255 * .8)
        img = Image.fromarray(base.astype(np.uint8))
        d = ImageDraw.Draw(img)
        for ix, iy, s in boxes:
            d.rounded_rectangle((ix, iy, ix + s, iy + s), radius=s * .2, fill=(238, 244, 236))
    for (ix, iy, s), it in zip(boxes, icons):
        s2 = s * sc
        if pal.badges:  # a pale round badge under each stamped icon
            _ell(d, ix + s / 2, iy + s / 2, s * .5, s * .5, fill=(246, 238, 220), outline=pal.ink, width=max(2, int(s * .03)))
        ICONS[it](ld if layered else d, ix + (s - s2) / 2, iy + (s - s2) / 2, s2)
        if _one_ink(pal):
            _wool_mark(ld, it, ix + (s - s2) / 2, iy + (s - s2) / 2, s2)
    if (pal.badges or pal.glyphs) and boxes:  # one ink: the icon's shape only
        alpha = np.asarray(layer)[..., 3]
        base = np.asarray(img).astype(np.float32)
        base[alpha > 127] = pal.ink
        img = Image.fromarray(base.astype(np.uint8))
        d = ImageDraw.Draw(img)
    if pal.offset is not None and boxes:  # a risograph: the second ink off register, then the first
        alpha = np.asarray(layer)[..., 3]
        k = max(2, int(boxes[0][2] * sc * .06))
        moved = np.zeros_like(alpha)
        moved[k:, k:] = alpha[:-k, :-k]
        base = np.asarray(img).astype(np.float32)
        base[moved > 127] = pal.offset
        base[alpha > 127] = pal.ink
        img = Image.fromarray(base.astype(np.uint8))
        d = ImageDraw.Draw(img)
    if pal.lineart and boxes:  # the shapes' outlines only: what the shape covers less its inside
        alpha = np.asarray(layer)[..., 3]
        r = max(2, int(boxes[0][2] * sc * .05))
        inner = cv2.erode(alpha, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))
        base = np.asarray(img).astype(np.float32)
        base[(alpha > 127) & (inner <= 127)] = pal.ink
        img = Image.fromarray(base.astype(np.uint8))
        d = ImageDraw.Draw(img)
    if pal.hatchfill and boxes:  # engraved: pale paper inside, thin ink stripes across, an ink outline
        alpha = np.asarray(layer)[..., 3]
        r = max(2, int(boxes[0][2] * sc * .04))
        inner = cv2.erode(alpha, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))
        yy = np.mgrid[0:W, 0:W][0]
        period = max(4, int(boxes[0][2] * sc * .1))
        stripe = np.mod(yy, period) < max(2, period // 3)
        base = np.asarray(img).astype(np.float32)
        shape = alpha > 127
        base[shape] = (244, 236, 218)
        colour = np.asarray(layer)[..., :3].astype(np.float32)
        base[shape & stripe] = colour[shape & stripe]  # the stripes in the shape's own colour
        base[shape & (inner <= 127)] = pal.ink
        img = Image.fromarray(base.astype(np.uint8))
        d = ImageDraw.Draw(img)
    if pal.pixel > 0 and boxes:  # pixel art: the layer in square blocks, a one-block dark outline round it
        b = max(2, int(boxes[0][2] * sc * pal.pixel))
        m = W // b + 1
        big = np.zeros((m * b, m * b, 4), np.uint8)
        big[:W, :W] = np.asarray(layer)
        blocks = cv2.resize(big, (m, m), interpolation=cv2.INTER_AREA)
        solid = blocks[..., 3] > 110
        ring = cv2.dilate(solid.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        up = lambda a: np.repeat(np.repeat(a, b, 0), b, 1)[:W, :W]  # noqa: E731
        colour = up(blocks[..., :3]).astype(np.float32) * 255 / np.maximum(up(blocks[..., 3:4]).astype(np.float32), 1)
        base = np.asarray(img).astype(np.float32)
        base[up(ring)] = pal.ink
        base[up(solid)] = np.clip(colour[up(solid)], 0, 255)
        img = Image.fromarray(base.astype(np.uint8))
        d = ImageDraw.Draw(img)
    if pal.sticker > 0 and boxes:  # die-cut stickers: a white border round each shape, a faint shadow under it
        alpha = np.asarray(layer)[..., 3]
        r = max(2, int(boxes[0][2] * sc * pal.sticker))
        cut = cv2.dilate(alpha, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))
        shadow = cv2.GaussianBlur(np.roll(cut, (r // 2, r // 2), axis=(0, 1)).astype(np.float32), (0, 0), r * .6) / 255
        base = np.asarray(img).astype(np.float32) * (1 - .35 * shadow[..., None])
        base[cut > 127] = (250, 250, 246)
        img = Image.fromarray(base.astype(np.uint8))
        img.paste(layer, (0, 0), layer)
        d = ImageDraw.Draw(img)
    if pal.stitch and boxes:  # embroidered: the colour under a dark cross-stitch grid, a dashed ink outline
        alpha = np.asarray(layer)[..., 3]
        colour = np.asarray(layer)[..., :3].astype(np.float32)
        shape = alpha > 127
        r = max(2, int(boxes[0][2] * sc * .05))
        inner = cv2.erode(alpha, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))
        yy, xx = np.mgrid[0:W, 0:W]
        period = max(4, int(boxes[0][2] * sc * .09))
        grid = (np.mod(xx + yy, period) < 2) | (np.mod(xx - yy, period) < 2)
        dash = np.mod((xx + yy) // max(3, period // 2), 2) == 0
        base = np.asarray(img).astype(np.float32)
        base[shape] = colour[shape]
        base[shape & grid] *= .72
        base[shape & (inner <= 127) & dash] = pal.ink
        img = Image.fromarray(np.clip(base, 0, 255).astype(np.uint8))
        d = ImageDraw.Draw(img)
    if pal.lino and boxes:  # lino prints: mottled colour, paper specks and carved cuts, a chipped ink outline
        alpha = np.asarray(layer)[..., 3]
        colour = np.asarray(layer)[..., :3].astype(np.float32)
        shape = alpha > 127
        s = boxes[0][2] * sc
        r = max(2, int(s * .05))
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
        ring = (cv2.dilate(alpha, disc) > 127) & ~shape
        inner = cv2.erode(alpha, disc) > 127
        lrng = np.random.default_rng(31337)  # the same block texture on every tile (twins alike)
        mottle = cv2.resize(lrng.standard_normal((28, 28)).astype(np.float32), (W, W), interpolation=cv2.INTER_CUBIC)
        speck = cv2.resize(lrng.standard_normal((W // 4, W // 4)).astype(np.float32), (W, W),
                           interpolation=cv2.INTER_LINEAR) > 1.5
        yy, xx = np.mgrid[0:W, 0:W].astype(np.float32)
        period = max(6.0, s * .13)
        u, v = xx * .866 + yy * .5, -xx * .5 + yy * .866  # cuts at 30°, in staggered rows
        row = np.floor(v / period)
        cut = (np.mod(v, period) < max(2.0, period * .22)) & (np.mod(u + row * period * 1.3, period * 3) < period * 1.4)
        base = np.asarray(img).astype(np.float32)
        base[ring & (mottle > -.8)] = pal.ink
        base[shape] = colour[shape] * (.9 + .1 * np.tanh(mottle[shape]))[:, None]
        base[shape & (speck | (inner & cut))] = PAPER
        img = Image.fromarray(np.clip(base, 0, 255).astype(np.uint8))
        d = ImageDraw.Draw(img)
    if pal.icon_line > 0 and boxes:
        alpha = np.asarray(layer)[..., 3]
        r = max(1, int(boxes[0][2] * sc * pal.icon_line))
        ring = cv2.dilate(alpha, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))
        base = np.asarray(img).astype(np.float32)
        base[ring > 0] = INK
        img = Image.fromarray(base.astype(np.uint8))
        img.paste(layer, (0, 0), layer)
        d = ImageDraw.Draw(img)
    if pal.tags and boxes:
        img.paste(layer, (0, 0), layer)
        d = ImageDraw.Draw(img)
    _card_edge(d, pal)
    return img.resize((SIZE, SIZE), Image.LANCZOS)


@lru_cache(maxsize=16)
def _back(stack: str, variant: str) -> Image.Image:
    pal = PALETTES[variant]
    if pal.backs == "rings":
        return _back_rings(stack, pal)
    if pal.backs == "dots":
        return _back_dots(stack, pal)
    if pal.backs == "checks":
        return _back_checks(stack, pal)
    if pal.backs == "waves":
        return _back_waves(stack, pal)
    if pal.backs == "arcs":
        return _back_arcs(stack, pal)
    if pal.backs == "hexes":
        return _back_hexes(stack, pal)
    if pal.backs == "spiral":
        return _back_spiral(stack, pal)
    if pal.backs == "triangles":
        return _back_triangles(stack, pal)
    if pal.backs == "argyle":
        return _back_argyle(stack, pal)
    if pal.backs == "plaid":
        return _back_plaid(stack, pal)
    if pal.backs == "squares":
        return _back_squares(stack, pal)
    if pal.backs == "sunburst":
        return _back_sunburst(stack, pal)
    if pal.backs == "chevrons":
        return _back_chevrons(stack, pal)
    if stack == "character":
        img = Image.new("RGB", (W, W), pal.back_sky)
        d = ImageDraw.Draw(img)
        for k, (sx, sy) in enumerate(((.25, .3), (.7, .2), (.5, .6), (.2, .8), (.8, .75))):
            _star(d, W * sx - W * .09, W * sy - W * .09, W * (.18 if k else .3))
        d.line((W * .05, W * .05, W * .35, W * .2), fill=(250, 250, 250), width=int(W * .02))
    else:
        img = _scene(CANON[stack], pal, f"back{stack}", pal.back_sky, pal.back_planet,
                     tuple(int(c * .6) for c in pal.back_planet))
        d = ImageDraw.Draw(img)
        rnd = random.Random(stack + variant)
        for _ in range(4):  # craters
            cx, cy = rnd.uniform(.3, .9) * W, rnd.uniform(.55, .9) * W
            _ell(d, cx, cy, W * .07, W * .05, fill=tuple(int(c * .8) for c in pal.back_planet))
    _card_edge(d, pal)
    return img.resize((SIZE, SIZE), Image.LANCZOS)


def _back_rings(stack: str, pal: Palette) -> Image.Image:
    """Variant D's backs: diagonal stripes, as many as the stack's number, under a crescent moon
    (characters) or a ringed planet (the others), in each stack's own shade."""
    k = {"character": 0, "uphill": 1, "downhill": 2, "center": 3}[stack]
    shade = tuple(int(c * (1 - .15 * k)) for c in pal.back_planet)
    img = Image.new("RGB", (W, W), pal.back_sky)
    d = ImageDraw.Draw(img)
    for j in range(3 + 2 * k):
        o = (j + .5) / (3 + 2 * k) * 2 * W
        d.line((o - W, 0, o, W), fill=tuple(int(c * .55) for c in shade), width=int(W * .03))
    if stack == "character":
        _ell(d, W * .5, W * .5, W * .3, W * .3, fill=(245, 235, 190))
        _ell(d, W * .62, W * .42, W * .26, W * .26, fill=pal.back_sky)
    else:
        _ell(d, W * .5, W * .5, W * .42, W * .12, outline=(245, 235, 190), width=int(W * .03))
        _ell(d, W * .5, W * .5, W * .22, W * .22, fill=shade)
    _card_edge(d, pal)
    return img.resize((SIZE, SIZE), Image.LANCZOS)


def _back_dots(stack: str, pal: Palette) -> Image.Image:
    """Variant E's backs: a plain ground (characters: the sky colour, the others: the planet
    colour) with as many pale dots as the stack's number round a sun."""
    k = {"character": 0, "uphill": 1, "downhill": 2, "center": 3}[stack]
    img = Image.new("RGB", (W, W), pal.back_sky if k == 0 else tuple(int(c * (1 - .12 * k)) for c in pal.back_planet))
    d = ImageDraw.Draw(img)
    _ell(d, W * .5, W * .5, W * .2, W * .2, fill=(250, 220, 120), outline=INK, width=int(W * .01))
    for j in range(k + 2):
        a = 2 * math.pi * j / (k + 2)
        _ell(d, W * (.5 + .32 * math.cos(a)), W * (.5 + .32 * math.sin(a)), W * .06, W * .06, fill=(240, 240, 230))
    _card_edge(d, pal)
    return img.resize((SIZE, SIZE), Image.LANCZOS)


def _back_checks(stack: str, pal: Palette) -> Image.Image:
    """Variant F's backs: a check of the stack's own size (characters: 2×2, then 3×3, 4×4, 5×5)
    in the back's colour on a pale ground, under a round moon with a bite out of it."""
    k = {"character": 0, "uphill": 1, "downhill": 2, "center": 3}[stack]
    img = Image.new("RGB", (W, W), pal.back_sky)
    d = ImageDraw.Draw(img)
    n = k + 2
    c = W / n
    for i in range(n):
        for j in range(n):
            if (i + j) % 2 == 0:
                d.rectangle((j * c, i * c, (j + 1) * c, (i + 1) * c), fill=pal.back_planet)
    _ell(d, W * .5, W * .5, W * .22, W * .22, fill=(250, 236, 170), outline=INK, width=int(W * .012))
    _ell(d, W * .6, W * .44, W * .12, W * .12, fill=pal.back_sky)
    _card_edge(d, pal)
    return img.resize((SIZE, SIZE), Image.LANCZOS)


def _back_waves(stack: str, pal: Palette) -> Image.Image:
    """Variant G's backs: as many wavy bands as the stack's number plus one (characters: 1) in the
    back's colour across a deep blue ground, under a small paper boat."""
    k = {"character": 0, "uphill": 1, "downhill": 2, "center": 3}[stack]
    img = Image.new("RGB", (W, W), pal.back_sky)
    d = ImageDraw.Draw(img)
    n = k + 1
    for j in range(n):
        y0 = W * (.35 + .6 * (j + .5) / n)
        pts = [(x, y0 + W * .04 * math.sin(x / W * 4 * math.pi + j)) for x in range(0, W + 8, 8)]
        d.line(pts, fill=pal.back_planet, width=int(W * .05))
    d.polygon([(W * .3, W * .22), (W * .7, W * .22), (W * .6, W * .32), (W * .4, W * .32)], fill=(246, 240, 226))
    d.polygon([(W * .5, W * .06), (W * .5, W * .21), (W * .62, W * .21)], fill=(246, 240, 226))
    _card_edge(d, pal)
    return img.resize((SIZE, SIZE), Image.LANCZOS)


def _back_arcs(stack: str, pal: Palette) -> Image.Image:
    """Variant H's backs: as many concentric arcs as the stack's number plus two, in the back's
    colour on a dark plum ground, round a small pale sun in the lower left corner."""
    k = {"character": 0, "uphill": 1, "downhill": 2, "center": 3}[stack]
    img = Image.new("RGB", (W, W), pal.back_sky)
    d = ImageDraw.Draw(img)
    cx, cy = W * .2, W * .8
    for j in range(k + 2):
        r = W * (.3 + .7 * (j + 1) / (k + 2))
        d.arc((cx - r, cy - r, cx + r, cy + r), 270, 360, fill=pal.back_planet, width=int(W * .04))
    _ell(d, cx, cy, W * .16, W * .16, fill=(250, 240, 200))
    _card_edge(d, pal)
    return img.resize((SIZE, SIZE), Image.LANCZOS)


def _back_hexes(stack: str, pal: Palette) -> Image.Image:
    """Variant I's backs: a honeycomb of hexagons outlined in the back's colour on a deep teal
    ground, the cells smaller for each stack (characters: the biggest), round a small pale rocket."""
    k = {"character": 0, "uphill": 1, "downhill": 2, "center": 3}[stack]
    img = Image.new("RGB", (W, W), pal.back_sky)
    d = ImageDraw.Draw(img)
    r = W / (3 + 1.2 * k)
    for row in range(-1, int(W / (r * 1.5)) + 2):
        for col in range(-1, int(W / (r * math.sqrt(3))) + 2):
            cx = col * r * math.sqrt(3) + (row % 2) * r * math.sqrt(3) / 2
            cy = row * r * 1.5
            pts = [(cx + r * .9 * math.cos(math.pi / 6 + j * math.pi / 3), cy + r * .9 * math.sin(math.pi / 6 + j * math.pi / 3))
                   for j in range(7)]
            d.line(pts, fill=pal.back_planet, width=int(W * .02))
    _ell(d, W * .5, W * .5, W * .2, W * .2, fill=pal.back_sky)
    d.polygon([(W * .5, W * .3), (W * .58, W * .45), (W * .58, W * .64), (W * .42, W * .64), (W * .42, W * .45)],
              fill=(246, 240, 226))
    d.polygon([(W * .42, W * .56), (W * .34, W * .68), (W * .42, W * .64)], fill=(220, 80, 60))
    d.polygon([(W * .58, W * .56), (W * .66, W * .68), (W * .58, W * .64)], fill=(220, 80, 60))
    _card_edge(d, pal)
    return img.resize((SIZE, SIZE), Image.LANCZOS)


def _back_spiral(stack: str, pal: Palette) -> Image.Image:
    """Variant J's backs: a spiral in the back's colour on a near-black plum ground, as many turns
    as the stack's number plus one, round a pale moon with a keyhole cut in it."""
    k = {"character": 0, "uphill": 1, "downhill": 2, "center": 3}[stack]
    img = Image.new("RGB", (W, W), pal.back_sky)
    d = ImageDraw.Draw(img)
    turns = k + 1
    pts = []
    for j in range(400):
        t = j / 399
        a = t * turns * 2 * math.pi
        r = W * (.2 + .26 * t)
        pts.append((W * .5 + r * math.cos(a), W * .5 + r * math.sin(a)))
    d.line(pts, fill=pal.back_planet, width=int(W * .035), joint="curve")
    _ell(d, W * .5, W * .5, W * .15, W * .15, fill=(244, 236, 214))
    _ell(d, W * .5, W * .46, W * .04, W * .04, fill=pal.back_sky)
    d.polygon([(W * .47, W * .48), (W * .53, W * .48), (W * .55, W * .58), (W * .45, W * .58)], fill=pal.back_sky)
    _card_edge(d, pal)
    return img.resize((SIZE, SIZE), Image.LANCZOS)


def _back_triangles(stack: str, pal: Palette) -> Image.Image:
    """Variant K's backs: rows of triangles pointing up in the back's colour on a deep brown
    ground, as many rows as the stack's number plus one, under a small pale crescent."""
    k = {"character": 0, "uphill": 1, "downhill": 2, "center": 3}[stack]
    img = Image.new("RGB", (W, W), pal.back_sky)
    d = ImageDraw.Draw(img)
    rows = k + 1
    for j in range(rows):
        y1 = W * (.4 + .55 * (j + 1) / rows)
        hgt = W * .45 / rows
        for i in range(5):
            x0 = W * (.05 + .18 * i) + (W * .09 if j % 2 else 0)
            d.polygon([(x0, y1), (x0 + W * .14, y1), (x0 + W * .07, y1 - hgt * .85)], fill=pal.back_planet)
    _ell(d, W * .5, W * .2, W * .12, W * .12, fill=(244, 236, 214))
    _ell(d, W * .56, W * .16, W * .1, W * .1, fill=pal.back_sky)
    _card_edge(d, pal)
    return img.resize((SIZE, SIZE), Image.LANCZOS)


def _back_argyle(stack: str, pal: Palette) -> Image.Image:
    """Variant L's backs: an argyle of diamonds in the back's colour on a navy ground, as many rows
    as the stack's number plus two, thin pale lines crossing them, round a small four-pointed star."""
    k = {"character": 0, "uphill": 1, "downhill": 2, "center": 3}[stack]
    img = Image.new("RGB", (W, W), pal.back_sky)
    d = ImageDraw.Draw(img)
    rows = k + 2
    hy = W / rows
    hx = hy * .75
    for j in range(rows):
        for i in range(-1, int(W / (2 * hx)) + 2):
            cx, cy = (2 * i + (j % 2)) * hx, (j + .5) * hy
            if (i + j) % 2 == 0:
                d.polygon([(cx, cy - hy / 2), (cx + hx, cy), (cx, cy + hy / 2), (cx - hx, cy)], fill=pal.back_planet)
    for i in range(-2 * rows, 2 * rows + 2):  # thin pale lines along the diamonds' sides, both ways
        x0 = i * 2 * hx
        for sgn in (1, -1):
            d.line((x0, 0, x0 + sgn * W * hx / hy, W), fill=(230, 226, 200), width=max(2, int(W * .006)))
    c, r = W * .5, W * .16
    d.polygon([(c, c - r), (c + r * .3, c - r * .3), (c + r, c), (c + r * .3, c + r * .3), (c, c + r),
               (c - r * .3, c + r * .3), (c - r, c), (c - r * .3, c - r * .3)], fill=(250, 244, 220), outline=INK)
    _card_edge(d, pal)
    return img.resize((SIZE, SIZE), Image.LANCZOS)


def _back_plaid(stack: str, pal: Palette) -> Image.Image:
    """Variant M's backs: a tartan on a dark green ground — as many broad bands of the back's colour
    as the stack's number plus two, each way, crossing (darker where they cross), thin pale lines
    between them — round a small pale heart."""
    k = {"character": 0, "uphill": 1, "downhill": 2, "center": 3}[stack]
    n = k + 2
    yy, xx = np.mgrid[0:W, 0:W].astype(np.float32) / W
    bu = np.mod(xx * n, 1.0) < .4
    bv = np.mod(yy * n, 1.0) < .4
    img = np.empty((W, W, 3), np.float32)
    img[:] = pal.back_sky
    col = np.array(pal.back_planet, np.float32)
    img[bu ^ bv] = col
    img[bu & bv] = col * .6
    thin = (np.abs(np.mod(xx * n, 1.0) - .7) < .02) | (np.abs(np.mod(yy * n, 1.0) - .7) < .02)
    img[thin] = (236, 226, 190)
    out = Image.fromarray(img.astype(np.uint8))
    d = ImageDraw.Draw(out)
    c, r = W * .5, W * .13
    _ell(d, c - r * .5, c - r * .2, r * .55, r * .55, fill=(250, 240, 224))
    _ell(d, c + r * .5, c - r * .2, r * .55, r * .55, fill=(250, 240, 224))
    d.polygon([(c - r * 1.02, c - r * .05), (c + r * 1.02, c - r * .05), (c, c + r * 1.1)], fill=(250, 240, 224))
    _card_edge(d, pal)
    return out.resize((SIZE, SIZE), Image.LANCZOS)


def _back_squares(stack: str, pal: Palette) -> Image.Image:
    """Variant N's backs: concentric squares of the back's colour on a deep red ground, as many as
    the stack's number plus two, round a small pale diamond."""
    k = {"character": 0, "uphill": 1, "downhill": 2, "center": 3}[stack]
    img = Image.new("RGB", (W, W), pal.back_sky)
    d = ImageDraw.Draw(img)
    n = k + 2
    for i in range(n):
        m = W * (.06 + .36 * i / n)
        d.rectangle((m, m, W - 1 - m, W - 1 - m), outline=pal.back_planet, width=max(3, int(W * .16 / n)))
    c, r = W * .5, W * .08
    d.polygon([(c, c - r), (c + r, c), (c, c + r), (c - r, c)], fill=(250, 244, 226))
    _card_edge(d, pal)
    return img.resize((SIZE, SIZE), Image.LANCZOS)


def _back_sunburst(stack: str, pal: Palette) -> Image.Image:
    """Variant P's backs: a carved sunburst — wedges radiating from the middle, alternately the
    back's colour and a deep green, as many as 8 plus 4 times the stack's number, the block's grain
    printed over them in pale streaks — round a small pale five-petalled flower with an ink heart."""
    k = {"character": 0, "uphill": 1, "downhill": 2, "center": 3}[stack]
    n = 8 + 4 * k
    yy, xx = np.mgrid[0:W, 0:W].astype(np.float32) / W
    th = np.arctan2(yy - .5, xx - .5)
    wedge = (np.floor((th + math.pi) / (2 * math.pi) * n) % 2 == 0)[..., None]
    img = np.where(wedge, np.array(pal.back_planet, np.float32), np.array(pal.back_sky, np.float32))
    grain = np.abs(np.mod(yy * 13 + .5 * np.sin(xx * 6 + yy * 2), 1.0) - .5) < .05
    img[grain] = img[grain] * .7 + np.array(PAPER, np.float32) * .3
    out = Image.fromarray(img.astype(np.uint8))
    d = ImageDraw.Draw(out)
    c, r = W * .5, W * .075
    _ell(d, c, c, r * 2.1, r * 2.1, fill=pal.back_sky)
    for j in range(5):
        a = 2 * math.pi * j / 5 - math.pi / 2
        _ell(d, c + r * math.cos(a), c + r * math.sin(a), r * .62, r * .62, fill=PAPER)
    _ell(d, c, c, r * .45, r * .45, fill=pal.ink)
    _card_edge(d, pal)
    return out.resize((SIZE, SIZE), Image.LANCZOS)


# --------------------------------------------------------------------------------------------
# variant Q: a risograph print — three spot inks on their own drums, each a little off register

RISO_INKS = ((0, 120, 191), (255, 72, 176), (255, 232, 0))   # medium blue, fluorescent pink, yellow
RISO_SHIFT = ((0.0, 0.0), (.011, .005), (-.006, .009))       # each drum's offset, part of the card's side
RISO_PAPER = (236, 231, 216)                                 # off-white recycled paper


def _riso_paper(key: str) -> np.ndarray:
    """Recycled paper: off-white, faintly mottled, flecked with short fibres and a few specks (the
    same for the same ``key``, so twins are alike)."""
    rng = np.random.default_rng(zlib.crc32(key.encode()))
    img = np.empty((W, W, 3), np.float32)
    img[:] = RISO_PAPER
    img *= (1 + .025 * _smooth(rng, W, 7))[..., None]
    paper = Image.fromarray(np.clip(img, 0, 255).astype(np.uint8))
    d = ImageDraw.Draw(paper)
    fibres = ((186, 176, 156), (150, 160, 188), (204, 168, 158), (170, 170, 160))
    for _ in range(110):
        x0, y0 = rng.uniform(0, W, 2)
        a, bend, ln = rng.uniform(0, 2 * math.pi), rng.uniform(-1, 1), rng.uniform(.01, .05) * W
        pts = [(x0 + ln * t * math.cos(a + bend * t), y0 + ln * t * math.sin(a + bend * t)) for t in np.linspace(0, 1, 7)]
        d.line(pts, fill=fibres[int(rng.integers(len(fibres)))], width=int(rng.choice([1, S])))
    for _ in range(30):
        x0, y0 = rng.uniform(0, W, 2)
        _ell(d, x0, y0, S * .8, S * .8, fill=(120, 112, 100))
    return np.asarray(paper).astype(np.float32)


def _halftone(cov: np.ndarray, period: float, angle: float) -> np.ndarray:
    """A dot screen (bool) giving about ``cov`` of ink: round dots on a grid turned by ``angle``."""
    yy, xx = np.mgrid[0:W, 0:W].astype(np.float32)
    ca, sa = math.cos(angle), math.sin(angle)
    u, v = (xx * ca + yy * sa) / period, (-xx * sa + yy * ca) / period
    r = np.hypot(np.mod(u, 1.0) - .5, np.mod(v, 1.0) - .5)
    return r < np.sqrt(np.clip(cov, 0, 1) / math.pi)


def _riso_print(plates: np.ndarray, key: str) -> Image.Image:
    """Print the three plates (coverage 0-1, blue, pink, yellow) on recycled paper, each drum off
    register by its own shift, each ink uneven (mottled, starved in streaks along the paper's run),
    the inks multiplying where they overlap; the card's margin (0 in every plate) stays paper, wider
    on one side than the other where the drums are off."""
    out = _riso_paper(key)
    rng = np.random.default_rng(zlib.crc32(("ink" + key).encode()))
    yy = np.mgrid[0:W, 0:W][0].astype(np.float32) / W
    for cov, ink, (dx, dy) in zip(plates, RISO_INKS, RISO_SHIFT):
        M = np.float32([[1, 0, dx * W], [0, 1, dy * W]])
        cov = cv2.warpAffine(cov.astype(np.float32), M, (W, W), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        streak = np.sin(yy * rng.uniform(40, 70) + rng.uniform(0, 6)) * np.sin(yy * rng.uniform(9, 17))
        dens = np.clip(.9 + .06 * _smooth(rng, W, 9) - .07 * np.clip(streak, 0, 1), .6, 1)
        out *= 1 - (cov * dens)[..., None] * (1 - np.array(ink, np.float32) / 255)
    return Image.fromarray(np.clip(out, 0, 255).astype(np.uint8))


def _riso_edge(plates: np.ndarray, pal: Palette) -> None:
    """The card's edge: an unprinted paper margin (every plate cleared) dotted with small pink dots."""
    m = int(W * pal.edge_width)
    plates[:, :m, :] = 0
    plates[:, W - m:, :] = 0
    plates[:, :, :m] = 0
    plates[:, :, W - m:] = 0
    dots = Image.new("L", (W, W), 0)
    dd = ImageDraw.Draw(dots)
    n, r = 14, W * pal.edge_width * .24
    for i in range(n):
        u = (i + .5) * W / n
        for cx, cy in ((u, m / 2), (u, W - 1 - m / 2), (m / 2, u), (W - 1 - m / 2, u)):
            _ell(dd, cx, cy, r, r, fill=255)
    plates[1] = np.maximum(plates[1], np.asarray(dots, np.float32) / 255)


def _tile_riso(stack: str, character: str | None, items: tuple, pal: Palette) -> Image.Image:
    """Variant Q's face: the planet's piece and the icons separated into three spot-ink plates."""
    pos = CANON[stack]
    r0, c0 = divmod(pos, 4)
    yy, xx = np.mgrid[0:W, 0:W].astype(np.float32) / W
    gx, gy = c0 + xx, r0 + yy
    dist = np.hypot(gx - 2, gy - 2)
    inside = dist < pal.radius
    plates = np.zeros((3, W, W), np.float32)             # blue, pink, yellow
    # the sky: solid blue, stars knocked out to the paper with a pink dot printed into each
    plates[0][~inside] = 1
    plates[0][inside & (dist > pal.radius - .012)] = 1    # a trap: the blue just overlaps the planet
    srng = np.random.default_rng(1616)
    for sx, sy in srng.uniform(0, 4, (90, 2)):
        if math.hypot(sx - 2, sy - 2) < pal.radius + .12:
            continue
        rr = np.hypot(gx - sx, gy - sy)
        plates[0][rr < .04] = 0
        plates[1][rr < .022] = 1
    # the planet: yellow, blue continents (green where the inks overprint), the limb shaded by a
    # coarse pink halftone growing towards a solid pink rim
    plates[2][inside] = 1
    land = (np.sin(1.7 * gx + .3) * np.sin(1.3 * gy + 1.1) + .5 * np.sin(2.9 * gx - 1.7 * gy + .4)) > .55
    plates[0][inside & land & (dist < pal.radius - pal.rim_width)] = 1
    shade = np.clip((dist / pal.radius - .5) / .5, 0, 1) ** 1.4 * .6
    plates[1][inside & _halftone(shade, W * .085, math.radians(15))] = 1
    plates[1][inside & (dist > pal.radius - pal.rim_width)] = 1
    # the icons (and the character's figure) on their own layer, then separated
    icons = [it for it, n in items for _ in range(n)]
    icons = icons[2::3] + icons[::3][::-1] + icons[1::3]
    boxes = _icon_boxes(len(icons), *(v * W for v in _ground_box(stack)))
    layer = Image.new("RGBA", (W, W), (0, 0, 0, 0))
    ld = ImageDraw.Draw(layer)
    if stack == "character":
        _figure(ld, character, W * .08, W * .08, W * .62)
    for (ix, iy, s), it in zip(boxes, icons):
        s2 = s * pal.icon_scale
        ICONS[it](ld, ix + (s - s2) / 2, iy + (s - s2) / 2, s2)
    alpha = np.asarray(layer)[..., 3]
    if alpha.any():
        s = boxes[0][2] * pal.icon_scale if boxes else W * .3
        k = max(2, int(s * .045))
        shape = alpha > 127
        key = cv2.dilate(alpha, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))) > 127
        knock = cv2.dilate(alpha, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (4 * k + 1, 4 * k + 1))) > 127
        plates[:, knock] = 0                              # the picture knocked out under each icon
        plates[0][key & ~shape] = 1                       # a blue keyline round it
        rgb = np.asarray(layer)[..., :3].astype(np.float32) / 255
        for i, ang in enumerate((75, 15, 0)):             # cyan-ish to blue, magenta-ish to pink, yellow
            need = 1 - rgb[..., i]
            half = _halftone(np.full((W, W), .5, np.float32), max(6.0, s * .16), math.radians(ang))
            plates[i][shape & ((need > .62) | ((need > .28) & half))] = 1
    _riso_edge(plates, pal)
    return _riso_print(plates, f"{stack}{character}{items}").resize((SIZE, SIZE), Image.LANCZOS)


def _back_chevrons(stack: str, pal: Palette) -> Image.Image:
    """Variant Q's backs, printed as its faces: blue chevrons pointing up (as many as the stack's
    number plus two) over a pink halftone growing downwards, round a small yellow planet with a pink
    crescent, in a paper margin dotted in pink."""
    k = {"character": 0, "uphill": 1, "downhill": 2, "center": 3}[stack]
    n = k + 2
    yy, xx = np.mgrid[0:W, 0:W].astype(np.float32) / W
    plates = np.zeros((3, W, W), np.float32)
    v = yy + .45 * np.abs(xx - .5)
    plates[0][np.mod(v * n, 1.0) < .42] = 1
    plates[1][_halftone(.08 + .6 * yy, W * .07, math.radians(45))] = 1
    rr = np.hypot(xx - .5, yy - .5)
    plates[:, rr < .2] = 0
    plates[2][rr < .15] = 1
    plates[1][(rr < .15) & (np.hypot(xx - .56, yy - .45) > .14)] = 1
    _riso_edge(plates, pal)
    return _riso_print(plates, f"back{stack}").resize((SIZE, SIZE), Image.LANCZOS)


def card_alpha(variant: str, t: int) -> np.ndarray:
    """The card's shape at side ``t`` (uint8 alpha): a square, with rounded-off, cut-off or
    bitten-in corners, or perforated along its edges like a stamp."""
    pal = PALETTES[variant]
    if pal.perforated:
        big = Image.new("L", (4 * t, 4 * t), 255)
        bd = ImageDraw.Draw(big)
        n, side = pal.perforated, 4 * t
        r = side / n * .22
        for i in range(n):
            u = (i + .5) * side / n
            for cx, cy in ((u, 0), (u, side - 1), (0, u), (side - 1, u)):
                bd.ellipse((cx - r, cy - r, cx + r, cy + r), fill=0)
        return np.asarray(big.resize((t, t), Image.LANCZOS), np.uint8).copy()
    if pal.notch > 0:  # the corners bitten in: a quarter circle cut out of each
        big = Image.new("L", (4 * t, 4 * t), 255)
        bd = ImageDraw.Draw(big)
        side, r = 4 * t - 1, pal.notch * 4 * t
        for cx, cy in ((0, 0), (side, 0), (side, side), (0, side)):
            bd.ellipse((cx - r, cy - r, cx + r, cy + r), fill=0)
        return np.asarray(big.resize((t, t), Image.LANCZOS), np.uint8).copy()
    if pal.chamfer > 0:  # the corners cut off straight
        big = Image.new("L", (4 * t, 4 * t), 0)
        side, c = 4 * t - 1, pal.chamfer * 4 * t
        ImageDraw.Draw(big).polygon([(c, 0), (side - c, 0), (side, c), (side, side - c), (side - c, side), (c, side),
                                     (0, side - c), (0, c)], fill=255)
        return np.asarray(big.resize((t, t), Image.LANCZOS), np.uint8).copy()
    if pal.corner <= 0:
        return np.full((t, t), 255, np.uint8)
    big = Image.new("L", (4 * t, 4 * t), 0)
    ImageDraw.Draw(big).rounded_rectangle((0, 0, 4 * t - 1, 4 * t - 1), radius=pal.corner * 4 * t, fill=255)
    return np.asarray(big.resize((t, t), Image.LANCZOS), np.uint8).copy()


def tile_image(tile_id: str, variant: str = "A", stack: str | None = None) -> Image.Image:
    """A tile (or ``"back"`` of ``stack``) as drawn at its stack's first position, upright."""
    if tile_id == "back":
        return _back(stack or "center", variant)
    from scorer.catalog import catalog
    t = catalog()[tile_id]
    return _tile(t.stack, t.character, tuple(sorted(t.items.items())), variant)


def tile_as_laid(tile_id: str, position: int, variant: str = "A") -> np.ndarray:
    """The tile as it lies at ``position`` (turned to face outwards), BGR uint8."""
    from scorer.planet import STACK_AT
    from .layout import TURNS
    img = np.asarray(tile_image(tile_id, variant, STACK_AT[position]))[..., ::-1]
    return np.ascontiguousarray(np.rot90(img, -TURNS[position]))


def render_planet(grid: dict, variant: str = "A", size: int = 1024) -> Image.Image:
    """The planet laid edge to edge (for looking at the art)."""
    cell = size // 4
    out = Image.new("RGB", (cell * 4, cell * 4), (0, 0, 0))
    cells = [c for row in grid["cells"] for c in row]
    for p, c in enumerate(cells):
        if c is None:
            continue
        tile = Image.fromarray(tile_as_laid(c, p, variant)[..., ::-1]).resize((cell, cell), Image.LANCZOS)
        out.paste(tile, ((p % 4) * cell, (p // 4) * cell))
    return out
