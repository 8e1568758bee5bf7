"""The app's tracker store: one ``Games`` per app (its cache and locks), made by ``install``."""
from __future__ import annotations

from flask import Flask, current_app, g

from ..db import Database
from ..tracker_store import Games, Loaded


def install(app: Flask, db: Database) -> None:
    app.extensions["games"] = Games(db)


def get_games() -> Games:
    games: Games = current_app.extensions["games"]
    return games


def claimed_game(game_id: str) -> Loaded | None:
    """The game as the seat's claim check (``seat_claims``) loaded it at the start of this request,
    or None: a view that only reads need not load it again."""
    loaded: Loaded | None = g.get("claimed_game")
    return loaded if loaded is not None and loaded.id == game_id else None


def read_game(game_id: str) -> Loaded | None:
    """``claimed_game``, only when the claim check read it from the database (not a state the
    live refresh vouched for): a move or an undo then writes after it without reading again."""
    return claimed_game(game_id) if g.get("claimed_read") else None
