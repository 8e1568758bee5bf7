"""Translation hooks for the pure core.

The core (rules, contract, draft) marks the sentences a person reads with ``_`` and
``ngettext``, Flask-Babel style: ``_("%(who)s needs a name.", who=name)``,
``ngettext("%(num)d volcano", "%(num)d volcanoes", n)``. With nothing plugged in they give
English; the web layer plugs in Flask-Babel's functions (``use``) so a request gets its own
language. No Flask here: the core stays pure.

``N_`` marks a string for the catalog without translating it (module-level constants that are
translated later, where they are shown: ``_(CHARACTER_NAMES[name])``).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

LANGUAGES = ("en", "fr", "zh_Hant_TW")  # the shipped catalogs; "en" is the source language


def _english(message: str, **variables: Any) -> str:
    return message % variables if variables else message


def _english_plural(singular: str, plural: str, num: int, **variables: Any) -> str:
    variables.setdefault("num", num)
    return (singular if num == 1 else plural) % variables


_gettext: Callable[..., str] = _english
_ngettext: Callable[..., str] = _english_plural


def use(gettext: Callable[..., str], ngettext: Callable[..., str]) -> None:
    """Plug in the translating functions (the web layer does, once, at start)."""
    global _gettext, _ngettext
    _gettext, _ngettext = gettext, ngettext


def _(message: str, **variables: Any) -> str:
    return _gettext(message, **variables)


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    return _ngettext(singular, plural, num, **variables)


def N_(message: str) -> str:
    return message
