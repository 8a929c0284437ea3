"""The searching bot against greedy: win rate with its 95 % interval, and its time a decision on one core.

Plays two-player games of a set with one search seat and one greedy seat (they swap seats game by game),
and prints the search bot's win rate, its Wilson interval, and the time of each searched decision (one with
more than one legal move): CPU time of its process, which is what a decision costs on one core whatever else
runs on the machine, and wall time. `--jobs` spreads games over processes; a decision never spans cores.

    python bench/search_bench.py --games 400 --budget 100 --jobs 2
    python bench/search_bench.py --games 40 --budget 100 --set lunch

Figures: docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time

from cardgen.engine.cards import card_info
from cardgen.engine.game import make_game, seat_names
from cardgen.engine.views import PlayerView
from cardgen.loader import load_set
from cardgen.sim.agents import parse_budget
from cardgen.sim.greedy import GreedyAgent
from cardgen.sim.play import play_one
from cardgen.sim.search import SearchAgent
from cardgen.sim.seeding import derive_seed
from cardgen.sim.stats import wilson_interval


class Timed:
    """Wraps the search bot and times each decision in which it had a choice: CPU time of this process (what
    the decision costs on one core, whatever else the machine runs) and wall time."""

    def __init__(self, bot: SearchAgent, cpu: list[float], wall: list[float]) -> None:
        self.bot, self.cpu, self.wall = bot, cpu, wall

    def choose(self, view: PlayerView):  # type: ignore[no-untyped-def]
        c, w = time.process_time(), time.perf_counter()
        m = self.bot.choose(view)
        if len(view.moves) > 1:
            self.cpu.append(time.process_time() - c)
            self.wall.append(time.perf_counter() - w)
        return m


def play(args: tuple[str, str, int, int, int]) -> tuple[int, int, list[float], list[float]]:
    """Games first..stop-1 (search in seat g % 2): (search wins, games with a winner, CPU and wall times)."""
    set_name, budget_text, seed, first, stop = args
    cs = load_set(set_name)
    info = card_info(cs)
    table = make_game(cs, seat_names(2), info=info)
    budget = parse_budget(budget_text)
    wins = decided = 0
    cpu: list[float] = []
    wall: list[float] = []
    for g in range(first, stop):
        me = g % 2
        search = SearchAgent(derive_seed(seed, g, me + 1), iterations=budget.iterations, ms=budget.ms)
        seats = [GreedyAgent(derive_seed(seed, g, q + 1)) for q in range(2)]
        seats[me] = Timed(search, cpu, wall)  # type: ignore[call-overload]
        names = ("search", "greedy") if me == 0 else ("greedy", "search")
        rec = play_one(cs, info, seats, names, derive_seed(seed, g), f"game {g}", game=table)
        decided += rec.winner_seat is not None
        wins += rec.winner_seat == me
    return wins, decided, cpu, wall


def _pct(xs: list[float], q: float) -> float:
    return sorted(xs)[int(q * (len(xs) - 1))] if xs else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default="beer")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--budget", default="30")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (each decision still runs on one core)")
    args = ap.parse_args()
    step = 10
    shards = [(args.set, args.budget, args.seed, a, min(a + step, args.games)) for a in range(0, args.games, step)]
    wins = decided = done = 0
    cpu: list[float] = []
    wall: list[float] = []
    t0 = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        for (_, _, _, a, b), (w, d, c, wl) in zip(shards, pool.imap(play, shards), strict=True):
            wins, decided, done = wins + w, decided + d, done + b - a
            cpu += c
            wall += wl
            print(f"  {done} games: search won {wins} ({100 * wins / done:.1f} %)", file=sys.stderr, flush=True)
    secs = time.perf_counter() - t0
    lo, hi = wilson_interval(wins, args.games)
    print(f"set {args.set}, {args.games} two-player games, search (budget {args.budget}) against greedy, "
          f"seed {args.seed}, {args.jobs} worker process(es)")
    print(f"search won {wins} of {args.games}: {100 * wins / args.games:.1f} % (95 % interval {100 * lo:.1f} to "
          f"{100 * hi:.1f} %); games without a winner: {args.games - decided}")
    mean_cpu = 1000 * sum(cpu) / max(len(cpu), 1)
    print(f"searched decisions: {len(cpu)}; CPU time a decision (one core): mean {mean_cpu:.0f} ms, "
          f"95th percentile {1000 * _pct(cpu, 0.95):.0f} ms, max {1000 * max(cpu or [0]):.0f} ms "
          f"({len(cpu) / max(sum(cpu), 1e-9):.1f} searched decisions/s); wall time a decision: mean "
          f"{1000 * sum(wall) / max(len(wall), 1):.0f} ms, max {1000 * max(wall or [0]):.0f} ms")
    print(f"wall time {secs:.0f} s")


if __name__ == "__main__":
    main()
