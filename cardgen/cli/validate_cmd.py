"""`cardgen validate`: load every named set (or all bundled ones) and report all problems."""

from __future__ import annotations

import sys

import click

from cardgen.cli.common import SET_OPTION, fails_cleanly, load_group, report, set_groups
from cardgen.errors import CardgenError, SetError


@click.command("validate")
@SET_OPTION
@fails_cleanly
def command(sets: tuple[str, ...]) -> None:
    """Check card sets; every problem is printed as path:line:col."""
    failed = 0
    for group in set_groups(sets):
        try:
            cs = load_group(group)
        except SetError as exc:
            report(exc.diagnostics)
            failed += len(exc.errors)
            continue
        except CardgenError as exc:
            click.echo(f"error: {exc}", err=True)
            failed += 1
            continue
        click.echo(f"{cs.name}: ok ({len(cs.cards)} designs, {cs.total} cards)")
    if failed:
        click.echo(f"{failed} error{'s' if failed != 1 else ''} found", err=True)
        sys.exit(1)
