"""What `cardgen build` imports that the plain reportlab script does not, and what each costs.

Each library is imported in a fresh process after what the plain script (`bench/plain_cards.py`) already
imports (reportlab's canvas and TrueType modules), so the figure is its own extra cost; the median of
--runs processes is printed. Then: the time Python takes to compile the URL pattern of
`reportlab.platypus.paragraph` (`uri_pat`, compiled when that module is imported, so in every process
that lays out a rules page), and the sum of the self times `python -X importtime` gives cardgen's own
modules in `cardgen build --set beer`.

Run: `python bench/import_costs.py [--runs N]`
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import time

PLAIN_IMPORTS = "import reportlab.pdfgen.canvas, reportlab.pdfbase.ttfonts, reportlab.lib.colors"
LIBRARIES = ("click", "yaml", "jinja2", "reportlab.platypus")


def _import_ms(module: str) -> float:
    code = (f"{PLAIN_IMPORTS}\nimport time\nt = time.perf_counter()\nimport {module}\n"
            "print((time.perf_counter() - t) * 1e3)")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    return float(out)


def _pattern_ms(runs: int) -> float:
    from reportlab.platypus import paragraph

    pattern = paragraph.uri_pat
    times = []
    for _ in range(runs):
        re.purge()  # re's cache would answer the second time
        t = time.perf_counter()
        re.compile(pattern.pattern, pattern.flags)
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


def _own_modules_ms() -> float:
    with tempfile.TemporaryDirectory() as out:
        err = subprocess.run([sys.executable, "-X", "importtime", "-m", "cardgen.cli.main", "build", "--set", "beer",
                              "--out", out], check=True, capture_output=True, text=True, cwd=out).stderr
    total = 0
    for line in err.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        self_us, _cumulative, name = line[len("import time:"):].split("|")
        if name.strip().startswith("cardgen"):
            total += int(self_us)
    return total / 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description="Import costs of a build beyond the plain reportlab script.")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    print(f"extra imports of `cardgen build`, ms, median of {args.runs} fresh processes (after {PLAIN_IMPORTS}):")
    for module in LIBRARIES:
        print(f"  {module:<20} {statistics.median(_import_ms(module) for _ in range(args.runs)):6.1f}")
    print(f"  of which compiling reportlab.platypus.paragraph.uri_pat: {_pattern_ms(args.runs):6.1f}")
    own = statistics.median(_own_modules_ms() for _ in range(max(3, args.runs // 2)))
    print(f"cardgen's own modules in `cardgen build --set beer` (-X importtime self times): {own:6.1f}")


if __name__ == "__main__":
    main()
