"""`cardgen schema`: print (or write) the JSON Schema of the card-set format."""

from __future__ import annotations

from pathlib import Path

import click

from cardgen.cli.common import OutPath, fails_cleanly
from cardgen.loader.schema import SCHEMA_FILE, schema_json
from cardgen.output import file_or_folder, write_atomic


@click.command("schema")
@click.option("--out", type=OutPath(),
              help=f"Write it to this .json file, or into this folder as {SCHEMA_FILE}, instead of printing it.")
@fails_cleanly
def command(out: Path | None) -> None:
    """Print the JSON Schema that editors use to check set files."""
    text = schema_json()
    if out is None:
        click.echo(text, nl=False)
        return
    target = file_or_folder(out, ".json", SCHEMA_FILE)
    data = text.encode("utf-8")
    write_atomic(target, data)
    click.echo(f"{target}: JSON Schema of the card-set format, {len(data):,} bytes")
