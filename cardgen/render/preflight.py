"""What a print build would refuse, found without writing anything: `cardgen validate` asks here first.

Every card face is drawn onto a pen with no canvas, at every named card size,
by the very code a build uses (`draw_card`), and the rules page is tried at its
smallest size on every paper (`check_fits`, the build's own rule and message);
so a character no bundled font has, a name too wide for its band or text too
long for its box is reported by `validate` exactly when `build` would stop on
it. One source of truth: no second set of measurements.
"""

from __future__ import annotations

from pathlib import Path

from cardgen.errors import CardgenError, Diagnostic, SetError
from cardgen.model import Card, CardSet
from cardgen.render import layout_data as L
from cardgen.render.card_face import draw_card
from cardgen.render.contrast import Pair, problem_text, too_faint
from cardgen.render.face_layout import LayoutFileError, as_dict
from cardgen.render.fonts import FONT_FILES, missing_glyphs, register_fonts, register_set_fonts
from cardgen.render.geometry import Rect
from cardgen.render.layout_data import CardSize
from cardgen.render.pen import Pen
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


def _first_mark(file: Path, keys: list[tuple[str, ...]], expected: str) -> tuple[str, int, int] | None:
    """Where `file` (a YAML file) gives the first of `keys` it has (dotted paths as tuples), if any."""
    from cardgen.yaml_doc import read_document

    if not file.is_file():
        return None
    ignored: list[Diagnostic] = []
    doc = read_document(file, str(file), ignored, expected=expected)
    at = next((k for k in keys if doc is not None and k in doc.marks), None)
    if doc is None or at is None:
        return None
    line, col = doc.where(at)
    return str(file), line, col


def _where_colour(cs: CardSet, pair: Pair) -> tuple[str, int, int]:
    """Where a pair's colour is set: the set's own `layout/colours.yaml` line of the first of its keys that file
    sets, else a type colour's line in set.yaml, else set.yaml itself (the bundled inks and the set's types)."""
    from cardgen.render.face_layout import COLOURS_FILE, SET_LAYOUT_DIR

    if cs.path:
        own = _first_mark(Path(cs.path) / SET_LAYOUT_DIR / COLOURS_FILE, [tuple(k.split(".")) for k in pair.keys],
                          "a colours file")
        if own is not None:
            return own
        kind = next((k for k, t in cs.types.items() if t.label == pair.type_label), None) if pair.type_label else None
        if kind is not None:
            found = _first_mark(Path(cs.path) / "set.yaml", [("types", kind, "colour")], "a card set")
            if found is not None:
                return found
    return _set_file(cs), 1, 1


def _where_title(cs: CardSet) -> tuple[str, int, int]:
    """Where set.yaml gives the title the card back prints: its `look.back.title`, else its `title`."""
    found = _first_mark(Path(cs.path) / "set.yaml", [("look", "back", "title"), ("title",)], "a card set") \
        if cs.path else None
    return found or (_set_file(cs), 1, 1)


def translation_glyphs(cs: CardSet) -> list[Diagnostic]:
    """Each word of the set's translation (`lang/<code>.yaml`) with a character one of the faces it may print in
    lacks, at its line in the translation: every face, since text that does not fit moves to the condensed ones."""
    from cardgen.loader.language import translated_words

    own = register_set_fonts(cs.look.fonts) if cs.look.fonts else {}
    faces = [own.get(face, face) for face in FONT_FILES]
    out = []
    for key, word, path, line, col in translated_words(cs):
        missing = sorted({ch for face in faces for ch in missing_glyphs(word, face)})
        if missing:
            listed = ", ".join(f"'{ch}' (U+{ord(ch):04X})" for ch in missing[:5])
            more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
            out.append(Diagnostic(path, line, col, f"{key}: no face the cards print with has {listed}{more}; "
                                  "write it in characters the faces have, or bring a face that has them "
                                  "(look.fonts)"))
    return out


def _own_back_problems(s: RenderSession, pen: Pen, cs: CardSet, size: CardSize) -> list[Diagnostic]:
    """Each card whose own back design (its `back:`) cannot be drawn (a title no font draws), at the card."""
    out = []
    for card in cs.cards:
        if card.back is not None and not card.back.image:
            try:
                draw_back(s, pen, cs, Rect(0.0, 0.0, size.width, size.height), 0.0, card)
            except CardgenError as exc:
                out.append(Diagnostic(card.file, card.line, card.column, f"card '{card.name}' field `back`: "
                                      f"cannot be printed: {exc}"))
    return out


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
        out += _own_back_problems(s, pen, cs, sizes[0])
        for pair in too_faint(as_dict(s.colours), {t.label: t.colour for t in cs.types.values()}):
            path, line, col = _where_colour(cs, pair)
            out.append(Diagnostic(path, line, col, f"text would be hard to read: {problem_text(pair)} (WCAG contrast)"))
    except LayoutFileError as exc:  # the set's own layout data, at its line
        out.append(Diagnostic(exc.file, exc.line, exc.column, exc.message))
    except CardgenError as exc:  # the title on the card back
        path, line, col = _where_title(cs)
        out.append(Diagnostic(path, line, col, f"cannot be printed: {exc}"))
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
