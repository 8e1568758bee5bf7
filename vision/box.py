"""A learned box: how each tile of a real box looks, learned from photos (SPEC §2 "Teaching the
app a real box"). Plain data, no Flask, no database.

A box is a set of samples: one picture per tile id (the latest one learned wins) and the backs,
one per position they were seen at (a face-down tile is learned from where it lies: its
position says its stack). Each picture is kept as it lay in its photo, with its position, so
how tiles lie round a planet (turned to face outwards, as a real box, or all upright, as the
shipped art) can be told from the backs and applied when the reader's index is built.

On disk a box is a folder: ``box.json`` (the manifest) and one PNG per sample (``C07.png``,
``back-5.png``). As bytes (``to_bytes``/``from_bytes``: a zip of that folder) it can be kept
anywhere, e.g. in a database row.
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import tempfile
import zipfile
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from .layout import STACK_AT, TURNS

MANIFEST = "box.json"
VERSION = 1
SAMPLE_PX = 128       # side of a stored tile picture


def sample_key(name: str, position: int) -> str:
    """Where a sample is kept in a box: a tile by its id (tiles are learned once each); a back by
    the position it lay in (backs differ by stack, and a stack is known by its position)."""
    return f"back-{position}" if name == "back" else name


class BoxError(ValueError):
    """A box folder or blob that cannot be read; the message is for a person."""


@dataclass(frozen=True)
class Sample:
    name: str          # a tile id, or "back"
    position: int      # where it lay in its photo (0..15)
    png: bytes         # the tile as it lay, upright in the photo, SAMPLE_PX square
    frame: float = 1.0  # its own square's side, a part of its cell of the teaching lattice (learn.cut_tiles)

    @property
    def key(self) -> str:
        return sample_key(self.name, self.position)

    def image(self) -> np.ndarray:
        img = cv2.imdecode(np.frombuffer(self.png, np.uint8), cv2.IMREAD_COLOR)
        if img is None:
            raise BoxError(f"the picture of {self.key} in the box is damaged")
        return img


@dataclass(frozen=True)
class Box:
    samples: dict = field(default_factory=dict)    # key -> Sample
    # how the reader compares this box's tiles (descriptors.choose_blend), worked out when it was
    # learned: {"weight", "scale", "of": blend_key()}; None: worked out when the box is read
    blend: dict | None = None

    def add(self, samples) -> Box:
        merged = dict(self.samples)
        for s in samples:
            merged[s.key] = s
        return replace(self, samples=merged, blend=None)

    def blend_key(self, tag: str) -> str:
        """What a stored blend was worked out from: every sample, and ``tag`` (the reader's
        constants it depends on); a blend whose key differs is not used."""
        h = hashlib.sha1(tag.encode())
        for key in sorted(self.samples):
            s = self.samples[key]
            h.update(f"{key}:{s.position}:".encode())
            h.update(hashlib.sha1(s.png).digest())
        return h.hexdigest()

    def with_blend(self, weight: float, scale: float, tag: str) -> Box:
        return replace(self, blend={"weight": float(weight), "scale": float(scale), "of": self.blend_key(tag)})

    def stored_blend(self, tag: str) -> tuple[float, float] | None:
        """(weight, scale) when a blend was stored for exactly these samples and ``tag``."""
        b = self.blend
        if not b or b.get("of") != self.blend_key(tag):
            return None
        return float(b["weight"]), float(b["scale"])

    def tiles(self) -> list[str]:
        return sorted(k for k in self.samples if not k.startswith("back"))

    def backs(self) -> list[int]:
        return sorted(s.position for s in self.samples.values() if s.name == "back")

    def outward(self) -> bool:
        """Do the tiles lie turned to face outwards? Told from the backs of each stack seen at
        two or more positions: turned back upright they look alike when they face outwards.
        A stack whose backs look alike neither way (``tuning.OUTWARD_ALIKE``: cut off their
        tiles, or drawn round) says nothing. Without such backs: yes (every real box does)."""
        from . import tuning
        by_stack: dict = {}
        for s in self.samples.values():
            if s.name == "back" and STACK_AT[s.position] != "character":
                by_stack.setdefault(STACK_AT[s.position], []).append(s)
        votes = 0.0
        for group in by_stack.values():
            if len(group) < 2:
                continue
            imgs = [_unlit(s.image()) for s in group]
            turned = [np.rot90(im, TURNS[s.position]) for im, s in zip(imgs, group)]
            a, b = _mean_corr(turned), _mean_corr(imgs)
            if max(a, b) >= tuning.OUTWARD_ALIKE:
                votes += a - b
        return votes >= 0

    def turns(self) -> dict | None:
        return dict(TURNS) if self.outward() else None

    def references(self) -> list[tuple[str, str, np.ndarray]]:
        """(name, stack, picture turned as at its stack's first position) for the index."""
        from scorer.catalog import catalog
        cat = catalog()
        outward = self.outward()
        out = []
        for key in sorted(self.samples):
            s = self.samples[key]
            img = s.image()
            if outward:
                img = np.ascontiguousarray(np.rot90(img, TURNS[s.position]))
            stack = STACK_AT[s.position] if s.name == "back" else cat[s.name].stack
            out.append((s.name, stack, img))
        return out

    def missing(self) -> list[str]:
        """The catalog's tiles this box has not learned yet."""
        return sorted(set(_all_ids()) - set(self.tiles()))

    def frame(self) -> float:
        """The median side of its tiles' own squares as teaching cut them, a part of their cells
        (``Sample.frame``; 1.0 for a box without samples)."""
        return float(np.median([s.frame for s in self.samples.values()])) if self.samples else 1.0

    def summary(self) -> dict:
        return {"tiles": len(self.tiles()), "backs": len(self.backs()),
                "missing": self.missing(), "turned_outwards": self.outward()}

    # --- as a folder ---------------------------------------------------------------------

    def save(self, folder: Path | str) -> None:
        """Write the box to ``folder`` (created if missing): pictures first, then the manifest
        replaced in one step, so a reader never sees half a box."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        entries = []
        for key in sorted(self.samples):
            s = self.samples[key]
            _write_atomic(folder / f"{key}.png", s.png)
            entries.append(_entry(s, key))
        manifest = json.dumps(self._manifest(entries), indent=1).encode()
        _write_atomic(folder / MANIFEST, manifest)

    def to_bytes(self) -> bytes:
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
            entries = []
            for key in sorted(self.samples):
                s = self.samples[key]
                z.writestr(f"{key}.png", s.png)
                entries.append(_entry(s, key))
            z.writestr(MANIFEST, json.dumps(self._manifest(entries)))
        return buf.getvalue()

    def _manifest(self, entries: list) -> dict:
        m: dict = {"version": VERSION, "samples": entries}
        if self.blend is not None:
            m["blend"] = self.blend
        return m


def _all_ids() -> list[str]:
    from scorer.catalog import catalog
    return [t.id for t in catalog()]


def _unlit(img: np.ndarray) -> np.ndarray:
    """A back as ``Box.outward`` compares it: 32 px, grey, its slow light taken out (the
    Gaussian blur of ``OUTWARD_LIGHT`` px subtracted). A light falling across the teaching photo
    (a coloured lamp from one side) tints every back the same way as they lie, which made them
    look alike as they lay and wore the vote of the backs' own art down (see tuning)."""
    from . import tuning
    small = cv2.resize(img, (32, 32), interpolation=cv2.INTER_AREA).astype(np.float32)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    return grey - cv2.GaussianBlur(grey, (0, 0), tuning.OUTWARD_LIGHT)


def _mean_corr(imgs) -> float:
    v = np.stack([(im - im.mean()).ravel() for im in imgs])
    v /= np.linalg.norm(v, axis=1, keepdims=True) + 1e-6
    c = v @ v.T
    n = len(imgs)
    return float((c.sum() - n) / (n * (n - 1)))


def _write_atomic(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def _entry(s: Sample, key: str) -> dict:
    """A sample's manifest entry (its frame only when not 1.0: a box saved before frames were kept reads the same)."""
    e: dict = {"name": s.name, "position": s.position, "file": f"{key}.png"}
    if s.frame != 1.0:
        e["frame"] = s.frame
    return e


def _parse_manifest(raw: bytes, read) -> Box:
    try:
        m = json.loads(raw)
        samples = [Sample(str(e["name"]), int(e["position"]), read(str(e["file"])), float(e.get("frame", 1.0)))
                   for e in m["samples"]]
    except (ValueError, KeyError, TypeError) as exc:
        raise BoxError(f"the learned box is damaged ({exc})") from exc
    ids = set(_all_ids()) | {"back"}
    if any(s.name not in ids or not 0 <= s.position < 16 for s in samples):
        raise BoxError("the learned box names a tile or position that does not exist")
    return replace(Box().add(samples), blend=_blend_of(m))


def _blend_of(m: dict) -> dict | None:
    """A manifest's stored blend, or None (a box saved before blends were stored, or one whose
    blend entry is not as written: it is then worked out again when read)."""
    b = m.get("blend")
    try:
        return {"weight": float(b["weight"]), "scale": float(b["scale"]), "of": str(b["of"])}
    except (TypeError, KeyError, ValueError):
        return None


def load_box(folder: Path | str) -> Box:
    """The box in ``folder``; an empty box when the folder has none yet."""
    folder = Path(folder)
    path = folder / MANIFEST
    if not path.exists():
        return Box()

    def read(name: str) -> bytes:
        if "/" in name or "\\" in name:
            raise BoxError("the learned box names a file outside its folder")
        return (folder / name).read_bytes()
    try:
        return _parse_manifest(path.read_bytes(), read)
    except OSError as exc:
        raise BoxError(f"the learned box is incomplete ({exc.strerror})") from exc


def box_from_bytes(data: bytes) -> Box:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            return _parse_manifest(z.read(MANIFEST), z.read)
    except (zipfile.BadZipFile, KeyError) as exc:
        raise BoxError("the learned box is damaged") from exc
