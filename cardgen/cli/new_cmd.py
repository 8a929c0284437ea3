"""`cardgen new`: start a home-made set that extends a bundled one."""

from __future__ import annotations

from pathlib import Path

import click

from cardgen.cli.common import Choice, OutPath, fails_cleanly
from cardgen.paths import bundled_set_names
from cardgen.scaffold import new_set


@click.command("new")
@click.argument("path", type=OutPath())
@click.option("--base", default="lunch", show_default=True, type=Choice(bundled_set_names()),
              help="The bundled set your set starts from.")
@fails_cleanly
def command(path: Path, base: str) -> None:
    """Create a set folder at PATH with one example card; it validates and builds at once."""
    for p in new_set(path, base):
        click.echo(str(p))
    click.echo(f"next: cardgen validate --set {path}  then  cardgen build --set {path}")
