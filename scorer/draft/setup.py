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
from ..errors import SetupError

ROUNDS = 16
MIN_PLAYERS, MAX_PLAYERS = 2, 5
MAX_NAME = 40
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
            raise SetupError('A new game is {"players": ["Ann", "Ben"], "hidden_characters": false}.',
                             ("body",))
        names = _names(data.get("players"))
        hidden = data.get("hidden_characters", False)
        if not isinstance(hidden, bool):
            raise SetupError("\"hidden_characters\" is true or false.", ("hidden_characters",))
        return cls(names, _seed(data.get("seed")), hidden)

    def as_json(self) -> dict[str, object]:
        return {"players": list(self.players), "seed": self.seed,
                "hidden_characters": self.hidden_characters}


def _names(players: object) -> tuple[str, ...]:
    if not isinstance(players, list):
        raise SetupError("\"players\" is the list of names in seat order, youngest first.", ("players",))
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise SetupError(f"The game is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}.",
                         ("players",))
    names: list[str] = []
    seen: set[str] = set()
    for i, name in enumerate(players):
        if not isinstance(name, str) or not name.strip():
            raise SetupError(f"Player {i + 1} needs a name.", ("players", i))
        name = " ".join(name.split())
        if len(name) > MAX_NAME:
            raise SetupError(f"Player {i + 1}'s name is longer than {MAX_NAME} characters.", ("players", i))
        if name.casefold() in seen:
            raise SetupError(f"Two players are called {name}; give each a different name.", ("players", i))
        seen.add(name.casefold())
        names.append(name)
    return tuple(names)


def _seed(seed: object) -> int:
    if seed is None:
        # The seed fixes every stack's order, face-down tiles included: 63 random bits, so
        # nobody can search the seeds for the one that deals the tiles seen so far.
        return random.SystemRandom().getrandbits(63)
    if not is_int(seed) or not 0 <= seed < SEED_LIMIT:
        raise SetupError("\"seed\" is a whole number from 0 (or leave it out).", ("seed",))
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
