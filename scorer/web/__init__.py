"""The Flask app: a thin layer that parses, calls the pure core, and renders."""
from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask, jsonify, render_template, request
from flask_wtf.csrf import CSRFError, CSRFProtect
from werkzeug.exceptions import HTTPException

from ..catalog import catalog
from ..db import Database
from . import errors, games

ROOT = Path(__file__).resolve().parents[2]
csrf = CSRFProtect()

# Uploads (planet photos) are the largest requests; the scanner checks pixels itself.
MAX_UPLOAD_BYTES = 25 * 1024 * 1024


def _secret_key(instance: Path) -> str:
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = instance / "secret_key"
    try:
        return path.read_text().strip()
    except OSError:
        key = secrets.token_hex(32)
        path.write_text(key)
        return key


def create_app(config: dict | None = None) -> Flask:
    app = Flask(
        __name__,
        instance_path=str(ROOT / "instance"),
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    config = dict(config or {})
    if "INSTANCE_PATH" in config:
        app.instance_path = str(config.pop("INSTANCE_PATH"))
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    app.config.update(
        SECRET_KEY=_secret_key(instance),
        DATABASE_URL=os.environ.get("DATABASE_URL") or f"sqlite:///{instance / 'planet.sqlite3'}",
        MAX_CONTENT_LENGTH=MAX_UPLOAD_BYTES,
        WTF_CSRF_TIME_LIMIT=None,  # a form left open through a whole game still posts
        SEND_FILE_MAX_AGE_DEFAULT=3600,
        JSON_SORT_KEYS=False,
    )
    app.config.update(config)
    app.json.sort_keys = False
    app.json.ensure_ascii = False

    catalog()  # a broken catalog stops the app here, naming the line at fault

    db = Database(app.config["DATABASE_URL"])
    db.create_all()
    app.extensions["db"] = db
    games.install(app, db)

    csrf.init_app(app)

    from . import api, art, pages, scan, tracker_api, tracker_pages
    for module in (api, art, pages, scan, tracker_api, tracker_pages):
        app.register_blueprint(module.bp)
        if getattr(module, "CSRF_EXEMPT", False):
            csrf.exempt(module.bp)

    _register_errors(app)
    errors.register(app)
    return app


def get_db() -> Database:
    from flask import current_app
    return current_app.extensions["db"]


def wants_json() -> bool:
    return request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json"


def _register_errors(app: Flask) -> None:
    messages = {
        400: "Something in that request was not right.",
        403: "That is not yours to do.",
        404: "There is nothing here. The link may be mistyped or the game may have been removed.",
        405: "That page cannot be used that way.",
        409: "Someone else acted first. Reload to see the game as it is now.",
        413: "That upload is too large. A photo of up to 25 MB works.",
        429: "Too many requests at once; wait a moment.",
        500: "Something went wrong on our side. Nothing you entered was changed.",
    }

    def respond(code: int, message: str):
        if wants_json():
            return jsonify({"error": message, "where": request.path}), code
        return render_template("error.html", code=code, message=message), code

    @app.errorhandler(CSRFError)
    def csrf_error(exc: CSRFError):
        return respond(400, "This form had expired or came from elsewhere. Reload the page and try again.")

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        code = exc.code or 500
        return respond(code, messages.get(code, exc.description or "That did not work."))

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        app.logger.exception("unexpected error")
        return respond(500, messages[500])
