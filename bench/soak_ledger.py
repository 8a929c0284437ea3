"""Add up the shards of a long invariant soak (bench/soak_shards.sh) into a markdown table (docs/benchmarks.md, "Soak").

    python bench/soak_ledger.py LOGDIR [LOGDIR ...]

Counts the shards that ran to the end (exit code 0, or 1 when they found violations); prints, per group,
the games, the shards and their first games, the moves checked, the games with violations and the CPU
seconds, and how many games the two mix orders played alike. Shards that exited 1 are named below the
table, and so are the ones stopped part way (not counted).
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

GROUPS = ("beer", "classic", "lunch", "lunch+beer", "beer+lunch")
LINE = re.compile(r"^(\S+)\s+(\d+) games \(from (\d+)\), (\d+) moves checked, (\d+) with violations, (\d+) s CPU",
                  re.M)
SAME = re.compile(r"(\d+) of (\d+) games identical")


class Group:
    """One group's totals over its shards."""

    def __init__(self) -> None:
        self.games = self.moves = self.violations = self.cpu = 0
        self.starts: list[int] = []


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("logdirs", nargs="+", type=Path)
    args = ap.parse_args()
    groups: dict[str, Group] = {}
    same = [0, 0]
    failed: list[str] = []
    stopped: list[str] = []
    for d in args.logdirs:
        for f in sorted(d.glob("shard-*.txt")):
            text = f.read_text(encoding="utf-8")
            rc = re.search(r"^rc=(\d+)$", text, re.M)
            if rc is None:
                continue  # still running
            if rc[1] not in ("0", "1"):
                stopped.append(f.name)  # killed or interrupted: its games are not all checked
                continue
            if rc[1] == "1":
                failed.append(f.name)
            for m in LINE.finditer(text):
                g = groups.setdefault(m[1], Group())
                g.games += int(m[2])
                g.starts.append(int(m[3]))
                g.moves += int(m[4])
                g.violations += int(m[5])
                g.cpu += int(m[6])
            for m in SAME.finditer(text):
                same[0] += int(m[1])
                same[1] += int(m[2])
    print("| group | games | shards (first games) | moves checked | games with violations | CPU s |")
    print("|---|---:|---|---:|---:|---:|")
    for name in sorted(groups, key=lambda k: GROUPS.index(k) if k in GROUPS else len(GROUPS)):
        g = groups[name]
        s = sorted(g.starts)
        print(f"| {name} | {g.games:,} | {len(s)}, from {s[0]:,} to {s[-1]:,} | {g.moves:,} | {g.violations} "
              f"| {g.cpu:,} |")
    print(f"\n`lunch+beer` and `beer+lunch`: {same[0]:,} of {same[1]:,} games identical.")
    for name in failed:
        print(f"\nshard with violations or an error (exit code 1): {name}")
    if stopped:
        print(f"\nnot counted, stopped before the end: {', '.join(stopped)}")


if __name__ == "__main__":
    main()
