"""`cardgen validate`: load every named set (or all bundled ones) and report all problems."""

from __future__ import annotations

import sys

import click

from cardgen.cli.common import SET_OPTION, fails_cleanly, load_group, report, set_groups
from cardgen.errors import CardgenError, SetError
from cardgen.model import CardSet


def simulate_set(cs: CardSet) -> int:
    """Run the sanity simulation, print its diagnostics and a summary line; the number of errors."""
    from cardgen.sim.sanity import sanity_check  # imports the engine: only when simulating

    try:
        rep = sanity_check(cs)
    except CardgenError as exc:  # e.g. too few cards to deal: report it and go on with the next set
        click.echo(f"error: {cs.name}: cannot simulate: {exc}", err=True)
        return 1
    report(rep.diagnostics)
    errors = sum(1 for d in rep.diagnostics if d.severity == "error")
    warnings = len(rep.diagnostics) - errors
    counts = ", ".join(f"{n} {word}{'' if n == 1 else 's'}" for n, word in (
        (rep.stalemates, "stalemate"), (rep.violations, "invariant violation"), (errors, "error"),
        (warnings, "warning")))
    click.echo(f"{cs.name}: simulated {rep.games} games in {rep.seconds:.1f} s: {counts}")
    return errors


@click.command("validate")
@SET_OPTION
@click.option("--sim/--no-sim", "sim", default=True, show_default=True,
              help="Also play a short simulation of each set (cards never playable, stalemates, rule breaks).")
@fails_cleanly
def command(sets: tuple[str, ...], sim: bool) -> None:
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
        if sim:
            failed += simulate_set(cs)
    if failed:
        click.echo(f"{failed} error{'s' if failed != 1 else ''} found", err=True)
        sys.exit(1)
