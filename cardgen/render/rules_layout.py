"""Lay the rules-page blocks out with reportlab: a title band, then columns of text and tables.

Sizes, colours and column shares come from `templates/rules/layout.yaml`. `render`
draws the blocks at one body font size and reports how many pages that took and how
much room it needed, so the caller can shrink the size until the page fits.
"""

from __future__ import annotations

import copy
import html
import io
import math
import re
from functools import cache
from typing import Any, Final, NamedTuple

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import registerFontFamily, stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    CondPageBreak,
    Flowable,
    Frame,
    HRFlowable,
    KeepTogether,
    PageTemplate,
    Paragraph,
    Table,
    TableStyle,
)

from cardgen import messages
from cardgen.library_compat import document_info, frame_cursor, leave_canvas_unsaved, restore_document_info
from cardgen.paths import templates_dir
from cardgen.render.face_layout import bundled as bundled_layout
from cardgen.render.face_layout import min_text_pt
from cardgen.render.fonts import register_fonts
from cardgen.render.hyphenation import broken, narrowest
from cardgen.render.icons import PRODUCER, IconCanvas, paragraph_markup
from cardgen.render.memory import RulesMemory
from cardgen.render.rules_content import TABLE_KINDS, Block
from cardgen.yaml_doc import read_plain

LAYOUT_FILE = "layout.yaml"
BULLET = "•"  # drawn before each bullet paragraph, in the body face
PDF_AUTHOR = "cardgen"
PDF_CREATOR = "cardgen rules page"


@cache
def layout() -> dict[str, Any]:
    """The layout data (templates/rules/layout.yaml)."""
    with open(templates_dir() / "rules" / LAYOUT_FILE, encoding="utf-8") as fh:
        data: dict[str, Any] = read_plain(fh.read())
    return data


def paper_names() -> tuple[str, ...]:
    return tuple(layout()["papers"])


def font_sizes() -> list[float]:
    """Candidate body sizes, largest first, down to the legible minimum."""
    s = layout()["sizes"]
    out: list[float] = []
    size = float(s["max"])
    while size >= min_font_size() - 1e-9:
        out.append(round(size, 2))
        size -= float(s["step"])
    return out


Faces = tuple[tuple[str, str], ...]
"""A set's own faces on its rules page: (logical face, registered name) pairs, sorted (hashable, so the
remembered pages of `rules_page` are told apart); empty for the bundled DejaVu."""


def face(logical: str, faces: Faces = ()) -> str:
    """The face to draw `logical` (a name layout.yaml gives: Sans, Sans-Bold, ...) in: the set's own when it
    brings one, else the bundled one."""
    return next((registered for name, registered in faces if name == logical), logical)


def page_faces() -> tuple[str, ...]:
    """The logical faces the rules page draws in (its title band, text, headings and tables)."""
    lay = layout()
    return tuple(dict.fromkeys(str(f) for f in (lay["title"]["face"], lay["title"]["subtitle_face"],
                                                lay["text"]["face"], lay["text"]["bold"], lay["text"]["italic"],
                                                lay["heading"]["face"], lay["table"]["face"],
                                                lay["table"]["bold"])))


def min_font_size() -> float:
    """The project's one minimum text size (`min_text_pt` in templates/layout/face.yaml)."""
    return min_text_pt()


class Rendered(NamedTuple):
    """One attempt at the page: the PDF, its page count and the room its content needed."""

    pdf: bytes
    pages: int
    needed: float  # content height / height of one page's columns (<= 1.0 fits, roughly)
    cramped: bool  # the card table had to split words at this size
    drawn: DrawnPages | None = None  # a drawn layout, to draw again on another canvas

    @property
    def tidy(self) -> bool:
        return self.pages == 1 and not self.cramped


Placed = tuple[Any, float, float, float]  # a flowable as its frame drew it: the flowable, x, y and its _sW


class DrawnPages(NamedTuple):
    """A laid-out and drawn rules layout: each page's flowables where their frames drew them. Drawing them
    again (platypus's own `Flowable.drawOn`, each flowable as it was wrapped) puts the very same page on
    another canvas without laying it out again: the print file's rules pages."""

    geo: _Geometry
    title: str
    subtitle: str
    size: float
    pages: tuple[tuple[Placed, ...], ...]
    faces: Faces = ()

    def draw_on(self, canvas: Canvas) -> None:
        body = face(layout()["text"]["face"], self.faces)
        for page in self.pages:
            canvas.setPageSize((self.geo.width, self.geo.height))
            _draw_band(canvas, self.geo, self.title, self.subtitle, self.faces)
            canvas.setFont(body, self.size)
            for flowable, x, y, shrink in page:
                flowable.drawOn(canvas, x, y, _sW=shrink)
            canvas.showPage()


class _Styles(NamedTuple):
    body: ParagraphStyle
    bullet: ParagraphStyle
    heading: ParagraphStyle
    term: ParagraphStyle
    cell: ParagraphStyle
    cell_bold: ParagraphStyle
    cell_head: ParagraphStyle
    size: float
    lang: str
    memory: RulesMemory  # parsed paragraphs, see _para


def _styles(size: float, faces: Faces = (), lang: str = messages.DEFAULT_LANGUAGE,
            memory: RulesMemory | None = None) -> _Styles:
    lay = layout()
    lead = float(lay["leading"])
    text, head, table = lay["text"], lay["heading"], lay["table"]
    ink = colors.HexColor(lay["ink"])
    body = ParagraphStyle("body", fontName=face(text["face"], faces), fontSize=size, leading=size * lead,
                          textColor=ink,
                          spaceAfter=size * float(text["gap_after"]))
    indent = size * float(text["bullet_indent"])
    bullet = ParagraphStyle("bullet", parent=body, leftIndent=indent, bulletIndent=0, bulletFontName=body.fontName,
                            bulletFontSize=size,
                            spaceAfter=size * 0.12)
    hsize = size * float(head["scale"])
    heading = ParagraphStyle("heading", fontName=face(head["face"], faces), fontSize=hsize, leading=hsize * lead,
                             textColor=colors.HexColor(head["colour"]), spaceBefore=size * float(head["gap_before"]),
                             spaceAfter=size * float(head["gap_after"]))
    term = ParagraphStyle("term", parent=body)
    tsize = max(size * float(table["scale"]), min_font_size())
    cell = ParagraphStyle("cell", fontName=face(table["face"], faces), fontSize=tsize,
                          leading=tsize * float(table["leading"]), textColor=ink)
    cell_bold = ParagraphStyle("cell_bold", parent=cell, fontName=face(table["bold"], faces))
    cell_head = ParagraphStyle("cell_head", parent=cell, fontName=cell_bold.fontName,
                               textColor=colors.HexColor(table["head_colour"]))
    return _Styles(body, bullet, heading, term, cell, cell_bold, cell_head, size, lang,
                   RulesMemory() if memory is None else memory)


# --- tables ----------------------------------------------------------------------------------------

def _base_table_style(st: _Styles) -> list[tuple[Any, ...]]:
    table = layout()["table"]
    pad = st.size * float(table["padding"])
    return [
        ("FONT", (0, 0), (-1, -1), st.cell.fontName, st.cell.fontSize, st.cell.leading),  # never Helvetica
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), pad * 1.6),
        ("RIGHTPADDING", (0, 0), (-1, -1), pad * 1.6),
        ("TOPPADDING", (0, 0), (-1, -1), pad),
        ("BOTTOMPADDING", (0, 0), (-1, -1), pad * 1.4),
        ("LINEBELOW", (0, 0), (-1, -1), 0.25, colors.HexColor(table["rule"])),
    ]


def _padded(cells: tuple[str, ...], n: int) -> list[str]:
    return [*cells, *([""] * n)][:n]


def _swatch(style: list[tuple[Any, ...]], row: int, colour: str) -> None:
    border = colors.HexColor(layout()["table"]["swatch_border"])
    style.append(("BACKGROUND", (0, row), (0, row), colors.HexColor(colour)))
    style.append(("BOX", (0, row), (0, row), 0.3, border))


def _type_table(rows: list[Block], st: _Styles, width: float) -> Table:
    sw = float(layout()["table"]["swatch"]) * mm
    data: list[list[Any]] = []
    style = _base_table_style(st)
    for i, b in enumerate(rows):
        if b.kind == "group":
            data.append([_para(st.memory, b.text, st.cell_head), ""])
            style.append(("SPAN", (0, i), (-1, i)))
            continue
        colour, text = b.cells[0], b.cells[1]
        data.append(["", _para(st.memory, text, st.cell)])
        _swatch(style, i, colour)
    return Table(data, colWidths=[sw, width - sw], style=TableStyle(style), hAlign="LEFT")


# Widths worked out by subtraction agree with their target only to rounding: a column this much narrower than a
# word still holds it.
_SLACK: Final = 1e-6


class _CardTable(Table):  # type: ignore[misc]
    """The card table; `cramped` when a name or effect word is wider than its column at this size."""

    cramped = False


def _card_widths(rows: list[Block], st: _Styles, width: float, compact: bool) -> tuple[list[float], bool]:
    """Swatch, name, value, copies and effect widths: the short columns as wide as their longest entry,
    the name as wide as its longest name, the effect the rest; neither splits a word if it can help it.
    `compact` (no effect column): swatch, name, value and copies, the name taking the rest."""
    table = layout()["table"]
    limits = table["cards"]
    size = st.cell.fontSize
    pad = 2 * st.size * float(table["padding"]) * 1.6
    bold, regular = st.cell_bold.fontName, st.cell.fontName
    sw = float(table["swatch"]) * mm
    rest = width - sw
    cells = [b.cells for b in rows if b.kind in ("card", "cardhead")]
    offset = [1 if b.kind == "card" else 0 for b in rows if b.kind in ("card", "cardhead")]

    def widest(col: int, font: str, words: bool = False) -> float:
        best = 0.0
        for c, off in zip(cells, offset, strict=True):
            if len(c) > col + off:
                texts = c[col + off].split() if words else [c[col + off]]
                best = max([best, *(float(stringWidth(t, font, size)) for t in texts)])
        return best + pad + 1.0  # a point of slack: Paragraph wraps text that fits only exactly

    def least(col: int, font: str) -> float:
        """The room the column's widest word needs, broken at its hyphenation points."""
        words = [w for c, off in zip(cells, offset, strict=True) if len(c) > col + off for w in c[col + off].split()]
        return max((narrowest(w, st.lang, lambda t: float(stringWidth(t, font, size))) for w in words),
                   default=0.0) + pad + 1.0

    value_w, copies_w = widest(1, bold), widest(2, regular)
    if compact:  # nothing to share the row with: no name is measured, none is split
        return [sw, width - (value_w + copies_w) - sw, value_w, copies_w], False
    name_full, name_word = widest(0, bold), widest(0, bold, words=True)
    name_w = max(name_word, min(name_full, rest * float(limits["name_max"])))
    effect_w = rest - name_w - value_w - copies_w
    effect_word = widest(3, regular, words=True)
    floor = max(rest * float(limits["effect_min"]), effect_word)
    if effect_w < floor:
        name_w = max(name_word, name_w - (floor - effect_w))
        effect_w = rest - name_w - value_w - copies_w
    if effect_w < floor - _SLACK:  # one word of a name is wider than the room left: it splits in its column,
        # at a hyphenation point, so the column is at least as wide as the widest piece
        name_w = max(rest - value_w - copies_w - floor, least(0, bold))
        effect_w = rest - name_w - value_w - copies_w
    return ([sw, name_w, value_w, copies_w, effect_w],
            effect_w < effect_word - _SLACK or name_w < name_word - _SLACK)


def _para(memory: RulesMemory, text: str, style: ParagraphStyle, bulletText: str | None = None) -> Paragraph:
    """A Paragraph whose markup is parsed once per text and style: a watch rebuild lays the page out again at
    the sizes it tried before, and most of its paragraphs are the same. Each paragraph gets its own copies
    of the parsed fragments, as parsing would give it (tests/test_rules_page.py compares the pages)."""
    key = (text, style.name, str(style.fontName), float(style.fontSize), float(style.leading))
    frags = memory.parsed.get(key)
    if frags is None:
        made = Paragraph(text, style, bulletText=bulletText)
        memory.remember_parsed(key, [f.clone() for f in made.frags])
        return made
    return Paragraph(text, style, bulletText=bulletText, frags=[f.clone() for f in frags])


def _cell(memory: RulesMemory, markup: str, style: ParagraphStyle, room: float) -> str | Paragraph:
    """A table cell: its plain text when that fits on one line (the table draws it like a one-line
    paragraph, at the same baseline, for a fraction of the cost), else a paragraph that wraps it."""
    if "<" not in markup:
        text = " ".join(html.unescape(markup).split())
        if stringWidth(text, style.fontName, style.fontSize) <= room:
            return text
    return _para(memory, markup, style)


def _hyphenated(markup: str, style: ParagraphStyle, room: float, lang: str) -> str:
    """A name's markup with each word wider than `room` broken at its hyphenation points, a hyphen at each
    break (a narrow column never splits a word at an arbitrary letter)."""
    if "<" in markup:
        return markup

    def width(text: str) -> float:
        return float(stringWidth(text, style.fontName, style.fontSize))

    words = html.unescape(markup).split()
    if all(width(w) <= room for w in words):
        return markup
    return " ".join("<br/>".join(html.escape(line, quote=False) for line in broken(w, room, width, lang))
                    for w in words)


def _card_table(rows: list[Block], st: _Styles, width: float) -> Table:
    table = layout()["table"]
    compact = all(len(b.cells) < 5 for b in rows if b.kind == "card")  # no effect column
    widths, cramped = _card_widths(rows, st, width, compact)
    if min(widths[1:]) <= 2 * st.size * float(table["padding"]) * 1.6 + 1.0:
        raise _Overflowed  # at this size the columns leave a column no room at all: the page does not fit
    data: list[list[Any]] = []
    style = _base_table_style(st)
    style.append(("ALIGN", (2, 0), (3, -1), "CENTER"))
    # cells drawn as plain strings: ink, and the bold face for name and value (paragraph cells ignore these)
    style.append(("TEXTCOLOR", (0, 0), (-1, -1), st.cell.textColor))
    style.append(("FONT", (1, 0), (2, -1), st.cell_bold.fontName, st.cell.fontSize, st.cell.leading))
    pad = 2 * st.size * float(table["padding"]) * 1.6
    stripe = colors.HexColor(table["stripe"])
    head_rows = 0
    n = 0
    for i, b in enumerate(rows):
        if b.kind == "cardhead":
            data.append([""] + [_para(st.memory, c, st.cell_head) for c in b.cells])
            head_rows = i + 1
            style.append(("LINEBELOW", (0, i), (-1, i), 0.6, colors.HexColor(table["head_colour"])))
            continue
        if b.kind == "group":
            data.append([_para(st.memory, b.text, st.cell_head), *([""] * (len(widths) - 1))])
            style.append(("SPAN", (0, i), (-1, i)))
            continue
        colour, name, value, copies, effect = _padded(b.cells, 5)
        name = _hyphenated(name, st.cell_bold, widths[1] - pad, st.lang)
        row: list[Any] = ["", _cell(st.memory, name, st.cell_bold, widths[1] - pad), html.unescape(value),
                          html.unescape(copies)]
        data.append(row if compact else [*row, _cell(st.memory, effect, st.cell, widths[4] - pad)])
        if n % 2:
            style.append(("BACKGROUND", (1, i), (-1, i), stripe))
        n += 1
        _swatch(style, i, colour)
    out = _CardTable(data, colWidths=widths, style=TableStyle(style), repeatRows=head_rows, hAlign="LEFT")
    out.cramped = cramped
    return out


def _equivalence_table(rows: list[Block], st: _Styles, width: float) -> Table:
    shares = layout()["table"]["equivalences"]
    widths = [width * float(shares["left"]), width * float(shares["right"])]
    data: list[list[Any]] = []
    style = _base_table_style(st)
    for i, b in enumerate(rows):
        cell_style = st.cell_head if b.kind == "equivhead" else st.cell_bold
        data.append([_para(st.memory, c, cell_style) for c in _padded(b.cells, 2)])
        if b.kind == "equivhead":
            style.append(("LINEBELOW", (0, i), (-1, i), 0.6, colors.HexColor(layout()["table"]["head_colour"])))
    return Table(data, colWidths=widths, style=TableStyle(style), repeatRows=1, hAlign="LEFT")


def _table(rows: list[Block], st: _Styles, width: float) -> Table:
    kinds = {b.kind for b in rows}
    if kinds & {"card", "cardhead"}:
        return _card_table(rows, st, width)
    if kinds & {"equiv", "equivhead"}:
        return _equivalence_table(rows, st, width)
    return _type_table(rows, st, width)


# --- story -----------------------------------------------------------------------------------------

def _with_icons(b: Block, size: float, body: str) -> str:
    """The block's text with its keyword icons, sized like the card faces' (face.yaml text.icon_*), the space
    left for each in the `body` face."""
    return paragraph_markup(b.text, b.icons, size, bundled_layout().face.text.icon_em,
                            bundled_layout().face.text.icon_gap_em, body)


def story(blocks: list[Block], size: float, width: float, faces: Faces = (),
          lang: str = messages.DEFAULT_LANGUAGE, memory: RulesMemory | None = None) -> list[Flowable]:
    """Flowables for the body blocks (the title is drawn separately) at body font `size`, words broken
    by `lang`'s hyphenation."""
    st = _styles(size, faces, lang, memory)
    body = st.body.fontName
    head = layout()["heading"]
    out: list[Flowable] = []
    run: list[Block] = []

    heading_ends = -1  # len(out) just after the last heading's rule: a table starting there follows it

    def flush() -> None:
        if run:
            table = _table(list(run), st, width)
            # Short tables (card types, equivalences) stay in one column, with the heading right above them
            # (else a heading could end a column with its table at the top of the next); the card table
            # may split.
            if isinstance(table, _CardTable):
                out.append(table)
            elif heading_ends == len(out):
                out[-2:] = [KeepTogether([*out[-2:], table])]
            else:
                out.append(KeepTogether([table]))
            run.clear()

    for b in blocks:
        if b.kind in TABLE_KINDS:
            run.append(b)
            continue
        flush()
        if b.kind == "title":
            continue
        if b.kind == "heading":
            # Start a new column unless the heading and a few lines fit; unlike keepWithNext this never
            # pushes a whole long table (and the room above it) into the next column.
            out.append(CondPageBreak(st.heading.leading + st.heading.spaceBefore + 4 * st.body.leading))
            out.append(_para(st.memory, b.text, st.heading))
            out.append(HRFlowable(width="100%", thickness=0.6, color=colors.HexColor(head["colour"]),
                                  spaceBefore=0, spaceAfter=size * 0.3))
            heading_ends = len(out)
        elif b.kind == "bullet":
            out.append(_para(st.memory, _with_icons(b, size, body), st.bullet, bulletText=BULLET))
        elif b.kind == "term":
            colour = layout()["term"]["colour"]
            term = f'<font color="{colour}"><b>{b.heading}:</b></font> {_with_icons(b, size, body)}'
            out.append(_para(st.memory, term, st.term))
        else:
            out.append(_para(st.memory, _with_icons(b, size, body), st.body))
    flush()
    return out


# --- page ------------------------------------------------------------------------------------------

class _Geometry(NamedTuple):
    width: float
    height: float
    margin: float
    band: float
    columns: int
    gutter: float

    @property
    def column_width(self) -> float:
        return (self.width - 2 * self.margin - (self.columns - 1) * self.gutter) / self.columns

    @property
    def column_height(self) -> float:
        return self.height - 2 * self.margin - self.band

    def frames(self, draw: bool = True, placed: dict[int, list[Placed]] | None = None) -> list[Frame]:
        """The columns; drawn ones note in `placed` (by canvas page number) what they draw where."""
        def make(i: int) -> Frame:
            args = (self.margin + i * (self.column_width + self.gutter), self.margin, self.column_width,
                    self.column_height)
            kwargs: dict[str, Any] = {"leftPadding": 0, "rightPadding": 0, "topPadding": 0, "bottomPadding": 0,
                                      "id": f"column{i}"}
            if not draw:
                return _MeasureFrame(*args, **kwargs)
            return _RecordingFrame(*args, placed={} if placed is None else placed, **kwargs)

        return [make(i) for i in range(self.columns)]


def _skip_drawing(*_args: Any, **_kwargs: Any) -> None:
    return None


class _MeasureFrame(Frame):  # type: ignore[misc]
    """A column that places flowables without drawing them: a size-search probe needs only where they land
    (drawing never moves anything in platypus), and drawing is a third of a layout's time."""

    def add(self, flowable: Flowable, canv: Canvas, trySplit: int = 0) -> int:
        flowable.drawOn = _skip_drawing
        try:
            return int(super().add(flowable, canv, trySplit))
        finally:
            del flowable.drawOn


class _RecordingFrame(Frame):  # type: ignore[misc]
    """A column that draws its flowables and notes each one's place (DrawnPages draws them again)."""

    def __init__(self, *args: Any, placed: dict[int, list[Placed]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.placed = placed

    def __deepcopy__(self, memo: dict[int, Any]) -> _RecordingFrame:
        """A copy sharing the record: platypus copies the frame to measure a KeepTogether in it (nothing is
        drawn there), and copying the record would copy every flowable drawn so far."""
        memo[id(self.placed)] = self.placed
        new = type(self).__new__(type(self))
        memo[id(self)] = new
        for key, value in vars(self).items():
            setattr(new, key, copy.deepcopy(value, memo))
        return new

    def add(self, flowable: Flowable, canv: Canvas, trySplit: int = 0) -> int:
        real = flowable.drawOn

        def drawn(canvas: Canvas, x: float, y: float, _sW: float = 0) -> None:
            self.placed.setdefault(int(canvas.getPageNumber()), []).append((flowable, x, y, _sW))
            real(canvas, x, y, _sW=_sW)

        flowable.drawOn = drawn
        try:
            return int(super().add(flowable, canv, trySplit))
        finally:
            del flowable.drawOn


class _UnsavedCanvas(IconCanvas):
    """The canvas of a probe that is not drawn: nothing to save."""

    def save(self) -> None:
        return None


def geometry(paper: str, columns: int | None = None) -> _Geometry:
    lay = layout()
    p = lay["papers"][paper]
    return _Geometry(float(p["width"]) * mm, float(p["height"]) * mm, float(lay["margin"]) * mm,
                     float(lay["title"]["band"]) * mm, columns or int(lay["columns"]), float(lay["gutter"]) * mm)


def back_columns() -> int:
    """Columns of the card list on the back of a big set's page."""
    return int(layout()["back_columns"])


_TAG = re.compile(r"<[^>]+>")


def text_area(blocks: list[Block], column_width: float, faces: Faces = ()) -> float:
    """Area (pt², at a 1 pt body size) the blocks' words take: their width at 1 pt times the leading.

    Only a guess at where to start the size search (area grows with the square of the size); the
    layout itself decides.
    """
    _register(faces)
    lay = layout()
    body, lead = face(lay["text"]["face"], faces), float(lay["leading"])
    total = 0.0
    for b in blocks:
        words = " ".join([b.heading, b.text, *b.cells[1:]]) if b.kind in TABLE_KINDS else f"{b.heading} {b.text}"
        total += float(stringWidth(_TAG.sub("", words), body, 1.0)) * lead
    return total


def _draw_band(canv: Canvas, geo: _Geometry, title: str, subtitle: str, faces: Faces = ()) -> None:
    """Title left, subtitle right, a rule under both, thin rules between the columns."""
    t = layout()["title"]
    title_face, subtitle_face = face(t["face"], faces), face(t["subtitle_face"], faces)
    top = geo.height - geo.margin
    sub_w = stringWidth(subtitle, subtitle_face, float(t["subtitle_size"]))
    room = geo.width - 2 * geo.margin - sub_w - 4 * mm
    size = float(t["size"])
    while size > float(t["min_size"]) and stringWidth(title, title_face, size) > room:
        size -= 0.5
    baseline = top - float(t["size"]) * 0.95
    canv.setFillColor(colors.HexColor(t["colour"]))
    canv.setFont(title_face, size)
    canv.drawString(geo.margin, baseline, title)
    canv.setFillColor(colors.HexColor(t["subtitle_colour"]))
    canv.setFont(subtitle_face, float(t["subtitle_size"]))
    canv.drawRightString(geo.width - geo.margin, baseline, subtitle)
    rule_y = top - geo.band + 2.2 * mm
    canv.setStrokeColor(colors.HexColor(t["rule_colour"]))
    canv.setLineWidth(1.2)
    canv.line(geo.margin, rule_y, geo.width - geo.margin, rule_y)
    canv.setStrokeColor(colors.HexColor(layout()["column_rule"]))
    canv.setLineWidth(0.4)
    for i in range(1, geo.columns):
        x = geo.margin + i * (geo.column_width + geo.gutter) - geo.gutter / 2
        canv.line(x, geo.margin, x, geo.margin + geo.column_height)


class _Overflowed(Exception):
    """A probe's content ran onto a second page: it does not fit, the rest need not be drawn."""


class _MeasuredDoc(BaseDocTemplate):  # type: ignore[misc]
    """A doc template that remembers how far down each column was filled."""

    def __init__(self, *args: Any, stop_at_overflow: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lowest: dict[tuple[int, str], float] = {}
        self.stop_at_overflow = stop_at_overflow

    def handle_pageBegin(self) -> None:
        if self.stop_at_overflow and self.page >= 1:
            raise _Overflowed
        super().handle_pageBegin()

    def afterFlowable(self, flowable: Flowable) -> None:
        frame = getattr(self, "frame", None)
        if frame is None:  # actions before the first frame starts
            return
        key = (int(self.page), str(frame.id))
        y = frame_cursor(frame)
        self.lowest[key] = min(y, self.lowest.get(key, y))


@cache
def _register_bundled() -> None:
    register_fonts()
    registerFontFamily("Cond", normal="Cond", bold="Cond-Bold", italic="Cond", boldItalic="Cond-Bold")


def _register(faces: Faces = ()) -> None:
    """The bundled faces, plus a bold mapping for the condensed face so <b> works in table cells; with a set's
    own faces (registered by `fonts.register_set_fonts`), the same two families in them: <b> and <i> in a
    paragraph of the set's regular face draw in its bold and italic (the bundled ones where it brings none),
    in a table cell of its condensed face in its condensed bold. A file that is both regular and condensed
    keeps the regular's family (its italic). The families are registered again for every layout (a few
    dictionary entries): reportlab keeps one family per regular face, and two sets of one process may pair the
    same regular file with different bold ones."""
    _register_bundled()
    if not faces:
        return
    cond = face("Cond", faces)
    if cond != "Cond":
        registerFontFamily(cond, normal=cond, bold=face("Cond-Bold", faces), italic=cond,
                           boldItalic=face("Cond-Bold", faces))
    regular = face("Sans", faces)
    if regular != "Sans":
        registerFontFamily(regular, normal=regular, bold=face("Sans-Bold", faces), italic=face("Sans-Oblique", faces),
                           boldItalic=face("Sans-Bold", faces))


def rules_canvas(buf: io.BytesIO, paper: str, size: float, faces: Faces = ()) -> IconCanvas:
    """A canvas for a rules file, set up as a rules layout's own document would make it."""
    _register(faces)
    geo = geometry(paper)
    body = face(layout()["text"]["face"], faces)
    return IconCanvas(buf, pagesize=(geo.width, geo.height), invariant=1, pageCompression=1, initialFontName=body,
                      initialFontSize=size, initialLeading=size * float(layout()["leading"]))


def render(blocks: list[Block], paper: str, size: float, subject: str, columns: int | None = None,
           heading: str = "", stop_at_overflow: bool = False, draw: bool = True, onto: Canvas | None = None,
           retitle: bool = True, faces: Faces = (), lang: str = messages.DEFAULT_LANGUAGE,
           memory: RulesMemory | None = None) -> Rendered:
    """Draw the blocks at body `size` on `paper`; more than one page means it does not fit.

    `columns` overrides the layout's column count; `heading` is the band's title when the blocks
    have none (the card list on the back of a big set's page). With `stop_at_overflow` (a size
    search's probe) drawing stops when a second page starts: the result then has 2 pages, no PDF
    and an unknown (infinite) `needed`; that spares a failed probe its second page and the saving of its PDF.
    Without `draw` (a probe whose page will not be kept) the blocks are only placed: the same pages,
    `needed` and `cramped` as a drawn layout, no PDF; it implies `stop_at_overflow`. With `onto` the pages
    are drawn on that canvas (an IconCanvas: the rules file, or the rules part of the print file), which is
    not saved (no PDF); without `retitle` its document information stays as it was. `faces` are the set's own
    (registered already), drawn instead of the bundled ones they replace.
    """
    stop_at_overflow = stop_at_overflow or not draw
    _register(faces)
    body = face(layout()["text"]["face"], faces)
    geo = geometry(paper, columns)
    title_block = next((b for b in blocks if b.kind == "title"), None)
    # the title block's cells are paragraph markup (`Tom &amp; Jerry`); the band and the PDF's title take text
    title = html.unescape(title_block.cells[0]) if title_block else heading
    subtitle = html.unescape(title_block.cells[1]) if title_block and len(title_block.cells) > 1 else ""
    buf = io.BytesIO()
    doc = _MeasuredDoc(buf, pagesize=(geo.width, geo.height), invariant=1, pageCompression=1,
                       title=messages.text("pdf.rules_title", lang, title=title), author=PDF_AUTHOR,
                       subject=subject, creator=PDF_CREATOR, producer=PRODUCER,
                       keywords="", initialFontName=body, initialFontSize=size,
                       initialLeading=size * float(layout()["leading"]),
                       leftMargin=geo.margin, rightMargin=geo.margin, topMargin=geo.margin, bottomMargin=geo.margin,
                       stop_at_overflow=stop_at_overflow)

    placed: dict[int, list[Placed]] = {}

    def on_page(canv: Canvas, _doc: Any) -> None:
        placed.setdefault(int(canv.getPageNumber()), [])  # every page, even one its frames leave empty
        _draw_band(canv, geo, title, subtitle, faces)
        canv.setFont(body, size)

    doc.addPageTemplates([PageTemplate(id="rules", frames=geo.frames(draw, placed), onPage=on_page)])
    try:
        flowables = story(blocks, size, geo.column_width, faces, lang, memory)
        tables = [f for f in flowables if isinstance(f, _CardTable)]  # (building the document empties the list)
        if onto is not None:
            leave_canvas_unsaved(doc)  # the caller goes on drawing on its canvas and saves it
            info = document_info(onto)
            doc.build(flowables, canvasmaker=lambda *_args, **_kwargs: onto)
            if not retitle:
                restore_document_info(onto, info)
        else:
            doc.build(flowables, canvasmaker=IconCanvas if draw else _UnsavedCanvas)
    except _Overflowed:
        return Rendered(b"", 2, math.inf, False)
    top = geo.margin + geo.column_height
    used = sum(top - y for (page, _frame), y in doc.lowest.items() if page >= 1)
    capacity = geo.column_height * geo.columns
    pages = int(doc.page)
    extra = sum(top - y for (page, _frame), y in doc.lowest.items() if page >= 2)
    needed = (capacity + extra) / capacity if pages > 1 else used / capacity
    cramped = any(t.cramped for t in tables)
    drawn = DrawnPages(geo, title, subtitle, size, tuple(tuple(placed.get(n, ())) for n in sorted(placed)), faces)
    return Rendered(buf.getvalue() if draw and onto is None else b"", pages, needed, cramped,
                    drawn if draw else None)
