"""Where the CPU of `cardgen validate` on the bundled sets goes, part by part.

    python bench/validate_costs.py              # every part (about two minutes)
    python bench/validate_costs.py --no-games   # the main process's parts only (seconds)

`validate` plays each set's balance games in worker processes while its main process runs the sanity games,
the print preflight and the folding of the workers' games. The whole run is timed as a new process (wall, and
the CPU of its process and its workers together). Each set's balance is then judged here in one process
(`jobs` 1 plays the same games to the same verdicts), in validate's order, so that recess, which extends
classic, reads classic's games as validate does. The main process's other parts are timed here too, all in
CPU time (the machine may be shared): each set's sanity games with and without the invariant check after
every move, its print preflight (`static_problems`), and folding 200 of its balance games into a tally
(`Tally.add`), scaled to the 16,000 games validate folds. The verdict cache is off for every run.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial

import cardgen
from cardgen.checks.before_build import static_problems
from cardgen.checks.sanity import (
    SANITY_AGENTS,
    SANITY_GAMES,
    SANITY_PLAYERS,
    SANITY_SEED,
    SANITY_TURN_CAP,
    sanity_check,
)
from cardgen.engine.cards import card_info
from cardgen.loader import load_set
from cardgen.sim.balance import BalanceConfig, KeptGames, judge_set
from cardgen.sim.balance.games import PairedNote, PairTask
from cardgen.sim.balance.tally import Tally
from cardgen.sim.balance.verdicts import plan
from cardgen.sim.balance_defaults import MAX_GAMES, TABLES
from cardgen.sim.runner import SimConfig, run_range

SETS = ("beer", "classic", "lunch", "recess")
BASES = {"recess": "classic"}
RUN = "import sys; sys.argv[0] = 'cardgen'; from cardgen.cli.entry import run; run()"


def command_cpu(*args: str) -> tuple[float, float]:
    """(wall, CPU of the process and every process it waited for) of one `cardgen` run, cache off."""
    env = {**os.environ, "CARDGEN_BALANCE_CACHE": "0"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", RUN, *args], env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def cpu(work: Callable[[], object]) -> float:
    """CPU seconds of calling `work()` in this process."""
    t0 = time.process_time()
    work()
    return time.process_time() - t0


def sanity_parts(name: str) -> tuple[float, float]:
    """(CPU of the sanity games as validate plays them, of the same games without the per-move check)."""
    cs = load_set(name)
    whole = cpu(lambda: sanity_check(cs))
    info = card_info(cs)
    cfg = SimConfig(players=SANITY_PLAYERS, games=SANITY_GAMES, seed=SANITY_SEED, agents=SANITY_AGENTS,
                    check_every_move=False, coverage=True)
    cap = min(cs.rules.turn_cap, SANITY_TURN_CAP)  # as `sanity_check` plays them
    capped = dataclasses.replace(cs, rules=dataclasses.replace(cs.rules, turn_cap=cap))
    bare = cpu(lambda: [run_range(capped, info, cfg, g, g + 1) for g in range(SANITY_GAMES)])
    return whole, bare


def _fold(tally: Tally, notes: list[PairedNote], pairs: list[tuple[int, int]]) -> None:
    for note in notes:
        tally.add(note, pairs)


def fold_cost(name: str, games: int = 200, rounds: int = 5) -> float:
    """CPU of folding validate's 16,000 balance games of a set alone, from `games` real ones at each size."""
    cs = load_set(name)
    p = plan(cs, None)
    pairs = p.pairs()
    total = 0.0
    for players in TABLES:
        notes = PairTask(cs, None, ("greedy",), 0)(players, 0, games)
        tally = Tally(players, p.watched())
        total += cpu(partial(_fold, tally, notes * rounds, pairs)) / (games * rounds)
    return total * MAX_GAMES


def balance_cpu() -> dict[str, float]:
    """CPU of each set's balance games and their folding, played here in one process (`jobs` 1: the same games
    and verdicts as validate's workers), in validate's order, a base's games kept for the set extending it."""
    os.environ["CARDGEN_BALANCE_CACHE"] = "0"
    kept = KeptGames()
    cfg = BalanceConfig(jobs=1)
    out: dict[str, float] = {}
    for name in SETS:
        cs, base = load_set(name), load_set(BASES[name]) if name in BASES else None
        out[name] = cpu(partial(judge_set, cs, base, cfg, None, kept))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--no-games", action="store_true", help="skip the whole runs and the balance of each set")
    args = ap.parse_args()
    print(f"{cardgen.BUILD.line()}; {os.cpu_count()} CPUs; load {os.getloadavg()[0]:.1f}")
    if not args.no_games:
        wall, total = command_cpu("validate")
        print(f"validate, every bundled set: {wall:.1f} s wall, {total:.1f} s CPU (its process and its workers)")
        for name, spent in balance_cpu().items():
            base = f" (against {BASES[name]}, whose games are kept)" if name in BASES else ""
            print(f"  balance games and their folding, {name}{base}: {spent:.1f} s CPU in one process")
    print("main process, per set (CPU s): sanity games / of them without the per-move check / print preflight "
          "/ folding the balance games")
    for name in SETS:
        whole, bare = sanity_parts(name)
        cs = load_set(name)
        pre = cpu(partial(static_problems, cs))
        fold = f"{fold_cost(name):.2f}" if name not in BASES else f"- (folded with {BASES[name]}'s games)"
        print(f"  {name}: {whole:.2f} / {bare:.2f} / {pre:.2f} / {fold}")


if __name__ == "__main__":
    main()
