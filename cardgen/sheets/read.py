"""Read a CSV or XLSX file into rows of cells, keeping each cell's spreadsheet row and column.

CSV is read as UTF-8 (a byte-order mark is allowed) with any line ending and
quoted multi-line cells, as Google Sheets, Excel and LibreOffice write it. XLSX
is read with openpyxl: the sheet called `cards` if there is one, else the first.
"""

from __future__ import annotations

import csv
import io
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardgen.errors import Diagnostic, SetError

MAX_SHEET_BYTES = 20_000_000
MAX_ROWS = 5_000
CARDS_SHEET = "cards"


@dataclass(frozen=True)
class Table:
    """The cells of one sheet: `rows[i]` is spreadsheet row i + 1, its cells from column 1."""

    path: str
    rows: list[list[Any]]


def _fail(shown: str, message: str) -> SetError:
    return SetError([Diagnostic(shown, 1, 1, message)])


def read_table(path: Path, shown: str) -> Table:
    """The sheet's cells; a file that cannot be read as CSV or XLSX raises SetError saying why."""
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".xlsx"):
        raise _fail(shown, f"unknown spreadsheet format '{path.suffix or '(none)'}': save the sheet as .csv "
                    "(UTF-8) or .xlsx")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise _fail(shown, f"cannot read the sheet: {exc.strerror or exc}") from None
    if len(data) > MAX_SHEET_BYTES:
        raise _fail(shown, f"the sheet is {len(data)} bytes, over the limit of {MAX_SHEET_BYTES}")
    rows = _csv_rows(data, shown) if suffix == ".csv" else _xlsx_rows(data, shown)
    if len(rows) > MAX_ROWS:
        raise _fail(shown, f"{len(rows)} rows, over the limit of {MAX_ROWS}")
    return Table(shown, rows)


def _csv_rows(data: bytes, shown: str) -> list[list[Any]]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise SetError([Diagnostic(shown, line, 1, f"not UTF-8 text (byte 0x{data[exc.start]:02X}): save or "
                                   "download the sheet as 'CSV UTF-8'")]) from None
    try:
        return [list(r) for r in csv.reader(io.StringIO(text, newline=""), strict=True)]
    except csv.Error as exc:
        raise _fail(shown, f"not a readable CSV file: {exc}") from None


def _xlsx_rows(data: bytes, shown: str) -> list[list[Any]]:
    from openpyxl import load_workbook  # only a workbook needs it

    try:
        wb = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
        raise _fail(shown, f"not a readable .xlsx workbook ({type(exc).__name__}: {exc})") from None
    try:
        ws = wb[CARDS_SHEET] if CARDS_SHEET in wb.sheetnames else wb.worksheets[0]
        return [list(r) for r in ws.iter_rows(values_only=True)]
    finally:
        wb.close()
