"""The one place where a refusal (``scorer.errors``) becomes an HTTP answer.

``register(app)`` installs one handler for every ``PlanetError``: under ``/api/`` it answers the
SPEC's JSON ``{"error", "where"}``, elsewhere the error page, with the status ``STATUS`` gives the
error's class (or its nearest ancestor in the table).
"""
from __future__ import annotations

from collections.abc import Mapping

from flask import Flask, jsonify, render_template, request
from flask.typing import ResponseReturnValue

from ..errors import GameNotFound, IllegalMove, InputError, NotYourTurn, PlanetError, StaleVersion

STATUS: Mapping[type[PlanetError], int] = {
    InputError: 400,      # cannot be read (SetupError too)
    IllegalMove: 400,     # the rules do not allow it now
    NotYourTurn: 403,     # not this seat's to make, or a bad seat key
    GameNotFound: 404,
    StaleVersion: 409,    # someone moved first; nothing changed
    PlanetError: 400,
}


def status_of(exc: PlanetError) -> int:
    for cls in type(exc).__mro__:
        if cls in STATUS:
            return STATUS[cls]
    return 400


def register(app: Flask) -> None:
    @app.errorhandler(PlanetError)
    def planet_error(exc: PlanetError) -> ResponseReturnValue:
        code = status_of(exc)
        if request.path.startswith("/api/"):
            return jsonify(exc.as_json()), code
        return render_template("error.html", code=code, message=exc.message), code
