"""Build time: the whole `cardgen build` process against a plain reportlab script, and per set in memory.

Whole process (the speed goal): `cardgen build --set beer` as a fresh process against
`bench/plain_cards.py` (plain reportlab drawing 110 cards 9 a page with embedded fonts), run in
turns (paired) --runs times; ratio = median build / median plain script (goal: at most 2.5).
`--checkout DIR` times another checkout of cardgen the same way in the same turns (for before/after).
cardgen's own modules are byte-compiled first (`compileall`, as `pip install` does), so both sides
run from bytecode like the installed reportlab the plain script uses; with PYTHONDONTWRITEBYTECODE
set (as in this project's sandbox) a checkout otherwise compiles its 7000 lines in every process.
`--source` skips that and times compiling them too (it warns when bytecode is already there).

`--instructions` counts instead the instructions one `cardgen build --set S` process executes (valgrind's
callgrind, with a fixed hash seed), for this checkout and `--checkout`: the count does not depend on what else
the machine is doing, so a difference of a percent is real where seconds would need a quiet machine.

In memory, for each set (every copy of every card, default options) this times, best of
--repeat runs with cold text caches:
  cards   the card-sheet PDF in a new render session (layout, text fitting, drawing, saving),
  print   the print file, one canvas: the rules pages, the assembly page and the card sheets drawn again
          (in a new session, so its text is fitted afresh), bookmarks, metadata,
  rules   the rules page with its size search (another module; shown apart, not in the ratio),
  build   the whole in-memory build of the set (cards + rules + print, one session).
The baseline draws the same number of pages, rectangles, lines and text lines
straight onto a reportlab canvas with the same embedded fonts; ratio =
(cards + print) / baseline. Run: `python bench/build_bench.py [--repeat N] [--runs N] [--set S]...
[--checkout DIR] [--whole-only] [--source]`
"""

from __future__ import annotations

import argparse
import compileall
import io
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

import cardgen
from cardgen.loader import load_set
from cardgen.model import CardSet
from cardgen.paths import bundled_set_names
from cardgen.render.build import print_pdf, render_set
from cardgen.render.fonts import register_fonts
from cardgen.render.rules_page import rules_pdf, rules_plan
from cardgen.render.session import RenderSession
from cardgen.render.sheets import CardsPdf, PrintOptions, cards_pdf

SAMPLE = "Deals 3. May be DODGED or BLOCKED. Returns to"


def best_of(n: int, fn: Callable[[], object]) -> float:
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def baseline(pages: int, rects: int, lines: int, texts: int) -> bytes:
    """Plain reportlab: the same amount of drawing, spread evenly over the pages."""
    register_fonts()
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(595.3, 841.9), invariant=1, initialFontName="Sans", pageCompression=1)
    fonts = ("Sans", "Sans-Bold", "Cond-Bold", "Sans-Oblique")
    for p in range(pages):
        for i in range(p, max(rects, lines, texts), pages):
            if i < rects:
                c.setFillColorRGB(0.9, 0.5, 0.1)
                c.rect(20 + i % 9 * 60, 20 + i % 13 * 60, 50, 30, stroke=0, fill=1)
            if i < lines:
                c.setLineWidth(0.5)
                c.line(10, 10 + i % 80 * 10, 40, 10 + i % 80 * 10)
            if i < texts:
                c.setFillColorRGB(0.1, 0.1, 0.1)
                c.setFont(fonts[i % len(fonts)], 9)
                c.drawString(30 + i % 7 * 70, 30 + i % 70 * 11, SAMPLE[: 12 + i % 30])
        c.showPage()
    c.save()
    return buf.getvalue()


def bench_set(cs: CardSet, opts: PrintOptions, repeat: int) -> dict[str, float]:
    sheet = cards_pdf(cs, opts)
    counts = sheet.draw_counts
    rects = counts.get("fill_rect", 0) + counts.get("stroke_rect", 0)
    lines, texts = counts.get("line", 0), counts.get("text", 0)
    plan = rules_plan(cs, opts.paper)

    def print_file(s: CardsPdf = sheet) -> bytes:
        return print_pdf(RenderSession.for_set(cs.path), cs, opts, s.layout, plan)

    out = {
        "pages": float(sheet.pages), "rects": float(rects), "lines": float(lines), "texts": float(texts),
        "cards": best_of(repeat, lambda: cards_pdf(cs, opts)),
        "print": best_of(repeat, print_file),
        "rules": best_of(repeat, lambda: rules_pdf(cs, opts.paper)),
        "build": best_of(repeat, lambda: render_set(cs, opts)),
        "base": best_of(repeat, lambda: baseline(sheet.pages, rects, lines, texts)),
    }
    out["ratio"] = (out["cards"] + out["print"]) / out["base"]
    return out


PLAIN = Path(__file__).resolve().parent / "plain_cards.py"


def _timed(cmd: list[str], env: dict[str, str] | None = None, cwd: str | None = None) -> tuple[float, float]:
    """Wall time and CPU time (user + system) of one run of `cmd`.

    CPU time is what to compare on a loaded machine: waiting for a core does not count in it.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=cwd)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _prepare(packages: list[Path], source: bool) -> str:
    """Byte-compile the contenders' cardgen packages (as an install does), or check they have no bytecode."""
    if not source:
        for package in packages:
            compileall.compile_dir(str(package), quiet=1)
        return "cardgen byte-compiled first, as an install does"
    cached = [str(p) for p in packages if any(p.rglob("__pycache__/*.pyc"))]
    if cached:
        print(f"warning: --source, but {', '.join(cached)} already has bytecode that Python will use", file=sys.stderr)
    return "cardgen compiled from source in every process"


def whole_process(runs: int, checkout: str | None, source: bool = False) -> None:
    """Fresh processes in turns, so load on the machine hits every contender alike."""
    packages = [Path(cardgen.__file__).resolve().parent]
    if checkout:
        packages.append(Path(checkout).resolve() / "cardgen")
    how = _prepare(packages, source)
    with tempfile.TemporaryDirectory() as tmp:
        build = [sys.executable, "-m", "cardgen.cli.main", "build", "--set", "beer", "--out", tmp]
        plain = [sys.executable, str(PLAIN), str(Path(tmp) / "plain.pdf")]
        other_env = None
        if checkout:
            other_env = {**os.environ, "PYTHONPATH": str(Path(checkout).resolve())}
        times: dict[str, list[tuple[float, float]]] = {"plain reportlab": [], "cardgen build": [],
                                                       "checkout build": []}
        # Run from the temporary folder: `python -m` puts the working folder first on sys.path, which
        # would make --checkout time this checkout again when the bench is started from its root.
        _timed(build, cwd=tmp)
        _timed(plain)  # warm the disk cache
        if other_env is not None:
            _timed(build, other_env, cwd=tmp)
        for _ in range(runs):
            times["plain reportlab"].append(_timed(plain))
            times["cardgen build"].append(_timed(build, cwd=tmp))
            if other_env is not None:
                times["checkout build"].append(_timed(build, other_env, cwd=tmp))
    floor_wall = statistics.median(w for w, _ in times["plain reportlab"])
    floor_cpu = statistics.median(c for _, c in times["plain reportlab"])
    print(f"whole process, {runs} paired runs, medians (wall: elapsed; cpu: user + system); {how}:")
    for name, values in times.items():
        if values:
            wall, cpu = statistics.median(w for w, _ in values), statistics.median(c for _, c in values)
            print(f"  {name:<16} wall {wall:6.3f} s (ratio {wall / floor_wall:5.2f})   "
                  f"cpu {cpu:6.3f} s (ratio {cpu / floor_cpu:5.2f})")
    print("goal: cardgen build --set beer at most 2.5 x the plain reportlab script")


def instructions(checkout: str | None, set_name: str) -> None:
    """Instructions executed by one whole `cardgen build` process, this checkout and `checkout` (see the doc)."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit("--instructions needs valgrind on the PATH")
    packages = [Path(cardgen.__file__).resolve().parent]
    contenders = {"cardgen build": {}}
    if checkout:
        packages.append(Path(checkout).resolve() / "cardgen")
        contenders["checkout build"] = {"PYTHONPATH": str(Path(checkout).resolve())}
    how = _prepare(packages, False)
    base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"PYTHONHASHSEED": "0"}
    counts: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, extra in contenders.items():
            build = [sys.executable, "-m", "cardgen.cli.main", "build", "--set", set_name, "--out", tmp]
            # A first run writes the bytecode of every library module the build imports (an installed library
            # has it already): counted, that one-off work would be a tenth of the figure.
            subprocess.run(build, env=base | extra, cwd=tmp, capture_output=True, check=True)
            cmd = [valgrind, "--tool=callgrind", f"--callgrind-out-file={tmp}/callgrind.out", *build]
            done = subprocess.run(cmd, env=base | extra, cwd=tmp, capture_output=True, text=True, check=True)
            found = re.search(r"Collected : (\d+)", done.stderr)
            if found is None:
                raise SystemExit(f"callgrind printed no count for {name}:\n{done.stderr[-2000:]}")
            counts[name] = int(found.group(1))
    print(f"instructions of one `cardgen build --set {set_name}` process (callgrind; {how}):")
    for name, n in counts.items():
        print(f"  {name:<16} {n:>15,}")
    if len(counts) == 2:
        mine, other = counts["cardgen build"], counts["checkout build"]
        print(f"  this checkout against the other: {100 * (mine - other) / other:+.2f} %")


def main() -> None:
    parser = argparse.ArgumentParser(description="Build time per bundled set against a plain-reportlab baseline.")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--runs", type=int, default=7, help="paired whole-process runs")
    parser.add_argument("--checkout", help="another cardgen checkout to time alongside (PYTHONPATH)")
    parser.add_argument("--whole-only", action="store_true", help="skip the in-memory table")
    parser.add_argument("--set", dest="sets", action="append")
    parser.add_argument("--source", action="store_true", help="time compiling cardgen's modules in every process too")
    parser.add_argument("--instructions", action="store_true", help="count instructions (valgrind) instead of time")
    args = parser.parse_args()
    if args.instructions:
        for name in args.sets or ["beer"]:
            instructions(args.checkout, name)
        return
    whole_process(args.runs, args.checkout, args.source)
    if args.whole_only:
        return
    register_fonts()
    opts = PrintOptions()
    print(f"{'set':<9}{'cards':>6}{'pages':>6}{'rects':>6}{'lines':>6}{'texts':>6} | {'cards s':>8}{'print s':>8}"
          f"{'rules s':>8}{'build s':>8} | {'base s':>7}{'ratio':>6}")
    total = 0.0
    for name in args.sets or bundled_set_names():
        cs = load_set(name)
        r = bench_set(cs, opts, args.repeat)
        total += r["build"]
        print(f"{name:<9}{cs.total:>6}{r['pages']:>6.0f}{r['rects']:>6.0f}{r['lines']:>6.0f}{r['texts']:>6.0f} | "
              f"{r['cards']:>8.3f}{r['print']:>8.3f}{r['rules']:>8.3f}{r['build']:>8.3f} | "
              f"{r['base']:>7.3f}{r['ratio']:>6.2f}")
    print(f"all sets, whole builds: {total:.3f} s (goal < 3 s); ratio = (cards + print) / baseline (goal < 2)")


if __name__ == "__main__":
    main()
