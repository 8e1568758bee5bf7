"""The Flask extensions and request helpers every blueprint shares.

Blueprints import from here, never from ``scorer.web`` itself, so the app factory can import the
blueprints without a cycle.
"""
from __future__ import annotations

from collections.abc import Iterable

from flask import current_app, has_request_context, request
from flask_babel import Babel
from flask_wtf.csrf import CSRFProtect

from ..db import Database
from ..i18n import LANGUAGES

csrf = CSRFProtect()
babel = Babel()

LANG_COOKIE = "lang"
# Accept-Language tags (lower case, '-') that name a shipped catalog other than by its own code.
_TAG_ALIASES = {
    "zh-tw": "zh_Hant_TW", "zh-hant": "zh_Hant_TW", "zh-hk": "zh_Hant_TW", "zh-mo": "zh_Hant_TW",
    "zh-hant-hk": "zh_Hant_TW", "zh-hant-mo": "zh_Hant_TW",
}
_LANGUAGE_TAGS = {code.lower().replace("_", "-"): code for code in LANGUAGES} | {
    tag: code for tag, code in _TAG_ALIASES.items() if code in LANGUAGES}


def html_lang(code: str) -> str:
    """The BCP 47 tag of a shipped catalog, for ``<html lang>``: ``zh_Hant_TW`` -> ``zh-Hant-TW``."""
    return code.replace("_", "-")


HTML_LANG = {code: html_lang(code) for code in LANGUAGES}


def get_db() -> Database:
    db: Database = current_app.extensions["db"]
    return db


def wants_json() -> bool:
    return request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json"


def select_locale() -> str:
    """The language chosen with the switch (a cookie), else the browser's best, else English."""
    if not has_request_context():  # a command or a background job: the source language
        return "en"
    return locale_for(request.cookies.get(LANG_COOKIE, ""), request.accept_languages)


def locale_for(chosen: str, accepted: Iterable[tuple[str, float]]) -> str:
    """``select_locale`` from the language cookie's value and the Accept-Language tags, best first
    (the live refresh answers in front of Flask and asks this too)."""
    if chosen in LANGUAGES:
        return chosen
    for tag, _quality in accepted:
        tag = tag.lower().replace("_", "-")
        for candidate in (tag, tag.split("-")[0]):
            if candidate in _LANGUAGE_TAGS:
                return _LANGUAGE_TAGS[candidate]
    return "en"
