"""Print layouts read back from the PDFs: duplex pairing, 3 mm bleed with gutters, gutterfold, offsets, safe zone."""

from __future__ import annotations

import dataclasses
import io
from functools import cache
from pathlib import Path

import pypdfium2
import pytest
from click.testing import CliRunner
from PIL import Image
from pypdf import PdfReader

from cardgen.checks import load_set
from cardgen.cli.build_cmd import command as build_command
from cardgen.model import CardSet
from cardgen.render import layout_data as L
from cardgen.render.face_layout import bundled
from cardgen.render.geometry import Rect, SheetLayout, back_cells
from cardgen.render.pen import PT
from cardgen.render.sheets import PrintOptions, cards_pdf, resolve_layout

BUNDLED = bundled()

SPECIMEN = load_set(Path(__file__).parent / "fixtures" / "sets" / "specimen")


def run(args: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(build_command, args)
    return result.exit_code, result.stderr


def raster(data: bytes, page: int, dpi: float) -> Image.Image:
    return pypdfium2.PdfDocument(data)[page].render(scale=dpi / 72).to_pil().convert("L")


def at(img: Image.Image, lay: SheetLayout, x: float, y: float, dpi: float) -> int:
    """Grey value at (x, y) mm, PDF coordinates (origin bottom-left)."""
    px = dpi / 25.4
    return int(img.getpixel((round(x * px), round((lay.paper.height - y) * px))))  # type: ignore[arg-type]


@cache
def few_cards() -> CardSet:
    """Six designs once each: less than a page, so some slots stay empty."""
    return dataclasses.replace(SPECIMEN, cards=tuple(dataclasses.replace(c, count=1) for c in SPECIMEN.cards[:6]))


def _has_card(img: Image.Image, lay: SheetLayout, trim: Rect, dpi: float) -> bool:
    return at(img, lay, trim.x + 5, trim.top - 2, dpi) < 245  # inside the colour band


def _has_back(img: Image.Image, lay: SheetLayout, cell: Rect, dpi: float) -> bool:
    return at(img, lay, cell.x + cell.w / 2 + 0.4, cell.y + 1.0, dpi) < 100  # the dark back fill, off the stripes


@pytest.mark.parametrize(("paper", "size", "duplex", "bleed"),
                         [("a4", "poker", "long", "0"), ("letter", "slip", "short", "3")])
def test_duplex_pairs_every_back_behind_its_front(tmp_path: Path, paper: str, size: str, duplex: str,
                                                  bleed: str) -> None:
    """Pair the pages of each file as a duplex printer does (1-2, 3-4, ...): the rules page has a blank
    reverse (the assembly page, or a blank one when the rules take two sides) and every card sheet has its
    own backs on its reverse, at the mirrored places."""
    code, err = run(["--set", "lunch", "--out", str(tmp_path), "--proof", "--backs", "--paper", paper, "--size", size,
                     "--duplex", duplex, "--bleed", bleed])
    assert code == 0, err
    opts = PrintOptions(paper=paper, size=size, backs=True, duplex=duplex, bleed=float(bleed))
    lay = resolve_layout(opts, bundled().face)
    dpi = 25
    for name, first_sheet in (("lunch-print.pdf", 2), ("lunch-cards.pdf", 0)):
        path = tmp_path / "lunch" / name
        data = path.read_bytes()
        pages = PdfReader(path).pages
        assert len(pages) % 2 == 0
        if first_sheet:
            assert "Rules at a glance" in pages[0].extract_text()
            assert "Making the deck" in pages[1].extract_text()  # the assembly page on the rules' reverse
        for front in range(first_sheet, len(pages), 2):
            assert "backs" not in pages[front].extract_text() and "backs" in pages[front + 1].extract_text()
            fimg, bimg = raster(data, front, dpi), raster(data, front + 1, dpi)
            fronts = [_has_card(fimg, lay, t, dpi) for t in lay.trims]
            backs = [_has_back(bimg, lay, c, dpi) for c in back_cells(lay, duplex)]  # type: ignore[arg-type]
            assert any(fronts) and fronts == backs


def _dark_runs(values: list[int]) -> list[float]:
    """Centres (in pixels) of runs of dark pixels along a scan line."""
    out, start = [], None
    for i, v in enumerate([*values, 255]):
        if v < 128 and start is None:
            start = i
        elif v >= 128 and start is not None:
            out.append((start + i - 1) / 2)
            start = None
    return out


@pytest.mark.parametrize(("paper", "size"),
                         [("a4", "poker"), ("letter", "poker"), ("letter", "slip"), ("a4", "bridge")])
def test_three_mm_bleed_read_back(paper: str, size: str) -> None:
    """A 3 mm bleed builds; each card's colour runs 3 mm past its cut, and cut marks sit on every cut line."""
    opts = PrintOptions(paper=paper, size=size, bleed=3.0, proof=True)
    pdf = cards_pdf(SPECIMEN, opts)
    lay = pdf.layout
    card = L.card_size(size)
    assert lay.per_page >= 4
    img = raster(pdf.data, 0, 300)
    px = img.width / lay.paper.width  # pdfium rounds the page to whole pixels: scale by what it drew
    py = img.height / lay.paper.height
    box = PdfReader(io.BytesIO(pdf.data)).pages[0].mediabox
    assert (float(box.width) * PT, float(box.height) * PT) == pytest.approx((lay.paper.width, lay.paper.height),
                                                                             abs=0.01)
    # the colour bands of the top row, measured along a scan line: they start and end 3 mm past the outer cuts
    t, last = lay.trims[0], lay.trims[lay.cols - 1]
    y = round((lay.paper.height - (t.top - 1.0)) * py)
    row = [int(img.getpixel((x, y))) for x in range(img.width)]  # type: ignore[arg-type]
    half = (255 + row[round((t.x + t.w / 2) * px)]) / 2  # half-way between paper and band: the edge
    left = next(x for x in range(img.width) if row[x] < half)
    right = next(x for x in range(img.width - 1, 0, -1) if row[x] < half)
    assert left / px == pytest.approx(t.x - 3.0, abs=0.1)
    assert (right + 1) / px == pytest.approx(last.right + 3.0, abs=0.1)
    # marks above the cards, one on each vertical cut line; each card measures its size between them
    mark_y = round((lay.paper.height - (lay.grid.top + 1.2)) * py)
    found = _dark_runs([int(img.getpixel((x, mark_y))) for x in range(img.width)])  # type: ignore[arg-type]
    assert [(x + 0.5) / px for x in found] == pytest.approx(list(lay.cut_xs), abs=0.1)
    assert [(b - a) / px for a, b in zip(found[::2], found[1::2], strict=True)] == pytest.approx(
        [card.width] * lay.cols, abs=0.1)
    # and beside them, on each horizontal cut line
    mark_x = round((lay.grid.x - 1.2) * px)
    found = _dark_runs([int(img.getpixel((mark_x, y))) for y in range(img.height)])  # type: ignore[arg-type]
    ys = sorted(lay.paper.height - (y + 0.5) / py for y in found)
    assert ys == pytest.approx(list(lay.cut_ys), abs=0.1)
    assert [b - a for a, b in zip(ys[::2], ys[1::2], strict=True)] == pytest.approx([card.height] * lay.rows, abs=0.1)


def test_gutterfold_read_back() -> None:
    """Every front has its back on the same page, mirrored across the dashed fold line."""
    opts = PrintOptions(paper="a4", size="poker", bleed=3.0, backs=True, layout="gutterfold")
    pdf = cards_pdf(few_cards(), opts)
    lay = pdf.layout
    assert pdf.pages == 2 and lay.per_page == 4 and lay.fold_x is not None
    dpi = 40
    seen = 0
    for page in range(pdf.pages):
        img = raster(pdf.data, page, dpi)
        assert img.width > img.height  # landscape
        fronts = [_has_card(img, lay, t, dpi) for t in lay.trims]
        backs = [_has_back(img, lay, b, dpi) for b in lay.folded_backs]
        assert fronts == backs
        seen += sum(fronts)
        for f, b in zip(lay.cells, lay.folded_backs, strict=True):
            assert lay.fold_x - f.right == pytest.approx(b.x - lay.fold_x, abs=1e-9)
    assert seen == len(few_cards().cards)
    text = PdfReader(io.BytesIO(pdf.data)).pages[0].extract_text()
    assert "backs" not in text


def test_offset_off_the_printable_area_is_refused(tmp_path: Path) -> None:
    code, err = run(["--set", "lunch", "--out", str(tmp_path), "--paper", "letter", "--size", "poker", "--backs",
                     "--offset", "10,10"])
    assert code == 1 and "pushes the card backs" in err and "margin of US Letter" in err
    assert not (tmp_path / "lunch").exists()
    code, err = run(["--set", "lunch", "--out", str(tmp_path), "--paper", "a4", "--size", "poker", "--backs",
                     "--offset", "3.5,-8", "--proof"])
    assert code == 1 and "X from -3.40 to 3.40 mm and Y from -8.80 to 8.80 mm" in err
    assert run(["--set", "lunch", "--out", str(tmp_path), "--paper", "a4", "--size", "poker", "--backs",
                "--offset", "3.3,-8.7", "--proof"])[0] == 0


def test_fewer_cards_a_page_is_said_when_building(tmp_path: Path) -> None:
    code, err = run(["--set", "lunch", "--out", str(tmp_path), "--proof", "--size", "poker", "--bleed", "3",
                     "--backs"])
    assert code == 0 and "4 cards a page (2 x 2)" in err and "9 do not fit" in err


@pytest.mark.parametrize("size", ["slip", "bridge"])
@pytest.mark.parametrize("set_name", ["classic", "lunch", "beer"])
def test_no_text_nearer_the_cut_than_the_safe_margin(set_name: str, size: str) -> None:
    """Every glyph of every bundled card, read back from the PDF, sits inside the face's safe margin."""
    pdf = cards_pdf(load_set(set_name), PrintOptions(proof=True, size=size))
    safe = BUNDLED.face.safe_margin
    assert safe >= 3.0
    doc = pypdfium2.PdfDocument(pdf.data)
    checked = 0
    for i in range(len(doc)):
        text = doc[i].get_textpage()
        for k in range(text.count_chars()):
            left, bottom, right, top = (v * PT for v in text.get_charbox(k, loose=False))
            if right <= left:
                continue  # spaces
            trim = next((t for t in pdf.layout.trims if t.x <= left <= t.right and t.y <= bottom <= t.top), None)
            if trim is None:
                continue  # the page footer
            inner = trim.inset(safe)
            checked += 1
            assert inner.x - 1e-3 <= left and right <= inner.right + 1e-3, (i, text.get_text_range(k, 1))
            assert inner.y - 1e-3 <= bottom and top <= inner.top + 1e-3, (i, text.get_text_range(k, 1))
    assert checked > 50 * len(load_set(set_name).cards)
