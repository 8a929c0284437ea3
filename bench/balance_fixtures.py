"""The balance procedure on the planted fixtures (tests/fixtures/balance_plants): what each run calls, in how
many games and how much wall time, with the defaults (or --jobs / --seed).

    nice -n 10 python bench/balance_fixtures.py [--jobs N] [--seed N] [--validate] [FIXTURE ...]

`--validate` also times `cardgen validate --set FIXTURE` as a designer runs it (a new process: start-up, the
loader's and print checks, the sanity games and the balance lint with the defaults) and counts its warnings.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

from cardgen.loader import load_set
from cardgen.sim.balance import BalanceConfig, compare_versions
from cardgen.sim.balance_defaults import default_jobs

PLANTS = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "balance_plants"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("fixtures", nargs="*")
    ap.add_argument("--jobs", type=int, default=default_jobs())
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--validate", action="store_true")
    args = ap.parse_args()
    os.environ["CARDGEN_BALANCE_CACHE"] = "0"  # every run plays (the --validate runs too)
    names = args.fixtures or sorted(p.name for p in PLANTS.iterdir() if (p / "set.yaml").is_file())
    print(f"load at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for name in names:
        b = load_set(PLANTS / name)
        a = load_set(Path(b.base))
        t0 = time.perf_counter()
        cpu0 = time.process_time()
        res = compare_versions(a, b, BalanceConfig(jobs=args.jobs, seed=args.seed))
        wall = time.perf_counter() - t0
        calls = []
        for t in res.tables:
            primary = [f"{v.card} {v.call} {v.change:+.1f} [{v.low:+.1f}, {v.high:+.1f}]"
                       for v in t.verdicts if v.family != "knock-on" and v.change is not None]
            knock = [f"{v.card} {v.call} {v.change:+.1f}" for v in t.verdicts if v.family == "knock-on" and v.flagged]
            calls.append(f"{t.players}p {t.games} games ({t.stopped}): {'; '.join(primary) or '-'}"
                         + (f" | knock-on: {'; '.join(knock)}" if knock else ""))
        flagged = sorted({v.card for v in res.flagged()})
        inter = [f"{i.card} {i.change:+.1f} [{i.low:+.1f}, {i.high:+.1f}]{' (depends)' if i.depends else ''}"
                 for i in res.interactions if i.card in flagged]
        print(f"{name}: flagged {flagged or 'nothing'}; depends on table {list(res.depends_on_table)}; "
              f"{wall:.1f} s wall, {time.process_time() - cpu0:.1f} s CPU here; load {os.getloadavg()[0]:.1f}")
        for line in calls:
            print("    " + line)
        if args.validate:
            t0 = time.perf_counter()
            cli = str(Path(sys.executable).parent / "cardgen")
            run = subprocess.run([cli, "validate", "--set", str(PLANTS / name)], capture_output=True, text=True,
                                 check=False)
            warned = [x.split(": warning: ")[1][:60] for x in run.stderr.splitlines() if ": warning: " in x]
            print(f"    validate: exit {run.returncode}, {time.perf_counter() - t0:.1f} s wall, warnings {warned}; "
                  f"load {os.getloadavg()[0]:.1f}")
        if inter:
            print("    4p against 2p: " + "; ".join(inter)
                  + f" ({', '.join(f'{t.interaction_games} more at {t.players}p' for t in res.tables)})")


if __name__ == "__main__":
    main()
