"""``replay(setup, log)``: the one way to build a state from a game's move log.

A log holds the moves as posted (normalised JSON) and ``{"type": "undo"}`` entries, each of which
takes back the move that stands before it. ``advance(state, entries)`` goes on from a state
already built (the store's cache keeps one), so a state is built the same way however it is read.
"""
from __future__ import annotations

from collections.abc import Iterable

from ..catalog import Catalog
from .moves import Undo, parse_entry
from .setup import Setup
from .state import State, apply, start
from .undo import take_back


def advance(state: State, entries: Iterable[object]) -> State:
    """The state after the log ``entries`` (JSON), starting from ``state``."""
    for data in entries:
        entry = parse_entry(data)
        if isinstance(entry, Undo):
            state = take_back(state)
        else:
            state, _ = apply(state, entry)
    return state


def replay(setup: Setup, log: Iterable[object], cat: Catalog | None = None) -> State:
    """The state after the move log ``log`` (undo entries are honoured)."""
    return advance(start(setup, cat), log)
