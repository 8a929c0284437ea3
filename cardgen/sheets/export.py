"""Write a set's cards as a spreadsheet: CSV (UTF-8, comma, CRLF, as Google Sheets writes it) or XLSX."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Font

from cardgen.errors import OutputError
from cardgen.model import Card, CardSet
from cardgen.sheets.columns import COLUMNS, cell_value, raw_card
from cardgen.sheets.formulas import neutralised

SHEET_TITLE = "cards"
FORMATS = (".csv", ".xlsx")
_FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # zip entry dates, so the same set gives the same bytes


def own_cards(cs: CardSet) -> list[Card]:
    """The cards a set defines itself: its own cards and its overrides of a base set's (their files lie in the
    set's folder); the cards an `extends:` set inherits unchanged stay with the base."""
    if not cs.path:
        return list(cs.cards)
    folder = Path(cs.path).resolve()
    return [c for c in cs.cards if Path(c.file).resolve().parent == folder]


def sheet_rows(cs: CardSet, own_only: bool = False) -> list[list[str | int | bool | None]]:
    """The header row, then one row per card design in print order (only the set's own with `own_only`)."""
    rows: list[list[str | int | bool | None]] = [[c.header for c in COLUMNS]]
    for card in own_cards(cs) if own_only else cs.cards:
        raw = raw_card(card)
        rows.append([cell_value(c, raw) for c in COLUMNS])
    return rows


def _csv_text(value: str | int | bool | None) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    return neutralised(value) if isinstance(value, str) else str(value)


def csv_bytes(cs: CardSet, own_only: bool = False) -> bytes:
    buf = io.StringIO(newline="")
    writer = csv.writer(buf, lineterminator="\r\n")
    for row in sheet_rows(cs, own_only):
        writer.writerow([_csv_text(v) for v in row])
    return buf.getvalue().encode("utf-8")


def xlsx_bytes(cs: CardSet, own_only: bool = False) -> bytes:
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = SHEET_TITLE
    for r, row in enumerate(sheet_rows(cs, own_only), start=1):
        for c, value in enumerate(row, start=1):
            if value is None:
                continue
            written = ws.cell(r, c, value)
            if isinstance(value, str):
                written.data_type = "s"  # openpyxl would store '=...' as a live formula; text stays text
    for cell in ws[1]:
        cell.font = Font(bold=True)
    ws.freeze_panes = "A2"
    wb.properties.creator = "cardgen"
    buf = io.BytesIO()
    wb.save(buf)
    return _fixed_dates(buf.getvalue())


def _fixed_dates(data: bytes) -> bytes:
    """The same archive with fixed entry dates and no creation time, so exports are reproducible."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info.filename)
            if info.filename == "docProps/core.xml":
                body = _strip_dates(body)
            dst.writestr(zipfile.ZipInfo(info.filename, _FIXED_TIME), body, zipfile.ZIP_DEFLATED)
    return out.getvalue()


def _strip_dates(core: bytes) -> bytes:
    return re.sub(rb"<dcterms:(created|modified)[^>]*>[^<]*</dcterms:\1>", b"", core)


def export_sheet(cs: CardSet, out: Path, own_only: bool = False) -> bytes:
    """The spreadsheet for `out`'s extension (.csv or .xlsx); `own_only`: only the set's own cards and overrides,
    so an `extends:` set's sheet imports back into it."""
    suffix = out.suffix.lower()
    if suffix == ".csv":
        return csv_bytes(cs, own_only)
    if suffix == ".xlsx":
        return xlsx_bytes(cs, own_only)
    raise OutputError(f"{out}: unknown spreadsheet format '{out.suffix or '(none)'}'; use .csv or .xlsx")
