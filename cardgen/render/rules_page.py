"""The rules reference of a set: content from the set data, shrunk until it fits one page.

`rules_pdf` is the entry point (the `rules` and `build` commands use it). The body
font shrinks in the steps of `templates/rules/layout.yaml` down to a legible minimum.
A set too big for one page keeps its rules on the front and moves the card table to
the back of the sheet, in more columns; a set too big even for that gets a compact
table (no effect column), continued on as many pages as it needs. So any set builds.

Finding the size costs whole layouts, so the search starts from a guess (the text's
area at 1 pt against the page's room) and then only confirms the boundary: about two
layouts instead of a bisection's four or five, with the same answer (the largest size
that fits).
"""

from __future__ import annotations

import html
import io
import math
import re
from collections.abc import Callable
from typing import NamedTuple

from cardgen import messages
from cardgen.errors import CardgenError, Diagnostic, SetError
from cardgen.model import CardSet
from cardgen.render.fonts import missing_glyphs, register_set_fonts
from cardgen.render.icons import NBSP, IconCanvas
from cardgen.render.memory import RulesMemory
from cardgen.render.rules_content import Block, page_blocks
from cardgen.render.rules_layout import (
    BULLET,
    DrawnPages,
    Faces,
    Rendered,
    back_columns,
    font_sizes,
    geometry,
    min_font_size,
    page_faces,
    paper_names,
    render,
    rules_canvas,
    text_area,
)

CARD_KINDS = frozenset({"cardhead", "card", "group"})


class RulesPageError(CardgenError):
    """The rules page cannot be made (unknown paper)."""


class RulesOverflowError(RulesPageError):
    """Content does not fit its page even at the smallest legible font size."""


class RulesGlyphError(SetError):
    """A face the set brings lacks characters its rules page prints: one diagnostic a face, at its set.yaml line."""


Good = Callable[[Rendered], bool]


def guess_index(blocks: list[Block], paper: str, columns: int | None, sizes: list[float], faces: Faces = ()) -> int:
    """Index of the size whose text area (growing with the square of the size) fills the columns.

    The fill factor is what the bundled sets show: headings, table rules and ragged line ends leave
    about a fifth of a full page's area unused. A compact card table is one line a row instead.
    """
    geo = geometry(paper, columns)
    rows = sum(1 for b in blocks if b.kind in CARD_KINDS)
    if rows and all(len(b.cells) < 5 for b in blocks if b.kind == "card"):
        # a compact table: one line a row, about 1.26 x the size with its padding
        best = geo.column_height * geo.columns / (rows * 1.26)
    else:
        area = text_area(blocks, geo.column_width, faces)
        if area <= 0:
            return 0
        best = math.sqrt(geo.column_width * geo.column_height * geo.columns * 0.82 / area)
    return next((i for i, s in enumerate(sizes) if s <= best + 1e-9), len(sizes) - 1)


def _largest(ok: Callable[[int], bool], guess: int, n: int) -> int | None:
    """The first index in 0..n-1 for which `ok` holds, given ok(i) implies ok(i + 1).

    Galloping out from the guess (1, 2, 4... steps) and bisecting the last gap: two or three
    probes when the guess is close, never many more than a bisection.
    """
    if ok(guess):
        good, step = guess, 1
        while good - step >= 0 and ok(good - step):
            good, step = good - step, step * 2
        bad = max(good - step, -1)
    else:
        bad, step = guess, 1
        while bad + step < n and not ok(bad + step):
            bad, step = bad + step, step * 2
        good = min(bad + step, n - 1)
        if good == bad or not ok(good):
            return None
    while good - bad > 1:
        mid = (good + bad) // 2
        if ok(mid):
            good = mid
        else:
            bad = mid
    return good


def _fit(blocks: list[Block], paper: str, subject: str, columns: int | None = None,
         title: str = "", faces: Faces = (), lang: str = messages.DEFAULT_LANGUAGE,
         memory: RulesMemory | None = None) -> tuple[Rendered, float] | None:
    """The largest size at which the page fits without splitting a word in the card table, or failing
    that the largest at which it fits at all."""
    sizes = font_sizes()
    done: dict[int, Rendered] = {}

    def at(i: int) -> Rendered:
        # The guess, usually the answer, is drawn; other probes are only placed (a third cheaper)
        if i not in done:
            done[i] = render(blocks, paper, sizes[i], subject, columns, title, stop_at_overflow=True,
                             draw=not done, faces=faces, lang=lang, memory=memory)
        return done[i]

    guess = guess_index(blocks, paper, columns, sizes, faces)
    for good in (lambda r: r.tidy, lambda r: r.pages == 1):
        best = _largest(lambda i, good=good: good(at(i)), guess, len(sizes))  # type: ignore[misc]
        if best is not None:
            page = at(best)
            if not page.pdf:  # the answer was a placed-only probe: draw it now
                page = render(blocks, paper, sizes[best], subject, columns, title, faces=faces, lang=lang,
                              memory=memory)
            return page, sizes[best]
    return None


def split_card_table(blocks: list[Block], lang: str = messages.DEFAULT_LANGUAGE) -> tuple[list[Block], list[Block]]:
    """The page without its card table (a line pointing to the back instead), and the table."""
    front: list[Block] = []
    table: list[Block] = []
    for i, b in enumerate(blocks):
        if b.kind in CARD_KINDS and any(x.kind == "cardhead" for x in blocks[:i + 1]) and not _after_table(blocks, i):
            table.append(b)
        elif b.kind == "heading" and i + 1 < len(blocks) and blocks[i + 1].kind == "cardhead":
            front.append(b)
            front.append(Block("para", messages.text("rules_page.on_the_back", lang)))
        else:
            front.append(b)
    return front, table


def _after_table(blocks: list[Block], i: int) -> bool:
    """True when block i comes after the card table has ended (a later heading closed it)."""
    start = next(k for k, b in enumerate(blocks) if b.kind == "cardhead")
    return any(b.kind == "heading" for b in blocks[start:i])


def compact(table: list[Block]) -> list[Block]:
    """The card table without its effect column: one short line a card."""
    return [Block(b.kind, b.text, b.cells[:4] if b.kind == "card" else b.cells[:3] if b.kind == "cardhead"
                  else b.cells, b.heading) for b in table]


class RulesPart(NamedTuple):
    """A run of rules pages: these blocks at this body size (a big set's card list on the back has its own)."""

    blocks: tuple[Block, ...]
    size: float
    columns: int | None = None
    title: str = ""
    drawn: DrawnPages | None = None  # its layout as drawn for the rules file: the print file draws it again


class RulesPlan(NamedTuple):
    """A set's rules pages: what to draw (again, onto the print file's canvas) and the rules file itself."""

    paper: str
    subject: str
    parts: tuple[RulesPart, ...]
    pdf: bytes
    size: float  # the body size of the front
    pages: int
    faces: Faces = ()  # the set's own faces it is drawn in
    lang: str = messages.DEFAULT_LANGUAGE


def draw_rules(plan: RulesPlan, canvas: IconCanvas) -> None:
    """The plan's pages on `canvas` (the print file's), one part after another, as the rules file drew them;
    the canvas keeps its own document information."""
    _draw_parts(plan, canvas, retitle=False)


def _draw_parts(plan: RulesPlan, canvas: IconCanvas, retitle: bool,
                memory: RulesMemory | None = None) -> tuple[RulesPart, ...]:
    """Each part drawn on `canvas` (again from its drawn layout when it has one, else laid out afresh, the first
    then giving the document its information when `retitle`); the parts with their drawn layouts."""
    out = []
    for i, part in enumerate(plan.parts):
        if part.drawn is not None:
            part.drawn.draw_on(canvas)
            out.append(part)
            continue
        done = render(list(part.blocks), plan.paper, part.size, plan.subject, part.columns, part.title,
                      onto=canvas, retitle=retitle and i == 0, faces=plan.faces, lang=plan.lang, memory=memory)
        out.append(part._replace(drawn=done.drawn))
    return tuple(out)


def rules_plan(cs: CardSet, paper: str, memory: RulesMemory | None = None) -> RulesPlan:
    """The rules pages of `cs` on "a4" or "letter" (laid out once for the same words with the same `memory`:
    a watch's rebuilds share one)."""
    if paper not in paper_names():
        raise RulesPageError(f"unknown paper '{paper}' for the rules page; expected one of "
                             f"{', '.join(paper_names())}")
    memory = RulesMemory() if memory is None else memory
    blocks = tuple(page_blocks(cs))
    faces = own_faces(cs, blocks)
    key = (blocks, paper, cs.title, cs.name, len(cs.cards), cs.language, faces, tuple(font_sizes()), min_font_size())
    return memory.plan(key, lambda: _laid_out(memory, blocks, paper, cs.title, cs.name, len(cs.cards), cs.language,
                                              faces))


def own_faces(cs: CardSet, blocks: tuple[Block, ...]) -> Faces:
    """The faces of the set's own (`look.fonts`) that its rules page draws in, registered; raises
    RulesGlyphError when one lacks a character the page prints (the set falls back to nothing: a designer
    who brings a face gets it, or is told which characters it needs)."""
    if not cs.look.fonts:
        return ()
    used = set(page_faces())
    faces = tuple(sorted(register_set_fonts({f: p for f, p in cs.look.fonts.items() if f in used}).items()))
    problems = rules_glyph_problems(cs, blocks, faces)
    if problems:
        raise RulesGlyphError(problems)
    return faces


_TAG = re.compile(r"<[^>]*>")


def printed_characters(cs: CardSet, blocks: tuple[Block, ...]) -> dict[str, str]:
    """Every character the rules page of `cs` may print (not whitespace), with the first place it comes in:
    the blocks' words (markup removed), the bullet, the no-break spaces beside icons, and the lines a big set's
    page adds when its card list moves to the back."""
    found: dict[str, str] = {}

    def note(text: str, what: str) -> None:
        for ch in html.unescape(_TAG.sub("", text)):
            if not ch.isspace() and ch not in found:
                found[ch] = what

    for b in blocks:
        cells = b.cells[1:] if b.kind in ("type", "card") else b.cells  # their first cell is the swatch colour
        what = (f"card '{html.unescape(b.cells[1])}'" if b.kind == "card" and len(b.cells) > 1
                else f"{b.kind} '{html.unescape(_TAG.sub('', b.heading or b.text or ' '.join(cells)))[:40]}'")
        for text in (b.heading, b.text, *cells):
            note(text, what)
        if b.kind == "bullet":
            note(BULLET, "the bullets")
        if b.icons:
            found.setdefault(NBSP, "the room beside an icon")
    note(messages.text("rules_page.on_the_back", cs.language), "the line pointing to the card list on the back")
    note(messages.text("rules_page.back_title", cs.language, title=cs.title, designs=len(cs.cards)),
         "the title of the card list on the back")
    return found


def rules_glyph_problems(cs: CardSet, blocks: tuple[Block, ...], faces: Faces) -> list[Diagnostic]:
    """Each of the set's faces (`faces`, registered) that lacks a character the rules page prints, at the
    set.yaml line naming it. Every face is held to every character, as on the cards: a word moves between
    them with the markup (a bold keyword, a table cell)."""
    printed = printed_characters(cs, blocks)
    text = "".join(printed)
    out = []
    for logical, registered in faces:
        missing = missing_glyphs(text, registered)
        if not missing:
            continue
        src = cs.look.sources.get(logical)
        path, line, col = (src.path, src.line, src.column) if src else (cs.path, 1, 1)
        key, written = (src.key, src.written) if src else (logical, cs.look.fonts[logical])
        shown = ", ".join(f"'{ch}' (U+{ord(ch):04X}, {printed[ch]})" for ch in missing[:5])
        more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        out.append(Diagnostic(path, line, col, f"look.fonts.{key}: '{written}' has no glyph for {len(missing)} "
                              f"character{'s' if len(missing) != 1 else ''} the rules page prints: {shown}{more}"
                              " (the rules page is set in the set's own faces)"))
    return out


def rules_pdf_and_size(cs: CardSet, paper: str, memory: RulesMemory | None = None) -> tuple[bytes, float, int]:
    """The PDF (one page, or front and back for a big set), the body font size of its front and its pages."""
    plan = rules_plan(cs, paper, memory)
    return plan.pdf, plan.size, plan.pages


def _laid_out(memory: RulesMemory, blocks_in: tuple[Block, ...], paper: str, set_title: str, set_name: str,
              designs: int, lang: str = messages.DEFAULT_LANGUAGE, faces: Faces = ()) -> RulesPlan:
    """The pages of these blocks (a function of its arguments only: `rules_plan` remembers it in `memory`, so a
    watch rebuild after an edit that leaves the page's words alone reuses it, with the bytes of a cold build).
    A big set's front and back are drawn on one canvas: nothing is joined."""
    blocks = list(blocks_in)
    subject = _subject(set_title, set_name, lang)
    best = _fit(blocks, paper, subject, faces=faces, lang=lang, memory=memory)
    if best is not None:
        return RulesPlan(paper, subject, (RulesPart(blocks_in, best[1], drawn=best[0].drawn),), best[0].pdf,
                         best[1], 1, faces, lang)
    front_blocks, table = split_card_table(blocks, lang)
    front = _fit(front_blocks, paper, subject, faces=faces, lang=lang, memory=memory)
    if front is None:
        raise _overflow(set_name, paper, render(front_blocks, paper, min_font_size(), subject, faces=faces,
                                                lang=lang, memory=memory))
    title = messages.text("rules_page.back_title", lang, title=set_title, designs=designs)
    cols = back_columns()
    back_blocks, back = table, _fit(table, paper, subject, cols, title, faces, lang, memory)
    if back is None:
        back_blocks = compact(table)
        back = _fit(back_blocks, paper, subject, cols, title, faces, lang, memory)
    if back is not None:
        back_size, back_pages = back[1], back[0].pages
    else:
        back_size = min_font_size()
        back_pages = render(back_blocks, paper, back_size, subject, cols, title, faces=faces, lang=lang,
                            memory=memory).pages
    plan = RulesPlan(paper, subject, (RulesPart(tuple(front_blocks), front[1]),
                                      RulesPart(tuple(back_blocks), back_size, cols, title)), b"", front[1],
                     1 + back_pages, faces, lang)
    buf = io.BytesIO()
    canvas = rules_canvas(buf, paper, front[1], faces)
    parts = _draw_parts(plan, canvas, retitle=True, memory=memory)
    canvas.save()
    return plan._replace(parts=parts, pdf=buf.getvalue())


def _subject(title: str, name: str, lang: str = messages.DEFAULT_LANGUAGE) -> str:
    return messages.text("rules_page.subject", lang, title=title, name=name)


def _overflow(name: str, paper: str, worst: Rendered) -> RulesOverflowError:
    """The error for a front page that overflows even without its card table (`worst`: it at the smallest size)."""
    over = max(1, round((worst.needed - 1) * 100))
    return RulesOverflowError(f"rules page for {name} overflows by {over}% at {min_font_size():g} pt on {paper} "
                              "even with the card list on the back; shorten the set's rules")


def check_fits(cs: CardSet, paper: str) -> None:
    """Raise the error `rules_pdf` would raise, from one or two attempts at the smallest size instead of a
    search for the best size (`cardgen validate` asks this: whatever fits at the smallest size is built)."""
    blocks, subject, smallest = page_blocks(cs), _subject(cs.title, cs.name, cs.language), min_font_size()
    faces = own_faces(cs, tuple(blocks))
    if render(blocks, paper, smallest, subject, faces=faces, lang=cs.language).pages == 1:
        return
    front_blocks, _ = split_card_table(blocks, cs.language)
    attempt = render(front_blocks, paper, smallest, subject, faces=faces, lang=cs.language)
    if attempt.pages != 1:
        raise _overflow(cs.name, paper, attempt)


def rules_pdf(cs: CardSet, paper: str, memory: RulesMemory | None = None) -> bytes:
    """The rules reference of `cs` on "a4" or "letter" as PDF, the same bytes for the same input."""
    return rules_pdf_and_size(cs, paper, memory)[0]
