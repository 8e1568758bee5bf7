"""Where the planet may be in a photo, without knowing its art: candidate outlines from masks of
"not the table" (local colour and texture unlike the photo's border, colour, edges, saturation).
Used by the shipped-art reader, the learned-box reader and teaching (vision/stages.py)."""
from __future__ import annotations

from collections.abc import Iterator

import cv2
import numpy as np

from . import tuning


def _largest_blob(mask: np.ndarray, min_frac: float = 0.008, beside: list | None = None):
    # BBDT: the same labels as the default algorithm, in about half the time here (2184 masks of
    # the sample photos at 512 and 320 px, tests/test_vision_paths.py); the labels only, each
    # blob's area counted apart: OpenCV's stats (every blob's box and centroid too) cost 2-3x the
    # labelling itself (0.7 -> 0.3 ms a 512-px mask, speed round 4). The labels in 16 bits where
    # they fit (the 8-connected blobs of an h×w mask number at most ⌈h/2⌉·⌈w/2⌉, one per 2×2
    # block). The areas by np.bincount (numpy 2 counts 16-bit labels without widening them:
    # 0.29 ms a 512-px mask against cv2.calcHist's 0.43, speed round 6), and a mask of one blob
    # (about half of them) not counted at all: its area is the mask's count of set pixels
    small = ((mask.shape[0] + 1) // 2) * ((mask.shape[1] + 1) // 2) < (1 << 16) - 1
    n, labels = cv2.connectedComponentsWithAlgorithm(mask, 8, cv2.CV_16U if small else cv2.CV_32S, cv2.CCL_BBDT)
    if n <= 1:
        return None
    areas = np.array([cv2.countNonZero(mask)]) if n == 2 else np.bincount(labels.reshape(-1), minlength=n)[1:]
    i = int(np.argmax(areas)) + 1
    if areas[i - 1] < min_frac * mask.size:
        return None
    if beside is not None and n > 2:
        # the next largest blob, when it is about as large: another planet on the table (``BESIDE_LOOK``)
        largest, others = areas[i - 1], areas.copy()
        others[i - 1] = 0
        j = int(np.argmax(others)) + 1
        if others[j - 1] >= tuning.BESIDE_BLOB * largest:
            beside.append(cv2.compare(labels, j, cv2.CMP_EQ))
    return cv2.compare(labels, i, cv2.CMP_EQ)   # 255 on the blob, 0 elsewhere


def _order(quad: np.ndarray) -> np.ndarray:
    """Corners in clockwise order (image coordinates, y down), starting top-left-most."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    c = q.mean(axis=0)
    ang = np.arctan2(q[:, 1] - c[1], q[:, 0] - c[0])
    q = q[np.argsort(ang)]  # increasing angle = clockwise on screen
    start = int(np.argmin(q.sum(axis=1)))
    return np.roll(q, -start, axis=0)


def _quads_from_mask(mask: np.ndarray, trim: float = 0.0, beside: list | None = None,
                     blobs: list | None = None) -> list:
    """The outlines of the mask's largest blob (``_quads_of_contours``). ``trim``: the blob first
    opened by a disc of this part of the square root of its area (``trimmed``). ``beside``: where
    the outlines of the next largest blob go, when it is nearly as large (``BESIDE_BLOB``: another
    planet on the table, ``reader.read_photo``'s beside look). ``blobs``: where the largest blob
    goes, as found (not trimmed; None: none), for the beside look's joined planets."""
    seconds: list | None = [] if beside is not None and not trim else None
    blob = _largest_blob(mask, beside=seconds)
    if blobs is not None:
        blobs.append(blob)
    if blob is None:
        return []
    for second in seconds or ():
        beside.extend(blob_quads(second))
    if trim:
        blob = trimmed(blob, trim)
        if blob is None:
            return []
    return blob_quads(blob)


def blob_quads(blob: np.ndarray) -> list:
    """The outlines of a blob (255 on it, 0 elsewhere): ``_quads_of_contours`` of its contours."""
    # the blob's outer contour only (RETR_EXTERNAL): its holes, which findContours tells by the same
    # rule as a 4-connected flood fill of the background, change nothing, so they are not filled
    # first (the same contours on all 2,360 masks of the shipped and seen sets' photos, speed round 6;
    # tests/test_vision_paths.py)
    return _quads_of_contours(cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0])


def trimmed(blob: np.ndarray, trim: float, beside: list | None = None) -> np.ndarray | None:
    """A blob with what hangs off it taken away: opened by a disc of ``trim`` times the square
    root of its area, and the largest blob left (None: nothing left). A planet whose blob a strip
    of the table joins (a shadow, a fold or a stripe of cloth unlike the photo's border) keeps its
    square body: a strip narrower than the disc goes. ``beside``: where the next largest blob left
    goes, when it is nearly as large (``BESIDE_BLOB``: two planets the strip joined)."""
    k = max(3, int(trim * np.sqrt(cv2.countNonZero(blob)))) | 1
    opened = cv2.morphologyEx(blob, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    return _largest_blob(opened, beside=beside)


def _quads_of_contours(cnts) -> list:
    """The outlines of a blob's outer contours (the largest): the first 4-cornered simplification
    of its hull, and its least box."""
    if not cnts:
        return []
    cnt = max(cnts, key=cv2.contourArea)
    hull = cv2.convexHull(cnt)
    out = []
    peri = cv2.arcLength(hull, True)
    for eps in (0.02, 0.04, 0.06, 0.09, 0.12):
        ap = cv2.approxPolyDP(hull, eps * peri, True)
        if len(ap) == 4:
            out.append(_order(ap))
            break
    box = cv2.boxPoints(cv2.minAreaRect(cnt))
    out.append(_order(box))
    return out


def _block_means(lab: np.ndarray, win: int, ys: np.ndarray, xs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``cv2.blur(f, (win, win))`` and ``cv2.blur(f * f, (win, win))`` of ``f = lab.astype(np.float32)``
    at the blocks' centres (rows ``ys``, columns ``xs``), float32. For a uint8 picture cv2.blur
    gives float32(window sum × 1/win²) with the sum exact (whole numbers in double), so the sums
    are taken in integers (cv2.boxFilter, sqrBoxFilter; the same border) and scaled at the
    centres only: the same floats, without two float blurs of the whole picture (speed round 4)."""
    if lab.dtype != np.uint8 or win > 181:   # (win² × 255² in int32 sums up to 181)
        f = lab.astype(np.float32)
        return cv2.blur(f, (win, win))[ys][:, xs], cv2.blur(f * f, (win, win))[ys][:, xs]
    at = (ys[:, None], xs[None, :])
    scale = 1.0 / (win * win)
    m = cv2.boxFilter(lab, cv2.CV_32S, (win, win), normalize=False)[at] * scale
    sq = cv2.sqrBoxFilter(lab, cv2.CV_64F, (win, win), normalize=False)[at] * scale
    return m.astype(np.float32), sq.astype(np.float32)


def _texture_mask(lab: np.ndarray) -> np.ndarray:
    """Not the table, by local colour *and* texture: each small block is described by its mean
    and spread of colour, and is table when some block of the photo's border looks like it
    (nearest neighbour, so checked cloth, wood grain and noise all count as table)."""
    h, w = lab.shape[:2]
    grid, step = block_grid(lab)
    gy, gx = grid.shape[:2]
    border = np.zeros((gy, gx), bool)
    b = max(1, int(round(0.04 * min(h, w) / step)))
    border[:b] = border[-b:] = True
    border[:, :b] = border[:, -b:] = True
    dist = table_distance(grid, grid[border])
    inb = dist[border]
    p90 = float(np.percentile(inb, 90))
    k = max(3, int(0.03 * min(h, w))) | 1
    el = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    masks = []
    for thr in table_bars(p90):
        small = (dist > thr).astype(np.uint8) * 255
        mask = cv2.resize(small, (w, h), interpolation=cv2.INTER_NEAREST)
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, el)
        masks.append(cv2.morphologyEx(mask, cv2.MORPH_OPEN, el))
    return masks


def block_grid(lab: np.ndarray) -> tuple[np.ndarray, int]:
    """Each small block of ``lab`` (a side of 1/32 of the short side, centres ``step`` apart from
    ``step // 2``) described by its mean and spread of colour, light counting less: (gy, gx, 6), step."""
    h, w = lab.shape[:2]
    win = max(5, int(min(h, w) / 32)) | 1
    step = max(2, int(win * 0.75))
    ys = np.arange(step // 2, h, step)
    xs = np.arange(step // 2, w, step)
    m, sq = _block_means(lab, win, ys, xs)   # each block's mean and mean square, at its centre
    sd = np.sqrt(np.maximum(sq - m * m, 0))
    grid = np.concatenate([
        m[..., :1] * 0.35, m[..., 1:3],                       # light counts less than colour
        sd[..., :1] * 0.7, sd[..., 1:3] * 0.7,
    ], axis=2)                                                # (gy, gx, 6)
    return grid, step


TABLE_ROWS = 128   # blocks whose distances table_distance takes at once (128 × 600 float32: 300 KB)


def table_distance(grid: np.ndarray, table: np.ndarray) -> np.ndarray:
    """How unlike the table each block of ``grid`` (``block_grid``) is: its distance to the 3rd
    nearest of the table's blocks ``table`` (n, 6; at most 600 of them, evenly taken), (gy, gx)."""
    gy, gx = grid.shape[:2]
    bf = table
    allf = grid.reshape(-1, 6)
    if len(bf) > 600:  # enough border blocks to know the table
        bf = bf[np.linspace(0, len(bf) - 1, 600).astype(int)]
    across, table_sq = -2 * bf.T, (bf * bf).sum(1)[None, :]
    block_sq = (allf * allf).sum(1)[:, None]
    kth = min(2, bf.shape[0] - 1)
    out = np.empty(len(allf), allf.dtype)
    # TABLE_ROWS blocks at a time: each block's distances are its own row, so the same floats as
    # all at once, with the rows' passes below kept in the cache (a 512-px photo's 2,451 blocks
    # × 600 were 5.9 MB, nine passes over it; 3.6 -> 2.4 ms of CPU, speed round 6)
    for s in range(0, len(allf), TABLE_ROWS):
        d2 = allf[s:s + TABLE_ROWS] @ across                      # squared distances, in place
        d2 += block_sq[s:s + TABLE_ROWS]
        d2 += table_sq
        # the 3rd nearest border block: a few planet blocks touching the border don't count (the
        # nearest taken away twice, then the nearest left: np.partition's kth, in less time)
        rows = np.arange(len(d2))
        for _ in range(kth):
            d2[rows, d2.argmin(axis=1)] = np.inf
        out[s:s + TABLE_ROWS] = d2.min(axis=1)
    # rounding's negative squares taken as 0 after the choice, not before: a rank of values
    # raised to 0 is the rank's value raised to 0 (the same floats, one pass over 3 blocks' worth
    # of the rows, not over all 600 columns)
    np.maximum(out, 0, out=out)
    return np.sqrt(out).reshape(gy, gx)


def table_bars(p90: float) -> tuple[float, float]:
    """The distances (``table_distance``) over which a block is not the table, a looser and a
    stricter, from the 90th percentile of the table's own blocks' distances."""
    return max(6.0, p90 * 1.6), max(10.0, p90 * 2.5)


def _median_u8(px: np.ndarray) -> np.ndarray:
    """``np.median(px.astype(np.float32), axis=0)`` of (n, c) uint8 pixels, from each channel's
    histogram (the same float32 values, without sorting the pixels)."""
    n = len(px)
    ks = (n // 2,) if n % 2 else (n // 2 - 1, n // 2)   # the middle one, or the middle two
    out = []
    for c in range(px.shape[1]):
        cum = np.cumsum(np.bincount(px[:, c], minlength=256))
        vals = np.searchsorted(cum, ks, side="right").astype(np.float32)
        out.append(vals.mean(dtype=np.float32))
    return np.array(out, np.float32)


_V = np.arange(256, dtype=np.int32)
_BINS = np.ascontiguousarray(np.stack([(_V // 43) * 256, (_V // 16) * 16, _V // 16], axis=1)[None])  # (1, 256, 3)


def _ring_pixels(a: np.ndarray, bw: int) -> np.ndarray:
    """The pixels of ``a`` within ``bw`` of its border, (n,) or (n, c): those ``a[ring]`` gives, in
    another order (top, bottom, left, right strips; histograms do not see the order), without a
    boolean mask over the whole picture."""
    h, w = a.shape[:2]
    if 2 * bw >= min(h, w):
        return a.reshape(h * w, *a.shape[2:])
    rest = a.shape[2:]
    return np.concatenate([a[:bw].reshape(-1, *rest), a[h - bw:].reshape(-1, *rest),
                           a[bw:h - bw, :bw].reshape(-1, *rest), a[bw:h - bw, w - bw:].reshape(-1, *rest)])


def _masks(work: np.ndarray) -> list:
    """Binary pictures in which the planet may come out as one blob (``mask_groups``, all of them)."""
    return [m for group in mask_groups(work) for m in group]


def mask_groups(work: np.ndarray) -> Iterator[list]:
    """``_masks`` in two groups, the second made only when asked for: the table's look by local
    colour and texture (``_texture_mask``, what finds most planets), then by the border's colours,
    the distance to the table's colour, edges and colourfulness. Together, in this order, they are
    ``_masks``."""
    h, w = work.shape[:2]
    blur = cv2.GaussianBlur(work, (0, 0), 2.0)
    lab = cv2.cvtColor(blur, cv2.COLOR_BGR2LAB)
    bw = max(3, int(0.04 * min(h, w)))
    yield _texture_mask(lab)
    masks = []
    k = max(3, int(0.025 * min(h, w))) | 1
    close = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    open_ = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))

    def clean(m):
        m = cv2.morphologyEx(m, cv2.MORPH_OPEN, open_)
        return cv2.morphologyEx(m, cv2.MORPH_CLOSE, close)

    # 1. not the table: the border's colours (chroma mostly), by histogram
    # q = (L // 43) * 256 + (a // 16) * 16 + b // 16, each term looked up per channel (cv2.LUT)
    t = cv2.LUT(lab, _BINS)
    q = t[..., 0] + t[..., 1] + t[..., 2]
    ring = _ring_pixels(q, bw)                    # the border ring's pixels (no picture-sized mask of it)
    hist = np.bincount(ring, minlength=6 * 256).astype(np.float32).reshape(6, 16, 16)
    hist = np.maximum.reduce([np.roll(hist, s, axis=a) for a in (1, 2) for s in (-1, 0, 1)])
    hist = np.maximum.reduce([hist, np.roll(hist, 1, axis=0), np.roll(hist, -1, axis=0)])
    frac = hist / max(1, len(ring))
    fg = (frac.reshape(-1)[q] < 0.002).astype(np.uint8) * 255
    masks.append(clean(fg))
    # 2. far from the table's typical colour (Otsu on a Lab distance)
    med = _median_u8(_ring_pixels(lab, bw))
    # sqrt(0.3 dL² + da² + db²) per pixel: each term a table of the channel's 256 values, the same
    # float32 values as computed pixel by pixel
    v = np.arange(256, dtype=np.float32)
    terms = np.stack([0.3 * (v - med[0]) ** 2, (v - med[1]) ** 2, (v - med[2]) ** 2], axis=1)[None]
    t = cv2.LUT(lab, np.ascontiguousarray(terms))
    dist = np.sqrt(t[..., 0] + t[..., 1] + t[..., 2])
    dist = np.clip(dist * 255 / max(1.0, float(dist.max())), 0, 255).astype(np.uint8)
    _, fg2 = cv2.threshold(dist, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    masks.append(clean(fg2))
    # 3. full of edges (tile art), against a calmer table
    gray = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY)
    g = cv2.GaussianBlur(gray, (0, 0), 1.2)
    edges = cv2.Canny(g, 40, 120)
    dens = cv2.blur(edges.astype(np.float32), (k * 2 + 1, k * 2 + 1))
    _, fg3 = cv2.threshold(np.clip(dens, 0, 255).astype(np.uint8), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    masks.append(clean(fg3))
    # 4. colourful
    sat = cv2.cvtColor(blur, cv2.COLOR_BGR2HSV)[..., 1]
    _, fg4 = cv2.threshold(sat, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    masks.append(clean(fg4))
    yield masks


# --- the planet's own lattice: its tiles as many like squares in a grid (the grid look) ------

def _tile_binaries(img: np.ndarray, side: float):
    """Binary pictures in which a tile may come out as one blob: each Lab channel thresholded
    against its local mean (over about one and two cells ``side``), either way, and the regions
    between the light's edges. None rests on the planet's colour against the table."""
    lab = cv2.cvtColor(cv2.GaussianBlur(img, (0, 0), 1.0), cv2.COLOR_BGR2LAB)
    for c in range(3):
        g = np.ascontiguousarray(lab[..., c])
        for bs in (int(side) | 1, int(2 * side) | 1):
            yield cv2.adaptiveThreshold(g, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, bs, -2)
            yield cv2.adaptiveThreshold(g, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, bs, -2)
    e = cv2.Canny(np.ascontiguousarray(lab[..., 0]), 20, 60)
    yield 255 - cv2.dilate(e, np.ones((2, 2), np.uint8))


def tile_squares(img: np.ndarray, sides: tuple) -> np.ndarray:
    """Blobs of ``_tile_binaries`` shaped like a tile: convex, near-square (``GRID_SQUARE``), a
    side within ``sides`` (parts of the short side). (n, 4): centre x, y, side, angle mod 90°, the
    largest first; of blobs alike (centres within 0.15 of a side, sides within 15%) one."""
    h, w = img.shape[:2]
    lo, hi = sides[0] * min(h, w), sides[1] * min(h, w)
    found = []
    for b in _tile_binaries(img, lo):
        cnts, _ = cv2.findContours(b, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        for c in cnts:
            if len(c) < 4:
                continue
            a = cv2.contourArea(c)
            if a < lo * lo or a > hi * hi:
                continue
            hull = cv2.convexHull(c)
            ha = cv2.contourArea(hull)
            if a < 0.8 * ha:
                continue
            (cx, cy), (rw, rh), ang = cv2.minAreaRect(hull)
            if max(rw, rh) > tuning.GRID_SQUARE * min(rw, rh) or ha < 0.85 * rw * rh:
                continue
            found.append((cx, cy, np.sqrt(rw * rh), ang % 90))
    found = np.array(found, np.float32).reshape(-1, 4)
    found = found[np.argsort(-found[:, 2], kind="stable")]
    keep = np.zeros(len(found), bool)
    for i in range(0, len(found), 512):   # each against all, in slices (a busy table: thousands)
        r = found[i:i + 512]
        near = ((np.hypot(r[:, None, 0] - found[None, :, 0], r[:, None, 1] - found[None, :, 1]) <= 0.15 * r[:, None, 2])
                & (np.abs(r[:, None, 2] - found[None, :, 2]) <= 0.15 * r[:, None, 2]))
        for j in range(len(r)):
            keep[i + j] = not (near[j] & keep).any()
    return found[keep]


def grid_quads(squares: np.ndarray, most: int, least: int) -> list:
    """Planet outlines from the tiles' squares (``tile_squares``): each square, as a seed, puts a
    lattice of its side (or ``GRID_GAP`` more: the gap between tiles) and angle on the others; those
    of a like side and angle lying on its cells' centres are its tiles; each 4×4 window of that
    lattice holding the seed is a planet with the tiles it holds. The windows holding the most tiles
    (``least`` at fewest), best first, at most ``most``, each put through its tiles' centres (the
    similarity that fits them best): [(corners (4, 2) float32 clockwise, tiles held)]."""
    n = len(squares)
    if n < least:
        return []
    centres, sides, angles = squares[:, :2].astype(np.float64), squares[:, 2], squares[:, 3]
    found = []
    for k in range(n):
        s, ang = float(sides[k]), float(angles[k])
        a = np.radians(ang)
        rot = np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]])   # rows: the lattice's axes
        turn = np.abs((angles - ang + 45) % 90 - 45)
        alike = (turn < tuning.GRID_TURN) & (sides > 0.8 * s) & (sides < 1.25 * s)
        for pitch in (s, s * (1 + tuning.GRID_GAP)):
            g = (centres - centres[k]) @ rot.T / pitch
            ok = alike & (np.abs(g - np.round(g)).max(axis=1) < tuning.GRID_ON)
            idx = np.flatnonzero(ok)
            gi = np.round(g[idx]).astype(int)
            if len(gi) < least:
                continue
            for i0 in range(-3, 1):
                for j0 in range(-3, 1):
                    inw = (gi[:, 0] >= i0) & (gi[:, 0] < i0 + 4) & (gi[:, 1] >= j0) & (gi[:, 1] < j0 + 4)
                    if inw.sum() >= least:
                        found.append((int(inw.sum()), k, idx[inw], gi[inw] - [i0, j0]))
    found.sort(key=lambda r: -r[0])   # stable: the larger seed first among equals
    out: list = []
    unit = np.float64([[0, 0], [4, 0], [4, 4], [0, 4]])
    for held, _, idx, cells in found:
        p = cells + 0.5                # the tiles' centres in the window, in cells
        x = centres[idx]
        m = len(p)
        A = np.zeros((2 * m, 4))
        A[:m] = np.c_[p[:, 0], -p[:, 1], np.ones(m), np.zeros(m)]
        A[m:] = np.c_[p[:, 1], p[:, 0], np.zeros(m), np.ones(m)]
        (a, b, tx, ty), *_ = np.linalg.lstsq(A, np.r_[x[:, 0], x[:, 1]], rcond=None)
        q = np.c_[a * unit[:, 0] - b * unit[:, 1] + tx, b * unit[:, 0] + a * unit[:, 1] + ty]
        q = _order(q).astype(np.float32)
        side = float(np.sqrt(abs(cv2.contourArea(q))))
        if all(np.abs(q - o).max() > 0.1 * side for o, _ in out):
            out.append((q, held))
        if len(out) == most:
            break
    return out
