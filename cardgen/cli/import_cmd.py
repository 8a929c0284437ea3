"""`cardgen import`: bring cards in from elsewhere (a spreadsheet)."""

from __future__ import annotations

from pathlib import Path

import click

from cardgen.cli.common import OutPath, fails_cleanly, report
from cardgen.sheets import import_sheet


@click.group("import")
def command() -> None:
    """Import cards into a set folder."""


@command.command("sheet")
@click.argument("sheet", type=click.Path(path_type=Path))
@click.option("--into", "into", required=True, type=OutPath(), metavar="SETDIR",
              help="The set folder; its cards.yaml is replaced by the sheet's cards.")
@click.option("--base", default=None, metavar="SET",
              help="For a folder without set.yaml: start a set with this set's rules and card types.")
@fails_cleanly
def sheet(sheet: Path, into: Path, base: str | None) -> None:
    """A CSV or XLSX sheet (one row a card, a header row of field names) as SETDIR/cards.yaml."""
    result = import_sheet(sheet, into, base)
    report(result.warnings)
    for path in result.written:
        click.echo(str(path))
    click.echo(f"{into}: {result.designs} designs, {result.cards} cards")
