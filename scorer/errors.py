"""One error vocabulary for the whole project.

Every refusal — a wrong count, a bad tile id, a move out of turn, a stale version — is one of
these, with a message for a person and a structured ``where``: a tuple of keys and indexes into
the request, e.g. ``("players", 1, "counts", "baobab")``. Pages place an error beside its field
from that tuple; the JSON contracts show it as text (``players[1].counts.baobab``).

Pure: no Flask here. The web layer alone maps these classes to HTTP statuses
(``scorer.web.errors``).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

Key = str | int
Where = tuple[Key, ...]


def where_text(where: Where) -> str:
    """``("players", 1, "counts", "baobab")`` → ``players[1].counts.baobab``."""
    out = ""
    for key in where:
        if isinstance(key, int):
            out += f"[{key}]"
        else:
            out += f".{key}" if out else key
    return out


@dataclass(frozen=True)
class Problem:
    """One thing wrong: what, for a person, and where."""

    message: str
    where: Where = ()

    def as_json(self) -> dict[str, str]:
        return {"error": self.message, "where": where_text(self.where)}


class PlanetError(ValueError):
    """The root of every refusal. ``problems`` holds one or more; the first is the headline."""

    def __init__(self, message: str, where: Where = (), *, more: Iterable[Problem] = ()):
        super().__init__(message)
        self.problems: tuple[Problem, ...] = (Problem(message, tuple(where)), *more)

    @property
    def message(self) -> str:
        return self.problems[0].message

    @property
    def where(self) -> Where:
        return self.problems[0].where

    def as_json(self) -> dict[str, object]:
        """The SPEC's ``{"error", "where"}``; with several problems, all of them in ``errors``."""
        out: dict[str, object] = dict(self.problems[0].as_json())
        if len(self.problems) > 1:
            out["errors"] = [p.as_json() for p in self.problems]
        return out

    @classmethod
    def of(cls, problems: Iterable[Problem]) -> PlanetError:
        first, *rest = problems
        return cls(first.message, first.where, more=rest)


class InputError(PlanetError):
    """A request that cannot be read or scored: bad JSON, an unknown tile, impossible counts."""


class SetupError(InputError):
    """A game that cannot be set up: wrong number of players, a bad name or seed."""


class IllegalMove(PlanetError):
    """A move the rules do not allow now."""


class NotYourTurn(IllegalMove):
    """A move made by (or for) a seat that is not the one to act, or with a bad seat key."""


class StaleVersion(PlanetError):
    """A move made against an old version of the game: someone moved first; nothing changed."""


class GameNotFound(PlanetError):
    """No game (or table) with that id."""
