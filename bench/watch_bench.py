"""Watch-mode rebuild time: one card of a 110-card set changes, how long until the PDFs are rewritten?

Run: python bench/watch_bench.py  (prints figures; no assertions)
"""

from __future__ import annotations

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
            times = []
            for i in range(ROUNDS):
                text = original.replace("flavour:", f"flavour: v{i}", 1) if "flavour:" in original else (
                    original + f"\n# edit {i}\n")
                target.write_text(text, encoding="utf-8")
                t0 = time.perf_counter()
                assert w.poll()
                times.append(time.perf_counter() - t0)
            print(f"{name}: rebuild after a one-card edit: median {statistics.median(times) * 1000:.0f} ms, "
                  f"max {max(times) * 1000:.0f} ms over {ROUNDS} edits (load + cards + rules + print PDFs)")


if __name__ == "__main__":
    main()
