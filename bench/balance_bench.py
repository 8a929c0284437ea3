"""The balance procedure over many seeds: false flags on a control, and how often a plant is named.

    nice -n 10 python bench/balance_bench.py --seeds 20 [--fixture copies-only] [--max-games N | --seconds 60]

By default every run is the default procedure with its stopping rule and game limit (30,000 a table size) but no
time budget, so the figures do not depend on the load; `--max-games` lowers the limit, `--seconds` runs the
defaults with their time budget instead. Printed per seed: the cards called (primary and
knock-on), the games played at each table size, and the wall time; then the count of runs that called nothing
(a control) or that called exactly the planted card (`--plant NAME`).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from cardgen.loader import load_set
from cardgen.sim.balance import BalanceConfig, compare_versions

PLANTS = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "balance_plants"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fixture", default="copies-only")
    ap.add_argument("--plant", help="the planted card's name (default: a control, nothing should be called)")
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--max-games", type=int, default=BalanceConfig().max_games)
    ap.add_argument("--seconds", type=float)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    b = load_set(PLANTS / args.fixture)
    a = load_set(Path(b.base))
    good = found = knocked = 0
    cpu = 0.0
    t_all = time.perf_counter()
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        cfg = (BalanceConfig(seed=seed, jobs=args.jobs) if args.seconds is not None and args.seconds > 0 else
               BalanceConfig(seed=seed, jobs=args.jobs, seconds=1e9, max_games=args.max_games))
        if args.seconds:
            cfg = BalanceConfig(seed=seed, jobs=args.jobs, seconds=args.seconds)
        t0 = time.perf_counter()
        c0 = time.process_time()
        res = compare_versions(a, b, cfg)
        cpu += time.process_time() - c0
        called = sorted({v.card for v in res.flagged()})
        knock = sorted({v.card for v in res.flagged(("knock-on",))})
        ok = (called == [args.plant] if args.plant else not called) and not knock
        good += ok
        found += bool(args.plant) and args.plant in called
        knocked += bool(knock)
        games = ", ".join(f"{t.players}p {t.games} ({t.stopped})" for t in res.tables)
        if args.plant:  # the planted card's own figure at each table size: where it sits against the minimum
            games += "; " + ", ".join(f"{v.players}p {v.change:+.1f} [{v.low:+.1f}, {v.high:+.1f}] {v.call}"
                                      for t in res.tables for v in t.verdicts
                                      if v.card == args.plant and v.change is not None and v.low is not None
                                      and v.high is not None)
        print(f"seed {seed}: called {called or '-'}; knock-on {knock or '-'}; depends on table "
              f"{list(res.depends_on_table) or '-'}; {games}; "
              f"{time.perf_counter() - t0:.1f} s; load {os.getloadavg()[0]:.1f}", flush=True)
    what = f"named exactly {args.plant}" if args.plant else "called nothing"
    print(f"{args.fixture}: {good} of {args.seeds} runs {what}"
          + (f", {found} named {args.plant}" if args.plant else "")
          + f", {knocked} called a knock-on effect ({time.perf_counter() - t_all:.0f} s wall, {cpu:.0f} s CPU)")


if __name__ == "__main__":
    main()
