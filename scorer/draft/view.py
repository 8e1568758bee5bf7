"""The game as one seat may see it (SPEC §2 "Tracker, as JSON"), and the moves it may make.

``view(state, seat)`` never holds a tile that ``visibility.may_see`` keeps from that seat: such a
tile shows as ``"hidden"``. ``seat=None`` is the public view (nobody's phone). ``legal(state,
seat)`` lists the moves ``seat`` may make now; each one's ``as_json()`` can be posted as it is.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..catalog import STACKS
from ..planet import Cell
from .events import Chose, Discarded, Event, Flipped, Hid, Took
from .moves import HIDDEN, Appoint, Choose, Hide, Move, Take
from .setup import ROUNDS
from .state import State, events
from .undo import can_undo
from .visibility import Viewer, may_see, sees_on_planet

RECENT = 12
Words = Callable[[Event], str]


def legal(state: State, seat: Viewer) -> list[Move]:
    """The moves ``seat`` may make now (none for the public, or when it is not their turn)."""
    if seat is None or state.finished or seat != state.to_act:
        return []
    if state.phase == "choose":
        return [Choose(seat, s) for s in STACKS if state.piles[s]]
    if state.phase == "hide":
        return [Hide(seat, t) for t in state.revealed]
    if state.phase == "appoint":
        return [Appoint(seat, to) for to in range(state.n) if to not in state.taken]
    assert state.round_stack is not None
    free = state.planets[seat].free_positions(state.round_stack)
    return [Take(seat, shown(state, seat, t), p) for t in state.revealed for p in free]


def shown(state: State, viewer: Viewer, tile: str) -> str:
    """``tile`` as ``viewer`` may see it: its id, or ``"hidden"``."""
    return tile if may_see(state, viewer, tile) else HIDDEN


def seen_event(state: State, viewer: Viewer, event: Event) -> Event:
    """``event`` with the tiles ``viewer`` may not see now shown as ``"hidden"``."""
    if isinstance(event, Chose | Flipped):
        return replace(event, tiles=tuple(shown(state, viewer, t) for t in event.tiles))
    if isinstance(event, Hid | Took | Discarded):
        return replace(event, tile=shown(state, viewer, event.tile))
    return event


def view(state: State, seat: Viewer = None, recent: int = RECENT,
         words: Words | None = None) -> dict[str, object]:
    """The game as ``seat`` may see it; the last ``recent`` events, each with ``words(event)``
    as its ``"text"`` when ``words`` is given (the sentences are the web layer's)."""
    return {
        "version": state.version, "round": state.round, "rounds": ROUNDS, "phase": state.phase,
        "to_act": state.to_act, "to_act_name": state.name(state.to_act),
        "start_player": state.start, "seat": seat, "players": list(state.setup.players),
        "hidden_characters": state.setup.hidden_characters,
        "stacks": {s: len(state.piles[s]) for s in STACKS},
        "chosen": {s: state.chosen[s] for s in STACKS},
        "round_stack": state.round_stack,
        "revealed": [shown(state, seat, t) for t in state.revealed],
        "face_down": _face_down(state, seat),
        "taken_this_round": list(state.taken) if state.round_stack else [],
        "discarded": list(state.discarded),
        "removed": {s: len(state.removed[s]) for s in STACKS},
        "planets": _planets(state, seat),
        "legal": [m.as_json() for m in legal(state, seat)],
        "can_undo": can_undo(state),
        "events": _events(state, seat, recent, words),
        "finished": state.finished,
        "result": state.result,
    }


def _face_down(state: State, seat: Viewer) -> str | None:
    if state.two_player and state.face_down is not None and state.face_down in state.revealed:
        return shown(state, seat, state.face_down)
    return None


def _planets(state: State, seat: Viewer) -> list[dict[str, object]]:
    sees = sees_on_planet(state, seat)  # ``may_see``, for a tile on a planet

    def hider(owner: int) -> Callable[[int, Cell], bool]:
        return lambda position, cell: cell.tile is not None and not sees(owner, cell.tile)

    return [{"seat": owner, "name": state.name(owner), "cells": planet.as_grid(hide=hider(owner))["cells"],
             "tiles": planet.tile_count} for owner, planet in enumerate(state.planets)]


def _events(state: State, seat: Viewer, recent: int, words: Words | None) -> list[dict[str, object]]:
    if not recent:
        return []
    out = []
    for n, event in events(state, recent):
        seen = seen_event(state, seat, event)
        data = seen.as_json(n)
        if words is not None:
            data["text"] = words(seen)
        out.append(data)
    return out
