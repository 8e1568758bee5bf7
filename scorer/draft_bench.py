"""Bench of the draft engine alone: ``python -m scorer.draft_bench [--games 20]``.

Plays ``--games`` random games (2–5 players, hidden characters or not, seeded) and prints the
mean time of one ``apply``, one seat's ``view`` (12 events, with their words), one ``legal`` and
one ``replay`` of a whole game's log. No server, no database: what the engine costs per call.
"""
from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence

from .draft import Setup, State, apply, legal, moves, replay, start, view
from .draft.state import history
from .web.tracker_words import words_for

NAMES = ("Ann", "Ben", "Cy", "Di", "Ed")


def _games(count: int, seed: int) -> list[State]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        state = start(Setup(NAMES[:2 + i % 4], rng.getrandbits(63), i % 2 == 0))
        while not state.finished:
            state, _ = apply(state, rng.choice(legal(state, state.to_act)))
        out.append(state)
    return out


def _mean_us(call: Callable[[State], object], states: Sequence[State]) -> float:
    began = time.perf_counter()
    for state in states:
        call(state)
    return (time.perf_counter() - began) / len(states) * 1e6


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m scorer.draft_bench", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    finished = _games(args.games, args.seed)
    states = [s for game in finished for s in history(game)]
    playing = [s for s in states if not s.finished]
    print(f"draft engine bench: {args.games} random games, {len(states)} states (seed {args.seed})")
    us = _mean_us(lambda s: apply(s, legal(s, s.to_act)[0]), playing)
    print(f"  apply   {us:8.1f} µs  (a legal move, checked and played)")
    us = _mean_us(lambda s: view(s, s.to_act, words=words_for(s)), states)
    print(f"  view    {us:8.1f} µs  (the seat to act, 12 events with words)")
    print(f"  legal   {_mean_us(lambda s: legal(s, s.to_act), states):8.1f} µs")
    us = _mean_us(lambda g: replay(g.setup, [m.as_json() for m in moves(g)]), finished)
    print(f"  replay  {us / 1000:8.2f} ms  (a whole game's log)")


if __name__ == "__main__":
    main()
