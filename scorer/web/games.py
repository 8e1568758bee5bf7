"""The app's tracker store: one ``Games`` per app (its cache and locks), made by ``install``."""
from __future__ import annotations

from flask import Flask, current_app

from ..db import Database
from ..tracker_store import Games


def install(app: Flask, db: Database) -> None:
    app.extensions["games"] = Games(db)


def get_games() -> Games:
    games: Games = current_app.extensions["games"]
    return games
