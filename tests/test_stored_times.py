"""Stored moments read back the same on every database: aware, in UTC (PostgreSQL keeps a zone,
SQLite keeps none). Before, a table read back naive on SQLite and aware on PostgreSQL, so a
history exported from one and imported into the other compared unequal, and comparing a stored
time with ``utcnow()`` failed on SQLite alone. Runs on PostgreSQL too (``make test-postgres``)."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from sqlalchemy import select, update

from scorer.db import SavedTable, load_table, save_table, utcnow
from scorer.tracker_store import TrackerGame


def test_a_stored_moment_reads_back_aware_in_utc_whatever_zone_it_was_written_in(app):
    db = app.extensions["db"]
    table_id = save_table(db, {"players": []}, {"ranking": []})
    saved = load_table(db, table_id)
    assert saved.created.tzinfo is not None and saved.created.utcoffset() == timedelta(0)
    assert abs(utcnow() - saved.created) < timedelta(minutes=1)   # comparable with now, on SQLite too

    in_paris = datetime(2026, 7, 14, 22, 30, tzinfo=timezone(timedelta(hours=2)))
    naive_utc = datetime(2026, 7, 14, 20, 30)                       # what older SQLite rows hold
    for written in (in_paris, naive_utc):
        with db.writing() as conn:
            conn.execute(update(SavedTable).where(SavedTable.id == table_id).values(created=written))
        with db.engine.connect() as conn:
            read = conn.execute(select(SavedTable.created).where(SavedTable.id == table_id)).scalar_one()
        again = load_table(db, table_id).created
        assert read == again == datetime(2026, 7, 14, 20, 30, tzinfo=UTC)
        assert read.utcoffset() == again.utcoffset() == timedelta(0)


def test_a_tracked_games_start_reads_back_aware_in_utc(client, app):
    r = client.post("/api/games", json={"players": ["Ann", "Ben"]})
    assert r.status_code == 201, r.get_data(as_text=True)
    db = app.extensions["db"]
    with db.engine.connect() as conn:
        started = conn.execute(select(TrackerGame.created)).scalar_one()
    assert started.tzinfo is not None and started.utcoffset() == timedelta(0)
    assert abs(utcnow() - started) < timedelta(minutes=1)
