"""Rising to the Stars tallies in the database: the request as entered and its result, reopened
by the link ``/stars/<id>`` like a scored Make Me a Planet table. A table of its own (existing
SQLite files get it from ``create_all``; no column is added to anything older)."""
from __future__ import annotations

from .db import Base, Database, StoredResult, load_table, save_table


class StarsTally(StoredResult, Base):
    __tablename__ = "stars_tallies"


def save_tally(db: Database, request: dict, result: dict) -> str:
    return save_table(db, request, result, StarsTally)


def load_tally(db: Database, tally_id: str) -> StarsTally | None:
    return load_table(db, tally_id[:40], StarsTally)
