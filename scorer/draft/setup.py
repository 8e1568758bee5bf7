"""A draft's setup: the players in seat order, the seed that fixes every stack, hidden characters.

``Setup.parse`` reads a setup as posted (SPEC §2 ``POST /api/games``) and refuses a bad one with
``SetupError``; ``deal`` shuffles the four stacks with the seed and sets aside the tiles that the
player count leaves out of the game.
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeGuard

from ..catalog import STACKS, Catalog
from ..errors import InputError, SetupError
from ..i18n import _
from ..limits import MAX_NAME, MAX_PLAYERS, MIN_PLAYERS
from ..names import clean_name, name_key

__all__ = ["MAX_NAME", "MAX_PLAYERS", "MIN_PLAYERS", "ROUNDS", "Piles", "Setup", "deal", "is_int"]

ROUNDS = 16
REMOVED_PER_STACK = {2: 8, 3: 8, 4: 4, 5: 0}
SEED_LIMIT = 2**63

Piles = Mapping[str, tuple[str, ...]]


def is_int(value: object) -> TypeGuard[int]:
    """A whole number as JSON gives it (``True`` is not 1 here)."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class Setup:
    players: tuple[str, ...]
    seed: int
    hidden_characters: bool = False

    @classmethod
    def parse(cls, data: object) -> Setup:
        """Validate a setup as posted (``{"players": [...], "hidden_characters", "seed"}``)."""
        if not isinstance(data, dict):
            raise SetupError(_('A new game is {"players": ["Ann", "Ben"], "hidden_characters": false}.'),
                             ("body",))
        names = _names(data.get("players"))
        hidden = data.get("hidden_characters", False)
        if not isinstance(hidden, bool):
            raise SetupError(_("\"hidden_characters\" is true or false."), ("hidden_characters",))
        return cls(names, _seed(data.get("seed")), hidden)

    def as_json(self) -> dict[str, object]:
        return {"players": list(self.players), "seed": self.seed,
                "hidden_characters": self.hidden_characters}


def _names(players: object) -> tuple[str, ...]:
    if not isinstance(players, list):
        raise SetupError(_("\"players\" is the list of names in seat order, youngest first."), ("players",))
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise SetupError(_("The game is for %(least)d to %(most)d players, not %(n)d.",
                           least=MIN_PLAYERS, most=MAX_PLAYERS, n=len(players)), ("players",))
    names: list[str] = []
    seen: set[str] = set()
    for i, raw in enumerate(players):
        name = _name(raw, i)
        if name_key(name) in seen:
            raise SetupError(_("Two players are called %(name)s; give each a different name.", name=name),
                             ("players", i))
        seen.add(name_key(name))
        names.append(name)
    return tuple(names)


def _name(raw: object, i: int) -> str:
    """A player's name by the project's one rule (``scorer.names``), inner spaces tidied."""
    tidy = " ".join(raw.split()) if isinstance(raw, str) else raw
    try:
        return clean_name(tidy, _("Player %(n)d", n=i + 1), ("players", i))
    except InputError as exc:
        raise SetupError(exc.message, exc.where) from None


def _seed(seed: object) -> int:
    if seed is None:
        # The seed fixes every stack's order, face-down tiles included: 63 random bits, so
        # nobody can search the seeds for the one that deals the tiles seen so far.
        return random.SystemRandom().getrandbits(63)
    if not is_int(seed) or not 0 <= seed < SEED_LIMIT:
        raise SetupError(_("\"seed\" is a whole number from 0 (or leave it out)."), ("seed",))
    return seed


def deal(setup: Setup, cat: Catalog) -> tuple[Piles, Piles]:
    """Shuffle each stack with the seed; return the draw piles (top first) and the removed tiles."""
    rng = random.Random(setup.seed)
    removed_n = REMOVED_PER_STACK[len(setup.players)]
    piles: dict[str, tuple[str, ...]] = {}
    removed: dict[str, tuple[str, ...]] = {}
    for stack in STACKS:
        ids = sorted(t.id for t in cat.stack(stack))
        rng.shuffle(ids)
        removed[stack] = tuple(ids[:removed_n])
        piles[stack] = tuple(ids[removed_n:])
    return piles, removed
