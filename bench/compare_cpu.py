"""CPU time of a fixed-size `compare` (no early stop, one process), here and on another checkout side by side.

    nice -n 10 python bench/compare_cpu.py [--games 1000] [--rounds 3] [--against OTHER] [FIXTURE ...]

Each run is `compare_versions(base, fixture)` with `--games` paired games per table size (2 and 4 players),
`--jobs 1`, seed 1 and the verdict cache off, in a fresh interpreter on each checkout (the other's sources on
`PYTHONPATH`, its own compiled modules if it has them). Prints per fixture the best CPU seconds of `--rounds`
alternating runs and a digest of every verdict's call and figures: the same digest on both checkouts means the
same answers, so a speed change can be read without wondering whether the games changed. CPU time still moves
by a few per cent with the machine's load; the rounds alternate so both sides see the same load.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
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


def run(root: Path, fixture: Path, games: int) -> tuple[float, str, str]:
    """(CPU seconds, verdict digest, build line) of one compare on checkout `root`."""
    env = {**os.environ, "PYTHONPATH": str(root), "CARDGEN_BALANCE_CACHE": "0"}
    out = subprocess.run([sys.executable, "-c", _WORKER, str(fixture), str(games), str(root)], env=env, cwd=root,
                         capture_output=True, text=True, check=True).stdout.split(maxsplit=2)
    return float(out[0]), out[1], out[2].strip()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("fixtures", nargs="*", default=["nerf", "new-card", "rule-life"])
    ap.add_argument("--games", type=int, default=1000, help="paired games per table size")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--against", type=Path, metavar="CHECKOUT", help="another checkout, run alternately")
    args = ap.parse_args()
    roots = {"this": HERE} | ({"other": args.against.resolve()} if args.against else {})
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
