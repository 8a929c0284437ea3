"""`cardgen schema`: print (or write) the JSON Schema of the card-set format."""

from __future__ import annotations

from pathlib import Path

import click

from cardgen.cli.common import fails_cleanly
from cardgen.loader.schema import schema_json
from cardgen.output import write_atomic


@click.command("schema")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Write to this file instead.")
@fails_cleanly
def command(out: Path | None) -> None:
    """Print the JSON Schema that editors use to check set files."""
    text = schema_json()
    if out is None:
        click.echo(text, nl=False)
    else:
        write_atomic(out, text.encode("utf-8"))
