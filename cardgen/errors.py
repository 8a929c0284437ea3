"""Error types and diagnostics: every problem a user can cause ends up here, never as a traceback."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class Diagnostic:
    """One problem in the input, printed as `path:line:col: error: message`."""

    path: str
    line: int
    column: int
    message: str
    severity: Severity = "error"

    def __str__(self) -> str:
        where = f"{visible(shorten(self.path, MAX_PATH_SHOWN))}:{self.line}:{self.column}"
        return f"{where}: {self.severity}: {visible(shorten_values(self.message))}"


MAX_VALUE_SHOWN = 60  # characters of one quoted value in a message
MAX_MESSAGE_SHOWN = 600  # characters of a whole message
MAX_PATH_SHOWN = 1000  # paths are kept whole (editors jump to them) unless absurd

_QUOTED = re.compile(r"(?<!\w)'([^'\n]{" + str(MAX_VALUE_SHOWN + 1) + r",})'(?!\w)")  # 'value', not "x': ... 'y"
_LOCATED = re.compile(r"(?s)((?:(?!: )[^\n])+?):(\d+):(\d+): (.*)")  # a path never holds ": "


_INVISIBLE = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\ud800-\udfff]")


def visible(text: str) -> str:
    """`text` with control, bidirectional and zero-width characters written as escapes (\\n, \\u202e): a
    diagnostic stays one line, and a name holding a right-to-left override cannot turn the line around."""
    named = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}
    return _INVISIBLE.sub(lambda m: named.get(m.group(), f"\\u{ord(m.group()):04x}"), text)


def shorten(text: str, limit: int = MAX_VALUE_SHOWN) -> str:
    """`text` cut in the middle when longer than `limit`, saying how long it was (a 10,000-character name
    must not give a 10,000-character error line)."""
    if len(text) <= limit:
        return text
    head = max(1, limit * 2 // 3)
    tail = max(1, limit - head - 3)
    return f"{text[:head]}...{text[-tail:]} ({len(text):,} characters)"


def shorten_values(message: str) -> str:
    """A message with each long quoted value shortened, and the whole kept to a readable length."""
    return shorten(_QUOTED.sub(lambda m: f"'{shorten(m.group(1))}'", message), MAX_MESSAGE_SHOWN)


MAX_DIAGNOSTICS_SHOWN = 100  # lines of one report; a sheet of 10,000 bad cells must not print 10,000 lines


def report_lines(diags: list[Diagnostic], limit: int = MAX_DIAGNOSTICS_SHOWN) -> list[str]:
    """The diagnostics as lines, at most `limit` of them, then one saying how many more there are."""
    lines = [str(d) for d in diags[:limit]]
    if len(diags) > limit:
        rest = diags[limit:]
        errors = sum(1 for d in rest if d.severity == "error")
        kinds = f"{errors:,} error{'s' if errors != 1 else ''}, {len(rest) - errors:,} warning" \
            f"{'s' if len(rest) - errors != 1 else ''}"
        lines.append(f"... and {len(rest):,} more ({kinds}) not shown; fix these and run again")
    return lines


def error_text(exc: BaseException) -> str:
    """An error as one line of the shape every command uses: `path:line:col: error: message` when the error
    names a place in a file, else `error: message`."""
    text = str(exc)
    m = _LOCATED.fullmatch(text)
    if m is not None:
        path, line, col, rest = m.groups()
        if rest.startswith(("error: ", "warning: ")):
            severity, rest = rest.split(": ", 1)
            return str(Diagnostic(path, int(line), int(col), rest, "warning" if severity == "warning" else "error"))
        return str(Diagnostic(path, int(line), int(col), rest))
    return f"error: {visible(shorten_values(text))}"


class CardgenError(Exception):
    """Base of every error the tool reports to a user (exit code 1)."""


class SetError(CardgenError):
    """A card set failed to load; carries every diagnostic found, not only the first."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = diagnostics
        super().__init__("\n".join(str(d) for d in diagnostics))

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]


class UnknownSetError(CardgenError):
    """A --set argument names neither a bundled set nor a set folder."""


class OutputError(CardgenError):
    """An output could not be written (unwritable folder, bad option)."""
