"""The box plan: the six layouts that teach the app a whole box (SPEC §2 "Teaching the app a real
box"). Five planets use all 80 tiles exactly (each: 4 characters at the corners, 4 centers,
4 uphill and 4 downhill edges), and one layout shows 16 tiles face down (backs may differ by
stack, so each position shows the back of its own stack)."""
from __future__ import annotations

from .layout import RING

PLANETS = 5


def teaching_plan() -> list[dict]:
    """Six planet grids (SPEC §2): planets 1–5, then the face-down layout."""
    from scorer.catalog import catalog
    cat = catalog()
    grids = []
    for i in range(PLANETS):
        cells = [None] * 16
        for stack, positions in RING.items():
            ids = sorted(t.id for t in cat.stack(stack))[i * 4:(i + 1) * 4]
            for p, tile_id in zip(positions, ids):
                cells[p] = tile_id
        grids.append({"cells": [cells[r * 4:r * 4 + 4] for r in range(4)]})
    grids.append({"cells": [["back"] * 4 for _ in range(4)]})
    return grids
