"""Where a card's field was written, for a check's diagnostic."""

from __future__ import annotations

from typing import Any, cast

from cardgen.errors import Diagnostic, Severity
from cardgen.loader.load import LoadedSet
from cardgen.model import Card


def field_at(loaded: LoadedSet, card: Card, field: str) -> tuple[str, int, int]:
    """The file, line and column of `card`'s `field` (or of the card, when the field is not written there)."""
    for doc in loaded.docs:
        if doc.path != card.file:
            continue
        for i, raw in enumerate(cast(dict[str, Any], doc.data).get("cards", [])):
            if raw.get("name") == card.name:
                line, col = doc.where(("cards", i, field))
                return doc.path, line, col
    return card.file, card.line, card.column


def card_problem(loaded: LoadedSet, card: Card, field: str, message: str,
                 severity: Severity = "error") -> Diagnostic:
    """A problem of `card` at its `field`, said as `card 'NAME' MESSAGE`."""
    path, line, col = field_at(loaded, card, field)
    return Diagnostic(path, line, col, f"card '{card.name}' {message}", severity)
