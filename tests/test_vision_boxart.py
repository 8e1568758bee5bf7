"""The second box's art (``vision.boxart``): every drawing a player can read.

A test photo is only fair when the tiles in it can be told apart by their contents: two tiles of a
stack with other contents must not print alike, or no reader (and no player) can say which one
lies there, and a wrong reading of them says nothing about the reader."""
from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from scorer.catalog import catalog
from vision.boxart import tile_image

# Pixels of a 256-px drawing whose colour moves by more than this (of 255, any channel) count as
# differing: more than JPEG's noise, less than one ink on another.
INK_STEP = 40
# The fewest differing pixels between two tiles of a stack with other contents. Measured over all
# 17 art styles at stop 60 (`/work/notes/s60`): with colour to tell the sheep apart, 654 (E's
# D14/D15) to 2482 (Q's U01/U02) at the least; a grey sheep told from a white one by its hole
# alone, 419-520 (C14/C15 in E, H, I, J). Before that, C14 and C15 printed the same to the pixel
# in those four (0).
FEWEST = 250


@pytest.mark.parametrize("variant", ["E", "H", "I", "J", "K"])
def test_tiles_of_other_contents_never_print_alike(variant):
    """E, H, I and J print their items in one ink (a badge's stamp, a glyph, a line drawing, a
    risograph's offset), so a sheep's wool colour cannot show; K came next, its grey and white
    sheep told apart by 782 pixels. In each, every two tiles of a stack with other contents
    differ in at least ``FEWEST`` pixels."""
    tiles = catalog().tiles
    drawn = {tile_id: np.asarray(tile_image(tile_id, variant).convert("RGB"), np.int16) for tile_id in tiles}
    alike = []
    for a, b in combinations(sorted(tiles), 2):
        if tiles[a].stack != tiles[b].stack or tiles[a].items == tiles[b].items and tiles[a].character == tiles[b].character:
            continue
        differing = int((np.abs(drawn[a] - drawn[b]).max(axis=2) > INK_STEP).sum())
        if differing < FEWEST:
            alike.append((a, b, differing))
    assert not alike, alike
