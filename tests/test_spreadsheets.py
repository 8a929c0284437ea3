"""Spreadsheets in and out: round trips of the bundled sets, Google-Sheets-style files, errors at row:column."""

from __future__ import annotations

import dataclasses
import io
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from openpyxl import Workbook, load_workbook

from cardgen.checks import load_set
from cardgen.cli.main import main
from cardgen.errors import SetError
from cardgen.model import Card
from cardgen.paths import card_data_dir
from cardgen.render.build import render_set
from cardgen.render.sheets import PrintOptions
from cardgen.sheets import export_sheet, import_sheet
from cardgen.sheets.columns import COLUMNS


def _cards_only(name: str, folder: Path) -> Path:
    """A copy of a bundled set's folder without its card files: set.yaml (and icons), ready for an import."""
    target = folder / name
    shutil.copytree(card_data_dir() / name, target)
    for f in target.glob("*.yaml"):
        if f.name != "set.yaml":
            f.unlink()
    return target


def _same_card(a: Card, b: Card) -> bool:
    where = {"file": "", "line": 0, "column": 0}
    return dataclasses.replace(a, **where) == dataclasses.replace(b, **where)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["classic", "lunch", "beer"])
def test_export_then_import_builds_the_same_pdf_bytes(name: str, tmp_path: Path) -> None:
    original = load_set(name)
    yaml_texts = []
    for fmt in ("csv", "xlsx"):
        sheet = tmp_path / f"{name}.{fmt}"
        sheet.write_bytes(export_sheet(original, sheet))
        folder = _cards_only(name, tmp_path / fmt)
        import_sheet(sheet, folder)
        again = load_set(folder)
        assert len(again.cards) == len(original.cards)
        assert all(_same_card(a, b) for a, b in zip(original.cards, again.cards, strict=True))
        yaml_texts.append((folder / "cards.yaml").read_text(encoding="utf-8").split("\n", 2)[2])
    assert yaml_texts[0] == yaml_texts[1]  # CSV and XLSX import to the same card file, so the same build
    opts = PrintOptions()
    want = render_set(original, opts).files
    got = render_set(load_set(tmp_path / "csv" / name), opts).files
    assert got == want


def test_sheet_has_a_column_per_field_named_as_in_yaml(tmp_path: Path) -> None:
    out = tmp_path / "lunch.xlsx"
    res = CliRunner().invoke(main, ["export", "sheet", "--set", "lunch", "--out", str(out)])
    assert res.exit_code == 0, res.output
    ws = load_workbook(out).active
    assert ws is not None
    header = [c.value for c in ws[1]]
    assert header[:4] == ["name", "type", "count", "source"]
    assert {"damage", "defended_by", "heal.amount", "heal.when", "opens.combo", "ongoing.broken_by", "flavour"} \
        <= set(header)
    assert ws.max_row == len(load_set("lunch").cards) + 1
    rows = {r[0]: dict(zip(header, r, strict=True)) for r in ws.iter_rows(min_row=2, values_only=True)}
    assert rows["Jab"]["count"] == load_set("lunch").card("Jab").count  # numbers stay numbers
    assert out.read_bytes() == export_sheet(load_set("lunch"), out)  # reproducible bytes


# A sheet as Google Sheets downloads it (File > Download > CSV): UTF-8 without BOM, CRLF line ends,
# quotes only where needed, a cell with a line break inside quotes, TRUE/FALSE checkboxes.
GOOGLE_CSV = (
    b"name,type,count,source,damage,travels,stuns,defended_by,heal.amount,heal.when,flavour\r\n"
    b"Wet Willy,basic,6,designed,1,FALSE,1,,,,\"Nobody ever\r\nsees it coming.\"\r\n"
    b"Caf\xc3\xa9 Tray,weapon,4,designed,4 + 3,TRUE,,\"dodge, block\",,,\"A \"\"tray\"\", they said.\"\r\n"
    b",,,,,,,,,,\r\n"
    b"Juice Box,defense,3,designed,,,,,2,\"turn, dropping\",\r\n")


def test_google_sheets_csv_imports_as_is(tmp_path: Path) -> None:
    sheet = tmp_path / "My cards - Sheet1.csv"
    sheet.write_bytes(GOOGLE_CSV)
    res = CliRunner().invoke(main, ["import", "sheet", str(sheet), "--into", str(tmp_path / "wet"), "--base", "lunch"])
    assert res.exit_code == 0, res.output
    cs = load_set(tmp_path / "wet")
    assert cs.name == "wet" and cs.total == 13
    willy, tray, juice = cs.cards
    assert willy.flavour == "Nobody ever\nsees it coming."
    assert (willy.damage, willy.stuns, willy.travels) == ((1,), 1, False)
    assert tray.name == "Café Tray" and tray.damage == (4, 3) and tray.travels
    assert tray.defended_by == ("dodge", "block") and tray.flavour == 'A "tray", they said.'
    assert juice.heal is not None and (juice.heal.amount, juice.heal.when) == (2, ("turn", "dropping"))
    assert cs.rules == load_set("lunch").rules
    assert sorted(cs.icons) == sorted(load_set("lunch").icons)  # the base's icons come along
    assert all(Path(p).is_relative_to((tmp_path / "wet").resolve()) for p in cs.icons.values())


def test_google_sheets_xlsx_imports_as_is(tmp_path: Path) -> None:
    """Google Sheets' XLSX: first sheet 'Sheet1', numbers and checkboxes typed, line breaks in cells."""
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Sheet1"
    ws.append(["name", "type", "count", "source", "damage", "travels", "flavour"])
    ws.append(["Wet Willy", "basic", 8.0, "designed", 1, False, "Nobody ever\nsees it coming."])
    ws.append(["Lunch Tray", "weapon", 4, "designed", "4 + 3", True, None])
    buf = io.BytesIO()
    wb.save(buf)
    sheet = tmp_path / "My cards.xlsx"
    sheet.write_bytes(buf.getvalue())
    import_sheet(sheet, tmp_path / "wet", base="lunch")
    willy, tray = load_set(tmp_path / "wet").cards
    assert willy.count == 8 and willy.flavour == "Nobody ever\nsees it coming."
    assert tray.damage == (4, 3) and tray.travels


def _errors(tmp_path: Path, csv_text: str, base: str | None = "lunch") -> list[str]:
    sheet = tmp_path / "cards.csv"
    sheet.write_text(csv_text, encoding="utf-8", newline="")
    with pytest.raises(SetError) as info:
        import_sheet(sheet, tmp_path / "set", base=base, shown="cards.csv")
    assert not (tmp_path / "set").exists()  # nothing half-written
    return [str(d) for d in info.value.diagnostics]


def test_errors_name_row_column_field_and_a_close_match(tmp_path: Path) -> None:
    got = _errors(tmp_path, "name,type,count,source,damge\r\nJab,basic,2,designed,1\r\n")
    assert got == ["cards.csv:1:5: error: column E: unknown field 'damge' (did you mean 'damage'?); the header "
                   "names card fields as the YAML does (name, type, count, damage, heal.amount, ...)"]
    got = _errors(tmp_path, "name,type,count,source,damage\r\nJab,basic,two,designed,1\r\nHook,basic,2,desinged,3\r\n")
    assert got[0] == "cards.csv:2:3: error: card 'Jab' field `count` (column C): expected a whole number, got 'two'"
    assert got[1].startswith("cards.csv:3:4: error: card 'Hook' field `source`: expected one of rulebook, ")
    assert got[1].endswith("(did you mean 'designed'?)")


def test_loader_checks_point_at_the_cell(tmp_path: Path) -> None:
    """Checks that need the whole set (card types, combos, duplicates) still land on the sheet's cells."""
    got = _errors(tmp_path, "name,type,count,source,damage,follows\r\n"
                            "Jab,basic,2,designed,1,\r\n"
                            "Slam,bsic,2,designed,3,\r\n"
                            "Jab,basic,1,designed,1,\r\n")
    assert any(g.startswith("cards.csv:3:2: error: card 'Slam' field `type`: unknown card type 'bsic'") and
               "did you mean 'basic'" in g for g in got), got
    assert any(g.startswith("cards.csv:4:1: error: duplicate card name 'Jab' (first defined at cards.csv:2)")
               for g in got), got
    got = _errors(tmp_path, "name,type,count,source,damage,follows,opens.combo\r\n"
                            "Grab,specialty,5,designed,,,grab\r\n"
                            "Slap,specialty,5,designed,2,grb,\r\n")
    assert got == ["cards.csv:3:6: error: card 'Slap' field `follows`: no card in the set opens 'grb' (did you mean "
                   "'grab'?); known openers: grab"], got


def test_import_needs_a_set_yaml_or_a_base(tmp_path: Path) -> None:
    sheet = tmp_path / "cards.csv"
    sheet.write_bytes(GOOGLE_CSV)
    res = CliRunner().invoke(main, ["import", "sheet", str(sheet), "--into", str(tmp_path / "new")])
    assert res.exit_code == 1
    assert "has no set.yaml: pass --base" in res.output
    assert not (tmp_path / "new").exists()


def test_bad_files_fail_cleanly(tmp_path: Path) -> None:
    (tmp_path / "latin1.csv").write_bytes("name,type,count,source\r\nCaf\xe9,basic,1,designed\r\n".encode("latin-1"))
    (tmp_path / "broken.xlsx").write_bytes(b"not a zip")
    (tmp_path / "cards.ods").write_bytes(b"")
    for name, words in (("latin1.csv", "save or download the sheet as 'CSV UTF-8'"),
                        ("broken.xlsx", "not a readable .xlsx workbook"),
                        ("cards.ods", "save the sheet as .csv (UTF-8) or .xlsx")):
        res = CliRunner().invoke(main, ["import", "sheet", str(tmp_path / name), "--into", str(tmp_path / "s"),
                                        "--base", "lunch"])
        assert res.exit_code == 1 and words in res.output and "Traceback" not in res.output, res.output
    res = CliRunner().invoke(main, ["export", "sheet", "--set", "lunch", "--out", str(tmp_path / "x.ods")])
    assert res.exit_code == 1 and "use .csv or .xlsx" in res.output
    assert not (tmp_path / "s").exists() and not (tmp_path / "x.ods").exists()


def test_every_card_field_has_a_column() -> None:
    from cardgen.loader.schema import CARD_PROPERTIES

    tops = {c.path[0] for c in COLUMNS}
    assert tops == set(CARD_PROPERTIES)
