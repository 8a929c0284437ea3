"""Files for print-on-demand shops: one PNG a card design at the shop's pixel size, and a PDF of one
card a page whose pages carry TrimBox and BleedBox.

Shops print each card from its own image or page, at the card size plus a bleed on every side (the
common specs are in docs/printing.md): poker at 300 dpi with 1/8 in bleed is 825 x 1125 px. The
faces are the same vector drawing as the print-and-play sheets; the PNGs are rasterised from the
PDF, so both show the same thing. `--cmyk` writes the PDF's inks as device CMYK, as a PDF/X-1a:2003
file; `--shop` takes a shop's whole spec from its preset.
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass

from cardgen import messages
from cardgen.errors import CardgenError, Diagnostic, SetError
from cardgen.export.shops import PAGE_MODES, Shop
from cardgen.export.shops import shop as shop_preset
from cardgen.model import Card, CardSet
from cardgen.numbering import card_file_stem
from cardgen.render import layout_data as L
from cardgen.render.card_face import art_file, draw_card
from cardgen.render.fonts import register_fonts
from cardgen.render.geometry import Rect
from cardgen.render.pdfx import make_pdfx
from cardgen.render.pen import MM
from cardgen.render.session import RenderSession
from cardgen.render.set_look import own_back
from cardgen.render.sheets import draw_back, new_canvas, size_name
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
    dpi: float = DEFAULT_DPI
    backs: int = 1


def pixel_size(width_mm: float, height_mm: float, dpi: float) -> tuple[int, int]:
    """Pixels of an image `width_mm` x `height_mm` at `dpi`, rounded to whole pixels."""
    return round(width_mm / 25.4 * dpi), round(height_mm / 25.4 * dpi)


@dataclass(frozen=True)
class ShopPage:
    """One page of a print-shop PDF: a card's face (`card`) or a back (None), and its PNG's name; a back of
    its own (a card's `back:` or its type's in `look.backs`) names a card that has it (`back_of`)."""

    card: Card | None
    name: str
    back_of: Card | None = None


def _back_name(card: Card, cs: CardSet) -> str:
    """`back.png` (the set's), `back-<type>.png` (its type's own) or `back-<card file>.png` (the card's own)."""
    if card.back is not None:
        return f"back-{card_file_stem(card, cs)}.png"
    return f"back-{card.type}.png" if card.type in cs.look.backs else "back.png"


def _backs(cs: CardSet) -> list[ShopPage]:
    """The back pages of a design or copy order: the set's back, each type's own back its cards use, then
    each card's own."""
    out = [ShopPage(None, "back.png")] if any(own_back(cs, c) is None for c in cs.cards) else []
    for key in cs.look.backs:
        card = next((c for c in cs.cards if c.type == key and c.back is None), None)
        if card is not None:
            out.append(ShopPage(None, _back_name(card, cs), card))
    return out + [ShopPage(None, _back_name(c, cs), c) for c in cs.cards if c.back is not None]


def shop_pages(cs: CardSet, pages: str = "design") -> list[ShopPage]:
    """The pages in order: every design once and the back last (`design`), every copy and the back
    last (`copy`), or each copy as its back then its front (`pairs`, as DriveThruCards orders a deck)."""
    if pages not in PAGE_MODES:
        raise PrintShopError(f"unknown page order '{pages}' (choose from {', '.join(PAGE_MODES)})")
    if pages == "design":
        return [*(ShopPage(c, _file_name(c, cs)) for c in cs.cards), *_backs(cs)]
    copies = [(c, k) for c in cs.cards for k in range(1, c.count + 1)]
    if pages == "copy":
        return [*(ShopPage(c, _file_name(c, cs, k)) for c, k in copies), *_backs(cs)]
    return [page for c, k in copies for page in (ShopPage(None, _back_name(c, cs), c if own_back(cs, c) else None),
                                                 ShopPage(c, _file_name(c, cs, k)))]


def shop_pdf(cs: CardSet, size: str, bleed: float, cmyk: bool = False, pages: str = "design",
             safe: float | None = None) -> bytes:
    """One card a page in the order of `pages`, MediaBox = BleedBox, TrimBox the cut; with `cmyk` every ink is
    device CMYK and the file is PDF/X-1a:2003. `safe` widens the faces' safe margin to a shop's (mm)."""
    card = L.card_size(size or L.default_size())
    if not math.isfinite(bleed) or bleed < 0:
        raise PrintShopError(f"bleed must be a number of millimetres, 0 or more (got {bleed:g})")
    page_w, page_h = card.width + 2 * bleed, card.height + 2 * bleed
    buf = io.BytesIO()
    canvas = new_canvas(buf, page_w, page_h, messages.text("pdf.shop_title", cs.language, title=cs.title),
                        messages.text("pdf.shop_subject", cs.language, designs=len(cs.cards), set=cs.name,
                                      size=size_name(card.name, cs.language), bleed=f"{bleed:g}"), cs.language)
    if cmyk:
        make_pdfx(canvas)
    trim = Rect(bleed, bleed, card.width, card.height)
    session = RenderSession.for_cards(cs)
    if safe is not None:
        session = session.with_safe_margin(safe)
    pen = session.pen(canvas, cmyk=cmyk)
    for page in shop_pages(cs, pages):
        canvas.setTrimBox((trim.x * MM, trim.y * MM, trim.right * MM, trim.top * MM))
        canvas.setBleedBox((0, 0, page_w * MM, page_h * MM))
        if page.card is None:
            draw_back(session, pen, cs, Rect(0.0, 0.0, page_w, page_h), bleed, page.back_of)
        else:
            draw_card(session, pen, page.card, cs, trim, bleed)
        canvas.showPage()
    canvas.save()
    return buf.getvalue()


def _file_name(card: Card, cs: CardSet, copy: int = 0) -> str:
    return f"{card_file_stem(card, cs)}{f'-{copy:02d}' if copy else ''}.png"


def _shop_options(shop: Shop, size: str | None, bleed: float | None, dpi: float | None) -> float:
    """The resolution to export at for `shop`: `dpi` if it is one the shop takes, else its own; a size or bleed
    other than the shop's is an error (the shop fixes them), as is a resolution it does not take."""
    if size is not None and size != shop.size:
        raise PrintShopError(f"{shop.name} (--shop {shop.key}) prints {shop.size} cards; leave out --size {size}, "
                             "or leave out --shop and give the size, bleed and dpi yourself")
    if bleed is not None and abs(bleed - shop.bleed_mm) > 1e-6:
        raise PrintShopError(f"{shop.name} (--shop {shop.key}) fixes the bleed at {shop.bleed_mm:g} mm "
                             f"({shop.bleed_px:g} px at {shop.dpi:g} dpi); leave out --bleed {bleed:g}")
    if dpi is None:
        return shop.dpi
    if not any(abs(dpi - d) < 1e-6 for d in shop.dpis):
        raise PrintShopError(f"{shop.name} (--shop {shop.key}) takes {', '.join(f'{d:g}' for d in shop.dpis)} dpi, "
                             f"not {dpi:g}")
    return dpi


def art_problems(cs: CardSet, size: str, min_dpi: float) -> list[Diagnostic]:
    """The cards whose art prints below `min_dpi` in its box at `size`, each with the figure (the box as the
    face layout draws it)."""
    card = L.card_size(size)
    register_fonts()  # the faces are measured to lay the card out
    session = RenderSession.for_cards(cs)
    out = []
    for c in cs.cards:
        found = art_file(c, cs)
        if found is None:
            continue
        log: list[str] = []
        draw_card(session, session.pen(None, log), c, cs, Rect(0.0, 0.0, card.width, card.height), 0.0)
        box = next((line.split() for line in log if line.startswith("image ")), None)
        if box is None:
            continue
        w_mm, h_mm = float(box[3]), float(box[4])
        px_w, px_h = found[1]
        # the picture covers its box (or fits inside it): its pixels per inch along the side that fills
        scale = (min if session.face.art.fit == "contain" else max)(w_mm / px_w, h_mm / px_h)
        dpi = 25.4 / scale
        if dpi < min_dpi - 0.5:
            out.append(Diagnostic(c.file, c.line, c.column, f"card '{c.name}': its art '{c.art}' ({px_w} x {px_h} px) "
                                  f"prints at {dpi:.0f} dpi in its {w_mm:.1f} x {h_mm:.1f} mm box on a {size} "
                                  f"card; the shop needs {min_dpi:g} dpi"))
    return out


@dataclass(frozen=True)
class _Settings:
    """An export's options once a shop's preset and the defaults are applied, and checked."""
    size: str
    bleed: float
    dpi: float
    cmyk: bool
    pages: str
    safe: float | None
    page_mm: tuple[float, float]
    px: tuple[int, int]


def export_print_shop(cs: CardSet, size: str | None = None, bleed: float | None = None, dpi: float | None = None,
                      cmyk: bool = False, shop: str | None = None, pages: str | None = None) -> PrintShopExport:
    """`cards/*.png` (a design, a copy or a copy's back and front a file, as `pages` says), `<set>-print-shop.pdf`
    (PDF/X-1a `-cmyk.pdf` with `cmyk`) and `quantities.csv`. `shop` takes size, bleed, safe zone, page order and
    inks from that shop's preset (templates/layout/shops.yaml), and its exact pixel size at `dpi` (one the shop
    takes; its own by default); a size or bleed it fixes may not be given otherwise, and art below the shop's
    resolution is refused, naming the card and its figure."""
    s = _settings(cs, size, bleed, dpi, cmyk, shop, pages)
    check_card_size(cs, s.size)
    pdf = shop_pdf(cs, s.size, s.bleed, s.cmyk, s.pages, s.safe)
    rgb = pdf if not s.cmyk else shop_pdf(cs, s.size, s.bleed, False, s.pages, s.safe)  # PNGs are RGB either way
    files: dict[str, bytes] = {f"{cs.name}-print-shop{'-cmyk' if s.cmyk else ''}.pdf": pdf}
    order = shop_pages(cs, s.pages)
    files.update(_card_pngs(rgb, order, s.px, s.dpi))
    files["quantities.csv"] = _quantities(cs, order, s.pages)
    return PrintShopExport(files, s.px, s.page_mm, len(cs.cards), s.dpi, len(_backs(cs)) if s.pages != "pairs" else
                           len({p.name for p in order if p.card is None}))


def _settings(cs: CardSet, size: str | None, bleed: float | None, dpi: float | None, cmyk: bool, shop: str | None,
              pages: str | None) -> _Settings:
    """The options with a shop's preset and the defaults applied; an error for any the shop or the limits refuse."""
    safe: float | None = None
    exact: tuple[int, int] | None = None
    if shop is not None:
        preset = shop_preset(shop)
        dpi = _shop_options(preset, size, bleed, dpi)
        size, bleed, safe, exact = preset.size, preset.bleed_mm, preset.safe_mm, preset.px_at(dpi)
        cmyk = cmyk or preset.cmyk
        pages = pages or preset.pages
        low = art_problems(cs, size, preset.dpi)
        if low:
            raise SetError(low)
    size = size or "poker"
    bleed = DEFAULT_BLEED_MM if bleed is None else bleed
    dpi = DEFAULT_DPI if dpi is None else dpi
    if not math.isfinite(dpi) or not 72 <= dpi <= 1200:
        raise PrintShopError(f"dpi must be between 72 and 1200 (got {dpi:g})")
    if not math.isfinite(bleed) or bleed < 0:
        raise PrintShopError(f"bleed must be a number of millimetres, 0 or more (got {bleed:g})")
    card = L.card_size(size or L.default_size())
    if max(card.width, card.height) > MAX_CARD_MM:
        raise PrintShopError(f"card size {card.width:g} x {card.height:g} mm is larger than a print shop's cards; "
                             f"each side must be at most {MAX_CARD_MM:g} mm")
    page_mm = (card.width + 2 * bleed, card.height + 2 * bleed)
    px = exact or pixel_size(page_mm[0], page_mm[1], dpi)
    if px[0] * px[1] > MAX_PIXELS:
        raise PrintShopError(f"{card.width:g} x {card.height:g} mm at {dpi:g} dpi is {px[0]} x {px[1]} pixels a card, "
                             f"over the limit of {MAX_PIXELS:,}; lower --dpi")
    return _Settings(size, bleed, dpi, cmyk, pages or "design", safe, page_mm, px)


def _card_pngs(rgb: bytes, order: list[ShopPage], px: tuple[int, int], dpi: float) -> dict[str, bytes]:
    """Each page of the RGB file as a PNG of exactly `px` (a shared back once)."""
    import pypdfium2
    from PIL import Image

    files: dict[str, bytes] = {}
    doc = pypdfium2.PdfDocument(rgb)
    try:
        for i, page_info in enumerate(order):
            if f"cards/{page_info.name}" in files:  # the back, once
                continue
            page = doc[i]
            img = page.render(scale=px[0] / page.get_width()).to_pil().convert("RGB")
            if img.size != px:  # pdfium rounds the page to whole pixels; the shop wants exactly these
                img = img.resize(px, Image.Resampling.LANCZOS)
            out = io.BytesIO()
            img.save(out, format="PNG", dpi=(dpi, dpi))
            files[f"cards/{page_info.name}"] = out.getvalue()
    finally:
        doc.close()
    return files


def _quantities(cs: CardSet, order: list[ShopPage], pages: str) -> bytes:
    """quantities.csv: each file, its card and how many copies to print of it."""
    table = io.StringIO()
    writer = csv.writer(table, lineterminator="\n")
    writer.writerow(["file", "card", "copies"])
    for page_info in order:
        if page_info.card is not None:
            writer.writerow([f"cards/{page_info.name}", page_info.card.name,
                             page_info.card.count if pages == "design" else 1])
    plain = sum(c.count for c in cs.cards if own_back(cs, c) is None)
    if plain:
        writer.writerow(["cards/back.png", "(back of every card)" if plain == sum(c.count for c in cs.cards)
                         else "(back of the other cards)", plain])
    for key in cs.look.backs:
        count = sum(c.count for c in cs.cards if c.type == key and c.back is None)
        if count:
            writer.writerow([f"cards/back-{key}.png", f"(back of every {cs.types[key].label} card)", count])
    for c in cs.cards:
        if c.back is not None:
            writer.writerow([f"cards/{_back_name(c, cs)}", f"(back of {c.name})", c.count])
    return table.getvalue().encode("utf-8")
