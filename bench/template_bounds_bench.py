"""Hostile set templates: how long and how much memory until cardgen stops each one?

Each case is a set that extends lunch with its own `templates/card_text.j2`, loaded in a fresh
process (so peak memory is that case's own) under a 2 GB address-space cap and a 30 s timeout, so
that an unbounded checkout cannot take the machine down while being measured.

Run: python bench/template_bounds_bench.py [CHECKOUT]  (prints figures; no assertions)
CHECKOUT (default: this one) is the source folder to import cardgen from, to compare versions.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CASES: dict[str, str] = {
    "nested range(100000) loops": "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}"
                                  "{% endfor %}",
    "nested range(3000) loops": "{% for i in range(3000) %}{% for j in range(3000) %}{% endfor %}{% endfor %}",
    "string doubling": "{% set ns = namespace(s='x') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}"
                       "{% endfor %}{{ ns.s|length }}",
    "block capture": "{% set s %}{% for i in range(5000) %}{{ 'x' * 4000 }}{% endfor %}{% endset %}"
                     "{{ s|length }}",
    "exponential macro": "{% macro f(n) %}{% if n %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}"
                         "{{ f(40)|length }}",
    "ljust(10**9)": "{{ 'x'.ljust(10**9)|length }}",
    "format width 10**9": "{{ ('%01000000000d' % 1)|length }}",
    "huge power": "{{ (((10**64)**64)**64)|string|length }}",
}

CHILD = """
import json, resource, sys, time
resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
sys.path.insert(0, sys.argv[1])
from cardgen.errors import SetError
from cardgen.loader import load_set
t0 = time.perf_counter()
try:
    load_set(sys.argv[2])
    outcome = "accepted"
except SetError as exc:
    outcome = str(exc.errors[0])
except BaseException as exc:
    outcome = f"crash: {type(exc).__name__}"
secs = time.perf_counter() - t0
print(json.dumps({"seconds": secs, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "outcome": outcome}))
"""


def run_case(checkout: Path, template: str, tmp: Path) -> dict[str, object]:
    folder = tmp / "hostile"
    (folder / "templates").mkdir(parents=True, exist_ok=True)
    (folder / "set.yaml").write_text("name: hostile\ntitle: Hostile\nextends: lunch\n", encoding="utf-8")
    (folder / "templates" / "card_text.j2").write_text(template + "\n", encoding="utf-8")
    t0 = time.perf_counter()
    try:
        res = subprocess.run([sys.executable, "-c", CHILD, str(checkout), str(folder)], capture_output=True,
                             text=True, timeout=30)
    except subprocess.TimeoutExpired:
        return {"seconds": time.perf_counter() - t0, "peak_mb": float("nan"), "outcome": "still running at 30 s"}
    lines = res.stdout.strip().splitlines()
    if not lines:
        return {"seconds": time.perf_counter() - t0, "peak_mb": float("nan"),
                "outcome": f"process died: {res.stderr.strip().splitlines()[-1:]}"}
    return dict(json.loads(lines[-1]))


def main() -> None:
    checkout = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else Path(__file__).resolve().parents[1]
    print(f"checkout: {checkout}")
    print(f"{'case':<30} {'seconds':>8} {'peak MB':>8}  outcome")
    with tempfile.TemporaryDirectory() as tmp:
        for name, template in CASES.items():
            r = run_case(checkout, template, Path(tmp))
            outcome = str(r["outcome"]).split(": error: ")[-1]
            print(f"{name:<30} {float(str(r['seconds'])):8.2f} {float(str(r['peak_mb'])):8.0f}  {outcome[:110]}")


if __name__ == "__main__":
    main()
