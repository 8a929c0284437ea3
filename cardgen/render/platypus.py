"""reportlab.platypus, imported without compiling a regex the rules page never uses.

reportlab.platypus.paragraph compiles `uri_pat` when it is imported: a case-insensitive URL
pattern over most of Unicode, 25-50 ms of CPU (a tenth of a whole `cardgen build`), used only
to break over-long URLs across lines, which the rules page never prints. While that one module
is being imported, `re.compile` hands it a pattern that compiles on first use for that one
pattern; every other call compiles as usual, and `re.compile` is restored at once. Import the
platypus names from here on the build path.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

PARAGRAPH_MODULE = "reportlab.platypus.paragraph"


class LazyPattern:
    """A compiled pattern made on first use (any attribute: match, search, pattern...)."""

    def __init__(self, pattern: str, flags: int) -> None:
        self._args = (pattern, flags)
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:
        if self._compiled is None:
            self._compiled = re.compile(*self._args)
        return getattr(self._compiled, name)


@contextmanager
def _url_pattern_deferred() -> Iterator[None]:
    real = re.compile

    def compile_(pattern: Any, flags: int = 0) -> Any:
        caller = sys._getframe(1).f_globals.get("__name__")
        if caller == PARAGRAPH_MODULE and isinstance(pattern, str) and "://" in pattern and flags & re.IGNORECASE:
            return LazyPattern(pattern, flags)
        return real(pattern, flags)

    re.compile = compile_
    try:
        yield
    finally:
        re.compile = real


if PARAGRAPH_MODULE not in sys.modules:
    with _url_pattern_deferred():
        import reportlab.platypus.paragraph  # noqa: F401

from reportlab.platypus import (  # noqa: E402
    BaseDocTemplate,
    Flowable,
    Frame,
    KeepTogether,
    PageTemplate,
    Paragraph,
    Table,
    TableStyle,
)
from reportlab.platypus.flowables import CondPageBreak, HRFlowable  # noqa: E402

__all__ = ["BaseDocTemplate", "CondPageBreak", "Flowable", "Frame", "HRFlowable", "KeepTogether", "LazyPattern",
           "PageTemplate", "Paragraph", "Table", "TableStyle"]
