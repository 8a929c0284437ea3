"""The balance procedure with every default, over seeds: what it finds on the planted fixtures and what it flags
wrongly on them and on the controls, and how long a verdict takes.

    nice -n 10 python bench/balance_bench.py [--seeds 10] [--first-seed 1] [--jobs N] [--log FILE] [FIXTURE ...]
    python bench/balance_bench.py --table FILE
    nice -n 10 python bench/balance_bench.py --validate 5 [--set NAME ...]
    nice -n 10 python bench/balance_bench.py --tune

Each run is `compare_versions(base, fixture)` with the defaults (the cache off, so every run plays). The seeds
are the outer loop, so a run stopped early has covered every fixture on the same number of seeds. Printed per
run: the cards called (primary and knock-on), the game under changed rules, the deals looked at and the games
played at each table size (`--every-deal`: every deal played, for timing against), the wall time, the CPU time
of this process and with its workers'; each run is also appended to `--log` as a JSON line. The closing table (also
`--table FILE` from a log, finished or not): per fixture the seeds run, the seeds on which every plant was named
in its direction at the size it was planted for, the seeds with no card flagged that was not planted (quiet),
the wrong flags and knock-on calls in all, the median and worst wall time to a verdict, the median and worst
CPU time of the run with its workers' (each compare ends its worker pool), and the games played in all.

`--validate N` runs `cardgen validate` (the bundled sets, or each `--set`, every default) N times as a user
does, in a new process each time with the verdict cache off (every run plays all its games), and prints each
run's wall time, the load, a hash of its output (stdout and stderr) and whether all N printed the same.

`--tune` runs `cardgen tune BASE FIXTURE --card CARD` with every default on the planted fixtures in `TUNED`
(cache off) and prints, per fixture, the card as it is, the suggestion or "no confirmed fix", whether the
suggestion is within the designer's range (between the plant's value and the base's), the candidates and
confirmations played, and the wall time.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

from cardgen.loader import load_set
from cardgen.sim.balance import BalanceConfig, BalanceResult, compare_versions
from cardgen.sim.balance_defaults import default_jobs

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures"
PLANTS = FIXTURES / "balance_plants"
# tune's acceptance: fixture -> the card tune is asked to fix
TUNED: dict[str, str] = {"balance_plants/two-edits": "Sucker Punch", "balance_plants/nerf": "Kick⁴",
                         "balance_plants/defence": "Dodge", "tune/two-numbers": "Sucker Punch"}
# fixture -> {planted card or rule figure: {table size it was planted for: the call}} (shared with the tests)
_READ: dict[str, Any] = yaml.safe_load((PLANTS / "expected.yaml").read_text(encoding="utf-8"))
# plants at the minimum effect, named about half the time by the call rule: scored, and counted apart
AT_MINIMUM: dict[str, dict[str, dict[int, str]]] = _READ.pop("at_minimum")
EXPECTED: dict[str, dict[str, dict[int, str]]] = {**_READ, **AT_MINIMUM}


def score(res: BalanceResult, expected: dict[str, dict[int, str]]) -> tuple[int, int, list[str], list[str]]:
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
    return found, len(want), wrong, knock


def cpu_with_workers() -> float:
    """CPU seconds of this process and of its ended workers (each compare ends its pool)."""
    return sum(getattr(resource.getrusage(who), f) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
               for f in ("ru_utime", "ru_stime"))


def run_one(name: str, seed: int, jobs: int) -> dict[str, Any]:
    """One compare of a fixture with its base at `seed`: the scored record the log keeps."""
    b = load_set(PLANTS / name)
    a = load_set(Path(b.base or ""))
    t0, c0, a0 = time.perf_counter(), time.process_time(), cpu_with_workers()
    res = compare_versions(a, b, BalanceConfig(seed=seed, jobs=jobs))
    wall = time.perf_counter() - t0
    cpu_all = cpu_with_workers() - a0
    found, want, wrong, knock = score(res, EXPECTED.get(name, {}))
    return {"fixture": name, "seed": seed, "found": found, "want": want, "wrong": wrong, "knock": knock,
            "called": sorted({v.card for v in res.flagged()}),
            "plant_calls": [f"{v.card} {t.players}p {v.call}" for t in res.tables for v in t.verdicts
                            if v.card in EXPECTED.get(name, {})],
            "game": [f"{v.card} {v.players}p {v.call}" for t in res.tables for v in t.verdicts
                     if v.family == "rules"],
            "games": {str(t.players): [t.games, t.stopped] for t in res.tables},
            "played": {str(t.players): t.played for t in res.tables},
            "wall": round(wall, 2), "cpu": round(time.process_time() - c0, 2), "cpu_all": round(cpu_all, 2),
            "load": round(os.getloadavg()[0], 1)}


def run_line(r: dict[str, Any]) -> str:
    game = "; ".join(r["game"])
    return (f"{r['fixture']} seed {r['seed']}: called {r['called'] or '-'}; knock-on {r['knock'] or '-'}; "
            + (game + "; " if game else "")
            + ", ".join(f"{p}p {g} ({why}, {r.get('played', {}).get(p, g)} played)"
                        for p, (g, why) in r["games"].items())
            + f"; {r['wall']:.1f} s wall, {r['cpu']:.1f} s CPU here"
            + (f", {r['cpu_all']:.1f} s with the workers'" if "cpu_all" in r else "") + f"; load {r['load']:.1f}")


def table(records: list[dict[str, Any]]) -> list[str]:
    """The summary table: one row a fixture, then all."""
    rows = [f"{'fixture':<20} {'seeds':>5} {'named':>5} {'quiet':>5} {'wrong':>5} {'knock':>5} "
            f"{'median s':>8} {'worst s':>7} {'CPU med':>7} {'worst':>5} {'played':>7}"]
    fixtures = list(dict.fromkeys(r["fixture"] for r in records))
    for name in [*fixtures, None]:
        rs = [r for r in records if r["fixture"] == name or (name is None and r["fixture"] not in AT_MINIMUM)]
        if not rs:
            continue
        planted = any(r["want"] for r in rs)
        named = str(sum(r["found"] == r["want"] for r in rs)) if planted else "-"
        walls = [r["wall"] for r in rs]
        cpus = [r.get("cpu_all", r["cpu"]) for r in rs]  # (older logs: this process's CPU only)
        played = sum(sum(r.get("played", {}).values()) for r in rs)
        label = "all" if name is None else f"{name}*" if name in AT_MINIMUM else name
        rows.append(f"{label:<20} {len(rs):>5} {named:>5} {sum(not r['wrong'] for r in rs):>5} "
                    f"{sum(len(r['wrong']) for r in rs):>5} {sum(len(r['knock']) for r in rs):>5} "
                    f"{statistics.median(walls):>8.1f} {max(walls):>7.1f} {statistics.median(cpus):>7.1f} "
                    f"{max(cpus):>5.1f} {played:>7}")
    missed = [f"{r['fixture']} seed {r['seed']} ({r['found']} of {r['want']}"
              + (f": {', '.join(r['plant_calls'])})" if r.get("plant_calls") else ")") for r in records
              if r["found"] < r["want"]]
    wrong = [f"{r['fixture']} seed {r['seed']}: {', '.join(r['wrong'])}" for r in records if r["wrong"]]
    rows.append("named: seeds on which every planted call was made; quiet: seeds with no card flagged that was "
                "not planted; CPU: seconds of the run and its workers; played: games played in all (both sizes)")
    if any(r["fixture"] in AT_MINIMUM for r in records):
        rows.append("*: a plant of about the minimum effect, which the call rule names about half the time; not in all")
    rows += [f"missed: {'; '.join(missed)}"] if missed else []
    rows += [f"wrongly flagged: {'; '.join(wrong)}"] if wrong else []
    return rows


def validate_runs(runs: int, sets: list[str]) -> None:
    """`cardgen validate` N times, cache off: the wall times and whether every run printed the same."""
    cli = str(Path(sys.executable).parent / "cardgen")
    args = [cli, "validate", *(x for name in sets for x in ("--set", name))]
    env = {**os.environ, "CARDGEN_BALANCE_CACHE": "0"}
    print(f"{' '.join(['cardgen', *args[1:]])}, {runs} runs, cache off; load at start {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores", flush=True)
    walls, outputs = [], []
    for i in range(runs):
        t0 = time.perf_counter()
        run = subprocess.run(args, capture_output=True, text=True, check=False, env=env)
        walls.append(time.perf_counter() - t0)
        outputs.append(run.stdout + "\n--- stderr ---\n" + run.stderr)
        digest = hashlib.sha256(outputs[-1].encode()).hexdigest()[:12]
        print(f"run {i + 1}: exit {run.returncode}, {walls[-1]:.1f} s wall, output {digest}, "
              f"load {os.getloadavg()[0]:.1f}", flush=True)
    print(outputs[0])
    same = len(set(outputs)) == 1
    print(f"validate: {'identical output in all' if same else 'OUTPUT DIFFERS between'} {runs} runs; wall median "
          f"{statistics.median(walls):.1f} s, worst {max(walls):.1f} s")


def tune_runs() -> None:
    """`cardgen tune` with every default on the planted fixtures: the suggestion and whether it is in range."""
    cli = str(Path(sys.executable).parent / "cardgen")
    env = {**os.environ, "CARDGEN_BALANCE_CACHE": "0"}
    print(f"load at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)
    for fixture, card in TUNED.items():
        folder = FIXTURES / fixture
        base = load_set(folder).base or ""
        t0 = time.perf_counter()
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "tune.json"
            run = subprocess.run([cli, "tune", base, str(folder), "--card", card, "--json", str(out)],
                                 capture_output=True, text=True, check=False, env=env)
            wall = time.perf_counter() - t0
            if run.returncode != 0:
                print(f"{fixture}: exit {run.returncode}: {run.stderr.strip()[-300:]}")
                continue
            [res] = json.loads(out.read_text(encoding="utf-8"))["cards"]
        fix = res["fix"]
        if fix is None:
            verdict = "no confirmed fix"
        else:
            start = load_set(base).card(card)
            inside = all(min(p["before"][0], _base_value(start, p["number"])) <= p["after"][0]
                         <= max(p["before"][0], _base_value(start, p["number"])) for p in fix["edit"]["parts"])
            verdict = (f"suggests {fix['edit']['text']}, confirmed "
                       f"({res['fix_confirmed']['status']}), {'within' if inside else 'OUTSIDE'} the designer's range")
        print(f"{fixture} ({card}): {verdict}; {len(res['tried'])} candidates, {len(res['confirmations'])} "
              f"confirmations; {wall:.0f} s wall, load {os.getloadavg()[0]:.1f}", flush=True)
        for line in run.stdout.splitlines():
            print("    " + line)


def _base_value(card: Any, number: str) -> int:
    """The base card's value of a number tune changes (0 for a mechanic it does not have)."""
    from cardgen.sim.tune_numbers import numbers_of

    return numbers_of(card).get(number, (0,))[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("fixtures", nargs="*", default=list(EXPECTED))
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=default_jobs())
    ap.add_argument("--log", type=Path, help="Append each run to this file as a JSON line.")
    ap.add_argument("--table", type=Path, metavar="FILE", help="Only print the table of a log.")
    ap.add_argument("--validate", type=int, metavar="N", help="Run `cardgen validate` N times instead.")
    ap.add_argument("--set", dest="sets", action="append", default=[], help="A set for --validate (repeat).")
    ap.add_argument("--tune", action="store_true", help="Run `cardgen tune` on the planted fixtures instead.")
    ap.add_argument("--every-deal", action="store_true",
                    help="Play every deal, as before deals not worth playing were skipped (for timing against).")
    args = ap.parse_args()
    if args.every_deal:
        from cardgen.sim.balance import verdicts

        verdicts.Plan.tested = lambda self: None  # type: ignore[method-assign,assignment,return-value]
    if args.tune:
        tune_runs()
        return
    if args.validate:
        validate_runs(args.validate, args.sets)
        return
    if args.table is not None:
        lines = args.table.read_text(encoding="utf-8").splitlines()
        print("\n".join(table([json.loads(x) for x in lines if x.strip()])))
        return
    os.environ["CARDGEN_BALANCE_CACHE"] = "0"
    print(f"load at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; jobs {args.jobs}")
    records = []
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        for name in args.fixtures:
            r = run_one(name, seed, args.jobs)
            records.append(r)
            print(run_line(r), flush=True)
            if args.log is not None:
                with args.log.open("a", encoding="utf-8") as log:
                    log.write(json.dumps(r, ensure_ascii=False) + "\n")
    print("\n".join(table(records)))


if __name__ == "__main__":
    main()
