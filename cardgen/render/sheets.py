"""Card sheets: nine cards a page with cut marks, page footer and scale bar; optional back pages.

`cards_pdf` returns the PDF bytes (reportlab `invariant=1`, fixed metadata, so
the same input gives the same bytes) and which card types start on which page,
for the bookmarks of the print file.
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from cardgen import messages
from cardgen.library_compat import canvas_mark, draw_again, drawn_since
from cardgen.model import Card, CardSet
from cardgen.render import layout_data as L
from cardgen.render.card_face import draw_card
from cardgen.render.errors import LayoutError
from cardgen.render.face_layout import Face
from cardgen.render.fonts import register_fonts
from cardgen.render.geometry import (
    DUPLEX_MODES,
    Duplex,
    Rect,
    SheetLayout,
    SheetRules,
    back_cells,
    gutterfold_layout,
    mirror,
    pages_needed,
    sheet_layout,
)
from cardgen.render.icons import PRODUCER, IconCanvas
from cardgen.render.pen import MM, PT, Pen
from cardgen.render.session import RenderSession
from cardgen.render.set_look import back_image, back_title, own_back, own_back_image
from cardgen.render.textfit import Faces, draw_block, fit_lines


@dataclass(frozen=True)
class PrintOptions:
    """Everything the command line can say about the printed sheets."""

    paper: str = "a4"
    size: str = ""  # empty: the default size from card_sizes.yaml
    bleed: float = 0.0
    backs: bool = False
    duplex: str = "long"
    offset: tuple[float, float] = (0.0, 0.0)
    proof: bool = False
    gap: float | None = None  # between neighbouring cut lines; None: twice the bleed
    layout: str = "grid"  # or "gutterfold": backs beside the fronts, for printers without duplex


LAYOUTS: tuple[str, ...] = ("grid", "gutterfold")


@dataclass
class CardsPdf:
    """A rendered card sheet PDF and where each card type first appears (0-based pages)."""

    data: bytes
    pages: int
    layout: SheetLayout
    type_pages: dict[str, int] = field(default_factory=dict)
    card_pages: dict[str, int] = field(default_factory=dict)
    draw_counts: dict[str, int] = field(default_factory=dict)  # pen calls by kind, for the benchmark


def sheet_rules(face: Face) -> SheetRules:
    """The sheet's marks and margins from a face layout's `sheet` part (and the papers' safe margin)."""
    sheet = face.sheet
    return SheetRules(safe_margin=L.safe_margin(), mark_gap=sheet.mark_gap, mark_length=sheet.mark_length,
                      mark_min_length=sheet.mark_min_length, footer_min_room=sheet.footer_min_room,
                      footer_room=sheet.footer_room,
                      scale_bar=sheet.scale_bar_mm, fold_gutter=sheet.fold_gutter)


def resolve_layout(opts: PrintOptions, face: Face) -> SheetLayout:
    """Check the options and lay out the sheet; LayoutError names what is wrong.

    A sheet without backs may turn landscape when that holds more cards; with duplex backs it stays
    portrait, so "long edge" and "short edge" keep their plain meaning.
    """
    if opts.duplex not in DUPLEX_MODES:
        raise LayoutError(f"unknown duplex mode '{opts.duplex}' (choose from {', '.join(DUPLEX_MODES)})")
    if opts.layout not in LAYOUTS:
        raise LayoutError(f"unknown layout '{opts.layout}' (choose from {', '.join(LAYOUTS)})")
    paper, card = L.paper(opts.paper), L.card_size(opts.size or L.default_size())
    if opts.layout == "gutterfold":
        return gutterfold_layout(paper, card, opts.bleed, sheet_rules(face), opts.gap)
    layout = sheet_layout(paper, card, opts.bleed, sheet_rules(face), opts.gap, allow_landscape=not opts.backs)
    if opts.backs:
        check_offset(layout, cast(Duplex, opts.duplex), opts.offset)
    return layout


def check_offset(layout: SheetLayout, duplex: Duplex, offset: tuple[float, float]) -> None:
    """Refuse a back-page shift that pushes a back's ink into the margin the printer cannot print."""
    safe = layout.rules.safe_margin
    for cell in back_cells(layout, duplex, offset):
        over = max(safe - cell.x, cell.right - (layout.paper.width - safe), safe - cell.y,
                   cell.top - (layout.paper.height - safe))
        if over > 1e-6:
            raise LayoutError(f"offset {offset[0]:g},{offset[1]:g} pushes the card backs {over:.2f} mm into the "
                              f"{safe:g} mm margin of {layout.paper.label} that printers cannot print; the backs "
                              f"have {_offset_room(layout, duplex)} of room")
    return None


def _offset_room(layout: SheetLayout, duplex: Duplex) -> str:
    safe = layout.rules.safe_margin
    cells = back_cells(layout, duplex)
    left = min(c.x for c in cells) - safe
    right = layout.paper.width - safe - max(c.right for c in cells)
    down = min(c.y for c in cells) - safe
    up = layout.paper.height - safe - max(c.top for c in cells)
    def mm(v: float) -> str:
        return f"{v + 0.0:.2f}" if abs(v) >= 0.005 else "0"

    return f"X from {mm(-left)} to {mm(right)} mm and Y from {mm(-down)} to {mm(up)} mm"


def layout_note(layout: SheetLayout) -> str | None:
    """A line for the person building when a page holds fewer than 9 cards (or turns landscape), saying why."""
    if layout.per_page >= 9 and not layout.landscape:
        return None
    what = f"{layout.card.name} cards ({layout.card.width:g} x {layout.card.height:g} mm)"
    extra = f" with {layout.bleed:g} mm bleed" if layout.bleed else ""
    extra += f" and {layout.gap:g} mm gaps" if layout.gap else ""
    if layout.folded_backs:
        return (f"gutterfold: {layout.per_page} cards and their backs a page ({layout.cols} x {layout.rows} fronts) "
                f"for {what}{extra} on {layout.paper.label}")
    why = "" if layout.per_page >= 9 else " (9 do not fit with room for cut marks inside the printable area)"
    return (f"{layout.per_page} cards a page ({layout.cols} x {layout.rows}) for {what}{extra} "
            f"on {layout.paper.label}{why}")


def file_stem(name: str, lang: str) -> str:
    """How a build's files of set `name` in `lang` begin: the set's name, then the language's code unless it is
    English (`lunch-de-print.pdf`), so builds in two languages sit side by side in the set's folder."""
    return name if lang == messages.DEFAULT_LANGUAGE else f"{name}-{lang}"


def card_sequence(cs: CardSet, proof: bool) -> list[Card]:
    """Cards in print order, each `count` times (once each for a proof)."""
    return [c for c in cs.cards for _ in range(1 if proof else c.count)]


def new_canvas(buf: io.BytesIO, width_mm: float, height_mm: float, title: str, subject: str,
               lang: str = messages.DEFAULT_LANGUAGE) -> Any:
    """A reportlab canvas that starts in a bundled font, so no unembedded Helvetica appears (an IconCanvas, so
    the rules page's paragraphs can be drawn on it too: the print file); its keywords in `lang`."""
    register_fonts()
    c = IconCanvas(buf, pagesize=(width_mm * MM, height_mm * MM), invariant=1, initialFontName="Sans",
               initialFontSize=10, pageCompression=1)
    c.setTitle(title)
    c.setAuthor("cardgen")
    c.setSubject(subject)
    c.setCreator(PRODUCER)
    c.setKeywords(messages.text("pdf.keywords", lang))
    c.setFont("Sans", 10)
    return c


def cards_pdf(cs: CardSet, opts: PrintOptions, progress: Callable[[int], None] | None = None,
              session: RenderSession | None = None) -> CardsPdf:
    """Render the card sheets of `cs` (in `session`, else a new one with the set's layout); `progress(n)` is
    called after each page with the cards drawn."""
    s = RenderSession.for_cards(cs) if session is None else session
    layout = resolve_layout(opts, s.face)
    buf = io.BytesIO()
    lang = cs.language
    cards = card_sequence(cs, opts.proof)
    canvas = new_canvas(buf, layout.paper.width, layout.paper.height,
                        messages.text("pdf.proof_title" if opts.proof else "pdf.cards_title", lang, title=cs.title),
                        messages.text("pdf.cards_subject", lang, cards=len(cards), set=cs.name,
                                      size=size_name(layout.card.name, lang), paper=layout.paper.label), lang)
    result = draw_sheets(s, canvas, cs, opts, layout, progress)
    canvas.save()
    result.data = buf.getvalue()
    return result


def size_name(name: str, lang: str) -> str:
    """A bundled card size in the language's words (slip: Zettel); a size given as WxH as it is."""
    names = messages.message("assembly.size_names", lang)
    return str(names.get(name, name)) if isinstance(names, dict) else name


def first_pages(cs: CardSet, opts: PrintOptions, layout: SheetLayout) -> tuple[dict[str, int], dict[str, int]]:
    """The sheet page (0-based) where each card type and each card first appears, known before drawing."""
    per_page_side = 2 if opts.backs and not layout.folded_backs else 1
    types: dict[str, int] = {}
    names: dict[str, int] = {}
    for i, card in enumerate(card_sequence(cs, opts.proof)):
        page = i // layout.per_page * per_page_side
        types.setdefault(card.type, page)
        names.setdefault(card.name, page)
    return types, names


def draw_sheets(s: RenderSession, canvas: Any, cs: CardSet, opts: PrintOptions, layout: SheetLayout,
                progress: Callable[[int], None] | None = None,
                page_begins: Callable[[int], None] | None = None, pages_before: int = 0) -> CardsPdf:
    """Draw the card sheets of `cs` as the next pages of `canvas` (the cards file's, or the print file's after
    its `pages_before` pages: the rules and the assembly page), each labelled with its page number in the
    file; `page_begins(i)` is called as the i-th sheet page (0-based) starts, before anything is drawn on it
    (where the print file puts its bookmarks). The result's `data` is empty: the caller saves."""
    cards = card_sequence(cs, opts.proof)
    n_fronts = pages_needed(len(cards), layout.per_page)
    duplex_backs = opts.backs and not layout.folded_backs
    total = n_fronts * (2 if duplex_backs else 1)
    canvas.setPageSize((layout.paper.width * MM, layout.paper.height * MM))
    pen = s.pen(canvas)
    result = CardsPdf(b"", total, layout, *first_pages(cs, opts, layout))
    texts = {c.name: s.card_text(c, cs) for c in cs.cards}
    copies = CardCopies(s, canvas, pen, cs, layout.bleed, texts)
    page_no = 0
    for p in range(n_fronts):
        chunk = cards[p * layout.per_page:(p + 1) * layout.per_page]
        if page_begins is not None:
            page_begins(page_no)
        page_no += 1
        for card, trim in zip(chunk, layout.trims, strict=False):
            copies.draw(card, trim)
        for card, cell in zip(chunk, layout.folded_backs, strict=False):
            if layout.backs_turned:  # a horizontal fold turns them upright again
                with pen.moved(cell.right, cell.top, 180):
                    draw_back(s, pen, cs, Rect(0.0, 0.0, cell.w, cell.h), layout.bleed, card)
            else:
                draw_back(s, pen, cs, cell, layout.bleed, card)
        draw_sheet_furniture(s, pen, layout, messages.text("sheet.page", cs.language, set=cs.name, title=cs.title,
                                                           page=pages_before + page_no,
                                                           total=pages_before + total), cs.language)
        canvas.showPage()
        if duplex_backs:
            if page_begins is not None:
                page_begins(page_no)
            page_no += 1
            duplex = cast(Duplex, opts.duplex)
            cells = back_cells(layout, duplex, opts.offset)
            for card, cell in zip(chunk, cells, strict=False):
                draw_back(s, pen, cs, cell, layout.bleed, card)
            # the label goes where the front's footer falls on this side, clear of the backs
            label = messages.text("sheet.backs_page", cs.language, set=cs.name, page=pages_before + page_no,
                                  total=pages_before + total,
                                  duplex=messages.text(f"sheet.duplex_{opts.duplex}", cs.language))
            draw_page_label(s, pen, layout, label, duplex)
            canvas.showPage()
        if progress is not None:
            progress(len(chunk))
    result.draw_counts = dict(pen.counts)
    return result


@dataclass
class _Drawn:
    code: list[str]  # the canvas operators of one copy, drawn at the origin
    forms: list[str]  # the forms and images it places (the page must list them among its resources)
    counts: Counter[str]  # its pen calls, for the benchmark's counts


class CardCopies:
    """Every copy of a design is the same drawing in another slot: the first copy of each design in a
    document is drawn at the origin under a translation to its slot, its operators are kept, and each
    later copy is those operators under its own translation.

    That is the very stream drawing it again would write: a card's operators set their own font, inks
    and line widths (they depend on no earlier state), and after its first copy every font, glyph code,
    icon form and image it uses is already in the document, so nothing a copy adds depends on where it
    falls. tests/test_sheets.py compares whole files made with and without this.
    """

    enabled = True

    def __init__(self, session: RenderSession, canvas: Any, pen: Pen, cs: CardSet, bleed: float,
                 texts: dict[str, str]) -> None:
        self.session, self.canvas, self.pen, self.cs, self.bleed, self.texts = session, canvas, pen, cs, bleed, texts
        self.drawn: dict[int, _Drawn] = {}

    def draw(self, card: Card, trim: Rect) -> None:
        c = self.canvas
        c.saveState()
        c.translate(trim.x * MM, trim.y * MM)
        kept = self.drawn.get(id(card))
        if kept is None:
            mark, counts = canvas_mark(c), Counter(self.pen.counts)
            draw_card(self.session, self.pen, card, self.cs, Rect(0.0, 0.0, trim.w, trim.h), self.bleed,
                      self.texts[card.name])
            if self.enabled:
                self.drawn[id(card)] = _Drawn(*drawn_since(c, mark), self.pen.counts - counts)
        else:
            draw_again(c, kept.code, kept.forms)
            self.pen.counts.update(kept.counts)
        c.restoreState()


def draw_sheet_furniture(s: RenderSession, pen: Pen, layout: SheetLayout, label: str,
                         lang: str = messages.DEFAULT_LANGUAGE) -> None:
    """Cut marks, the page label and the scale bar."""
    width = s.face.sheet.mark_width_pt
    ink = s.colours.cut_mark
    safe, half = layout.rules.safe_margin, width * PT / 2
    for seg in layout.marks:
        # a mark on a cut line that lies on the printable limit (poker on Letter) moves inside by half its
        # width, as the trim line does, so no ink enters the margin printers lose
        x = min(max(seg.x1, safe + half), layout.paper.width - safe - half) if seg.x1 == seg.x2 else None
        y = min(max(seg.y1, safe + half), layout.paper.height - safe - half) if seg.y1 == seg.y2 else None
        pen.line(seg.x1 if x is None else x, seg.y1 if y is None else y, seg.x2 if x is None else x,
                 seg.y2 if y is None else y, ink, width)
    for seg in layout.fold_marks:
        pen.line(seg.x1, seg.y1, seg.x2, seg.y2, ink, width, (s.face.sheet.fold_dash_on, s.face.sheet.fold_dash_off))
    draw_page_label(s, pen, layout, label)
    draw_scale_bar(s, pen, layout, lang)
    if layout.note is not None:
        draw_note(s, pen, layout.note, [str(n) for n in messages.message("gutterfold_note", lang)])


def draw_note(s: RenderSession, pen: Pen, box: Rect, notes: list[str]) -> None:
    """The longest of `notes` (longest first) that fits `box` at the footer size, centred in it."""
    face, size = s.face.sheet.footer_font, s.face.sheet.footer_pt
    note = next((n for n in notes if pen.width(n, face, size) <= box.w), None)
    if note is not None:
        pen.text(box.x + box.w / 2, box.y + 1.2, note, face, size, s.colours.page_text, align="centre")


def _along(pen: Pen, rect: Rect, rotated: bool) -> tuple[Any, Rect]:
    """A drawing context where the slot runs left to right, and the slot in that context."""
    if rotated:
        return pen.moved(rect.right, rect.y, 90), Rect(0.0, 0.0, rect.h, rect.w)
    return pen.moved(0.0, 0.0), rect


LABEL_SEPARATOR = " · "
ELLIPSIS = "…"


def fit_label(label: str, fits: Callable[[str], bool]) -> str:
    """`label` ("set · title · page 2 of 13") shortened until `fits`: its first parts go, an ellipsis in their
    place ("… title · page 2 of 13"); then the one left before the page number loses words (then letters)
    behind an ellipsis ("… The Long Ti… · page 2 of 13"), and goes only when nothing of it is left. The page
    number, what matters most, is kept whole: nothing is cut without an ellipsis to say so."""
    parts = label.split(LABEL_SEPARATOR)
    dropped = False
    while not fits(_label(parts, dropped)) and len(parts) > 2:
        parts, dropped = parts[1:], True
    while not fits(_label(parts, dropped)) and len(parts) > 1:
        text = parts[0].removesuffix(ELLIPSIS).rstrip()
        cut = (text.rsplit(" ", 1)[0] if " " in text else text[:-1]).rstrip(" ,:;·-–(")
        if cut:
            parts[0] = cut + ELLIPSIS
        else:
            parts, dropped = parts[1:], True
    return _label(parts, dropped)


def _label(parts: list[str], dropped: bool) -> str:
    return (ELLIPSIS + " " if dropped else "") + LABEL_SEPARATOR.join(parts)


def draw_page_label(s: RenderSession, pen: Pen, layout: SheetLayout, label: str,
                    mirrored: Duplex | None = None) -> None:
    """The page's label at the right of its slot; too long for it, along the free line of the footer row
    to its left (`Footer.label_room`), then shrunk to the minimum text size, then shortened (`fit_label`: the
    set's name goes, then its title loses words behind an ellipsis; the page number stays whole). With
    `mirrored`, where a duplex back page puts it: behind the front's label."""
    face, pt, least = s.face.sheet.footer_font, s.face.sheet.footer_pt, s.face.sheet.footer_min_pt
    footer = layout.footer
    where = footer.label
    if pen.width(label, face, pt) > where.w and footer.label_room is not None:
        where = footer.label_room
    if mirrored is not None:
        where = mirror(where, layout.paper, mirrored)
    ctx, box = _along(pen, where, footer.rotated)
    with ctx:
        size = pt
        while pen.width(label, face, size) > box.w and size > least + 1e-9:
            size = max(least, size - 0.25)
        label = fit_label(label, lambda text: pen.width(text, face, size) <= box.w)
        pen.text(box.right, box.y + 1.2, label, face, size, s.colours.page_text, align="right")


INCH_PAPERS = frozenset({"letter"})  # papers sold in inches: their scale bar shows inches too


def draw_scale_bar(s: RenderSession, pen: Pen, layout: SheetLayout, lang: str = messages.DEFAULT_LANGUAGE) -> None:
    """A bar exactly `scale_bar_mm` long with 10 mm ticks below it, so a ruler can check 100 % printing;
    on inch paper its inches (`scale_bar_in`, 1/2 in ticks) run above the same line."""
    length = layout.rules.scale_bar
    ink = s.colours.page_text
    face, pt = s.face.sheet.footer_font, s.face.sheet.scale_bar_pt
    inches = s.face.sheet.scale_bar_in if layout.paper.name in INCH_PAPERS else 0.0
    ctx, box = _along(pen, layout.footer.bar, layout.footer.rotated)
    with ctx:
        y = box.y + 2.0
        pen.line(box.x, y, box.x + max(length, inches * 25.4), y, ink, 0.6)
        ticks = int(length // 10)
        for i in range(ticks + 1):
            x = box.x + length * i / ticks
            pen.line(x, y, x, y - (1.8 if i in (0, ticks) else 1.0), ink, 0.5)
        label = messages.text("scale_bar", lang, mm=f"{length:g}")
        if inches:
            halves = int(inches * 2)
            for i in range(halves + 1):
                x = box.x + 25.4 * inches * i / halves
                pen.line(x, y, x, y + (1.5 if i in (0, halves) else 0.9), ink, 0.5)
            label = messages.text("scale_bar_inches", lang, mm=f"{length:g}", inches=f"{inches:g}")
        pen.text(box.x + (1.0 if inches else 0.0), y + (1.9 if inches else 0.8), label, face, pt, ink)


def draw_back(s: RenderSession, pen: Pen, cs: CardSet, cell: Rect, bleed: float = 0.0,
              card: Card | None = None) -> None:
    """A card back: the same for every card, so the backs reveal nothing, unless the set gives `card` or its
    type a back of its own (its `back:`, `look.backs`). `cell` includes the bleed; the frame and title keep
    their distance from the cut, not from the bleed's edge. A back image covers the whole cell (card and
    bleed), centred, its overflow clipped; the set's back design is in the session's layout already
    (`set_look.look_layout`), a type's or card's design is drawn over it."""
    own = own_back(cs, card)
    image = back_image(cs) if own is None else own_back_image(own)
    if image is not None:
        pen.image(image[0], image[1], cell.x, cell.y, cell.w, cell.h)
        return
    fill, pattern, ink = s.colours.back.fill, s.colours.back.pattern, s.colours.back.ink
    title = back_title(cs)
    if own is not None:
        fill, pattern, ink = own.design.fill or fill, own.design.pattern or pattern, own.design.ink or ink
        title = own.design.title or title
    inset = s.face.back.inset  # face_problems keeps the frame's outer edge beyond the safe margin
    with pen.clipped(cell.x, cell.y, cell.w, cell.h):
        pen.fill_rect(cell.x, cell.y, cell.w, cell.h, fill)
        step, stripe_pt = s.face.back.stripe_step, s.face.back.stripe_pt
        k = -cell.h
        while k < cell.w:
            pen.line(cell.x + k, cell.y, cell.x + k + cell.h, cell.top, pattern, stripe_pt)
            k += step
        inner = cell.inset(bleed + inset)
        pen.stroke_rect(inner.x, inner.y, inner.w, inner.h, ink, s.face.back.frame_pt, radius=s.face.back.radius)
        face = s.face.back.title_font
        box = Rect(inner.x + 3, inner.y + inner.h * 0.3, inner.w - 6, inner.h * 0.4)
        pen.fill_rect(box.x - 1, box.y, box.w + 2, box.h, fill, radius=2)
        block = fit_lines(s.metrics, title.upper(), box.w, box.h, s.face.back.title_max_pt,
                          s.face.back.title_min_pt, 0.5, (Faces(face, face),), 1.15)
        if block is not None:
            content = block.size_pt * 0.74 * PT + (len(block.lines) - 1) * block.leading
            draw_block(pen, block, box.x, box.y + (box.h + content) / 2, ink, centred_width=box.w)
        # English keeps the layout's line (a set's look may change it); another language says it in its words
        subtitle = s.face.back.subtitle if cs.language == messages.DEFAULT_LANGUAGE or not s.face.back.subtitle \
            else messages.text("sheet.back_subtitle", cs.language)
        if own is not None and own.design.subtitle is not None and own.design.subtitle != cs.look.back.subtitle:
            subtitle = own.design.subtitle  # the type's own line
        if subtitle:
            sub_face, sub_pt = s.face.back.subtitle_font, s.face.back.subtitle_pt
            pen.text(box.x + box.w / 2, box.y - 4, subtitle, sub_face, sub_pt, ink, align="centre")
