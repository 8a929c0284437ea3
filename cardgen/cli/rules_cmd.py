"""`cardgen rules`: write the one-page rules reference of a set (or a mixed deck) as a PDF."""

from __future__ import annotations

from pathlib import Path

import click

from cardgen.cli.common import LANG_OPTION, PAPER_OPTION, SET_REQUIRED, fails_cleanly, load_group, out_option
from cardgen.errors import CardgenError
from cardgen.output import file_or_folder, write_atomic
from cardgen.render.build import rules_file
from cardgen.render.rules_page import rules_pdf_and_size


@click.command("rules")
@SET_REQUIRED
@PAPER_OPTION
@out_option(" (<out>/<set>/<set>-rules.pdf), or a file name ending in .pdf")
@LANG_OPTION
@fails_cleanly
def command(sets: tuple[str, ...], paper: str, out: Path, lang: str | None) -> None:
    """Write the one-page rules reference; repeat --set to mix sets into one deck."""
    if not sets:
        raise CardgenError("rules needs --set (a bundled set name or a set folder)")
    cs = load_group(sets, lang=lang)
    pdf, size, pages = rules_pdf_and_size(cs, paper.lower())
    target = file_or_folder(out, ".pdf", rules_file(cs.name, cs.language))
    write_atomic(target, pdf)
    click.echo(f"{target}: {'1 page' if pages == 1 else f'{pages} pages (card list from the back on)'}, "
               f"{paper.lower()}, body text {size:g} pt")
