"""What a move made happen, as typed values (the words for them are the web layer's).

Each event knows its round and, where there is one, the seat that acted. ``as_json`` gives the
SPEC's event object ``{"n", "round", "kind", "seat", ...}`` (``n``: its place in the game's list).
A view shows an event with the tiles its viewer may not see replaced (``dataclasses.replace``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class _Event:
    kind: ClassVar[str]
    __match_args__: ClassVar[tuple[str, ...]] = ()

    def as_json(self, n: int) -> dict[str, object]:
        out: dict[str, object] = {"n": n, "round": None, "kind": self.kind, "seat": None}
        for name in self.__match_args__:  # the fields, in order
            value = getattr(self, name)
            out[name] = list(value) if isinstance(value, tuple) else value
        return out


@dataclass(frozen=True, slots=True)
class Chose(_Event):
    """The start player chose a stack; ``tiles`` were drawn from it."""
    round: int
    seat: int
    stack: str
    tiles: tuple[str, ...]
    kind: ClassVar[str] = "choose"


@dataclass(frozen=True, slots=True)
class Hid(_Event):
    """2 players: the start player put ``tile`` face down."""
    round: int
    seat: int
    tile: str
    kind: ClassVar[str] = "hide"


@dataclass(frozen=True, slots=True)
class Took(_Event):
    """``seat`` took ``tile`` to ``position`` (``blind``: the face-down tile, unseen)."""
    round: int
    seat: int
    tile: str
    position: int
    blind: bool
    kind: ClassVar[str] = "take"


@dataclass(frozen=True, slots=True)
class Flipped(_Event):
    """A third face-up baobab on ``seat``'s planet turned these tiles face down."""
    round: int
    seat: int
    positions: tuple[int, ...]
    tiles: tuple[str, ...]
    kind: ClassVar[str] = "flip"


@dataclass(frozen=True, slots=True)
class Appointed(_Event):
    """``seat`` named ``to`` as the next to take (``auto``: the last one left, without a move)."""
    round: int
    seat: int
    to: int
    auto: bool
    kind: ClassVar[str] = "appoint"


@dataclass(frozen=True, slots=True)
class Discarded(_Event):
    """2 players: the tile left at the end of a round went to the discard, face up."""
    round: int
    tile: str
    kind: ClassVar[str] = "discard"


@dataclass(frozen=True, slots=True)
class RoundBegan(_Event):
    """A new round; ``seat`` is its start player."""
    round: int
    seat: int
    kind: ClassVar[str] = "round"


@dataclass(frozen=True, slots=True)
class Finished(_Event):
    """The sixteenth round is over and the planets are scored."""
    round: int
    kind: ClassVar[str] = "finished"


Event = Chose | Hid | Took | Flipped | Appointed | Discarded | RoundBegan | Finished
