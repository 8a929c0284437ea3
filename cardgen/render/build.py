"""A print build: card sheets, the rules page and the print file, rendered in memory, then written.

Everything is rendered before anything is written, so bad input (a card that
does not fit, a missing glyph) leaves no file behind; each set's files are
swapped in together, so a build killed at any moment never leaves a mixed set.
The print file is one document drawn on one canvas (the rules pages, the
assembly page, the card sheets again) with bookmarks per card type and fixed
metadata, so nothing is joined and a rebuild gives the same bytes.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from cardgen import messages
from cardgen.model import CardSet
from cardgen.output import check_writable, publish_files
from cardgen.render.assembly import draw_assembly
from cardgen.render.geometry import SheetLayout
from cardgen.render.memory import RulesMemory
from cardgen.render.rules_page import RulesPlan, draw_rules, rules_plan
from cardgen.render.session import RenderSession
from cardgen.render.sheets import (
    PrintOptions,
    card_sequence,
    cards_pdf,
    draw_sheets,
    file_stem,
    first_pages,
    new_canvas,
)


class BuildOutput(NamedTuple):
    """The files of one set (or mix), relative to the output folder, with their bytes."""

    stem: str
    files: dict[str, bytes]


class _Outline:
    """Bookmarks of a canvas's document, each at the page being drawn when it is added."""

    def __init__(self, canvas: Any) -> None:
        self.canvas, self.count = canvas, 0

    def __call__(self, title: str, level: int) -> None:
        self.count += 1
        key = f"bookmark{self.count}"
        self.canvas.bookmarkPage(key)
        self.canvas.addOutlineEntry(title, key, level)


def print_pdf(s: RenderSession, cs: CardSet, opts: PrintOptions, layout: SheetLayout, rules: RulesPlan) -> bytes:
    """The rules pages, the assembly page, then the card sheets: one document drawn on one canvas, with
    bookmarks (rules, making the deck, the cards and each card type) and fixed metadata.

    With duplex backs the pages before the cards take an even number of sides, a blank one added if
    needed, so every back page prints on the reverse of its own front.
    """
    buf = io.BytesIO()
    lang = cs.language
    canvas = new_canvas(buf, layout.paper.width, layout.paper.height,
                        messages.text("pdf.print_title", lang, title=cs.title),
                        messages.text("pdf.print_subject", lang, set=cs.name), lang)
    mark = _Outline(canvas)
    mark(messages.text("pdf.outline_rules", lang), 0)
    draw_rules(rules, canvas)
    mark(messages.text("assembly.title", lang), 0)
    duplex = opts.backs and not layout.folded_backs
    sheets = -(-len(card_sequence(cs, opts.proof)) // layout.per_page)
    draw_assembly(s, canvas, cs, opts, layout, sheets)
    before = rules.pages + 1
    if duplex and before % 2:
        canvas.showPage()  # a blank side, so the first sheet starts a leaf of its own
        before += 1
    starts: dict[int, list[str]] = {}
    for key, page in first_pages(cs, opts, layout)[0].items():
        starts.setdefault(page, []).append(key)

    def page_begins(i: int) -> None:
        if i == 0:
            mark(messages.text("pdf.outline_cards", lang), 0)
        for key in starts.get(i, []):
            mark(cs.types[key].label if key in cs.types else key, 1)

    draw_sheets(s, canvas, cs, opts, layout, page_begins=page_begins, pages_before=before)
    canvas.save()
    return buf.getvalue()


def render_set(cs: CardSet, opts: PrintOptions, progress: Callable[[int], None] | None = None,
               rules: RulesMemory | None = None) -> BuildOutput:
    """All files of one build of `cs`, in memory (one render session: the print file reuses the text the
    card sheets measured and fitted)."""
    folder, stem = cs.name, file_stem(cs.name, cs.language)
    session = RenderSession.for_cards(cs, rules)
    cards = cards_pdf(cs, opts, progress, session)
    plan = rules_plan(cs, opts.paper, session.rules)
    files = {f"{folder}/{stem}-cards.pdf": cards.data, rules_file(cs.name, cs.language): plan.pdf,
             f"{folder}/{stem}-print.pdf": print_pdf(session, cs, opts, cards.layout, plan)}
    return BuildOutput(folder, files)


def rules_file(name: str, lang: str = messages.DEFAULT_LANGUAGE) -> str:
    """Where a build (and `cardgen rules` by default) puts the rules page, relative to the output folder."""
    return f"{name}/{file_stem(name, lang)}-rules.pdf"


def build(sets: list[CardSet], opts: PrintOptions, out: Path, show_progress: bool = True,
          rules: RulesMemory | None = None) -> list[Path]:
    """Render every set, then write all files; returns the paths written. A watch passes the same `rules` memory
    to every rebuild (a rules page whose words did not change is not laid out again).

    The progress bar shows on a terminal only; elsewhere tqdm is not even imported.
    """
    check_writable(out)
    outputs: list[BuildOutput] = []
    if show_progress and sys.stderr.isatty():
        from tqdm import tqdm

        total = sum(len(card_sequence(cs, opts.proof)) for cs in sets)
        with tqdm(total=total, unit="card", file=sys.stderr, leave=False, desc="rendering") as bar:
            def advance(n: int) -> None:
                bar.update(n)

            for cs in sets:
                outputs.append(render_set(cs, opts, advance, rules))
    else:
        outputs = [render_set(cs, opts, rules=rules) for cs in sets]
    written: list[Path] = []
    for result in outputs:  # each set's files appear together or not at all (output.publish_folder)
        written += publish_files(out, result.files)
    return written
