"""The table mid-game as one viewer may know it: each planet's points so far and the volcano leaders.

Pure: the planets are scored by the same rules as the end (``scorer.rules``), but only with the
tiles the viewer may see (``visibility.may_see``): with hidden characters, another player's
characters (and the Large Stars printed on them) count only on their owner's own view, so the
points shown never give a hidden tile away. ``hidden`` says how many characters were left out.

Once the game is over every tile is seen, so a standing is the final score less nothing.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from ..catalog import Catalog
from ..planet import Cell, Planet
from ..rules import contents_of_planet, score_contents
from .state import State
from .visibility import Viewer, sees_on_planet


@dataclass(frozen=True, slots=True)
class Standing:
    """One planet as the viewer may know it now."""

    seat: int
    points: int          # the characters' points on what the viewer may see, less the penalty
    volcanoes: int       # face-up volcanoes on the tiles the viewer may see
    penalty: int         # 0, or minus the volcanoes when this planet has (or shares) the most
    hidden: int          # character tiles left out (not the viewer's to see)
    leader: bool         # has (or shares) the most volcanoes, and there is at least one


def _seen_planet(sees: Callable[[int | None, str], bool], owner: int, planet: Planet) -> tuple[Planet, int]:
    """``planet`` (seat ``owner``'s) with the tiles the viewer may not see (``sees``:
    ``visibility.sees_on_planet``) taken off, and how many those were."""
    cells: list[Cell | None] = []
    hidden = 0
    for cell in planet.cells:
        if cell is not None and cell.tile is not None and not sees(owner, cell.tile):
            cells.append(None)
            hidden += 1
        else:
            cells.append(cell)
    return Planet(tuple(cells)), hidden


@lru_cache(maxsize=8192)
def _points(seen: Planet, cat: Catalog) -> tuple[int, int]:
    """A planet's points before the volcano penalty and its volcanoes (numbers only: no words of
    any language), scored once per look of a planet. Every board shows every planet and only one
    changes a move, and phones that may see the same tiles see the same planet: the same score."""
    score = score_contents(contents_of_planet(seen, cat))
    return score.subtotal, score.volcanoes


def standings(state: State, viewer: Viewer) -> list[Standing]:
    """Every planet's points so far, in seat order, as ``viewer`` (None: the public) may know them."""
    scored = []
    sees = sees_on_planet(state, viewer)
    for owner, planet in enumerate(state.planets):
        seen, hidden = _seen_planet(sees, owner, planet)
        scored.append((*_points(seen, state.cat), hidden))
    most = max((volcanoes for _, volcanoes, _ in scored), default=0)
    out = []
    for seat, (subtotal, volcanoes, hidden) in enumerate(scored):
        leader = most > 0 and volcanoes == most
        penalty = -volcanoes if leader else 0
        out.append(Standing(seat, subtotal + penalty, volcanoes, penalty, hidden, leader))
    return out
