"""Throughput of `--cluster local` (a real Dask cluster of worker processes here) against a local run.

Plays the same simulation three ways, prints games/s for each and checks the JSON is the same apart from the
timing keys: one process, `--jobs N` worker processes, and a local Dask cluster of N workers (its start-up
counted, as a user would wait for it).

    python bench/cluster_bench.py --games 4000 --jobs 2
    python bench/cluster_bench.py --games 200 --agent search --budget 10 --players 2
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from cardgen.loader import load_set
from cardgen.sim.agents import agent_names, parse_budget
from cardgen.sim.runner import TIMING_KEYS, SimConfig, results_json, simulate


def _untimed(res: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in res.items() if k not in TIMING_KEYS}, sort_keys=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default="beer")
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--agent", default="greedy")
    ap.add_argument("--budget", default="30")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    cs = load_set(args.set)
    base = SimConfig(players=args.players, games=args.games, seed=1, agents=agent_names(args.agent),
                     budget=parse_budget(args.budget))
    runs = [("one process", base), (f"--jobs {args.jobs}", SimConfig(**{**base.__dict__, "jobs": args.jobs})),
            (f"--cluster local ({args.jobs} workers)",
             SimConfig(**{**base.__dict__, "jobs": args.jobs, "cluster": "local"}))]
    first: str | None = None
    for label, cfg in runs:
        t0 = time.perf_counter()
        res = results_json(cs, simulate(cs, cfg))
        secs = time.perf_counter() - t0
        same = first is None or _untimed(res) == first
        first = first or _untimed(res)
        print(f"{label:>28}: {args.games} games in {secs:6.1f} s = {args.games / secs:7.1f} games/s; "
              f"JSON {'identical' if same else 'DIFFERENT'} apart from timing keys", flush=True)


if __name__ == "__main__":
    main()
