"""Keeping card text out of a spreadsheet's formula engine (CSV/formula injection).

A spreadsheet evaluates a CSV cell that starts with `=`, `+`, `-` or `@` (and some treat a leading tab
or carriage return the same way), so a card named `=HYPERLINK(...)` would run as a formula on the
designer's machine. Such cells are written with a leading apostrophe, the neutralising quote every
spreadsheet shows as text; a cell that itself starts with an apostrophe gets one more, so reading back
removes exactly one and a round trip keeps every name. XLSX needs none of this: its cells are written
as typed string cells, which no spreadsheet evaluates.
"""

from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
QUOTE = "'"


def neutralised(text: str) -> str:
    """`text` as a CSV cell no spreadsheet evaluates."""
    return QUOTE + text if text.startswith((*FORMULA_STARTS, QUOTE)) else text


def restored(cell: str) -> str:
    """The text a `neutralised` CSV cell holds (cells without the quote are returned as they are)."""
    if cell.startswith(QUOTE) and cell[1:].startswith((*FORMULA_STARTS, QUOTE)):
        return cell[1:]
    return cell
