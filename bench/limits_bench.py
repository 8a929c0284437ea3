"""Time and peak memory of `cardgen validate` on the inputs that used to run unbounded (issue 13, item 3).

Each case is written to a temporary folder and validated in a fresh process, which reports its wall time,
its peak resident memory and its exit code. `--cardgen PATH` runs another checkout's code instead (for a
before/after pair); `--timeout S` gives up on a case after S seconds (an unbounded "before" is reported as
a lower bound).

    python bench/limits_bench.py [--only NAME] [--cardgen /work/main] [--timeout 120]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MB = 1_000_000

_RUN = """
import json, resource, sys, time
t0 = time.perf_counter()
from cardgen.cli.main import main
code = 0
try:
    main(sys.argv[1:], standalone_mode=False)
except SystemExit as exc:
    code = exc.code if isinstance(exc.code, int) else 1
except Exception as exc:
    code = repr(exc)[:80]
out = {"seconds": time.perf_counter() - t0, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
       "exit": code}
print("BENCH " + json.dumps(out), file=sys.stderr)
"""

SET_HEAD = """name: {name}
title: Bench
deck_size: {deck}
rules: {{life: 10, hand_size: 3, turn_cap: {cap}}}
types:
  basic: {{label: Basic Attack, colour: "#F4C20D", role: attack}}
  event: {{label: Event, colour: "#F07A18", role: event}}
  heal: {{label: Snack, colour: "#2E9E4F", role: heal}}
"""


def _one_mb_of_cards(start: int = 0) -> str:
    """As many one-line cards as fit in 1 MB (13.7k): the file the issue loaded in 6.8 s."""
    lines = ["cards:"]
    size = 7
    i = start
    while True:
        line = f"  - {{name: Card{i}, type: basic, count: 1, damage: 1, source: designed}}"
        if size + len(line) + 1 > MB:
            return "\n".join(lines) + "\n"
        lines.append(line)
        size += len(line) + 1
        i += 1


def case_big_file(folder: Path) -> list[str]:
    (folder / "set.yaml").write_text(SET_HEAD.format(name="big", deck=1000, cap=300))
    (folder / "cards.yaml").write_text(_one_mb_of_cards())
    return ["validate", "--set", str(folder)]


def case_sixty_files(folder: Path) -> list[str]:
    (folder / "set.yaml").write_text(SET_HEAD.format(name="sixty", deck=1000, cap=300))
    for k in range(60):
        (folder / f"{k:02d}-cards.yaml").write_text(_one_mb_of_cards(k * 20_000))
    return ["validate", "--set", str(folder)]


def case_extends_past_1000(folder: Path) -> list[str]:
    sys.path.insert(0, str(ROOT))
    from cardgen.loader import load_set

    names = [c.name for c in load_set("lunch").cards][:11]
    over = "".join(f'  - {{name: "{n}", count: 99}}\n' for n in names)
    (folder / "set.yaml").write_text(f"name: huge\ntitle: Huge\nextends: lunch\noverride:\n{over}")
    return ["validate", "--set", str(folder)]


def case_no_attacks_huge_cap(folder: Path) -> list[str]:
    (folder / "set.yaml").write_text(SET_HEAD.format(name="calm", deck=60, cap=100_000) + (
        "cards:\n  - {name: Daydream, type: event, count: 30, draw: 1, source: designed}\n"
        "  - {name: Nap, type: heal, count: 30, heal: {amount: 1}, source: designed}\n"))
    return ["validate", "--set", str(folder)]


def case_endless_games(folder: Path) -> list[str]:
    """Damage 1 against heals of 5 and a 100,000-turn cap: games that go on; the turn cap and budget end them."""
    (folder / "set.yaml").write_text(SET_HEAD.format(name="endless", deck=60, cap=100_000) + (
        "cards:\n  - {name: Poke, type: basic, count: 10, damage: 1, source: designed}\n"
        "  - {name: Feast, type: heal, count: 50, heal: {amount: 5}, source: designed}\n"))
    return ["validate", "--set", str(folder)]


def case_largest_set(folder: Path) -> list[str]:
    """The biggest set the limits allow: 1,000 designs of one card each."""
    cards = "".join(f"  - {{name: Card{i}, type: basic, count: 1, damage: {1 + i % 5}, source: designed}}\n"
                    for i in range(1000))
    (folder / "set.yaml").write_text(SET_HEAD.format(name="largest", deck=1000, cap=300) + "cards:\n" + cards)
    return ["validate", "--set", str(folder)]


def case_baseline(folder: Path) -> list[str]:
    """Python start, imports and a bundled set: what every case pays before its own work."""
    return ["validate", "--no-sim", "--set", "lunch"]


CASES: dict[str, Callable[[Path], list[str]]] = {
    "baseline: validate --no-sim lunch": case_baseline,
    "1 MB file of 13.7k cards": case_big_file,
    "60 such files (820k designs)": case_sixty_files,
    "extends: lunch past 1,000 cards": case_extends_past_1000,
    "turn_cap 100000, no attack cards": case_no_attacks_huge_cap,
    "turn_cap 100000, heals outpace damage": case_endless_games,
    "largest allowed set (1,000 designs)": case_largest_set,
}


def run_case(args: list[str], code_root: Path, timeout: float) -> dict[str, object]:
    env = dict(os.environ, PYTHONPATH=str(code_root))
    try:
        proc = subprocess.run([sys.executable, "-c", _RUN, *args], capture_output=True, text=True, env=env,
                              timeout=timeout, cwd=tempfile.gettempdir())
    except subprocess.TimeoutExpired:
        return {"seconds": f">{timeout:g}", "peak_mb": "?", "exit": "timeout"}
    for line in proc.stderr.splitlines():
        if line.startswith("BENCH "):
            result: dict[str, object] = json.loads(line[6:])
            result["said"] = next((x for x in (proc.stdout + proc.stderr).splitlines()
                                   if "error" in x or "cut short" in x), "")[:110]
            return result
    return {"seconds": "?", "peak_mb": "?", "exit": proc.returncode, "said": proc.stderr[-200:]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="run the cases whose name contains this")
    parser.add_argument("--cardgen", type=Path, default=ROOT, help="checkout whose code to run (default: this one)")
    parser.add_argument("--timeout", type=float, default=600.0)
    opts = parser.parse_args()
    print(f"cardgen code: {opts.cardgen}")
    for name, make in CASES.items():
        if opts.only and opts.only not in name:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            args = make(Path(tmp))
            r = run_case(args, opts.cardgen, opts.timeout)
        secs = r["seconds"]
        shown = f"{secs:7.2f} s" if isinstance(secs, float) else f"{secs:>7} s"
        peak = r["peak_mb"]
        mem = f"{peak:7.0f} MB" if isinstance(peak, float) else f"{peak:>7} MB"
        print(f"{name:40s} {shown} {mem}  exit {r['exit']}  {r.get('said', '')}")


if __name__ == "__main__":
    main()
