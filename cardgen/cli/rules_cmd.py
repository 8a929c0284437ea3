"""`cardgen rules`: write the one-page rules reference of a set (or a mixed deck) as a PDF."""

from __future__ import annotations

from pathlib import Path

import click

from cardgen.cli.common import SET_OPTION, fails_cleanly, load_group
from cardgen.errors import CardgenError
from cardgen.output import write_atomic
from cardgen.render.build import rules_file
from cardgen.render.rules_page import rules_pdf_and_size


@click.command("rules")
@SET_OPTION
@click.option("--paper", default="a4", show_default=True, metavar="a4|letter",
              help="Paper size of the page.")
@click.option("--out", type=click.Path(dir_okay=False),
              help="Output file (default output/<set>/<set>-rules.pdf).")
@fails_cleanly
def command(sets: tuple[str, ...], paper: str, out: str | None) -> None:
    """Write the one-page rules reference; repeat --set to mix sets into one deck."""
    if not sets:
        raise CardgenError("rules needs --set (a bundled set name or a set folder)")
    cs = load_group(sets)
    pdf, size, pages = rules_pdf_and_size(cs, paper.lower())
    if out is not None and (Path(out).is_dir() or out.endswith(("/", "\\"))):
        raise CardgenError(f"--out {out} is a folder; give a file name such as "
                           f"{Path(out) / (cs.name + '-rules.pdf')}")
    target = Path(out) if out is not None else Path("output") / rules_file(cs.name)
    write_atomic(target, pdf)
    click.echo(f"{target}: {'1 page' if pages == 1 else f'{pages} pages (card list from the back on)'}, "
               f"{paper.lower()}, body text {size:g} pt")
