"""What a new user meets on the pages and around them, read back from the written files: builds in two languages
side by side in one folder, sheet labels that are the PDF's own page numbers, cardgen named as every PDF's
producer, the whole help from a bare `cardgen`, a README that lists every command and every `play` option, and a
home-made set's new cards listed under their type on the rules page, and flavour text clear of the footer band."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import click
import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from cardgen.checks import load_set
from cardgen.checks.language import in_language
from cardgen.cli.main import COMMAND_MODULES, main
from cardgen.paths import bundled_set_names, templates_dir
from cardgen.render.face_layout import bundled, read_face
from cardgen.render.geometry import sheet_layout
from cardgen.render.layout_data import card_size, default_size
from cardgen.render.layout_data import paper as paper_of
from cardgen.render.sheets import PrintOptions, card_sequence, cards_pdf, sheet_rules

README = Path(__file__).parent.parent / "README.md"
PT_MM = 25.4 / 72


def _build(out: Path, *args: str) -> None:
    result = CliRunner().invoke(main, ["build", "--out", str(out), *args])
    assert result.exit_code == 0, result.output


def test_german_and_english_builds_sit_side_by_side_in_one_folder(tmp_path: Path) -> None:
    _build(tmp_path, "--set", "lunch", "--proof")
    english = {p.name: p.read_bytes() for p in (tmp_path / "lunch").iterdir()}
    _build(tmp_path, "--set", "lunch", "--proof", "--lang", "de")
    files = {p.name: p.read_bytes() for p in (tmp_path / "lunch").iterdir()}
    assert set(files) == {f"lunch{lang}-{kind}.pdf" for lang in ("", "-de") for kind in ("cards", "rules", "print")}
    assert all(files[name] == data for name, data in english.items())  # the English build is left as it was
    german = PdfReader(tmp_path / "lunch" / "lunch-de-print.pdf")
    assert "lunch-de-print.pdf" in german.pages[1].extract_text()  # the assembly page names its own file
    assert "Seite" in german.pages[2].extract_text() and "page" in PdfReader(
        tmp_path / "lunch" / "lunch-print.pdf").pages[2].extract_text()
    result = CliRunner().invoke(main, ["rules", "--set", "lunch", "--lang", "de", "--out", str(tmp_path)])
    assert result.exit_code == 0 and (tmp_path / "lunch" / "lunch-de-rules.pdf").is_file()


@pytest.mark.parametrize("args", [(), ("--backs",), ("--backs", "--paper", "letter", "--duplex", "short"),
                                  ("--layout", "gutterfold", "--size", "poker")])
def test_every_sheet_label_is_its_pdf_page_number(tmp_path: Path, args: tuple[str, ...]) -> None:
    _build(tmp_path, "--set", "beer", *args)
    for name in ("beer-print.pdf", "beer-cards.pdf"):
        pdf = PdfReader(tmp_path / "beer" / name)
        labels = {i + 1: re.findall(r"page (\d+) of (\d+)", page.extract_text()) for i, page in enumerate(pdf.pages)}
        sheets = {n: found for n, found in labels.items() if found}
        assert len(sheets) >= len(pdf.pages) - 3, (name, labels)  # every sheet (the print file: not its first)
        assert all(found[-1] == (str(n), str(len(pdf.pages))) for n, found in sheets.items()), (name, sheets)


def test_every_pdf_names_cardgen_as_its_producer(tmp_path: Path) -> None:
    _build(tmp_path, "--set", "lunch", "--proof")
    result = CliRunner().invoke(main, ["rules", "--set", "beer", "--paper", "letter", "--out", str(tmp_path)])
    assert result.exit_code == 0
    pdfs = sorted(tmp_path.rglob("*.pdf"))
    assert len(pdfs) == 4
    for path in pdfs:
        info = PdfReader(path).metadata
        assert info is not None and str(info.producer).startswith("cardgen "), (path.name, info.producer)


def test_a_bare_cardgen_prints_the_whole_help() -> None:
    bare, helped = CliRunner().invoke(main, []), CliRunner().invoke(main, ["--help"])
    assert bare.exit_code == 0 and helped.exit_code == 0
    assert bare.output == helped.output
    assert "error" not in bare.output.lower() and all(name in bare.output for name in COMMAND_MODULES)


def _rows() -> list[str]:
    return [line.split("` |")[0] for line in README.read_text(encoding="utf-8").splitlines()
            if line.startswith("| `cardgen ")]


def test_the_readme_lists_every_command_and_every_play_option() -> None:
    rows = _rows()
    for name in COMMAND_MODULES:
        assert any(re.search(rf"`cardgen {re.escape(name)}( |`)", row) for row in rows), name
    play = main.get_command(click.Context(main), "play")
    assert play is not None
    row = next(r for r in rows if r.startswith("| `cardgen play "))
    for param in play.params:
        flags = [o for o in param.opts if o.startswith("--") and o != "--help"]
        assert not flags or flags[0] in row, flags[0]


def test_a_home_made_sets_new_cards_are_listed_under_their_type(tmp_path: Path) -> None:
    """Recess extends classic with events of its own: on the rules page's card table they join the events."""
    result = CliRunner().invoke(main, ["rules", "--set", "recess", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    text = " ".join(" ".join(p.extract_text() for p in PdfReader(tmp_path / "recess" / "recess-rules.pdf").pages)
                    .split())
    cs = load_set("recess")
    found = sorted((text.rfind(c.name), c.type) for c in cs.cards)
    assert all(at >= 0 for at, _ in found)
    runs = [key for key, _ in itertools.groupby(t for _, t in found)]
    assert len(runs) == len(set(runs)) == len(cs.types), runs  # each type's rows together
    assert text.rfind("Sharing Is Caring") < text.rfind("Humiliation")  # the new last event, before the next type


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("name", bundled_set_names())
def test_flavour_text_keeps_clear_of_the_footer_band(name: str, lang: str) -> None:
    """The lowest glyph of each card's flavour (read back from the sheet PDF's characters) stays 1 mm or more
    above its footer band: before, its descenders came within half a millimetre of it."""
    cs = in_language(load_set(name), lang)
    pdf = cards_pdf(cs, PrintOptions(proof=True))
    band = bundled().face.footer.height
    doc = pdfium.PdfDocument(pdf.data)
    checked = 0
    for i, card in enumerate(card_sequence(cs, True)):
        if not card.flavour:
            continue
        page, trim = doc[i // pdf.layout.per_page], pdf.layout.trims[i % pdf.layout.per_page]
        text = page.get_textpage()
        search = text.search(card.flavour.split()[-1])
        bottoms = []
        while (found := search.get_next()) is not None:
            boxes = [text.get_charbox(j) for j in range(found[0], found[0] + found[1])]
            left, bottom = min(b[0] for b in boxes) * PT_MM, min(b[1] for b in boxes) * PT_MM
            if trim.x <= left <= trim.right and trim.y <= bottom <= trim.top:
                bottoms.append(bottom)
        assert bottoms, card.name
        assert min(bottoms) - (trim.y + band) >= 1.0, (card.name, min(bottoms) - (trim.y + band))
        checked += 1
    assert checked or name == "classic"


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_scale_bar_label_stands_clear_of_the_cards(tmp_path: Path, paper: str) -> None:
    """Letter leaves a shallow margin under nine cards, and its scale bar carries inches too: the grid sits higher
    than centred (as far as the marks above allow) so the bar's label keeps clear of the bottom row's cut line
    (it stood 0.15 mm from it)."""
    _build(tmp_path, "--set", "lunch", "--proof", "--paper", paper)
    pdf = pdfium.PdfDocument(str(tmp_path / "lunch" / "lunch-cards.pdf"))
    page = pdf[0]
    text = page.get_textpage()
    found = text.search("100 %").get_next()
    assert found is not None
    label_top = max(text.get_charbox(i)[3] for i in range(found[0], found[0] + found[1])) * PT_MM
    grid = sheet_layout(paper_of(paper), card_size(default_size()), 0.0, sheet_rules(bundled().face)).grid
    assert grid.y - label_top >= 1.5, (grid.y, label_top)


def test_a_full_layout_written_before_the_footer_room_still_reads(tmp_path: Path) -> None:
    """`footer_room` is the one sheet key a layout that gives every key (`extends: none`) may leave out: one
    written before it existed keeps the footer's least depth, and its sheets stay as they were."""
    text = (templates_dir() / "layout" / "face.yaml").read_text(encoding="utf-8")
    older = re.sub(r"\n  footer_room: [^\n]*\n(?: {20,}#[^\n]*\n)*", "\n", text)
    assert "footer_room" not in older and older != text
    (tmp_path / "face.yaml").write_text(older, encoding="utf-8")
    face = read_face(tmp_path / "face.yaml")
    assert face.sheet.footer_room == face.sheet.footer_min_room
    assert sheet_rules(face).footer_room < sheet_rules(bundled().face).footer_room
