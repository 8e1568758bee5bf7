"""The reference index: one normalized descriptor per reference image, for each cell size used.

Built from whatever ``<id>.png`` files (and ``back.png``) are in the reference folder, so scans
of real tiles can replace the drawn art. Cached in memory and on disk, keyed on the files'
names, sizes and modification times (and a hash of their bytes for the disk cache), so a changed
file rebuilds the index.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import re
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .paths import REFERENCE_DIR

CELL = 64          # side of a tile in the rectified planet, in pixels
INNER = 0.07       # the part of the tile border left out of the descriptor
BLUR = 0.9         # sigma of the blur applied to both sides before comparing
INDEX_VERSION = 9
MANIFEST = "box.json"  # a folder holding a learned box (vision/box.py)


def _inner(img: np.ndarray) -> np.ndarray:
    c = img.shape[0]
    a = int(round(c * INNER))
    return img[a:c - a, a:c - a]


def _small(patch: np.ndarray) -> np.ndarray:
    """Blurred, inner part, at half scale (float32)."""
    f = cv2.GaussianBlur(patch.astype(np.float32), (0, 0), BLUR)
    f = _inner(f)
    return cv2.resize(f, (f.shape[1] // 2, f.shape[0] // 2), interpolation=cv2.INTER_AREA)


def describe(patch: np.ndarray) -> np.ndarray:
    """A cell-sized BGR patch (CELL×CELL) → unit vector: blurred, inner part, half scale, each
    channel centred and scaled (so light and white balance don't matter)."""
    return describe_turns([patch], (0,))[0]


def similarity(descs: np.ndarray, refs: np.ndarray) -> np.ndarray:
    """Normalized correlations (rows of descs × rows of refs). Readers call it inside
    ``stages.one_thread()``: BLAS threads spin badly on a busy machine and gain nothing here."""
    return descs @ refs.T


COARSE = 14
HI = 128


def _centred_scaled(f: np.ndarray) -> np.ndarray:
    """``f - f.mean(axis=(1, 2))``, then divided by its ``std(axis=(1, 2)) + 8`` (each picture
    and channel on its own; (n, h, w, c) float32), with the same floats as numpy's mean and std
    but faster: numpy sums over axes (1, 2) one pixel after another with the c channels as its
    inner loop; here the pictures are laid pixel-major, (h*w, n*c), so one contiguous inner loop
    adds the same terms in the same order (then the sum divided by the count in float64, and the
    std of the centred values centred again, as numpy does). Returns (n, h*w, c)."""
    n, c = f.shape[0], f.shape[-1]
    t = np.ascontiguousarray(f.reshape(n, -1, c).transpose(1, 0, 2)).reshape(-1, n * c)
    count = np.intp(t.shape[0])

    def mean(a: np.ndarray) -> np.ndarray:
        s = np.add.reduce(a, axis=0)
        return np.true_divide(s, count, out=s, casting="unsafe")
    t = t - mean(t)
    x = t - mean(t)                         # numpy's std centres again
    var = mean(np.multiply(x, x, out=x))
    t = t / (np.sqrt(var, out=var) + 8.0)
    return t.reshape(-1, n, c).transpose(1, 0, 2)


def describe_coarse(patches) -> np.ndarray:
    """Small, very blurred descriptors (COARSE×COARSE) for ranking candidate outlines fast."""
    out = []
    for p in patches:
        n = p.shape[0]
        a = int(round(n * INNER))
        f = cv2.GaussianBlur(p.astype(np.float32), (0, 0), 2.0 * n / CELL)[a:n - a, a:n - a]
        out.append(cv2.resize(f, (COARSE, COARSE), interpolation=cv2.INTER_AREA))
    v = _centred_scaled(np.stack(out)).reshape(len(out), -1)
    return (v / (np.linalg.norm(v, axis=1, keepdims=True) + 1e-6)).astype(np.float32)


def describe_turns(patches, turns=(0, 1, 2, 3), minus=None) -> np.ndarray:
    """Descriptors of each patch turned by 0, 1, 2, 3 quarter turns (np.rot90): (n*4, d), in
    the order patch 0 turn 0, patch 0 turn 1, … — the same as ``describe`` one by one.
    ``minus``: per patch, a picture (as ``small`` makes it) taken away after turning — the look
    all tiles of its stack share, so what tells them apart counts."""
    inner = np.stack([_small(p) for p in patches])                  # (n, s, s, 3)
    m = None   # a patch without a picture to take away takes away nothing (x - 0 is x)
    if minus is not None and any(x is not None for x in minus):
        m = np.stack([np.zeros_like(inner[0]) if x is None else x for x in minus])
    # every patch turned at once per turn (the same values as one by one), laid patch by patch
    stack = np.stack([np.rot90(inner, k, axes=(1, 2)) - m if m is not None else np.rot90(inner, k, axes=(1, 2))
                      for k in turns], axis=1).reshape(len(patches) * len(turns), *inner.shape[1:])
    v = _centred_scaled(stack).reshape(len(stack), -1)   # from (n*4, s, s, 3)
    return (v / (np.linalg.norm(v, axis=1, keepdims=True) + 1e-6)).astype(np.float32)


@dataclass
class Index:
    names: list            # tile ids and "back" (a learned box may have several backs)
    desc: np.ndarray       # (n, d) unit descriptors at CELL
    ring: np.ndarray       # CELL×CELL float32 template for locating a tile in its window
    imgs: np.ndarray       # (n, CELL, CELL, 3) uint8: the references at CELL
    coarse: np.ndarray     # (n*4, d) coarse descriptors, reference i turned back by k at row i*4+k
    hi: np.ndarray         # (n, HI, HI) uint8 grey references, to tell same-looking tiles apart
    key: tuple
    stacks: list | None = None     # per row: its stack (a back: the stack it was learned in, or
                                   # None for the shipped back, which may lie in any non-character stack)
    turns: dict | None = None      # position -> quarter turns clockwise the tiles lie at (None: upright)
    printed_ids: bool = True       # the shipped art prints ids (twins are told apart by them)
    common: dict | None = None     # stack -> the look its tiles share (``_small`` scale), taken away


_lock = threading.Lock()
_cache: dict = {}


_NAMES = re.compile(r"([A-Z][0-9]{2}|back|back-[0-9]{1,2})\.png")   # reference pictures


def _files(folder: Path) -> list[Path]:
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    return [folder / n for n in names
            if _NAMES.fullmatch(n) or n == MANIFEST]


def files_key(folder: Path) -> tuple:
    """``_key(_files(folder))`` in one pass over the folder (``os.scandir``, no ``Path`` per
    file): what every reading checks its cached index or box against (the 81 shipped files:
    0.4 ms, not 0.7 ms, on an idle core)."""
    try:
        with os.scandir(folder) as it:
            found = {e.name: e for e in it if _NAMES.fullmatch(e.name) or e.name == MANIFEST}
    except OSError:
        return ()
    out = []
    for name in sorted(found):
        st = found[name].stat()
        out.append((name, st.st_size, st.st_mtime_ns))
    return tuple(out)


def _key(files: list[Path]) -> tuple:
    out = []
    for p in files:
        st = p.stat()
        out.append((p.name, st.st_size, st.st_mtime_ns))
    return tuple(out)


def _load(path: Path) -> np.ndarray | None:
    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if img is None:
        return None
    h, w = img.shape[:2]
    s = min(h, w)  # a scan that is not square: keep its middle square
    img = img[(h - s) // 2:(h - s) // 2 + s, (w - s) // 2:(w - s) // 2 + s]
    return cv2.resize(img, (CELL, CELL), interpolation=cv2.INTER_AREA)


def build(folder: Path, gray: bool = False) -> Index:
    """The index of a folder; ``gray``: of the references turned grey (for grey photos).
    A folder holding a learned box (``box.json``) is read as the box says."""
    if (folder / MANIFEST).exists():
        from .box import load_box
        box = load_box(folder)
        return build_from(box.references(), gray, _key(_files(folder)), box.turns())
    files = [p for p in _files(folder) if p.suffix == ".png" and "-" not in p.stem]
    names, descs, imgs, his = [], [], [], []
    for p in files:
        img = _load(p)
        if img is None:
            continue
        if gray:
            img = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
        names.append(p.stem)
        big = cv2.imread(str(p), cv2.IMREAD_GRAYSCALE)
        hh, ww = big.shape[:2]
        sq = min(hh, ww)
        big = big[(hh - sq) // 2:(hh - sq) // 2 + sq, (ww - sq) // 2:(ww - sq) // 2 + sq]
        his.append(cv2.resize(big, (HI, HI), interpolation=cv2.INTER_AREA))
        descs.append(describe(img))
        imgs.append(img.astype(np.float32))
    if not names:
        raise FileNotFoundError(f"no reference images in {folder}")
    return _assemble(names, descs, imgs, his, _key(files))


def build_from(refs, gray: bool, key: tuple, turns: dict | None = None) -> Index:
    """The index of a learned box: ``refs`` is a list of (name, stack, BGR image) with the
    image already turned as the tile lies at its stack's first position; ``turns``: how tiles
    lie round the planet (``vision.layout.TURNS``), or None when they all lie upright."""
    names, descs, imgs, his, stacks = [], [], [], [], []
    for name, stack, img in refs:
        if gray:
            img = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
        small = cv2.resize(img, (CELL, CELL), interpolation=cv2.INTER_AREA)
        names.append(name)
        stacks.append(stack)
        his.append(cv2.resize(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), (HI, HI), interpolation=cv2.INTER_AREA))
        imgs.append(small.astype(np.float32))
    if not names:
        raise FileNotFoundError("the learned box has no tiles yet")
    # what the tiles of each stack share (a real box: the sky, the rim) is taken away from
    # both sides before comparing, so the items count (vision.tuning: box photos)
    common = {}
    for st in set(stacks):
        faces = [_small(im) for im, s, n in zip(imgs, stacks, names) if s == st and n != "back"]
        if faces:
            common[st] = np.mean(faces, axis=0)
    descs = [describe_turns([im], (0,), [common.get(st)])[0] for im, st in zip(imgs, stacks)]
    index = _assemble(names, descs, imgs, his, key)
    index.stacks, index.turns, index.printed_ids = stacks, turns, False
    index.common = common
    return index


def _assemble(names, descs, imgs, his, key) -> Index:
    # the ring: the mean reference over the four turns, grey, used to find a tile's position
    mean = np.mean(imgs, axis=0).mean(axis=2)
    mean = (mean + np.rot90(mean, 1) + np.rot90(mean, 2) + np.rot90(mean, 3)) / 4
    u8 = np.stack(imgs).astype(np.uint8)
    coarse = describe_coarse([np.ascontiguousarray(np.rot90(im, -k)) for im in u8 for k in range(4)])
    return Index(names, np.stack(descs).astype(np.float32), mean.astype(np.float32), u8, coarse,
                 np.stack(his), key)


def _disk_cache_path(folder: Path, digest: str) -> Path:
    base = Path(os.environ.get("VISION_CACHE_DIR") or Path(tempfile.gettempdir()) / "planet-vision-cache")
    return base / f"index-v{INDEX_VERSION}-{digest}.pkl"


def get_index(folder: Path | str | None = None, gray: bool = False) -> Index:
    """The index for the reference folder, rebuilt when its files change."""
    folder = Path(folder) if folder else REFERENCE_DIR
    key = files_key(folder)
    with _lock:
        hit = _cache.get((str(folder), gray))
        if hit is not None and hit.key == key:
            return hit
        files = _files(folder)
        h = hashlib.sha256()
        for p in files:
            h.update(p.name.encode())
            h.update(p.read_bytes())
        h.update(f"{CELL},{INNER},{BLUR},{gray}".encode())
        digest = h.hexdigest()[:24]
        cpath = _disk_cache_path(folder, digest)
        index = None
        try:
            with open(cpath, "rb") as f:
                index = pickle.load(f)
        except Exception:
            index = None
        if index is None:
            index = build(folder, gray)
            try:
                cpath.parent.mkdir(parents=True, exist_ok=True)
                tmp = cpath.with_suffix(f".{os.getpid()}.tmp")
                with open(tmp, "wb") as f:
                    pickle.dump(index, f)
                os.replace(tmp, cpath)
            except OSError:
                pass
        index.key = key  # what the next reading's folder key is checked against (a folder built
        # here keyed only its face pictures: with a back-N.png beside them, it never hit again)
        _cache[(str(folder), gray)] = index
        return index
