"""The load bench's own bookkeeping (its figures come from ``make bench``): errors cannot hide."""
from __future__ import annotations

from scorer.load_bench import Stats, held


def test_every_error_is_counted_by_what_failed_and_its_status():
    stats = Stats()
    for _ in range(9007):
        stats.error("refresh", 403, b"<!doctype html>")
    stats.error("move", "TimeoutError")
    assert stats.error_count == 9008
    assert stats.causes.most_common() == [("refresh: 403", 9007), ("move: TimeoutError", 1)]
    assert len(stats.errors) == 4  # only the first few of each kind are kept in full


def test_a_run_with_a_single_error_does_not_hold():
    stats = Stats(refresh_ms=[10.0] * 100, move_ms=[10.0] * 100, delivery_ms=[10.0] * 100)
    out = {"load": type("L", (), {"stats": stats})(), "mode": "wait", "logs_ok": 1, "results_ok": 1, "tables": 1}
    assert held(out)
    stats.error("refresh", 403)
    assert not held(out)
