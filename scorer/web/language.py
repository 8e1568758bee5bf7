"""The language switch: ``GET /lang/<code>?next=<a path of this site>`` remembers the choice in
the ``lang`` cookie for a year and goes back to the page it was used on."""
from __future__ import annotations

from urllib.parse import urlsplit

from babel import Locale
from flask import Blueprint, abort, current_app, redirect, request

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


def language_name(code: str) -> str:
    """A language named in itself (CLDR, through Babel): English, Français, 中文."""
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
