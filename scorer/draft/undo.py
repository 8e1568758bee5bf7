"""Taking a move back: one table of which moves can be, and why not.

In the spirit of boardgame.io's ``undoable``: a move can be taken back only while nobody has
learnt anything from it. So
- a ``choose`` or a ``hide`` cannot: it showed tiles to someone;
- a ``take`` or an ``appoint`` can, unless it showed someone a tile they had not seen:
  - a blind take of the face-down tile (the taker now knows it);
  - a 2-player take that left the face-down tile to be discarded face up;
  - with hidden characters (3–5 players), a take or appoint that handed the character tiles of
    the round to another player (they saw which ones were left);
- nothing can once the game is over and scored;
- and only the seat that made a move may take it back (the host, ``seat=None``, may take back
  anyone's, on the one phone passed round the table).

``undoable(state, seat)`` is ``None`` when ``seat`` may take the last move back, else the
``Reason`` why not; ``take_back(state)`` is the state before it.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from enum import Enum

from ..errors import IllegalMove, NotYourTurn
from ..i18n import N_, _
from .events import Discarded
from .moves import Appoint, Choose, Hide, Move, Take
from .state import State
from .visibility import Viewer


class Why(Enum):
    FINISHED = N_("The game is over and scored; it cannot be taken back.")
    NOTHING = N_("There is nothing to take back yet.")
    SHOWN = N_("New tiles have been shown since; that cannot be taken back.")
    BLIND = N_("The face-down tile has been turned over; that take cannot be taken back.")
    DISCARDED_FACE_UP = N_("The face-down tile has been discarded face up; that take cannot be taken back.")
    HANDED_ON = N_("%(name)s has seen the character tiles left; that cannot be taken back.")
    NOT_YOURS = N_("Only %(name)s can take back their own move.")


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a move cannot be taken back; ``seat`` is the player the sentence names, if any."""

    why: Why
    seat: int | None = None

    def message(self, players: tuple[str, ...]) -> str:
        if self.seat is None:
            return _(self.why.value)
        return _(self.why.value, name=players[self.seat])

    def error(self, players: tuple[str, ...]) -> IllegalMove:
        kind = NotYourTurn if self.why is Why.NOT_YOURS else IllegalMove
        return kind(self.message(players), ("undo",))


def _blind(before: State, move: Move, after: State) -> Reason | None:
    return Reason(Why.BLIND) if isinstance(move, Take) and move.blind else None


def _face_down_discarded(before: State, move: Move, after: State) -> Reason | None:
    shown = any(isinstance(e, Discarded) and e.tile == before.face_down for e in after.news)
    return Reason(Why.DISCARDED_FACE_UP) if before.face_down is not None and shown else None


def _handed_on(before: State, move: Move, after: State) -> Reason | None:
    hands_over = (before.setup.hidden_characters and not before.two_player
                  and before.round_stack == "character")
    if hands_over and after.phase == "take" and after.to_act != move.seat and after.revealed:
        return Reason(Why.HANDED_ON, after.to_act)
    return None


Seal = Callable[[State, Move, State], Reason | None]

# The one table: each kind of move, and what keeps it from being taken back.
UNDOABLE: Mapping[type[Move], tuple[Seal, ...] | None] = {
    Choose: None,    # showed the drawn tiles
    Hide: None,      # showed two tiles to the other player
    Take: (_blind, _face_down_discarded, _handed_on),
    Appoint: (_handed_on,),
}


def undoable(state: State, seat: Viewer) -> Reason | None:
    """``None`` if ``seat`` (None: the host) may take back the last move now, else why not."""
    if state.finished:
        return Reason(Why.FINISHED)
    move, before = state.last_move, state.previous
    if move is None or before is None:
        return Reason(Why.NOTHING)
    seals = UNDOABLE[type(move)]
    if seals is None:
        return Reason(Why.SHOWN)
    for seal in seals:
        reason = seal(before, move, state)
        if reason is not None:
            return reason
    if seat is not None and move.seat != seat:
        return Reason(Why.NOT_YOURS, move.seat)
    return None


def can_undo(state: State) -> bool:
    """May the last move be taken back by someone (its maker, or the host)?"""
    return undoable(state, None) is None


def check_undo(state: State, seat: Viewer) -> None:
    """Raise ``IllegalMove`` (``NotYourTurn`` for another seat's move) unless ``undoable``."""
    reason = undoable(state, seat)
    if reason is not None:
        raise reason.error(state.setup.players)


def take_back(state: State) -> State:
    """The state before the last move (at the next version: the undo is a log entry too)."""
    back = state.previous if state.previous is not None else state
    return replace(back, version=state.version + 1)
