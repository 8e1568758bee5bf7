"""Every tuned constant of the reader and of learning, in one place, with where it was measured.

"Shipped photos": ``sample_photos/`` (shipped art, ``python -m vision.samples``, seed 1; phone
size since issue 8's speed round) and a validation set of ~250 photos made the same way with
other seeds. "Box photos": ``sample_photos/box2/`` (the second box, ``python -m
vision.samples_box``, seed 2, variant A; phone size since the speed round, 1280-px before).
Until issue 8's doubt and speed round nothing was fitted on the held-out sets
``sample_photos/box2-heldout/`` (seed 7, variant B) or ``sample_photos/box2-heldout2/`` (seed 23,
variant C). From that round on both are *seen*: the constants marked "doubt round" or "speed
round" were measured on box2, box2-heldout and box2-heldout2 (and the shipped photos plus a
seed-5 validation set, ``python -m vision.samples DIR --seed 5 --count 24 --empty 2``). Nothing
there was fitted on ``sample_photos/box2-heldout3/`` (seed 41, variant D), made before that round
and read only by its final bench. From issue 8's teaching round on, box2-heldout3 is *seen* too:
the constants marked "teaching round" were measured on it (and the other three sets). Nothing there
was fitted on ``sample_photos/box2-heldout4/`` (seed 59, variant E), made first in that round and
read only by its final bench. From the photo-light round on, box2-heldout4 is *seen* too: the
constants marked "photo-light round" were measured on it and the other four sets. Nothing here is
fitted on ``sample_photos/box2-heldout5/`` (seed 73, variant F), made first in that round, before
any change, and read only by a bench run before the changes and by its final bench. From the
generalisation round on, box2-heldout5 is *seen* too: the constants marked "generalisation round"
were measured on it and the five other seen sets. Nothing here is fitted on
``sample_photos/box2-heldout6/`` (seed 89, variant G), made first in that round, before any change,
and read (its totals only) by a bench run before the changes and by the round's final bench.
Later rounds name their sets beside each constant; from issue 8's generalisation-of-learning round
box2-heldout9 is *seen* (OUTWARD_ALIKE was measured on it) and nothing is fitted on
``sample_photos/box2-heldout10/`` (seed 199, variant K).
"""
from __future__ import annotations

# --- finding the planet (vision/recognize.py) ---------------------------------------------
# Shipped photos at phone size (sample_photos/, 16 planets): decoding at a short side ≥ 480 (a
# quarter of a 3000×2250 photo) instead of 720 read as many cells right (256/256) in ~0.8 of the
# time; finding the planet at 320 px lost p07 (a planet at a quarter of the short side).
WORK = 512             # long side of the image used to find the planet
SHIPPED_SIDE = 480     # decode reduced, short side at least this
MARGIN = 22            # margin around the straightened planet (pixels at CELL scale)
SEARCH = 20            # how far a tile may sit from its ideal place (pixels at CELL scale)
SCALES = (0.8, 1.2, 1.45)  # the best outlines are also tried grown and shrunk by these
# Shipped photos and a validation set (python -m vision.samples DIR --seed 5 --count 24 --empty 2):
# growing only the best outline and looking for each cell again with its likeliest tile only
# (not its three likeliest) read the same cells (256/256, 382/384) in 0.8 of the time.
GROWN = 1              # how many of the best-ranked outlines are also tried grown and shrunk
TRIES = 1              # tiles (besides the back) each cell is looked for again with, second pass
# Issue 8, speed round (shipped photos, 16 + 4, and the seed-5 validation set, 24 + 2): the outline
# refitted through the tiles found is read again only when it moves a corner by more than
# REREAD_MOVE of a cell (0: always, as before; 0.1 and 0.2 read the same 256/256, 382/384); the
# second pass looks for the back only in cells where the back's first score is within BACK_NEAR
# of the best face's (0.3: the same cells; 0.15 lost one cell of p02 and 2 of the validation set).
REREAD_MOVE = 0.1
BACK_NEAR = 0.3
CV_THREADS = 1         # OpenCV threads while reading (0: OpenCV's default). Shipped photos at load ~7: median 7.2-8.5x a full decode on one thread, 10.0-10.5x on two; at load ~2 the same (4.8-4.9x)
READS = 4              # full readings of the best-ranked outlines, until one is GOOD
GOOD = 0.7             # a reading this good needs no second candidate
READS_FIRST = 1        # of them, from the first masks' outlines (outline.mask_groups): none GOOD, every mask's are ranked
# and read as if made at once (stop 41). 1, 2 and 4 gave the same readings of 76 shipped-art photos (sample_photos,
# and fresh sets of seeds 5 and 4141, 24 + 4 each); 1 costs a photo without a planet one reading more, not four.
FINE_BELOW = 0.85      # a small planet read less well than this is read again from a finer decode
# (a good reading of a small planet is no longer decoded again only to tell twins by their ids:
# twins may come back as either id, issue 8)

# --- is it a planet at all -----------------------------------------------------------------
# Shipped photos: colour planets in every sample condition score ≥ 0.75 with ≥ 14 cells
# matching; tables, faces, text, noise and loose tiles score ≤ 0.51 with ≤ 11.
PLANET_MIN = 0.6       # mean match of the 16 cells below which there is no planet
PLANET_CELLS = 12      # … and how many cells must match at least CELL_MATCH
CELL_MATCH = 0.45

# --- doubt ---------------------------------------------------------------------------------
# Shipped photos (~3000 cells): every wrong cell had a margin under 0.01; 2–3% of right cells
# have one under 0.02 (they are flagged too). A poor match (under 0.5) is doubtful whatever
# the margin: in hard photos wrong cells had margins up to 0.12 but matches under 0.45.
DOUBT = 0.5            # a cell whose confidence is under this is doubtful
MARGIN_DOUBT = 0.02    # a margin to the best other contents under this is doubtful

# --- look-alikes in the shipped reader (recognize._tell_lookalikes) --------------------------
# Issue 8, vision19. Tuned on round-trip photos made as tests/test_vision.py's property makes them
# (/tmp scripts, not in the repository): 2000 photos, even seeds, parameters drawn from numpy seed
# 1001 (the "tuning sweep"); the reported figures come from other sweeps (odd seeds, numpy seeds
# 2002 and 3003) and sample_photos/. The failing case (seed 242): a lamp's fall-off across C14 (box,
# white sheep) left the sheep as dark as the bright top's grey; the whole-tile match (normalized per
# tile) read C15 (grey sheep) by 0.049 at a match of 0.64, confidence 0.96.
# Tuning sweep, first 1600 photos, per cell: the look test (recognize.tell_lookalike) of the tile
# read against its nearest look-alike: right cells 0.048 and up but one (-0.016, D20); 15 of the 16
# wrong cells (all doubtful before) under 0 (-0.57 to -0.069, then -0.017), the look-alike being the
# truth. Wrong cells' whole-tile margins to another content: 0.018 and under (seed 242's: 0.049).
LOOKALIKES = True      # tell each cell from tiles of other contents that look like it but in a small part
LOOK_NEAR = 0.1        # … rivals whose whole-tile match is within this of the chosen tile's (0.15:
                       # the same cells on the tuning sweep, ~4 ms a sample photo instead of ~2)
LOOK_AREA = 0.12       # … and that differ from it in at most this part of the tile (set once)
LOOK_DIFFER = 40       # … a pixel differs when a channel differs by more than this (0-255; set once)
LOOK_PAD = 4           # the box where they differ, grown by this many px at CELL (64; set once)
LOOK_SHIFT = 3         # each picture placed on the cell within this many px (set once)
LOOK_FLOOR = 16.0      # log(picture + this): the light taken out multiplicatively (set once)
LOOK_BLUR = 1.0        # px at CELL: blur against noise and JPEG (set once)
LOOK_LIGHT = 8.0       # px at CELL: the slow light, a blur this wide of the log (set once)
# A rival fitting better than this where they differ is taken (when no other cell holds it): 0 made
# sample_photos/p01's right K14 a K15 (-0.007; K14/K15 differ in the suit, a star and the title, so
# their box is most of the tile); in the gap on the tuning sweep between right cells (-0.016 and up)
# and wrong ones (-0.069 and down, but -0.017).
LOOK_SWAP = -0.04
LOOK_DOUBT = 0.05      # a cell beating its look-alikes there by under 2× this is less sure (under 1×:
                       # doubtful); right cells of the tuning sweep: 0.1% under 0.07, 1% under 0.086

# A cell read as its look-alike (LOOK_SWAP) is as sure as the whole-tile comparison is of the tile now
# read (``recognize._confidence``), which preferred the tile it replaced: doubtful. Before stop 68 it
# kept the confidence the whole tile gave the tile it replaced, so two comparisons that disagreed
# read sure. Dev sets 9800-9804 (the shipped art with a neighbour's planet, `python -m vision.samples
# DIR --seed S --count 0 --empty 0 --beside 40`): 8 cells read as their look-alike, 3 right (doubtful
# either way), 5 wrong, 2 of them sure (d9801 s25 C13 -> C03 at 1.0, whole tiles 0.091 apart;
# d9803 s09 D02 -> D01 at 0.70): the only sure wrong cells of those 200 photos.
LOOK_SWAP_OWN_CONF = True

# --- learning a box (vision/learn.py) ------------------------------------------------------
# Box photos, the six teaching photos: the layout's side is 0.6–0.85 of the short side, it
# is turned under 4° and tilted under 8°. box2-heldout3's (seen since issue 8's teaching round)
# are phone size, tilted 2–14°, with dark card edges and a glowing rim: the reader's outlines
# and its magnitude lattice fit found the layout in 3 of 6 (t01 and t04 of them 0.3–0.5 of a
# cell off); fitted by edges across the lines (stages.fit_layout), ranked by the weakest lines,
# all six within 0.12 of a cell (the generator's truth, samples_box.make_teaching(truths=)).
LEARN_MIN_SIDE = 0.25  # a layout's every side is at least this part of the photo's short side (learn._large_enough)
# Stop 52: this bar was set (0.2) with the first teaching code and lost when teaching moved to the
# stages (938dfe6); since then a no-planet photo could be taught. Fresh seed 159's n01 (cards on a
# wood grain) was, as a lattice on one card and the grain's lines (straightness 1.36, its sides
# 0.18-0.21 of the short side), and 16 pictures of nothing were learned. 0.25 is issue 8's floor
# for a planet in a photo. Over the 1536 seen teaching photos and 568 no-planet photos of the 256
# seen sets (/work/notes/s52/found_stats.py, found_compare.py): the layouts found right have their
# shortest side 0.46-0.84 of the photo's short side; with the bar, seed 159's n01 is refused, no
# layout is lost, two backs layouts move 0.03-0.06 of a cell (both still right).
# (a teaching photo's tilt leaves a layout's sides' ratio under 1.2: LEARN_SQUARE_ASPECT, at the end)
LEARN_MAX_TURN = 20.0  # degrees: the photo is upright, the layout nearly level
LEARN_CANDIDATES = 16  # outlines fitted (box2-heldout3's t04: its right one the 7th of 10; 0.3-1.5 s a photo).
                       # Issue 8's learning round (heldout6 seen): its t01 (a cluttered table) has its right one
                       # the 10th of 11: at 8 never fitted, the layout not learned, a third of the box unknown.
                       # At 16 every seen no-planet photo is still refused (best straightness 1.56, under
                       # LEARN_STRAIGHT); heldout2's t03-t05 and heldout3's t04 moved 0.09-0.22 of a cell to
                       # outlines that fit better, as near the generator's truth (0.11-0.14 vs 0.11-0.16).
LAYOUT_WEAKEST = 5     # the weakest of a lattice's ten lines that rank fitted outlines (stages.fit_layout):
                       # on the mean of all ten, heldout3's t05 ranked a lattice 0.6 the layout's size first;
                       # the straightness and table tests then refuse it, so all ten find the same six
                       # layouts on the seen sets (its mutation survives the suite): a second guard
LAYOUT_STEPS = (0.06, 0.03, 0.015, 0.007)  # corner and whole-outline nudges, parts of the side
# The median over the lattice's ten lines of edges across / edges along (stages.layout_straightness):
# teaching photos of box2-heldout, heldout3 (seen) 3.5 and up; every no-planet photo of sample_photos/
# and the box sets (tables, faces, text, noise) 1.52 and under.
# The generalisation round (box2-heldout5 seen): its layout of backs (t06: checks whose own straight
# edges cross the tiles' borders) reads 2.22-2.33 and was refused at 2.5, so heldout5 never learned a
# back (45 of its 98 wrong cells were backs read as faces). Every other seen set's teaching photo 3.07
# and up; every no-planet photo of the seen sets (shipped and box sets, best outline off the table)
# 1.56 and under (box2-heldout's n04). Set in that gap: heldout5 222 -> 266 of 320 cells.
# Generalisation round 3 (box2-heldout11 seen): its cards' stamp-perforated edges (the table showing
# through a row of notches along every border) put short strong edges *along* each line, and the mean
# straightness of its right layouts fell to 1.64-1.81 (t01-t05 refused at 1.9), level with its photo of
# a lawn (1.81). Each line's points are now taken by their median (stages.layout_straightness): its
# right layouts 1.49-2.81, every seen set's right layouts 1.49 and up (the nearest fitted outline to the
# generator's truth; box2 2.31 and up), every no-planet photo of the seen sets (shipped and box sets, 52,
# outlines off the table) 1.16 and under (heldout11's n03). Set in that gap: every seen set finds the
# same layouts as before (as far from the truth, to 0.01 of a cell), heldout11 finds t01-t05 (0.06-0.09
# of a cell off) and no no-planet photo has a layout. (Right layouts: within 0.5 of a cell of the truth.)
LEARN_STRAIGHT = 1.35
# Every cell's middle but LEARN_TABLE_CELLS must be at least LEARN_COVERED not-table: heldout3's t03 has a
# corner cell 0.00 and one 0.21 (a sky like the table), the next 0.74; a lattice a cell off the layout
# puts four cells on the table.
LEARN_COVERED = 0.5
LEARN_TABLE_CELLS = 2
# The photo-light round (box2-heldout4, seen from then on): under a warm lamp falling off to one side
# t04's layout was found a whole cell off (0.97 of a cell; the dim side's borders weak). Found again on
# light-free edges (stages.light_free, EDGE_FLOOR) it is 0.2 off; the seen sets' layouts found both ways
# lay within 0.25 of a cell of each other then (box2 within 0.15), and heldout4's t04 0.82 apart (since the
# later layout rounds up to 0.51 apart, heldout14's t02, and the first is kept up to LAYOUT_AGREE).
LIGHT_EDGES = True     # ask the light-free edges for a second opinion (learn._second_opinion)
LAYOUT_AGREE = 0.5     # … which decides when the two layouts lie more than this part of a cell apart
EDGE_FLOOR = 8.0       # light_free's floor for edges (30: heldout4's layouts no better, box2's cells fewer)
# Issue 8's layout-fit round (vision21; box2-heldout14 seen, and the other seen sets): on art full of edges
# along the rows (heldout14's waves) every fitted candidate of t05 lay 0.3-1.0 of a cell off, on the art
# (straightness 0.7-1.2, refused), and fitted from the generator's truth it moved 0.36 off: layout_fits
# prefers the art. Moved instead until its lines are straightest (learn._straightened_layout,
# stages.straighten_layout), its straightest candidate lies 0.12 of a cell from the truth (straightness
# 5.0). Straightening raises a no-planet photo's straightness too: over the 56 no-planet photos of the
# seen sets (shipped and box sets), straightened candidates off the table reach 2.66 (heldout10's n02;
# then 1.91 heldout4's n01, 1.70 heldout11's n03); the seen layouts found only so: heldout14's t05 5.0,
# heldout6's t06 (backs) 4.2. STRAIGHTENED_MIN in that gap.
STRAIGHTEN = True      # when no fitted candidate is straight enough, straighten the candidates
STRAIGHTEN_STEPS = (0.03, 0.015, 0.007)  # … moves, parts of the outline's side
STRAIGHTEN_MOVES = 40  # … at most this many moves at each step
STRAIGHTENED_MIN = 3.3 # … and take the straightest at least this straight (and off the table)
# A face square of a layout whose tile carries no drawing is a square of the table, not a tile: the
# layout was found off (fresh set f4006G's t01, variant G, stop 49: its lattice found 2.1 cells off,
# its left column cut from a plain magenta table, and those flat pictures then matched a later photo's
# cells surely and wrongly, at sureness 4.239, over BOX_SURE). The measure: each cut tile's fine detail
# (``learn.fine_detail``) against the median of its layout's faces. Over 58 learned boxes (the 13 seen
# sets, seeds 110-133, 21 fresh sets of variants A-L; /work/notes/flat_pics.py, outside the repository)
# the flat table squares measured 0.02 of their box's median and the lowest true tile 0.13 (a centre
# tile with one large item); the bar was set between, once, at 0.05. Not caught: f4017G's t01 and t04,
# found a cell off onto a table of coloured shapes (its squares 0.10-0.26: drawn, but not tiles).
LEARN_BLANK = 0.05
LEARN_SIDE = 600      # decode teaching photos with a short side of at least this
WRONG_LAYOUT_CELLS = 6  # sure cells read as tiles learned from another layout: the wrong photo
WRONG_LAYOUT_SIM = 0.7  # … read with at least this similarity (box photos: t01 again as t02: most ≥ 0.8)
# A face-up layout found a cell off, or on a lattice of the art's own lines, was taught silently (stop 61):
# fresh set 9607's t03 (a 4×4 lattice on its globe's grid lines, 1.24 cells off), 9613's t03 (0.74 off,
# its last row on a striped table) and 9367's t05 (1.35 off): 16 tiles learned as pictures of something
# else (9607: 65 wrong cells of 320). The photo read with the box taught so far (learn.check_layout) says
# so: the mean fit of its 16 cells with their stacks' looks (``Verdict.fits``) and how far the reading's
# outline moved from the one found. Measured on the 78 dev sets of stops 54-60 (v54-v60; 312 face-up photos
# read with a box already taught, /work/notes/s61/chk.py, outside the repository; the bars were set when 204
# had been read, and the other 108 moved no figure below): layouts found under 0.4 of a cell off had a mean
# fit of 0.526 or more once the box knew two layouts' faces (0.441 with one), and moved 0.405 at most;
# 9607's t03 0.167 and 9367's t05 0.385, and 9613's t03 moved 0.626 (the reading then lay 0.08 of a cell
# from the truth). The bars were set between, once.
LAYOUT_OFF_FIT = 0.45     # a layout found whose cells' mean fit is under this is asked for by its corners …
LAYOUT_OFF_FACES = 2      # … once the box knows the faces of this many layouts
LAYOUT_OFF_MOVED = 0.5    # … or whose reading moved its outline this part of a cell or more
# Remembering tiles from a checked scan (learn.learn_from_scan): the kept copy (SCAN_SIDE, JPEG 92)
# is read again with the box as the scan was and must agree with the planet as the player
# confirmed it on this many cells (contents), else it is not the same planet. Measured on the
# test photos of box2, box2-heldout and box2-heldout2 (read with their own boxes): the same photo
# agreed on 15–16 of 16 cells; the next photo's planet on at most 5. Read at SCAN_SIDE, the same
# photos agreed on 13–16 but one (9 of 16, box2-heldout): its tiles are then cut through the
# outline of the first reading.
SCAN_AGREE = 10
# ... or, for a box the reader reads poorly, the checked planet changes no cell the reading was sure of
# and on all but SCAN_UNLIKELY cells is the tile read or one of its likely tiles (learn._same_planet).
# Measured 2026-12-03 (stop 40; `python -m vision.remember_bench --set=…` gives the totals) on the 13 seen
# sets' 272 planet photos, each read again
# as learn_from_scan reads it (with its set's box as taught, blend and all, reader.exemplars_of_box):
# SCAN_AGREE alone refused 4 photos' own planets (agreeing on 9, 9, 8 and 4 cells: box2-heldout8 p07,
# p15, heldout6 p18, heldout9 p20); with this rule too only the last (8 of 16 among the likely tiles).
# Every other photo's planet of the same set, at each quarter turn (22,560 pairs), stays refused: none
# changing no sure cell had over 11 cells among the likely tiles (the closest with more changed 4 sure cells).
SCAN_UNLIKELY = 4
SCAN_SIDE = 1200       # a scan kept for remembering, and its tiles cut from it: short side (tiles ≥ 75 px)
# A tile the box already has a picture of is remembered from a scan only when the scan's picture carries
# as much drawing (``learn.fine_detail``) as the box's (stop 72): a scan is a planet photo, often smaller,
# tilted, blurred or JPEG'd, and its picture replaces the box's. On line art (variant I, one ink) a
# player who corrected every scan and remembered the tiles made the box worse, cell after cell (dev set
# 9829: 169 -> 154 of 192 right, 38 tiles remembered): blurred pictures of fine lines matched other
# tiles' blurred cells. Kept are the pictures a scan would have blurred; taken still are those a scan
# shows better (a teaching photo's glare that paled a tile's drawing: tests/test_remember_tiles.py).
# True/False, no bar: the sharper of the two pictures is kept. A player remembering every corrected
# scan, off -> on: held out 1124 -> 1146 of 1280 cells, dev 3138 -> 3137 and fresh 3068 -> 3073 of
# 3264 (17 sets each, one per variant), seen heldout4/7/8/14 1183 -> 1196 (vision/README.md, stop 72).
REMEMBER_SHARPER = True
# Do a box's tiles face outwards (box.Box.outward)? Its backs of a stack, seen at several positions,
# vote: turned back upright they look alike when they face outwards. A stack's backs vote only when
# one of the two ways makes them look alike (mean correlation at 32 px at least OUTWARD_ALIKE): backs
# cut off their tiles (heldout9's t06, its layout found half a cell off) or drawn round (its spiral)
# look alike neither way (-0.02 to 0.2) and their vote was noise that turned a whole box upright
# (heldout9: every exemplar then lay turned a quarter or a half, 109/320 cells through the true
# outlines). The seen sets' voting stacks: 0.67-0.99 one way (generalisation-of-learning round, on
# box2 and heldout to heldout9; heldout10 only had its box's outward() printed once, True with the
# rule before this one; nothing set on it).
OUTWARD_ALIKE = 0.5

# --- the stages of reading a learned box (vision/stages.py, vision/reader.py) --------------
# Measured on box photos (sample_photos/box2: teach + test) and shipped photos only.
READ_SIDE = 480        # decode reduced, short side at least this (a planet ≥ 1/4 of it: cells ≥ 30 px)
FIND_SIDE = 320        # long side of the image candidate outlines are looked for in
FIT_PX = 16            # cell side of the straightened edge map when fitting the lattice
FIT_STEPS = (0.03, 0.015, 0.007)  # corner nudges, as parts of the planet's side
CANDIDATES = 6         # candidate outlines fitted
MIN_PLANET = 0.15      # an outline's side is at least this part of the photo's short side
CORNER_TURN = 0.34     # corners tapped for a layout turn at least ~20° at each (the sine of the turn):
                       # a layout's corners turn ~90° (60-120° at a 30° tilt); four taps with one on the
                       # line between two others (a triangle) are refused (learn.corners_problem)
MAX_ASPECT = 2.2       # longest / shortest side (a 30° tilt, turned: under 1.6)
CELL_PX = 48           # a tile's side in the cut cells
PAD = 0.22             # pad round each cell, part of a cell (tiles loose: shifts, gaps)
ALIGN_INNER = 0.1      # border of the shared look left out when aligning
ANGLES = (-5.0, 0.0, 5.0)  # small turns of a loose tile tried when aligning
# Box photos (box2, 512 cells): without a cost for shifting, the centres' shared look (diagonal
# stripes) slid along its stripes and the tiles were cut a third of a cell off: 465 cells right;
# cost 0.2: 487 (0.3: 483, 0.5: 479, 1.0: 475).
ALIGN_SHIFT_COST = 0.2  # fit lost by a shift of a whole pad from the cell's middle
# Comparing an aligned tile with the exemplars (stages.match). Box photos (box2, 512 cells, the
# reader's own outlines): blur 1.2/5 -> 2.4/8 took 447 -> 457 cells right; turns ±3° 457 -> 461;
# clipping the per-channel gain, with the colour test for backs, 461 -> 465 (faces were read
# as the orange backs: a full per-channel gain turned them green).
MATCH_ANGLES = (-3.0, 0.0, 3.0)  # turns of each exemplar tried when matching
# Since the matched filters are compared as one matrix product at half size (stages.match), the
# slack is even: ±6 px in steps of 2 (box2, 1280-px photos: 491/512 cells, as 487-491 before).
MATCH_SLACK = 6        # pixels (at CELL_PX) an aligned tile may still be off its exemplar
DESC_INNER = 0.06      # border of a tile left out (beyond the slack)
DESC_BLUR = 1.8        # blur (px at CELL_PX) before comparing (1.2: 447, 1.8: 455, 2.4: 457, 3.0: 455; 2.4 until
                       # issue 8's look-alike doubt round, the block at the end)
DESC_WIDE = 8.0        # light and shading: what a blur this wide keeps (px at CELL_PX)
# The photo-light round (box2-heldout3 and -heldout4 seen): a cell is face up or down by its colour
# (stages.match), and a lamp's cast, a shadow or a vignette turns faces' colour towards their stack's
# back (heldout4's p05: 11 faces read as backs). Read with the outlines the generator put (the truth),
# heldout3 348 -> 434 of 480 cells, heldout4 158 -> 185 of 320, box2 477 either way, when the kind the
# colour does not point to may still win on its match; with the reader's own outlines (and PLANET_SCORE
# below) cost 0.1: heldout4 149, 0.25: 128.
BACK_COMPETE = True    # a face or back its colour does not point to may still win on its match
COMPETE_COST = 0.1     # … by more than this
GAIN_CLIP = 0.05       # white balance: a channel's gain may differ this much from brightness's
# Box photos (box2, phone size, 30 planets): the best reading scored 1.69–1.90 where the outline
# was right; wrong outlines 0.65–1.32, no planet ≤ 0.70. The fit of the lattice alone ranked a
# wrong outline first in 7 of 30 photos: outlines are read in turn until one reads this surely.
READ_SURE = 1.6        # a reading this sure needs no other outline
PLANET_FIRST = True    # among the outlines read, a planet (reader.is_planet) ranks before any outline that
                       # is not one, and only a planet read surely ends a look (stop 69, dev set 9905's b08,
                       # variant G with a neighbour's planet: the neighbour's outline, its lattice under
                       # PLANET_LATTICE, scored 1.67 >= READ_SURE: each later look read one outline and
                       # the planet aimed at, read by the grown look at 1.62, lost to it; refused)
READ_OUTLINES = 4      # at most this many outlines read in full
# The photo-light round (stages.flattened, reader._read_flattened): heldout3's 7 refused planets had
# outlines 0.65-10 cells off (read from the generator's outline, 13-16 cells right), the table masks
# fooled by a strong vignette; found again in the flattened photo: heldout3 334 -> 402 of 480 cells,
# heldout4 148 -> 178, box2-heldout 214 -> 229, box2 the same (it never gets there). Only when no
# outline read as a planet (when none read surely, READ_SURE, the same cells but heldout4 ~24x a
# decode instead of ~15x). FLAT_BLUR and FLAT_OUTLINES set once, not tried otherwise.
FLAT_LOOK = True       # none read as a planet: look again in the photo with its slow light taken out
FLAT_OUTLINES = 3      # … reading at most this many of its outlines
FLAT_BLUR = 0.15       # … the light: a blur of this part of the short side
# Issue 8's cluttered-table round (box2-heldout6 seen): on a table strewn with coloured papers the masks
# find 10-11 candidate outlines, and the planet's own (the edge-density mask's) came after the first
# CANDIDATES in the masks' order, so it was never ranked nor read: 6 of heldout6's 20 planets refused.
# Ranking all of them at once and reading the best first moved box2's p05 to another outline (one cell
# wrong, 29 -> 28/30 scored) and brought a wrong cell not marked doubtful on box2-heldout; reading the
# later ones when the first gave no planet, before the flattened look, cost box2-heldout 1 cell and a
# planet and heldout9 2 cells (planets the flattened look read better). So the later ones come last:
# read (as many as READ_OUTLINES) only when neither the first nor the flattened look found a planet
# (reader.read_photo). `python -m vision.bench --set=NAME -q`, main against this (22:39-23:10 UTC, load
# 2.8-7.0, helpers running): heldout6 177 -> 216/320 cells, heldout14 270 -> 285, heldout3 423 -> 437
# (15 -> 16/30 scored); box2 (479/480, 29/30), box2-heldout, heldout2, heldout4, heldout5, heldout7
# (tapped corners), heldout8, heldout9 and heldout10 unchanged; 0 wrong cells not doubtful on each.
# Reading the later ones whenever the best is under READ_SURE instead: the same cells but heldout7 +2,
# at 8.1x a decode against 6.1x on heldout3 (more outlines read on photos that are planets).
LATE_LOOK = True
# An outline read is read again through where its tiles were found (stages.refit_outline): box2
# (1280-px photos) had 6 wrong cells from outlines 0.4-0.5 of a cell off (the lattice fit of a
# wrong outline beat the true one's: loose tiles' borders are not straight lines); after: none.
REFITS = 2             # at most this many times
REFIT_BELOW = 1.7      # … when the reading is less sure than this (box2: 1.6: 476/480 cells, 1.7: 478, 1.8: 477, always: 476)
REFIT_MOVE = 0.08      # … when that moves a corner by more than this part of a cell
# Speed round (box2, box2-heldout, box2-heldout2: seen): a refit whose reading gained less than
# this on the reading it refitted is not refitted again (chains of three equal readings were
# common: 0.56 0.58 0.58, 1.23 1.23 1.23). Cells and refusals the same on the three sets.
REFIT_GAIN = 0.02
REFIT_TOLERANCE = 0.15 # a tile centre this far (part of a cell) off the lattice is an outlier
REFIT_MIN_TILES = 10   # tiles that must agree on the lattice
# Box photos: planets' lattice fits reach down to 1.18 (p16, p22, p31 were refused at 1.3);
# no-planet photos have fits 1.11–2.65 and are refused by PLANET_SCORE instead.
# Issue 8's teaching round: box2-heldout3 (seen; dark card edges, a glowing rim) had planets read
# 1.68-1.76 (PLANET_SCORE) whose outlines' lattice fits were 0.98-1.07, refused at 1.1; no-planet
# photos are refused by PLANET_SCORE (their fits: 0.75-2.65).
# The generalisation round (six seen sets): heldout4's p11 (a warm lamp falling off across it) read
# from an outline 0.15 of a cell off the truth, planet 2.28 (PLANET_MATCH), lattice 0.89: refused here.
# No no-planet photo of the seen sets (shipped and box sets, 28) is refused by this test: their best
# readings score 1.31 and under (PLANET_SCORE) and 1.95 and under (PLANET_MATCH), lattices 0.68-5.65.
PLANET_LATTICE = 0.85  # an outline's lattice fit below which there is no planet
# Is it a planet: the cells' median fit to their stack's look plus the chosen tiles' mean match
# (Verdict.score). Box photos (1280 px, before outlines were refitted): planets 1.22 and up, no
# planet 0.93 and under; either alone overlaps or nearly. Refitting an outline through its tiles
# raises a photo without a planet too: box photos at phone size (30 planets, after refitting)
# read 1.74 and up, no planet 1.09 and under (n04, a face), the shipped art's photos as another
# box's ≤ 1.03. Set in that gap.
PLANET_SCORE = 1.35
# The photo-light round (all five seen sets; reader.Verdict.planet): a lamp's fall-off and a hard
# shadow lower the fit to the stack's look (heldout4's planets 0.45-0.6, so they scored 1.29-1.47 and
# 16 of 20 were refused). The median fit plus twice the mean match: every no-planet photo of the seen
# sets 1.99 and under (heldout2's n01), every planet read with 8 or more cells right 2.15 and up
# (heldout4). Set in that gap; a planet passes either test. Alone it refused box2 planets read with a
# box taught from 3 of its 6 layouts (p02 2.06, p18 2.09: untaught tiles match poorly), which the
# sum above passes (1.47 and up). On the seen sets' no-planet photos the sum reads 1.33 and under.
PLANET_MATCH = 2.1
PLANET_SIM_WEIGHT = 2.0
# Issue 8, fresh seeds of the second box (stop 42): a wood table with coloured shapes (the generator's
# first no-planet photo) read as a planet of 11-12 backs, as the box's orange backs fit the grain
# (seeds 31 and 32: score 1.40 and 1.38, over PLANET_SCORE; the committed box2's wood 1.09). Its
# faces matched their tiles 0.41 and 0.42 on average (reader.face_match). Planets read on the 13
# seen sets and seed 31 (302 photos, every art style, the weakest readings included): 0.59 and up
# (heldout6's p18, heldout's p16, heldout9's p20: those the score alone passes); every no-planet
# photo of them 0.60 and under (refused by the tests above); box2 planets read with a box taught from
# 3 of its 6 layouts (its untaught tiles match poorly) 0.57 and up. Set between the woods and the planets.
PLANET_FACES = 0.5
# Issue 8, the same round: a planet shows its backs three at a time (vision/facedown.py, both readers):
# a reading with 1, 2, 4, 5 ... backs turns the cheapest backs up or faces down to the nearest count.
# A rule of the game, nothing fitted. Off -> on (`python -m vision.bench -q`, 03:01-03:10 UTC
# 2026-12-04): the 13 seen box sets 3522 -> 3524 cells and 123 -> 126 planets scored (heldout2 251 -> 252,
# 11 -> 14; heldout6 286 -> 287), box2 and the shipped samples unchanged, 10 readings changed, none
# lost a cell; fresh seeds (made this round, totals only): shipped 4141 380 -> 382 (21 -> 22 scored),
# 5, 21, 22, 23 unchanged; second box 33 470 -> 471 (24 -> 25), 31, 32, 34, 35 unchanged.
FACE_DOWN_IN_THREES = True
# Box photos (vision/diagnose.py on box2, 512 cells, after ALIGN_SHIFT_COST): wrong cells' margins
# are under 0.22 but one (0.372, in p16 whose outline is 0.6 of a cell off); right cells'
# quartiles 0.247 / 0.349 / 0.469 — doubt costs about a quarter of them.
# Issue 8, doubt round: tuned on box2, box2-heldout and box2-heldout2 (the latter two seen from
# this round on; box2-heldout3 was made before and not looked at). The margin alone: wrong cells
# reach 0.25 (heldout, p07) and 0.16 (heldout2), right cells spread from 0 (10% under 0.13):
# 341 of 947 right face cells under the bar that catches every wrong one. Adding the runner-up
# test (stages.tell_apart), the match and the fit (a poorly aligned tile), weights from a grid
# (pair 0–1, sim -0.2–0.3, fit 0–0.5, cap 0.3–1) chosen for the fewest right cells doubtful in
# the worst of the three sets: 35/412, 23/190, 60/249 right face cells (not 84, 70, 130 with the
# margin alone; a better grid point for heldout2 alone does not exist: its right cells have low
# matches and fits throughout, under a lamp's cast). The bar 0.02 above the surest wrong cell.
# Re-set by the same rule after the teaching round (its layout fit cuts learned tiles about a tenth
# of a cell differently), on every seen set (box2, box2-heldout, -heldout2, -heldout3; not
# box2-heldout4): 8 wrong cells were over 0.49 (U17 for U04 and D17 for D04 in box2-heldout, 0.52-0.63;
# heldout3 up to 0.694). 0.02 above the surest: right face cells doubtful 30 -> ~115 of 411 (box2),
# 30 -> ~73 of 193, 53 -> ~111 of 219, 54 -> ~109 of 248: the price of 0 wrong cells unmarked.
# The photo-light round: the same rule on the five seen sets: heldout3's surest wrong cell not caught
# otherwise 0.694 (heldout4's 0.49, box2-heldout's 0.632): unchanged.
# (Until issue 8's part-comparison round: BOX_SURE 0.715, SURE_PAIR 0.75, SURE_SIM 0.3,
# SURE_FIT 0.5, no photo term.)
# Issue 8's part-comparison round (the eight seen sets, box2 to box2-heldout7, read with the finer
# runner-up test; per cell its margin, runner-up test, match and fit, and the photo's median margin,
# /tmp scripts not in the repository): the weights above (0.75, 0.3, 0.5) with the bar set by the
# rule (0.02 above the surest wrong cell not doubtful otherwise: heldout7's, 0.747) left 1061 of
# 2213 right cells doubtful (box2 154/479). A grid (pair 0.5-2, match -0.2-1.5, fit 0-1.5, the
# photo's median margin 0-1, its mean match and median fit 0-3) for the fewest right cells doubtful
# per set on average, the bar by the same rule: pair 1.25, match 1.5, fit 0.75, photo margin 1
# (722 right cells doubtful, box2 45/479). Left out one set at a time (weights and bar from the
# other seven): with these weights every left-out set's wrong cells stay doubtful with the bar
# 0.02 to 0.2 above the others' surest (720-1014 doubtful); weights refitted per fold left 4 wrong
# cells unmarked at 0.02, 1 at 0.2. So the bar is 0.1 above the surest wrong cell of the eight
# sets (box2-heldout's, 1.291): right cells doubtful box2 63/479, heldout 58/241, heldout2 93/250,
# heldout3 167/423, heldout4 164/234, heldout5 130/292, heldout6 92/144, heldout7 72/150.
# (Until issue 8's look-alike doubt round: BOX_SURE 1.39, SURE_PAIR 1.25, SURE_SIM 1.5, SURE_FIT 0.75,
# SURE_PHOTO 1.0, no order or hub term; re-set there, with the sharper match: the block at the end.)
BOX_SURE = 4.236       # a cell whose sureness (reader.sureness) is under this is doubtful (3.44 until the hub-floor round: HUB_FLOOR; 3.38 until the doubt bar round under the tile-size cut; 3.465 until the fresh-sets round: all at the end)
SURE_PAIR = 2.5        # weight of the runner-up test (stages.tell_apart, in [-2, PAIR_CAP])
PAIR_CAP = 0.5         # … capped: a clear win there says nothing more
SURE_SIM = 6.0         # weight of the match with the chosen tile, from SURE_SIM_AT
SURE_SIM_AT = 0.7
SURE_FIT = 1.5         # weight of the fit with the stack's look, from SURE_FIT_AT
SURE_FIT_AT = 0.5
SURE_PHOTO = 2.0       # weight of the photo's median margin (part-comparison round)
PAIR_BLUR = 2.0        # px at CELL_PX: where two placed exemplars differ, blurred by this
# The generalisation round (the six seen sets; reader.tell_lookalikes): the runner-up test said the
# runner-up fits better (pair < 0) in 58 of 155 wrong face cells and 27 of 1633 right ones; the
# wrong ones nearly all tiles with as many items in the same places (heldout4: 70 of 72).
# Taking the runner-up where pair < SWAP_PAIR and no other cell holds it (cells right, one bench each):
# 0: box2 476 (476 before), heldout 241 (242), heldout2 249 (245), heldout3 425 (423), heldout4 219
# (216), heldout5 291 (286), every wrong cell still doubtful; -0.05: box2 475, heldout4 219, heldout5
# 290; -0.1: 475, 217, 286.
SWAP = True            # a cell takes its runner-up where the runner-up test says it fits better
SWAP_PAIR = 0.0        # … under this
# Issue 8's teaching round (box2 and box2-heldout3, seen; reader.confidence). Right cells'
# matches: 5% under 0.71-0.73, 10% under 0.77-0.78 (both sets, every tile learned). A cell of a stack
# the box lacks tiles of, matching under UNLEARNED_SIM, may be a tile never learned: doubtful.
UNLEARNED_SIM = 0.8
# The doubt shown (stop 49): every cell of a stack the box lacks tiles of is doubtful, whatever its match.
# A tile never taught is read as its likeliest taught look-alike, often surely: on 21 fresh sets of the
# seen variants (seeds 4001-4018 variants B-L, 4901-4903 A; /work/fresh/doubt49, not committed; dumped by
# vision.doubt_dump) 4 of the 7 surest wrong cells were of untaught tiles (f4006G, f4007H: a teaching
# layout not found), matching their taught look-alike at 0.84-0.99, at sureness up to 4.44, over BOX_SURE.
# A box taught whole lacks nothing, so this changes no cell of it; the scan page says how many layouts
# the box knows. The reader's own uses (the second look, teaching's check) keep UNLEARNED_SIM.
UNLEARNED_ALL = True
# Cells read as a back: right ones matched it at 0.82 and up but 5% (box2; heldout3: 0.98 and up);
# heldout3's faces read as backs (a dark vignette) at 0.61 and under, 14 of them not doubtful.
BACK_SIM = 0.7
BOX_SIM_FLOOR = 0.2    # a match under this is doubtful whatever the margin
BOX_SIM_SPAN = 0.2
# Each tile found in its cell by its own square outline (stages.frame_tile): turns tried
# (hand-laid tiles turn up to 6°), sizes as parts of the lattice's cell (gaps up to ~8%), and
# what a degree of turn costs (prefer the level square when the edges say little).
FRAME_ANGLES = (-6.0, -4.0, -2.0, 0.0, 2.0, 4.0, 6.0)
FRAME_SIZES = (0.90, 0.94, 0.97, 1.0)
FRAME_TURN_COST = 0.01
# The centres round (issue 8, stop 43; seen sets and the second box's fresh seeds 31-33 only): a
# centre tile's look is the ground all centres share, so where the lattice lies off a loose centre
# tile the look leaves it where the lattice put it (box2's p28: C14 found 7.5 px, 0.15 of a tile,
# below its own square, past MATCH_SLACK; its match 0.65, read C19). Each centre cell is also found by
# its own square within SQUARE_NEAR of where the look put it (stages.squares_aligned) and kept so
# where its best match is over SQUARE_GAIN higher (reader._centres_by_square; p28's C14 0.94). Cells
# right, off -> on (one bench each, python -m vision.bench -q): box2 479 -> 480/480 (29 -> 30/30
# scored), the 12 other seen sets 3524 -> 3546/3872 (126 -> 137 scored; worse: heldout5 308 -> 307,
# heldout8 220 -> 217; most better: heldout6 287 -> 299, heldout2 252 -> 255), fresh seeds 31 / 32 /
# 33 478 / 476 / 471 -> 479 / 478 / 475 (28 / 27 / 25 -> 29 / 28 / 29 scored; then, once, 34 / 35, not looked
# at: 478 / 477 -> 479 / 479, 28 / 28 -> 29 / 29 scored); the shipped art the
# same (its reader has no such step). SQUARE_GAIN 0: the 12 3561 (139 scored), seeds the same, but
# heldout5 303, heldout14 17 -> 16 scored, and cells that were right moved to a tile the square's
# place matches 0.01-0.02 better (heldout5's C19 read C10 twice). Tried: turns -4..4 by 2 and sides
# 0.94-1.0 (GAIN 0: the 12 3557, slower); each centre cell taking its square whatever the match (box2
# 472, the 12 3492: a square latches onto the art); anywhere in its window (box2 443, the 12 3313);
# the lattice refitted through the centres as the look found them (GAIN 0: the 12 3544). Reading box2
# costs 3.5, 3.5, 3.6x a full decode off and 3.6, 3.8, 3.7x on (GAIN 0; alternated, idle).
CENTRES_BY_SQUARE = True
SQUARE_NEAR = 0.15
SQUARE_ANGLES = (-3.0, 0.0, 3.0)
SQUARE_SIZES = (0.97, 1.0)
SQUARE_GAIN = 0.05
# The generalisation round (box2-heldout4, -heldout5 seen): a teaching tile's square latched onto
# its art (heldout4's badges' rings and hard shadows: squares 0.1-0.27 of a tile off the layout's
# median, one to five per photo; box2's all within 0.08), so its exemplar was cut shifted and the
# tile read wrong in every photo it lay in (D14 5 of 5, K15 5 of 5). Such squares are looked for
# again within FRAME_DEV of the layout's median offset (stages.frame_tiles): heldout4 180 -> 189,
# heldout5 266 -> 275 cells, box2 477 the same (FRAME_DEV 0.04: 194, 265; 0.12: 191, 268). Cutting
# every teaching tile at its lattice cell instead (no square): heldout4 211, heldout5 258, box2 435.
FRAME_CONSENSUS = True
# … and then every exemplar moved onto its stack's shared look (stages.register_exemplars), as the
# reader finds a cell's tile: within REGISTER_PAD of a tile, REGISTER_ROUNDS rounds. Not the centres:
# they lie wholly inside the planet and share only the ground's repeating texture, along which a
# look slides (as ALIGN_SHIFT_COST's note says). Cells right, box2 / heldout4 / heldout5 (frames
# looked for again in all; one bench each, the doubt unchanged): no registration 477 / 189 / 275;
# every stack 475 / 213 / 274; all but the centres 476 / 216 / 286 (and the characters too: 476 / 201
# / 282; REGISTER_PAD 0.1: 475 / 209 / 273; 0.08 and 3 rounds: 476 / 208 / 275).
REGISTER = True
REGISTER_PAD = 0.15
REGISTER_ROUNDS = 2
REGISTER_SKIP: tuple = ("center",)
FRAME_DEV = 0.08
# Issue 8's per-tile cut round (seen sets only): a teaching layout's lattice is moved onto the gaps
# between its tiles (stages.lattice_on_gaps: each inner line's gap per tile, where the colours across
# it mirror, and each tile's own shift from the gaps beside it); where the tiles' squares found as
# before lie off those places (the median over the layout over GAP_TRUST), each tile's square is looked
# for again near its own place only (stages.frame_tiles_on_gaps). Measured against each tile's true
# outline (the seeded generator rerun with its tiles' placements recorded; tests/data/
# box2-heldout14-teaching-tiles.json keeps t02's and t05's): the shift between a cut tile and the tile
# cut through its true outline (phase correlation, px of 128), mean over the six teaching photos,
# before -> after: heldout14 8.0 -> 3.7 (its t02 and t05: the median square 0.10 of a cell off its
# gaps' place; heldout6's t01 0.072 is re-cut too, no truth per tile for it; the other layouts of box2,
# heldout2, 3, 4, 6 and 14: 0.011-0.050), box2 1.9, heldout2 3.0, heldout7 2.0 and heldout10 5.9
# unchanged. Bench (vision/README.md): heldout14 270 -> 297/320 cells, 5 -> 14/20 scored; heldout6
# 177 -> 174/320; every other seen set the same. GAP_TRUST 0.03 (heldout14 2.5): heldout14 299/320 and
# 17/20 scored, heldout3 423 -> 427/480 and 15 -> 21/30, but one of its wrong cells not doubtful,
# heldout4 234 -> 241: not kept.
# Tried and dropped (mean corner error to the true outline, px of 128, then the bench):
# - each tile the middle of its cell on the lattice on the gaps, no square (0.97 of the cell): heldout14
#   8.9 -> 3.5, but box2 2.6 -> 3.8 (art A's crisp white border: the squares were better); with each
#   tile shifted by its gaps: heldout14 300 -> 295/320 cells, box2 474/480 (before: 479);
# - squares near the gaps for every layout (within 0.02 of a cell, sides 0.97-1.0, turns +-2): heldout14
#   298/320 (17/20 scored) but heldout2 250 -> 248 and 11 -> 10/16 scored, heldout7 150 -> 146 and
#   2 -> 0/20 (under their floors); sides 1.0 only: heldout2 254/256, 15/16, but box2 477/480 and 27/30,
#   box2-heldout 3/4 no-planet photos refused; tile by tile (a square off its gaps' place by more than
#   0.05 or 0.08 of a cell looked for again): heldout7's t05 corner tile moved 2.6 -> 15 px off (the
#   lattice's corners are extrapolated from its inner lines), heldout7 1/20 scored;
# - an affine lattice (its corners extrapolated more steadily): heldout14 293/320, 12/20 scored; the
#   layout's outer lines as found joining the fit as points: heldout14 3.7 -> 5.5 (phase shift);
# - a first round at a looser tolerance (0.08 then 0.04): heldout14's t02 10.4 (0.04 x 3: 4.6).
GAPS = True
GAP_REACH = 0.25       # a gap looked for this part of a cell either side of its line
GAP_MIRROR = 0.1       # … mirrored over this part of a cell either side of it
GAP_MIDDLE = 0.2       # … along each tile's middle, this part of the cell left out at each end
GAP_TOLERANCES = (0.04, 0.04, 0.04) # a round each: a segment this far (part of a cell) off the refitted lattice is an outlier
GAP_MIN_SEGMENTS = 8   # of the 12 segments of the rows, and of the columns, must agree in the last round, or the
GAP_MIN_FIRST = 4      # … tiles are cut as before (frame_tiles); GAP_MIN_FIRST in the rounds before it
GAP_MOST = 0.5         # … nor may the lattice move further than this part of a cell
GAP_TRUST = 0.05       # a layout's tiles' squares found in their cells as before are kept when their median lies this
                       # near (part of a cell) their gaps' places
GAP_FRAME_NEAR = 0.02  # … else each is looked for within this part of a cell of its gaps' place
GAP_FRAME_ANGLES = (-2.0, 0.0, 2.0)   # … at these turns (teaching tiles lie within ~2°)
GAP_FRAME_SIZES = (0.97, 1.0)         # … and sides (parts of the cell)
# The reader's outlines moved onto the gaps too (reader.read_outline, before cutting the cells; each
# cell's tile is then found by align_cells as before), with the teaching of the squares near the gaps
# for every layout above: box2 478/480 and 28/30 scored against 480 and 30/30 without (one bench each).
# Not kept (the reader cuts its cells as before).

# --- issue 8's part-comparison round: look-alikes told apart at a finer cut -----------------
# (reader.tell_lookalikes with the photo; stages.fine_cells / fine_cell / fine_exemplar)
FINE = True            # tell a cell from its runner-up again at FINE_PX, cut from the same decode
FINE_PX = 96           # … a tile's side there
FINE_BLUR = 0.5        # … the blur before comparing: this part of DESC_BLUR per CELL_PX pixel
FINE_MIN_PX = 64       # … only when a cell covers at least this many pixels of the decode
FINE_MARGIN = 0.25     # … only for cells whose margin to the runner-up is under this: the finer test
                       # costs ~9 ms a box2 photo instead of ~22 (CPU, median); the same cells on the
                       # eight seen sets, right cells doubtful +0-3 a set (box2 63 -> 66). Tried and not
                       # kept: a slack of 4 px at FINE_PX instead of MATCH_SLACK's 12 and the light
                       # taken at CELL_PX (fine_detail): heldout2 -1 cell, heldout4 -4, heldout5 -2 with
                       # 1 wrong cell not doubtful, heldout6 -3, heldout7 -3; ~5 ms less.
                       # Speed round (issue 8, heldout8 seen): 0.3 -> 0.25: box2's cells tested finer
                       # 172 -> 110 of its 30 photos, CPU per photo (median, best of 2) 84 -> 75 ms; on the
                       # nine seen sets (248 photos read before and after) the same cells, the same wrong
                       # cells not doubtful, right cells doubtful heldout5 +1, heldout7 -1, the rest the
                       # same. 0.2 (75 cells): right cells doubtful heldout2 +3, heldout3 +2, heldout4 +1,
                       # and heldout8 5 -> 7 wrong cells not doubtful (counted as vision.bench counts): not kept.
FINE_WEIGHT = 0.75      # … the runner-up test: this much of the finer one, the rest of the one at CELL_PX
                       # Tried and not kept (speed round): each exemplar placed on the finer cut only
                       # within 4 or 6 px of where the test at CELL_PX placed it: ~2 ms a box2 photo less,
                       # but heldout5 -1 cell (doubtful either way) and box2 right cells doubtful -1.

# --- issue 8's own-look round: each box chooses how it compares tiles -----------------------
# (vision/descriptors.py; reader.classify). The match (stages.match) reads the art it was tuned
# on; a histogram of edge directions (descriptors.hog) reads thin line art better and filled
# pictures worse. Top-1 within the stack on face cells cut through the generator's corners (the
# nine seen sets, /tmp scripts), the match alone -> the hog alone: box2 410 -> 367 of 414, heldout
# 213 -> 201/226, heldout2 218 -> 189/229, heldout3 420 -> 397/441, heldout4 162 -> 108/266,
# heldout5 232 -> 236/269, heldout6 198 -> 179/278, heldout7 125 -> 130/145, heldout8 104 -> 173/281;
# the match + 2 × the hog (descriptors.blended): 406, 212, 220, 423, 131, 244, 189, 131, 122.
# So each box weighs the hog beside the match from views of its own faces (descriptors.views,
# choose_blend; ~1 s when its exemplars are built, never while learning). The views' gain of a
# weight over the match alone (per 480 views): box2 1%, heldout 3.8%, heldout2 2.3%, heldout3 3.8%,
# heldout4 none, heldout5 5%, heldout6 1%, heldout7 1.9%, heldout8 6%.
BLEND = True
BLEND_WEIGHTS = (0.0, 0.5, 1.0, 2.0)   # 4 lost on heldout and heldout3 (top-1, above) and never won much
BLEND_ROUNDS = 30      # batches of 16 views (each face ~6 times)
# At 3% (chosen by most folds of a leave-one-set-out on the top-1 figures) heldout took 2 in the whole
# reader: 241 -> 237/256 cells and 1 wrong cell not doubtful; heldout3 0.5: 423 -> 425/480.
BLEND_GAIN = 0.04      # a weight only when it gains this part of the views over the match alone
BLEND_NEAR = 0.01      # … then the smallest weight this near the best

# --- issue 8's taps round (vision26): a box learned partly from tapped corners --------------
# Box.outward compares its backs grey with their slow light taken out (box._unlit): the Gaussian
# blur of this many px (at 32 px) subtracted. The vote (sum over the voting stacks of turned minus
# as-they-lie alikeness; t06 learned alone, /tmp scripts, the 13 seen sets) colour -> unlit, as
# found: box2 +1.10 -> +2.30, heldout +1.52 -> +1.74, heldout2 +0.89 -> +1.61, heldout3 +0.30 ->
# +0.62, heldout4 +0.13 -> +0.24, heldout5 +0.85 -> +1.12, heldout7 +1.62 -> +1.53, heldout8 +0.73 ->
# +0.94, heldout10 +1.47 -> +1.39, heldout11 +1.23 -> +1.17, heldout14 +1.33 -> +1.39 (heldout6 and
# heldout9: no vote either way). From corners tapped (TAP_SEED) in the photo under two coloured
# lamps (tests/test_vision_taps.py's light): heldout8 -0.00 (turned the box upright) -> no vote,
# heldout3 +0.13 -> +0.53, heldout5 +0.27 -> +0.99, but heldout14 +0.44 -> +0.23. No seen set's
# box changed its verdict (all face outwards), so their readings are unchanged.
OUTWARD_LIGHT = 6.0

# --- second look (issue 8, branch vision25: doubtful cells on line-art) ---------------------
# reader.look_again: a doubtful face cell's tile and the best tiles of other contents, this many
# in all, told apart two by two by the runner-up test (at FINE_PX as well where it is made there);
# the cell takes the one that beats the most. Measured on the seen sets' doubtful cells through the
# reader's own right outlines (/tmp script, 00:50-00:55 UTC), gained - lost cells at 2/3/4/5 tiles:
# heldout8 +10/+12/+12/+9, heldout10 0/-1/+6/+10, heldout6 0/+6/+7/+7, heldout4 -1/0/+4/+4.
# Without a bar the whole bench lost heldout5 300 -> 294 cells (10 -> 7/20 scored) while it gained
# heldout10 254 -> 263, heldout4 234 -> 239, heldout3 437 -> 441, heldout8 175 -> 177 (00:58-01:25 UTC,
# load 2-8). The bar: the chosen tile must beat the cell's own by more than this in the test; the same
# script, gained - lost at 0 / 0.05 / 0.1 / 0.2: heldout5 +7-5 / +6-2 / +2-1 / +1-1, heldout8 +14-6 /
# +11-5 / +10-2 / +3-1, heldout10 +9-2 / +7-2 / +7-1 / +4-1, heldout6 +8-1 / +6-1 / +6-1 / +5-0,
# heldout4 +8-3 / +5-1 / +2-0 / +1-0.
SECOND_LOOK = True
SECOND_LOOK_TILES = 5
SECOND_LOOK_BEAT = 0.1
# ... and only in a photo whose first look doubts this many cells or more (an art the match blurs
# into look-alikes): box2's photos doubt ~2 cells each, and looking again there cost 20-30% of its
# reading (3.4-3.5x -> 4.1-4.5x a decode, box2 alternating, 02:18 UTC, idle) for no cell. At 4:
# box2 3.5x, heldout14 302/320 and heldout10 260/320 kept (as at every photo); at 3: box2 3.6x.
SECOND_LOOK_MANY = 4
# --- issue 8's zoom round (stop 47): a tile lying smaller or larger in its cell than taught ---
# reader.look_zoomed: each doubtful face cell cut again at ZOOM_LOOK_ZOOMS of the side it was cut at
# and matched there; a tile of other contents that a zoom matches better than the cut as it was takes
# the cell when its best match over the zooms beats the cell's own tile's by more than ZOOM_LOOK_BEAT.
# The zooms and the beat were chosen before any measurement, from one cell (seed 44 p16's K14, a
# loose corner tile: raw colour correlation with its picture 0.93 at the size cut, 0.98 at 0.9 of it;
# /work/notes/zoom_diag.py), and never changed. The rule "a zoom matches it better than the cut" came
# from box2's p15 (seen): without it the stage took back U02 (an elephant the match prefers as cut) over
# the U01 (a grey sheep) tell_lookalikes had rightly kept, box2 480 -> 479 cells, 30 -> 29 scored; and
# the cells look_again has just changed are left alone since heldout8's p16 (seen; the suite's test).
# Measured (stop 47's note, 2026-12-04 UTC; vision/README "Zoom round"): seeds 38-45 (seen) cells +9
# -2, planets scored 225 -> 234; box2 480/480 and 30/30 kept; the 12 other seen sets 3576 -> 3584 cells,
# 140 -> 141 scored; seeds 70-85, which no one had looked at (`python -m vision.fresh`, totals only):
# cells 7632 -> 7644/7680, planets scored 455 -> 466/480, sets meeting issue 8's floors 5 -> 11 of 16;
# seeds 86-93, read once with it: 3824/3840 cells, 233/240 scored, 6 of 8 sets.
ZOOM_LOOK = True
ZOOM_LOOK_ZOOMS = (0.9, 0.95, 1.05, 1.1)
ZOOM_LOOK_BEAT = 0.05
# ... and cut again at 1.0, moved by ZOOM_LOOK_SHIFTS (dx, dy; parts of a tile): a loose tile lying past
# the match's slack (MATCH_SLACK, 0.125 of a tile) that the centres' square finder missed (seed 42 p15's
# C14, 7.5 px off). 0.12 in 8 directions was chosen before any measurement, and never changed. Measured
# (stop 47; vision/README "Zoom round"): seeds 38-45 (seen) +3 cells -0, planets 234 -> 237; the 12 other
# seen sets 3584 -> 3596 cells, 141 -> 145 scored, no set worse; box2 480/480 kept; seeds 94-101 (not
# looked at; read once off, once on, this decided it) 3820 -> 3822 cells, 235 -> 237 scored, sets meeting
# both floors 6 -> 7 of 8. Cost: box2 3.4, 3.3x -> 3.5, 3.6x a decode (alternated, `--set=box2`, idle,
# 21:15-21:16 UTC 2026-12-04).
ZOOM_LOOK_SHIFTS: tuple = ((0.12, 0.0), (-0.12, 0.0), (0.0, 0.12), (0.0, -0.12),
                           (0.12, 0.12), (0.12, -0.12), (-0.12, 0.12), (-0.12, -0.12))

# --- issue 8's dark-table round (vision32): teaching finds layouts whose art looks like the table ---
# learn._off_table: a cell of a found layout under LEARN_COVERED not-table (by colour and texture
# against the photo's border) still counts as a tile when its middle's mean edge magnitude is above
# the BESIDE_QUANTILE percentile of the table beside the outline (from BESIDE_RING[0] to [1] of a
# cell outside it, in windows of BESIDE_WINDOW of a cell): box2-heldout7's t02 and t03 (dark art on a
# dark table under a lamp, the border as dark as the planet's sky; their fitted layouts 0.06-0.10 of
# a cell off, straight, but only 0.00-0.30 not table) were never found. Measured on the 66 teaching
# photos of the seen sets with the generator's corners (/tmp scripts, 10:15 UTC), the lattice
# through the true corners and the four lattices a cell off it: a lattice passes the combined test
# when its third-least cell beats the table beside by this factor; the lattices a cell off (that the
# colour test alone refuses) 0.89 and under at the 99th percentile (1.29 at the 90th: heldout11's
# dappled shade), the true layouts the colour test refuses 1.39 and up (heldout7's t02 1.39, t03
# 1.81, heldout6's t04 1.43, heldout10's t06 1.84). The bar is the table's own (factor 1), not fitted.
LEARN_BUSY = True
BESIDE_RING = (0.25, 1.0)
BESIDE_WINDOW = 0.5
BESIDE_QUANTILE = 99.0
# … and by at least this much edge magnitude (grey levels a pixel): the floor the edge ratios of
# stages.lattice_fit and layout_fits also add, so that a table with no edges at all beside the
# layout does not let a cell's noise count as a tile. Not measured: it came with the round above.
BESIDE_FLOOR = 1.0


# --- issue 8's squared-candidate round (vision33): teaching finds a layout the masks cut short ---
# learn._squared_layout, when neither a fitted nor a straightened candidate is found. box2-heldout7's
# t01 (seen; tiles on a busy wood grain, the right column in a lamp's fall-off): its masks' outlines
# were 3 columns of 4 (aspect 1.39) or less, every fitted candidate 0.99-3.7 of a cell off the
# generator's truth. Each candidate whose sides' ratio is LEARN_SQUARE_ASPECT or more is made square
# both ways and fitted: its best lies 0.22 of a cell off (fit 1.59, straightness 1.65; the lattice on
# the gaps then 0.09). Its right column (0.0-0.4 not table against the photo's border, no busier than
# the grain) failed _off_table (6 cells of table; the truth's lattice 5); against the table beside the outline instead
# (learn._unlike_beside: outline._texture_mask's test, its looser bar, on the ring BESIDE_RING) the
# right layout has at most 2 cells of table, the lattice a cell off it (fit 1.39, straightness 1.83:
# straight enough) 6 or more. On the 56 no-planet photos of the seen sets (shipped and box sets) the
# straightest candidate, squared or fitted, whose cells pass this test reads 1.16 (heldout11's n03,
# as before), under LEARN_STRAIGHT: every one still refused. LEARN_SQUARE_ASPECT: the tilt of a
# teaching photo leaves a layout's sides' ratio under 1.2 (the note by LEARN_MIN_SIDE), so an outline
# beyond it is not a whole layout; not fitted.
LEARN_SQUARED = True
LEARN_SQUARE_ASPECT = 1.2
LEARN_BESIDE_LOOK = True
# stop 56: when no candidate is found, the squares about the photo's discs (learn._disc_layout; the
# grown look's stages.planet_discs and its GROW_DISC_* constants, none set again for teaching). A
# disc's square off the table is taken as any candidate; failing that (LEARN_DISC_ROUND), one that
# lies about its disc: its middle within LEARN_DISC_CENTRE of a cell of the disc's centre, its side
# LEARN_DISC_SIDE of the disc's diameter (learn._about_its_disc).
LEARN_DISCS = True
# Measured on the dev sets' teaching photos of variant H not found otherwise (9401-9412, 9362-9364:
# /work/notes/s56/disc_about.py, rim.py): the squares 0.06-0.19 of a cell off the layout lie 0.00-0.24
# of a cell off their disc's centre, their sides 1.08-1.23 of its diameter, the rims 3.8-7.2; lattices
# that passed the other bars 1.07-2.31 cells off the layout: 0.04-0.32 and 0.97-1.01 (a 3-cell
# lattice, a back's own round art); the circles found in two no-planet photos' grain and planks whose
# squares passed the other bars: rims 1.0-1.8.
LEARN_DISC_ROUND = True
LEARN_DISC_CENTRE = 0.25
LEARN_DISC_SIDE = (1.05, 1.25)
LEARN_DISC_RIM = 3.0
# stop 58: a square about its disc need not reach LEARN_STRAIGHT, only carry straight edges both ways:
# its rows' median and its columns' (and so the ten's) at least LEARN_DISC_STRAIGHT. Under a dim lamp
# on a dark table (variant H) the tiles' borders are faint; the layout's own lattice, through the
# generator's corners, reads 1.14-1.20 over its ten lines, and the disc's fitted squares 1.08-1.31
# (each way 1.04-1.36), so four dev layouts went unfound (9363's t05, 9383's t01, 9401's t05, 9428's
# t04: /work/notes/s58/shapedbg.py); their best squares read 1.17-1.28 each way. The no-planet
# photos' squares that pass every other bar of the round check (46 of 252 photos: the dev sets' 90, the
# seen sets' 52, sets 230-245's 64, t60's 46; /work/notes/s58/disc_straight.py) read 1.00 and under
# each way (seed 9368's n01), up to 1.23 over the ten (box2-heldout5's n04: straight one way, 0.63 the
# other).
LEARN_DISC_STRAIGHT = 1.1
# stop 57: a face-down layout not found by any other look (learn._backs_layout): dark backs on a dark
# table, the masks' candidates 1-5 cells off it (9 of the 13 dev layouts not found at stop 56). The
# photo's straightest square lattices (stages.straightest_lattices), searched at FIND_SIDE: turned by
# each of LATTICE_TURNS degrees, sides LATTICE_SIDES of the short side (the generator's layouts: 0.46-
# 0.84) every LATTICE_STEP pixels, the LATTICE_PER_SIDE best of each, LATTICE_COUNT kept, each more than
# LATTICE_APART of a cell from those before. On the 79 face-down photos of the dev sets (9301-9368,
# 9380-9383, 9401-9412, 9421-9450; /work/notes/s57/lattice.py, the prototype) one of the first 8 lay
# 0.06-0.34 of a cell off the layout on 77.
LATTICE_TURNS = (-12.0, -9.0, -6.0, -3.0, 0.0, 3.0, 6.0, 9.0, 12.0)
LATTICE_SIDES = (0.3, 0.92)
LATTICE_STEP = 2
LATTICE_PER_SIDE = 3
LATTICE_COUNT = 8
LATTICE_APART = 1.0
# Each lattice, as found, straightened and fitted, may be the face-down layout when it passes the bars
# every layout passes but the table's (the backs look like it), its lines lie on the tiles' borders
# both ways (learn._lines_on_borders: its rows' lines LEARN_BACKS_BORDERS times straighter than the
# lattice's moved half a cell down, its columns' than moved half a cell across; a page of text or a
# table's planks is as straight there) and its cells are alike and the table beyond them unlike them
# (learn._backs_apart, at least LEARN_BACKS_APART); the one most apart is taken. Measured with the
# shipped functions (/work/notes/s57/final_feats.py) on those 79 photos and 206 photos of no planet
# (the dev sets' 90, the seen sets' 52 and the 64 of sets 230-245): the lattices taken lie 0.06-0.29
# of a cell off their layout on 75 photos, none elsewhere; they read 2.05 and more on borders and 1.88-
# 42 apart. Lattices 0.5-3.2 cells off a layout pass either bar alone (borders up to 4.5, apart up to
# 4.2) but are never the most apart in their photo. On the no-planet photos no lattice passes both;
# the nearest (seen set box2-heldout2's n04) reads 1.79 and 1.82. First set at 1.8 and 1.6 (the same 75
# taken); raised to the middle of the two gaps, so a no-planet photo's lattice lies 6% below one of
# them at the nearest, a layout's 8% over.
LEARN_BACKS = True
LEARN_BACKS_BORDERS = 1.9
LEARN_BACKS_APART = 1.7
LEARN_BACKS_SIDES = 3      # … and every cell of it in the photo, the table beyond this many sides at least (layouts
                           # taken: 3-4; a lattice in a no-planet photo's corner, on the table's pattern, seen set
                           # box2-heldout8's n03: 2)
LEARN_BACKS_SPREAD = 2.0   # added to each measure's spread over the 16 cells (Lab and edge units), as it scales them
# stop 56: a lattice of half tiles on part of the layout is refused (learn._not_halves): every other
# line of it, both ways, under this part of the lines between (found layouts: 0.375 at least; two
# lattices of half tiles taught 2.4-2.7 cells off: 0.15 and 0.13).
LEARN_HALVES = 0.3


# --- issue 8's whole-layout round (vision35): teaching must not take a lattice on part of a layout ---
# Under a synthetic lamp fall-off (light 1.0 -> 0.3 across the photo, /work/scratch35/diag.py) over the
# 66 seen teaching photos with the generator's corners, 5 layouts were taken 1.1-2.9 cells off: each a
# lattice on part of the layout (half-tiles, every other line on the tiles' borders), its cells all on
# tiles, so the table tests passed it (heldout11's t01, t06; heldout7's t06; heldout4's t04, the last
# two by the straightened path; the other direction: heldout6's t01, 3.3 off). learn._part_of_layout
# refuses an outline whose sides' ratio is LEARN_SQUARE_ASPECT or more (a layout is square: the right
# layouts found 1.00-1.13, those wrong ones 1.28-1.94), or beyond one of whose sides the band of the
# lattice shifted a cell has LEARN_BEYOND_CELLS of its 4 cells off the table (_not_table) and the
# lattice's lines going on straight across it (at least LEARN_STRAIGHT, the layout's own bar). On the
# truth's lattice and the layouts found right (raw photos and both fall-offs) a band with 3-4 cells off
# the table (heldout6's t01, t05: clutter beside the layout) reads 0.30-1.14 straight; heldout11's t06
# wrong one 2.55, heldout7's t06 3.24, heldout4's t04 (0.97 off, raw) 4.35. 3 of 4: a corner cell of
# the band may hold the table. After: falloff 59 right, 6 not found, 0 a cell or more off (heldout9's t06
# 0.53 as before); the other fall-off 61 right, 4 not found, none a cell off; the 78 seen teaching photos
# found as before to the pixel (heldout4's t04 through learn._second_opinion(sure=False)).
LEARN_WHOLE = True
LEARN_BEYOND_CELLS = 3
# --- issue 8's moved-layout round (stop 50): a lattice found a cell off onto a busy table ---------------
# Over stop 49's 42 fresh sets and fresh seeds 150-165 (290 face layouts with the generator's corners; /work/notes/shift_lay2.py,
# outside the repository), f4017G's t04 was found 1.03 cells off onto a table of coloured shapes and
# ruled lines, and taught; f4006G's t01 (2.10 off, plain table) and f5017G's t03 (1.29) were found off
# too. The lattice moved a cell back onto the layout: straightness 9.26 -> 11.48, its weakest line
# 0.10 -> 2.71 (f4006G: 1.55 -> 6.83 and 0.63 -> 0.75, a cell nearer). A lattice on the layout moved a
# cell: straightness up to 1.545 times its own (f5016F's t02), but then its weakest line is weaker,
# or (f5016F's t04: 1.39 times, the weakest line equal) the table tests or _part_of_layout refuse it.
# learn._moved_onto_layout moves a found layout while the lattice moved a cell is LEARN_MOVED_GAIN times
# straighter, its weakest line no weaker, its cells off the table and it is not part of a layout; up
# to LEARN_MOVES cells. Set once, between 1.0 (no gain) and f4017G's 1.24; on those 290 layouts it moves
# f4017G's t04 onto the layout (0.09 off) and f4006G's t01 a cell nearer (0.98; the blank check
# refuses it as before), and no other; on the 13 seen sets' 65 layouts it moves none.
LEARN_MOVED = True
LEARN_MOVED_GAIN = 1.15
LEARN_MOVES = 2
# The unfitted layout (learn._unfitted_layout, stop 71): the masks' own outline of the layout, as it
# lies, taken for the one found when its lines are straighter by LEARN_MOVED_GAIN and the two lie more
# than UNFITTED_APART of a cell apart. Measured on the 174 teaching photos of dev sets 9821-9837 (one per
# variant A-Q) and 9900-9911 (/work/notes/s71_raw.py, s71_layouts.py): without the apart bar it took 26
# outlines, 19 of them within 0.22 of a cell of the one found (both on the layout: 0.06-0.16 off, then
# 0.07-0.18), and 7 from 0.31-2.37 apart, 6 of them nearer the truth: 9836P's t01 0.62 -> 0.15, t02 0.45 ->
# 0.23, t03 0.42 -> 0.18, t05 1.66 -> 0.16 (found by the disc look), 9835O's t01 0.16 -> 0.12 and
# 9830J's t06 0.26 -> 0.20 (9835O's t02, 0.18 -> 0.22, the one a little farther). The bar sits in that
# gap, a quarter of a cell; on the second box's own teaching photos an outline on the truth is kept.
LEARN_UNFITTED = True
UNFITTED_APART = 0.25
# A teaching photo is taken from above (the page asks so), so its layout's opposite sides are nearly as
# long as each other and its corners nearly square: over 946 teaching photos of the seen and fresh sets
# (the generator's corners; /work/notes/side_ratio2.py, outside the repository) the opposite sides' ratio
# is 1.00-1.12 and the corners within 6.2° of square. Lattices found off: f6006G's t04 (1.36 cells off,
# fitted across a busy table's shapes: sides 1.41) and f4017G's t01 (0.80: 1.34); f5003D's t05 (1.04 off,
# sheared 20.3°) and f5017G's t05 (0.46: 15.4°). Lattices found on the layout reach 1.21 and 9.4°.
# learn._from_above passes over a candidate beyond LEARN_KEYSTONE or LEARN_SKEW (set once, between);
# the next is taken, or none is found and the page asks for the corners, which are taught as tapped.
LEARN_FROM_ABOVE = True
LEARN_KEYSTONE = 1.3
LEARN_SKEW = 12.0          # degrees

# --- issue 8's look-alike doubt round (vision36): a sharper match, and a doubt that holds it -------
# The match sharper (vision34's finding): DESC_BLUR 2.4 -> 1.8, and the tiles ordered by a match at
# SHARP_BLUR (reader.classify: exemplars' matched filters made at it too, Exemplars.sharp; a cell's
# margin never surer than the match's at DESC_BLUR). The 13 seen sets (`python -m vision.bench -q
# --set=...`, 15:27-15:37 UTC) 3764 -> 3823 right cells: box2 479, heldout 243, heldout2 250 -> 251,
# heldout3 438 -> 442, heldout4 236 -> 238, heldout5 299 -> 305, heldout6 214 -> 222, heldout7 272 -> 269,
# heldout8 177 -> 194, heldout9 276 -> 284, heldout10 278 -> 289, heldout11 300 -> 304, heldout14 302 ->
# 303; the shipped art 256/256. Every wrong cell stayed doubtful, but the surest ones (heldout's p13
# D17 for D04, 1.374; heldout8's D06/D08 read for other dim downhill tiles, up to 1.357) came within
# 0.02-0.03 of BOX_SURE (1.39), against the rule of 0.1; the bar by the rule (1.474) made box2's right
# cells doubtful 90/479 (18.8%, over its 15%).
# Those wrong cells have clear margins at every blur (0.1-0.37; the truth 3rd-13th): they are plain
# tiles that fit many cells (heldout8's D06 and D08 read wrong in photo after photo). Two terms from
# the order (reader.order_margins, reader.hubs): the tile's lead in the order (the sharper match with
# the box's blend) besides the margin, and how much better the chosen tile matches another face cell
# of its stack than this one (its hub). Per cell, dumped from the reader on the 13 seen sets (/tmp
# scripts, not in the repository), the weights from a grid (pair 0.75-3, match 2-6, fit 0.5-1.5,
# photo 0.5-2.5, order 0-1, hub 0-1) for the fewest sets over their doubt ceilings
# (tests/test_vision_sets.py) and then the fewest right cells doubtful per set on average, the bar by
# the rule (0.1 above the surest wrong cell not doubtful otherwise: heldout10's, 3.338). Tried beside
# them and not better: the match at 2.4 (its margin, its first choice agreeing), the runner-up test
# against each of the 4 likeliest other tiles (min), the count of tiles within 0.05, the photo's
# median match / runner-up test / sureness. Mean right cells doubtful per set: the weights before
# with the rule's bar 0.53; those weights refitted without new terms 0.468 (heldout8 over its 0.63:
# 0.689); with the order's margin 0.430; with both terms 0.410. Left out one set at a time: with
# these weights every left-out set's wrong cells stay doubtful with the bar 0.02, 0.1 or 0.2 above the
# other sets' surest (the left-out set's surest is 0.011 over at most: heldout10); weights refitted per
# fold (bar +0.1) left 2 wrong cells unmarked (one of heldout3, one of heldout4; without the new terms
# 4, with the order's margin alone 1). The weights of the part-comparison round (BOX_SURE and SURE_*
# above) are re-set with these.
SHARP = True
SHARP_BLUR = 1.5
SURE_ORDER = 1.0       # weight of the tile's lead in the order (reader.order_margins)
SURE_HUB = 0.5         # weight of its match with another cell of its stack over its own (reader.hubs)


# --- the grid look (vision38): a small planet on a table covered with large coloured shapes ---
# box2-heldout6's p03, p14, p18 (seen): planets of 35-61 px cells among large coloured rectangles and
# discs; every outline of the colour and texture masks, flattened or late, lay 1.2 cells or more off
# the truth (each refused; read at the true corners +41 cells). When none of those read as a planet,
# reader.read_photo looks for the planet's own structure (outline.tile_squares, grid_quads): blobs
# shaped like a tile (near-square, a side GRID_SIDES of the short side, from local thresholds of each
# Lab channel and the light's edges) that line up on a 4x4 lattice of their side; the windows holding
# the most such tiles (GRID_LEAST at fewest; among as many, the one whose calmest outer band has the most
# edges: stages.outer_edges) are fitted and read (GRID_OUTLINES at most). On those three and heldout4's
# refused p04 the first window lies 0.33-0.54 of a cell off once fitted (7-8 tiles; 0.11-0.41 before
# fitting, whose lattice fit, 0.82 on p04, may fall under PLANET_LATTICE) and reads as the planet.
# On the 52 no-planet photos of the seen sets 50 have no window of 4 tiles; the two that have read at
# most score 0.80, planet 1.32 (PLANET_SCORE 1.35, PLANET_MATCH 2.1): refused. Set once, not tuned further.
GRID_LOOK = True
GRID_SIDES = (0.035, 0.14)   # a tile's side, parts of the decode's short side (READ_SIDE 480: 17-67 px)
GRID_SQUARE = 1.25           # a tile's blob: longer side / shorter side at most
GRID_TURN = 8.0              # degrees: a tile of the same planet lies turned as the seed within this
GRID_ON = 0.2                # … and its centre within this part of a cell of a lattice cell's centre
GRID_GAP = 0.08              # the lattice's pitch: the seed's side, or this part more (the gaps)
GRID_LEAST = 4               # tiles a window holds at fewest
GRID_WINDOWS = 6             # windows looked at (the most tiles held first) …
GRID_OUTLINES = 2            # … read at most

# --- the trimmed look (issue 8, stop 48): a planet whose blob a strip of the table joins ----------------
# Fresh seed 101's p17 (then seen; a planet of 0.38 of the short side on green gingham with a soft
# shadow): every outline of every look lay 1.4 cells or more off the truth and the photo was refused.
# The strict texture mask held the planet's square with a strip of shadowed cloth hanging off its top
# corner, and the far-from-the-table's-colour mask its dark ring with a tail: their hulls' corners
# went out along the strips. Opened by a disc of TRIM_OPEN of the square root of the blob's area (a
# planet's blob: 0.25 is a cell), the strict mask's blob came within 0.19 of a cell (0.15: 0.19, 0.2:
# 0.22, 0.3: 0.38; looked at once, on that photo, and 0.15 set). Only when no other look found a
# planet, at most READ_OUTLINES of them read. Seed 101 464 -> 480/480 cells, 29 -> 30/30 planets; box2,
# the shipped art and the 12 other seen sets the same cells and planets, every no-planet photo refused;
# fresh seeds 110-133 (24 sets, never looked at before) refused no planet either way. Not mended by it:
# seed 102's p07 (a shadow as wide as the planet joins its blob on gingham) and seed 45's p13 (dark
# tiles' borders on dark blue felt: the masks hold only the green disc).
TRIM_LOOK = True
TRIM_OPEN = 0.15
# … and also when the best reading is a planet but not a sure one (under READ_SURE): fresh seed 120's
# p04 (then seen; a blurred photo on a marbled table) read its first three outlines, each 0.45-0.61 of
# a cell off, at scores 1.33-1.38, the third just a planet (PLANET_SCORE 1.35): 7 cells right. Its
# second trimmed outline, 0.43 off before fitting, read 16/16 at 1.75. Set from that photo alone,
# then measured once on the kept fresh seeds 110-133 (their totals read before; the wrong cells of
# 110, 115, 116 and 120-123 looked at, for other leads): 11475 -> 11490/11520 cells, 704 -> 706/720
# planets, no set worse, 15 -> 18 of 24 sets meeting both floors; on seeds 134-149, never looked at,
# 7654 -> 7659/7680 cells, 468 planets either way, 12 -> 13 of 16. What it costs (photos read less than
# surely read up to READ_OUTLINES more outlines) and what it did on the seen and held-out sets:
# vision/README.md, "Trimmed look".
TRIM_UNSURE = True
# Still no planet: the outlines each look's cap (READ_OUTLINES, FLAT_OUTLINES, GRID_OUTLINES) left
# unread, in the looks' order, at most REST_OUTLINES (stop 48). Fresh seed 45's p13 (seen at stop 46;
# dark-bordered tiles on dark blue felt, the masks holding little more than the green disc): the
# flattened photo's 4th and 6th outlines read as planets (1.48, and 1.69 at 0.56 of a cell off) but
# only its first 3 were read, and the photo was refused; now read (seed 45: 462 -> 478/480 cells, 28 ->
# 29/30 planets). REST_OUTLINES set once, to read past those. The seen sets read the same, every
# no-planet photo refused (56/56, and 160/160 of fresh seeds 110-149's). Not read on the held-out sets
# (read once at stop 48, before this look).
REST_LOOK = True
REST_OUTLINES = 8
# The grown look (stop 55; reader._read_grown, stages.grown_quads). Dev sets of variants B-L (seeds
# 9301-9311, 9321-9331: 440 planet photos): 15 planets refused, 9 of them whose true outline reads as
# a planet (1.57-1.81) but no look found an outline within half a cell of it. 6 were variant H's
# (9327: pink-skied corner tiles on orange wood under a dim lamp): the masks held the planet's blue
# disc (p04, p07; 1.21x and 0.85x of the planet, turned 6 degrees) or 4 cells by 3 of it (p03, p20, p18).
# Grown (1.2x, 4/3x, a cell more) and ranked by the lattice's fit, the truth's came 7th-25th of 34-48;
# by a cheap reading (unfitted, no refit: 31-50 ms each) 1st for p04, p07, p18. Reading the best 2 in
# full: 7 of the 15 read (9327's p03, p04, p07, p18, p20, 9331's p09, 9306's p03: 14-16 cells right
# each), 0 of 44 no-planet photos read as a planet, which now take 0.3-2.3 s more. Moving the
# outlines a cell each way too: no more read (the 8 left: 3 whose truth reads under PLANET_SCORE,
# 5 with no outline found within 0.4 of a cell, or with one the fit moves away). Set once.
GROW_LOOK = True
GROW_SCALES = (1.2, 4 / 3)   # the planet's disc to the planet (1.2x), 3 cells by 3 about the centre to 4 (4/3x)
GROW_LONG = 1.15             # an outline this much longer than wide holds 4 cells by 3 (a 30-degree tilt: 1.15 at most)
GROW_BEYOND = 0.05           # an outline grown past the photo's edge by more than this part of its short side: left out
GROW_OUTLINES = 2            # read in full at most
# The squared look (stop 69, reader._read_squared): still no planet after the grown look, the grown
# look's best screened outlines squared as the edges in them run (stages.squares_along_edges, at
# SQUARED_SIDES of their side, as the shipped art's SHIPPED_SQUARED), screened, the best read in full.
# Dev set 9904's b08 (variant G, a neighbour's planet beside, python -m vision.fresh --variant G
# --count 0 --empty 0 --beside 20 --keep DIR): the grown look's best outline lay half a cell off the
# planet and slid a cell onto the wrong edges when fitted (score 1.03); its 0.8 square lay 0.44 of a
# cell off, ranked first of its squares, and read 1.68 fitted; refused before.
SQUARED_LOOK = True
SQUARED_OF = 2               # the grown look's best screened outlines squared (each at 3 sides)
SQUARED_BOX_READS = 2        # … of their squares, at most this many read in full, the best screened first
# The unfitted look (stop 70, reader._read_unfitted): still no planet after the squared look, the grown
# look's GROW_OUTLINES best screened outlines read again as they lie (refitted by where the tiles were found,
# not by the lattice fit), each judged with the lattice's fit where its reading ended. Dev sets 9908-9911
# (variant H: a slate planet hatched with thin diagonal lines, dim orange wood; python -m vision.fresh
# --variant H --count 0 --empty 0 --beside 20 --keep DIR), their 5 refused photos: the true outline read
# fitted as a planet for 4 (1.49-1.55); in 9909's b09 the grown look's best outline lay 0.39 of a cell
# off, the fit slid it 0.87 off (read 1.10, no planet); read as it lay, it ended 0.10 off and read 1.49,
# a planet, 12-13 cells right. 9909's b01 read too (16 cells right); 9908's b04 and 9910's b01 have no
# outline near their planet; 9910's b04 (a side of 0.19 of the photo's short side) reads 1.39 unfitted
# but its lattice lies at 0.66 even on the truth, under PLANET_LATTICE. No other dev photo changed.
UNFITTED_LOOK = True
# … a planet it reads kept as it is only when its middle lies this part of the short side from the
# frame's middle, or nearer; farther, only through the beside look (reader._read_beside: a planet found
# nearer the middle), else the photo is refused as before. Fresh sets 9840-9847 (variant H, a
# neighbour's planet in each photo, made after the look above was set; read with stop 69's code and
# with it: refused 12 -> 7, cells 2262 -> 2304 of 2560), looked into once their totals showed 2 photos
# where the neighbour's planet was now read (9844's b02, 9847's b07, 2 of its cells wrong and not
# doubtful): the unfitted look had read it, 0.56 and 0.25 of the short side off the middle, the planet
# aimed at 0.12 and 0.10 off. The planets it read right lay 0.04-0.13 off (9909's b09 and b01 with their
# own box, 9844's b13); halfway: 0.2. With 9327's box (the suite's) 9909's b01 reads the neighbour's
# first, 0.29 off, and the beside look then finds the planet aimed at; 9847's b07 the same, 14 cells.
UNFITTED_MIDDLE = 0.2
# The planet's disc (stop 55, after the above): of the dev sets' 16 planets the grown outlines left
# refused (those of 9301-9311, 9321-9331, and 9346-9347 of the fresh sets 9341-9351, read once before,
# then looked at), a square about one of the 5 likeliest circles (HoughCircles: edge 60, votes 20 of
# 80/25 -> 40/15 -> 30/12 tried; 1.0, 1.1, 1.2 of its diameter, at its gaps' turn) lay within 0.4 of a
# cell of the truth for 10. Read through the grown look: 5 more read (12-16 cells right each), the 32
# no-planet photos of those sets refused, 0.7-2.6 s a refused photo.
GROW_DISCS = 5                      # circles taken, the likeliest first
GROW_DISC_SIDES = (1.0, 1.1, 1.2)   # the planet's side: this many of the disc's diameter
GROW_DISC_EDGE = 60                 # HoughCircles' Canny upper threshold (the grey stretched to 0-255)
GROW_DISC_VOTES = 20                # … and its votes for a centre

# The beside look (stop 62; reader._read_beside, outline._largest_blob's ``beside``). At a game's end
# every planet lies on one table, and a photo of one may hold a neighbour's planet beside it. Dev set
# 9663 (box2's art, variant A, 20 photos made by ``samples_box --beside``: the planet aimed at within
# 8% of the frame's middle, a neighbour's 1.1-1.6 planet sides from it): the reader read the
# neighbour's planet, surely, in 4 of 20 (b01, b05, b13, b15). In b01 and b05 no mask's largest blob
# was the planet aimed at; in b15 its outline ranked first but the neighbour's read surer.
# Once a planet is read, another outline apart from it, about as large and nearer the frame's middle
# (the masks' outlines, and those of each mask's next largest blob when it is as large as
# BESIDE_BLOB of the largest), is read, the lattice's best fit first; the first that reads as a planet is
# the planet read: the player aims at their own. Set once on 9663: 19 of its 20 read the planet aimed
# at (b13 not: every mask holds both planets as one blob, so no outline lies on it alone). Without the
# nearer-the-middle bar, 5 photos that read the right planet read the neighbour's. The 344 seen photos
# (one planet or none in each) read byte for byte as before: none has another outline that passes these bars.
# Stop 63: the shipped art's reader (recognize._read_beside) takes the same bars (stages.beside_places)
# over its own masks' outlines; nothing here was set on the shipped art.
# Stop 65: through a phone's lens (samples.camera_quad's lens, PHONE_LENS) under issue 8's full
# conditions (tilt 0-30°, the planet 0.25-0.55 of the short side), a neighbour nearer the camera is up
# to 1.72 times the planet aimed at, one farther away down to 0.64 (the 99th and 1st percentiles of
# 3000 draws of the generator's geometry, /tmp/nsize.py), so BESIDE_SIZE is (0.55, 1.6) (0.7-1.4 until
# then): set from that geometry, not from photos. Dev set 9695 (box2's art, 30 photos made as
# make_beside's but under those conditions, /work/notes/s65/bb.py): in b18 the neighbour, 1.6 times the
# planet aimed at, was read, no place found. BESIDE_PAINTED: in b02 no outline the masks found on the
# planet aimed at read as a planet (it lies in a shadow; only the photo with its slow light taken out
# finds it), in b26 one read, poorly (8 of 16 right); each read 16/16 with the neighbour's planet
# painted over (the photo read again whole: every look). The places are then read for the best planet,
# the first sure one at once, not the first planet (b26). BESIDE_SECONDS (the shipped art's reader,
# which has no look after its masks'): dev set 9692 (/work/notes/s65/sb.py, HARSH, the phone's lens) s09
# and s30 were refused, a larger neighbour cut by the frame's edge every mask's largest blob.
# BESIDE_EDGE, BESIDE_CUT_OFF (after this stop's fresh sets 9699-9702 were read once: 9699's b17, now
# dev): the neighbour's planet, cut by the frame, was read and no outline lay on the planet aimed at (a
# green planet on green gingham), so no place: a planet read whose corner lies beyond the frame and
# whose middle lies off the frame's middle is not the one the player framed, and the photo is read
# again with it painted over. b17's lies 0.064 of the short side beyond and 0.45 off the middle; the
# neighbours read in 9695 lay 0.38-0.55 off. Over the 344 seen photos (one planet each, or none) the
# painted photo is read in 11 (places nearer the middle that read as no planet; their planets 0.28-0.39
# off the middle, the generator placing a planet anywhere in the frame) and read nothing: every
# reading byte for byte as before, 1.2-3.3 s more for each of those 11 (/tmp/paint_where.py). With a
# corner 0.01 inside the frame counted as cut, heldout7's p05 (a planet filling the frame, 0.05 off
# the middle) was read again too: hence a corner beyond the frame, off the middle.
# Stop 66: the shipped art's reader (recognize._read_beside) had neither the painted photo nor the cut
# rule; in fresh set 9708 (read once at stop 65, then looked at: dev) s24 read the neighbour's planet,
# wholly in frame and 0.34 of the short side off the middle, every cell sure: no outline the masks found
# lay on the planet aimed at (it lies on a checked cloth), so no place and no cut. Dev sets 9709 and
# 9714 (made this stop, read with stop 65's code) held one such photo each (s37; s25, whose places read
# as no planet). Now, when no place reads as a planet and the planet read lies BESIDE_CUT_OFF or more
# off the frame's middle (stages.off_middle, BESIDE_OFF_PAINTED; 9708's s24 0.34), the work image is
# masked again with the planet read painted over; its outlines that pass beside_places' bars are read
# from the painted photo, and a planet there wholly in frame is the planet read. Masking the painted
# work image first costs about 20 ms (both mask groups; the texture mask's group alone, 11 ms, left a
# sure wrong cell in 9709, none with both); the shipped samples' one-planet photos lie off the middle in
# 8 of 16 and read as before. The box reader reads its painted photo whole (every look) and only at
# places or a cut, as before: stop 65's fresh box sets (9704-9707, 80 photos) read no neighbour's
# planet, this stop's (9721-9724, 80) one (9724's b18: the planet aimed at, in the dark, reads as no
# planet even painted; 13 of the 16 cells read are doubtful).
# Stop 67: the shipped art's reader refused 11 of the 160 photos of dev sets 9703, 9709, 9714 and 9715
# (the shipped art through a phone's lens, a neighbour's planet beside each; /work/notes/s65/sb.py):
# no outline its masks found read as a planet, every mask's largest blob holding the planet aimed at
# and the table or the neighbour's planet as one. SHIPPED_TRIM, after BESIDE_SECONDS: each of those
# blobs trimmed as the box reader's trimmed look trims (outline.trimmed, TRIM_OPEN), its largest
# piece and its next largest (BESIDE_BLOB) read. Read alone (/work/notes/s66/trimexp.py), the pieces
# gave 5 planets: 3 the planet aimed at, 2 the neighbour's (23 wrong cells not doubtful). In both of
# those, another piece lay where the planet aimed at lay, nearer the frame's middle, and read as no
# planet: so a planet read from the pieces is taken only when no outline found and no piece passes
# beside_places' bars against it (the beside look's own bars: the player aims at their own planet).
# Dev (/work/notes/s67/trimnear.py, then the code): 11 -> 8 refused, no neighbour's planet read, 1
# wrong cell not doubtful (9715's s00: D07 read as D09, confidence 1.0, on a planet read 15/16; read
# through the truth's outline the cell is right, /work/notes/s67/truthquad.py). Also read, not refused: 9692's s22 (dev), and 9692-s09
# (BESIDE_SECONDS' test photo) reads through the trimmed look too with BESIDE_SECONDS off. Every other
# reading of the shipped samples and dev sets 9692, 9703, 9708, 9709, 9714, 9715 and 9716 (300) is byte
# for byte as before (/work/notes/s66/shipdump.py). It runs only where nothing reads as a planet: the
# no-planet photos pay for it. Figures on fresh sets: vision/README.md, "Trimmed pieces with the
# shipped art". Then SHIPPED_TRIM_OPENS: fresh sets 9725-9740 (640 photos, read once with the look
# above: 24 -> 11 refused) were looked at (dev since); in all 11 refusals left, and in 6 of the 8 on
# the dev sets above (the other 2 are the bar's), the pieces read no planet: the two planets touch along
# part of a side, which a disc of 0.15 does not part (/work/notes/s67/trimwhy.py). Each blob opened by discs of 0.15, 0.3 and 0.45 too
# and all their pieces read at once (/work/notes/s67/opens.py): 19 -> 12 refused, 7 planets aimed at
# read 16/16, no neighbour's, no wrong cell sure (0.15 and 0.3: 5; adding 0.6, or reading 6 families
# instead of BESIDE_READS' 3: the same 7). Over 940 dev readings 13 changed: those 7, 9733's s36 (13 ->
# 16 right), and 5 read trimmed already whose cells or doubt moved (each 16/16 either way).
BESIDE_LOOK = True
BESIDE_BLOB = 0.4           # a mask's next largest blob this large against its largest: its outlines kept
BESIDE_APART = 0.9          # an outline whose middle lies this many planet sides from the planet read
BESIDE_SIZE = (0.55, 1.6)   # … whose side is this part of the planet read's
BESIDE_NEARER = 0.25        # … and whose middle lies this many planet sides nearer the frame's middle
BESIDE_READS = 3            # read at most, the lattice's best fit first
BESIDE_PAINTED = True       # none reads surely: the photo read again with the planet read painted over
BESIDE_PAINT_GROW = 1.1     # … its outline grown this much about its middle
BESIDE_EDGE = 0.01          # … or a corner of the planet read lies this part of the short side beyond the frame
BESIDE_CUT_OFF = 0.25       # … and its middle this part of the short side off the frame's middle
BESIDE_SECONDS = True       # the shipped art's reader: none reads as a planet, the masks' next largest blobs read
BESIDE_OFF_PAINTED = True   # … and a planet read off the frame's middle (BESIDE_CUT_OFF): read again with it painted over
BOX_OFF_PAINTED = True      # the box reader too (stop 69): dev sets 9908-9909 (variant H, dim orange wood, python -m
                            # vision.fresh --variant H --count 0 --empty 0 --beside 20): in 4 photos the neighbour's
                            # planet, 0.32-0.47 of the short side off the middle, was read, no mask outlined the
                            # planet aimed at (0.02-0.12 off), and the painted photo finds it. Only outlines that
                            # pass beside_places' bars are read in it (reader.read_photo's where): a photo of one
                            # planet off the middle pays 0.1-0.5 s more (box2's 6 such, p02 52 -> 555 ms), not the
                            # 0.7-1.5 s of every look's outlines
SHIPPED_TRIM = True         # the shipped art's reader, still none: the masks' largest blobs trimmed, none nearer the middle
SHIPPED_TRIM_OPENS = (0.15, 0.3, 0.45)   # … by each of these discs (parts of the square root of the blob's area)
# Stop 68: the shipped art's reader, where a place beside (the beside look) or a trimmed piece reads as
# no planet, reads it again squared as the edges in it run (``stages.squares_along_edges``): a mask
# rounds a blob's corners off, and its outline may then sit square to the frame while the planet in
# it is turned by 20° (dev 9804's s22: the place of the planet aimed at read 0.45, squared 0.86, and
# the neighbour's planet, read first, was kept with 14 wrong cells sure). Dev sets 9800-9807 (the
# shipped art with a neighbour's planet, `python -m vision.samples DIR --seed S --count 0 --empty 0
# --beside 40`): see vision/README, "Look-alikes read sure, and outlines square to the frame".
SHIPPED_SQUARED = True
SQUARED_SIDES = (0.8, 0.9, 1.0)   # … each square this part of the outline's side (a square turned 20° in
                                  # a box square to the frame: 0.78 of its side, with the box's margin more)
SQUARED_READS = 12                # … of a trimmed blob's pieces' squares, at most this many read (best
                                  # ranked first, until one is GOOD; 9801's s21: its planet's square ranks 10th of 96)
SQUARED_NEARER = True             # … a planet read there but barred (a place nearer the frame's middle):
                                  # those places squared and read, the planet there taken when none lies
                                  # nearer still (dev 9800's s01: the neighbour's planet read, barred, then
                                  # the planet aimed at read from the place nearer the middle, 16/16)
# Two planets that touch (stop 63): every mask may hold both as one blob, with no outline on the
# planet aimed at alone (9663's b13). The places read also come from each mask's largest blob that
# holds BESIDE_JOINED of the planet read's area, less the planet read's outline grown BESIDE_GROW
# about its middle, trimmed (TRIM_OPEN): stages.joined_rest. Set once on b13 alone (/tmp script,
# stop 63), with the generator's corners standing for the planet read: 4 of its 6 masks' largest blobs
# held 1.8-2.6 planets (the others 0.9, and 12.4: the table). The rest of those 4, not trimmed, lay
# 2.4-5.0 cells off the planet aimed at with the outline not grown, 3 still 3.7-4.6 off grown 1.1 (a
# rim of the neighbour's joins them), all 0.2-0.8 off grown 1.2; opening 0.15-0.3 alone split no blob.
BESIDE_JOINED = (1.6, 3.2)  # a mask's blob this many of the planet read's area: two planets joined
BESIDE_GROW = 1.2           # … less the planet read's outline grown this much about its middle


# --- issue 8's gap-lines round (vision39): teaching and reading both cut on the gaps ---------------
# stages.on_gap_lines: the lattice fitted to the measured coordinate only of each inner line's gap
# segments (stages.gap_points, 12 a direction), each direction on its own (teaching: a bilinear
# lattice, 4 parameters; reading: bilinear=False, an offset and a pitch), from the 4 (2) segments that
# leave the most within GAP_LINE_TOLERANCE (every such set tried), refitted on those twice.
# Measured against the generator's true corners on the seen sets (/tmp/vision39 scripts, not in the
# repository; corner error as the worst corner's distance in cells, scale as sqrt(area) / the truth's):
# - teaching, the 66 layouts with true corners (box2-heldout's and heldout8's tNN.json have none):
#   found (find_layout) median 0.097, 10 over 0.2 of a cell, 8 over 3% off in scale (heldout4's t01,
#   t03-t05 0.93-0.97 small, heldout6's t04 0.937, heldout9's t06 0.902); lattice_on_gaps found for
#   57, median 0.058, none over 0.2; on_gap_lines found for 63 (not heldout4's t03, heldout6's t06
#   of backs, heldout10's t06), median 0.042, none over 0.2, none over 3% (it fits heldout4's t01 0.17,
#   t04-t05, heldout6's t01 and t04, heldout7's t01, heldout9's t06 and heldout14's t02 to 0.03-0.17);
#   lattice_on_gaps after it: median 0.034. The lattice teaching cuts by: as now, 6 layouts over 0.2
#   (up to 0.44) and 6 over 3% in scale; with the gap lines (always, or only where lattice_on_gaps
#   finds none) 1 over 0.2 (heldout6's backs, 0.36: no gap lines found) and 1 over 3%.
# - the reader's outlines (read_photo's outline of the 270 test photos read as planets): median 0.100,
#   25 over 0.2, scale median 0.989 (heldout4 0.948, median 0.21 of a cell off; every other set
#   0.982-1.005); moved onto their gap lines (where found; else as read), GAP_LINE_PX 48:
#   offset+pitch tolerance 0.06 and 8 agreeing: median 0.091, 22 over 0.2, scale 0.999 (heldout4's 10 of
#   20 found: 0.08 / 1.000); bilinear: median 0.104, 46 over 0.2; offset+pitch at 0.10: 0.098, 31; at
#   0.04 with 6: 0.092, 27; 0.06 with 7: 0.090 but 10 over 0.3 (7 as read); with 6: 31 over 0.2.
# The seen bench (python -m vision.bench -q $(cat /work/notes/seen_sets.txt), one run each, 2026-12-02
# UTC, shared 2 vCPUs), base e5653b3 (3887): box2 479, heldout 243, heldout2 251, heldout3 458, heldout4
# 249, heldout5 305, heldout6 259, heldout7 269, heldout8 194, heldout9 284, heldout10 289, heldout11 304,
# heldout14 303:
# - both (teaching always, reading) 18:30-18:36: 474, 232, 253, 457, 252, 310, 281, 275, 179, 283, 283,
#   311, 318 = 3908; wrong not doubtful heldout8 3, heldout9 1. box2 worse: not kept.
# - reading only 18:37-18:42: 478, 242, 251, 460, 234, 305, 258, 271, 193, 281, 286, 305, 302 = 3866;
#   heldout10 1 wrong not doubtful.
# - teaching always only 18:43-18:48: 478, 232, 252, 457, 259, 310, 301, 273, 189, 284, 286, 311, 318 =
#   3950 (the most cells); wrong not doubtful heldout8 7, heldout9 1; box2 -1. (box2-heldout and heldout8,
#   -11 and -5, are the sets with no true teaching corners; there the gap lines lie 0.01-0.06 of a cell
#   from lattice_on_gaps', heldout's t04 0.16: small moves that change which cut frame_tiles_on_gaps takes.)
# - teaching only where lattice_on_gaps finds none (GAP_LINES_ALWAYS False) 18:49-18:54: 479, 243, 251,
#   458, 258, 307, 282, 269, 194, 283, 289, 304, 303 = 3920; wrong not doubtful heldout6 1 (0.53),
#   heldout9 2 (0.52, 0.53: C14 for C15 and another face, after its t06 of backs was refitted 0.44 ->
#   0.03 of a cell). With BOX_SURE re-set by its rule (3.78) 18:56-19:00: 3921, 0 wrong not doubtful on
#   every set, but box2's right cells doubtful 56 -> 94/479 (19.6%, over its 15%): not kept.
# - kept: teaching only where lattice_on_gaps finds none, only when the gap lines change the layout's
#   size by GAP_LINES_SCALE or more (an outline on the tiles' inner frame lines, 5-10% small; heldout5's
#   t02 and heldout6's t02, 0.8% and 1.8%, are left as found), never for a layout of backs (heldout9's t06,
#   whose refit brought the two wrong cells above): on the seen sets with true corners that is heldout4's
#   t01, t04, t05 and heldout6's t04 (0.25-0.42 of a cell off, 0.928-0.944 of the truth's size -> 0.05-0.17,
#   0.998-1.010). 19:11-19:16 UTC: box2 479 (right cells doubtful 56, as before), heldout 243, heldout2 251,
#   heldout3 458, heldout4 249 -> 258, heldout5 305, heldout6 259 -> 283, heldout7 269, heldout8 194,
#   heldout9 284, heldout10 289, heldout11 304, heldout14 303: 3887 -> 3920; 0 wrong cells not doubtful and
#   every no-planet photo refused on each. The reader's switch stays off (reading alone lost 21 cells).
GAP_LINE_ROUNDS = 2        # fits, each from the lattice the last one gave
GAP_LINE_TOLERANCE = 0.06  # a segment this far (part of a cell) off the fit is an outlier
GAP_LINE_MIN = 8           # of a direction's 12 segments at least this many must agree
GAP_LINES_TEACH = True     # learn.cut_tiles: the layout moved onto its gap lines
GAP_LINES_ALWAYS = False   # … for every layout (else only where lattice_on_gaps finds no lattice)
GAP_LINES_SCALE = 0.03     # … and only when that changes its size by this part or more (then never for a layout of backs)
GAP_LINES_READ = False     # reader.read_outline: each outline moved onto its gap lines first (offset and pitch)
GAP_LINE_PX = 48           # the reader's cell side (px) the gaps are looked for at


# --- small planets read from a finer decode (vision40; reader.read_finer, stages.finer_region) ---
# A planet found in the READ_SIDE decode with cells under SMALL_CELL px there is decoded again at the
# largest JPEG DCT reduction giving cells of SMALL_TARGET px at least (the file whole at most), only
# its region kept (the outline's box grown by SMALL_GROW cells, set once), and read there through the
# outline found (mapped by the scale; cut, align, classify, refit; the quarter turn kept). Its doubt is
# bounded by the first reading's (SMALL_BOUND: a cell no surer than there, doubtful where the two
# disagree). Measured (issue 8's small-planet round, /tmp scripts reading the 13 seen sets' photos
# whose found cells are under 68 px, boxes learned as the bench learns them): the seen sets have 57
# planets with cells under 48 px of the decode (27-47 px; 85% of their cells right, 90% for the
# others). Read again at the generator's true corners, a 2x finer decode reads as many cells as the
# decode itself (raw classify, 25 small planets of heldout4/6/8/9/14: 307 cells against 305);
# what they lose is mostly the outline (heldout9's p20 found 0.63 of a cell off: 6 cells, 13 at the
# truth). Cells under 48 px, SMALL_TARGET 48: kept only when it reads at least as well (SMALL_SLACK 0)
# +8 cells with one wrong cell not doubtful (heldout8's p11: 0 with SMALL_BOUND); always kept +13;
# from the full file (SMALL_TARGET 96) +7. Cells under 56 px (SMALL_TARGET 56, always kept) +24 cells
# (box2 unchanged, heldout6 -3, heldout14 -1), under 64 +30 but box2 -1 (p17, 63 px cells); each with 0
# wrong cells not doubtful. A second decode at 1/2 costs these photos ~+100-170 ms (box2: 9 of 34 photos).
# Merged OFF (stop 34): measured on top of vision39's teaching on the gap lines (`python -m vision.bench -q`
# over the 13 seen sets, 19:28-19:33 UTC 2026-12-02, AMD EPYC 2 vCPUs, the two runs side by side): seen
# 3920 -> 3951 cells with SMALL_CELL 56 (heldout +5, heldout3 +10, heldout4 +4, heldout6 +3, heldout8 +4;
# box2 59/479 right cells doubtful, heldout's and heldout11's doubt over their ceilings by 0.01-0.02),
# 3934 with SMALL_CELL 48 (box2 unchanged, 56/479); 0 wrong cells not doubtful and every no-planet photo
# refused in both. But box2's reading time over a full decode (`-q --set=box2`, the three codes in turn,
# twice, idle, 19:34-19:36): 4.0x and 4.1x off, 4.5x and 4.3x with 56, 4.3x and 4.2x with 48, against
# issue 8's bar of 4x (already reached off on this CPU; 3.4x on the Intel Xeon of stop 33). On when the
# finer reading is made cheaper (its runner-up tests at FINE_PX are most of the gain and most of the cost).
SMALL_FINER = False
SMALL_CELL = 56.0
SMALL_TARGET = 56.0
SMALL_GROW = 0.6
SMALL_FINEST = 2.0     # the finer decode at most this many times finer than the first (one DCT step): with
                       # 8, heldout6's p04 (27 px cells) was decoded whole and read 13 cells, its planet no
                       # longer scored (14 and scored at 1/2, as before); photos under 60 px, +24 -> +25 cells
SMALL_SLACK = 1.0      # kept whenever it reads as a planet (any score within 1.0 of the first: always)
SMALL_BOUND = True
# The finer reading's cost (box2's p03, 41.6 px cells -> 83: the region decoded at 1/2 7.5 ms, read
# 15 ms, the first reading's tell_lookalikes for the bound 7 ms, the runner-up tests at FINE_PX +8 ms)
# and what each part brings (photos with found cells under 60 px, against the code before: 1595 cells):
# all three +24 (as the bench, 0 wrong not doubtful); the runner-up tests at FINE_PX left out of the finer
# region (SMALL_FINE_TEST False; FINE_MIN_PX keeps them from cells under 64 px of a decode) +11; the
# bound from the first reading as classified and no refit (SMALL_BOUND_TOLD False, SMALL_REFITS 0) +10
# with 2 wrong cells not doubtful (heldout6, heldout8). The runner-up tests cut from the finer pixels
# are most of the gain: the match at CELL_PX reads about as well from either decode.
SMALL_BOUND_TOLD = True   # the first reading's doubt after tell_lookalikes (False: as classified)
SMALL_REFITS = 2          # refits of the finer reading (REFITS)
SMALL_FINE_TEST = True    # the runner-up tests at FINE_PX made on the finer region (tell_lookalikes, look_again)


# --- issue 8's hub-floor round (vision42): a tile's lead over its stack's other cells is not a lead over its look-alike ---
# reader.sureness adds -SURE_HUB x hubs: a tile that matches another cell of its stack better than its own (a plain
# tile, heldout8's D06/D08) loses sureness, and one that matches its own cell far better than every other cell gains it.
# That gain says the tile differs from the other cells' tiles, not from its runner-up: the two surest wrong cells of
# the seen sets (per-cell dumps of reader.read_photo + tell_lookalikes + confidence on the 13 seen sets, /tmp/vision42
# scripts, not in the repository, 23:25-23:45 UTC 2026-12-02) were C14 read for its look-alike C15 (heldout10's p06 and
# heldout9's p05: hubs -1.57 and -1.35, +0.78 and +0.68 of sureness; runner-up test 0.03 and 0.07, i.e. not told
# apart), and they set BOX_SURE's bar (3.338 + 0.1). Hubs are floored at HUB_FLOOR (the gain at most 0.5): the surest
# wrong cell not doubtful otherwise is then heldout3's p09 C08 for C07 (3.280), and BOX_SURE by its rule (0.1 above it)
# 3.44 -> 3.38. Right cells doubtful in those dumps (13 sets): box2 56 -> 53/479, heldout -4, heldout2 -3, heldout3 -11,
# heldout4 -1, heldout5 -9, heldout6 -3, heldout7 -4, heldout8 0, heldout9 -2, heldout10 -2, heldout11 -4, heldout14 -5
# (-51 in all); cells read the same; 0 wrong cells not doubtful. Left out one set at a time (the bar 0.1 above the other
# twelve sets' surest wrong cell), no left-out set's wrong cell goes unmarked. Floors -0.75 / -0.5 / 0 (no gain at all):
# -40 / -7 / +110 right cells doubtful (box2 53 / 55 / 62). 182 right cells and 10 wrong ones have hubs under -1.
HUB_FLOOR = -1.0


# --- the reader's windows cut at the tile's own size (vision41; reader.read_tile, stages.cut_cells' tile) ---
# Teaching (learn.cut_tiles) cuts each tile's own square in its cell of the lattice on the gaps (frame_of:
# GAP_FRAME_SIZES 0.97/1.0 of the cell near the gaps' place, else FRAME_SIZES 0.90-1.0) and scales it to
# SAMPLE_PX: the exemplar. The reader cut each window at the outline's whole cell (tile and gap) at CELL_PX,
# the tile's art ~3% smaller there than in its exemplar. The squares teaching took, over the 13 seen sets'
# 78 layouts (1248 tiles, /tmp/vision41 scripts): median 0.969 of the cell (mean 0.968); per set median 1.0
# (box2, heldout, heldout2, heldout3), 0.938 (heldout4, heldout8), 0.969 (the other seven). The generator's
# test photos lay gaps of 0-8% of a tile (teaching photos 0-2.8%). On: the planet straightened so that a
# tile's square (the part READ_TILE of a cell) is CELL_PX, each window centred on its cell (FINE_PX too).
# Measured with each seen set's box learned once and its test photos read once (/tmp script, 2026-12-02/03
# UTC; base 3920, 0 wrong not doubtful): one part for every box, outline as found: 0.98 3963, 0.97 3996,
# 0.96 3978, 0.95 3995 cells, each with box2 476-478 and 3 wrong cells not doubtful (heldout8's D06 read
# for D08 in p11 at 0.552, heldout3's p09 0.503, heldout6's p16); on the gap lines (GAP_LINES_READ, the
# outline 0.999 of the true size) 0.96 3983, 0.97 4004 (bench 23:42-23:47 UTC: box2 477, heldout3 and
# heldout8 1 wrong not doubtful each). The doubt's bar re-set by its rule for these (0.1 above the surest
# wrong cell) makes 17-18% of box2's right cells doubtful, and no grid of the sureness weights (pair, match,
# fit, photo, order, hub) keeps every set under its doubt ceiling. Kept: each box's own part, the median of
# its tiles' squares as teaching cut them (Box.frame, kept per sample in box.json): box2's is 1.0, so box2
# is read as before. `python -m vision.bench -q $(cat /work/notes/seen_sets.txt)` 23:55-00:00 UTC: box2 479
# (56/479 doubtful, as before), heldout 243, heldout2 251, heldout3 458 (unchanged), heldout4 258 -> 263,
# heldout5 305 -> 308, heldout6 283 -> 286, heldout7 269 -> 292, heldout8 194 -> 220, heldout9 284,
# heldout10 289 -> 291, heldout11 304 -> 311, heldout14 303 -> 315: 3920 -> 4001; 0 wrong cells not
# doubtful and every no-planet photo refused on each; right cells doubtful the same or fewer on each but
# heldout7 (151/269 -> 165/292, 56.1% -> 56.5%; box2 56/479 as before).
# With GAP_LINES_READ as well (the same per-box part): box2 478 (one-read script): not kept.
# Speed (`-q --set=...`, on/off/on/off, load 0.9-1.7): box2 3.58x/3.65x/3.81x/3.77x a decode (its part
# 1.0: the same cut); heldout8 6.7x/10.2x/6.9x/10.3x (its readings sure sooner, fewer outlines read).
# Merged off (its branch): tests/test_vision_sets.py's floors of planets scored exactly failed with it: heldout4
# 2/20 (floor 14%: 3/20 before) and heldout10 8/20 (floor 44%: 9/20), though both read more cells (+5, +2).
# ON since stop 35, with vision42's HUB_FLOOR (the seen bench on the merge, 00:19-00:24 UTC 2026-12-03): 4001
# cells, box2 53/479 doubtful, 0 wrong not doubtful, every no-planet photo refused; planets scored over the
# 13 seen sets 146 -> 152 (four sets -1 each, five sets +1 to +3): heldout4's and heldout10's floors lowered
# by that one planet, the cells floors of the sets that gain raised.
READ_TILE_CUT = True
READ_TILE = 0.97       # READ_TILE_BOX off: the tile's part of a cell of the outline as found (the outlines ~1% small)
READ_TILE_GAPS = 0.96  # … of a cell of the outline on its gap lines (GAP_LINES_READ)
READ_TILE_BOX = True   # … on: the box's own (Box.frame: the median side of its tiles' squares as teaching cut them)


# --- issue 8's doubt bar under the tile-size cut (vision43): BOX_SURE re-set by its rule with READ_TILE_CUT and HUB_FLOOR on ---
# BOX_SURE 3.38 was set by its rule (0.1 above the surest wrong cell of the seen sets not doubtful otherwise) from
# per-cell dumps read with READ_TILE_CUT off. The same dumps on main's configuration (728d6c1: READ_TILE_CUT on,
# HUB_FLOOR -1; reader.read_photo + tell_lookalikes + confidence per cell, /tmp/vision43 scripts, not in the
# repository, 04:21-04:25 UTC 2026-12-03; they read the bench's 4001 cells and box2's 53/479 doubtful): the surest
# wrong cell per set (sureness; the cell, read as / true): heldout6 3.365 (p16 c2, D06 for D12: 2.965 with the cut
# off), heldout3 3.280 (p09 c10, C08 for C07), heldout 3.265 (p13 c4, D17 for D04), heldout8 3.232 (p02 c14, U04
# for U16), heldout9 3.217 (p19 c7, U14 for U13), heldout4 2.958, heldout10 2.659, heldout14 2.579, heldout11 2.500,
# heldout7 2.370, heldout5 2.130, box2 1.034, heldout2 0.443. The bar was 0.015 over heldout6's cell, not 0.1: by the
# rule 3.365 + 0.1 -> 3.465. Left out one set at a time (the bar 0.1 above the other twelve's surest): no left-out
# set has a wrong cell at or over its bar; the largest gap of a set's surest over the others' is heldout6's +0.085
# (the others -0.085 to -2.9), under the 0.1 margin: no thin tail. The cut moved that one cell +0.40: a change of
# the reader moves the tail more than the sets differ, so the bar is re-set by its rule after each.
# `python -m vision.bench -q $(cat /work/notes/seen_sets.txt)` 04:28-04:32 UTC 2026-12-03 (AMD EPYC, idle): cells
# unchanged on every set (4001, 152 planets scored), 0 wrong not doubtful, every no-planet photo refused; right cells
# doubtful box2 53 -> 58/479 (12.1%), heldout 48 -> 53, heldout2 71 -> 76, heldout3 157 -> 173, heldout4 138 -> 144,
# heldout5 98 -> 104, heldout6 126 -> 134, heldout7 164 -> 166, heldout8 77 -> 78, heldout9 146 -> 148, heldout10
# 136 -> 143, heldout11 94 -> 99, heldout14 76 -> 80 (1384 -> 1456), each under its ceiling (tests/test_vision_sets.py).


# --- the corners' characters' own doubt bar (vision43; reader.confidence) ---
# In the dumps above (main's configuration, BOX_SURE 3.465) box2's 58 right cells doubtful are 34 character cells
# (the corners; K04, K09, K14 runners-up) and 24 of the other stacks. Characters are told apart far more surely than
# the look-alike tiles of the other stacks: of the seen sets' wrong cells not doubtful otherwise, 20 are characters,
# the surest heldout4's p07 (2.102; then heldout11 1.544, heldout10 0.751, heldout3 0.382), against 323 of the other
# stacks up to 3.365. The rule 0.1 above the surest is not safe for so thin a tail: left out, heldout4 (2.102) is over
# the other twelve's bar (1.644). A bar made safe by its own tail: the surest wrong cell plus the largest gap of one
# set's surest over the other sets' (here heldout4's 0.558; at least 0.1): 2.102 + 0.558 = 2.66. Left out one set
# at a time (that rule on the other twelve): every left-out set's characters under its bar (heldout4 0.235 under its
# 2.337, the others 1.9-4.4 under). The same rule on the other stacks keeps BOX_SURE (their largest gap heldout6's
# 0.085 < 0.1). Reweighting the sureness's terms instead (a grid of pair, match, fit, photo, order and hub weights,
# the bar by its rule per choice) reached box2 43/479, but the weights chosen on twelve sets left the thirteenth's
# surest wrong cell over the bar when heldout3 was left out (3.864 against 3.721): not kept.
# heldout4's p07 cell 0: K13 read for K14 (runner-up test 0.44, margin 0.25); heldout11's p18 cell 15 K03 for K14.
# `python -m vision.bench -q $(cat /work/notes/seen_sets.txt)` 04:36-04:40 UTC 2026-12-03 (AMD EPYC, idle; the
# dumps read the same): cells unchanged on every set (4001, 152 planets scored), 0 wrong not doubtful, every
# no-planet photo refused; right cells doubtful (main's 3.38 -> BOX_SURE 3.465 alone -> with this) box2 53 -> 58 ->
# 38/479 (7.9%), heldout 48 -> 53 -> 50, heldout2 71 -> 76 -> 71, heldout3 157 -> 173 -> 167, heldout4 138 -> 144 ->
# 129, heldout5 98 -> 104 -> 94, heldout6 126 -> 134 -> 126, heldout7 164 -> 166 -> 152, heldout8 77 -> 78 -> 70,
# heldout9 146 -> 148 -> 142, heldout10 136 -> 143 -> 133, heldout11 94 -> 99 -> 89, heldout14 76 -> 80 -> 74
# (1384 -> 1456 -> 1335). Off: the characters' bar is BOX_SURE's. Its evidence is thin (20 wrong characters, 5 sets
# with any over 0): re-set it by the same rule whenever the reader changes, and watch the held-out sets' characters.
# Checked after, nothing set from it: three fresh sets of seen variants (`python -m vision.samples_box /tmp/... --seed
# 901/902/903 --variant D/H/K --count 20 --empty 0`, not committed; the dump, 04:59 UTC): 0 wrong cells not doubtful
# on each. Surest wrong character 2.351 (D: K08 for K01; H none, K 0.067), 0.31 under 2.66 but over the seen 2.102;
# surest wrong of the other stacks 3.416 (D: U06 for U12; H 2.438, K 3.315): under 3.465, over main's 3.38.
# OFF since stop 36, a decision taken on the held-out sets (said in that stop's note): the one held-out read with it
# on (`python -m vision.bench -q --held-out`, 05:59-06:06 UTC 2026-12-03) left 3 wrong cells not doubtful on
# heldout12 (1 at stop 35's read, with one bar of 3.38 for every cell): a looser bar for characters fitted on the
# seen art styles did not hold on a new one. With it off every cell's bar is BOX_SURE (3.465; the seen bench
# 04:28-04:32 above: box2 58/479 right cells doubtful, 12.1%).
CHARACTER_BAR = False
CHARACTER_SURE = 2.66


# --- issue 8's doubt bar on fresh sets (vision45): BOX_SURE re-set by its rule over the seen sets and 21 fresh ones ---
# The held-out read left a wrong cell not doubtful under 3.465, so the tail of wrong cells' sureness is thicker than
# the 13 seen sets show. Fresh sets of SEEN variants only, never committed: `python -m vision.samples_box
# /tmp/vision45/fSEEDV --seed S --variant V --count 20 --empty 0` with (S, V) 1001 D, 1002 E, 1003 F, 1004 G, 1005 H,
# 1006 I, 1007 J, 1008 K, 1009 L, 1010 B, 1011 C, 1012 D, 1013 H, 1014 K, 1015 E, 1016 G, 1017 F, 1018 I (07:35-08:13
# UTC 2026-12-03), with last round's three (seeds 901/902/903, variants D/H/K). Each set (the seen ones too) dumped
# per cell with `python -m vision.doubt_dump OUT.jsonl SETDIR ...` (07:36-08:14 UTC, BOX_SURE 3.465; it reproduces
# the bench's cells right, right-but-doubtful and wrong-not-doubtful on all 13 seen sets). Wrong cells not doubtful
# otherwise (by the match, an unlearned stack or a back), the surest: f1005H p20 C17 for C16 4.136, f1008K p17 U09
# for U07 4.046, f1005H p10 C17 for C16 3.994, f1017F p16 D01 for D02 3.896, f1005H p11 D06 for D14 3.861, f1015E
# p10 D09 for D07 3.751, f1013H p02 D06 for D13 3.659, f1013H p19 C17 for C16 3.568, f1005H p08 D06 for D13 3.497,
# f1009L p06 C04 for C10 3.436 (then f1006I 3.416, newD 3.416, heldout6 3.365, the seen sets' surest). None is a
# corner character (their surest 2.730, f1009L). 5 of the 21 fresh sets had 9 wrong cells not doubtful under 3.465;
# 6 of those 9 are tiles their box never learned (variant H and D sets whose teaching photo with them was not found:
# f1005H, f1013H; the unlearned-stack doubt, UNLEARNED_SIM, misses them: their match 0.84-0.94).
# The rule, bar = surest wrong + max(0.1, the largest leave-one-set-out gap) (a set's surest minus the other sets'
# surest, when positive), over the 34 sets (13 seen + 21 fresh): 4.136 + max(0.1, f1005H's +0.090) = 4.236 (the
# same without the 901-903 sets). Left out one set at a time (the rule on the other 33): every left-out set's wrong
# cells under its bar (f1005H 4.136 < 4.196, f1008K 4.046 < 4.377). With only cells whose true tile was taught the
# rule gives 4.196, and left out f1008K (4.046) is over the others' bar (4.041): not safe by a hair.
# Cost, right cells doubtful at 3.465 -> 4.236 (the dumps; look_again and learning also use the bar): box2 58 ->
# 167/479 (34.9%, over the 15% of the house rules), seen total 1456 -> 2398/4001, all 34 sets 3803 -> 5999/9568.
# A sureness this bar trusts is a cell's sureness over the 34 sets' surest wrong; no cheaper re-weighting of the
# sureness's terms held left out one set (the note of the round).
# `python -m vision.bench -q $(cat /work/notes/seen_sets.txt)` 08:14-08:19 UTC 2026-12-03 (load about 1): cells
# unchanged on every set (4001, 152 planets scored), 0 wrong not doubtful, every no-planet photo refused; right cells
# doubtful exactly as the dumps said: box2 167/479, heldout 120, heldout2 146, heldout3 310, heldout4 190, heldout5
# 172, heldout6 208, heldout7 226, heldout8 122, heldout9 211, heldout10 194, heldout11 178, heldout14 154 (2398), every
# set over its ceiling in tests/test_vision_sets.py, and four doubt tests whose planets were made for the old bar fail.
# Slower too: more doubtful cells send more photos to look_again: box2 `--set=box2 -q` 08:31 UTC, median 3.8x ->
# 4.8x a decode (62 -> 83 ms), over issue 8's 4x. Not for merging as it stands: the measurement of what safety costs.
# The lead's decision on it (stop 37): BOX_SURE 4.236 is the doubt the player sees (SPEC: every cell that may be wrong
# is doubtful; issue 8: 0 wrong cells not doubtful, on material no bar was fitted to). The reader's own uses of the bar
# keep the one they were measured with, LOOK_SURE: which cells the second look takes (reader.look_again, in a photo
# with SECOND_LOOK_MANY such cells) and which cells teaching counts sure when it checks for a layout photographed
# twice (learn.check_layout). So every reading is what it was at 3.465, cell by cell, at the same speed (vision45's
# 3.8x -> 4.8x a decode came from the second look taking more photos), and only the doubt shown is raised.
LOOK_SURE = 3.465

# --- a taught tile's picture as if lit evenly (stages.even_light; reader.exemplars_of; stop 44) ---
# Seed 33 of the second box (`python -m vision.samples_box DIR --seed 33 --count 30 --empty 4`, seen) taught
# its first layout half under a hand's soft shadow, whose edge crossed U02; U01 differs from U02 in a small
# part. Every test photo's U02 matched its picture at 0.57-0.65 and U01's at 0.75-0.90, and all four read it
# as U01 (p30's not doubtful, at 0.50). Each picture is now divided by its light before the reader uses it
# (Land's and Horn's retinex at EVEN_PX: the log brightness's gradients under EVEN_TAU per pixel are the
# light's, integrated by a Poisson solve, then blurred by EVEN_SMOOTH of the side so that the art's soft
# stripes stay): U02's cells then match it at 0.83-0.91 and seed 33 reads 480/480. One bench each
# (`python -m vision.bench -q`, 12:36-12:41 UTC 2026-12-04, against stop 43's 07:45 run): box2 480/480 and
# 30/30 as before (163 -> 170/480 right cells doubtful); the 12 other seen sets 3546 -> 3576/3872 cells, 137 ->
# 140 planets scored (heldout3 460 -> 471, heldout4 267 -> 276, heldout7 293 -> 299; worse heldout14 315 -> 312,
# heldout8 217 -> 215, heldout10 293 -> 292), right cells doubtful 2234 -> 2334, 0 wrong not doubtful on each;
# the shipped art the same (its reader is another). The second box's fresh seeds, each learned from its own
# six teaching photos, off -> on: 31 / 32 / 33 (seen) 479 / 478 / 475 -> 478 / 479 / 480 cells; 34 / 35 (read
# before, totals only) 479 / 479 -> 479 / 478; 36 / 37 (made this stop, totals only, read once each way)
# 480 / 478 -> 480 / 479, 30 / 28 -> 30 / 29 planets scored. Tried: EVEN_TAU 0.04 without the blur (box2
# 478, the 12 3525: the art's soft stripes taken out with the light); 0.025 without it (heldout5 295,
# heldout14 302, seed 32 475); EVEN_SMOOTH 0.15 (heldout3 462, seed 32 476); evening only pictures whose light
# spreads over 25% (heldout3 466, heldout14 301); pictures registered as taught and evened after, the blend's
# views of them as taught (the 12 3565; seeds 33 476, 35 477). heldout8 and heldout10 now choose the match
# alone (descriptors.choose_blend; the hog at 2 before), where most right cells turned doubtful. Evening the 96 pictures of a box costs ~0.12 s when its
# exemplars are built (once per box, and at each teaching photo); a reading costs the same as before.
EVEN_LIGHT = True
EVEN_PX = 128          # the light worked out at this side (the box's pictures are 128 px)
EVEN_BLUR = 1.5        # px there: noise and JPEG blurred out of the gradients first
EVEN_FLOOR = 8.0       # log(brightness + this), as light_free's floor for edges
EVEN_TAU = 0.025       # a gradient of the log brightness under this per pixel is the light's
EVEN_SMOOTH = 0.1      # the light then blurred by this part of the side

# --- a planet's outline nudged while it reads better (reader.nudged; stop 51) ---
# Fresh seeds 166-181 of the second box (read once at stop 50, seen since): 29 of their 32 wrong cells lay
# on the smallest quarter of planets, read through outlines 0.2-0.5 of a cell off the truth (a small planet's
# gaps are a pixel or two; its dark corners on a dark table). Read through the truth's outline the same
# photos read every cell, at a higher score (seed 173's p17: 1.41 -> 1.81), so the score says where the planet
# lies better than the refit from tile centres does. A planet read less surely than NUDGE_BELOW is read again
# through its outline moved in its own lattice (a shift across or down, a scale, a turn; NUDGE_STEP of a cell
# first, halved when none reads better, down to NUDGE_FINEST), each move kept while the score gains over
# NUDGE_GAIN, NUDGE_READS reads at most. Measured per photo, read_box off and on (/work/notes/s51/nudge_data.py,
# outside the repository; the 13 seen sets and fresh seeds 153, 173, 176, 177, all seen; 392 planets):
# - every outline nudged that read more cells right had moved 0.20-0.49 of a cell (8 planets, +27 cells);
#   every one that read fewer had moved 0.06-0.15 (19 planets on art read poorly, heldout4/6/7/8/10: a
#   loose tile's score is flat over a tenth of a cell), hence NUDGE_MOVE: nudged less, the reading as it was;
# - no gain at the first two steps (16 reads) ends the nudge: the first step alone gave up on seed 176's
#   p04, whose outline moved 0.49 of a cell from the second step on;
# - with both: 5976 -> 6003 cells, no planet reads fewer, 0 wrong cells not doubtful; 132 of the 392 read
#   under 1.7; the nudge costs 0 ms on box2 (every planet read over 1.7) and 16-360 ms a photo on the sets
#   of art read poorly (two runs side by side on 2 vCPUs).
# - 18 fresh sets of the seen variants made for this stop (seeds 8001-8018, B-L; seen since): 5146 -> 5151
#   cells, 210 -> 212 planets, 0 wrong not doubtful either way; but their median reading 110 -> 407 ms
#   (C), 118 -> 399 (I), 135 -> 471 (K): on art read poorly most planets read under 1.7.
# - Hence NUDGE_SMALL: every planet the nudge read better was 0.23-0.31 of the photo's short side (stop 50:
#   29 of 32 wrong cells on planets of 0.37 or less), and a quarter of all planets is under 0.34. Only
#   those under 0.4 are nudged: the same gains (seeds 173/176/177/153 479/479/480/479, heldout9 291,
#   heldout14 315), the three sets above 151, 142 and 276 ms (beside another run).
NUDGE = True
NUDGE_BELOW = 1.7
NUDGE_STEP = 0.25
NUDGE_FINEST = 0.0625
NUDGE_GAIN = 0.005
NUDGE_READS = 48
NUDGE_MOVE = 0.2
NUDGE_SMALL = 0.4


# --- issue 8's middle-apart round (stop 52): a layout whose middle looks like the table ---
# learn._few_on_table: fresh seed 191's t02 (a green planet on a green gingham, stop 51) was not
# found: its best candidate lay 0.06 of a cell off the truth, straight (3.95), but three cells (two
# of the left column, one of the middle four) looked like the table, against LEARN_TABLE_CELLS 2.
# Measured on the 1270 seen teaching photos with the generator's corners (the 13 seen sample sets
# and 243 fresh sets, /work/notes/s52/table_patterns.py): a lattice a cell off the truth's (10160 of
# them, with and without the table beside looked at) has its cells on the table in the outer twelve
# (the row or column moved onto the table); counted apart, at most LEARN_TABLE_CELLS of the outer
# twelve and of the middle four, none of them is let in that was not before, and the truth's
# lattices of seed 191's t02 and fresh seed 129's t05 (two of the middle on the table) are. Then
# find_layout on the same 1270 photos (/work/notes/s52/apart_eval.py): seed 191's t02 found (0.06
# of a cell off), no other layout changed; of their 568 no-planet photos none newly found.
LEARN_MIDDLE_APART = True

# learn._straight_both_ways: fresh set f9043G's n04 (seeds 9001-9044, teaching photos and no-planet
# photos of variants A-L, made this stop: /work/notes/s52/gen52.sh), shapes on a wood grain under a
# lamp with no planet, was found as a layout: a lattice whose rows lay along the grain (2.1-4.6)
# and whose columns crossed it (0.19-0.68; median of the ten 1.40, over LEARN_STRAIGHT). Through
# the generator's corners, the 1788 teaching layouts of the 300 seen sets (/work/notes/s52/
# line_stats.py, line_summary.py) have their rows' and their columns' medians each 0.84 or more
# (faces; backs 0.87); that photo's columns 0.26. The bar sits between. With it, find_layout on
# the 1800 teaching photos and 744 no-planet photos of those sets (/work/notes/s52/found_stats.py,
# found_compare.py): f9043G's n04 refused, no layout changed.
LEARN_BOTH_WAYS = 0.5

# learn._sides_onto_layout: a fitted teaching layout may have one side part of a cell off the
# layout's, onto the table, and be taught so, its tiles cut across (fresh set f9143G's t01: 0.65 of
# a cell off; fitting, a corner a small step at a time, stops there). Its sides are moved, top and
# bottom together, then left and right, over offsets up to LEARN_SIDES_REACH of a cell,
# LEARN_SIDES_STEP apart, LEARN_SIDES_PASSES times, each time to the straightest lattice whose
# weakest line is no weaker; taken when LEARN_SIDES_GAIN times straighter. Set on every seen
# teaching set (344 sets, 2064 photos, 2017 layouts found with true corners; /work/notes/s53/
# side_moves.py, gate_sim.py, which leave out the bars): a reach of a whole cell moved 25 layouts found right a cell off (a lattice of
# 3 cells in 4 rows, or of half cells, has most lines straighter); 0.7 none. Taking the moved
# lattice fitted again undid half the gains. With a gain of 1.5, through find_layout (/work/notes/
# s53/found_stats.py, fs_compare.py): layouts 0.5 of a cell or more off 13 -> 7, 0.25 or more
# 95 -> 82; 36 nearer the truth, 15 farther, all but one of those moved under 0.25 of a cell
# (move_dist.py): a move that
# small swaps one lattice near the layout for another (each tile is cut where it lies either way),
# and on the second box's own art the straightest lattice lies about 0.1 of a cell off the truth.
# So a move is taken when a corner moves LEARN_SIDES_LEAST of a cell or more: 0.5 of a cell or more
# off 13 -> 7, 0.25 or more 95 -> 91; 15 nearer the truth (by 0.08-0.55 of a cell), 1 farther
# (seed 143's t04, 0.10 -> 0.28), none other changed. Without the weakest-line bar (through
# find_layout, with LEARN_SIDES_LEAST): 13 -> 9, 15 nearer, 6 farther.
LEARN_SIDES = True
LEARN_SIDES_REACH = 0.7
LEARN_SIDES_STEP = 0.1
LEARN_SIDES_PASSES = 2
LEARN_SIDES_GAIN = 1.5
LEARN_SIDES_LEAST = 0.25

# reader.look_searched (vision/searched.py; stop 54): in a photo with SEARCH_MANY doubtful face cells
# or more (as look_again's SECOND_LOOK_MANY), each doubtful face cell and its SEARCH_TILES likeliest
# tiles of other contents compared at SEARCH_PX: the grey blurred by SEARCH_BLUR[0] of a tile less
# its blur by SEARCH_BLUR[1], each picture over SEARCH_ZOOMS x SEARCH_TURNS and every shift in the
# cell's pad (at half size, then the SEARCH_KEEP best again at full size); the cell takes the best
# when it beats its own tile by more than SEARCH_BEAT. Measured on dev sets only: fresh sets of
# variants B-L, seeds 9301-9311 (20 planets each, made this stop), and box2; /work/notes/s54/*.py.
# - Why: at the first classify, the match ranks the true contents first for 68-70% of the face cells
#   of 9304 (E) and 9308 (I); plain grey NCC at 48 px 55-63%; at 128 px from the decode, searched
#   over zooms 0.8-1.04 and turns +-4: 72-89%; the same at one zoom and no turn 52-61%: the search,
#   not the resolution, makes the gain (alt_eval.py). Best zooms 0.82-1.06 of the cell, turns -6..6.
# - What compares: thin dark strokes (black-hat, 15/128 of a tile) gained on line art and lost on
#   filled art (box2 -3 cells, C -5, H -4 at a beat of 0.05; net +42 over the 12 sets); the grey
#   detail gained on all but one (C -1) with box2 unchanged: net +118 at a beat of 0.02, 6 tiles (rules.py).
# - SEARCH_BEAT (fixed / broken cells over the 12 sets, SEARCH_TILES 8): 0.01 158/28 (box2 -1),
#   0.015 148/15, 0.02 139/10, 0.03 113/5 (at SEARCH_TILES 6: 0.04 85/1); 0.02 keeps box2 as it was.
# - SEARCH_TILES: 6 +118 net, 8 +129 net (of the cells the stage sees wrong, 241 have the right
#   contents among their 8). Cost on 9308: the stage's median 0.166 s (6) -> 0.220 s (8) a photo.
# - SEARCH_KEEP 2: the same decisions as every zoom and turn at full size (128 fixed, 10 broken both).
# - SEARCH_MANY 4 (every doubtful face cell logged, full_log2.py, many.py): photos with 1-3 of them
#   would add 5 fixed and 1 broken; 4-5 give 6 fixed, 1 broken; 6 or more 133 fixed, 9 broken.
# - Cost (alternated, idle, dev_bench.py, 17:22-17:24 UTC 2026-12-05): box2 3.7x a decode with the
#   stage and without (no box2 photo changes); box2-heldout8 7.7x -> 23.4x (218 -> 232 cells).
# - Not kept: searching only round where the match found the tile (slack 0.1 / 0.18 of a tile):
#   +99 / +110 net (6 tiles: against +118) for 0.086 / 0.109 s. Searching the other tiles only at the 3 best zooms and turns of
#   the cell's own tile and the likeliest other (the tile lies one way whichever it is): +119 net
#   (10 fewer fixed, as many broken) for 0.124 s (/work/notes/s54/searched_poses.py).
SEARCH_LOOK = True
SEARCH_PX = 128
SEARCH_BLUR = (1.5 / 128, 8 / 128)
SEARCH_ZOOMS = (0.76, 0.82, 0.88, 0.94, 1.0, 1.06)
SEARCH_TURNS = (-6, -3, 0, 3, 6)
SEARCH_KEEP = 2
SEARCH_TILES = 8
SEARCH_MANY = 4
SEARCH_BEAT = 0.02
# The search look's score, block by block (searched.by_blocks; stop 59): each picture at its best
# zoom, turn and place cut into SEARCH_BLOCKS x SEARCH_BLOCKS blocks, each block's correlation at
# its best within SEARCH_BLOCK_SHIFT of a tile (4 px at SEARCH_PX), weighted by the block's spread;
# the score SEARCH_WHOLE_PART of the whole picture's correlation, the rest the blocks'; a cell
# takes a tile that beats its own by more than SEARCH_BLOCKS_BEAT. Measured on dev sets only (fresh
# sets 9301-9311 and 9321-9331, variants B-L; variant H's 9361-9364 and 9380-9383; the seen sets box2,
# heldout-heldout11, heldout14); /work/notes/s59/*.py:
# - Why: at the generator's true corners, of every face cell of 8 photos each, the tile of the 8
#   the whole-picture search ranks highest that the blocks alone rank first (ceil_block2.py): 9308
#   (I) 0.743 -> 0.903, 9328 (I) 0.727 -> 0.891, 9326 0.832 -> 0.992, 9311 (L) 0.894 -> 0.973; 9307
#   and 9327 (H) 0.965 -> 0.956 and 0.964 -> 0.936; the blocks unweighted 0.81-0.95 where weighted
#   0.89-0.99. At full resolution instead of the decode's: within 0.02 (the decode's resolution is
#   not the limit; cutting the search look's cells from a finer decode read 9328 242 -> 241/320).
# - Every doubtful face cell the stage weighs, logged (full_log3.py; 3175 cells of the 22 dev sets
#   B-L, 1662 of the seen sets, 1411 of the 8 H sets), fixed/broken (blend.py): the whole picture
#   at SEARCH_BEAT 0.02 (stop 54) 288/45, 106/11, 97/11; the blocks alone at 0.02 354/15, 139/5,
#   82/37 (variant H worse: dim, filled art; its blocks' correlations are noise-led); half each at
#   0.01 383/41, 145/6, 106/21 (net +342, +139, +85 against +243, +95, +86); half each at 0.02
#   329/21, 126/4, 95/13; a quarter whole at 0.01 404/23, 149/8, 102/33; the blocks only where the
#   whole picture does not rank the cell's own tile higher 366/14, 137/7, 91/13. No box2 cell
#   changes in any of them. By set, half each at 0.01 against the whole picture (perset.py):
#   9328 +4 -> +42, 9308 +17 -> +44, heldout8 +14 -> +46; worse on 9362 (H) +8 -> +1, 9327 (H)
#   +9 -> +5, heldout7 +12 -> +10, 9383 (H) +11 -> +9.
# - SEARCH_BLOCKS and SEARCH_BLOCK_SHIFT (grid.txt: 9304, 9307, 9308, 9310, 9326, 9327, 9328 at the
#   true corners, blocks alone; the whole picture 0.864 of their face cells): 4 blocks 0.937 (3 px
#   0.934, 6 px 0.938), 3 blocks 0.943, 5 blocks 0.908. 4 kept: 3 is within 5 cells of 800.
SEARCH_BY_BLOCKS = True
SEARCH_BLOCKS = 4
SEARCH_WHOLE_PART = 0.5
SEARCH_BLOCKS_BEAT = 0.01
SEARCH_BLOCK_SHIFT = 4 / 128
# The picker's likely tiles of a cell the search look compared (reader.likely_of; stop 64): the
# SEARCH_PICKER_FIRST tiles it ranked best (other than the tile read) first, the rest by what orders
# the tiles (0: all so, as before). No reading's tiles or doubt changes. Set on the 13 seen sets'
# 126 wrong cells (/work/notes/s64/fusion.py on `vision.bench --readings` before and after), the right
# tile first / in the picker's first row (of 4) / among its first 2: the match's order alone 39 / 70
# / 55; the search's whole ranking first 47 / 68 / 56; its best 1 first 49 / 71 / 63; its best 2 47 /
# 71 / 56; its best 3 47 / 74 / 56; the two interleaved 48 / 74 / 61; their ranks added 41 / 70 / 56.
# The search ranks its best tile better than the match does (stop 54: 72-89% against 68-70% of face
# cells first) and the rest no better: its best alone is taken.
SEARCH_PICKER_FIRST = 1
# Each block weighted by its picture's spread (True) or all alike (stop 60: settled on dev sets).
# Read photo by photo both ways under the half-and-half score (/work/notes/s59/wscan.py, boxes
# learned as the bench learns them; 45 dev sets: fresh 9321-9331, 9361-9368, 9380-9383 and
# 9586-9607): the blocks alike read 9 cells fewer in all, over the 105 photos that read differently. By art:
# line-drawn I reads more alike (9604 +12, 9593 +7, 9328 +6), H fewer (9361 -7, 9363 -6, 9362 and
# 9364 -3) and E fewer (9589 -8, 9600 -5). Seen: heldout8 (I) +8, heldout4 (E) -7 (p19 16 -> 13),
# heldout7 (H) -1. The weights kept; tests/test_vision_searched.py pins heldout4's p19.
SEARCH_BLOCKS_BY_SPREAD = True
