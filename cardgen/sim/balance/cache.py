"""The verdict cache: a rerun on unchanged files answers at once, with the very verdicts the games gave.

A verdict is a function of both versions' content, the settings (all but `jobs`) and the code that plays and
judges the games; the key is a hash of all three (the code: the bytes of the engine's and the simulation's
sources, and cardgen's version), so changing any card, rule, option or engine module misses the cache. Entries
are the documented JSON, one file each, written to a temporary file and renamed. The folder:
`CARDGEN_BALANCE_CACHE` (a folder, or `0` for no cache), else `$XDG_CACHE_HOME/cardgen/balance`, else
`~/.cache/cardgen/balance`; the oldest entries beyond `KEEP` are removed.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import cardgen
from cardgen.model import CardSet
from cardgen.sim.balance.model import BalanceConfig, BalanceResult
from cardgen.sim.balance.report import result_from_json, result_json

KEEP = 200  # entries kept
CODE_ROOMS = ("engine", "sim")  # the packages whose code decides what a game and a verdict are


def cache_folder() -> Path | None:
    """Where verdicts are kept, or None when the cache is off."""
    chosen = os.environ.get("CARDGEN_BALANCE_CACHE", "")
    if chosen == "0":
        return None
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cardgen" / "balance"


def code_fingerprint() -> str:
    """A hash of the sources that play and judge the games, and of cardgen's version."""
    root = Path(cardgen.__file__).parent
    h = hashlib.sha256(cardgen.__version__.encode())
    for room in CODE_ROOMS:
        for path in sorted((root / room).rglob("*.py")):
            h.update(str(path.relative_to(root)).encode())
            h.update(path.read_bytes())
    for name in ("model.py", "mechanics.py"):
        h.update((root / name).read_bytes())
    return h.hexdigest()


def cache_key(a: CardSet, b: CardSet | None, cfg: BalanceConfig) -> str:
    """The key of a run: both versions' content, the settings that decide the verdicts, the code."""
    settings = dataclasses.replace(cfg, jobs=1)
    h = hashlib.sha256(code_fingerprint().encode())
    for part in (repr(a), repr(b), repr(settings)):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()


def _read(path: Path, cfg: BalanceConfig) -> BalanceResult | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        found = result_from_json(data, cfg)
    except (OSError, ValueError, KeyError, TypeError):  # missing, half-written by a crash, or another format
        return None
    return dataclasses.replace(found, cached=True)


def _write(folder: Path, path: Path, result: BalanceResult) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(result_json(result), out)
        os.replace(tmp, path)
        entries = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime)
        for old in entries[:-KEEP]:
            old.unlink(missing_ok=True)
    except OSError:  # a read-only or full disk: the verdicts stand, only the next run is slower
        return


def cached(a: CardSet, b: CardSet | None, cfg: BalanceConfig,
           play: Callable[[], BalanceResult]) -> BalanceResult:
    """The cached verdicts of this run if there are any, else `play()`'s, kept for the next run."""
    folder = cache_folder()
    if folder is None:
        return play()
    path = folder / f"{cache_key(a, b, cfg)}.json"
    found = _read(path, cfg)
    if found is not None:
        return found
    result = play()
    _write(folder, path, result)
    return result
