"""A print build: card sheets, the rules page and the merged print file, rendered in memory, then written.

Everything is rendered before anything is written, so bad input (a card that
does not fit, a missing glyph) leaves no file behind; each set's files are
swapped in together, so a build killed at any moment never leaves a mixed set.
The print file joins the rules page and the cards (cardgen.render.pdfjoin) with
bookmarks per card type and fixed metadata, so a rebuild gives the same bytes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cardgen.model import CardSet
from cardgen.output import check_writable, publish_files
from cardgen.render.assembly import assembly_pdf
from cardgen.render.pdfjoin import Bookmark, info_dict, join_pdfs, page_sizes
from cardgen.render.rules_page import rules_pdf
from cardgen.render.session import RenderSession
from cardgen.render.sheets import PRODUCER, CardsPdf, PrintOptions, card_sequence, cards_pdf


@dataclass(frozen=True)
class BuildOutput:
    """The files of one set (or mix), relative to the output folder, with their bytes."""

    stem: str
    files: dict[str, bytes]


def print_pdf(cs: CardSet, cards: CardsPdf, rules: bytes, duplex: bool = False, assembly: bytes | None = None) -> bytes:
    """The rules page, the assembly page (when given), then the card sheets, with bookmarks and fixed metadata.

    With `duplex` (card sheets with backs) the pages before the cards take an even number of sides, a
    blank one added if needed, so every back page prints on the reverse of its own front.
    """
    sizes = page_sizes(rules)
    parts = [rules] if assembly is None else [rules, assembly]
    before = len(sizes) + (0 if assembly is None else 1)
    blank = {len(parts) - 1: sizes[-1]} if duplex and before % 2 else {}
    offset = before + len(blank)
    types = tuple(Bookmark(cs.types[key].label if key in cs.types else key, offset + first)
                  for key, first in cards.type_pages.items())
    info = info_dict({"Title": f"{cs.title}: print-and-play", "Author": "cardgen",
                      "Subject": f"{cs.name}: rules page and card sheets", "Creator": PRODUCER, "Producer": PRODUCER,
                      "Keywords": "print and play, cards"})
    marks = [Bookmark("Rules", 0)]
    if assembly is not None:
        marks.append(Bookmark("Making the deck", len(sizes)))
    return join_pdfs([*parts, cards.data], info, (*marks, Bookmark("Cards", offset, types)), blank)


def render_set(cs: CardSet, opts: PrintOptions, progress: Callable[[int], None] | None = None) -> BuildOutput:
    """All files of one build of `cs`, in memory."""
    stem = cs.name
    session = RenderSession.for_set(cs.path)
    cards = cards_pdf(cs, opts, progress, session)
    rules = rules_pdf(cs, opts.paper)
    duplex = opts.backs and not cards.layout.folded_backs
    sheets = cards.pages // 2 if duplex else cards.pages
    assembly = assembly_pdf(session, cs, opts, cards.layout, sheets)
    files = {f"{stem}/{stem}-cards.pdf": cards.data, rules_file(stem): rules,
             f"{stem}/{stem}-print.pdf": print_pdf(cs, cards, rules, duplex, assembly)}
    return BuildOutput(stem, files)


def rules_file(stem: str) -> str:
    """Where a build (and `cardgen rules` by default) puts the rules page, relative to the output folder."""
    return f"{stem}/{stem}-rules.pdf"


def build(sets: list[CardSet], opts: PrintOptions, out: Path, show_progress: bool = True) -> list[Path]:
    """Render every set, then write all files; returns the paths written.

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
                outputs.append(render_set(cs, opts, advance))
    else:
        outputs = [render_set(cs, opts) for cs in sets]
    written: list[Path] = []
    for result in outputs:  # each set's files appear together or not at all (output.publish_folder)
        written += publish_files(out, result.files)
    return written
