"""A custom card size too small for the faces: said as such, with the smallest size that works.

Drawn at 30 x 40 mm, a card's fixed parts (name band, value row, footer) leave no room for its text, and
the first card drawn would be blamed ("Love Tap: rules text does not fit in 23.5 x 0.0 mm"), though no
card would fit. So before a build at a custom `WxH`, every face is drawn at that size on a pen with no
canvas (the preflight's way, the build's own code); when some do not fit but all fit at the default size,
the size is at fault, and the smallest size of the same proportions at which every face draws is found
by bisection (to 0.5 mm) and named in the message.
"""

from __future__ import annotations

import math
from dataclasses import replace

from cardgen.cardtext import rules_text
from cardgen.errors import CardgenError
from cardgen.model import CardSet
from cardgen.render import layout_data as L
from cardgen.render.card_face import draw_card
from cardgen.render.errors import LayoutError
from cardgen.render.face_layout import bundled
from cardgen.render.fonts import register_fonts
from cardgen.render.geometry import Rect
from cardgen.render.session import RenderSession
from cardgen.render.sheets import PrintOptions, resolve_layout

MAX_SEARCH_MM = 300.0  # the tallest card searched for
PRECISION_MM = 0.5
MAX_PREVIEW_PIXELS = 150_000_000  # proof pages rasterised for previews: lunch at 600 dpi, about 1 GB at its peak


def _all_draw(s: RenderSession, cs: CardSet, texts: list[str], width: float, height: float) -> bool:
    pen = s.pen(None)
    try:
        for card, text in zip(cs.cards, texts, strict=True):
            draw_card(s, pen, card, cs, Rect(0.0, 0.0, width, height), 0.0, text)
    except CardgenError:
        return False
    return True


def check_card_size(cs: CardSet, spec: str) -> None:
    """Raise LayoutError when the custom size `spec` is too small for the set's faces (named sizes are
    checked by `validate`; a card that fits at no size keeps its own message, from the build)."""
    if not spec or spec.strip().lower() in L.size_names():
        return
    size = L.card_size(spec)
    register_fonts()
    s = RenderSession.for_cards(cs)
    texts = [rules_text(c, cs) for c in cs.cards]
    if _all_draw(s, cs, texts, size.width, size.height):
        return
    default = L.card_size(L.default_size())
    if not _all_draw(s, cs, texts, default.width, default.height):
        return  # some card fits at no size: the build names it
    ratio = size.width / size.height
    lo, hi = size.height, max(default.height, size.height)
    while not _all_draw(s, cs, texts, hi * ratio, hi):
        if hi >= MAX_SEARCH_MM:
            raise LayoutError(f"card size {size.width:g} x {size.height:g} mm is too small for the card faces, "
                              f"and no size of these proportions up to {MAX_SEARCH_MM:g} mm tall fits them; "
                              f"try {default.name} ({default.width:g} x {default.height:g} mm)")
        lo, hi = hi, min(hi * 1.5, MAX_SEARCH_MM)
    while hi - lo > PRECISION_MM:
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if _all_draw(s, cs, texts, mid * ratio, mid) else (mid, hi)
    w, h = -(-hi * ratio * 2 // 1) / 2, -(-hi * 2 // 1) / 2  # rounded up to half millimetres
    raise LayoutError(f"card size {size.width:g} x {size.height:g} mm is too small for the card faces (the name "
                      f"band, value row and footer leave the text no room); the smallest of these proportions that "
                      f"fits every card of {cs.name} is about {w:g} x {h:g} mm")


def check_preview_pixels(cs: CardSet, opts: PrintOptions, dpi: float, one_card: bool) -> None:
    """Raise LayoutError when previews at `dpi` would rasterise more than MAX_PREVIEW_PIXELS of proof pages
    (lunch at 1200 dpi: 4 A4 pages, 560 million pixels, a MemoryError past 3 GB), naming the dpi that fits."""
    layout = resolve_layout(replace(opts, proof=True, backs=False), bundled().face)
    pages = 1 if one_card else -(-len(cs.cards) // layout.per_page)
    total = pages * (layout.paper.width / 25.4 * dpi) * (layout.paper.height / 25.4 * dpi)
    if total > MAX_PREVIEW_PIXELS:
        most = int(dpi * math.sqrt(MAX_PREVIEW_PIXELS / total))
        raise LayoutError(f"--dpi {dpi:g}: {pages} proof page{'s' if pages != 1 else ''} of {cs.name} at that "
                          f"resolution are {total / 1e6:,.0f} million pixels, over the limit of "
                          f"{MAX_PREVIEW_PIXELS / 1e6:,.0f} million; use --dpi {most} or less, or preview one --card")
