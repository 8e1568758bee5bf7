"""Players' names, checked the same way everywhere (scoring, the draft, the sister game).

A name is normalised (NFC, outer spaces dropped); control and invisible format characters are
refused; two names that differ only in case, Unicode form or look-alike letters are the same
player.
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs import confusables  # type: ignore[import-untyped]

from .errors import InputError, Where
from .i18n import _, ngettext
from .limits import MAX_NAME

_REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn"}


def clean_name(raw: object, label: str, where: Where) -> str:
    """The name as it will be stored, or ``InputError`` saying what is wrong with it."""
    if not isinstance(raw, str) or not raw.strip():
        raise InputError(_("%(who)s needs a name.", who=label), where)
    name = unicodedata.normalize("NFC", raw).strip()
    if any(unicodedata.category(ch) in _REFUSED_CATEGORIES for ch in name):
        raise InputError(_("%(who)s's name has an invisible or control character; type it again.",
                           who=label), where)
    if len(name) > MAX_NAME:
        raise InputError(ngettext("%(who)s's name is longer than %(num)d character.",
                                  "%(who)s's name is longer than %(num)d characters.",
                                  MAX_NAME, who=label), where)
    return name


def name_key(name: str) -> str:
    """What makes two names the same player: case, Unicode form and look-alike letters from
    another script (Cyrillic "А" for Latin "A", Greek "ο" for "o") do not count."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return "".join(_latin_look_alike(ch) for ch in folded).casefold()


@lru_cache(maxsize=4096)
def _latin_look_alike(ch: str) -> str:
    """The Latin letter ``ch`` looks like (Unicode's confusables, through a well-kept library),
    or ``ch`` itself."""
    if ch.isascii():
        return ch
    found = confusables.is_confusable(ch, preferred_aliases=["latin"])
    if not found:
        return ch
    glyphs = found[0].get("homoglyphs") or []
    return str(glyphs[0]["c"]) if glyphs else ch
