"""Card previews rasterised from the card-sheet PDF itself, so a preview shows exactly what prints.

pypdfium2 renders each needed page of a proof sheet (one of each card); each
card is cropped from its trim box. A contact sheet puts every card of a set on
one image.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, replace
from pathlib import Path

import pypdfium2
from PIL import Image

from cardgen.errors import CardgenError
from cardgen.model import Card, CardSet
from cardgen.numbering import card_file_stem
from cardgen.output import publish_files
from cardgen.render.geometry import Rect, back_cells
from cardgen.render.sheets import PrintOptions, card_sequence, cards_pdf
from cardgen.suggest import did_you_mean

CONTACT_COLUMNS = 6
CONTACT_GAP_PX = 12


class UnknownCardError(CardgenError):
    """`--card` names no card of the set."""


@dataclass(frozen=True)
class CardImage:
    card: Card
    image: Image.Image


def _crop_box(rect: Rect, page_h_mm: float, dpi: float, size: tuple[int, int]) -> tuple[int, int, int, int]:
    px = dpi / 25.4
    left, right = round(rect.x * px), round(rect.right * px)
    top, bottom = round((page_h_mm - rect.top) * px), round((page_h_mm - rect.y) * px)
    return max(0, left), max(0, top), min(size[0], right), min(size[1], bottom)


def card_images(cs: CardSet, opts: PrintOptions, dpi: float, card: str | None = None) -> list[CardImage]:
    """One image per card design (or only `card`), cut from a rasterised proof sheet."""
    proof = replace(opts, proof=True, backs=False)
    cards = card_sequence(cs, True)
    wanted = list(range(len(cards)))
    if card is not None:
        wanted = [i for i, c in enumerate(cards) if c.name.lower() == card.strip().lower()]
        if not wanted:
            names = [c.name for c in cards]
            raise UnknownCardError(f"set {cs.name} has no card named '{card}'{did_you_mean(card.strip(), names)}")
    pdf = cards_pdf(cs, proof)
    layout = pdf.layout
    doc = pypdfium2.PdfDocument(pdf.data)
    out: list[CardImage] = []
    rendered: dict[int, Image.Image] = {}
    try:
        for i in wanted:
            page_no, slot = divmod(i, layout.per_page)
            if page_no not in rendered:
                rendered[page_no] = doc[page_no].render(scale=dpi / 72).to_pil().convert("RGB")
            page = rendered[page_no]
            box = _crop_box(layout.cells[slot], layout.paper.height, dpi, page.size)
            out.append(CardImage(cards[i], page.crop(box)))
    finally:
        doc.close()
    return out


def contact_sheet(images: list[CardImage], columns: int = CONTACT_COLUMNS) -> Image.Image:
    """All card images on one white sheet, in print order."""
    w = max(im.image.width for im in images)
    h = max(im.image.height for im in images)
    cols = min(columns, len(images))
    rows = -(-len(images) // cols)
    g = CONTACT_GAP_PX
    sheet = Image.new("RGB", (cols * w + (cols + 1) * g, rows * h + (rows + 1) * g), "white")
    for i, im in enumerate(images):
        r, c = divmod(i, cols)
        sheet.paste(im.image, (g + c * (w + g), g + r * (h + g)))
    return sheet


def png_bytes(image: Image.Image, dpi: float) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG", dpi=(dpi, dpi))
    return buf.getvalue()


def preview_files(cs: CardSet, opts: PrintOptions, dpi: float, card: str | None = None) -> dict[str, bytes]:
    """Preview PNGs relative to the output folder: `<stem>/preview/NN-name.png` and a contact sheet.

    The set's contact sheet is `<stem>/<stem>-contact.png`; a one-card preview writes its sheet as
    `<stem>/<stem>-contact-NN-name.png`, so it never replaces the whole set's.
    """
    images = card_images(cs, opts, dpi, card)
    stem = cs.name
    files = {f"{stem}/preview/{card_file_stem(im.card, cs)}.png": png_bytes(im.image, dpi) for im in images}
    sheet = f"{stem}-contact.png" if card is None else f"{stem}-contact-{card_file_stem(images[0].card, cs)}.png"
    files[f"{stem}/{sheet}"] = png_bytes(contact_sheet(images), dpi)
    return files


def write_previews(out: Path, files: dict[str, bytes]) -> list[Path]:
    """Each set's previews and contact sheet appear together (output.publish_files)."""
    return publish_files(out, files)


def back_image(cs: CardSet, opts: PrintOptions, dpi: float, size: tuple[int, int],
               card: Card | None = None) -> Image.Image:
    """The printed back of `card` (its own, its type's or the set's; no card: the set's), rasterised from a
    one-card proof with backs."""
    if card is None:
        one = replace(cs, cards=(replace(cs.cards[0], back=None),), look=replace(cs.look, backs={}))
    else:
        one = replace(cs, cards=(card,))
    pdf = cards_pdf(one, replace(opts, proof=True, backs=True))
    cell = back_cells(pdf.layout, "short" if opts.duplex == "short" else "long", (0.0, 0.0))[0]
    doc = pypdfium2.PdfDocument(pdf.data)
    try:
        page = doc[1].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        doc.close()
    px = dpi / 25.4
    box = (round(cell.x * px), round((pdf.layout.paper.height - cell.top) * px),
           round(cell.right * px), round((pdf.layout.paper.height - cell.y) * px))
    back: Image.Image = page.crop(box).resize(size)
    return back
