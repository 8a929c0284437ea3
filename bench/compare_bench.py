"""`cardgen compare` over many seeds: how often it flags what changed, and nothing else.

Three checks on the balance fixtures (tests/fixtures/balance), two-player greedy games:

- null: the base set against itself, B with another run seed (no common random numbers), `--repeats` times:
  how many cards each repeat flags (Holm-adjusted p < 0.01 should flag any card in at most 1 % of repeats);
- broken: the base against its broken copy, seeds 1..repeats: how often exactly the two changed cards are flagged;
- control: the base against the copy-count-only control: cards flagged, and the median and largest change.

    python bench/compare_bench.py --repeats 20 --games 1000 --jobs 2
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from cardgen.loader import load_set
from cardgen.sim.compare import CompareConfig, compare
from cardgen.sim.runner import SimConfig

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "balance"
CHANGED = {"Death From Above", "Fists of Fury"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=20)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--only", choices=("null", "broken", "control"), action="append")
    args = ap.parse_args()
    base, broken, control = (load_set(FIXTURES / n) for n in ("base", "broken", "control"))
    checks = args.only or ["null", "broken", "control"]
    t0 = time.perf_counter()
    for check in checks:
        flagged_counts: list[int] = []
        exact = 0
        medians: list[float] = []
        largest: list[float] = []
        for r in range(1, args.repeats + 1):
            sim = SimConfig(players=2, games=args.games, seed=r, agents=("greedy",), jobs=args.jobs)
            other = {"null": base, "broken": broken, "control": control}[check]
            res = compare(base, other, CompareConfig(sim, seed_b=10_000 + r if check == "null" else None))
            flagged = set(res["flagged"])
            flagged_counts.append(len(flagged))
            exact += flagged == (CHANGED if check == "broken" else set())
            changes = [abs(c["opening"]["change"]) for c in res["cards"].values() if "change" in c.get("opening", {})]
            medians.append(statistics.median(changes))
            largest.append(max(changes))
            print(f"  {check} seed {r}: flagged {sorted(flagged) or 'none'}; median |change| "
                  f"{medians[-1]:.1f}, largest {largest[-1]:.1f} points", flush=True)
        at_most_one = sum(1 for n in flagged_counts if n <= 1)
        print(f"{check}: {args.repeats} repeats of {args.games} games: flagged exactly "
              f"{'the changed cards' if check == 'broken' else 'nothing'} in {exact}; at most one card in "
              f"{at_most_one}; median |change| {statistics.median(medians):.1f} points (largest seen "
              f"{max(largest):.1f})", flush=True)
    print(f"wall time {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
