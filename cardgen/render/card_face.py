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
    ctype = cs.type_of(card)
    colour = ctype.colour
    ink = ink_on(s, colour)
    m = s.face.margin
    band_h = s.face.band.height
    foot_h = s.face.footer.height
    inner_w = trim.w - 2 * m

    # colour band with the name
    pen.fill_rect(trim.x - bleed, trim.top - band_h, trim.w + 2 * bleed, band_h + bleed, colour)
    icon_w = _band_icon(s, pen, ctype.role, Rect(trim.x + m, trim.top - band_h, inner_w, band_h), ink)
    name_box = Rect(trim.x + m + icon_w, trim.top - band_h + 1.0, inner_w - icon_w, band_h - 1.0 - m)
    _centred_block(pen, _name_block(s, pen, card, name_box.w, name_box.h), name_box, ink)

    # footer strip
    pen.fill_rect(trim.x - bleed, trim.y - bleed, trim.w + 2 * bleed, foot_h + bleed, colour)
    fface, fpt = s.face.footer.font, s.face.footer.pt
    base = trim.y + m + s.face.footer.descent * fpt * PT  # the lowest glyph stays inside the safe margin
    pen.text(trim.x + m, base, card_label(card, cs), fface, fpt, ink)
    pen.text(trim.right - m, base, ctype.label.upper(), fface, fpt, ink, align="right")

    # value and badges
    top = trim.top - band_h - s.face.value_row.gap_above
    row_h = s.face.value_row.height
    value = value_of(card, cs.language)
    badges = badges_of(s, card, cs)
    x, right = trim.x + m, trim.right - m
    if value is not None:
        room_w = inner_w * 0.62 if badges else inner_w
        if s.face.value_row.side == "right":  # the box at the right of the row, the badges left of it
            right = _value_box(s, pen, card, value, Rect(right - room_w, top - row_h, room_w, row_h),
                               at_right=True) - 2.0
        else:
            x = _value_box(s, pen, card, value, Rect(x, top - row_h, room_w, row_h)) + 2.0
    placed = _beside(s, pen, badges, Rect(x, top - row_h, right - x, row_h)) if badges else []
    if value is not None or badges:
        top -= row_h
    if placed is None:  # too long beside the value even at the minimum size: the badges get lines of their own
        placed = _on_own_lines(s, pen, card, badges, trim.x + m, top - s.face.badge.gap, inner_w)
        top = min(p.y for p in placed)
    _draw_badges(s, pen, placed)

    # art, then rules text and flavour
    top -= s.face.text.gap_above
    bottom = trim.y + foot_h + s.face.footer.gap_above
    art = art_file(card, cs)
    if art is not None:
        art_h = (top - bottom) * s.face.art.height_ratio
        look = s.face.art
        if look.span == "bleed":  # the card's full width and through the bleed: the cut trims it, no frame
            pen.image(str(art[0]), art[1], trim.x - bleed, top - art_h, trim.w + 2 * bleed, art_h,
                      look.fit == "contain", (look.focus_x, look.focus_y))
        else:
            pen.image(str(art[0]), art[1], trim.x + m, top - art_h, inner_w, art_h, look.fit == "contain",
                      (look.focus_x, look.focus_y))
            pen.stroke_rect(trim.x + m, top - art_h, inner_w, art_h, s.colours.frame, s.face.art.frame_pt)
        top -= art_h + s.face.text.gap_above
    _text_box(s, pen, card, text, Rect(trim.x + m, bottom, inner_w, top - bottom), icon_style(s, cs))


def _band_icon(s: RenderSession, pen: Pen, role: str, band: Rect, ink: str) -> float:
    """The type's icon at the left of `band` (x from the margin), centred in its height but never
    nearer the card's top edge than the margin; returns the width it takes, gap included (none when the
    layout hides it: band.icon)."""
    if s.face.band.icon == "hide":
        return 0.0
    size = icon_size()
    y = min(band.y + (band.h - size) / 2, band.top - s.face.margin - size)
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


def _value_box(s: RenderSession, pen: Pen, card: Card, value: Value, room: Rect, at_right: bool = False) -> float:
    """Draw the value in a dark box at the left of `room` (its right with `at_right`); returns the box's
    far edge (its right, or its left with `at_right`)."""
    face = s.face.value_row.font
    pad = s.face.value_row.box_pad
    cap_face, cap_pt = s.face.value_row.caption_font, s.face.value_row.caption_pt
    size = _fit_single(pen, value.text, face, s.face.value_row.max_pt, s.face.value_row.min_pt, room.w - 2 * pad)
    if size is None:
        raise CardFitError(f"{where(card)}card '{card.name}': value '{value.text}' does not fit its box")
    w = max(pen.width(value.text, face, size), pen.width(value.caption, cap_face, cap_pt)) + 2 * pad
    w = max(w, room.h)
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
            if card.flavour:
                fpt = max(size * s.face.text.flavour_ratio, s.face.text.flavour_min_pt)
                room = box.h - used - s.face.text.flavour_gap
                flav = fit_lines(s.metrics, card.flavour, box.w, room, fpt, fpt, 1.0,
                                 (Faces(flavour_face, flavour_face),), lead, style)
                if flav is None:
                    continue
            if rules is not None:
                draw_block(pen, rules, box.x, box.top, s.colours.card_text)
            if flav is not None:
                draw_block(pen, flav, box.x, box.y + flav.height - flav.leading + flav.size_pt * 0.74 * PT,
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
