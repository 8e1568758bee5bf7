"""The tracker as JSON (SPEC §2 "Tracker, as JSON"): bots, tests and the bench use it.

A seat's token goes in ``Authorization: Bearer <token>``; without one the view is public.
Errors answer ``{"error": ..., "where": ...}``: 400 an illegal move, 403 not this seat's move or a
bad token, 404 no such game, 409 a stale version (someone moved first; nothing changed).
"""
from __future__ import annotations

from flask import Blueprint, jsonify, request

from ..contract import parse_json
from ..errors import InputError, where_text
from ..tracker import MoveError, Setup
from ..tracker_store import MODES, create_game, ensure_result_saved, load_game, play, undo
from .extensions import get_db

bp = Blueprint("tracker_api", __name__)
CSRF_EXEMPT = True


def _error(error: str, where: str, status: int):
    return jsonify({"error": error, "where": where}), status


def _body():
    raw = request.get_data(cache=False)
    if not raw.strip():
        return {}
    return parse_json(raw)


def _token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return None


def _seat(loaded, required: bool):
    """The asking seat from the token; a token that opens no seat is a 403."""
    token = _token()
    if token is None:
        if required:
            err = MoveError("Say which seat you are: send the seat's token as "
                            "\"Authorization: Bearer <token>\".", "Authorization")
            err.status = 403
            raise err
        return None
    seat = loaded.seat_of(token)
    if seat is None:
        err = MoveError("That token does not open a seat of this game.", "Authorization")
        err.status = 403
        raise err
    return seat


@bp.after_request
def private(response):
    """A seat's view holds its secrets: no cache may keep it."""
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.errorhandler(MoveError)
def move_error(exc: MoveError):
    return _error(exc.error, exc.where, exc.status)


@bp.errorhandler(InputError)
def input_error(exc: InputError):
    return _error(exc.message, where_text(exc.where) or "body", 400)


@bp.post("/api/games")
def new_game():
    data = _body()
    setup = Setup.parse(data)
    mode = data.get("mode", "own") if isinstance(data, dict) else "own"
    if mode not in MODES:
        return _error(f"\"mode\" is one of {', '.join(MODES)}.", "mode", 400)
    loaded = create_game(get_db(), setup, mode)
    return jsonify({
        "id": loaded.id,
        "seats": [{"name": name, "token": token} for name, token in zip(setup.players, loaded.tokens)],
        "version": 0,
        # the seed is not echoed: it fixes the order of every stack, the face-down tiles included
    }), 201


def _view(loaded, seat):
    view = loaded.game.view(seat)
    view["id"] = loaded.id
    view["table_id"] = loaded.table_id
    view["table_url"] = f"/tables/{loaded.table_id}" if loaded.table_id else None
    return view


@bp.get("/api/games/<game_id>")
def show(game_id: str):
    loaded = load_game(get_db(), game_id)
    if loaded.game.finished and loaded.table_id is None:  # a crash came between the move and its save
        ensure_result_saved(get_db(), loaded)
        loaded = load_game(get_db(), game_id)
    return jsonify(_view(loaded, _seat(loaded, required=False)))


def _bad_version():
    return _error("\"version\" is the version of the game you saw (a whole number).", "version", 400)


@bp.post("/api/games/<game_id>/moves")
def move(game_id: str):
    db = get_db()
    loaded = load_game(db, game_id)
    seat = _seat(loaded, required=True)
    data = _body()
    if not isinstance(data, dict) or "move" not in data:
        return _error('Post {"version": n, "move": <one of "legal">}.', "body", 400)
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        return _bad_version()
    loaded = play(db, game_id, version, data["move"], seat=seat)
    return jsonify(_view(loaded, seat))


@bp.post("/api/games/<game_id>/undo")
def take_back(game_id: str):
    db = get_db()
    loaded = load_game(db, game_id)
    seat = _seat(loaded, required=True)
    data = _body()
    version = data.get("version") if isinstance(data, dict) else None
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
        return _bad_version()
    loaded = undo(db, game_id, version, seat=seat)
    return jsonify(_view(loaded, seat))
