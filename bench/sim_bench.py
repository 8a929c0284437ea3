"""Simulation speed and memory: games/s and decisions/s per set and bot, peak memory of a long run.

    python bench/sim_bench.py                      # every bundled set x random, greedy (500 games each)
    python bench/sim_bench.py --games 2000 --set beer --agent random
    python bench/sim_bench.py --long 100000        # one long streamed run: peak RSS must stay small
    python bench/sim_bench.py --profile            # cProfile of 300 random games: where the time goes
    python bench/sim_bench.py --against OTHER  # this checkout and another side by side (CPU time)
    python bench/sim_bench.py --against OTHER --pure-other --agent greedy   # this build against its pure engine
    python bench/sim_bench.py --against OTHER --instructions --games 20  # instructions per decision
    python bench/sim_bench.py --builds             # this checkout compiled and pure (CARDGEN_PURE=1), side by side
    python bench/sim_bench.py --builds --openspiel --set beer --agent random   # and OpenSpiel's C++ hearts

Runs on one core (jobs 1) so figures compare across machines; the target is
1,000 four-player random games per second and 100,000 games under 300 MB. Every mode first prints
which engine runs (compiled by mypyc or pure Python: docs/compiled.md). `--openspiel` needs
`pip install open-spiel` (never a dependency of cardgen): its hearts, 4 players, uniformly random moves
driven from Python as OpenSpiel's examples do (chance outcomes sampled by their probabilities); only the
players' moves count as decisions, on both sides.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import cardgen
from cardgen.loader import bundled_set_names, load_set
from cardgen.sim.runner import SimConfig, simulate


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far (ru_maxrss is in KiB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def speed(sets: list[str], agents: list[str], games: int, players: int) -> None:
    print(f"{'set':<10} {'agent':<8} {'games':>6} {'games/s':>9} {'decisions/s':>12} {'turns':>7} {'stalemates':>10}")
    for name in sets:
        cs = load_set(name)
        for agent in agents:
            res = simulate(cs, SimConfig(players=players, games=games, seed=1, agents=(agent,)))
            st = res.batch.stats
            print(f"{name:<10} {agent:<8} {games:>6} {games / res.seconds:>9.0f} {st.decisions / res.seconds:>12.0f} "
                  f"{st.turns_total / st.games:>7.1f} {st.stalemates:>10}")


def long_run(name: str, games: int, players: int, agent: str) -> None:
    cs = load_set(name)
    before = peak_rss_mb()
    t0 = time.perf_counter()
    done = [0]

    def tick(n: int) -> None:
        done[0] += n
        if done[0] % 10_000 < n:
            print(f"  {done[0]:>7} games, {time.perf_counter() - t0:6.0f} s, peak RSS {peak_rss_mb():.0f} MB",
                  flush=True)

    res = simulate(cs, SimConfig(players=players, games=games, seed=1, agents=(agent,)), progress=tick)
    st = res.batch.stats
    print(f"long run: {name}, {games} {agent} games, {players} players: {res.seconds:.0f} s, "
          f"{games / res.seconds:.0f} games/s, peak RSS {peak_rss_mb():.0f} MB (at start {before:.0f} MB), "
          f"stalemates {st.stalemates}, invariant violations {st.violations}")


def profile(name: str, games: int, players: int, agent: str) -> None:
    cs = load_set(name)
    prof = cProfile.Profile()
    prof.enable()
    simulate(cs, SimConfig(players=players, games=games, seed=1, agents=(agent,)))
    prof.disable()
    stats = pstats.Stats(prof, stream=sys.stdout)
    stats.sort_stats("tottime").print_stats(18)


# Measured in a fresh interpreter on either checkout, so it uses only what both have: `simulate` (the full
# simulation path, statistics included) and the engine's own `play_game` with random bots (no statistics).
_WORKER = """
import gc, sys, time
import cardgen
try:  # the collector's thresholds `cardgen simulate` runs with (the same on both sides of a comparison)
    from cardgen.cli.main import GC_THRESHOLDS
    gc.set_threshold(*GC_THRESHOLDS)
except ImportError:
    pass
assert cardgen.__file__.startswith(sys.argv[4]), (cardgen.__file__, sys.argv[4])  # the checkout asked for
from cardgen.engine.agents import RandomAgent, play_game
from cardgen.engine.cards import card_info
from cardgen.loader import load_set
from cardgen.sim.runner import SimConfig, simulate
sets, agents, games = sys.argv[1].split(","), sys.argv[2].split(","), int(sys.argv[3])
count = [0]
class Counting:  # wraps (a compiled RandomAgent cannot be subclassed from Python)
    def __init__(self, seed):
        self.choose_random = RandomAgent(seed).choose
    def choose(self, view):
        count[0] += 1
        return self.choose_random(view)
for name in sets:
    cs = load_set(name)
    info = card_info(cs)
    for agent in agents:
        t0 = time.process_time()
        res = simulate(cs, SimConfig(players=4, games=games, seed=1, agents=(agent,)))
        print(name, agent, "simulate", res.batch.stats.decisions / (time.process_time() - t0), flush=True)
    count[0] = 0
    try:  # one game shared by all (engine 24b on); before that the engine kept its last game itself
        from cardgen.engine.game import make_game, seat_names
        table = {"game": make_game(cs, seat_names(4), info=info)}
    except ImportError:
        table = {"info": info}
    t0 = time.process_time()
    for g in range(games):
        play_game(cs, [Counting(g * 8 + p) for p in range(4)], seed=g, **table)
    print(name, "random", "engine", count[0] / (time.process_time() - t0), flush=True)
"""


# OpenSpiel's hearts with uniformly random players, as its examples drive a game from Python.
_HEARTS_WORKER = """
import gc, random, sys, time
import pyspiel
gc.set_threshold(200_000, 30, 30)  # as the cardgen side runs
game = pyspiel.load_game("hearts")
rng = random.Random(1)
decisions = 0
t0 = time.process_time()
for _ in range(int(sys.argv[1])):
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
print("hearts", "random", "openspiel", decisions / (time.process_time() - t0), flush=True)
"""


def _side_by_side(runs: dict[str, tuple[list[str], dict[str, str], Path]], rounds: int
                  ) -> dict[tuple[str, str, str, str], float]:
    """Each labelled worker (argv, environment, directory) started together with the others, `rounds` times,
    so all see the same load: the best figure of each line it prints (set, agent, path, decisions/CPU s)."""
    best: dict[tuple[str, str, str, str], float] = {}
    for r in range(rounds):
        procs = {label: subprocess.Popen(argv, env=env, cwd=cwd, stdout=subprocess.PIPE, text=True)
                 for label, (argv, env, cwd) in runs.items()}
        for label, proc in procs.items():
            out, _ = proc.communicate()
            if proc.returncode != 0:
                sys.exit(f"error: the {label} worker failed (exit code {proc.returncode})")
            for line in out.splitlines():
                name, agent, mode, value = line.split()
                key = (name, agent, mode, label)
                best[key] = max(best.get(key, 0.0), float(value))
        print(f"  round {r + 1} of {rounds} done", file=sys.stderr)
    return best


def _worker(root: Path, sets: list[str], agents: list[str], games: int, **env: str
            ) -> tuple[list[str], dict[str, str], Path]:
    argv = [sys.executable, "-c", _WORKER, ",".join(sets), ",".join(agents), str(games), str(root)]
    return argv, {**os.environ, "PYTHONPATH": str(root), **env}, root


def against(other: Path, sets: list[str], agents: list[str], games: int, rounds: int, pure_other: bool = False
            ) -> None:
    """This checkout and `other` run side by side (so both see the same load), `rounds` times: best CPU figures.
    `pure_other`: the other runs its pure Python engine (CARDGEN_PURE=1; a checkout from before the compiled build,
    or one never installed, is pure anyway), this one whichever build it has: "this compiled against that pure"
    in one run, the compiled build's gain over the pure engine measured directly."""
    here = Path(__file__).resolve().parent.parent
    other_env = {"CARDGEN_PURE": "1"} if pure_other else {}
    best = _side_by_side({"this": _worker(here, sets, agents, games),
                          "other": _worker(other.resolve(), sets, agents, games, **other_env)}, rounds)
    print(f"decisions per CPU second, best of {rounds} side-by-side rounds; this = {cardgen.BUILD.line()}; "
          f"other = {other}{' (pure Python)' if pure_other else ''}")
    print(f"{'set':<10} {'agent':<8} {'path':<9} {'other':>9} {'this':>9} {'change':>8} {'ratio':>7}")
    for name, agent, mode, label in sorted(best):
        if label != "this":
            continue
        a, b = best[name, agent, mode, "other"], best[name, agent, mode, "this"]
        print(f"{name:<10} {agent:<8} {mode:<9} {a:>9.0f} {b:>9.0f} {100 * (b - a) / a:>+7.1f}% {b / a:>6.2f}x")


def builds(sets: list[str], agents: list[str], games: int, rounds: int, openspiel: bool) -> None:
    """This checkout's compiled and pure engines (CARDGEN_PURE=1) side by side, and OpenSpiel's hearts with them."""
    if not cardgen.BUILD.compiled:
        sys.exit(f"error: --builds needs the compiled engine, and this install runs {cardgen.BUILD.line()}")
    here = Path(__file__).resolve().parent.parent
    runs = {"compiled": _worker(here, sets, agents, games, CARDGEN_PURE="0"),
            "pure": _worker(here, sets, agents, games, CARDGEN_PURE="1")}
    if openspiel:
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            sys.exit("error: --openspiel needs OpenSpiel: pip install open-spiel")
        runs["openspiel"] = ([sys.executable, "-c", _HEARTS_WORKER, str(games)], dict(os.environ), here)
    best = _side_by_side(runs, rounds)
    print(f"decisions per CPU second, best of {rounds} side-by-side rounds, 4 players")
    print(f"{'set':<10} {'agent':<8} {'path':<9} {'pure':>9} {'compiled':>9} {'ratio':>7}")
    for name, agent, mode, label in sorted(best):
        if label != "compiled":
            continue
        a, b = best[name, agent, mode, "pure"], best[name, agent, mode, "compiled"]
        print(f"{name:<10} {agent:<8} {mode:<9} {a:>9.0f} {b:>9.0f} {b / a:>6.2f}x")
    hearts = best.get(("hearts", "random", "openspiel", "openspiel"))
    if hearts is not None:
        print(f"OpenSpiel C++ hearts, random, driven from Python: {hearts:.0f} decisions per CPU second")
        for name, agent, mode, label in sorted(best):
            if agent == "random" and label in ("compiled", "pure"):
                print(f"  {name} random ({mode}, {label}) / hearts: {best[name, agent, mode, label] / hearts:.2f}x")


# One simulation in a fresh interpreter on either checkout; prints its decisions (for `instructions`).
_COUNT_WORKER = """
import sys
import cardgen
assert cardgen.__file__.startswith(sys.argv[4]), (cardgen.__file__, sys.argv[4])
from cardgen.loader import load_set
from cardgen.sim.runner import SimConfig, simulate
res = simulate(load_set(sys.argv[1]), SimConfig(players=4, games=int(sys.argv[3]), seed=1, agents=(sys.argv[2],)))
print("decisions", res.batch.stats.decisions)
"""


def _counted(root: Path, name: str, agent: str, games: int) -> tuple[int, int]:
    """(decisions, CPU instructions) of a `simulate` run on checkout `root`, counted by valgrind's cachegrind."""
    argv = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
            sys.executable, "-c", _COUNT_WORKER, name, agent, str(games), str(root)]
    proc = subprocess.run(argv, env={**os.environ, "PYTHONPATH": str(root)}, cwd=root, capture_output=True,
                          text=True, check=True)
    decisions = int(proc.stdout.split()[-1])
    refs = [line for line in proc.stderr.splitlines() if "I refs:" in line or "I   refs:" in line]
    return decisions, int(refs[-1].split(":")[1].replace(",", ""))


def instructions(other: Path, sets: list[str], agents: list[str], games: int) -> None:
    """Instructions per decision of this checkout and `other`: the same figure on a loaded machine as on an idle
    one (CPU time on a shared machine moves by 10 % between runs). Each is the difference between runs of `games`
    and 2 x `games` games (start-up and imports cancel out), over the difference in decisions."""
    if shutil.which("valgrind") is None:
        sys.exit("error: --instructions needs valgrind (its cachegrind tool counts the instructions)")
    here = Path(__file__).resolve().parent.parent
    print(f"CPU instructions per decision (cachegrind), games {games + 1}-{2 * games} of each run; other = {other}")
    print(f"{'set':<10} {'agent':<8} {'other':>9} {'this':>9} {'change':>8}")
    for name in sets:
        for agent in agents:
            per: list[float] = []
            for root in (other.resolve(), here):
                (d1, i1), (d2, i2) = (_counted(root, name, agent, g) for g in (games, 2 * games))
                per.append((i2 - i1) / (d2 - d1))
            print(f"{name:<10} {agent:<8} {per[0]:>9.0f} {per[1]:>9.0f} {100 * (per[1] - per[0]) / per[0]:>+7.1f}%",
                  flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", action="append", dest="sets", help="set to measure (default: every bundled set)")
    ap.add_argument("--agent", action="append", dest="agents", help="random or greedy (default: both)")
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--long", type=int, default=0, metavar="GAMES", help="one long streamed run of this many games")
    ap.add_argument("--profile", action="store_true", help="profile 300 games of the first set and agent")
    ap.add_argument("--against", type=Path, metavar="CHECKOUT",
                    help="compare with another checkout (e.g. `git worktree add OTHER main`), side by side")
    ap.add_argument("--rounds", type=int, default=3, help="side-by-side rounds for --against (best is kept)")
    ap.add_argument("--pure-other", action="store_true",
                    help="with --against: run the other checkout's pure Python engine (CARDGEN_PURE=1)")
    ap.add_argument("--builds", action="store_true",
                    help="this checkout compiled and pure Python (CARDGEN_PURE=1) side by side (CPU time)")
    ap.add_argument("--openspiel", action="store_true",
                    help="with --builds: OpenSpiel's C++ hearts (4 players, random) side by side too")
    ap.add_argument("--instructions", action="store_true",
                    help="with --against: count CPU instructions per decision (needs valgrind) instead of timing")
    args = ap.parse_args()
    sets = args.sets or bundled_set_names()
    agents = args.agents or ["random", "greedy"]
    print(cardgen.BUILD.line(), flush=True)
    if args.builds:
        builds(sets, agents, args.games, args.rounds, args.openspiel)
    elif args.against and args.instructions:
        instructions(args.against, sets, agents, args.games)
    elif args.against:
        against(args.against, sets, agents, args.games, args.rounds, args.pure_other)
    elif args.profile:
        profile(sets[0], 300, args.players, agents[0])
    elif args.long:
        long_run(sets[0], args.long, args.players, agents[0])
    else:
        speed(sets, agents, args.games, args.players)
        print(f"peak RSS {peak_rss_mb():.0f} MB")


if __name__ == "__main__":
    main()
