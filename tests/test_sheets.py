"""Card sheets read back from the PDF: page sizes, names, embedded fonts, a measured card, mirrored backs."""

from __future__ import annotations

import dataclasses
import io
import itertools
import re
from functools import cache
from pathlib import Path
from typing import Any

import pypdfium2
import pytest
from PIL import Image, ImageOps
from pypdf import PdfReader

from cardgen.checks import load_set
from cardgen.model import CardSet
from cardgen.paths import bundled_set_names
from cardgen.render.face_layout import bundled
from cardgen.render.geometry import back_cells, sheet_layout
from cardgen.render.layout_data import card_size, paper
from cardgen.render.pen import MM
from cardgen.render.sheets import CardCopies, PrintOptions, cards_pdf, sheet_rules

BASE14 = {"Helvetica", "Times-Roman", "Courier", "Symbol", "ZapfDingbats", "Helvetica-Bold", "Times-Bold",
          "Courier-Bold", "Helvetica-Oblique", "Times-Italic", "Courier-Oblique", "Helvetica-BoldOblique",
          "Times-BoldItalic", "Courier-BoldOblique"}

# A small fixed set exercising every part of a card face (a YAML fixture, loaded like any set).
SPECIMEN = load_set(Path(__file__).parent / "fixtures" / "sets" / "specimen")


@cache
def lunch() -> CardSet:
    return load_set("lunch")


@cache
def lunch_proof(paper_name: str) -> bytes:
    return cards_pdf(lunch(), PrintOptions(paper=paper_name, size="poker", proof=True)).data


@pytest.mark.parametrize(("pname", "size_pt"), [("letter", (612.0, 792.0)), ("a4", (210 * MM, 297 * MM))])
def test_page_size_exact(pname: str, size_pt: tuple[float, float]) -> None:
    reader = PdfReader(io.BytesIO(lunch_proof(pname)))
    assert len(reader.pages) == 4  # 30 designs, one of each
    for page in reader.pages:
        box = page.mediabox
        assert float(box.width) == pytest.approx(size_pt[0], abs=0.01)
        assert float(box.height) == pytest.approx(size_pt[1], abs=0.01)


def _words(s: str) -> str:
    return re.sub(r"\s+", " ", s)


def test_every_card_name_in_the_text() -> None:
    reader = PdfReader(io.BytesIO(lunch_proof("a4")))
    text = _words(" ".join(page.extract_text() for page in reader.pages))
    missing = [c.name for c in lunch().cards if c.name not in text]
    assert not missing


def test_every_font_embedded_no_base14() -> None:
    reader = PdfReader(io.BytesIO(lunch_proof("letter")))
    seen = 0
    for page in reader.pages:
        fonts: Any = page["/Resources"]["/Font"]  # type: ignore[index]
        for ref in fonts.values():
            font = ref.get_object()
            base = str(font["/BaseFont"]).lstrip("/")
            assert base.split("+")[-1] not in BASE14, base
            if font["/Subtype"] == "/Type0":
                font = font["/DescendantFonts"][0].get_object()
            descriptor = font["/FontDescriptor"].get_object()
            assert "/FontFile2" in descriptor, f"{base} is not embedded"
            seen += 1
    assert seen >= 3


def _darkness_profile(img: Image.Image, box: tuple[int, int, int, int], along_x: bool) -> list[float]:
    """Mean darkness (0 white .. 255 black) of each column (along_x) or row of `box`."""
    region = ImageOps.invert(img.crop(box))
    w, h = region.size
    flat = region.resize((w, 1) if along_x else (1, h), Image.Resampling.BOX)
    return [float(v) for v in flat.tobytes()]


def _thin_lines(profile: list[float], px_per_mm: float) -> list[float]:
    """Sub-pixel centres (px) of thin, strongly dark runs: drawn lines, not filled boxes or text."""
    out: list[float] = []
    i = 0
    while i < len(profile):
        if profile[i] < 40:
            i += 1
            continue
        j = i
        while j < len(profile) and profile[j] >= 40:
            j += 1
        run = profile[i:j]
        if max(run) >= 180 and (j - i) <= 0.7 * px_per_mm:
            out.append(sum((i + k + 0.5) * d for k, d in enumerate(run)) / sum(run))
        i = j
    return out


def test_card_frame_measures_poker_size_at_300_dpi() -> None:
    # light type colours so the thin trim lines stand out from the colour bands
    light = dataclasses.replace(SPECIMEN, types={k: dataclasses.replace(t, colour="#E6E6E6")
                                                 for k, t in SPECIMEN.types.items()})
    pdf = cards_pdf(light, PrintOptions(paper="letter", size="poker", proof=True))
    dpi = 300
    img = pypdfium2.PdfDocument(pdf.data)[0].render(scale=dpi / 72).to_pil().convert("L")
    px = dpi / 25.4
    trim = pdf.layout.trims[4]  # the centre card
    top_px = (279.4 - trim.top) * px
    # columns across the whole width, averaged over rows inside the centre card
    cols = _darkness_profile(img, (0, round(top_px + 20 * px), img.width, round(top_px + 80 * px)), True)
    xs = _thin_lines(cols, px)
    assert len(xs) == 4, xs
    widths = [(b - a) / px for a, b in itertools.pairwise(xs)]
    # rows down the whole height, averaged over columns inside the centre column of cards
    left_px = trim.x * px
    rows = _darkness_profile(img, (round(left_px + 40 * px), 0, round(left_px + 60 * px), img.height), False)
    ys = _thin_lines(rows, px)
    assert len(ys) == 4, ys
    heights = [(b - a) / px for a, b in itertools.pairwise(ys)]
    for w in widths:
        assert w == pytest.approx(63.5, abs=0.1)
    for h in heights:
        assert h == pytest.approx(88.9, abs=0.1)
    assert xs[0] / px == pytest.approx(12.7, abs=0.1)  # Letter: 1/2 in side margins


def _four_cards() -> CardSet:
    cards = tuple(dataclasses.replace(c, count=1) for c in SPECIMEN.cards[:4])
    return dataclasses.replace(SPECIMEN, cards=cards)


@pytest.mark.parametrize(("duplex", "expected"), [("long", {0, 1, 2, 5}), ("short", {6, 7, 8, 3})])
def test_backs_mirrored(duplex: str, expected: set[int]) -> None:
    opts = PrintOptions(paper="a4", size="slip", backs=True, duplex=duplex)
    pdf = cards_pdf(_four_cards(), opts)
    doc = pypdfium2.PdfDocument(pdf.data)
    assert len(doc) == 2
    dpi = 30
    img = doc[1].render(scale=dpi / 72).to_pil().convert("L")
    px = dpi / 25.4
    filled = set()
    for i, cell in enumerate(pdf.layout.cells):
        cx, cy = (cell.x + 8) * px, (297 - cell.top + 8) * px  # near the cell's top-left corner
        if img.getpixel((round(cx), round(cy))) < 100:
            filled.add(i)
    assert filled == expected
    # the fronts are where the geometry says
    front = doc[0].render(scale=dpi / 72).to_pil().convert("L")
    t = pdf.layout.cells[3]
    assert front.getpixel((round((t.x + 30) * px), round((297 - t.top + 5) * px))) < 250


def test_back_offset_moves_backs() -> None:
    base = PrintOptions(paper="a4", size="slip", backs=True)
    plain = cards_pdf(_four_cards(), base)
    shifted = cards_pdf(_four_cards(), dataclasses.replace(base, offset=(3.0, 0.0)))
    dpi = 50
    px = dpi / 25.4
    cell = back_cells(plain.layout, "long")[0]
    y = round((297 - cell.top + 20) * px)
    a = pypdfium2.PdfDocument(plain.data)[1].render(scale=dpi / 72).to_pil().convert("L")
    b = pypdfium2.PdfDocument(shifted.data)[1].render(scale=dpi / 72).to_pil().convert("L")
    assert cell.right == pytest.approx(max(c.right for c in plain.layout.cells))  # long edge: top-left goes right
    beyond = round((cell.right + 1.5) * px)  # just outside the grid, inside the 3 mm shift
    assert a.getpixel((beyond, y)) > 200 and b.getpixel((beyond, y)) < 100


def test_counts_and_proof() -> None:
    full = cards_pdf(lunch(), PrintOptions())
    assert full.pages == -(-lunch().total // 9)
    proof = cards_pdf(lunch(), PrintOptions(proof=True))
    assert proof.pages == -(-len(lunch().cards) // 9)
    text = PdfReader(io.BytesIO(full.data)).pages[0].extract_text()
    first = lunch().cards[0]
    assert _words(text).count(first.name) >= min(first.count, 9)


def test_beer_pages() -> None:
    beer = load_set("beer")
    assert beer.total == 110
    assert len(PdfReader(io.BytesIO(cards_pdf(beer, PrintOptions()).data)).pages) == 13
    assert len(PdfReader(io.BytesIO(cards_pdf(beer, PrintOptions(backs=True)).data)).pages) == 26


def test_page_footer_and_scale_bar() -> None:
    data = cards_pdf(lunch(), PrintOptions(paper="letter", size="poker")).data
    reader = PdfReader(io.BytesIO(data))
    n = len(reader.pages)
    text = _words(reader.pages[1].extract_text())
    assert f"page 2 of {n}" in text and "lunch" in text and "50 mm" in text


def test_layout_matches_geometry() -> None:
    pdf = cards_pdf(lunch(), PrintOptions(paper="a4", size="bridge", bleed=1.0, proof=True))
    assert pdf.layout == sheet_layout(paper("a4"), card_size("bridge"), 1.0, sheet_rules(bundled().face))


@pytest.mark.parametrize("name", bundled_set_names())
def test_copies_replayed_are_the_bytes_of_copies_drawn(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A sheet draws each design once and repeats its operators for the other copies; the file must be the
    one drawing every copy writes, for plain, duplex-backs, bled and gutterfold sheets."""
    cs = load_set(name)
    for opts in (PrintOptions(), PrintOptions(backs=True, size="poker", paper="letter", duplex="short"),
                 PrintOptions(layout="gutterfold", backs=True, bleed=3)):
        replayed = cards_pdf(cs, opts)
        monkeypatch.setattr(CardCopies, "enabled", False)
        drawn = cards_pdf(cs, opts)
        monkeypatch.undo()
        assert replayed.data == drawn.data and replayed.draw_counts == drawn.draw_counts, opts
