"""The language switch: ``GET /lang/<code>?next=<a path of this site>`` remembers the choice in
the ``lang`` cookie for a year and goes back to the page it was used on."""
from __future__ import annotations

from functools import cache
from typing import Any
from urllib.parse import urlsplit

import flask_babel
from babel import Locale
from flask import Blueprint, Flask, abort, current_app, has_request_context, redirect, request

from .. import i18n
from ..i18n import LANGUAGES, N_, _
from .extensions import LANG_COOKIE, html_lang

bp = Blueprint("language", __name__)
YEAR = 365 * 24 * 3600


# The few sentences the page scripts write themselves (static/js), given to them in the page's
# language as JSON (base.html's #js-words); the scripts keep the English as a fallback.
JS_WORDS = {
    "expired": N_("This page has expired. Tap \"See results\": everything you entered is kept."),
    "offline": N_("The live score could not be updated (no connection?). \"See results\" still works."),
    "copied": N_("Copied. Paste it in your group chat."),
    "copy_by_hand": N_("Select the text above and copy it."),
    "choose_photo": N_("Choose a photo first."),
    "uploading": N_("Uploading the photo…"),
    "reading": N_("Reading the tiles…"),
    "upload_failed": N_("The upload did not get through. Check the connection and try again."),
}


def js_words() -> dict[str, str]:
    return {key: _(text) for key, text in JS_WORDS.items()}


@cache
def language_name(code: str) -> str:
    """A language named in itself (CLDR, through Babel): English, Français, 中文. Kept once found:
    every page's footer names every language (~0.04 ms a page; each move draws one or two)."""
    name = Locale.parse(code).language_name or code
    return name[:1].upper() + name[1:]


def switch_links() -> list[dict[str, str]]:
    """The switch in the page's footer: every shipped language, each named in itself."""
    here = request.full_path.rstrip("?") if request else "/"
    return [{"code": code, "name": language_name(code), "lang": html_lang(code), "next": here}
            for code in LANGUAGES]


def _local(path: str | None) -> str:
    """Only a path of this site (``/score?x=1``); anything else (``//evil``, ``https://…``) goes home."""
    if not path or not path.startswith("/") or path.startswith("//") or "\\" in path:
        return "/"
    parts = urlsplit(path)
    if parts.scheme or parts.netloc or any(ord(ch) < 32 for ch in path):
        return "/"
    return path


@bp.get("/lang/<code>")
def choose(code: str):
    if code not in LANGUAGES:
        abort(404)
    response = redirect(_local(request.args.get("next")), code=303)
    response.set_cookie(LANG_COOKIE, code, max_age=YEAR, samesite="Lax", httponly=True,
                        secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")))
    return response


# -- the request's catalog, found once ------------------------------------------------------------
# Flask-Babel finds the catalog afresh for every message (its context, domain and locale: ~8 µs);
# a tracker board says 80+ messages. The catalog is kept on the request the first time instead
# (a request's language never changes while it runs), for the core's ``_`` and the templates'.

def _catalog() -> Any:
    if not has_request_context():
        return flask_babel.get_translations()
    found = getattr(request, "_planet_catalog", None)
    if found is None:
        found = request._planet_catalog = flask_babel.get_translations()  # type: ignore[attr-defined]
    return found


def translations() -> Any:
    """The catalog this request's messages come from (its language's; found once a request)."""
    return _catalog()


def gettext(message: str, **variables: Any) -> str:
    text = _catalog().ugettext(message)
    return text % variables if variables else text


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    variables.setdefault("num", num)
    return _catalog().ungettext(singular, plural, num) % variables  # type: ignore[no-any-return]


def pgettext(context: str, message: str, **variables: Any) -> str:
    text = _catalog().upgettext(context, message)
    return text % variables if variables else text


def install_catalog_lookup(app: Flask) -> None:
    """The core's ``_`` and the templates' ``_``/``ngettext`` look the catalog up once a request
    (after ``babel.init_app``, which installed Flask-Babel's own)."""
    i18n.use(gettext, ngettext, pgettext)
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda s: _catalog().ugettext(s),
        ngettext=lambda s, p, n: _catalog().ungettext(s, p, n),
        pgettext=lambda c, s: _catalog().upgettext(c, s),
        npgettext=lambda c, s, p, n: _catalog().unpgettext(c, s, p, n),
        newstyle=True)
