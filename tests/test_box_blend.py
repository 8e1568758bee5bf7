"""A learned box keeps how the reader compares its tiles (descriptors.choose_blend, 0.9-3.2 s a box),
worked out when its last face was learned, so a reader (each worker process) does not work it out
again; a box saved before that, or one changed since, is still read (the blend worked out then)."""
from __future__ import annotations

import json

import pytest

from vision import descriptors, reader
from vision.box import MANIFEST, Sample, box_from_bytes, load_box
from vision.descriptors import blend_tag, choose_blend, with_blend
from vision.reader import exemplars_in, exemplars_of


@pytest.fixture
def folder(box2_learned):
    return box2_learned


def _fresh(box):
    """The blend as the reader works it out from the box's pictures."""
    ex = with_blend(exemplars_of(box.references(), box.outward()))
    return ex.blend, ex.blend_scale


def test_learning_keeps_the_blend_the_reader_would_work_out(folder):
    box = load_box(folder)
    stored = box.stored_blend(blend_tag())
    assert stored is not None
    assert stored == pytest.approx(_fresh(box))
    assert box_from_bytes(box.to_bytes()).stored_blend(blend_tag()) == stored


def test_a_reader_uses_the_kept_blend_without_working_it_out(folder, monkeypatch):
    def never(*a, **k):
        raise AssertionError("choose_blend ran for a box that keeps its blend")
    monkeypatch.setattr(descriptors, "choose_blend", never)
    reader._CACHE.clear()
    ex = exemplars_in(folder)
    assert (ex.blend, ex.blend_scale) == pytest.approx(load_box(folder).stored_blend(blend_tag()))


def test_a_box_saved_before_blends_were_kept_is_read_and_works_it_out(folder, tmp_path, monkeypatch):
    old = tmp_path / "old"
    load_box(folder).save(old)
    m = json.loads((old / MANIFEST).read_text())
    del m["blend"]
    (old / MANIFEST).write_text(json.dumps(m))
    box = load_box(old)
    assert box.blend is None and len(box.tiles()) == 80
    calls = []
    monkeypatch.setattr(descriptors, "choose_blend", lambda ex, *a: calls.append(1) or choose_blend(ex, *a))
    reader._CACHE.clear()
    ex = exemplars_in(old)
    assert calls and (ex.blend, ex.blend_scale) == pytest.approx(_fresh(box))


def test_a_blend_kept_for_other_samples_or_other_constants_is_not_used(folder):
    box = load_box(folder)
    tag = blend_tag()
    assert box.stored_blend(tag + "changed") is None
    s = box.samples["K01"]
    changed = box.add([Sample("K01", s.position, box.samples["K02"].png)])
    assert changed.blend is None and changed.stored_blend(tag) is None
    # a blend kept in the manifest but for other pictures (copied from another box)
    other = box.with_blend(2.0, 0.5, tag + "other")
    assert other.stored_blend(tag) is None
    assert box_from_bytes(other.to_bytes()).stored_blend(tag) is None
