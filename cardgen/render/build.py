"""A print build: card sheets, the rules page and the merged print file, rendered in memory, then written.

Everything is rendered before anything is written, so bad input (a card that
does not fit, a missing glyph) leaves no file behind; each file is written
atomically. pypdf merges the rules page and the cards and adds bookmarks per
card type and fixed metadata, so a rebuild gives the same bytes.
"""

from __future__ import annotations

import importlib
import io
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pypdf import PdfReader, PdfWriter

from cardgen.errors import OutputError
from cardgen.model import CardSet
from cardgen.output import ensure_dir, write_atomic
from cardgen.render.sheets import PRODUCER, CardsPdf, PrintOptions, card_sequence, cards_pdf

RULES_MODULE = "cardgen.render.rules_page"
RULES_MISSING_NOTE = "note: the rules page module is not available yet; {stem}-print.pdf holds the cards only"


@dataclass(frozen=True)
class BuildOutput:
    """The files of one set (or mix), relative to the output folder, with their bytes."""

    stem: str
    files: dict[str, bytes]
    notes: tuple[str, ...] = ()


def rules_page(cs: CardSet, paper: str) -> bytes | None:
    """The one-page rules PDF, or None while `cardgen.render.rules_page` does not exist yet."""
    try:
        module = importlib.import_module(RULES_MODULE)
    except ModuleNotFoundError as exc:
        if exc.name != RULES_MODULE:
            raise
        return None
    data: bytes = module.rules_pdf(cs, paper)
    return data


def print_pdf(cs: CardSet, cards: CardsPdf, rules: bytes | None) -> bytes:
    """Rules page (if any) then the card sheets, with bookmarks per card type and fixed metadata."""
    writer = PdfWriter()
    offset = 0
    if rules is not None:
        for page in PdfReader(io.BytesIO(rules)).pages:
            writer.add_page(page)
        offset = len(writer.pages)
    for page in PdfReader(io.BytesIO(cards.data)).pages:
        writer.add_page(page)
    if rules is not None:
        writer.add_outline_item(title="Rules", page_number=0)
    parent = writer.add_outline_item(title="Cards", page_number=offset)
    for key, first in cards.type_pages.items():
        label = cs.types[key].label if key in cs.types else key
        writer.add_outline_item(title=label, page_number=offset + first, parent=parent)
    writer.add_metadata({
        "/Title": f"{cs.title}: print-and-play",
        "/Author": "cardgen",
        "/Subject": f"{cs.name}: rules page and card sheets" if rules is not None else f"{cs.name}: card sheets",
        "/Creator": PRODUCER,
        "/Producer": PRODUCER,
        "/Keywords": "print and play, cards",
    })
    writer._ID = None  # no random file identifier: the same input gives the same bytes
    buf = io.BytesIO()
    writer.write(buf)
    return buf.getvalue()


def render_set(cs: CardSet, opts: PrintOptions, progress: Callable[[int], None] | None = None) -> BuildOutput:
    """All files of one build of `cs`, in memory."""
    stem = cs.name
    cards = cards_pdf(cs, opts, progress)
    rules = rules_page(cs, opts.paper)
    files = {f"{stem}/{stem}-cards.pdf": cards.data}
    notes: list[str] = []
    if rules is None:
        notes.append(RULES_MISSING_NOTE.format(stem=stem))
    else:
        files[f"{stem}/{stem}-rules.pdf"] = rules
    files[f"{stem}/{stem}-print.pdf"] = print_pdf(cs, cards, rules)
    return BuildOutput(stem, files, tuple(notes))


def check_writable(out: Path) -> None:
    """Fail before rendering when `out` cannot be created or written, without creating anything."""
    probe = out.resolve()
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        raise OutputError(f"output folder {out} cannot be created: {probe} is not a folder")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise OutputError(f"output folder {out} is not writable ({probe} does not allow writing)")


def build(sets: list[CardSet], opts: PrintOptions, out: Path, show_progress: bool = True) -> list[Path]:
    """Render every set, then write all files; returns the paths written."""
    from tqdm import tqdm

    check_writable(out)
    total = sum(len(card_sequence(cs, opts.proof)) for cs in sets)
    outputs: list[BuildOutput] = []
    with tqdm(total=total, unit="card", file=sys.stderr, disable=None if show_progress else True,
              leave=False, desc="rendering") as bar:
        def advance(n: int) -> None:
            bar.update(n)

        for cs in sets:
            outputs.append(render_set(cs, opts, advance))
    written: list[Path] = []
    ensure_dir(out)
    for result in outputs:
        for note in result.notes:
            print(note, file=sys.stderr)
        for rel, data in result.files.items():
            path = out / rel
            write_atomic(path, data)
            written.append(path)
    return written
