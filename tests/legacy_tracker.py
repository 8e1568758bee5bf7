"""A frozen copy of the draft engine as it was before ``scorer.draft`` (``scorer/tracker.py`` at
commit 571b3c9), kept only so that ``tests/test_draft_equivalence.py`` can play the same games
through both and compare every view. Not used by the app.

The draft tracker's engine: a game is its setup plus the moves made (SPEC §1 "Draft (tracker)").

Pure: no Flask, no database. ``replay(setup, moves)`` folds the moves over the setup and gives the
``Game`` state; ``Game.legal(seat)`` lists the moves a seat may make now (JSON-ready dicts that can
be posted back as they are); ``Game.apply(move)`` checks a move and plays it, or raises
``MoveError`` with a reason a player understands; ``Game.view(seat)`` is the game as that seat may
see it (``seat=None``: the public view), with hidden information shown as ``"hidden"``.

Moves (every move names its ``seat``):
- ``{"type": "choose", "seat": s, "stack": "center"}`` — the start player picks a stack; its top
  tiles are revealed (3–5 players: one per player; 2 players: 3 that only the start player sees).
- ``{"type": "hide", "seat": a, "tile": "C07"}`` — 2 players: the start player puts that tile
  face down and shows the other two.
- ``{"type": "take", "seat": s, "tile": "C07", "position": 5}`` — take a revealed tile and put
  it at a free position of its kind. In a 2-player game the face-down tile is ``"hidden"`` for
  the player who did not hide it.
- ``{"type": "appoint", "seat": s, "to": t}`` — 3–5 players: after taking, name who takes next.
  When only one player is left to take, they are appointed without a move.

Rule decisions beyond the SPEC:
- With hidden characters and 3–5 players, the tiles of a character round are seen only by the
  player about to take (the tiles go round face down), so nobody learns another's character.
- ``undo`` takes back the last ``take`` or ``appoint``; a ``choose`` or ``hide`` showed tiles to
  someone and cannot be taken back. Nor can a move that showed someone a tile they had not seen:
  a blind take of the face-down tile (the taker now knows it), a 2-player take that discarded the
  face-down tile face up, and, with hidden characters, a take or appoint that handed the character
  tiles of the round to another player (they saw which ones were left).
"""
# ruff: noqa  -- a verbatim copy of the old engine, kept as it was for the equivalence test
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from scorer.catalog import STACK_NAMES, STACKS, Catalog, catalog as default_catalog
from scorer.planet import POSITIONS_OF, STACK_AT, Planet, position_words

ROUNDS = 16
MIN_PLAYERS, MAX_PLAYERS = 2, 5
MAX_NAME = 40
HIDDEN = "hidden"
REMOVED_PER_STACK = {2: 8, 3: 8, 4: 4, 5: 0}
MOVE_TYPES = ("choose", "hide", "take", "appoint")


class MoveError(ValueError):
    """A move that cannot be made now; ``error`` is for a person, ``where`` names the field."""

    status = 400

    def __init__(self, error: str, where: str = "move"):
        super().__init__(error)
        self.error = error
        self.where = where

    def as_json(self) -> dict:
        return {"error": self.error, "where": self.where}


class NotYourTurn(MoveError):
    status = 403


class SetupError(MoveError):
    pass


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


@dataclass(frozen=True)
class Setup:
    players: tuple[str, ...]
    seed: int
    hidden_characters: bool = False

    @classmethod
    def parse(cls, data) -> "Setup":
        """Validate a setup as posted (``{"players": [...], "hidden_characters", "seed"}``)."""
        if not isinstance(data, dict):
            raise SetupError('A new game is {"players": ["Ann", "Ben"], "hidden_characters": false}.', "body")
        players = data.get("players")
        if not isinstance(players, list):
            raise SetupError("\"players\" is the list of names in seat order, youngest first.", "players")
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise SetupError(f"The game is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}.", "players")
        names, seen = [], set()
        for i, name in enumerate(players):
            if not isinstance(name, str) or not name.strip():
                raise SetupError(f"Player {i + 1} needs a name.", f"players[{i}]")
            name = " ".join(name.split())
            if len(name) > MAX_NAME:
                raise SetupError(f"Player {i + 1}'s name is longer than {MAX_NAME} characters.", f"players[{i}]")
            if name.casefold() in seen:
                raise SetupError(f"Two players are called {name}; give each a different name.", f"players[{i}]")
            seen.add(name.casefold())
            names.append(name)
        hidden = data.get("hidden_characters", False)
        if not isinstance(hidden, bool):
            raise SetupError("\"hidden_characters\" is true or false.", "hidden_characters")
        seed = data.get("seed")
        if seed is None:
            # The seed fixes every stack's order, face-down tiles included: 63 random bits, so
            # nobody can search the seeds for the one that deals the tiles seen so far.
            seed = random.SystemRandom().getrandbits(63)
        if not _is_int(seed) or not 0 <= seed < 2**63:
            raise SetupError("\"seed\" is a whole number from 0 (or leave it out).", "seed")
        return cls(tuple(names), seed, hidden)

    def as_json(self) -> dict:
        return {"players": list(self.players), "seed": self.seed, "hidden_characters": self.hidden_characters}


def deal(setup: Setup, cat: Catalog) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Shuffle each stack with the seed; return the draw piles (top first) and the removed tiles."""
    rng = random.Random(setup.seed)
    removed_n = REMOVED_PER_STACK[len(setup.players)]
    piles, removed = {}, {}
    for stack in STACKS:
        ids = sorted(t.id for t in cat.stack(stack))
        rng.shuffle(ids)
        removed[stack] = ids[:removed_n]
        piles[stack] = ids[removed_n:]
    return piles, removed


@dataclass
class Game:
    setup: Setup
    cat: Catalog
    piles: dict[str, list[str]]
    removed: dict[str, list[str]]
    planets: list[Planet]
    round: int = 1
    start: int = 0                      # start player of this round (2 players: player A)
    phase: str = "choose"               # choose | hide | take | appoint | finished
    to_act: int | None = 0
    round_stack: str | None = None
    revealed: list[str] = field(default_factory=list)   # tiles on the table this round
    face_down: str | None = None        # 2 players: the tile A put face down
    taken: list[int] = field(default_factory=list)      # seats that took this round, in order
    chosen: Counter = field(default_factory=Counter)
    discarded: list[str] = field(default_factory=list)
    takes: list[list[str]] = field(default_factory=list)  # each seat's tiles in the order taken
    events: list[dict] = field(default_factory=list)
    moves: list[dict] = field(default_factory=list)     # the effective moves, as normalised
    result: dict | None = None
    version: int = 0                    # entries in the move log, undo entries included
    sealed: str | None = None           # why the last move cannot be taken back (it showed a tile)

    def clone(self) -> "Game":
        """A copy that can take moves without changing this one (containers copied, the
        immutable parts — planets, events, setup, catalog — shared)."""
        return Game(
            setup=self.setup, cat=self.cat, piles={s: list(t) for s, t in self.piles.items()},
            removed=self.removed, planets=list(self.planets), round=self.round, start=self.start,
            phase=self.phase, to_act=self.to_act, round_stack=self.round_stack,
            revealed=list(self.revealed), face_down=self.face_down, taken=list(self.taken),
            chosen=Counter(self.chosen), discarded=list(self.discarded),
            takes=[list(t) for t in self.takes], events=list(self.events), moves=list(self.moves),
            result=self.result, version=self.version, sealed=self.sealed)

    # -- reading --------------------------------------------------------------------------------
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

    def can_undo(self) -> bool:
        return (not self.finished and bool(self.moves) and self.moves[-1]["type"] in ("take", "appoint")
                and self.sealed is None)

    def _sees_tile(self, viewer: int | None, tile: str) -> bool:
        """May ``viewer`` see which tile this is (a tile still on the table this round)?"""
        if self.finished:
            return True
        if self.two_player:
            if tile == self.face_down or self.phase == "hide":
                return viewer == self.start
            return True
        if self.setup.hidden_characters and self.round_stack == "character":
            return self.phase == "take" and viewer == self.to_act
        return True

    def _hides_planet_cell(self, owner: int, viewer: int | None, position: int) -> bool:
        return (self.setup.hidden_characters and not self.finished and owner != viewer
                and STACK_AT[position] == "character")

    def available(self, seat: int) -> list[str]:
        """The tiles ``seat`` may take now, as it names them (``"hidden"`` for a blind pick)."""
        out = []
        for tile in self.revealed:
            if self.two_player and tile == self.face_down and seat != self.start:
                out.append(HIDDEN)
            else:
                out.append(tile)
        return out

    def legal(self, seat: int | None) -> list[dict]:
        if seat is None or self.finished or seat != self.to_act:
            return []
        if self.phase == "choose":
            return [{"type": "choose", "seat": seat, "stack": s} for s in STACKS if self.piles[s]]
        if self.phase == "hide":
            return [{"type": "hide", "seat": seat, "tile": t} for t in self.revealed]
        if self.phase == "take":
            free = self.planets[seat].free_positions(self.round_stack)
            return [{"type": "take", "seat": seat, "tile": t, "position": p}
                    for t in self.available(seat) for p in free]
        if self.phase == "appoint":
            return [{"type": "appoint", "seat": seat, "to": t} for t in range(self.n) if t not in self.taken]
        return []

    # -- playing --------------------------------------------------------------------------------
    def apply(self, move) -> list[dict]:
        """Check and play one move; return the events it caused. Raises ``MoveError``."""
        move = self._check(move)
        before = len(self.events)
        hands_over = (self.setup.hidden_characters and not self.two_player
                      and self.round_stack == "character")
        self.sealed = None
        getattr(self, f"_do_{move['type']}")(move)
        if (hands_over and self.phase == "take" and self.to_act != move["seat"]
                and self.revealed and self.sealed is None):
            self.sealed = (f"{self.name(self.to_act)} has seen the character tiles left; "
                           "that cannot be taken back.")
        self.moves.append(move)
        self.version += 1
        return self.events[before:]

    def _check(self, move) -> dict:
        if not isinstance(move, dict):
            raise MoveError('A move is an object like {"type": "take", "seat": 0, "tile": "C07", "position": 5}.')
        kind = move.get("type")
        if kind not in MOVE_TYPES:
            raise MoveError(f"{kind!r} is not a move; a move's type is one of {', '.join(MOVE_TYPES)}.", "move.type")
        seat = move.get("seat")
        if not _is_int(seat) or not 0 <= seat < self.n:
            raise MoveError(f"\"seat\" is a player's seat number, 0 to {self.n - 1}.", "move.seat")
        if self.finished:
            raise MoveError("The game is over; there are no more moves.", "move")
        if seat != self.to_act:
            raise NotYourTurn(f"It is {self.name(self.to_act)}'s turn, not {self.name(seat)}'s.", "move.seat")
        want = {"choose": "choose a stack", "hide": "put one of the three tiles face down",
                "take": "take a tile", "appoint": "say who takes next"}[self.phase]
        if kind != self.phase:
            raise MoveError(f"{self.name(seat)}, it is time to {want}, not to {kind}.", "move.type")
        if kind == "choose":
            stack = move.get("stack")
            if stack not in STACKS:
                raise MoveError(f"{stack!r} is not a stack; the stacks are {', '.join(STACKS)}.", "move.stack")
            if not self.piles[stack]:
                raise MoveError(f"The {STACK_NAMES[stack]} stack is empty (it has been chosen 4 times); "
                                "choose another.", "move.stack")
            return {"type": kind, "seat": seat, "stack": stack}
        if kind == "hide":
            tile = move.get("tile")
            if tile not in self.revealed:
                raise MoveError(f"{tile!r} is not one of the three tiles you drew "
                                f"({', '.join(self.revealed)}).", "move.tile")
            return {"type": kind, "seat": seat, "tile": tile}
        if kind == "appoint":
            to = move.get("to")
            if not _is_int(to) or not 0 <= to < self.n:
                raise MoveError(f"\"to\" is the seat number of the player who takes next, 0 to {self.n - 1}.", "move.to")
            if to in self.taken:
                raise MoveError(f"{self.name(to)} has already taken a tile this round; "
                                "appoint someone who has not.", "move.to")
            return {"type": kind, "seat": seat, "to": to}
        # take
        tile = move.get("tile")
        if tile == HIDDEN:
            if not self.two_player or self.face_down not in self.revealed:
                raise MoveError("There is no face-down tile to take.", "move.tile")
            tile = self.face_down
        elif tile not in self.revealed or (self.two_player and tile == self.face_down and seat != self.start):
            raise MoveError(f"{tile!r} is not one of the tiles on the table.", "move.tile")
        position = move.get("position")
        if not _is_int(position) or not 0 <= position < 16:
            raise MoveError("\"position\" is where the tile goes on your planet, 0 to 15 (row by row).",
                            "move.position")
        if STACK_AT[position] != self.round_stack:
            raise MoveError(f"A {STACK_NAMES[self.round_stack]} tile cannot go at {position_words(position)}; "
                            f"that place takes a {STACK_NAMES[STACK_AT[position]]} tile. Free places: "
                            + ", ".join(position_words(p) for p in self.planets[seat].free_positions(self.round_stack))
                            + ".", "move.position")
        if self.planets[seat].cells[position] is not None:
            raise MoveError(f"{position_words(position)} of your planet is already taken.", "move.position")
        out = {"type": kind, "seat": seat, "tile": move.get("tile"), "position": position}
        out["_tile"] = tile  # the real tile, resolved; stripped before the move is stored
        return out

    def _event(self, kind: str, seat: int | None, **data) -> None:
        self.events.append({"n": len(self.events), "round": self.round, "kind": kind, "seat": seat, **data})

    def _do_choose(self, move) -> None:
        stack = move["stack"]
        count = 3 if self.two_player else self.n
        self.round_stack = stack
        self.revealed = self.piles[stack][:count]
        self.piles[stack] = self.piles[stack][count:]
        self.chosen[stack] += 1
        self.face_down = None
        self.taken = []
        self._event("choose", move["seat"], stack=stack, tiles=list(self.revealed))
        if self.two_player:
            self.phase = "hide"
        else:
            self.phase = "take"

    def _do_hide(self, move) -> None:
        self.face_down = move["tile"]
        self._event("hide", move["seat"], tile=move["tile"])
        self.phase = "take"
        self.to_act = 1 - self.start

    def _do_take(self, move) -> None:
        seat, tile, position = move["seat"], move.pop("_tile"), move["position"]
        self.revealed = [t for t in self.revealed if t != tile]
        planet, flipped = self.planets[seat].place(tile, position, self.cat)
        self.planets[seat] = planet
        self.takes[seat].append(tile)
        self.taken.append(seat)
        self._event("take", seat, tile=tile, position=position, blind=move["tile"] == HIDDEN)
        if move["tile"] == HIDDEN:
            self.sealed = "The face-down tile has been turned over; that take cannot be taken back."
        if flipped:
            self._event("flip", seat, positions=list(flipped),
                        tiles=[planet.cells[p].tile for p in flipped])
        if self.two_player:
            if len(self.taken) == 1:
                self.to_act = self.start
            else:
                for left in self.revealed:
                    if left == self.face_down and self.sealed is None:
                        self.sealed = ("The face-down tile has been discarded face up; "
                                       "that take cannot be taken back.")
                    self.discarded.append(left)
                    self._event("discard", None, tile=left)
                self.revealed = []
                self._end_round(next_start=1 - self.start)
            return
        left = [s for s in range(self.n) if s not in self.taken]
        if not left:
            self._end_round(next_start=seat)
        elif len(left) == 1:
            self.to_act = left[0]
            self._event("appoint", seat, to=left[0], auto=True)
        else:
            self.phase = "appoint"

    def _do_appoint(self, move) -> None:
        self.to_act = move["to"]
        self._event("appoint", move["seat"], to=move["to"], auto=False)
        self.phase = "take"

    def _end_round(self, next_start: int) -> None:
        self.face_down = None
        self.revealed = []
        if self.round == ROUNDS:
            self.phase = "finished"
            self.to_act = None
            self.round_stack = None
            self.result = score(self)
            self._event("finished", None)
            return
        self.round += 1
        self.start = next_start
        self.to_act = next_start
        self.phase = "choose"
        self.round_stack = None
        self._event("round", next_start, round=self.round)

    # -- showing --------------------------------------------------------------------------------
    def public_tile(self, viewer: int | None, tile: str) -> str:
        return tile if self._sees_tile(viewer, tile) else HIDDEN

    def event_view(self, event: dict, viewer: int | None) -> dict:
        """An event as ``viewer`` may see it, with words for the page."""
        e = dict(event)
        who = self.name(e.get("seat"))
        kind = e["kind"]
        cat = self.cat
        if kind == "choose":
            e["tiles"] = [t if self._event_tile_visible(event, viewer, t) else HIDDEN for t in e["tiles"]]
            e["text"] = f"{who} chose the {STACK_NAMES[e['stack']]} stack."
        elif kind == "hide":
            if not (viewer == e["seat"] or self.finished):
                e["tile"] = HIDDEN
            e["text"] = f"{who} put one tile face down and showed two."
        elif kind == "take":
            visible = (self.finished or viewer == e["seat"]
                       or not (self.setup.hidden_characters and cat[e["tile"]].stack == "character"))
            if not visible:
                e["tile"] = HIDDEN
                e["text"] = f"{who} took a character tile (kept hidden)."
            else:
                blind = " the face-down tile," if e.get("blind") else ""
                e["text"] = (f"{who} took{blind} {e['tile']} ({cat[e['tile']].describe()}), "
                             f"{position_words(e['position'])}.")
        elif kind == "flip":
            e["text"] = (f"Third baobab on {who}'s planet — these {len(e['positions'])} tiles turn face down: "
                         + ", ".join(e["tiles"]) + ".")
        elif kind == "appoint":
            e["text"] = (f"{self.name(e['to'])} takes the last tile." if e.get("auto")
                         else f"{who} appointed {self.name(e['to'])}.")
        elif kind == "discard":
            e["text"] = f"{e['tile']} ({cat[e['tile']].describe()}) is discarded face up."
        elif kind == "round":
            e["text"] = f"Round {e['round']}: {who} is the start player."
        elif kind == "finished":
            e["text"] = "The game is over."
        # A hidden character is its owner's alone, even for a player who once saw it.
        if "tile" in e and e["tile"] != HIDDEN and self._secret_from(viewer, e["tile"]):
            e["tile"] = HIDDEN
        if "tiles" in e:
            e["tiles"] = [HIDDEN if t != HIDDEN and self._secret_from(viewer, t) else t for t in e["tiles"]]
        return e

    def _secret_from(self, viewer: int | None, tile: str) -> bool:
        if not self.setup.hidden_characters or self.finished or self.cat[tile].stack != "character":
            return False
        for owner, planet in enumerate(self.planets):
            if owner != viewer and any(c is not None and c.tile == tile
                                       for c in (planet.cells[p] for p in POSITIONS_OF["character"])):
                return True
        return False

    def _event_tile_visible(self, event: dict, viewer: int | None, tile: str) -> bool:
        """A tile revealed by a past ``choose``: visible unless it was private then and still is."""
        if self.finished:
            return True
        if self.setup.hidden_characters and event["stack"] == "character":
            return False
        if self.two_player:
            if viewer == event["seat"]:
                return True
            # The other player saw the two face-up tiles, and the face-down one once it was
            # taken or discarded.
            hidden_tile = self._face_down_of_round(event["round"])
            if hidden_tile is None:
                return event["round"] != self.round
            if tile != hidden_tile:
                return True
            return self._seen_later(tile)
        return True

    def _face_down_of_round(self, rnd: int) -> str | None:
        for e in self.events:
            if e["kind"] == "hide" and e["round"] == rnd:
                return e["tile"]
        return None

    def _seen_later(self, tile: str) -> bool:
        return any(e["kind"] in ("discard", "take") and e["tile"] == tile for e in self.events)

    def view(self, seat: int | None = None, recent: int = 12) -> dict:
        """The game as ``seat`` may see it (``None``: public). Never holds hidden information."""
        cat = self.cat
        revealed = [self.public_tile(seat, t) for t in self.revealed]
        face_down = None
        if self.two_player and self.face_down in self.revealed:
            face_down = self.public_tile(seat, self.face_down)
        planets = []
        for owner, planet in enumerate(self.planets):
            grid = planet.as_grid(hide=lambda p, cell, o=owner: self._hides_planet_cell(o, seat, p))
            planets.append({"seat": owner, "name": self.name(owner), "cells": grid["cells"],
                            "tiles": planet.tile_count})
        return {
            "version": self.version,
            "round": self.round,
            "rounds": ROUNDS,
            "phase": self.phase,
            "to_act": self.to_act,
            "to_act_name": self.name(self.to_act),
            "start_player": self.start,
            "seat": seat,
            "players": list(self.setup.players),
            "hidden_characters": self.setup.hidden_characters,
            "stacks": {s: len(self.piles[s]) for s in STACKS},
            "chosen": {s: self.chosen[s] for s in STACKS},
            "round_stack": self.round_stack,
            "revealed": revealed,
            "face_down": face_down,
            "taken_this_round": list(self.taken) if self.round_stack else [],
            "discarded": list(self.discarded),
            "removed": {s: len(self.removed[s]) for s in STACKS},
            "planets": planets,
            "legal": self.legal(seat),
            "can_undo": self.can_undo(),
            "events": [self.event_view(e, seat) for e in self.events[-recent:]] if recent else [],
            "finished": self.finished,
            "result": self.result,
        }


def new_game(setup: Setup, cat: Catalog | None = None) -> Game:
    cat = cat or default_catalog()
    piles, removed = deal(setup, cat)
    n = len(setup.players)
    return Game(setup=setup, cat=cat, piles=piles, removed=removed,
                planets=[Planet() for _ in range(n)], takes=[[] for _ in range(n)])


def effective_moves(log: list[dict]) -> list[dict]:
    """The moves that stand once the ``{"type": "undo"}`` entries of a log have taken theirs back."""
    out: list[dict] = []
    for move in log:
        if isinstance(move, dict) and move.get("type") == "undo":
            if out:
                out.pop()
        else:
            out.append(move)
    return out


def replay(setup: Setup, moves: list[dict], cat: Catalog | None = None) -> Game:
    """The state after ``moves`` (a log; undo entries are honoured)."""
    game = new_game(setup, cat)
    for move in effective_moves(moves):
        game.apply(move)
    game.version = len(moves)
    return game


def check_undo(game: Game, seat: int | None) -> None:
    """Raise ``MoveError`` unless ``seat`` (``None``: the host) may take back the last move."""
    if not game.moves:
        raise MoveError("There is nothing to take back yet.", "undo")
    last = game.moves[-1]
    if last["type"] not in ("take", "appoint"):
        raise MoveError("New tiles have been shown since; that cannot be taken back.", "undo")
    if game.sealed is not None:
        raise MoveError(game.sealed, "undo")
    if seat is not None and last["seat"] != seat:
        raise NotYourTurn(f"Only {game.name(last['seat'])} can take back their own move.", "undo")


def score(game: Game) -> dict:
    from scorer.contract import score_request
    return score_request(score_request_of(game), game.cat)


def score_request_of(game: Game) -> dict:
    return {"players": [{"name": name, "planet": planet.as_grid()}
                        for name, planet in zip(game.setup.players, game.planets)]}


__all__ = ["Setup", "Game", "MoveError", "NotYourTurn", "SetupError", "new_game", "replay",
           "effective_moves", "check_undo", "score", "score_request_of", "HIDDEN", "ROUNDS"]
