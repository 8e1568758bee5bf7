"""The Flask app: a thin layer that parses, calls the pure core, and renders."""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask, jsonify, render_template, request
import flask_babel
from flask_babel import gettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from .. import i18n, limits
from ..i18n import N_
from ..catalog import catalog, use_catalog_file
from ..db import Database
from ..settings import ROOT, Settings
from . import (
    api, art, box, box_corners, errors, games, history, language, live, pages, scan, security, stars, tracker_api, tracker_pages,
)
from . import board_parts, ratelimits, seat_claims, shared_boards
from .assets import init_assets
from .extensions import HTML_LANG, babel, csrf, get_db, select_locale, wants_json

__all__ = ["create_app", "get_db", "wants_json", "warm"]

BLUEPRINTS = (api, art, language, pages, scan, stars, tracker_api, tracker_pages, seat_claims, history, box, box_corners)
PACKAGE = Path(__file__).resolve().parents[1]
TRANSLATIONS = PACKAGE / "translations"


def _shipped(folder: str) -> str:
    """``templates``/``static``: inside the package when installed (pyproject maps them there),
    at the top of the repository in a checkout or an editable install."""
    inside = PACKAGE / folder
    return str(inside if inside.is_dir() else ROOT / folder)


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    config = dict(config or {})
    settings = Settings.load(config)
    for key in ("INSTANCE_PATH", "DATABASE_URL", "SECRET_KEY"):
        config.pop(key, None)
    app = Flask(__name__, instance_path=str(settings.instance_path),
                template_folder=_shipped("templates"), static_folder=_shipped("static"))
    _configure(app, settings, config)

    use_catalog_file(settings.catalog_path)
    catalog()  # a broken catalog stops the app here, naming the line at fault

    security.install(app, settings)
    csrf.init_app(app)
    init_assets(app)
    babel.init_app(app, locale_selector=select_locale)
    language.install_catalog_lookup(app)  # Flask-Babel's catalog, looked up once a request
    app.jinja_env.globals["list_words"] = i18n.list_words
    for module in BLUEPRINTS:
        app.register_blueprint(module.bp)
        if getattr(module, "CSRF_EXEMPT", False):
            csrf.exempt(module.bp)
    ratelimits.install(app, settings.rate_limits and not app.testing)

    # Every store module is imported by now (the blueprints use them), so every table is known.
    db = Database(app.config["DATABASE_URL"])
    db.create_all()
    app.extensions["db"] = db
    games.install(app, db)
    board_parts.install(app)
    shared_boards.install(app)
    seat_claims.install(app)
    live.install(app, db)  # "anything new?" from the phones, answered in front of Flask
    app.context_processor(_page_globals)
    _register_errors(app)
    errors.register(app)
    return app


def warm(app: Flask) -> Flask:
    """Compile every template and load every language's catalog (and its CLDR data) now. A server
    worker calls this before it takes its first request (``scorer.serve``): else the first phone
    to open a game in a worker after a start waited for them (its page 0.26 s instead of 0.01 s),
    and so did every other phone of the table for the first move's board."""
    for name in app.jinja_env.list_templates(extensions=("html",)):
        app.jinja_env.get_template(name)
    for code in HTML_LANG:
        with app.test_request_context(headers={"Accept-Language": code}):
            flask_babel.get_translations()
            flask_babel.get_locale().number_symbols  # noqa: B018  the language's CLDR data, read once
    return app


def _configure(app: Flask, settings: Settings, config: dict[str, Any]) -> None:
    app.config.update(
        SETTINGS=settings,
        SECRET_KEY=settings.secret_key,
        DATABASE_URL=settings.database_url,
        MAX_CONTENT_LENGTH=limits.MAX_UPLOAD_BYTES,
        WTF_CSRF_TIME_LIMIT=None,  # a form left open through a whole game still posts
        SEND_FILE_MAX_AGE_DEFAULT=3600,
        BABEL_TRANSLATION_DIRECTORIES=str(TRANSLATIONS),
    )
    app.config.update(config)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.json.ensure_ascii = False  # type: ignore[attr-defined]


def _page_globals() -> dict[str, Any]:
    from flask_babel import get_locale
    return {"limits": limits, "html_lang": HTML_LANG.get(str(get_locale()), "en"),
            "languages": language.switch_links(), "locale": str(get_locale()), "js_words": language.js_words}


def _register_errors(app: Flask) -> None:
    messages = {
        400: N_("Something in that request was not right."),
        403: N_("That is not yours to do."),
        404: N_("There is nothing here. The link may be mistyped or the game may have been removed."),
        405: N_("That page cannot be used that way."),
        408: N_("That request came in too slowly. Try again."),
        409: N_("Someone else acted first. Reload to see the game as it is now."),
        413: N_("That is too large to send. A photo of up to 25 MB works; anything else is much smaller."),
        415: N_("This address takes JSON only: send it with Content-Type: application/json."),
        429: N_("Too many requests at once; wait a moment."),
        500: N_("Something went wrong on our side. Nothing you entered was changed."),
    }

    def respond(code: int, message: str):  # type: ignore[no-untyped-def]
        if wants_json():
            return jsonify({"error": message, "where": request.path}), code
        return render_template("error.html", code=code, message=message), code

    @app.errorhandler(CSRFError)
    def csrf_error(exc: CSRFError):  # type: ignore[no-untyped-def]
        return respond(400, gettext("This form had expired or came from elsewhere. Reload the page and try again."))

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):  # type: ignore[no-untyped-def]
        code = exc.code or 500
        return respond(code, gettext(messages[code]) if code in messages else exc.description or "That did not work.")

    @app.errorhandler(TimeoutError)
    def too_slow(exc: TimeoutError):  # type: ignore[no-untyped-def]
        return respond(408, gettext(messages[408]))  # the server's read deadline (scorer.serve)

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):  # type: ignore[no-untyped-def]
        app.logger.exception("unexpected error")
        return respond(500, gettext(messages[500]))
