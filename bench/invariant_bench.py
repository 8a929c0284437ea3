"""The cost of the per-decision invariant check of `cardgen validate`, at 110 cards and at 5,500.

    python bench/invariant_bench.py                # lunch (110 cards) and lunch x50 (5,500 cards)
    python bench/invariant_bench.py --games 40 --scale 50

Plays random 4-player games and times, at every decision, the full `check_state` (every card looked
at) and the per-move `Checker` that validate runs (cards followed through pile sums), in two passes
over the same games, in CPU time. The big set is the bundled Lunch Money with every count multiplied
by --scale, so the games play alike and only the deck size differs. Prints microseconds per decision for each.
"""

from __future__ import annotations

import argparse
import dataclasses
import time

from cardgen.engine.agents import RandomAgent
from cardgen.engine.cards import card_info
from cardgen.engine.invariants import Checker, check_state, check_step, snapshot
from cardgen.engine.rules import new_game, push
from cardgen.engine.views import observe
from cardgen.loader import load_set
from cardgen.model import CardSet


def scaled(cs: CardSet, k: int) -> CardSet:
    """`cs` with every card's count multiplied by `k`."""
    cards = tuple(dataclasses.replace(c, count=c.count * k) for c in cs.cards)
    return dataclasses.replace(cs, cards=cards, deck_size=cs.deck_size * k, name=f"{cs.name}x{k}")


def measure(cs: CardSet, games: int, full: bool) -> tuple[int, float]:
    """Decisions, and CPU seconds spent in the checks after them: the full check (`full`) or the per-move
    checker, in separate passes over the same games (so neither's memory traffic slows the other)."""
    info = card_info(cs)
    decisions, spent = 0, 0.0
    clock = time.process_time  # CPU time: the machine may be shared
    for g in range(games):
        s = new_game(cs, 4, seed=g, record=True, info=info)
        agents = [RandomAgent(g * 10 + p) for p in range(4)]
        checker = Checker(s.game)
        while s.result is None:
            before = snapshot(s)
            push(s, agents[s.to_act].choose(observe(s, s.to_act)), False)
            decisions += 1
            t0 = clock()
            problems = check_state(s) + check_step(before, s) if full else checker.state(s) + checker.step(before, s)
            spent += clock() - t0
            assert problems == [], problems
    return decisions, spent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--scale", type=int, default=50)
    args = ap.parse_args()
    base = load_set("lunch")
    print(f"{'set':<10} {'cards':>6} {'decisions':>9} {'full check us/dec':>18} {'per-move checker us/dec':>24}")
    for cs in (base, scaled(base, args.scale)):
        n, full = measure(cs, args.games, True)
        _, quick = measure(cs, args.games, False)
        print(f"{cs.name:<10} {cs.total:>6} {n:>9} {1e6 * full / n:>18.1f} {1e6 * quick / n:>24.1f}")


if __name__ == "__main__":
    main()
