"""The import guard of the compiled build: never run a compiled module whose source has changed.

setup.py may compile the engine and the simulation with mypyc (`native_modules.MODULES`) into one group whose
modules call one another directly in C: a compiled module can only run beside the compiled versions of all the
others. The group carries a stamp, the SHA-256 of every source as compiled. `install()` (run by
`cardgen/__init__`) compares it with the sources on disk; if any differs, or CARDGEN_PURE=1 is set, or the
group is incomplete, every module of the group is imported from its `.py` source instead (and, for a changed
source, one line on a terminal's stderr says so). Modules outside the group always come from their source. `BUILD` says
which, in the line `cardgen --version` and the benches print.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

from cardgen.native_modules import MODULES, STAMP

PURE_ENV = "CARDGEN_PURE"
NOTICE_ENV = "CARDGEN_NOTICE"
_ROOT = Path(__file__).resolve().parent.parent  # the directory holding the `cardgen` package


class Build(NamedTuple):
    """Whether the compiled group runs (`compiled`), and why it does or does not (`why`)."""

    compiled: bool
    why: str

    def line(self) -> str:
        """The one line that says which build runs."""
        return f"engine: {'compiled (mypyc)' if self.compiled else 'pure Python'} ({self.why})"


class _SourceFinder:
    """Finds cardgen's modules as their `.py` sources, ahead of any extension module beside them: all of them
    when the pure build runs, those outside the compiled group when the compiled one does (an extension module
    left over from an older build never shadows its source).

    A meta path finder is any object with `find_spec` (sys.meta_path's protocol): not deriving from
    `importlib.abc.MetaPathFinder` spares every process that module's imports (importlib.resources,
    tempfile...)."""

    def __init__(self, compiled: frozenset[str]) -> None:
        self.compiled = compiled

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith("cardgen.") or fullname in self.compiled:
            return None
        source = _source(fullname)
        if not source.is_file():
            return None  # a package (its __init__), or not cardgen's
        loader = importlib.machinery.SourceFileLoader(fullname, str(source))
        return importlib.util.spec_from_file_location(fullname, source, loader=loader)


def _source(module: str) -> Path:
    return _ROOT.joinpath(*module.split(".")).with_suffix(".py")


def _compiled_file(module: str) -> Path | None:
    """The extension module beside `module`'s source, if any."""
    base = _ROOT.joinpath(*module.split("."))
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        p = base.with_name(base.name + suffix)
        if p.is_file():
            return p
    return None


def _stamp() -> dict[str, str] | None:
    """The compiled stamp's hashes (None: no compiled stamp, or it does not load)."""
    if _compiled_file(STAMP) is None:
        return None
    spec = importlib.util.find_spec(STAMP)
    if spec is None or not isinstance(spec.loader, importlib.machinery.ExtensionFileLoader):
        return None
    try:
        mod = importlib.import_module(STAMP)
    except ImportError:
        return None
    sources = getattr(mod, "SOURCES", None)
    return dict(sources) if isinstance(sources, dict) else None


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _decide() -> Build:
    compiled = [m for m in MODULES if _compiled_file(m) is not None]
    if not compiled:
        return Build(False, "not compiled")
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return Build(False, f"{PURE_ENV}={os.environ[PURE_ENV]}")
    stamp = _stamp()
    if stamp is None:
        return Build(False, "compiled modules without their stamp: reinstall (pip install -e .)")
    missing = [m for m in MODULES if m not in stamp or _compiled_file(m) is None]
    if missing:
        return Build(False, f"compiled build incomplete ({', '.join(missing[:3])}): reinstall (pip install -e .)")
    changed = [m for m in MODULES if not _source(m).is_file() or _sha256(_source(m)) != stamp[m]]
    if changed:
        names = ", ".join(m.removeprefix("cardgen.") for m in changed[:3]) + (" ..." if len(changed) > 3 else "")
        return Build(False, f"source changed since compiled: {names}; `pip install -e .` recompiles")
    return Build(True, f"{len(MODULES)} modules")


def install() -> Build:
    """Decide once which build runs and put the source finder first on `sys.meta_path`."""
    build = _decide()
    if not any(isinstance(f, _SourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFinder(frozenset(MODULES) if build.compiled else frozenset()))
    # Said on a terminal (or with CARDGEN_NOTICE=1), never into a captured stream: a test that reads a command's
    # stderr must not see it. `cardgen --version` always says which build runs.
    if build.why.startswith(("source changed", "compiled")) and (sys.stderr.isatty() or os.environ.get(NOTICE_ENV)):
        print(f"cardgen: {build.line()}", file=sys.stderr)
    return build
