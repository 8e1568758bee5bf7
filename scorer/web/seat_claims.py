"""A seat's link belongs to the first phone that opens it.

The host's page shows every seat's link (as a QR code) so players can join; once a player's
phone has opened its link, no other browser can use that link, so whoever made the game (or
anyone who saw the page) cannot open another player's seat and see their hidden characters.
A phone that lost its link gets a new one from the host ("New link"), which the next phone to
open it claims; the old link stops working.

The phone keeps its claim in a cookie scoped to the game's seat links. The JSON API is not
concerned: its clients hold the tokens by design (SPEC §2).
"""
from __future__ import annotations

from flask import Blueprint, Flask, Response, abort, g, redirect, render_template, request, url_for

from ..errors import GameNotFound
from ..i18n import _
from .extensions import csrf
from .games import get_games
from .live import KNOWN_VERSION

bp = Blueprint("seat_claims", __name__)
SEAT_ENDPOINTS_PREFIX = "tracker_pages.seat"
COOKIE_DAYS = 31


def _cookie(game_id: str, seat: int) -> str:
    return f"seat-{game_id}-{seat}"


def install(app: Flask) -> None:
    app.before_request(_check_claim)
    app.after_request(_give_claim)
    app.jinja_env.globals["claimed_seats"] = lambda game_id: get_games().claimed_seats(game_id)


def _check_claim() -> Response | None:
    """Before any page of a seat's own phone: only the phone that claimed the seat gets in."""
    if not (request.endpoint or "").startswith(SEAT_ENDPOINTS_PREFIX) or not request.view_args:
        return None
    game_id, token = request.view_args.get("game_id"), request.view_args.get("token")
    known = request.environ.get(KNOWN_VERSION)
    try:
        loaded = get_games().load(str(game_id), known=known)
    except GameNotFound:
        return None  # the view answers 404 as before
    seat = loaded.seat_of(str(token))
    if seat is None:
        return None
    held = request.cookies.get(_cookie(loaded.id, seat))
    claim = get_games().claim(loaded.id, seat, held, str(token))
    if claim is None:
        message = _("This seat is already open on another phone. If that was not you, ask the host "
                    "for a new link: the host's page has “New link” beside each player.")
        return Response(render_template("error.html", code=403, message=message), 403)
    if claim != held:
        g.new_seat_claim = (_cookie(loaded.id, seat), claim, f"/play/{loaded.id}/")
    g.claimed_game = loaded  # a page that only reads the game uses this snapshot (``games.claimed_game``)
    g.claimed_read = known is None  # ... read from the database just now (``games.read_game``)
    return None


def _give_claim(response: Response) -> Response:
    given = g.pop("new_seat_claim", None)
    if given:
        name, value, path = given
        response.set_cookie(name, value, max_age=COOKIE_DAYS * 86400, path=path, httponly=True,
                            samesite="Lax", secure=request.is_secure)
    return response


@bp.post("/games/<game_id>/seats/<int:seat>/new-link")
@csrf.exempt  # checked below, so a stale page gets a message rather than a bare 400
def new_link(game_id: str, seat: int):
    from flask_wtf.csrf import ValidationError, validate_csrf

    from .tracker_pages import _is_host
    try:
        loaded = get_games().load(game_id)
        validate_csrf(request.form.get("csrf_token"))
    except GameNotFound:
        abort(404)
    except ValidationError:
        abort(400)
    if not _is_host(loaded) or not 0 <= seat < len(loaded.tokens):
        abort(403)
    get_games().reissue(game_id, seat)
    return redirect(url_for("tracker_pages.host", game_id=game_id) + "#invite", code=303)
