"""The reader's windows cut at the tile's own size (vision41: ``stages.cut_cells``' ``tile``,
``reader.read_tile``, ``Box.frame``): a tile's square fills ``size`` px of its window, centred on
its cell; the lattice refitted through centred tiles is the outline cut; a box keeps its frames."""
from __future__ import annotations

import numpy as np

from vision import tuning
from vision.box import Box, Sample, box_from_bytes, load_box
from vision.stages import Aligned, Outline, Photo, cut_cells, refit_outline


def _planet(t: int = 60, gap: int = 4, margin: int = 40) -> tuple[np.ndarray, np.ndarray]:
    """A flat planet: 16 tiles of side ``t`` px (each a colour of its own, a black gap of ``gap``
    px round it, half a gap outside the outer ones) on grey; and its outline on the gap lattice."""
    pitch = t + gap
    img = np.full((2 * margin + 4 * pitch, 2 * margin + 4 * pitch, 3), 128, np.uint8)
    img[margin:margin + 4 * pitch, margin:margin + 4 * pitch] = 0
    for q in range(16):
        r, c = divmod(q, 4)
        y, x = margin + r * pitch + gap // 2, margin + c * pitch + gap // 2
        img[y:y + t, x:x + t] = (40 + 12 * q, 255 - 10 * q, 90 + 5 * q)
    lo, hi = margin, margin + 4 * pitch
    return img, np.float32([[lo, lo], [hi, lo], [hi, hi], [lo, hi]])


def test_a_tile_fills_its_window_at_its_own_size():
    img, corners = _planet()
    photo, outline, size = Photo(img, 1.0), Outline(corners, 1.0), 48
    cells = cut_cells(photo, outline, 0, size=size, tile=60 / 64)
    pad = cells.pad
    for q in range(16):
        win = cells.windows[q].astype(int)
        colour = win[pad + size // 2, pad + size // 2]
        inner = win[pad + 1:pad + size - 1, pad + 1:pad + size - 1]
        assert np.abs(inner - colour).max() <= 2                      # the tile's square fills it …
        ring = [win[pad - 1, pad + size // 2], win[pad + size, pad + size // 2],
                win[pad + size // 2, pad - 1], win[pad + size // 2, pad + size]]
        assert all(int(v.max()) < 20 for v in ring)                  # … and the gap lies just outside
    whole = cut_cells(photo, outline, 0, size=size)                   # the cell as before: tile and gap
    assert whole.pitch == 0.0 and cells.pitch == size / (60 / 64)


def test_the_lattice_through_centred_tiles_is_the_outline_cut():
    img, corners = _planet()
    photo, outline = Photo(img, 1.0), Outline(corners, 1.0)
    cells = cut_cells(photo, outline, 0, tile=0.9)
    middle = cells.pad + tuning.CELL_PX / 2
    aligned = Aligned(np.zeros((16, 1, 1, 3), np.float32), np.ones(16, np.float32), np.full((16, 2), middle, np.float32))
    again = refit_outline(outline, cells, aligned)
    assert again is not None and np.abs(again.corners - corners).max() < 0.5


def test_a_box_keeps_its_tiles_frames(tmp_path):
    png = b"\x89PNG"
    box = Box().add([Sample("C01", 0, png, 0.9688), Sample("C02", 1, png, 0.9375), Sample("back", 5, png)])
    assert box.frame() == 0.9688
    box.save(tmp_path)
    assert load_box(tmp_path).frame() == 0.9688
    again = box_from_bytes(box.to_bytes())
    assert again.samples["C02"].frame == 0.9375 and again.samples["back-5"].frame == 1.0
    assert Box().frame() == 1.0
