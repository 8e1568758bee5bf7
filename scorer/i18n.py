"""Translation hooks for the pure core.

The core (rules, contract, draft) marks the sentences a person reads with ``_`` and
``ngettext``, Flask-Babel style: ``_("%(who)s needs a name.", who=name)``,
``ngettext("%(num)d volcano", "%(num)d volcanoes", n)``. With nothing plugged in they give
English; the web layer plugs in Flask-Babel's functions (``use``) so a request gets its own
language. No Flask here: the core stays pure.

``N_`` marks a string for the catalog without translating it (module-level constants that are
translated later, where they are shown: ``_(CHARACTER_NAMES[name])``).

The shipped languages are the catalogs in ``scorer/translations/<locale>/LC_MESSAGES``: adding a
language is adding its ``messages.po`` (``make i18n-init LOCALE=de``) and compiling it.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

TRANSLATIONS = Path(__file__).with_name("translations")
SOURCE_LANGUAGE = "en"


def _shipped_languages() -> tuple[str, ...]:
    found = sorted(p.parent.parent.name for p in TRANSLATIONS.glob("*/LC_MESSAGES/messages.mo"))
    return (SOURCE_LANGUAGE, *(code for code in found if code != SOURCE_LANGUAGE))


LANGUAGES = _shipped_languages()  # "en" (the source language), then each compiled catalog


def _english(message: str, **variables: Any) -> str:
    return message % variables if variables else message


def _english_plural(singular: str, plural: str, num: int, **variables: Any) -> str:
    variables.setdefault("num", num)
    return (singular if num == 1 else plural) % variables


def _english_in_context(context: str, message: str, **variables: Any) -> str:
    return _english(message, **variables)


_gettext: Callable[..., str] = _english
_ngettext: Callable[..., str] = _english_plural
_pgettext: Callable[..., str] = _english_in_context


def use(gettext: Callable[..., str], ngettext: Callable[..., str],
        pgettext: Callable[..., str] = _english_in_context) -> None:
    """Plug in the translating functions (the web layer does, once, at start)."""
    global _gettext, _ngettext, _pgettext
    _gettext, _ngettext, _pgettext = gettext, ngettext, pgettext


def _(message: str, **variables: Any) -> str:
    return _gettext(message, **variables)


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    return _ngettext(singular, plural, num, **variables)


def pgettext(context: str, message: str, **variables: Any) -> str:
    """A message whose English is also another message's (``"white sheep"``, one or several)."""
    return _pgettext(context, message, **variables)


def N_(message: str) -> str:
    return message


def list_words(words: Sequence[str]) -> str:
    """``fox``, ``fox and snake``, ``fox, snake and sheep`` in the reader's language."""
    if not words:
        return _("none")
    text = words[0]
    for word in words[1:-1]:
        text = _("%(list)s, %(item)s", list=text, item=word)
    if len(words) > 1:
        text = _("%(list)s and %(last)s", list=text, last=words[-1])
    return text
