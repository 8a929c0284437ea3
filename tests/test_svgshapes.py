"""The plain-SVG reader draws icons as svglib does (compared pixel by pixel), and hands anything else to svglib."""

from __future__ import annotations

import io
from pathlib import Path

import pypdfium2
import pytest
from PIL import Image, ImageChops
from reportlab.graphics import renderPDF
from reportlab.pdfgen.canvas import Canvas
from svglib.svglib import svg2rlg

from cardgen.loader.icons import svg_readable
from cardgen.paths import card_data_dir
from cardgen.render.icons import draw_simple
from cardgen.svgshapes import path_ops, read_svg

HEAD = '<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="{box}">'
SYNTHETIC = {
    "relative": ('24', '24', '0 0 24 24', '<path d="m2 2 h8 v8 h-8 z m10 0 l 8 0 l0 8 l-8 0 Z" fill="#c62828"/>'
                 '<path d="M2 22 c 2 -6 6 -6 8 0 s 6 6 8 0" fill="none" stroke="#1565c0" stroke-width="1.5"/>'),
    "quadratic": ('48px', '48px', '0 0 24 24', '<path d="M2 12 Q 7 2 12 12 T 22 12" fill="none" stroke="#000"'
                  ' stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/>'),
    "shapes": ('30', '20', '10 5 30 20', '<g fill="#2e7d32" stroke="white" stroke-width="1">'
               '<rect x="11" y="6" width="10" height="8"/><ellipse cx="30" cy="12" rx="6" ry="4"/>'
               '<polygon points="12,24 20,16 26,24"/></g>'
               '<polyline points="28,24 32,18 36,24" fill="none" stroke="black"/>'
               '<line x1="11" y1="15" x2="39" y2="15" stroke="#fa0" stroke-width="0.8"/>'),
    "even-odd": ('24', '24', '0 0 24 24', '<path fill-rule="evenodd" d="M2 2 H22 V22 H2 Z M7 7 H17 V17 H7 Z"/>'),
}


def _svg(tmp_path: Path, name: str, w: str, h: str, box: str, body: str) -> Path:
    path = tmp_path / f"{name}.svg"
    path.write_text(HEAD.format(w=w, h=h, box=box) + body + "</svg>", encoding="utf-8")
    return path


def _raster(draw: object, width: float, height: float) -> Image.Image:
    buf = io.BytesIO()
    scale = 240 / max(width, height)
    canvas = Canvas(buf, pagesize=(width * scale, height * scale), invariant=1)
    canvas.scale(scale, scale)
    draw(canvas)  # type: ignore[operator]
    canvas.showPage()
    canvas.save()
    return pypdfium2.PdfDocument(buf.getvalue())[0].render(scale=1).to_pil().convert("RGB")


def _both(path: Path) -> tuple[Image.Image, Image.Image]:
    simple = read_svg(path)
    drawing = svg2rlg(str(path))
    assert simple is not None and drawing is not None
    assert (simple.width, simple.height) == pytest.approx((drawing.width, drawing.height))  # the same size in pt
    ours = _raster(lambda c: draw_simple(c, simple), simple.width, simple.height)
    theirs = _raster(lambda c: renderPDF.draw(drawing, c, 0, 0), drawing.width, drawing.height)
    return ours, theirs


def _differing(a: Image.Image, b: Image.Image) -> int:
    """Pixels whose grey levels differ by more than a quarter of the range."""
    return int(ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 64 else 0).histogram()[255])


def _icons() -> list[Path]:
    return sorted({p.read_bytes(): p for p in card_data_dir().glob("*/icons/*.svg")}.values())


@pytest.mark.parametrize("path", _icons(), ids=lambda p: p.name)
def test_bundled_icons_draw_as_svglib_draws_them(path: Path) -> None:
    ours, theirs = _both(path)
    assert ours.getextrema() != ((255, 255),) * 3  # something was drawn
    assert _differing(ours, theirs) <= 4, path.name  # at most a few anti-aliased edge pixels


@pytest.mark.parametrize("name", sorted(SYNTHETIC))
def test_the_supported_subset_draws_as_svglib_draws_it(tmp_path: Path, name: str) -> None:
    ours, theirs = _both(_svg(tmp_path, name, *SYNTHETIC[name]))
    assert ours.getextrema() != ((255, 255),) * 3
    assert _differing(ours, theirs) <= 8, name


@pytest.mark.parametrize("body", [
    '<path d="M2 2 A 5 5 0 0 1 12 12" fill="red"/>',  # an arc
    '<rect x="1" y="1" width="5" height="5" rx="1"/>',  # rounded corners
    '<path d="M2 2 L 9 9" style="stroke: red"/>',  # CSS
    '<g transform="rotate(45)"><path d="M2 2 L 9 9"/></g>',  # a transform
    '<path d="M2 2 L 9 9" fill="red" opacity="0.5"/>',  # transparency
    '<circle cx="5" cy="5" r="3" fill="rgb(1,2,3)"/>',  # a colour form it does not read
    '<text x="2" y="10">A</text>',  # text
    '<polyline points="1,1 5,5 9,1"/>',  # a filled polyline (svglib does not fill it)
])
def test_anything_else_goes_to_svglib(tmp_path: Path, body: str) -> None:
    path = _svg(tmp_path, "other", "24", "24", "0 0 24 24", body)
    assert read_svg(path) is None
    assert svg_readable(path) == (svg2rlg(str(path)) is not None)


def test_unreadable_files_are_not_drawings(tmp_path: Path) -> None:
    broken = tmp_path / "broken.svg"
    broken.write_text("<svg", encoding="utf-8")
    assert read_svg(broken) is None and not svg_readable(broken)
    sizeless = _svg(tmp_path, "zero", "0", "24", "0 0 24 24", '<path d="M1 1 L 5 5"/>')
    assert read_svg(sizeless) is None


def test_path_data_becomes_absolute_moves_lines_and_curves() -> None:
    assert path_ops("m1 1 2 0 v3 h-2 z") == [("m", (1.0, 1.0)), ("l", (3.0, 1.0)), ("l", (3.0, 4.0)),
                                              ("l", (1.0, 4.0)), ("h", ())]
    quad = path_ops("M0 0 Q 3 3 6 0")
    assert quad[1] == ("c", pytest.approx((2.0, 2.0, 4.0, 2.0, 6.0, 0.0)))
