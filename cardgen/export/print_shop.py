"""Files for print-on-demand shops: one PNG a card design at the shop's pixel size, and a PDF of one
card a page whose pages carry TrimBox and BleedBox.

Shops print each card from its own image or page, at the card size plus a bleed on every side (the
common specs are in docs/printing.md): poker at 300 dpi with 1/8 in bleed is 825 x 1125 px. The
faces are the same vector drawing as the print-and-play sheets; the PNGs are rasterised from the
PDF, so both show the same thing. `--cmyk` writes the PDF's inks as device CMYK.
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass

from cardgen.errors import CardgenError
from cardgen.model import Card, CardSet
from cardgen.numbering import card_file_stem
from cardgen.render import layout_data as L
from cardgen.render.card_face import draw_card
from cardgen.render.geometry import Rect
from cardgen.render.pen import MM, Pen
from cardgen.render.sheets import draw_back, new_canvas
from cardgen.render.size_check import check_card_size

DEFAULT_BLEED_MM = 3.175  # 1/8 in, what most shops ask for
DEFAULT_DPI = 300.0
MAX_CARD_MM = 300.0  # the largest card a shop prints (tarot is 70 x 120 mm); beyond, a page of A3 and more
MAX_PIXELS = 20_000_000  # one card image: a poker card at 1200 dpi with bleed is 15 million


class PrintShopError(CardgenError):
    """Options a print-shop export cannot honour."""


@dataclass(frozen=True)
class PrintShopExport:
    """Files by name (relative to the export folder) and the numbers the command reports."""

    files: dict[str, bytes]
    card_px: tuple[int, int]
    page_mm: tuple[float, float]
    designs: int


def pixel_size(width_mm: float, height_mm: float, dpi: float) -> tuple[int, int]:
    """Pixels of an image `width_mm` x `height_mm` at `dpi`, rounded to whole pixels."""
    return round(width_mm / 25.4 * dpi), round(height_mm / 25.4 * dpi)


def shop_pdf(cs: CardSet, size: str, bleed: float, cmyk: bool = False) -> bytes:
    """Every design once, then the back: one card a page, MediaBox = BleedBox, TrimBox the cut."""
    card = L.card_size(size or L.default_size())
    if not math.isfinite(bleed) or bleed < 0:
        raise PrintShopError(f"bleed must be a number of millimetres, 0 or more (got {bleed:g})")
    page_w, page_h = card.width + 2 * bleed, card.height + 2 * bleed
    buf = io.BytesIO()
    canvas = new_canvas(buf, page_w, page_h, f"{cs.title}: print-shop cards",
                        f"{len(cs.cards)} designs and a back of {cs.name}, {card.name} with {bleed:g} mm bleed")
    trim = Rect(bleed, bleed, card.width, card.height)
    pen = Pen(canvas, cmyk=cmyk)
    with L.set_layout(cs.path):
        for c in [*cs.cards, None]:
            canvas.setTrimBox((trim.x * MM, trim.y * MM, trim.right * MM, trim.top * MM))
            canvas.setBleedBox((0, 0, page_w * MM, page_h * MM))
            if c is None:
                draw_back(pen, cs, Rect(0.0, 0.0, page_w, page_h), bleed)
            else:
                draw_card(pen, c, cs, trim, bleed)
            canvas.showPage()
    canvas.save()
    return buf.getvalue()


def _file_name(card: Card, cs: CardSet) -> str:
    return f"{card_file_stem(card, cs)}.png"


def export_print_shop(cs: CardSet, size: str = "poker", bleed: float = DEFAULT_BLEED_MM, dpi: float = DEFAULT_DPI,
                      cmyk: bool = False) -> PrintShopExport:
    """`cards/NNN-name.png` per design, `cards/back.png`, `<set>-print-shop.pdf` and `quantities.csv`."""
    import pypdfium2
    from PIL import Image

    if not math.isfinite(dpi) or not 72 <= dpi <= 1200:
        raise PrintShopError(f"dpi must be between 72 and 1200 (got {dpi:g})")
    if not math.isfinite(bleed) or bleed < 0:
        raise PrintShopError(f"bleed must be a number of millimetres, 0 or more (got {bleed:g})")
    card = L.card_size(size or L.default_size())
    if max(card.width, card.height) > MAX_CARD_MM:
        raise PrintShopError(f"card size {card.width:g} x {card.height:g} mm is larger than a print shop's cards; "
                             f"each side must be at most {MAX_CARD_MM:g} mm")
    page_mm = (card.width + 2 * bleed, card.height + 2 * bleed)
    px = pixel_size(page_mm[0], page_mm[1], dpi)
    if px[0] * px[1] > MAX_PIXELS:
        raise PrintShopError(f"{card.width:g} x {card.height:g} mm at {dpi:g} dpi is {px[0]} x {px[1]} pixels a card, "
                             f"over the limit of {MAX_PIXELS:,}; lower --dpi")
    check_card_size(cs, size)
    pdf = shop_pdf(cs, size, bleed, cmyk)
    rgb = pdf if not cmyk else shop_pdf(cs, size, bleed)  # PNGs are RGB either way
    files: dict[str, bytes] = {f"{cs.name}-print-shop{'-cmyk' if cmyk else ''}.pdf": pdf}
    doc = pypdfium2.PdfDocument(rgb)
    try:
        names = [_file_name(c, cs) for c in cs.cards] + ["back.png"]
        for i, name in enumerate(names):
            page = doc[i]
            img = page.render(scale=px[0] / page.get_width()).to_pil().convert("RGB")
            if img.size != px:  # pdfium rounds the page to whole pixels; the shop wants exactly these
                img = img.resize(px, Image.Resampling.LANCZOS)
            out = io.BytesIO()
            img.save(out, format="PNG", dpi=(dpi, dpi))
            files[f"cards/{name}"] = out.getvalue()
    finally:
        doc.close()
    table = io.StringIO()
    writer = csv.writer(table, lineterminator="\n")
    writer.writerow(["file", "card", "copies"])
    for c in cs.cards:
        writer.writerow([f"cards/{_file_name(c, cs)}", c.name, c.count])
    writer.writerow(["cards/back.png", "(back of every card)", sum(c.count for c in cs.cards)])
    files["quantities.csv"] = table.getvalue().encode("utf-8")
    return PrintShopExport(files, px, page_mm, len(cs.cards))
