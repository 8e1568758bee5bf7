"""Tiles turn face down three at a time (SPEC, Baobabs: whenever a planet's face-up baobabs reach 3,
those 3 tiles turn face down), so a finished planet shows 0, 3, 6, 9 or 12 backs, never on a corner
(characters carry no baobab). A reading with another count holds a face read as a back or a back
read as a face. ``in_threes`` says which cells to turn to reach the nearest count the rules allow,
the way that costs the reading least. Both readers use it (``reader.face_down_in_threes``,
``recognize._face_down_in_threes``); it knows nothing of either: plain scores and rows in, moves out.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

Move = tuple[int, int]   # (position 0-15, the row it now reads)


def in_threes(scores: Sequence[Sequence[float]], rows: Sequence[int], allowed: Callable[[int], Sequence[int]],
              is_back: Callable[[int], bool]) -> list[Move]:
    """``scores[q][j]``: how well row ``j`` fits cell ``q`` (-1 and under: not there); ``rows``: the
    row read per cell; ``allowed(q)``: the rows position ``q`` may hold (a corner: no back);
    ``is_back(j)``: row ``j`` is a face-down tile. Face rows are held once per planet, backs repeat.
    Returns the cells to turn and their new rows: the cheapest of turning ``n % 3`` backs face up
    (one by one, each to the best face its position allows that no cell holds) or ``3 - n % 3``
    faces face down (each to the best back its position allows), by the summed loss of score;
    none when the count is already a multiple of 3 or neither way exists."""
    backs = [q for q in range(16) if is_back(rows[q])]
    extra = len(backs) % 3
    if extra == 0:
        return []
    up, down = _turned_up(scores, rows, allowed, is_back, backs, extra), \
        _turned_down(scores, rows, allowed, is_back, backs, 3 - extra)
    cost, moves = min(up, down, key=lambda m: m[0])
    return moves if cost != float("inf") else []


def _turned_up(scores, rows, allowed, is_back, backs, n) -> tuple[float, list[Move]]:
    held, cost, moves, turned = set(rows), 0.0, [], set()
    for _ in range(n):
        best = None
        for q in backs:
            if q in turned:
                continue
            faces = [j for j in allowed(q) if not is_back(j) and j not in held and scores[q][j] > -1]
            if faces:
                j = max(faces, key=lambda r: scores[q][r])
                loss = scores[q][rows[q]] - scores[q][j]
                if best is None or loss < best[0]:
                    best = (loss, q, j)
        if best is None:
            return float("inf"), []
        cost += best[0]
        moves.append((best[1], best[2]))
        turned.add(best[1])
        held.add(best[2])
    return cost, moves


def _turned_down(scores, rows, allowed, is_back, backs, n) -> tuple[float, list[Move]]:
    options = []
    for q in range(16):
        if q in backs:
            continue
        shown = [j for j in allowed(q) if is_back(j) and scores[q][j] > -1]
        if shown:
            j = max(shown, key=lambda r: scores[q][r])
            options.append((scores[q][rows[q]] - scores[q][j], q, j))
    if len(options) < n:
        return float("inf"), []
    options.sort()
    return sum(loss for loss, _, _ in options[:n]), [(q, j) for _, q, j in options[:n]]
