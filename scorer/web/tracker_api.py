"""The tracker as JSON (SPEC §2 "Tracker, as JSON"): bots, tests and the bench use it.

A seat's token goes in ``Authorization: Bearer <token>``; without one the view is public.
Errors are ``scorer.errors`` refusals, answered by ``scorer.web.errors`` as ``{"error", "where"}``:
400 an illegal move, 403 not this seat's move or a bad token, 404 no such game, 409 a stale
version (someone moved first; nothing changed).
"""
from __future__ import annotations

from flask import Blueprint, Response, jsonify, request
from flask.typing import ResponseReturnValue

from ..contract import parse_json
from ..draft import Setup, view
from ..errors import InputError, NotYourTurn
from ..i18n import _
from ..tracker_store import MODES, Loaded
from .games import get_games
from .tracker_words import words_for

bp = Blueprint("tracker_api", __name__)
CSRF_EXEMPT = True


def _body() -> object:
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


def _seat(loaded: Loaded, required: bool) -> int | None:
    """The asking seat from the token; a token that opens no seat is a 403."""
    token = _token()
    if token is None:
        if required:
            raise NotYourTurn(_("Say which seat you are: send the seat's token as "
                                "\"Authorization: Bearer <token>\"."), ("Authorization",))
        return None
    seat = loaded.seat_of(token)
    if seat is None:
        raise NotYourTurn(_("That token does not open a seat of this game."), ("Authorization",))
    return seat


@bp.after_request
def private(response: Response) -> Response:
    """A seat's view holds its secrets: no cache may keep it."""
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/api/games")
def new_game() -> ResponseReturnValue:
    data = _body()
    setup = Setup.parse(data)
    mode = data.get("mode", "own") if isinstance(data, dict) else "own"
    if mode not in MODES:
        raise InputError(_("\"mode\" is one of %(modes)s.", modes=", ".join(MODES)), ("mode",))
    loaded = get_games().create(setup, mode)
    return jsonify({
        "id": loaded.id,
        "seats": [{"name": name, "token": token} for name, token in zip(setup.players, loaded.tokens, strict=True)],
        "version": 0,
        # the seed is not echoed: it fixes the order of every stack, the face-down tiles included
    }), 201


def _view(loaded: Loaded, seat: int | None) -> dict[str, object]:
    out = view(loaded.state, seat, words=words_for(loaded.state))
    out["id"] = loaded.id
    out["table_id"] = loaded.table_id
    out["table_url"] = f"/tables/{loaded.table_id}" if loaded.table_id else None
    return out


@bp.get("/api/games/<game_id>")
def show(game_id: str) -> ResponseReturnValue:
    games = get_games()
    loaded = games.load(game_id)
    if loaded.state.finished and loaded.table_id is None:  # a crash came between the move and its save
        games.ensure_result_saved(loaded)
        loaded = games.load(game_id)
    return jsonify(_view(loaded, _seat(loaded, required=False)))


def _version(data: object, required: bool) -> int | None:
    version = data.get("version") if isinstance(data, dict) else None
    if version is None and not required:
        return None
    if not isinstance(version, int) or isinstance(version, bool):
        raise InputError(_("\"version\" is the version of the game you saw (a whole number)."), ("version",))
    return version


@bp.post("/api/games/<game_id>/moves")
def move(game_id: str) -> ResponseReturnValue:
    games = get_games()
    loaded = games.load(game_id)
    seat = _seat(loaded, required=True)
    data = _body()
    if not isinstance(data, dict) or "move" not in data:
        raise InputError(_('Post {"version": n, "move": <one of "legal">}.'), ("body",))
    loaded = games.play(game_id, _version(data, required=True), data["move"], seat=seat)
    return jsonify(_view(loaded, seat))


@bp.post("/api/games/<game_id>/undo")
def take_back(game_id: str) -> ResponseReturnValue:
    games = get_games()
    loaded = games.load(game_id)
    seat = _seat(loaded, required=True)
    loaded = games.undo(game_id, _version(_body(), required=False), seat=seat)
    return jsonify(_view(loaded, seat))
