"""The optional compiled build: cardgen's engine and simulation compiled with mypyc when a C compiler is present.

`pip install -e .` and `pip install .` both work without a compiler: then, or when mypyc or the compiler
fails, or with CARDGEN_BUILD=pure, the install is pure Python and plays exactly the same games (only slower).
The compiled group carries a stamp module (`cardgen/_native_stamp.py`, written here, compiled with the rest)
holding the SHA-256 of every source compiled: `cardgen/native.py` checks it at import and loads the sources
instead of a compiled module whose source has changed since (docs/compiled.md).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent

def _load_list() -> Any:
    """cardgen/native_modules.py, the list shared with the import guard (cardgen itself is not importable yet)."""
    spec = importlib.util.spec_from_file_location("_cardgen_native_modules", ROOT / "cardgen" / "native_modules.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


native_modules = _load_list()

STAMP = ROOT / "cardgen" / "_native_stamp.py"


def _say(msg: str) -> None:
    print(f"cardgen build: {msg}", file=sys.stderr)


def _compiler_present() -> bool:
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    return bool(cc) and shutil.which(cc[0]) is not None


def _write_stamp(paths: list[Path]) -> None:
    lines = [f'    "{native_modules.module_of(p.relative_to(ROOT))}": "{hashlib.sha256(p.read_bytes()).hexdigest()}",'
             for p in paths]
    text = ('"""Written by setup.py and compiled with the modules it names: the SHA-256 of each source compiled."""\n\n'
            "SOURCES: dict[str, str] = {\n" + "\n".join(lines) + "\n}\n")
    tmp = STAMP.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(STAMP)


def _remove_old_builds() -> None:
    """Compiled modules an earlier editable install left in the checkout: this build replaces them, or goes pure."""
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        for old in (ROOT / "cardgen").rglob(f"*{suffix}"):
            old.unlink()
    STAMP.unlink(missing_ok=True)


def _extensions() -> list[Any]:
    _remove_old_builds()
    if os.environ.get("CARDGEN_BUILD", "").lower() == "pure":
        _say("CARDGEN_BUILD=pure: pure Python install")
        return []
    if not _compiler_present():
        _say("no C compiler found: pure Python install (the same games, slower)")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as e:
        _say(f"mypyc unavailable ({e}): pure Python install")
        return []
    paths = [ROOT / p for p in native_modules.PATHS]
    _write_stamp(paths)
    try:
        # (--ignore-missing-imports: pip builds in a fresh environment before it installs cardgen's dependencies,
        # so the modules the compiled ones import, yaml and babel among them, are not there to be read yet)
        exts: list[Any] = mypycify(["--ignore-missing-imports", *(str(p.relative_to(ROOT)) for p in [*paths, STAMP])],
                                   opt_level="3", group_name=native_modules.GROUP)
    except BaseException as e:  # mypyc reports type errors by SystemExit
        _say(f"mypyc failed ({type(e).__name__}: {e}): pure Python install")
        return []
    return exts


class OptionalBuildExt(build_ext):
    """Build the compiled group, or nothing of it: any failure leaves a working pure install."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as e:  # CompileError, LinkError, DistutilsError, OSError: whatever the toolchain raises
            _say(f"compiling failed ({type(e).__name__}: {e}): pure Python install")
            for ext in self.extensions:
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            _remove_old_builds()
            self.extensions = []


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
