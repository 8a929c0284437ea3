"""Unbounded work stopped while it happens, crashes turned into messages, and the messages a
careless designer gets. Every command runs bounded in time and memory (tests/hostile.py)."""

from __future__ import annotations

import io
import os
import shutil
import zipfile
from pathlib import Path

import pytest
from hostile import cardgen, clean_failure, extending_set, png_header
from openpyxl import Workbook
from pypdf import PdfReader

from cardgen.checks import load_set
from cardgen.errors import Diagnostic, SetError, report_lines
from cardgen.sheets import import_sheet
from cardgen.sheets.read import MAX_SHEET_BYTES, MAX_UNPACKED_BYTES, read_table, sniff_delimiter
from cardgen.sim.runner import usable_jobs

HEADER = "name,type,count,source,damage"


def _xlsx(rows: list[list[object]]) -> bytes:
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    for row in rows:
        ws.append(row)
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def _replace_part(data: bytes, name: str, body: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            dst.writestr(info.filename, body if info.filename == name else src.read(info.filename))
    return out.getvalue()


def _sheet_errors(path: Path, tmp_path: Path) -> str:
    run = cardgen("import", "sheet", str(path), "--into", "set", "--base", "lunch", cwd=tmp_path, timeout=60)
    assert clean_failure(run), run.err
    assert not (tmp_path / "set").exists()
    return run.err


# --- 5. XLSX bombs and broken XML, CSV devices and FIFOs --------------------------------------------------------


def test_xlsx_zip_bomb_is_refused_from_its_directory(tmp_path: Path) -> None:
    good = _xlsx([HEADER.split(","), ["Jab", "basic", 2, "designed", 1]])
    bomb = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(good)) as src, zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            dst.writestr(info.filename, src.read(info.filename))
        with dst.open("xl/padding.xml", "w") as part:  # inflates past the limit, a few hundred kB packed
            chunk = b" " * 1_000_000
            for _ in range(MAX_UNPACKED_BYTES // len(chunk) + 2):
                part.write(chunk)
    (tmp_path / "bomb.xlsx").write_bytes(bomb.getvalue())
    assert len(bomb.getvalue()) < 1_000_000
    err = _sheet_errors(tmp_path / "bomb.xlsx", tmp_path)
    assert "unpacks to" in err and "(a zip bomb?)" in err


@pytest.mark.parametrize(("xml", "said"), [
    (b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
     b'<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><worksheet>&c;</worksheet>', "declares XML entities or a DTD"),
    (b'<?xml version="1.0"?><worksheet>&undefined;</worksheet>', "is broken XML"),
    (b"<worksheet><sheetData><row>", "is broken XML"),
    (b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><worksheet>&e;</worksheet>',
     "declares XML entities or a DTD"),
])
def test_xlsx_with_entities_or_broken_xml_is_refused(tmp_path: Path, xml: bytes, said: str) -> None:
    good = _xlsx([HEADER.split(","), ["Jab", "basic", 2, "designed", 1]])
    (tmp_path / "bad.xlsx").write_bytes(_replace_part(good, "xl/worksheets/sheet1.xml", xml))
    err = _sheet_errors(tmp_path / "bad.xlsx", tmp_path)
    assert "xl/worksheets/sheet1.xml" in err and said in err


@pytest.mark.parametrize("kind", ["dev-zero", "fifo", "oversized"])
def test_csv_that_is_a_device_a_fifo_or_too_big_is_refused_without_reading_it(tmp_path: Path, kind: str) -> None:
    sheet = tmp_path / "cards.csv"
    if kind == "dev-zero":
        sheet.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(sheet)
    else:
        with sheet.open("wb") as fh:  # sparse: costs no disk
            fh.truncate(MAX_SHEET_BYTES + 1)
    err = _sheet_errors(sheet, tmp_path)
    want = {"dev-zero": "is a device, not a regular file", "fifo": "is a FIFO (named pipe), not a regular file",
            "oversized": f"over the limit of {MAX_SHEET_BYTES:,} bytes"}[kind]
    assert want in err


# --- 6. cells beyond the header, and a header of 10,000 unknown columns -------------------------------------------


def test_cells_without_a_header_are_reported_not_dropped(tmp_path: Path) -> None:
    (tmp_path / "wide.csv").write_text(HEADER + "\r\nJab,basic,2,designed,1" + ",x" * 10_000 + "\r\n")
    err = _sheet_errors(tmp_path / "wide.csv", tmp_path)
    assert "row 2: 10,000 cells under no field name (from column F)" in err


def test_a_header_of_10000_unknown_columns_gives_a_few_lines(tmp_path: Path) -> None:
    (tmp_path / "head.csv").write_text(HEADER + "".join(f",junk{i}" for i in range(10_000)) + "\r\n"
                                       + "Jab,basic,2,designed,1\r\n")
    err = _sheet_errors(tmp_path / "head.csv", tmp_path)
    lines = err.strip().splitlines()
    assert len(lines) <= 13, lines[:20]
    assert sum("unknown field 'junk" in line for line in lines) == 10
    assert "and 9,990 more unknown fields in the header" in err


def test_any_report_is_capped_with_how_many_more() -> None:
    diags = [Diagnostic("x.yaml", i, 1, f"problem {i}") for i in range(1, 251)]
    lines = report_lines(diags)
    assert len(lines) == 101 and lines[-1].startswith("... and 150 more (150 errors, 0 warnings) not shown")


# --- 7. icons: the limits and the words of art ---------------------------------------------------------------------


def _icon(tmp_path: Path, name: str, data: bytes | None) -> Path:
    folder = extending_set(tmp_path / "ic", "ic", extra=f"icons: {{dodge: icons/{name}}}\n")
    (folder / "icons").mkdir(exist_ok=True)
    if data is None:
        os.mkfifo(folder / "icons" / name)
    else:
        (folder / "icons" / name).write_bytes(data)
    return folder


@pytest.mark.parametrize(("name", "data", "said"), [
    ("dodge.svg", b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><path d="M0 0'
     + b" L1 1" * 10_000_000 + b'"/></svg>', "over the limit of 250,000 bytes"),
    ("dodge.png", png_header(30_000, 30_000), "declares more than 40,000,000 pixels; refused"),
    ("dodge.png", png_header(12_000, 12_000), "is 12000x12000 pixels, over the 40,000,000-pixel limit"),
    ("dodge.svg", None, "is a FIFO (named pipe), not a regular file"),
])
def test_icon_limits_and_messages(tmp_path: Path, name: str, data: bytes | None, said: str) -> None:
    folder = _icon(tmp_path, name, data)
    run = cardgen("validate", "--no-sim", "--set", str(folder), cwd=tmp_path, timeout=60)
    assert clean_failure(run) and said in run.err, run.err
    assert "DecompressionBomb" not in run.err and "did you mean" not in run.err
    assert run.cpu < 30


def test_a_png_icon_and_card_art_get_the_same_words(tmp_path: Path) -> None:
    folder = _icon(tmp_path, "dodge.png", png_header(30_000, 30_000))
    shutil.copy(folder / "icons" / "dodge.png", folder / "big.png")
    (folder / "set.yaml").write_text((folder / "set.yaml").read_text() + "cards:\n  - {name: Painted, type: basic, "
                                     "count: 1, damage: 1, source: designed, art: big.png}\n")
    with pytest.raises(SetError) as info:
        load_set(folder)
    icon, art = (next(d.message for d in info.value.diagnostics if key in d.message) for key in ("icons:", "`art`"))
    assert icon.endswith("image 'icons/dodge.png' declares more than 40,000,000 pixels; refused")
    assert art.endswith("image 'big.png' declares more than 40,000,000 pixels; refused")


# --- 8. number options: finite and in range --------------------------------------------------------------------------


@pytest.mark.parametrize("args", [
    ["build", "--set", "lunch", "--bleed", "nan"], ["build", "--set", "lunch", "--gap", "inf"],
    ["export", "print-shop", "--set", "lunch", "--dpi", "nan"], ["export", "print-shop", "--set", "lunch",
                                                                 "--bleed", "nan"],
    ["export", "tts", "--set", "lunch", "--dpi", "nan"], ["validate", "--set", "lunch", "--sim-seconds", "nan"],
    ["export", "print-shop", "--set", "lunch", "--size", "1000x1000"],
    ["export", "print-shop", "--set", "lunch", "--size", "250x250", "--dpi", "1200"],
    ["compare", "lunch", "lunch", "--alpha", "nan"], ["compare", "lunch", "lunch", "--min-effect", "inf"],
])
def test_number_options_are_finite_and_bounded(tmp_path: Path, args: list[str]) -> None:
    run = cardgen(*args, "--out", "out", cwd=tmp_path, timeout=60) if args[0] in ("build", "export") else \
        cardgen(*args, cwd=tmp_path, timeout=60)
    assert clean_failure(run) and run.err.startswith("error: "), run.err
    assert run.cpu < 30 and not (tmp_path / "out").exists()


def test_preview_refuses_more_pixels_than_it_can_hold(tmp_path: Path) -> None:
    run = cardgen("preview", "--set", "lunch", "--dpi", "1200", "--out", "out", cwd=tmp_path)
    assert clean_failure(run) and "over the limit of 150 million; use --dpi 622 or less" in run.err, run.err
    assert run.cpu < 30 and not (tmp_path / "out").exists()


# --- 9. simulate: games, jobs and budget bounded ---------------------------------------------------------------------


@pytest.mark.parametrize(("args", "said"), [
    (["--games", "1000000000000"], "is not in the range 1<=x<=10000000"),
    (["--agent", "search", "--budget", "1000000000000"], "over the limit of 100,000 iterations"),
    (["--agent", "search", "--budget", "99999999999ms"], "over the limit of 100,000 iterations or 60,000ms"),
])
def test_simulate_refuses_unbounded_work(tmp_path: Path, args: list[str], said: str) -> None:
    run = cardgen("simulate", "--set", "lunch", *args, cwd=tmp_path, timeout=60)
    assert clean_failure(run) and said in run.err, run.err
    assert run.cpu < 30


def test_jobs_are_capped_at_the_cpu_count_and_said_so(tmp_path: Path) -> None:
    cpus = os.cpu_count() or 1
    assert usable_jobs(1000) == cpus and usable_jobs(1) == 1
    assert usable_jobs(1000, "tcp://scheduler:8786") == 1000  # a remote cluster's workers are its own
    run = cardgen("simulate", "--set", "lunch", "--games", "10", "--jobs", "1000", cwd=tmp_path, timeout=120)
    assert run.code == 0, run.err
    assert f"note: --jobs 1000 capped at {cpus}, the number of CPUs here" in run.err


# --- 10. a long name without spaces on the rules page -----------------------------------------------------------------


def test_a_long_unbreakable_name_wraps_in_the_rules_page_table(tmp_path: Path) -> None:
    name = '=HYPERLINK("http://x","a")'
    folder = extending_set(tmp_path / "long", "long", f"  - {{name: '{name}', type: basic, count: 1, damage: 1, "
                                                      "source: designed}\n")
    run = cardgen("validate", "--no-sim", "--set", str(folder), cwd=tmp_path)
    assert run.code == 0, run.err
    run = cardgen("rules", "--set", str(folder), "--out", "rules.pdf", cwd=tmp_path)
    assert run.code == 0, run.err
    text = "".join(PdfReader(tmp_path / "rules.pdf").pages[0].extract_text().split())
    # a name too wide for its column breaks at a hyphenation point, with a hyphen: the name has none of its own
    assert "=HYPERLINK" in text and '"http://x"' in text.replace("\n", "").replace("-", "")


# --- 11. a 400-set extends chain; a set nothing can hurt in -----------------------------------------------------------


def test_a_long_extends_chain_is_refused_with_a_message(tmp_path: Path) -> None:
    for i in range(400):
        extending_set(tmp_path / f"s{i}", f"s{i}")
        if i:
            (tmp_path / f"s{i}" / "set.yaml").write_text(f"name: s{i}\ntitle: S\nextends: ../s{i - 1}\n")
    run = cardgen("validate", "--no-sim", "--set", "s399", cwd=tmp_path, timeout=60)
    assert clean_failure(run), run.err[-2000:]
    assert "extends: a chain of more than 16 sets (s399 -> s398 -> s397 -> ..." in run.err


CALM = """name: calm
title: Calm
deck_size: 60
rules: {life: 10, hand_size: 3, turn_cap: 100000}
types:
  event: {label: Event, colour: "#F07A18", role: event}
  heal: {label: Snack, colour: "#2E9E4F", role: heal}
cards:
  - {name: Daydream, type: event, count: 30, draw: 1, source: designed}
  - {name: Nap, type: heal, count: 30, heal: {amount: 1}, source: designed}
"""


def test_build_warns_of_what_validate_refuses_for_play(tmp_path: Path) -> None:
    (tmp_path / "calm").mkdir()
    (tmp_path / "calm" / "set.yaml").write_text(CALM)
    assert clean_failure(cardgen("validate", "--no-sim", "--set", "./calm", cwd=tmp_path))
    run = cardgen("build", "--set", "./calm", "--proof", cwd=tmp_path)
    assert run.code == 0, run.err
    assert "warning: no card of the set can ever take life from a player" in run.err
    assert "warning: calm: built, but `cardgen validate` refuses it for the 2 problems above" in run.err


# --- 12. every problem at once ----------------------------------------------------------------------------------------


def test_the_loader_reports_type_and_number_errors_in_one_pass(tmp_path: Path) -> None:
    folder = extending_set(tmp_path / "stage", "stage", '  - {name: Oops, type: weapn, count: two, damage: "lots", '
                                                         "source: designed}\n")
    with pytest.raises(SetError) as info:
        load_set(folder)
    said = [d.message for d in info.value.diagnostics]
    assert any("`type`: unknown card type 'weapn'" in m and "did you mean 'weapon'?" in m for m in said), said
    assert any("`count`: expected a whole number, got text 'two'" in m for m in said)
    assert any("`damage`: expected a whole number or a list of strikes" in m for m in said)


def test_the_sheet_import_reports_them_in_one_pass_too(tmp_path: Path) -> None:
    sheet = tmp_path / "cards.csv"
    sheet.write_text(HEADER + "\r\nOops,weapn,two,designed,lots\r\nFine,basic,2,designed,1\r\n")
    with pytest.raises(SetError) as info:
        import_sheet(sheet, extending_set(tmp_path / "into", "into"), shown="cards.csv")
    got = [str(d) for d in info.value.diagnostics]
    assert got == [
        "cards.csv:2:2: error: card 'Oops' field `type`: unknown card type 'weapn'; expected one of basic, defense, "
        "weapon, specialty (did you mean 'weapon'?)",
        "cards.csv:2:3: error: card 'Oops' field `count` (column C): expected a whole number, got 'two'",
        "cards.csv:2:5: error: card 'Oops' field `damage` (column E): expected a whole number or strikes like "
        "'4 + 3', got 'lots'"]


# --- 13. a card size too small ----------------------------------------------------------------------------------------


def test_a_too_small_card_size_is_said_with_the_smallest_that_works(tmp_path: Path) -> None:
    import re

    for size in ("30x40", "0.0001x0.0001"):
        run = cardgen("build", "--set", "lunch", "--proof", "--size", size, "--out", "out", cwd=tmp_path)
        assert clean_failure(run) and "is too small for the card faces" in run.err, run.err
        assert "Love Tap" not in run.err and "Jab" not in run.err
    m = re.search(r"fits every card of lunch is about ([\d.]+) x ([\d.]+) mm", run.err)
    assert m is not None, run.err
    run = cardgen("build", "--set", "lunch", "--proof", "--size", f"{m[1]}x{m[2]}", "--out", "out", cwd=tmp_path)
    assert run.code == 0, run.err  # the size it names does build


# --- 14. messages in the designer's words ----------------------------------------------------------------------------


def test_yaml_indentation_and_yes_are_said_plainly(tmp_path: Path) -> None:
    folder = extending_set(tmp_path / "y", "y", "  - name: A\n    type: basic\n    count: 1\n    damage: 1\n"
                                                "    source: designed\n  count: 3\n")
    run = cardgen("validate", "--no-sim", "--set", str(folder), cwd=tmp_path)
    assert clean_failure(run) and "the indentation is off here" in run.err and "<block" not in run.err, run.err
    extending_set(folder, "y", "  - {name: A, type: basic, count: 1, damage: 1, source: designed, stuns: yes}\n")
    run = cardgen("validate", "--no-sim", "--set", str(folder), cwd=tmp_path)
    assert "field `stuns`: expected a whole number, got 'yes' (YAML reads yes as true)" in run.err, run.err


def test_a_missing_set_folder_is_a_plain_error_line(tmp_path: Path) -> None:
    run = cardgen("validate", "--set", "./nonexist", cwd=tmp_path)
    assert clean_failure(run) and run.err.splitlines()[0] == "error: set folder 'nonexist' does not exist", run.err


# --- 15. two folders, one set name ------------------------------------------------------------------------------------


def test_a_copied_set_folder_is_warned_about(tmp_path: Path) -> None:
    extending_set(tmp_path / "homebrew", "homebrew")
    shutil.copytree(tmp_path / "homebrew", tmp_path / "homebrew2")
    run = cardgen("validate", "--no-sim", "--set", "./homebrew2", cwd=tmp_path)
    assert run.code == 0
    assert "warning: homebrew2 and homebrew are both set 'homebrew': their builds share <out>/homebrew/" in run.err
    run = cardgen("compare", "./homebrew", "./homebrew2", "--games", "4", "--players", "2", cwd=tmp_path)
    assert "warning: A (./homebrew) and B (./homebrew2) are both set 'homebrew'" in run.err, run.err
    lone = extending_set(tmp_path / "alone" / "mine", "mine")
    assert "warning" not in cardgen("validate", "--no-sim", "--set", str(lone), cwd=tmp_path).err


# --- 16. did-you-mean, Ctrl-C in --watch (tests/test_watch.py), --set help, completion --------------------------------


def test_unknown_commands_get_a_suggestion(tmp_path: Path) -> None:
    run = cardgen("buidl", cwd=tmp_path)
    assert clean_failure(run) and "no such command 'buidl' (did you mean 'build'?)" in run.err
    run = cardgen("help", cwd=tmp_path)
    assert clean_failure(run) and "the help is `cardgen --help`" in run.err


def test_set_help_says_whether_the_set_is_required(tmp_path: Path) -> None:
    for command, word in (("build", "Default: each bundled set"), ("validate", "Default: each bundled set"),
                          ("preview", "Default: each bundled set"), ("list", "Required:"),
                          ("simulate", "Required:"), ("rules", "Required:")):
        text = " ".join(cardgen(command, "--help", cwd=tmp_path).out.split())
        assert word in text, (command, text)


def test_shell_completion_is_click_s_own(tmp_path: Path) -> None:
    import subprocess
    import sys

    env = dict(os.environ, _CARDGEN_COMPLETE="bash_complete", COMP_WORDS="cardgen bu", COMP_CWORD="1")
    res = subprocess.run([sys.executable, "-c", "import sys; from cardgen.cli.entry import run; sys.argv[0] = "
                          "'cardgen'; run()"], env=env, capture_output=True, text=True, timeout=60)
    assert "plain,build" in res.stdout.splitlines()


# --- 17. round trip of a home-made set; semicolons; no absolute schema path -------------------------------------------


def test_a_new_set_round_trips_through_a_sheet(tmp_path: Path) -> None:
    assert cardgen("new", "hb", cwd=tmp_path).code == 0
    set_file = tmp_path / "hb" / "set.yaml"
    set_file.write_text(set_file.read_text() + "override:\n  - {name: Jab, count: 6}\n")
    for fmt in ("csv", "xlsx"):
        run = cardgen("export", "sheet", "--set", "./hb", "--out", f"hb.{fmt}", cwd=tmp_path)
        assert run.code == 0 and "2 designs, 7 cards" in run.out, run.out
        table = read_table(tmp_path / f"hb.{fmt}", f"hb.{fmt}")
        assert [r[0] for r in table.rows] == ["name", "Jab", "Double Noogie"]  # own and overridden, no others
    text = (tmp_path / "hb.csv").read_text().replace("Jab,basic,6,", "Jab,basic,7,")
    (tmp_path / "hb.csv").write_text(text.replace("Double Noogie,basic,1,", "Double Noogie,basic,3,"))
    run = cardgen("import", "sheet", "hb.csv", "--into", "hb", cwd=tmp_path)
    assert run.code == 0, run.err
    cs = load_set(tmp_path / "hb")
    assert cs.card("Jab").count == 7 and cs.card("Double Noogie").count == 3
    assert len(cs.cards) == len(load_set("lunch").cards) + 1
    assert "override:\n  - {name: Jab, count: 7}\n" in set_file.read_text()
    assert "# override:" in set_file.read_text()  # the designer's comments stay
    run = cardgen("import", "sheet", "hb.xlsx", "--into", "hb", cwd=tmp_path)  # and again: no duplicates
    assert run.code == 0, run.err
    assert load_set(tmp_path / "hb").card("Jab").count == 6
    base_jab = load_set("lunch").card("Jab").count  # a row back at its base card's values: no override left
    (tmp_path / "hb.csv").write_text(text.replace("Jab,basic,7,", f"Jab,basic,{base_jab},"))
    assert cardgen("import", "sheet", "hb.csv", "--into", "hb", cwd=tmp_path).code == 0
    assert "\noverride:" not in set_file.read_text() and "# override:" in set_file.read_text()
    assert load_set(tmp_path / "hb").card("Jab").count == base_jab


def test_semicolon_csv_is_read(tmp_path: Path) -> None:
    assert sniff_delimiter("name;type;count;source;damage\r\nJab;basic;2;designed;1\r\n") == ";"
    assert sniff_delimiter("name,type,count\r\n") == "," and sniff_delimiter("name\r\n") == ","
    (tmp_path / "semi.csv").write_text("name;type;count;source;damage;flavour\r\nWet Willy;basic;12;designed;1;"
                                       '"Oh, no; not again"\r\n')
    import_sheet(tmp_path / "semi.csv", tmp_path / "wet", base="lunch")
    card = load_set(tmp_path / "wet").card("Wet Willy")
    assert card.count == 12 and card.flavour == "Oh, no; not again"


def test_imported_files_name_the_schema_relatively(tmp_path: Path) -> None:
    (tmp_path / "cards.csv").write_text(HEADER + "\r\nWet Willy,basic,12,designed,1\r\n")
    import_sheet(tmp_path / "cards.csv", tmp_path / "wet", base="lunch")
    for name in ("set.yaml", "cards.yaml"):
        first = (tmp_path / "wet" / name).read_text().splitlines()[0]
        assert first == "# yaml-language-server: $schema=card-set.schema.json"
    assert (tmp_path / "wet" / "card-set.schema.json").is_file()
    assert "file://" not in "".join(p.read_text() for p in (tmp_path / "wet").glob("*.yaml"))
