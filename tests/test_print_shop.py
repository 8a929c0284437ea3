"""`cardgen export print-shop`: PNGs at the shop's pixel size, a PDF with TrimBox and BleedBox, CMYK inks."""

from __future__ import annotations

import dataclasses
import io
import re
import zlib
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image
from pypdf import PdfReader

from cardgen.checks import load_set
from cardgen.cli.main import main
from cardgen.export.print_shop import export_print_shop, pixel_size
from cardgen.model import CardSet
from cardgen.render.pen import MM

SPECIMEN = load_set(Path(__file__).parent / "fixtures" / "sets" / "specimen")


@cache
def three() -> CardSet:
    return dataclasses.replace(SPECIMEN, cards=SPECIMEN.cards[:3])


def test_pixel_sizes_of_the_common_specs() -> None:
    assert pixel_size(63.5 + 2 * 3.175, 88.9 + 2 * 3.175, 300) == (825, 1125)  # poker, 1/8 in bleed
    assert pixel_size(57.15 + 2 * 3.175, 88.9 + 2 * 3.175, 300) == (750, 1125)  # bridge


@pytest.mark.parametrize(("size", "bleed", "dpi", "px"), [("poker", 3.175, 300, (825, 1125)),
                                                          ("bridge", 3.175, 300, (750, 1125)),
                                                          ("poker", 3.0, 150, (410, 560))])
def test_every_png_has_the_shop_pixel_size(size: str, bleed: float, dpi: float, px: tuple[int, int]) -> None:
    result = export_print_shop(three(), size, bleed, dpi)
    pngs = sorted(n for n in result.files if n.endswith(".png"))
    assert len(pngs) == 4 and "cards/back.png" in pngs  # three designs and the back
    for name in pngs:
        img = Image.open(io.BytesIO(result.files[name]))
        assert img.size == px, name
    first = Image.open(io.BytesIO(result.files[pngs[0]])).convert("RGB")
    # the colour band reaches the image's edges: the bleed is inked, not white
    assert first.getpixel((1, 2)) == first.getpixel((px[0] // 2, 2)) != (255, 255, 255)
    assert result.files["quantities.csv"].decode().splitlines()[1].endswith(f",{three().cards[0].count}")


def test_pdf_pages_carry_trim_and_bleed_boxes() -> None:
    result = export_print_shop(three(), "poker", 3.175, 300)
    reader = PdfReader(io.BytesIO(result.files["specimen-print-shop.pdf"]))
    assert len(reader.pages) == 4
    for page in reader.pages:
        media, trim, bleed = page.mediabox, page.trimbox, page.bleedbox
        assert [float(v) / MM for v in media] == pytest.approx([0, 0, 69.85, 95.25], abs=0.001)
        assert [float(v) / MM for v in bleed] == pytest.approx([0, 0, 69.85, 95.25], abs=0.001)
        assert [float(v) / MM for v in trim] == pytest.approx([3.175, 3.175, 66.675, 92.075], abs=0.001)
        assert float(trim.width) / MM == pytest.approx(63.5, abs=0.001)
        assert float(trim.height) / MM == pytest.approx(88.9, abs=0.001)


def _colour_ops(pdf: bytes) -> set[str]:
    """Colour operators used in the page streams (rg/RG: RGB, k/K: CMYK)."""
    reader = PdfReader(io.BytesIO(pdf))
    ops: set[str] = set()
    for page in reader.pages:
        content = page.get_contents()
        assert content is not None
        data = content.get_data().decode("latin-1")
        ops |= set(re.findall(r"(?<=\s)(rg|RG|k|K)(?=\s)", f" {data} "))
    return ops


def test_cmyk_option_writes_cmyk_inks() -> None:
    rgb = export_print_shop(three(), "poker", 3.175, 150).files["specimen-print-shop.pdf"]
    cmyk = export_print_shop(three(), "poker", 3.175, 150, cmyk=True).files["specimen-print-shop-cmyk.pdf"]
    assert _colour_ops(rgb) <= {"rg", "RG"} and "rg" in _colour_ops(rgb)
    assert _colour_ops(cmyk) <= {"k", "K"} and "k" in _colour_ops(cmyk)
    assert zlib.crc32(cmyk) != zlib.crc32(rgb)


def test_cli_writes_the_files(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["export", "print-shop", "--set", "lunch", "--out", str(tmp_path),
                                       "--dpi", "100", "--size", "bridge", "--bleed", "2"])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "lunch" / "print-shop"
    pngs = list((folder / "cards").glob("*.png"))
    assert len(pngs) == len(load_set("lunch").cards) + 1
    assert Image.open(pngs[0]).size == pixel_size(61.15, 92.9, 100)
    assert "designs and a back" in result.output
    bad = CliRunner().invoke(main, ["export", "print-shop", "--set", "lunch", "--out", str(tmp_path / "x"),
                                    "--bleed", "-1"])
    assert bad.exit_code == 1 and "'--bleed': -1.0 is not in the range" in bad.output and not (tmp_path / "x").exists()
