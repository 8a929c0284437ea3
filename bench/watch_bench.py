"""Watch-mode rebuild time: one card of a 110-card set changes, how long until the PDFs are rewritten?

Two kinds of edit: a flavour line (the rules page is reused) and a damage value (card text and the
rules page's table change). Wall and CPU time (CPU is what to compare on a loaded machine).
Run: python bench/watch_bench.py  (prints figures; no assertions)
"""

from __future__ import annotations

import re
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from cardgen.loader import load_set
from cardgen.paths import card_data_dir
from cardgen.render.build import build
from cardgen.render.sheets import PrintOptions
from cardgen.watch import Watcher

ROUNDS = 8


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        for name in ("lunch", "beer"):
            folder = Path(tmp) / name
            shutil.copytree(card_data_dir() / name, folder)
            w = Watcher([folder], lambda f=folder: build([load_set(f)], PrintOptions(), out, show_progress=False),
                        lambda _line: None)
            w.last = {}
            w.poll()  # first build (imports, font registration, caches)
            target = sorted(folder.glob("*.yaml"))[1]
            original = target.read_text(encoding="utf-8")
            for kind, edit in (("flavour", _flavour_edit), ("damage", _damage_edit)):
                if kind == "damage":
                    target.write_text(original, encoding="utf-8")
                    target = next(p for p in sorted(folder.glob("*.yaml")) if "damage: " in p.read_text("utf-8"))
                    original = target.read_text(encoding="utf-8")
                times, cpu = [], []
                for i in range(ROUNDS):
                    target.write_text(edit(original, i), encoding="utf-8")
                    t0, c0 = time.perf_counter(), time.process_time()
                    assert w.poll()
                    times.append(time.perf_counter() - t0)
                    cpu.append(time.process_time() - c0)
                print(f"{name}: rebuild after a one-card {kind} edit: median {statistics.median(times) * 1000:.0f} ms "
                      f"(cpu {statistics.median(cpu) * 1000:.0f} ms), max {max(times) * 1000:.0f} ms over {ROUNDS} "
                      f"edits (load + cards + rules + print PDFs)")
            target.write_text(original, encoding="utf-8")


def _flavour_edit(text: str, i: int) -> str:
    """A change of words only: the rules page stays the same."""
    return text.replace("flavour:", f"flavour: v{i}", 1) if "flavour:" in text else text + f"\n# edit {i}\n"


def _damage_edit(text: str, i: int) -> str:
    """A change of mechanics, a new value every time: the card text and the rules page change."""
    return re.sub(r"damage: (\d+)", lambda m: f"damage: {int(m.group(1)) + i + 1}", text, count=1)


if __name__ == "__main__":
    main()
