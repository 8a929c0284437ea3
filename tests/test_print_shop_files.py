"""Print-shop files read back: device CMYK throughout, PDF/X-1a:2003, shop presets, page orders."""

from __future__ import annotations

import csv
import io
from functools import cache
from pathlib import Path

import pypdfium2
import pytest
from click.testing import CliRunner
from PIL import Image
from pypdf import PdfReader

from cardgen.checks import load_set
from cardgen.cli.export_cmd import command as export_command
from cardgen.export.print_shop import export_print_shop, shop_pdf
from cardgen.export.shops import shop
from cardgen.render.face_layout import bundled
from cardgen.render.inks import hex_to_cmyk
from cardgen.render.pen import PT
from tests.pdfops import pages
from tests.pdfx_check import problems

BUNDLED = bundled()

SETS = ("classic", "lunch", "beer")


@cache
def cmyk_pdf(name: str) -> bytes:
    return shop_pdf(load_set(name), "poker", 3.175, cmyk=True)


@pytest.mark.parametrize("name", SETS)
def test_cmyk_is_device_cmyk_throughout_icon_forms_included(name: str) -> None:
    read = pages(cmyk_pdf(name))
    assert not {"rg", "RG", "sc", "SC", "scn", "SCN"} & set().union(*(p.operators for p in read))
    events = [e for p in read for e in p.events if e.kind in ("fill", "stroke", "text")]
    assert {e.colour[0] for e in events} == {"cmyk"}
    assert any(e.in_form for e in events), "the keyword icons (forms) were not reached"
    assert all(e.colour[0] == "cmyk" for e in events if e.in_form)
    assert all(sum(e.colour[1]) <= 2.4 + 1e-6 for e in events)  # total ink, DriveThruCards' limit
    back_ink = hex_to_cmyk(BUNDLED.colours.back.ink)
    for e in events:
        if e.kind == "text" and e.colour[1] != pytest.approx(back_ink, abs=1e-4):
            c, m, y, _k = e.colour[1]
            assert (c, m, y) == (0, 0, 0), e  # black and grey text on K alone, white text no ink
    black = [e for e in events if e.kind == "text" and e.colour[1] == (0, 0, 0, 1)]
    assert black, "no pure black text: the dark ink should be K 100 %"


@pytest.mark.parametrize("name", SETS)
def test_cmyk_file_is_pdf_x_1a_2003(name: str) -> None:
    assert problems(cmyk_pdf(name)) == []
    info = PdfReader(io.BytesIO(cmyk_pdf(name))).metadata
    assert info is not None and info["/GTS_PDFXConformance"] == "PDF/X-1a:2003"


def test_the_check_catches_an_rgb_file() -> None:
    """The PDF/X check is not a yes-sayer: the RGB file of the same cards breaks it."""
    found = problems(shop_pdf(load_set("beer"), "poker", 3.175))
    assert "page 1: RGB colour operator rg" in found and any("output intents" in p for p in found)
    assert any("GTS_PDFXVersion" in p for p in found)


def test_cmyk_file_is_the_same_bytes_twice() -> None:
    cs = load_set("lunch")
    assert shop_pdf(cs, "poker", 3.175, cmyk=True) == shop_pdf(cs, "poker", 3.175, cmyk=True)


@pytest.mark.parametrize(("key", "px", "bleed_mm", "safe_mm"), [("mpc", (822, 1122), 3.048, 3.048),
                                                                ("tgc", (825, 1125), 3.175, 3.175),
                                                                ("drivethrucards", (825, 1125), 3.175, 3.175)])
def test_shop_presets_give_the_shop_pixel_size_bleed_and_safe_zone(key: str, px: tuple[int, int], bleed_mm: float,
                                                                  safe_mm: float) -> None:
    preset = shop(key)
    assert preset.px == px and preset.bleed_mm == pytest.approx(bleed_mm) and preset.safe_mm == pytest.approx(safe_mm)
    cs = load_set("classic")
    result = export_print_shop(cs, shop=key)
    pngs = [name for name in result.files if name.endswith(".png")]
    for name in pngs:
        with Image.open(io.BytesIO(result.files[name])) as img:
            assert img.size == px, name
            assert img.info["dpi"] == pytest.approx((300, 300), abs=0.01)
    pdf_name = next(n for n in result.files if n.endswith(".pdf"))
    data = result.files[pdf_name]
    read = pages(data)
    for page in read:
        w, h = page.media[2] - page.media[0], page.media[3] - page.media[1]
        assert (w, h) == pytest.approx((px[0] / 300 * 25.4, px[1] / 300 * 25.4), abs=0.01)  # 69.60 x 95.00 (mpc)
        tx0, ty0, tx1, ty1 = page.trim
        assert (tx1 - tx0, ty1 - ty0) == pytest.approx((63.5, 88.9), abs=0.01)
        assert tx0 == pytest.approx(bleed_mm, abs=0.01) and ty0 == pytest.approx(bleed_mm, abs=0.01)
    # every glyph at least the shop's safe zone inside the cut (pdfium's tight glyph boxes)
    doc = pypdfium2.PdfDocument(data)
    checked = 0
    for i, page in enumerate(read):
        text = doc[i].get_textpage()
        tx0, ty0, tx1, ty1 = page.trim
        for k in range(text.count_chars()):
            left, bottom, right, top = (v * PT for v in text.get_charbox(k, loose=False))
            if right <= left:
                continue
            checked += 1
            assert min(left - tx0, bottom - ty0, tx1 - right, ty1 - top) >= safe_mm - 1e-3, (key, i, k)
    assert checked > 1000
    assert ("-cmyk" in pdf_name) == (key == "drivethrucards")
    if key == "drivethrucards":
        assert problems(data) == []


def test_drivethrucards_pages_are_back_front_pairs_for_every_copy() -> None:
    cs = load_set("beer")
    result = export_print_shop(cs, shop="drivethrucards")
    data = result.files["beer-print-shop-cmyk.pdf"]
    read = pages(data)
    copies = [c for c in cs.cards for _ in range(c.count)]
    assert len(read) == 2 * len(copies) == 220
    back_fill = hex_to_cmyk(BUNDLED.colours.back.fill)
    for i, page in enumerate(read):
        first_fill = next(e for e in page.events if e.kind == "fill")
        is_back = first_fill.colour[1] == pytest.approx(back_fill, abs=1e-4)
        assert is_back == (i % 2 == 0), i
        if not is_back:  # the front's band is its type's colour
            card = copies[i // 2]
            assert first_fill.colour[1] == pytest.approx(hex_to_cmyk(cs.type_of(card).colour), abs=1e-4)
    rows = list(csv.reader(io.StringIO(result.files["quantities.csv"].decode())))
    assert len(rows) == 1 + len(copies) + 1 and all(r[2] == "1" for r in rows[1:-1])
    assert rows[-1] == ["cards/back.png", "(back of every card)", "110"]


def test_pages_copy_gives_a_file_and_page_per_copy(tmp_path: Path) -> None:
    result = CliRunner().invoke(export_command, ["print-shop", "--set", "lunch", "--out", str(tmp_path),
                                                 "--pages", "copy"])
    assert result.exit_code == 0, result.stderr
    folder = tmp_path / "lunch" / "print-shop"
    cs = load_set("lunch")
    assert len(PdfReader(folder / "lunch-print-shop.pdf").pages) == sum(c.count for c in cs.cards) + 1
    pngs = sorted(p.name for p in (folder / "cards").iterdir())
    assert len(pngs) == 111 and "back.png" in pngs
    first = cs.cards[0]
    assert len([p for p in pngs if p.startswith(pngs[0][:3])]) == first.count


def test_unknown_shop_is_a_usage_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(export_command, ["print-shop", "--set", "lunch", "--out", str(tmp_path),
                                                 "--shop", "kinkos"])
    assert result.exit_code != 0 and "kinkos" in result.stderr and not (tmp_path / "lunch").exists()


def test_card_art_in_a_cmyk_file_is_flattened_cmyk(tmp_path: Path) -> None:
    """Transparent RGB art becomes an opaque DeviceCMYK image (PDF/X-1a has no RGB and no soft masks); its red
    pixels take the plain formula's inks."""
    folder = tmp_path / "artset"
    (folder / "images").mkdir(parents=True)
    Image.new("RGBA", (300, 120), (204, 0, 0, 255)).save(folder / "images" / "red.png")
    (folder / "set.yaml").write_text(
        "name: artset\ntitle: Art\nextends: lunch\ncards:\n"
        "  - {name: Sunburn, type: basic, count: 1, damage: 2, source: designed, art: images/red.png}\n",
        encoding="utf-8")
    cs = load_set(folder)
    one = cs.__class__(**{**cs.__dict__, "cards": (cs.card("Sunburn"),)})
    data = shop_pdf(one, "poker", 3.175, cmyk=True)
    assert problems(data) == []
    reader = PdfReader(io.BytesIO(data))
    images = [x.get_object() for x in reader.pages[0]["/Resources"]["/XObject"].values()
              if x.get_object()["/Subtype"] == "/Image"]
    assert images and all(i["/ColorSpace"] == "/DeviceCMYK" and "/SMask" not in i for i in images)
    pixel = reader.pages[0].images[0].image.convert("CMYK").getpixel((150, 60))
    assert pixel == pytest.approx((0, 255, 255, 51), abs=2)  # #CC0000: C 0, M 100, Y 100, K 20
