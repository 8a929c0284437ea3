"""Import a library without compiling the regular expressions of its that a build never uses.

Some libraries compile large patterns when they are imported: reportlab.platypus.paragraph a
case-insensitive URL pattern over most of Unicode (25-50 ms of CPU, a tenth of a whole
`cardgen build`) to break over-long URLs, reportlab.lib.textsplit one for CJK line breaks, and
yaml.reader the printable-character check of its pure-Python reader (the C loader cardgen uses
never calls it). While such a module is imported, `re.compile` hands those patterns (and only
those) a stand-in that compiles on first use; every other call compiles as usual, and
`re.compile` is restored at once. The stand-in behaves like the pattern in every use these
modules make of it (method calls); tests/test_lazy_patterns.py checks it matches alike.
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

Wanted = Callable[[str, int], bool]

# module -> which of the patterns it compiles at import to defer (by the pattern's text and flags)
DEFERRED: dict[str, Wanted] = {
    "reportlab.platypus.paragraph": lambda p, flags: "://" in p and bool(flags & re.IGNORECASE),
    "reportlab.lib.textsplit": lambda p, flags: p == "([\u2e80-\uffff])",
    "yaml.reader": lambda p, flags: p.startswith("[^\x09\x0a\x0d\x20-\x7e"),
}


class LazyPattern:
    """A compiled pattern made on first use (any attribute: match, search, sub, pattern...)."""

    def __init__(self, pattern: str, flags: int) -> None:
        self._args = (pattern, flags)
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:
        if self._compiled is None:
            self._compiled = re.compile(*self._args)
        return getattr(self._compiled, name)


@contextmanager
def _deferred() -> Iterator[None]:
    real = re.compile

    def compile_(pattern: Any, flags: int = 0) -> Any:
        wanted = DEFERRED.get(sys._getframe(1).f_globals.get("__name__", ""))
        if wanted is not None and isinstance(pattern, str) and wanted(pattern, int(flags)):
            return LazyPattern(pattern, flags)
        return real(pattern, flags)

    re.compile = compile_
    try:
        yield
    finally:
        re.compile = real


def import_module(name: str) -> ModuleType:
    """`importlib.import_module(name)`, deferring the patterns above if it is not loaded yet."""
    if name in sys.modules:
        return sys.modules[name]
    with _deferred():
        return importlib.import_module(name)
