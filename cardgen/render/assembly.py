"""The assembly page of the print file: how to print, check, cut, fold and sleeve this very build.

Its steps depend on the build's options (duplex backs, gutterfold, bleed, paper, card size) and its
words come from the message catalogue (`templates/messages/<lang>.yaml`), so the page says what to
do with the sheets that follow it, and nothing else.
"""

from __future__ import annotations

from typing import Any

from cardgen import messages
from cardgen.model import CardSet
from cardgen.render import layout_data as L
from cardgen.render.geometry import SheetLayout
from cardgen.render.pen import MM, PT, Pen
from cardgen.render.session import RenderSession
from cardgen.render.sheets import PrintOptions, card_sequence, file_stem, size_name
from cardgen.render.textfit import Faces, draw_block, wrap

MARGIN = 18.0  # mm, well inside every printer's unprintable band
TITLE_PT, HEAD_PT, BODY_PT = 18.0, 11.5, 10.0
INK, HEAD_INK = "#1D1D1B", "#9E2A1C"  # as the rules page


def steps(s: RenderSession, cs: CardSet, opts: PrintOptions, layout: SheetLayout,
          lang: str | None = None) -> list[tuple[str, list[str]]]:
    """(heading, paragraphs) of the page, in order, in `lang` (the set's language unless given)."""
    language = lang or cs.language

    def t(key: str, **fields: object) -> str:
        return messages.text(key, language, **fields)

    def many(key: str, **fields: object) -> list[str]:
        return [str(s).format(**fields) for s in messages.message(key, language)]

    inches = layout.paper.name in ("letter",)
    inch_note = f" ({s.face.sheet.scale_bar_in:g} in)" if inches else ""
    printing = many("assembly.print_steps", file=f"{file_stem(cs.name, cs.language)}-print.pdf",
                    mm=f"{layout.rules.scale_bar:g}",
                    inches_note=inch_note)
    if layout.folded_backs:
        printing += many("assembly.gutterfold_steps")
    elif opts.backs:
        printing += many("assembly.duplex_steps", edge=t(f"assembly.edge_{opts.duplex}"))
    else:
        printing += many("assembly.single_steps")
    card = layout.card
    cut = t("assembly.cut_bleed", bleed=f"{layout.bleed:g}") if layout.bleed or layout.gap else t("assembly.cut_trim")
    sleeve = (t("assembly.sleeve_slip", width=f"{card.width:g}", height=f"{card.height:g}") if card.name == "slip"
              else t("assembly.sleeve_other", width=f"{card.width:g}", height=f"{card.height:g}"))
    count = t("assembly.check_count", cards=len(card_sequence(cs, opts.proof)), designs=len(cs.cards))
    return [(t("assembly.print_heading"), printing), (t("assembly.cut_heading"), [cut]),
            (t("assembly.sleeve_heading"), [sleeve]), (t("assembly.check_heading"), [count])]


def draw_assembly(s: RenderSession, canvas: Any, cs: CardSet, opts: PrintOptions, layout: SheetLayout, sheets: int,
                  lang: str | None = None) -> None:
    """The making-of steps as the next page of `canvas` (the print file's), portrait on the build's paper, in
    `lang` (the set's language unless given)."""
    lang = lang or cs.language
    paper = L.paper(opts.paper)
    canvas.setPageSize((paper.width * MM, paper.height * MM))
    pen = s.pen(canvas)
    width = paper.width - 2 * MARGIN
    top = paper.height - MARGIN
    bold, regular = Faces("Sans-Bold", "Sans-Bold"), Faces("Sans", "Sans-Bold")
    cards = len(card_sequence(cs, opts.proof))
    title = messages.text("assembly.title", lang)
    subtitle = messages.text("assembly.subtitle", lang, title=cs.title, cards=cards, sheets=sheets,
                             paper=layout.paper.label, size=size_name(layout.card.name, lang),
                             width=f"{layout.card.width:g}", height=f"{layout.card.height:g}")
    top = _para(pen, title, bold, TITLE_PT, MARGIN, top, width, INK) - 1.0
    top = _para(pen, subtitle, Faces("Sans-Oblique", "Sans-Oblique"), BODY_PT * 0.9, MARGIN, top, width, INK) - 4.0
    for heading, paras in steps(s, cs, opts, layout, lang):
        top = _para(pen, heading, bold, HEAD_PT, MARGIN, top, width, HEAD_INK) - 1.0
        numbered = len(paras) > 1
        for i, para in enumerate(paras, 1):
            if numbered:
                pen.text(MARGIN, top - BODY_PT * 0.74 * PT, f"{i}.", "Sans-Bold", BODY_PT, INK)  # first baseline
            indent = 6.0 if numbered else 0.0
            top = _para(pen, para, regular, BODY_PT, MARGIN + indent, top, width - indent, INK) - 1.5
        top -= 3.0
    canvas.showPage()


def _para(pen: Pen, text: str, faces: Faces, size: float, x: float, top: float, width: float, ink: str) -> float:
    """Wrap and draw `text` from `top` down; returns the y under it. A word wider than the line (a set's title
    may be one long word) is broken across lines, as a browser breaks an overlong word."""
    block = wrap(pen.metrics, text, width, size, faces, 1.3, bold_keywords=False)
    if block is None:
        block = wrap(pen.metrics, _broken(pen, text, faces.regular, size, width), width, size, faces, 1.3,
                     bold_keywords=False)
    assert block is not None  # every piece of a broken word fits its line
    draw_block(pen, block, x, top, ink)
    return top - len(block.lines) * block.leading


def _broken(pen: Pen, text: str, face: str, size: float, width: float) -> str:
    """`text` with every word wider than `width` cut into pieces that fit (at least one character each)."""
    out = []
    for word in text.split():
        while pen.width(word, face, size) > width and len(word) > 1:
            cut = next((n for n in range(len(word) - 1, 0, -1) if pen.width(word[:n], face, size) <= width), 1)
            out.append(word[:cut])
            word = word[cut:]
        out.append(word)
    return " ".join(out)
