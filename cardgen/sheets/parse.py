"""Turn spreadsheet rows into card mappings, as a Document whose positions are spreadsheet rows and columns.

Each value keeps its row and column, so every later check (the schema, then the
loader's own) reports `sheet.csv:ROW:COL: error: card 'X' field `damage`: ...`.
"""

from __future__ import annotations

from typing import Any

from cardgen.errors import Diagnostic
from cardgen.loader.schema_check import check_schema
from cardgen.sheets.columns import BY_HEADER, COLUMNS, CellError, Column, is_blank, parse_cell
from cardgen.sheets.read import Table
from cardgen.suggest import did_you_mean
from cardgen.yaml_doc import Document

REQUIRED = ("name", "type", "count", "source")
MAX_HEADER_MESSAGES = 10  # unknown header cells reported one by one; the rest as one "and N more" line


def column_letter(col: int) -> str:
    """1 -> A, 27 -> AA: how spreadsheets name a column, for messages."""
    out = ""
    while col:
        col, rem = divmod(col - 1, 26)
        out = chr(65 + rem) + out
    return out


def _header(table: Table, diags: list[Diagnostic]) -> dict[int, Column]:
    """Column number -> Column for each header cell; unknown or repeated headers are reported."""
    if not table.rows:
        diags.append(Diagnostic(table.path, 1, 1, "the sheet is empty: expected a header row naming the fields "
                                f"({', '.join(REQUIRED)}, ...)"))
        return {}
    found: dict[int, Column] = {}
    seen: dict[str, int] = {}
    names = [c.header for c in COLUMNS]
    unknown: list[int] = []
    for i, cell in enumerate(table.rows[0], start=1):
        if is_blank(cell):
            continue
        text = str(cell).strip()
        column = BY_HEADER.get(text) or BY_HEADER.get(text.lower())
        if column is None:
            unknown.append(i)
            if len(unknown) <= MAX_HEADER_MESSAGES:
                diags.append(Diagnostic(table.path, 1, i, f"column {column_letter(i)}: unknown field '{text}'"
                                        f"{did_you_mean(text, names)}; the header names card fields as the YAML "
                                        "does (name, type, count, damage, heal.amount, ...)"))
            continue
        if column.header in seen:
            diags.append(Diagnostic(table.path, 1, i, f"column {column_letter(i)}: field '{column.header}' "
                                    f"repeats column {column_letter(seen[column.header])}"))
            continue
        seen[column.header] = i
        found[i] = column
    more = max(0, len(unknown) - MAX_HEADER_MESSAGES) + table.overflow.get(1, 0)
    if more > 0:
        first = unknown[MAX_HEADER_MESSAGES] if len(unknown) > MAX_HEADER_MESSAGES else len(table.rows[0]) + 1
        diags.append(Diagnostic(table.path, 1, first, f"and {more:,} more unknown fields in the header (from column "
                                f"{column_letter(first)}); the header names card fields as the YAML does"))
    for key in REQUIRED:
        if key not in seen and found:
            diags.append(Diagnostic(table.path, 1, 1, f"missing column '{key}': every card needs "
                                    f"{', '.join(REQUIRED)}"))
    return found


def parse_table(table: Table, diags: list[Diagnostic],
                unreadable: set[tuple[int, str]] | None = None) -> tuple[Document, list[int]]:
    """A Document of `{cards: [...]}` positioned at the cells, and the sheet row of each card.

    Blank rows are skipped (their row numbers still count). Problems go to `diags`; the (row, field) of
    each cell that could not be read go to `unreadable`, so later checks do not report them again.
    """
    columns = _header(table, diags)
    doc = Document(table.path, {"cards": []})
    cards: list[dict[str, Any]] = doc.data["cards"]
    rows: list[int] = []
    if not columns:
        return doc, rows
    first_col = min(columns)
    header = table.rows[0]
    if unreadable is None:
        unreadable = set()  # (row, field) of cells already reported
    doc.marks[()] = doc.marks[("cards",)] = (1, 1)
    for r, cells in enumerate(table.rows[1:], start=2):
        stray = [i for i, c in enumerate(cells, start=1) if i not in columns and not is_blank(c)
                 and (i > len(header) or is_blank(header[i - 1]))]  # under an unknown name: reported once, above
        extra = len(stray) + table.overflow.get(r, 0)
        if extra:
            at_col = stray[0] if stray else len(cells) + 1
            diags.append(Diagnostic(table.path, r, at_col, f"row {r}: {extra:,} cell{'s' if extra != 1 else ''} "
                                    f"under no field name (from column {column_letter(at_col)}); give the column "
                                    "a header or clear the cells"))
        if all(is_blank(c) for c in cells):
            continue
        at = ("cards", len(cards))
        card: dict[str, Any] = {}
        doc.marks[at] = (r, first_col)
        name = next((str(cells[i - 1]).strip() for i, c in columns.items()
                     if c.header == "name" and i <= len(cells) and not is_blank(cells[i - 1])), None)
        for i, column in columns.items():
            value = cells[i - 1] if i <= len(cells) else None
            if is_blank(value):
                continue
            where = f"card '{name}'" if name else f"card in row {r}"
            try:
                parsed = parse_cell(column, value)
            except CellError as exc:
                diags.append(Diagnostic(table.path, r, i, f"{where} field `{column.header}` (column "
                                        f"{column_letter(i)}): {exc}"))
                unreadable.add((r, column.path[0]))
                continue
            target = card
            for depth, key in enumerate(column.path[:-1], start=1):
                target = target.setdefault(key, {})
                doc.marks.setdefault((*at, *column.path[:depth]), (r, i))
                doc.key_marks.setdefault((*at, *column.path[:depth]), (r, i))
            target[column.path[-1]] = parsed
            doc.marks[(*at, *column.path)] = doc.key_marks[(*at, *column.path)] = (r, i)
            if isinstance(parsed, list):
                for k in range(len(parsed)):
                    doc.marks[(*at, *column.path, k)] = (r, i)
        cards.append(card)
        rows.append(r)
    diags.extend(d for d in check_schema(doc)
                 if not any(d.line == r and d.message.endswith(f"missing required key '{key}'")
                            for r, key in unreadable))
    return doc, rows
