"""Where a designer's boxes put a face's named elements (face.yaml `elements:`), and the print rules they keep.

A box is given in millimetres from the card's top-left cut corner; the card's size is known only when it is
drawn, so the rules are checked then, on the rectangles each element was actually drawn in (the ones the flow
placed too): words inside the safe margin, and no words over a picture or over another element's words, where
no ink could be sure to read. Colour and pictures (the band, the art) may run to the cut and into the bleed.
"""

from __future__ import annotations

from cardgen.render.errors import CardFitError
from cardgen.render.face_layout import FILLS, Element, Face
from cardgen.render.geometry import Rect

_EPS = 1e-6


def box_of(e: Element, trim: Rect) -> Rect:
    """The element's box on the card whose cut is `trim` (y of the box measured down from the top cut)."""
    return Rect(trim.x + e.x, trim.top - e.y - e.h, e.w, e.h)


def _overlap(a: Rect, b: Rect) -> bool:
    return min(a.right, b.right) - max(a.x, b.x) > _EPS and min(a.top, b.top) - max(a.y, b.y) > _EPS


def arrangement_problems(face: Face, drawn: dict[str, Rect], trim: Rect, bleed: float) -> list[str]:
    """What the drawn arrangement breaks, each naming its element; only a boxed element can break a rule (the
    flow keeps them by construction)."""
    boxed = {name for name in drawn if getattr(face.elements, name).boxed()}
    out = []
    safe = trim.inset(face.safe_margin)
    cut = trim.inset(-bleed)
    for name in sorted(boxed):
        r = drawn[name]
        limit, what = (cut, "the card's edge and its bleed") if name in FILLS else \
            (safe, f"the {face.safe_margin:g} mm safe margin")
        if r.x < limit.x - _EPS or r.y < limit.y - _EPS or r.right > limit.right + _EPS or r.top > limit.top + _EPS:
            out.append(f"'elements.{name}' box ({r.x - trim.x:g}, {trim.top - r.top:g}, {r.w:g} x {r.h:g} mm) "
                       f"reaches past {what} of a {trim.w:g} x {trim.h:g} mm card")
    words = [n for n in drawn if n not in FILLS]
    for i, a in enumerate(words):
        for b in [*words[i + 1:], *(["art"] if "art" in drawn else [])]:
            if (a in boxed or b in boxed) and _overlap(drawn[a], drawn[b]):
                over = "a picture" if b == "art" else f"'elements.{b}'"
                out.append(f"'elements.{a}' overlaps {over}: words there could not be read")
    band = drawn.get("band")
    if band is not None:
        for name in words:
            if not (name in boxed or "band" in boxed) or not _overlap(drawn[name], band):
                continue
            on_band = name in ON_BAND and _inside(drawn[name], band)
            if not (on_band or name in OWN_GROUND):
                out.append(f"'elements.{name}' lies {'partly ' if name in ON_BAND else ''}on the band: its words "
                           "would be in the ink for paper on the band's colour")
    return out


ON_BAND = ("name", "type_icon")  # take the band's ink when inside it
OWN_GROUND = ("value", "badges", "footer")  # drawn on a box of their own colour


def _inside(a: Rect, b: Rect) -> bool:
    return b.x - _EPS <= a.x and a.right <= b.right + _EPS and b.y - _EPS <= a.y and a.top <= b.top + _EPS


def check_arrangement(face: Face, drawn: dict[str, Rect], trim: Rect, bleed: float, where: str) -> None:
    """Raise CardFitError with the first problem of the arrangement (`where` names the card)."""
    problems = arrangement_problems(face, drawn, trim, bleed)
    if problems:
        raise CardFitError(f"{where}{problems[0]} (layout/face.yaml)")
