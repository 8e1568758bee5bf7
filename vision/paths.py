"""Where the shipped reference art lives (kept apart so no module needs ``vision/__init__``)."""
from __future__ import annotations

from pathlib import Path

REFERENCE_DIR = Path(__file__).with_name("reference")


def reference_path(tile_id: str) -> Path:
    """The reference image of a tile id (``"C07"``) or of the tile back (``"back"``)."""
    return REFERENCE_DIR / f"{tile_id}.png"
