"""Rebuild on save: poll the set folders and rerun an action whenever a file changes.

Polling (a few stat calls every `interval` of `Watcher.run`) instead of a file-system-events library:
set folders hold a handful of files, it works the same on every OS and in
containers, and it needs no dependency. An error in the action is shown and the
watcher keeps going, so a designer can fix the file and save again.
"""

from __future__ import annotations

import stat
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from cardgen.errors import CardgenError, error_text, shorten
from cardgen.loader.load import is_editor_file

Snapshot = dict[Path, tuple[int, int]]
WATCHED_SUFFIXES: frozenset[str] = frozenset({".yaml", ".yml", ".png", ".jpg", ".jpeg", ".webp", ".j2"})


def snapshot(folders: Iterable[Path]) -> Snapshot:
    """(mtime_ns, size) of every watched file under the folders."""
    snap: Snapshot = {}
    for folder in folders:
        if not folder.is_dir():
            continue
        try:
            found = list(folder.rglob("*"))
        except OSError:  # the folder changed under the walk: look again next round
            continue
        for p in found:
            if p.suffix.lower() not in WATCHED_SUFFIXES or is_editor_file(p.name):
                continue
            try:  # a file may vanish between listing and stat, or be a symlink loop: skip it this round
                st = p.stat()
            except (OSError, RuntimeError):
                continue
            if stat.S_ISREG(st.st_mode):
                snap[p] = (st.st_mtime_ns, st.st_size)
    return snap


@dataclass
class Watcher:
    """Runs `action` once, then again each time a watched file changes."""

    folders: list[Path]
    action: Callable[[], list[Path]]
    report: Callable[[str], None]
    last: Snapshot = field(default_factory=dict)
    rebuilds: int = 0
    timings: list[float] = field(default_factory=list)

    def run_action(self) -> bool:
        """One rebuild; errors are reported, never raised. True when it succeeded."""
        t0 = time.perf_counter()
        try:
            written = self.action()
        except CardgenError as exc:
            self.report(error_text(exc))
            self.report("waiting for the next save...")
            return False
        except Exception as exc:
            self.report(f"error: rebuild failed: {type(exc).__name__}: {shorten(str(exc))}")
            self.report("waiting for the next save...")
            return False
        finally:
            self.rebuilds += 1
            self.timings.append(time.perf_counter() - t0)
        for path in written:
            self.report(str(path))
        self.report(f"rebuilt in {self.timings[-1]:.2f} s; watching for changes (Ctrl-C to stop)")
        return True

    def poll(self) -> bool:
        """Rebuild if anything changed since the last look; True when a rebuild ran."""
        now = snapshot(self.folders)
        if now == self.last:
            return False
        self.last = now
        self.run_action()
        return True

    def run(self, interval: float = 0.2, stop: Callable[[], bool] = lambda: False) -> None:
        self.last = snapshot(self.folders)
        self.run_action()
        while not stop():
            time.sleep(interval)
            self.poll()
