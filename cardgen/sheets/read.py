"""Read a CSV or XLSX file into rows of cells, keeping each cell's spreadsheet row and column.

CSV is read as UTF-8 (a byte-order mark is allowed) with any line ending, quoted multi-line cells and
a comma, semicolon or tab between cells (Excel writes semicolons in many locales), as Google Sheets,
Excel and LibreOffice write it. XLSX is read with openpyxl: the sheet called `cards` if there is one,
else the first.

Everything is bounded while it is read, never after: the file must be a regular file (a FIFO or
`/dev/zero` is refused before a byte is read) of at most MAX_SHEET_BYTES; an XLSX's parts may
unpack to at most MAX_UNPACKED_BYTES (a zip bomb is refused from the archive's directory, and Python's
zip reader never inflates past the sizes it declares); every XML part is first parsed with defusedxml
with DTDs forbidden (entity bombs, external entities); at most MAX_ROWS rows and MAX_COLUMNS cells a
row are kept, with a count of the non-blank cells beyond.
"""

from __future__ import annotations

import csv
import io
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import ParseError

from cardgen.bounded_read import UnreadableFile, read_capped
from cardgen.errors import Diagnostic, SetError
from cardgen.sheets.formulas import restored

MAX_SHEET_BYTES = 20_000_000
MAX_UNPACKED_BYTES = 50_000_000  # all parts of an XLSX once inflated (a 5,000-card sheet is a few MB)
MAX_PARTS = 1_000
MAX_ROWS = 5_000
MAX_COLUMNS = 200  # cells a row; a card has about 40 fields
CARDS_SHEET = "cards"
CSV_DELIMITERS = ",;\t"


@dataclass(frozen=True)
class Table:
    """The cells of one sheet: `rows[i]` is spreadsheet row i + 1, its cells from column 1.

    `overflow[row]` counts the non-blank cells of a row beyond MAX_COLUMNS (not kept)."""

    path: str
    rows: list[list[Any]]
    overflow: dict[int, int] = field(default_factory=dict)


def _fail(shown: str, message: str) -> SetError:
    return SetError([Diagnostic(shown, 1, 1, message)])


def read_table(path: Path, shown: str) -> Table:
    """The sheet's cells; a file that cannot be read as CSV or XLSX raises SetError saying why."""
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".xlsx"):
        raise _fail(shown, f"unknown spreadsheet format '{path.suffix or '(none)'}': save the sheet as .csv "
                    "(UTF-8) or .xlsx")
    try:
        data = read_capped(path, MAX_SHEET_BYTES, "sheet")
    except UnreadableFile as exc:
        raise _fail(shown, str(exc)) from None
    table = Table(shown, [])
    rows = _csv_rows(data, shown) if suffix == ".csv" else _xlsx_rows(data, shown)
    for i, row in enumerate(rows, start=1):
        if i > MAX_ROWS:
            raise _fail(shown, f"more than {MAX_ROWS:,} rows, over the limit of {MAX_ROWS:,}")
        kept = list(row[:MAX_COLUMNS])
        extra = sum(1 for c in row[MAX_COLUMNS:] if c is not None and str(c).strip())
        if extra:
            table.overflow[i] = extra
        table.rows.append(kept)
    return table


def sniff_delimiter(text: str) -> str:
    """The delimiter of the header line: a comma, or the semicolon or tab a spreadsheet wrote instead."""
    head = text.split("\n", 1)[0]
    try:
        found = csv.Sniffer().sniff(head, delimiters=CSV_DELIMITERS).delimiter
    except csv.Error:
        return ","
    return found if head.count(found) > head.count(",") else ","


def _csv_rows(data: bytes, shown: str) -> Any:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise SetError([Diagnostic(shown, line, 1, f"not UTF-8 text (byte 0x{data[exc.start]:02X}): save or "
                                   "download the sheet as 'CSV UTF-8'")]) from None
    reader = csv.reader(io.StringIO(text, newline=""), strict=True, delimiter=sniff_delimiter(text))
    try:
        for row in reader:
            yield [restored(c) for c in row]
    except csv.Error as exc:
        raise _fail(shown, f"not a readable CSV file (row {reader.line_num}): {exc}") from None


def _check_archive(data: bytes, shown: str) -> None:
    """Refuse a zip bomb from the archive's directory, and any XML part with a DTD (entity tricks)."""
    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import iterparse

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            infos = zf.infolist()
            if len(infos) > MAX_PARTS:
                raise _fail(shown, f"the workbook has {len(infos):,} parts, over the limit of {MAX_PARTS:,}")
            unpacked = sum(i.file_size for i in infos)
            if unpacked > MAX_UNPACKED_BYTES:
                raise _fail(shown, f"the workbook unpacks to {unpacked:,} bytes, over the limit of "
                            f"{MAX_UNPACKED_BYTES:,} (a zip bomb?)")
            for info in infos:
                if not info.filename.lower().endswith((".xml", ".rels")):
                    continue
                with zf.open(info) as part:
                    try:
                        for _event, elem in iterparse(part, forbid_dtd=True):
                            elem.clear()
                    except DefusedXmlException as exc:
                        raise _fail(shown, f"not a readable .xlsx workbook: {info.filename} declares XML "
                                    f"entities or a DTD, which a workbook never needs ({type(exc).__name__})") from None
                    except ParseError as exc:
                        raise _fail(shown, f"not a readable .xlsx workbook: {info.filename} is broken XML "
                                    f"({exc})") from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError, OSError, ValueError) as exc:
        raise _fail(shown, f"not a readable .xlsx workbook ({type(exc).__name__}: {exc})") from None


def _xlsx_rows(data: bytes, shown: str) -> Any:
    _check_archive(data, shown)
    from openpyxl import load_workbook  # only a workbook needs it

    try:
        wb = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises whatever its zip and XML readers raise on a malformed file
        raise _fail(shown, f"not a readable .xlsx workbook ({type(exc).__name__}: {exc})") from None
    try:
        ws = wb[CARDS_SHEET] if CARDS_SHEET in wb.sheetnames else wb.worksheets[0]
        if hasattr(ws, "reset_dimensions"):
            ws.reset_dimensions()  # a declared A1:XFD1048576 must not pad every row to 16,384 cells
        rows = ws.iter_rows(values_only=True)
        while True:
            try:
                row = next(rows)
            except StopIteration:
                break
            except Exception as exc:  # as above: a cell or row the reader cannot make sense of
                raise _fail(shown, f"not a readable .xlsx workbook ({type(exc).__name__}: {exc})") from None
            yield list(row)
    finally:
        wb.close()
