"""JSON from outside, read once at the edge with limits: size, nesting depth, and strings that
can be stored and sent back (no lone surrogates). Every refusal is an ``InputError``.

Pure: the API, the commands and the sister game's tally all read their bodies through this.
"""
from __future__ import annotations

import json

from .errors import InputError, Key, Where
from .i18n import _

MAX_DEPTH = 32              # a scoring request nests 6 deep; a tracker move 3
MAX_BYTES = 256 * 1024      # a 5-player table by tiles is about 3 KB


def load_json(raw: bytes | str, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH) -> object:
    """The parsed value, or ``InputError`` saying what is wrong, for a person."""
    if len(raw) > max_bytes:
        raise InputError(_("That request is too large (%(n)d bytes; at most %(most)d).", n=len(raw),
                           most=max_bytes), ("body",))
    try:
        value = json.loads(raw)
    except RecursionError:
        raise InputError(_("That JSON is nested too deeply."), ("body",)) from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise InputError(_("That is not valid JSON (%(why)s).", why=exc), ("body",)) from None
    check_value(value, max_depth)
    return value


def check_value(value: object, max_depth: int = MAX_DEPTH) -> None:
    """Refuse nesting deeper than ``max_depth`` and any string (or key) that cannot be encoded."""
    stack: list[tuple[object, Where]] = [(value, ())]
    while stack:
        item, where = stack.pop()
        if len(where) > max_depth:
            raise InputError(_("That JSON is nested too deeply (more than %(most)d levels).", most=max_depth),
                             where[:max_depth])
        if isinstance(item, str):
            _check_text(item, where)
        elif isinstance(item, dict):
            for key, sub in item.items():
                _check_text(key, where)  # (not in ``where``: it could not be sent back)
                stack.append((sub, (*where, key)))
        elif isinstance(item, list):
            stack.extend((sub, (*where, i)) for i, sub in enumerate(item))


def _check_text(text: str, where: tuple[Key, ...]) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(_("A text in that request has a character that cannot be stored (a lone "
                           "surrogate); type it again."), where) from None
