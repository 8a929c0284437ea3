"""Error types and diagnostics: every problem a user can cause ends up here, never as a traceback."""

from __future__ import annotations

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
        return f"{self.path}:{self.line}:{self.column}: {self.severity}: {self.message}"


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
