"""Rising to the Stars tallies in the database: the request as entered and its result, reopened
by the link ``/stars/<id>`` like a scored Make Me a Planet table. A table of its own (existing
SQLite files get it from ``create_all``; no column is added to anything older)."""
from __future__ import annotations

import json
from datetime import datetime

from sqlalchemy import DateTime, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from .db import Base, Database, new_id, utcnow


class StarsTally(Base):
    __tablename__ = "stars_tallies"

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    request_json: Mapped[str] = mapped_column(Text)
    result_json: Mapped[str] = mapped_column(Text)

    @property
    def request(self) -> dict:
        return json.loads(self.request_json)

    @property
    def result(self) -> dict:
        return json.loads(self.result_json)


def save_tally(db: Database, request: dict, result: dict) -> str:
    with db.Session.begin() as session:
        row = StarsTally(request_json=json.dumps(request), result_json=json.dumps(result))
        session.add(row)
        session.flush()
        return row.id


def load_tally(db: Database, tally_id: str) -> StarsTally | None:
    with db.Session() as session:
        return session.get(StarsTally, tally_id[:40])
