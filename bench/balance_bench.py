"""The balance procedure with every default, over seeds: what it finds on the planted fixtures and what it flags
wrongly on them and on the controls, and how long a verdict takes.

    nice -n 10 python bench/balance_bench.py [--seeds 10] [--first-seed 1] [--jobs N] [FIXTURE ...]

Each run is `compare_versions(base, fixture)` with the defaults (the cache off, so every run plays). Printed per
run: the cards called (primary and knock-on), the game under changed rules, the games at each table size, the
wall and CPU time of this process. Then per fixture and in all: plants named in the right direction at the size
they were planted for, cards flagged that were not planted (primary family: wrongly flagged), knock-on calls,
and the median and worst wall time to a verdict.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

from cardgen.loader import load_set
from cardgen.sim.balance import BalanceConfig, BalanceResult, compare_versions
from cardgen.sim.balance_defaults import default_jobs

PLANTS = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "balance_plants"
# fixture -> {planted card or rule figure: {table size it was planted for: the call}} (tests/test_balance_plants.py)
EXPECTED: dict[str, dict[str, dict[int, str]]] = {
    "basic-attack": {"Knuckle Sammitch": {2: "stronger"}},
    "bigger-heal": {"Self Help": {2: "stronger"}},
    "classic-weapon": {"Textbook": {2: "stronger"}},
    "new-card": {"Bar Brawl": {2: "too strong"}},
    "combo-follow-up": {"Manhandle": {2: "stronger"}},
    "self-stun": {"Horror of Horrors": {2: "weaker", 4: "weaker"}},
    "every-rival": {"Kick⁴": {4: "stronger"}},
    "defence": {"Dodge": {2: "stronger"}},
    "nerf": {"Kick⁴": {2: "weaker"}},
    "two-edits": {"Sucker Punch": {2: "stronger"}, "Coldcock": {2: "never played", 4: "never played"}},
    "rule-life": {"game length": {2: "shorter", 4: "shorter"}},
    "copies-only": {}, "flavour-only": {}, "rename": {}, "new-at-par": {},
}


def score(res: BalanceResult, expected: dict[str, dict[int, str]]) -> tuple[int, int, int, list[str]]:
    """(plant calls made as expected, plant calls expected, cards flagged that were not planted, knock-on
    calls) of one run."""
    calls = {(v.card, t.players): v.call for t in res.tables for v in t.verdicts}
    want = [(card, n, call) for card, sizes in expected.items() for n, call in sizes.items()]
    found = sum(calls.get((card, n)) == call for card, n, call in want)
    wrong = sorted({v.card for v in res.flagged() if v.card not in expected})
    wrong += sorted({f"{card} ({n}p {calls.get((card, n))})" for card, sizes in expected.items()
                     for n in (2, 4) if n not in sizes and calls.get((card, n)) not in
                     (None, *sizes.values(), "no change that matters", "within the band", "undecided")})
    knock = sorted({f"{v.card} ({v.players}p {v.change:+.1f})" for v in res.flagged(("knock-on",))})
    return found, len(want), len(wrong), knock


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("fixtures", nargs="*", default=list(EXPECTED))
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=default_jobs())
    args = ap.parse_args()
    os.environ["CARDGEN_BALANCE_CACHE"] = "0"
    print(f"load at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; jobs {args.jobs}")
    walls: list[float] = []
    totals = [0, 0, 0, 0]
    for name in args.fixtures:
        b = load_set(PLANTS / name)
        a = load_set(Path(b.base or ""))
        expected = EXPECTED.get(name, {})
        per = [0, 0, 0, 0]
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            t0, c0 = time.perf_counter(), time.process_time()
            res = compare_versions(a, b, BalanceConfig(seed=seed, jobs=args.jobs))
            wall = time.perf_counter() - t0
            walls.append(wall)
            found, want, wrong, knock = score(res, expected)
            for i, x in enumerate((found, want, wrong, len(knock))):
                per[i] += x
            game = [f"{v.card} {v.players}p {v.call}" for t in res.tables for v in t.verdicts if v.family == "rules"]
            print(f"{name} seed {seed}: called {sorted({v.card for v in res.flagged()}) or '-'}; "
                  f"knock-on {knock or '-'}; {'; '.join(game) + '; ' if game else ''}"
                  + ", ".join(f"{t.players}p {t.games} ({t.stopped})" for t in res.tables)
                  + f"; {wall:.1f} s wall, {time.process_time() - c0:.1f} s CPU here; load {os.getloadavg()[0]:.1f}",
                  flush=True)
        totals = [x + y for x, y in zip(totals, per, strict=True)]
        print(f"== {name}: {per[0]} of {per[1]} plant calls made, {per[2]} cards flagged wrongly, {per[3]} knock-on "
              f"calls over {args.seeds} seeds", flush=True)
    print(f"all: {totals[0]} of {totals[1]} plant calls made, {totals[2]} cards flagged wrongly, {totals[3]} knock-on "
          f"calls; time to a verdict median {statistics.median(walls):.1f} s, worst {max(walls):.1f} s "
          f"over {len(walls)} runs")


if __name__ == "__main__":
    main()
