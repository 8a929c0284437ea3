"""CPU time of a fixed-size `compare` (no early stop, one process), here and on another checkout side by side.

    nice -n 10 python bench/compare_cpu.py [--games 1000] [--rounds 3] [--against OTHER] [FIXTURE ...]
    nice -n 10 python bench/compare_cpu.py --defaults [--seeds 1,2] [--jobs 2] [--against OTHER] [FIXTURE ...]

Each run is `compare_versions(base, fixture)` with `--games` paired games per table size (2 and 4 players),
`--jobs 1`, seed 1 and the verdict cache off, in a fresh interpreter on each checkout (the other's sources on
`PYTHONPATH`, its own compiled modules if it has them). Prints per fixture the best CPU seconds of `--rounds`
alternating runs and a digest of every verdict's call and figures: the same digest on both checkouts means the
same answers, so a speed change can be read without wondering whether the games changed. CPU time still moves
by a few per cent with the machine's load; the rounds alternate so both sides see the same load.

`--defaults` runs the compare as a user does instead (every default: early stops, the table-size games after
the verdicts, `--jobs` workers) on each of `--seeds`, once per checkout, and prints the wall time, the CPU of
the process and its workers together, and a digest of the whole result (every verdict, figure, game count and
stop; not the timings): the same digest on both checkouts, and for any `--jobs`, means the same answers.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
PLANTS = HERE / "tests" / "fixtures" / "balance_plants"

_WORKER = """
import hashlib, json, sys, time
from pathlib import Path
import cardgen
assert cardgen.__file__.startswith(sys.argv[3]), (cardgen.__file__, sys.argv[3])
from cardgen.loader import load_set
from cardgen.sim.balance import compare_versions
from cardgen.sim.balance.model import BalanceConfig
b = load_set(Path(sys.argv[1]))
a = load_set(Path(b.base or ""))
t = time.process_time()
res = compare_versions(a, b, BalanceConfig(seed=1, jobs=1, games=int(sys.argv[2])))
cpu = time.process_time() - t
calls = sorted((v.card, v.players, v.call, round(v.change, 9)) for table in res.tables for v in table.verdicts)
print(cpu, hashlib.sha256(json.dumps(calls).encode()).hexdigest()[:12], cardgen.BUILD.line())
"""

_DEFAULTS = """
import dataclasses, hashlib, json, resource, sys, time
from pathlib import Path
import cardgen
assert cardgen.__file__.startswith(sys.argv[4]), (cardgen.__file__, sys.argv[4])
from cardgen.loader import load_set
from cardgen.sim.balance import compare_versions
from cardgen.sim.balance.model import BalanceConfig


def cpu():
    return sum(getattr(resource.getrusage(who), f) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
               for f in ("ru_utime", "ru_stime"))


if __name__ == "__main__":
    b = load_set(Path(sys.argv[1]))
    a = load_set(Path(b.base or ""))
    t, c = time.perf_counter(), cpu()
    res = compare_versions(a, b, BalanceConfig(seed=int(sys.argv[2]), jobs=int(sys.argv[3])))
    wall, c = time.perf_counter() - t, cpu() - c
    whole = dataclasses.asdict(res)
    whole.pop("seconds")
    whole["config"].pop("jobs")
    digest = hashlib.sha256(json.dumps(whole, sort_keys=True, default=str).encode()).hexdigest()[:12]
    games = "+".join(str(t.games) for t in res.tables)
    print(wall, c, digest, games, cardgen.BUILD.line())
"""


def run(root: Path, fixture: Path, games: int) -> tuple[float, str, str]:
    """(CPU seconds, verdict digest, build line) of one compare on checkout `root`."""
    env = {**os.environ, "PYTHONPATH": str(root), "CARDGEN_BALANCE_CACHE": "0"}
    out = subprocess.run([sys.executable, "-c", _WORKER, str(fixture), str(games), str(root)], env=env, cwd=root,
                         capture_output=True, text=True, check=True).stdout.split(maxsplit=2)
    return float(out[0]), out[1], out[2].strip()


def run_defaults(root: Path, fixture: Path, seed: int, jobs: int) -> tuple[float, float, str, str]:
    """(wall seconds, CPU seconds with the workers', result digest, deals per table size) of one default compare
    on checkout `root`, in a fresh process (the workers start there, as for a user)."""
    env = {**os.environ, "PYTHONPATH": str(root), "CARDGEN_BALANCE_CACHE": "0"}
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "defaults.py"  # a file: the workers are spawned and import the main module
        script.write_text(_DEFAULTS, encoding="utf-8")
        out = subprocess.run([sys.executable, str(script), str(fixture), str(seed), str(jobs), str(root)], env=env,
                             cwd=root, capture_output=True, text=True, check=True).stdout.split(maxsplit=4)
    return float(out[0]), float(out[1]), out[2], out[3]


def defaults(roots: dict[str, Path], fixtures: list[Path], seeds: list[int], jobs: int) -> None:
    print(f"compare with every default, jobs {jobs}, cache off; load at start {os.getloadavg()[0]:.1f}")
    for fixture in fixtures:
        for seed in seeds:
            runs = {label: run_defaults(root, fixture.resolve(), seed, jobs) for label, root in roots.items()}
            line = f"{fixture.name:<20} seed {seed}"
            for label, (wall, cpu, digest, games) in runs.items():
                line += f"  {label} {wall:5.1f} s wall {cpu:5.1f} s CPU ({games} deals, result {digest})"
            if len(runs) > 1:
                same = len({r[2] for r in runs.values()}) == 1
                line += "  same result" if same else "  RESULTS DIFFER"
            print(line + f"  load {os.getloadavg()[0]:.1f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("fixtures", nargs="*", default=["nerf", "new-card", "rule-life"])
    ap.add_argument("--games", type=int, default=1000, help="paired games per table size")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--against", type=Path, metavar="CHECKOUT", help="another checkout, run alternately")
    ap.add_argument("--defaults", action="store_true", help="every default (early stops, workers) instead")
    ap.add_argument("--seeds", default="1", help="with --defaults: comma-separated seeds")
    ap.add_argument("--jobs", type=int, default=2, help="with --defaults: worker processes")
    args = ap.parse_args()
    roots = {"this": HERE} | ({"other": args.against.resolve()} if args.against else {})
    if args.defaults:
        defaults(roots, [PLANTS / n if (PLANTS / n).is_dir() else Path(n) for n in args.fixtures],
                 [int(x) for x in args.seeds.split(",")], args.jobs)
        return
    print(f"compare, {args.games} paired games per table size (2 and 4 players), jobs 1, cache off; "
          f"best CPU seconds of {args.rounds} alternating rounds")
    for name in args.fixtures:
        fixture = PLANTS / name if (PLANTS / name).is_dir() else Path(name)
        best: dict[str, float] = {}
        digest: dict[str, str] = {}
        builds: dict[str, str] = {}
        for _ in range(args.rounds):
            for label, root in roots.items():
                cpu, dig, build = run(root, fixture.resolve(), args.games)
                best[label] = min(best.get(label, cpu), cpu)
                digest[label] = dig
                builds[label] = build
        line = f"{name:<16} this {best['this']:6.2f} s (verdicts {digest['this']})"
        if "other" in best:
            change = 100 * (best["this"] - best["other"]) / best["other"]
            same = "same verdicts" if digest["this"] == digest["other"] else "VERDICTS DIFFER"
            line += f"  other {best['other']:6.2f} s  {change:+.1f} %  {same}"
        print(line)
        print(" " * 17 + "; ".join(f"{label}: {b}" for label, b in builds.items()))


if __name__ == "__main__":
    main()
