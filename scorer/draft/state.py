"""The state of a draft, frozen, and ``apply(state, move) -> (state, events)``.

Pure: no Flask, no database. A state is never changed: a move makes a new one
(``dataclasses.replace``) that keeps the one before it as ``previous``, so taking a move back is
going back one state (``undo.take_back``), and ``replay`` (in ``replay.py``) is the one way to
build a state from a setup and a move log.

Rules (SPEC §1 "Draft (tracker)"): the start player chooses a stack and its top tiles are
revealed, one per player (2 players: three, seen by the start player alone, who puts one face
down); each player takes one and puts it at a free position of its kind; with 3–5 players whoever
took names who takes next (the last one left is named without a move), and the last to take
starts the next round; with 2 players the other player takes first, then the start player, the
tile left is discarded face up, and the roles swap. After 16 rounds the planets are scored.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

from ..catalog import STACKS, Catalog, catalog as default_catalog, stack_name
from ..contract import score_request
from ..errors import IllegalMove, NotYourTurn
from ..i18n import N_, _
from ..planet import STACK_AT, Planet, position_words
from .events import Appointed, Chose, Discarded, Event, Finished, Flipped, Hid, RoundBegan, Took
from .moves import Appoint, Choose, Hide, Move, Take
from .setup import ROUNDS, Piles, Setup, deal

Phase = Literal["choose", "hide", "take", "appoint", "finished"]
WANT: Mapping[str, str] = {"choose": N_("choose a stack"), "hide": N_("put one of the three tiles face down"),
                           "take": N_("take a tile"), "appoint": N_("say who takes next")}


@dataclass(frozen=True, slots=True)
class State:
    setup: Setup
    cat: Catalog = field(repr=False, compare=False)
    piles: Piles                        # each stack's draw pile, top first
    removed: Piles                      # set aside unseen for this player count
    planets: tuple[Planet, ...]
    round: int = 1
    start: int = 0                      # start player of this round (2 players: player A)
    phase: Phase = "choose"
    to_act: int | None = 0
    round_stack: str | None = None
    revealed: tuple[str, ...] = ()      # tiles on the table this round
    face_down: str | None = None        # 2 players: the tile the start player put face down
    taken: tuple[int, ...] = ()         # seats that took this round, in order
    chosen: Mapping[str, int] = field(default_factory=lambda: dict.fromkeys(STACKS, 0))
    discarded: tuple[str, ...] = ()
    result: Mapping[str, object] | None = None
    version: int = 0                    # entries in the move log, undo entries included
    last_move: Move | None = None       # the move that made this state (None: none stands)
    news: tuple[Event, ...] = ()        # the events of that move
    event_count: int = 0                # events since the start, ``news`` included
    previous: State | None = field(default=None, repr=False, compare=False)

    @property
    def n(self) -> int:
        return len(self.setup.players)

    @property
    def two_player(self) -> bool:
        return self.n == 2

    @property
    def finished(self) -> bool:
        return self.phase == "finished"

    def name(self, seat: int | None) -> str | None:
        return None if seat is None else self.setup.players[seat]


def start(setup: Setup, cat: Catalog | None = None) -> State:
    """The state before the first move: the stacks dealt, the youngest to choose."""
    cat = cat or default_catalog()
    piles, removed = deal(setup, cat)
    return State(setup=setup, cat=cat, piles=piles, removed=removed,
                 planets=tuple(Planet() for _ in setup.players))


def history(state: State) -> Iterator[State]:
    """This state and every one before it, newest first."""
    s: State | None = state
    while s is not None:
        yield s
        s = s.previous


def events(state: State, recent: int | None = None) -> list[tuple[int, Event]]:
    """The game's events (the last ``recent`` of them), oldest first, each with its number."""
    want = state.event_count if recent is None else min(recent, state.event_count)
    out: list[tuple[int, Event]] = []
    for s in history(state):
        if len(out) >= want:
            break
        first = s.event_count - len(s.news)
        out.extend(reversed(list(enumerate(s.news, start=first))))
    return list(reversed(out[:want]))


def moves(state: State) -> list[Move]:
    """The moves that stand (undone ones left out), oldest first."""
    return [s.last_move for s in reversed(list(history(state))) if s.last_move is not None]


# -- playing ------------------------------------------------------------------------------------

def apply(state: State, move: Move) -> tuple[State, tuple[Event, ...]]:
    """Check ``move`` against the rules and play it: the new state and the events it caused.

    Raises ``IllegalMove`` (or ``NotYourTurn``) with a reason a player understands; ``state`` is
    never changed.
    """
    _check_turn(state, move)
    begun = replace(state, version=state.version + 1, last_move=move, news=(), previous=state)
    match move:
        case Choose():
            after = _choose(begun, move)
        case Hide():
            after = _hide(begun, move)
        case Take():
            after = _take(begun, move)
        case Appoint():
            after = _appoint(begun, move)
    return after, after.news


def _emit(state: State, event: Event) -> State:
    return replace(state, news=(*state.news, event), event_count=state.event_count + 1)


def _check_turn(state: State, move: Move) -> None:
    """The checks every move shares: a seat of this game, the game not over, its turn, its phase."""
    if not 0 <= move.seat < state.n:
        raise IllegalMove(_("\"seat\" is a player's seat number, 0 to %(last)d.", last=state.n - 1),
                          ("move", "seat"))
    if state.finished:
        raise IllegalMove(_("The game is over; there are no more moves."), ("move",))
    if move.seat != state.to_act:
        raise NotYourTurn(_("It is %(to_act)s's turn, not %(seat)s's.", to_act=state.name(state.to_act),
                            seat=state.name(move.seat)), ("move", "seat"))
    if move.type != state.phase:
        raise IllegalMove(_("%(who)s, it is time to %(want)s, not to %(kind)s.", who=state.name(move.seat),
                            want=_(WANT[state.phase]), kind=move.type), ("move", "type"))


def _choose(s: State, move: Choose) -> State:
    pile = s.piles[move.stack]
    if not pile:
        raise IllegalMove(_("The %(stack)s stack is empty (it has been chosen 4 times); choose another.",
                            stack=stack_name(move.stack)), ("move", "stack"))
    count = 3 if s.two_player else s.n
    s = replace(s, round_stack=move.stack, revealed=pile[:count], face_down=None, taken=(),
                piles={**s.piles, move.stack: pile[count:]},
                chosen={**s.chosen, move.stack: s.chosen[move.stack] + 1},
                phase="hide" if s.two_player else "take")
    return _emit(s, Chose(s.round, move.seat, move.stack, s.revealed))


def _hide(s: State, move: Hide) -> State:
    if move.tile not in s.revealed:
        raise IllegalMove(_("%(tile)s is not one of the three tiles you drew (%(drawn)s).",
                            tile=repr(move.tile), drawn=", ".join(s.revealed)), ("move", "tile"))
    s = replace(s, face_down=move.tile, phase="take", to_act=1 - s.start)
    return _emit(s, Hid(s.round, move.seat, move.tile))


def _appoint(s: State, move: Appoint) -> State:
    if move.to >= s.n:
        raise IllegalMove(_("\"to\" is the seat number of the player who takes next, 0 to %(last)d.",
                            last=s.n - 1), ("move", "to"))
    if move.to in s.taken:
        raise IllegalMove(_("%(who)s has already taken a tile this round; appoint someone who has not.",
                            who=s.name(move.to)), ("move", "to"))
    s = replace(s, to_act=move.to, phase="take")
    return _emit(s, Appointed(s.round, move.seat, move.to, auto=False))


def _take(s: State, move: Take) -> State:
    tile = _tile_taken(s, move)
    planet, flipped = s.planets[move.seat].place(tile, move.position, s.cat)
    s = replace(s, revealed=tuple(t for t in s.revealed if t != tile), taken=(*s.taken, move.seat),
                planets=tuple(planet if i == move.seat else p for i, p in enumerate(s.planets)))
    s = _emit(s, Took(s.round, move.seat, tile, move.position, move.blind))
    if flipped:
        s = _emit(s, Flipped(s.round, move.seat, flipped,
                             tuple(_tile_at(planet, p) for p in flipped)))
    return _after_take_of_two(s) if s.two_player else _after_take(s, move.seat)


def _tile_taken(s: State, move: Take) -> str:
    """The tile a take names, checked: on the table, known to the taker, going to a free place
    of its kind. The face-down tile, named ``"hidden"``, is resolved to its id."""
    if move.blind:
        if not s.two_player or s.face_down not in s.revealed or s.face_down is None:
            raise IllegalMove(_("There is no face-down tile to take."), ("move", "tile"))
        tile = s.face_down
    elif move.tile not in s.revealed or (s.two_player and move.tile == s.face_down
                                         and move.seat != s.start):
        raise IllegalMove(_("%(tile)s is not one of the tiles on the table.", tile=repr(move.tile)),
                          ("move", "tile"))
    else:
        tile = move.tile
    _check_position(s, move.seat, move.position)
    return tile


def _check_position(s: State, seat: int, position: int) -> None:
    stack = s.round_stack
    assert stack is not None  # a take comes after a choose
    if STACK_AT[position] != stack:
        free = ", ".join(position_words(p) for p in s.planets[seat].free_positions(stack))
        raise IllegalMove(_("A %(stack)s tile cannot go at %(place)s; that place takes a %(other)s tile. "
                            "Free places: %(free)s.", stack=stack_name(stack), place=position_words(position),
                            other=stack_name(STACK_AT[position]), free=free), ("move", "position"))
    if s.planets[seat].cells[position] is not None:
        raise IllegalMove(_("%(place)s of your planet is already taken.", place=position_words(position)),
                          ("move", "position"))


def _tile_at(planet: Planet, position: int) -> str:
    cell = planet.cells[position]
    assert cell is not None and cell.tile is not None
    return cell.tile


def _after_take_of_two(s: State) -> State:
    """2 players: the start player takes second; then the tile left is discarded face up."""
    if len(s.taken) == 1:
        return replace(s, to_act=s.start)
    for left in s.revealed:
        s = _emit(replace(s, discarded=(*s.discarded, left)), Discarded(s.round, left))
    return _end_round(replace(s, revealed=()), next_start=1 - s.start)


def _after_take(s: State, seat: int) -> State:
    """3–5 players: the taker names who is next; the last one left is named without a move."""
    left = [p for p in range(s.n) if p not in s.taken]
    if not left:
        return _end_round(s, next_start=seat)
    if len(left) == 1:
        return _emit(replace(s, to_act=left[0]), Appointed(s.round, seat, left[0], auto=True))
    return replace(s, phase="appoint")


def _end_round(s: State, next_start: int) -> State:
    s = replace(s, face_down=None, revealed=(), round_stack=None)
    if s.round == ROUNDS:
        s = replace(s, phase="finished", to_act=None)
        s = replace(s, result=score_request(score_request_of(s), s.cat))
        return _emit(s, Finished(s.round))
    s = replace(s, round=s.round + 1, start=next_start, to_act=next_start, phase="choose")
    return _emit(s, RoundBegan(s.round, next_start))


def score_request_of(state: State) -> dict[str, object]:
    """The scoring request (SPEC §2) of the planets as they stand."""
    return {"players": [{"name": name, "planet": planet.as_grid()}
                        for name, planet in zip(state.setup.players, state.planets, strict=True)]}
