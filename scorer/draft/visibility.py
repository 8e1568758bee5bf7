"""Who may see which tile: one predicate, ``may_see(state, viewer, tile)``.

The view (the table, the planets, the events) and the list of legal moves ask only this. A tile
is known by where it is now:
- once the game is over, every tile is shown;
- in a draw pile, or set aside at the start: nobody;
- on the table this round: everyone, except
  - 2 players: the three drawn (while the start player decides) and then the face-down one are
    the start player's alone;
  - hidden characters, 3–5 players: the character tiles go round face down, so only the player
    about to take sees them;
- on a planet: everyone, except that with hidden characters a character is its owner's alone
  (even for a player who saw it on the table before it was taken);
- discarded face up: everyone.
"""
from __future__ import annotations

from collections.abc import Callable

from ..planet import POSITIONS_OF
from .state import State

Viewer = int | None  # a seat, or None for the public (nobody's phone)


def may_see(state: State, viewer: Viewer, tile: str) -> bool:
    """May ``viewer`` know which tile ``tile`` (an id of the catalog) is, now?"""
    if state.finished:
        return True
    if tile in state.revealed:
        return _on_the_table(state, viewer, tile)
    if tile in state.discarded:
        return True
    stack = state.cat[tile].stack
    if tile in state.piles[stack] or tile in state.removed[stack]:
        return False
    # on a planet: every tile is in exactly one place
    return not state.setup.hidden_characters or stack != "character" or owner_of(state, tile) == viewer


def sees_on_planet(state: State, viewer: Viewer) -> Callable[[int | None, str], bool]:
    """``may_see`` (its last line) for a tile known to be on the planet of seat ``owner``: everyone
    sees it, except that with hidden characters a character is its owner's alone. The planets'
    drawing and points ask this of every tile of every planet, once per class of viewer: asked
    of ``may_see`` instead, ~425 times a move, each looking again for where the tile is (the
    table, the discards, the piles, whose planet), it was ~5% of a move's time under cProfile.
    The same answers as ``may_see``: ``tests/test_tracker_standing.py`` compares them on every
    tile of played games."""
    if state.finished or not state.setup.hidden_characters:
        return _everyone
    cat = state.cat
    return lambda owner, tile: owner == viewer or cat[tile].stack != "character"


def _everyone(owner: int | None, tile: str) -> bool:
    return True


def _on_the_table(state: State, viewer: Viewer, tile: str) -> bool:
    if state.two_player:
        if tile == state.face_down or state.phase == "hide":
            return viewer == state.start
        return True
    if state.setup.hidden_characters and state.round_stack == "character":
        return state.phase == "take" and viewer == state.to_act
    return True


def owner_of(state: State, tile: str) -> int | None:
    """The seat whose planet holds ``tile``, or None."""
    positions = POSITIONS_OF[state.cat[tile].stack]  # a tile only ever goes to one of these
    for seat, planet in enumerate(state.planets):
        for p in positions:
            cell = planet.cells[p]
            if cell is not None and cell.tile == tile:
                return seat
    return None
