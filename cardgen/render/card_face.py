"""One card face, drawn as vectors: colour band and name, big value, badges, fitted rules text, footer.

Every measurement comes from `templates/layout/face.yaml`; colours of card types
come from the set, other inks from `colours.yaml`. A card whose text cannot fit
or that uses a character no bundled font has raises an error naming the card.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

from cardgen import messages
from cardgen.cardtext import damage_label, opener_label, rules_text
from cardgen.loader.art import art_path
from cardgen.model import Card, CardSet
from cardgen.numbering import card_label, card_number
from cardgen.render.contrast import best_ink
from cardgen.render.errors import CardFitError, GlyphError
from cardgen.render.face_elements import box_of, check_arrangement
from cardgen.render.geometry import Rect
from cardgen.render.icons import icons_of
from cardgen.render.pen import PT, MissingGlyph, Pen
from cardgen.render.session import RenderSession
from cardgen.render.textfit import Block, Faces, IconStyle, draw_block, fit_lines
from cardgen.render.type_icons import draw_icon, icon_gap, icon_size

_ARROWS = {"left": "←", "right": "→", "either": "↔"}


def ink_on(s: RenderSession, hex_colour: str) -> str:
    """Dark or light ink, whichever has the higher WCAG contrast ratio on `hex_colour`."""
    return best_ink(hex_colour, s.colours.dark_ink, s.colours.light_ink)


def where(card: Card) -> str:
    return f"{card.file}:{card.line}:{card.column}: " if card.file else ""


class Value(NamedTuple):
    """The big number of a card and the word under it."""

    text: str
    caption: str


def value_of(card: Card, lang: str = messages.DEFAULT_LANGUAGE) -> Value | None:
    def caption(key: str) -> str:
        return messages.text(f"face.value.{key}", lang)

    if card.damage:
        return Value(damage_label(card), caption(card.targets if card.targets in ("others", "all") else "damage"))
    if card.ongoing is not None:
        return Value(str(card.ongoing.damage), caption("ongoing"))
    if card.heal is not None:
        return Value(f"+{card.heal.amount}", caption("heal"))
    if card.opens is not None and card.opens.multiplier > 1:
        return Value(f"×{card.opens.multiplier}", caption("damage"))
    if card.draw:
        return Value(f"+{card.draw}", caption("draw"))
    return None


def badges_of(s: RenderSession, card: Card, cs: CardSet) -> list[tuple[str, str]]:
    """(text, colour) of each badge, the opener first."""
    out: list[tuple[str, str]] = []
    lang = cs.language
    opener = opener_label(card, cs)
    if opener:
        out.append((messages.text("face.badge.after", lang, opener=opener), s.colours.opener_badge))
    if card.travels:
        out.append((messages.text("face.badge.travels", lang), s.colours.badges.travels))
    if card.passes_on:
        out.append((messages.text("face.badge.passes_on", lang, arrow=_ARROWS[card.passes_on]),
                    s.colours.badges.passes_on))
    if card.stuns:
        out.append((messages.text("face.badge.stuns", lang, n=card.stuns), s.colours.badges.stuns))
    if card.stunned:
        out.append((messages.text("face.badge.stunned", lang, n=card.stunned), s.colours.badges.stunned))
    return out


def draw_card(s: RenderSession, pen: Pen, card: Card, cs: CardSet, trim: Rect, bleed: float,
              text: str | None = None) -> None:
    """Draw `card` with its trim box at `trim`; colour runs `bleed` mm beyond it.

    Every part is laid out inside the card's cell, so no clipping is needed. `text`
    is the card's rules text when the caller already has it (a sheet draws each
    design `count` times).
    """
    rules = rules_text(card, cs) if text is None else text
    try:
        if card.pair is not None:
            _split_face(s, pen, card, cs, trim, bleed, rules)
        else:
            _face(s, pen, card, cs, trim, bleed, rules)
        if bleed == 0:  # the trim line lies inside the cut, so no ink passes the card's edge
            w = s.face.frame_width_pt
            half = w * PT / 2
            pen.stroke_rect(trim.x + half, trim.y + half, trim.w - 2 * half, trim.h - 2 * half, s.colours.frame, w)
    except MissingGlyph as exc:
        own = s.font_files.get(exc.face)
        font = "in no bundled font" if own is None else f"not in the set's font '{Path(own).name}'"
        raise GlyphError(f"{where(card)}card '{card.name}': character '{exc.char}' (U+{ord(exc.char):04X}) "
                         f"is {font}") from None


def _fit_single(pen: Pen, text: str, face: str, max_pt: float, min_pt: float, width: float) -> float | None:
    """The largest size (0.5 pt steps) at which `text` fits on one line of `width` mm."""
    size = max_pt
    while size >= min_pt - 1e-9:
        if pen.width(text, face, size) <= width:
            return size
        size -= 0.5
    return None


def _name_block(s: RenderSession, pen: Pen, card: Card, width: float, height: float) -> Block:
    face, cond = s.face.band.name_font, s.face.text.condensed_bold_font
    size = _fit_single(pen, card.name, face, s.face.band.name_max_pt, s.face.band.name_min_pt, width)
    if size is not None:
        return fit_or_fail(s, card, card.name, width, height, size, size, (Faces(face, face),), "name")
    return fit_or_fail(s, card, card.name, width, height, s.face.band.name_two_lines_max_pt,
                       s.face.band.name_min_pt, (Faces(face, face), Faces(cond, cond)), "name")


def fit_or_fail(s: RenderSession, card: Card, text: str, width: float, height: float, max_pt: float, min_pt: float,
                faces: tuple[Faces, ...], what: str) -> Block:
    block = fit_lines(s.metrics, text, width, height, max_pt, min_pt, s.face.text.step_pt, faces, s.face.text.leading)
    if block is None:
        raise CardFitError(f"{where(card)}card '{card.name}': its {what} does not fit in "
                           f"{width:.1f} x {height:.1f} mm even at {min_pt:g} pt")
    return block


def _centred_block(pen: Pen, block: Block, box: Rect, colour: str) -> None:
    cap = block.size_pt * 0.74 * PT
    content = cap + (len(block.lines) - 1) * block.leading
    top = box.y + (box.h + content) / 2
    draw_block(pen, block, box.x, top, colour, centred_width=box.w)


def _face(s: RenderSession, pen: Pen, card: Card, cs: CardSet, trim: Rect, bleed: float, text: str) -> None:
    """The face's elements (face.yaml `elements:`), each in the flow or in its designer's box, drawn in a fixed
    order; then the arrangement is held to the print rules (cardgen.render.face_elements)."""
    ctype = cs.type_of(card)
    drawn: dict[str, Rect] = {}
    top = _band(s, pen, card, ctype.colour, ctype.role, trim, bleed, drawn) - s.face.value_row.gap_above
    bottom = _footer(s, pen, card, cs, trim, bleed, drawn)
    top = _value_row(s, pen, card, cs, trim, top, drawn) - s.face.text.gap_above
    top = _art(s, pen, card, cs, trim, bleed, top, bottom, drawn)
    e, m = s.face.elements.text, s.face.margin
    box = box_of(e, trim) if e.boxed() else Rect(trim.x + m, bottom, trim.w - 2 * m, top - bottom)
    drawn["text"] = box
    _text_box(s, pen, card, text, box, icon_style(s, cs))
    check_arrangement(s.face, drawn, trim, bleed, f"{where(card)}card '{card.name}': ")


def _band(s: RenderSession, pen: Pen, card: Card, colour: str, role: str, trim: Rect, bleed: float,
          drawn: dict[str, Rect]) -> float:
    """The colour band with the type icon and the name (each where the layout puts it); returns the top of the
    room the flow leaves below the band."""
    els, m, band_h = s.face.elements, s.face.margin, s.face.band.height
    if els.band.boxed():
        fill = room = box_of(els.band, trim)
        keep, below = 0.0, trim.top - m
    else:
        fill = Rect(trim.x - bleed, trim.top - band_h, trim.w + 2 * bleed, band_h + bleed)
        room, keep, below = Rect(trim.x + m, trim.top - band_h, trim.w - 2 * m, band_h), m, trim.top - band_h
    shown = els.band.show == "show"
    if shown:
        pen.fill_rect(fill.x, fill.y, fill.w, fill.h, colour)
        drawn["band"] = fill
    def ink(box: Rect) -> str:  # the band's ink on the band, the card's text ink on paper
        inside = fill.x <= box.x and box.right <= fill.right and fill.y <= box.y and box.top <= fill.top
        return ink_on(s, colour) if shown and inside else s.colours.card_text
    icon_w = 0.0
    if els.type_icon.boxed():
        if _icon_shown(s):
            b = box_of(els.type_icon, trim)
            size = min(b.w, b.h)
            draw_icon(pen, role, Rect(b.x + (b.w - size) / 2, b.y + (b.h - size) / 2, size, size), ink(b))
            drawn["type_icon"] = b
    else:
        icon_w = _band_icon(s, pen, role, room, ink(room), keep)
    name_box = box_of(els.name, trim) if els.name.boxed() else \
        Rect(room.x + icon_w, room.y + 1.0, room.w - icon_w, room.h - 1.0 - keep)
    drawn["name"] = name_box
    _centred_block(pen, _name_block(s, pen, card, name_box.w, name_box.h), name_box, ink(name_box))
    return below


def _footer(s: RenderSession, pen: Pen, card: Card, cs: CardSet, trim: Rect, bleed: float,
            drawn: dict[str, Rect]) -> float:
    """The colour strip with the card's number and type; returns the bottom of the room the flow leaves above."""
    e, m, foot_h = s.face.elements.footer, s.face.margin, s.face.footer.height
    if e.show == "hide":
        return trim.y + m
    ctype = cs.type_of(card)
    fface, fpt = s.face.footer.font, s.face.footer.pt
    label, kind = card_label(card, cs), ctype.label.upper()
    if e.boxed():
        box = drawn["footer"] = box_of(e, trim)
        pen.fill_rect(box.x, box.y, box.w, box.h, ctype.colour)
        pad = s.face.badge.pad
        if pen.width(label, fface, fpt) + pen.width(kind, fface, fpt) + 3 * pad > box.w:
            raise CardFitError(f"{where(card)}card '{card.name}': its footer ('{label}', '{kind}') does not fit "
                               f"the {box.w:g} mm of 'elements.footer' at {fpt:g} pt (layout/face.yaml)")
        base, left, right = box.y + (box.h - fpt * 0.72 * PT) / 2, box.x + pad, box.right - pad
    else:
        pen.fill_rect(trim.x - bleed, trim.y - bleed, trim.w + 2 * bleed, foot_h + bleed, ctype.colour)
        drawn["footer"] = Rect(trim.x, trim.y, trim.w, foot_h)
        # the lowest glyph stays inside the safe margin
        base, left, right = trim.y + m + s.face.footer.descent * fpt * PT, trim.x + m, trim.right - m
    ink = ink_on(s, ctype.colour)
    pen.text(left, base, label, fface, fpt, ink)
    pen.text(right, base, kind, fface, fpt, ink, align="right")
    return trim.y + m if e.boxed() else trim.y + foot_h + s.face.footer.gap_above


def _value_row(s: RenderSession, pen: Pen, card: Card, cs: CardSet, trim: Rect, top: float,
               drawn: dict[str, Rect]) -> float:
    """The value and the badges: beside each other in the row under the band, or in boxes of their own; returns
    the top of the room the flow leaves below them."""
    els, m = s.face.elements, s.face.margin
    inner_w = trim.w - 2 * m
    value, badges = value_of(card, cs.language), badges_of(s, card, cs)
    if value is not None and els.value.boxed():
        b = drawn["value"] = box_of(els.value, trim)
        _value_box(s, pen, card, value, b, whole=True)
        value = None
    row_badges = [] if els.badges.boxed() else badges
    row_h = s.face.value_row.height
    x, right = trim.x + m, trim.right - m
    if value is not None:
        room_w = inner_w * 0.62 if row_badges else inner_w
        if s.face.value_row.side == "right":  # the box at the right of the row, the badges left of it
            edge = _value_box(s, pen, card, value, Rect(right - room_w, top - row_h, room_w, row_h), at_right=True)
            drawn["value"], right = Rect(edge, top - row_h, right - edge, row_h), edge - 2.0
        else:
            edge = _value_box(s, pen, card, value, Rect(x, top - row_h, room_w, row_h))
            drawn["value"], x = Rect(x, top - row_h, edge - x, row_h), edge + 2.0
    placed = _beside(s, pen, row_badges, Rect(x, top - row_h, right - x, row_h)) if row_badges else []
    if value is not None or row_badges:
        top -= row_h
    if placed is None:  # too long beside the value even at the minimum size: the badges get lines of their own
        placed = _on_own_lines(s, pen, card, row_badges, trim.x + m, top - s.face.badge.gap, inner_w)
        top = min(p.y for p in placed)
    if badges and els.badges.boxed():
        b = drawn["badges"] = box_of(els.badges, trim)
        placed = _beside(s, pen, badges, b)
        if placed is None:
            raise CardFitError(f"{where(card)}card '{card.name}': its badges do not fit the {b.w:g} x {b.h:g} mm of "
                               f"'elements.badges' even at {s.face.badge.min_pt:g} pt (layout/face.yaml)")
    elif placed:
        drawn["badges"] = _bounds([Rect(p.x, p.y, p.w, s.face.badge.height) for p in placed])
    _draw_badges(s, pen, placed)
    return top


def _bounds(rects: list[Rect]) -> Rect:
    x, y = min(r.x for r in rects), min(r.y for r in rects)
    return Rect(x, y, max(r.right for r in rects) - x, max(r.top for r in rects) - y)


def _art(s: RenderSession, pen: Pen, card: Card, cs: CardSet, trim: Rect, bleed: float, top: float, bottom: float,
         drawn: dict[str, Rect]) -> float:
    """The card's art: in its box, or in the flow above the rules text (a share of the room, inside the margins
    and framed, or with `art.span: bleed` the card's full width through the bleed); returns the text's top."""
    e, look, m = s.face.elements.art, s.face.art, s.face.margin
    art = art_file(card, cs)
    if art is None or e.show == "hide":
        return top
    fit = look.fit == "contain", (look.focus_x, look.focus_y)
    if e.boxed():
        b = drawn["art"] = box_of(e, trim)
        pen.image(str(art[0]), art[1], b.x, b.y, b.w, b.h, *fit)
        if look.span != "bleed":
            pen.stroke_rect(b.x, b.y, b.w, b.h, s.colours.frame, look.frame_pt)
        return top
    art_h = (top - bottom) * look.height_ratio
    if look.span == "bleed":  # the card's full width and through the bleed: the cut trims it, no frame
        drawn["art"] = Rect(trim.x - bleed, top - art_h, trim.w + 2 * bleed, art_h)
        pen.image(str(art[0]), art[1], trim.x - bleed, top - art_h, trim.w + 2 * bleed, art_h, *fit)
    else:
        drawn["art"] = Rect(trim.x + m, top - art_h, trim.w - 2 * m, art_h)
        pen.image(str(art[0]), art[1], trim.x + m, top - art_h, trim.w - 2 * m, art_h, *fit)
        pen.stroke_rect(trim.x + m, top - art_h, trim.w - 2 * m, art_h, s.colours.frame, look.frame_pt)
    return top - art_h - s.face.text.gap_above


def _icon_shown(s: RenderSession) -> bool:
    return s.face.band.icon == "show" and s.face.elements.type_icon.show == "show"


def _band_icon(s: RenderSession, pen: Pen, role: str, band: Rect, ink: str, keep: float | None = None) -> float:
    """The type's icon at the left of `band` (x from the margin), centred in its height but never
    nearer the band's top than `keep` (the margin: the card's top edge); returns the width it takes, gap
    included (none when the layout hides it)."""
    if not _icon_shown(s):
        return 0.0
    size = icon_size()
    y = min(band.y + (band.h - size) / 2, band.top - (s.face.margin if keep is None else keep) - size)
    draw_icon(pen, role, Rect(band.x, y, size, size), ink)
    return size + icon_gap()


def art_file(card: Card, cs: CardSet) -> tuple[Path, tuple[int, int]] | None:
    """The card's art file and its pixel size, when it has usable art inside its set folder."""
    if card.art is None or not cs.path:
        return None
    path = art_path(card, Path(cs.path))
    if path is None or not path.is_file():
        return None
    from PIL import Image  # only a card with art needs it

    with Image.open(path) as img:
        return path, img.size


def _value_box(s: RenderSession, pen: Pen, card: Card, value: Value, room: Rect, at_right: bool = False,
               whole: bool = False) -> float:
    """Draw the value in a dark box at the left of `room` (its right with `at_right`; all of it with `whole`, a
    designer's box); returns the box's far edge (its right, or its left with `at_right`)."""
    face = s.face.value_row.font
    pad = s.face.value_row.box_pad
    cap_face, cap_pt = s.face.value_row.caption_font, s.face.value_row.caption_pt
    size = _fit_single(pen, value.text, face, s.face.value_row.max_pt, s.face.value_row.min_pt, room.w - 2 * pad)
    if size is None:
        raise CardFitError(f"{where(card)}card '{card.name}': value '{value.text}' does not fit its box")
    w = max(pen.width(value.text, face, size), pen.width(value.caption, cap_face, cap_pt)) + 2 * pad
    w = max(w, room.h)
    if whole:
        if w > room.w + 1e-9:
            raise CardFitError(f"{where(card)}card '{card.name}': value '{value.text}' needs {w:.1f} mm, wider than "
                               f"the {room.w:g} mm of 'elements.value' (layout/face.yaml)")
        w = room.w
    left = room.right - w if at_right else room.x
    pen.fill_rect(left, room.y, w, room.h, s.colours.value_box, s.face.value_row.box_radius)
    cx = left + w / 2
    cap_base = room.y + 1.4
    pen.text(cx, cap_base, value.caption, cap_face, cap_pt, s.colours.value_text, align="centre")
    digits_h = size * 0.73 * PT
    space_top = room.top - (cap_base + cap_pt * 0.75 * PT)
    base = cap_base + cap_pt * 0.75 * PT + (space_top - digits_h) / 2
    pen.text(cx, base, value.text, face, size, s.colours.value_text, align="centre")
    return left if at_right else room.x + w


class _Placed(NamedTuple):
    """A badge where it goes: its text at `size` in a box of width `w` whose lower left corner is (x, y)."""

    text: str
    colour: str
    x: float
    y: float
    w: float
    size: float


def _beside(s: RenderSession, pen: Pen, badges: list[tuple[str, str]], room: Rect) -> list[_Placed] | None:
    """The badges stacked in columns beside the value, each shrunk down to the minimum size if need be;
    None when one does not fit that way."""
    face, pt = s.face.badge.font, s.face.badge.pt
    h, gap, pad = s.face.badge.height, s.face.badge.gap, s.face.badge.pad
    x, y = room.x, room.top
    col_w = 0.0
    out: list[_Placed] = []
    for text, colour in badges:
        size = _fit_single(pen, text, face, pt, s.face.badge.min_pt, room.right - x - 2 * pad)
        if size is None or room.right - x < 2 * pad:
            return None
        w = pen.width(text, face, size) + 2 * pad
        if y - h < room.y - 1e-9:
            x, y, col_w = x + col_w + gap, room.top, 0.0
            if x + w > room.right + 1e-9:
                return None
        out.append(_Placed(text, colour, x, y - h, w, size))
        y -= h + gap
        col_w = max(col_w, w)
    return out


def _on_own_lines(s: RenderSession, pen: Pen, card: Card, badges: list[tuple[str, str]], left: float, top: float,
                  width: float) -> list[_Placed]:
    """The badges in lines of their own below the value, left to right, the full width of the card's text."""
    face, pt = s.face.badge.font, s.face.badge.pt
    h, gap, pad = s.face.badge.height, s.face.badge.gap, s.face.badge.pad
    x, y = left, top
    out: list[_Placed] = []
    for text, colour in badges:
        size = _fit_single(pen, text, face, pt, s.face.badge.min_pt, width - 2 * pad)
        if size is None:
            raise CardFitError(f"{where(card)}card '{card.name}': badge '{text}' does not fit the card's width "
                               f"even at {s.face.badge.min_pt:g} pt")
        w = pen.width(text, face, size) + 2 * pad
        if x > left and x + w > left + width + 1e-9:
            x, y = left, y - h - gap
        out.append(_Placed(text, colour, x, y - h, w, size))
        x += w + gap
    return out


def _draw_badges(s: RenderSession, pen: Pen, placed: list[_Placed]) -> None:
    face, h, pad, radius = s.face.badge.font, s.face.badge.height, s.face.badge.pad, s.face.badge.radius
    for p in placed:
        pen.fill_rect(p.x, p.y, p.w, h, p.colour, radius)
        pen.text(p.x + pad, p.y + (h - p.size * 0.72 * PT) / 2, p.text, face, p.size, ink_on(s, p.colour))


def icon_style(s: RenderSession, cs: CardSet) -> IconStyle:
    """The set's keyword icons, sized as face.yaml says (text.icon_em, text.icon_gap_em), and its language's
    keywords to set in bold."""
    return IconStyle(icons_of(cs), s.face.text.icon_em, s.face.text.icon_gap_em, messages.bold_words(cs.language),
                     messages.turn_letters(cs.language))


def _text_box(s: RenderSession, pen: Pen, card: Card, text: str, box: Rect, style: IconStyle) -> None:
    """Rules text from the top of `box`, flavour at its bottom, shrunk together to fit."""
    faces = (Faces(s.face.text.font, s.face.text.bold_font),
             Faces(s.face.text.condensed_font, s.face.text.condensed_bold_font))
    lead = s.face.text.leading
    flavour_face = s.face.text.flavour_font
    min_pt = s.face.text.min_pt
    for pair in faces:
        for size in _steps(s.face.text.max_pt, min_pt, s.face.text.step_pt):
            rules = fit_lines(s.metrics, text, box.w, box.h, size, size, 1.0, (pair,), lead, style) if text else None
            if text and rules is None:
                continue
            used = rules.height if rules else 0.0
            flav: Block | None = None
            descent = 0.0
            if card.flavour:
                fpt = max(size * s.face.text.flavour_ratio, s.face.text.flavour_min_pt)
                descent = s.face.footer.descent * fpt * PT  # the last line's descenders stay in the box too
                room = box.h - used - s.face.text.flavour_gap - descent
                flav = fit_lines(s.metrics, card.flavour, box.w, room, fpt, fpt, 1.0,
                                 (Faces(flavour_face, flavour_face),), lead, style)
                if flav is None:
                    continue
            if rules is not None:
                draw_block(pen, rules, box.x, box.top, s.colours.card_text)
            if flav is not None:
                draw_block(pen, flav, box.x, box.y + descent + flav.height - flav.leading + flav.size_pt * 0.74 * PT,
                           s.colours.flavour_text)
            return
    raise CardFitError(f"{where(card)}card '{card.name}': "
                       f"{'rules text and flavour do' if card.flavour else 'rules text does'} not fit in "
                       f"{box.w:.1f} x {max(box.h, 0):.1f} mm even at {min_pt:g} pt; shorten the text")


def _steps(max_pt: float, min_pt: float, step: float) -> list[float]:
    out, s = [], max_pt
    while s >= min_pt - 1e-9:
        out.append(round(s, 3))
        s -= step
    return out


# --- split face for counter pairs -------------------------------------------------------------------

_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def half_texts(card: Card, text: str, lang: str = messages.DEFAULT_LANGUAGE) -> tuple[str, str]:
    """Each half's sentences: those starting with its word, else those naming it (or neither half).

    'Play as X or Y' is left out: the split layout itself says that.
    """
    assert card.pair is not None
    words = [messages.keyword(h, lang) for h in card.pair]
    intro = tuple(str(w) for w in messages.message("face.pair_intro", lang))
    halves: list[list[str]] = [[], []]
    for sentence in _SENTENCE.split(text.strip()):
        if not sentence or sentence.lower().startswith(intro):
            continue
        leading = [sentence.startswith(w) for w in words]
        named = leading if any(leading) else [bool(re.search(rf"\b{w}\b", sentence)) for w in words]
        for i in range(2):
            if named[i] or not any(named):
                halves[i].append(sentence)
    return " ".join(halves[0]), " ".join(halves[1])


def _split_face(s: RenderSession, pen: Pen, card: Card, cs: CardSet, trim: Rect, bleed: float, text: str) -> None:
    assert card.pair is not None
    ctype = cs.type_of(card)
    colour = ctype.colour
    div_h = s.face.split.divider_height
    half_h = (trim.h - div_h) / 2
    texts = half_texts(card, text, cs.language)
    words = tuple(messages.keyword(h, cs.language) for h in card.pair)
    # upper half upright, lower half turned 180 degrees so each reads from its own end
    style = icon_style(s, cs)
    _half(s, pen, card, words[0], texts[0], Rect(trim.x, trim.top - half_h, trim.w, half_h), bleed, colour,
          ctype.role, style)
    with pen.moved(trim.right, trim.y + half_h, 180):
        _half(s, pen, card, words[1], texts[1], Rect(0.0, 0.0, trim.w, half_h), bleed, colour, ctype.role, style)
    # divider: name, 'either half', number
    mid = trim.y + half_h + div_h / 2
    dface, dpt = s.face.split.divider_font, s.face.split.divider_pt
    # the dashed rules stop at the margin, like every line on a face: a miscut never trims them unevenly
    m = s.face.margin
    pen.line(trim.x + m, trim.y + half_h, trim.right - m, trim.y + half_h, s.colours.divider, 0.4, (1.0, 0.8))
    pen.line(trim.x + m, mid + div_h / 2, trim.right - m, mid + div_h / 2, s.colours.divider, 0.4, (1.0, 0.8))
    base = mid - dpt * 0.36 * PT
    # the footer's label names the set; a long home-made set name may crowd the card's name out of the
    # divider, and then the bare number stands there (the set name is on every other card's footer)
    for number in (card_label(card, cs), card_number(card, cs)):
        room = trim.w - 2 * m - pen.width(number, dface, dpt) - 2.0
        left = messages.text("face.either_half", cs.language, name=card.name)
        if pen.width(left, dface, dpt) > room:
            left = card.name
        size = _fit_single(pen, left, dface, dpt, s.face.split.divider_min_pt, room)
        if size is not None:
            break
    else:
        raise CardFitError(f"{where(card)}card '{card.name}': its name does not fit beside its number")
    pen.text(trim.x + m, base, left, dface, size, s.colours.caption_text)
    pen.text(trim.right - m, base, number, dface, dpt, s.colours.caption_text, align="right")


def _half(s: RenderSession, pen: Pen, card: Card, half: str, text: str, region: Rect, bleed: float, colour: str,
          role: str, style: IconStyle) -> None:
    """One half of a split card, in `region`; its band sits at the region's top (the card's outer edge)."""
    m = s.face.margin
    band_h = s.face.split.band_height
    pen.fill_rect(region.x - bleed, region.top - band_h, region.w + 2 * bleed, band_h + bleed, colour)
    face = s.face.band.name_font
    word = half.upper()
    band = Rect(region.x + m, region.top - band_h, region.w - 2 * m, band_h)
    icon_w = _band_icon(s, pen, role, band, ink_on(s, colour))
    size = _fit_single(pen, word, face, s.face.split.name_max_pt, s.face.split.name_min_pt,
                       region.w - 2 * m - 2 * icon_w)
    if size is None:
        raise CardFitError(f"{where(card)}card '{card.name}': half '{word}' does not fit its band")
    base = region.top - band_h + (band_h - size * 0.73 * PT) / 2
    pen.text(region.x + region.w / 2, base, word, face, size, ink_on(s, colour), align="centre")
    box = Rect(region.x + m, region.y + 1.0, region.w - 2 * m, region.h - band_h - 2.5)
    if text:
        _text_box(s, pen, replace(card, flavour=None), text, box, style)
