"""The four moves of a draft, as typed values, and ``parse_move`` to read one from JSON.

Every move names its ``seat``:
- ``Choose(seat, stack)`` — the start player picks a stack; its top tiles are revealed
  (3–5 players: one per player; 2 players: three that only the start player sees).
- ``Hide(seat, tile)`` — 2 players: the start player puts that tile face down, shows the others.
- ``Take(seat, tile, position)`` — take a revealed tile and put it at a free position of its
  kind. In 2 players the face-down tile is ``"hidden"`` for the player who did not hide it.
- ``Appoint(seat, to)`` — 3–5 players: after taking, name who takes next.

``parse_move`` checks only the shape (a known type, whole numbers, a stack's name, a tile id);
whether the move may be made now is ``state.apply``'s business. A move log also holds
``Undo()`` entries (``parse_entry`` reads them); they are never a move a seat posts.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..catalog import STACKS
from ..errors import InputError
from ..i18n import _
from .setup import is_int

HIDDEN = "hidden"
MOVE_TYPES = ("choose", "hide", "take", "appoint")
POSITIONS = 16


@dataclass(frozen=True, slots=True)
class Choose:
    seat: int
    stack: str
    type: ClassVar[str] = "choose"

    def as_json(self) -> dict[str, object]:
        return {"type": self.type, "seat": self.seat, "stack": self.stack}


@dataclass(frozen=True, slots=True)
class Hide:
    seat: int
    tile: str
    type: ClassVar[str] = "hide"

    def as_json(self) -> dict[str, object]:
        return {"type": self.type, "seat": self.seat, "tile": self.tile}


@dataclass(frozen=True, slots=True)
class Take:
    seat: int
    tile: str          # a tile id, or HIDDEN for the face-down tile taken blind
    position: int
    type: ClassVar[str] = "take"

    @property
    def blind(self) -> bool:
        return self.tile == HIDDEN

    def as_json(self) -> dict[str, object]:
        return {"type": self.type, "seat": self.seat, "tile": self.tile, "position": self.position}


@dataclass(frozen=True, slots=True)
class Appoint:
    seat: int
    to: int
    type: ClassVar[str] = "appoint"

    def as_json(self) -> dict[str, object]:
        return {"type": self.type, "seat": self.seat, "to": self.to}


@dataclass(frozen=True, slots=True)
class Undo:
    """A log entry that takes back the move before it (and is no move of its own)."""

    type: ClassVar[str] = "undo"

    def as_json(self) -> dict[str, object]:
        return {"type": self.type}


Move = Choose | Hide | Take | Appoint
Entry = Move | Undo


def parse_move(data: object) -> Move:
    """A move from its JSON (``{"type": "take", "seat": 0, "tile": "C07", "position": 5}``).

    Raises ``InputError`` naming the field at fault (``where`` like ``("move", "position")``).
    """
    if not isinstance(data, dict):
        raise InputError(_('A move is an object like {"type": "take", "seat": 0, "tile": "C07", '
                           '"position": 5}.'), ("move",))
    kind = data.get("type")
    if kind not in MOVE_TYPES:
        raise InputError(_("%(kind)s is not a move; a move's type is one of %(types)s.",
                           kind=repr(kind), types=", ".join(MOVE_TYPES)), ("move", "type"))
    seat = _whole(data.get("seat"), "seat", _("\"seat\" is a player's seat number (0 for the first player)."))
    if kind == "choose":
        return Choose(seat, _stack(data.get("stack")))
    if kind == "hide":
        return Hide(seat, _tile(data.get("tile")))
    if kind == "appoint":
        return Appoint(seat, _whole(data.get("to"), "to",
                                    _("\"to\" is the seat number of the player who takes next.")))
    return Take(seat, _tile(data.get("tile")), _position(data.get("position")))


def parse_entry(data: object) -> Entry:
    """One entry of a stored move log: a move, or ``{"type": "undo"}``."""
    if isinstance(data, dict) and data.get("type") == Undo.type:
        return Undo()
    return parse_move(data)


def _whole(value: object, key: str, message: str) -> int:
    if not is_int(value) or value < 0:
        raise InputError(message, ("move", key))
    return value


def _stack(value: object) -> str:
    if not isinstance(value, str) or value not in STACKS:
        raise InputError(_("%(value)s is not a stack; the stacks are %(stacks)s.",
                           value=repr(value), stacks=", ".join(STACKS)), ("move", "stack"))
    return value


def _tile(value: object) -> str:
    if not isinstance(value, str) or not value:
        raise InputError(_("%(value)s is not a tile; a tile is named by its id, like C07.", value=repr(value)),
                         ("move", "tile"))
    return value


def _position(value: object) -> int:
    if not is_int(value) or not 0 <= value < POSITIONS:
        raise InputError(_("\"position\" is where the tile goes on your planet, 0 to 15 (row by row)."),
                         ("move", "position"))
    return value
