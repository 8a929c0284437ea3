"""Time and peak memory of commands on the inputs that used to run unbounded
(huge sets, hostile sheets, icons, number options and simulation budgets).

Each case is written to a temporary folder and run in a fresh process, which reports its wall time, its
peak resident memory (its own, and its largest child's) and its exit code. `--cardgen PATH` runs another
checkout's code instead (for a before/after pair); `--timeout S` gives up on a case after S seconds (an
unbounded "before" is reported as a lower bound); `--memory-mb M` caps each case's address space, so a
"before" that would fill the machine ends in a MemoryError instead (reported as such).

    python bench/limits_bench.py [--only NAME] [--cardgen OTHER] [--timeout 120] [--memory-mb 3000]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import struct
import subprocess
import sys
import tempfile
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MB = 1_000_000

_RUN = """
import json, resource, sys, time
import multiprocessing.process as mp_process
started = [0]  # worker processes the command starts
_start = mp_process.BaseProcess.start
def _counted(self):
    started[0] += 1
    return _start(self)
mp_process.BaseProcess.start = _counted
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
       "child_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, "processes": started[0],
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
    """As many one-line cards as fit in 1 MB (13.7k)."""
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


# --- sheets, icons, number options, simulation budgets -------------------------------------------------

SHEET_HEADER = b"name,type,count,source,damage\r\nJab,basic,2,designed,1\r\n"


def _xlsx_with(part: str, body: bytes | None = None, stream_mb: int = 0) -> bytes:
    """A real workbook (openpyxl) whose `part` is replaced by `body`, or padded with `stream_mb` MB of spaces
    (deflated to about a thousandth: a zip bomb)."""
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    assert ws is not None
    for row in SHEET_HEADER.decode().split("\r\n")[:2]:
        ws.append(row.split(","))
    buf = io.BytesIO()
    wb.save(buf)
    out = io.BytesIO()
    with zipfile.ZipFile(buf) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            if info.filename == part and body is not None:
                dst.writestr(info.filename, body)
            elif info.filename == part:
                with dst.open(part, "w") as fh:
                    fh.write(src.read(part)[:-len(b"</worksheet>")])
                    for _ in range(stream_mb):
                        fh.write(b" " * 1_000_000)
                    fh.write(b"</worksheet>")
            else:
                dst.writestr(info.filename, src.read(info.filename))
    return out.getvalue()


def _import(folder: Path, sheet: str) -> list[str]:
    return ["import", "sheet", str(folder / sheet), "--into", str(folder / "set"), "--base", "lunch"]


def case_xlsx_zip_bomb(folder: Path) -> list[str]:
    (folder / "bomb.xlsx").write_bytes(_xlsx_with("xl/worksheets/sheet1.xml", stream_mb=1500))
    return _import(folder, "bomb.xlsx")


def case_xlsx_laughs(folder: Path) -> list[str]:
    ents = "".join(f'<!ENTITY l{i} "{"".join(f"&l{i - 1};" for _ in range(10))}">' for i in range(1, 10))
    body = f'<?xml version="1.0"?><!DOCTYPE w [<!ENTITY l0 "lol">{ents}]><worksheet>&l9;</worksheet>'
    (folder / "laughs.xlsx").write_bytes(_xlsx_with("xl/worksheets/sheet1.xml", body.encode()))
    return _import(folder, "laughs.xlsx")


def case_csv_dev_zero(folder: Path) -> list[str]:
    (folder / "zero.csv").symlink_to("/dev/zero")
    return _import(folder, "zero.csv")


def case_csv_fifo(folder: Path) -> list[str]:
    os.mkfifo(folder / "pipe.csv")
    return _import(folder, "pipe.csv")


def _icon_set(folder: Path, name: str, data: bytes) -> list[str]:
    (folder / "set.yaml").write_text(f"name: ic\ntitle: Ic\nextends: lunch\nicons: {{dodge: icons/{name}}}\n")
    (folder / "icons").mkdir()
    (folder / "icons" / name).write_bytes(data)
    return ["validate", "--no-sim", "--set", str(folder)]


def _png_header(width: int, height: int) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b""))


def case_icon_50mb_svg(folder: Path) -> list[str]:
    path = b"M0 0" + b" L1 1" * 10_000_000
    return _icon_set(folder, "dodge.svg", b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
                     b'<path d="' + path + b'"/></svg>')


def case_icon_png_30000(folder: Path) -> list[str]:
    return _icon_set(folder, "dodge.png", _png_header(30_000, 30_000))


def case_icon_png_12000(folder: Path) -> list[str]:
    return _icon_set(folder, "dodge.png", _png_header(12_000, 12_000))


def case_dpi_nan(folder: Path) -> list[str]:
    return ["export", "print-shop", "--set", "lunch", "--dpi", "nan", "--out", str(folder / "out")]


def case_bleed_nan(folder: Path) -> list[str]:
    return ["export", "print-shop", "--set", "lunch", "--bleed", "nan", "--out", str(folder / "out")]


def case_print_shop_1000(folder: Path) -> list[str]:
    return ["export", "print-shop", "--set", "lunch", "--size", "1000x1000", "--out", str(folder / "out")]


def case_preview_1200(folder: Path) -> list[str]:
    return ["preview", "--set", "lunch", "--dpi", "1200", "--out", str(folder / "out")]


def case_games_10e12(folder: Path) -> list[str]:
    return ["simulate", "--set", "lunch", "--games", "1000000000000"]


def case_jobs_1000(folder: Path) -> list[str]:
    """8 games: the old code started a worker per batch (8 here, 1,000 at 8,000 games); 8 keeps "before" safe."""
    return ["simulate", "--set", "lunch", "--games", "8", "--jobs", "1000"]


def case_budget_10e12(folder: Path) -> list[str]:
    return ["simulate", "--set", "lunch", "--games", "2", "--agent", "search", "--budget", "1000000000000"]


def case_budget_ms(folder: Path) -> list[str]:
    return ["simulate", "--set", "lunch", "--games", "2", "--agent", "search", "--budget", "99999999999ms"]


CASES: dict[str, Callable[[Path], list[str]]] = {
    "baseline: validate --no-sim lunch": case_baseline,
    "1 MB file of 13.7k cards": case_big_file,
    "60 such files (820k designs)": case_sixty_files,
    "extends: lunch past 1,000 cards": case_extends_past_1000,
    "turn_cap 100000, no attack cards": case_no_attacks_huge_cap,
    "turn_cap 100000, heals outpace damage": case_endless_games,
    "largest allowed set (1,000 designs)": case_largest_set,
    "i21-5 xlsx zip bomb (1.5 GB inflated)": case_xlsx_zip_bomb,
    "i21-5 xlsx billion laughs": case_xlsx_laughs,
    "i21-5 csv is /dev/zero": case_csv_dev_zero,
    "i21-5 csv is a FIFO": case_csv_fifo,
    "i21-7 icon: 50 MB SVG path": case_icon_50mb_svg,
    "i21-7 icon: 30000 x 30000 PNG": case_icon_png_30000,
    "i21-7 icon: 12000 x 12000 PNG": case_icon_png_12000,
    "i21-8 print-shop --dpi nan": case_dpi_nan,
    "i21-8 print-shop --bleed nan": case_bleed_nan,
    "i21-8 print-shop --size 1000x1000": case_print_shop_1000,
    "i21-8 preview --dpi 1200": case_preview_1200,
    "i21-9 simulate --games 10^12": case_games_10e12,
    "i21-9 simulate --games 8 --jobs 1000": case_jobs_1000,
    "i21-9 simulate --budget 10^12": case_budget_10e12,
    "i21-9 simulate --budget 99999999999ms": case_budget_ms,
}


def run_case(args: list[str], code_root: Path, timeout: float, memory_mb: int = 0) -> dict[str, object]:
    env = dict(os.environ, PYTHONPATH=str(code_root))

    def limit() -> None:
        os.setsid()  # a group of its own, so a timeout ends its workers too
        if memory_mb:
            resource.setrlimit(resource.RLIMIT_AS, (memory_mb * 2**20, memory_mb * 2**20))

    proc = subprocess.Popen([sys.executable, "-c", _RUN, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, cwd=tempfile.gettempdir(), preexec_fn=limit)
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        proc.communicate()
        return {"seconds": f">{timeout:g}", "peak_mb": "?", "exit": "timeout"}
    proc = subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)
    for line in proc.stderr.splitlines():
        if line.startswith("BENCH "):
            result: dict[str, object] = json.loads(line[6:])
            result["said"] = next((x for x in (proc.stdout + proc.stderr).splitlines()
                                   if "error" in x or "cut short" in x or "note:" in x), "")[:110]
            return result
    return {"seconds": "?", "peak_mb": "?", "exit": proc.returncode, "said": proc.stderr[-200:]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="run the cases whose name contains this")
    parser.add_argument("--cardgen", type=Path, default=ROOT, help="checkout whose code to run (default: this one)")
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--memory-mb", type=int, default=0, help="address-space cap of each case (0: none)")
    opts = parser.parse_args()
    print(f"cardgen code: {opts.cardgen}")
    for name, make in CASES.items():
        if opts.only and opts.only not in name:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            args = make(Path(tmp))
            r = run_case(args, opts.cardgen, opts.timeout, opts.memory_mb)
        secs = r["seconds"]
        shown = f"{secs:7.2f} s" if isinstance(secs, float) else f"{secs:>7} s"
        peak = r["peak_mb"]
        mem = f"{peak:7.0f} MB" if isinstance(peak, float) else f"{peak:>7} MB"
        child = r.get("child_mb")
        procs = r.get("processes")
        mem += f" ({procs} workers, largest {child:.0f} MB)" if isinstance(child, float) and procs else ""
        print(f"{name:40s} {shown} {mem}  exit {r['exit']}  {r.get('said', '')}")


if __name__ == "__main__":
    main()
