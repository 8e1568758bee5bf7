"""Where tiles lie on a planet, as the reader needs it (positions from SPEC §1).

``TURNS[p]``: how many quarter turns clockwise a tile at position ``p`` is turned when tiles face
outwards round the planet (a real box: the rim of every edge and corner tile faces out). Going
clockwise round the planet each position of a stack is one more quarter turn than the one before:
characters 0 → 3 → 15 → 12, uphill 1 → 7 → 14 → 8, downhill 2 → 11 → 13 → 4, centers
5 → 6 → 10 → 9. The shipped art lies upright everywhere (``UPRIGHT``).
"""
from __future__ import annotations

RING = {
    "character": (0, 3, 15, 12),
    "uphill": (1, 7, 14, 8),
    "downhill": (2, 11, 13, 4),
    "center": (5, 6, 10, 9),
}
STACK_AT = {p: s for s, ps in RING.items() for p in ps}
TURNS = {p: i for ps in RING.values() for i, p in enumerate(ps)}
UPRIGHT = {p: 0 for p in range(16)}
