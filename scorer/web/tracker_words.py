"""The tracker's events in words, for the pages and the JSON view's ``"text"``.

The engine (``scorer.draft``) gives typed events, already shown as the viewer may see them (a
tile they may not know is ``"hidden"``); this turns one into a sentence, in the request's
language (``scorer.i18n``, Flask-Babel in the app).
"""
from __future__ import annotations

from ..catalog import Catalog, stack_name
from ..draft import HIDDEN, State
from ..draft.events import (
    Appointed, Chose, Discarded, Event, Finished, Flipped, Hid, RoundBegan, Took,
)
from ..draft.view import Words
from ..i18n import _, ngettext
from ..planet import position_words


def event_text(event: Event, players: tuple[str, ...], cat: Catalog) -> str:
    """One event (as its viewer sees it) as a sentence."""
    match event:
        case Chose():
            return _("%(who)s chose the %(stack)s stack.", who=players[event.seat], stack=stack_name(event.stack))
        case Hid():
            return _("%(who)s put one tile face down and showed two.", who=players[event.seat])
        case Took():
            return _took(event, players, cat)
        case Flipped():
            return ngettext("Third baobab on %(who)s's planet — this tile turns face down: %(tiles)s.",
                            "Third baobab on %(who)s's planet — these %(num)d tiles turn face down: %(tiles)s.",
                            len(event.positions), who=players[event.seat], tiles=", ".join(event.tiles))
        case Appointed():
            if event.auto:
                return _("%(who)s takes the last tile.", who=players[event.to])
            return _("%(who)s appointed %(next)s.", who=players[event.seat], next=players[event.to])
        case Discarded():
            return _("%(tile)s (%(what)s) is discarded face up.", tile=event.tile, what=cat[event.tile].describe())
        case RoundBegan():
            return _("Round %(round)d: %(who)s is the start player.", round=event.round, who=players[event.seat])
        case Finished():
            return _("The game is over.")


def _took(event: Took, players: tuple[str, ...], cat: Catalog) -> str:
    who = players[event.seat]
    if event.tile == HIDDEN:
        return _("%(who)s took a character tile (kept hidden).", who=who)
    where = position_words(event.position)
    what = cat[event.tile].describe()
    if event.blind:
        return _("%(who)s took the face-down tile, %(tile)s (%(what)s), %(where)s.",
                 who=who, tile=event.tile, what=what, where=where)
    return _("%(who)s took %(tile)s (%(what)s), %(where)s.", who=who, tile=event.tile, what=what, where=where)


def words_for(state: State) -> Words:
    """``event_text`` for the events of this game (its players' names, its catalog)."""
    return lambda event: event_text(event, state.setup.players, state.cat)
