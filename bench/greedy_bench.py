"""This checkout's greedy bot against another checkout's, on the same deals, and how each plays self-stunning cards.

Every deal is played once per seat with this greedy in that seat and the other checkout's greedy in all the
others (2 players: the same deal twice, seats swapped), so seat and deal effects cancel. Prints this greedy's
wins against its fair share (1 / players) with a 95 % Wilson interval, and, for each bot, how often it played
each card that stuns its own player (STUNNED nT), by kind of move (turn play, follow-up, free hit, answer...).

    python bench/greedy_bench.py --against OTHER --set tests/fixtures/balance/broken --games 1000
    python bench/greedy_bench.py --against OTHER --set beer --players 4 --games 300

The other checkout's `cardgen/sim/greedy.py` is loaded as a module on this checkout's engine, so the two must
share the engine's API. Figures: docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from collections import Counter
from pathlib import Path
from types import ModuleType

from cardgen.engine.cards import card_info
from cardgen.engine.moves import CARD_PLAYS
from cardgen.engine.rules import new_game, push
from cardgen.engine.views import Agent, observe
from cardgen.loader import load_sets
from cardgen.sim.greedy import GreedyAgent
from cardgen.sim.seeding import derive_seed
from cardgen.sim.stats import wilson_interval


def other_greedy(checkout: Path) -> ModuleType:
    """The greedy module of another checkout, under a name of its own (this checkout's stays importable)."""
    path = checkout / "cardgen" / "sim" / "greedy.py"
    spec = importlib.util.spec_from_file_location("other_greedy", path)
    if spec is None or spec.loader is None:
        sys.exit(f"error: {path}: not a greedy module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--against", type=Path, required=True, metavar="CHECKOUT", help="the other checkout")
    ap.add_argument("--set", action="append", dest="sets", help="set (repeat to mix; default beer)")
    ap.add_argument("--games", type=int, default=500, help="deals (each played once per seat)")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    cs = load_sets(args.sets or ["beer"])
    info = card_info(cs)
    old = other_greedy(args.against)
    stunning = {ci.d for ci in info if ci.stunned}
    plays: dict[str, Counter[tuple[str, str]]] = {"this": Counter(), "other": Counter()}
    wins = games = decisions = 0
    t0 = time.process_time()
    n = args.players
    for g in range(args.games):
        for seat in range(n):
            bots: list[Agent] = [GreedyAgent(derive_seed(args.seed, g, q)) if q == seat else
                                 old.GreedyAgent(derive_seed(args.seed, g, q)) for q in range(n)]
            s = new_game(cs, n, seed=derive_seed(args.seed, g), info=info)
            views = [observe(s, q) for q in range(n)]
            while s.result is None:
                p = s.to_act
                m = bots[p].choose(views[p])
                if m.card in stunning and m.kind in CARD_PLAYS:
                    plays["this" if p == seat else "other"][info[m.card].name, str(m.kind)] += 1
                push(s, m, False)
                decisions += 1
            games += 1
            wins += s.result.winner == seat
    cpu = time.process_time() - t0
    lo, hi = wilson_interval(wins, games)
    print(f"{' + '.join(args.sets or ['beer'])}, {n} players, {args.games} deals x {n} seats = {games} games "
          f"({decisions / cpu:,.0f} decisions per CPU second, both bots together)")
    print(f"this greedy won {wins} of {games}: {100 * wins / games:.1f} % (95 % interval {100 * lo:.1f} to "
          f"{100 * hi:.1f} %), fair share {100 / n:.1f} %")
    seats = {"this": games, "other": games * (n - 1)}
    for who, counter in plays.items():
        if not stunning:
            break
        shown = ", ".join(f"{name} as {kind} {k}" for (name, kind), k in sorted(counter.items())) or "none"
        print(f"{who:>5} greedy's plays of self-stunning cards ({seats[who]} seats): {shown}")


if __name__ == "__main__":
    main()
