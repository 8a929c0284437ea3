"""`build --watch`: rebuild on save, report errors without stopping."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from children import Lines, as_from_a_terminal

from cardgen.checks import load_set
from cardgen.render.build import build
from cardgen.render.sheets import PrintOptions
from cardgen.watch import Watcher

SET_YAML = "name: w\ntitle: W\nextends: lunch\n"
CARD = "cards:\n  - {{name: Wedgie, type: basic, count: 1, damage: {d}, source: designed}}\n"


def _touch_later(path: Path, text: str) -> None:
    before = path.stat().st_mtime_ns if path.exists() else 0
    path.write_text(text, encoding="utf-8")
    if path.stat().st_mtime_ns == before:  # coarse clocks: make the change visible
        os.utime(path, ns=(before + 1_000_000, before + 1_000_000))


def _small_set(tmp_path: Path) -> tuple[Path, Path]:
    """A one-card extension of lunch: the set folder and its card file."""
    folder = tmp_path / "w"
    folder.mkdir()
    (folder / "set.yaml").write_text(SET_YAML, encoding="utf-8")
    cards = folder / "cards.yaml"
    cards.write_text(CARD.format(d=2), encoding="utf-8")
    return folder, cards


def test_watcher_rebuilds_on_change_and_survives_errors(tmp_path: Path) -> None:
    folder, cards = _small_set(tmp_path)
    lines: list[str] = []
    out = tmp_path / "out"
    w = Watcher([folder], lambda: build([load_set(folder)], PrintOptions(proof=True), out, show_progress=False),
                lines.append)
    w.last = {}
    assert w.poll() is True and w.rebuilds == 1
    pdf = out / "w" / "w-cards.pdf"
    first = pdf.read_bytes()
    assert w.poll() is False  # nothing changed
    _touch_later(cards, CARD.format(d="zero"))
    assert w.poll() is True
    assert any("field `damage`" in line and "error" in line for line in lines)
    assert pdf.read_bytes() == first  # the bad save wrote nothing
    _touch_later(cards, CARD.format(d=5))
    assert w.poll() is True
    assert pdf.read_bytes() != first
    assert w.rebuilds == 3 and max(w.timings) < 5


def test_build_watch_command_keeps_running_and_rebuilds(tmp_path: Path) -> None:
    folder, cards = _small_set(tmp_path)
    proc = subprocess.Popen([sys.executable, "-m", "cardgen.cli.main", "build", "--watch", "--proof",
                             "--set", str(folder), "--out", str(tmp_path / "out")],
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
                            preexec_fn=as_from_a_terminal)
    try:
        assert proc.stderr is not None
        lines = Lines(proc.stderr)
        lines.wait_for("rebuilt in", 1)
        _touch_later(cards, "cards: [oops")
        lines.wait_for("waiting for the next save", 1)
        assert proc.poll() is None
        _touch_later(cards, CARD.format(d=3))
        lines.wait_for("rebuilt in", 2)
        proc.send_signal(signal.SIGINT)  # Ctrl-C: "aborted" and 130, as the README promises for every command
        rest = lines.rest(timeout=30)
        assert proc.wait(timeout=20) == 130, rest
        assert rest.strip().splitlines()[-1] == "aborted" and "Traceback" not in rest, rest
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=20)
