"""What a print build would refuse, found without writing anything: `cardgen validate` asks here first.

Every card face is drawn onto a pen with no canvas, at every named card size,
by the very code a build uses (`draw_card`), and the rules page is tried at its
smallest size on every paper (`check_fits`, the build's own rule and message);
so a character no bundled font has, a name too wide for its band or text too
long for its box is reported by `validate` exactly when `build` would stop on
it. One source of truth: no second set of measurements.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from cardgen.errors import CardgenError, Diagnostic, SetError
from cardgen.model import Card, CardSet
from cardgen.render import layout_data as L
from cardgen.render.card_face import draw_card
from cardgen.render.contrast import contrast_problems
from cardgen.render.face_layout import LayoutFileError
from cardgen.render.fonts import register_fonts
from cardgen.render.geometry import Rect
from cardgen.render.rules_layout import paper_names
from cardgen.render.rules_page import check_fits
from cardgen.render.session import RenderSession
from cardgen.render.sheets import draw_back


def _reason(exc: CardgenError, card: Card) -> str:
    """The error's own words without the location prefix the build puts in front."""
    text = str(exc)
    marker = f"card '{card.name}': "
    return text.split(marker, 1)[1] if marker in text else text


def _set_file(cs: CardSet) -> str:
    return str(Path(cs.path) / "set.yaml") if cs.path else cs.name


def print_problems(cs: CardSet, papers: tuple[str, ...] | None = None) -> list[Diagnostic]:
    """Each card that cannot be printed at some named size (once per card), a title no font can draw, and a
    rules page that overflows on some paper."""
    from cardgen.cardtext import rules_text

    register_fonts()
    out: list[Diagnostic] = []
    try:
        s = RenderSession.for_cards(cs)
        pen = s.pen(None)
        sizes = [L.card_size(n) for n in L.size_names()]
        for card in cs.cards:
            text = rules_text(card, cs)
            for size in sizes:
                try:
                    draw_card(s, pen, card, cs, Rect(0.0, 0.0, size.width, size.height), 0.0, text)
                except CardgenError as exc:
                    out.append(Diagnostic(card.file, card.line, card.column, f"card '{card.name}' cannot be "
                                          f"printed at {size.name} size: {_reason(exc, card)}"))
                    break
        draw_back(s, pen, cs, Rect(0.0, 0.0, sizes[0].width, sizes[0].height))
        for problem in contrast_problems(dataclasses.asdict(s.colours), {t.label: t.colour for t in cs.types.values()}):
            out.append(Diagnostic(_set_file(cs), 1, 1, f"text would be hard to read: {problem} (WCAG contrast)"))
    except LayoutFileError as exc:  # the set's own layout data, at its line
        out.append(Diagnostic(exc.file, exc.line, exc.column, exc.message))
    except CardgenError as exc:  # the title on the card back
        out.append(Diagnostic(_set_file(cs), 1, 1, f"cannot be printed: {exc}"))
    if not out:  # the rules page lists every card: only worth fitting once the cards themselves print
        for paper in papers if papers is not None else paper_names():
            try:
                check_fits(cs, paper)
            except SetError as exc:  # a face of the set's own lacks a character the rules page prints: at its line
                out.extend(exc.diagnostics)
                break
            except CardgenError as exc:
                out.append(Diagnostic(_set_file(cs), 1, 1, str(exc)))
                break
    return out
