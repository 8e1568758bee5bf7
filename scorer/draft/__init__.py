"""The draft tracker's engine (SPEC §1 "Draft (tracker)"): pure, typed, no Flask, no database.

- ``setup``: ``Setup`` (players, seed, hidden characters) and ``deal``.
- ``moves``: the moves ``Choose``, ``Hide``, ``Take``, ``Appoint`` and ``parse_move``.
- ``state``: the frozen ``State`` and ``apply(state, move) -> (state, events)``.
- ``events``: what a move made happen, as typed values (the web layer words them).
- ``visibility``: ``may_see(state, viewer, tile)``, the one rule of who sees what.
- ``undo``: ``undoable(state, seat)``, the one table of which moves can be taken back.
- ``view``: ``view(state, seat)``, the SPEC's JSON for a seat, and ``legal(state, seat)``.
- ``replay``: ``replay(setup, log)``, the one way to build a state from a move log.
- ``standing``: ``standings(state, viewer)``, each planet's points so far as a viewer may know them.
"""
from __future__ import annotations

from .events import Event
from .moves import HIDDEN, Appoint, Choose, Entry, Hide, Move, Take, Undo, parse_entry, parse_move
from .replay import advance, replay
from .standing import Standing, standings
from .setup import MAX_NAME, MAX_PLAYERS, MIN_PLAYERS, ROUNDS, Setup, deal
from .state import State, apply, events, moves, score_request_of, start
from .undo import Reason, Why, can_undo, check_undo, take_back, undoable
from .view import legal, seen_event, view
from .visibility import Viewer, may_see

__all__ = [
    "HIDDEN", "MAX_NAME", "MAX_PLAYERS", "MIN_PLAYERS", "ROUNDS", "Appoint", "Choose", "Entry",
    "Event", "Hide", "Move", "Reason", "Setup", "Standing", "State", "Take", "Undo", "Viewer", "Why", "advance",
    "apply", "can_undo", "check_undo", "deal", "events", "legal", "may_see", "moves", "parse_entry",
    "parse_move", "replay", "score_request_of", "seen_event", "standings", "start", "take_back", "undoable",
    "view",
]
