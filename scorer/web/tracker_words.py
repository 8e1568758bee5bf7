"""The tracker's events in words, for the pages and the JSON view's ``"text"``.

The engine (``scorer.draft``) gives typed events, already shown as the viewer may see them (a
tile they may not know is ``"hidden"``); this turns one into a sentence.
"""
from __future__ import annotations

from ..catalog import STACK_NAMES, Catalog
from ..draft import HIDDEN, State
from ..draft.events import (
    Appointed, Chose, Discarded, Event, Finished, Flipped, Hid, RoundBegan, Took,
)
from ..draft.view import Words
from ..planet import position_words


def event_text(event: Event, players: tuple[str, ...], cat: Catalog) -> str:
    """One event (as its viewer sees it) as a sentence."""
    match event:
        case Chose():
            return f"{players[event.seat]} chose the {STACK_NAMES[event.stack]} stack."
        case Hid():
            return f"{players[event.seat]} put one tile face down and showed two."
        case Took():
            return _took(event, players, cat)
        case Flipped():
            return (f"Third baobab on {players[event.seat]}'s planet — these {len(event.positions)} "
                    f"tiles turn face down: {', '.join(event.tiles)}.")
        case Appointed():
            if event.auto:
                return f"{players[event.to]} takes the last tile."
            return f"{players[event.seat]} appointed {players[event.to]}."
        case Discarded():
            return f"{event.tile} ({cat[event.tile].describe()}) is discarded face up."
        case RoundBegan():
            return f"Round {event.round}: {players[event.seat]} is the start player."
        case Finished():
            return "The game is over."


def _took(event: Took, players: tuple[str, ...], cat: Catalog) -> str:
    who = players[event.seat]
    if event.tile == HIDDEN:
        return f"{who} took a character tile (kept hidden)."
    blind = " the face-down tile," if event.blind else ""
    return f"{who} took{blind} {event.tile} ({cat[event.tile].describe()}), {position_words(event.position)}."


def words_for(state: State) -> Words:
    """``event_text`` for the events of this game (its players' names, its catalog)."""
    return lambda event: event_text(event, state.setup.players, state.cat)
