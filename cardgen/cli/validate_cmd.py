"""`cardgen validate`: load every named set (or all bundled ones) and report all problems.

One verdict: besides the loader's checks, a set is refused for whatever `build`
would refuse (the print preflight draws every face as a build does) and for
cards no rule could ever let anyone play (a static analysis of the mechanics);
then a short, time-bounded simulation looks for what only games show.
"""

from __future__ import annotations

import sys

import click

from cardgen.cli.bounds import SIM_SECONDS
from cardgen.cli.common import SET_OPTION, fails_cleanly, load_group, report, set_groups
from cardgen.errors import CardgenError, Diagnostic, SetError, error_text
from cardgen.model import CardSet


def static_problems(cs: CardSet) -> list[Diagnostic]:
    """Problems found without playing: cards that can never be played, and what a build would refuse."""
    from cardgen.engine.playability import playability_problems
    from cardgen.render.preflight import print_problems

    return playability_problems(cs) + print_problems(cs)


def simulate_set(cs: CardSet, budget: float, games: int | None = None) -> int:
    """Run the sanity simulation, print its diagnostics and a summary line; the number of errors."""
    from tqdm import tqdm

    from cardgen.sim.sanity import IMPACT_GAMES, SANITY_GAMES, impact_outliers, sanity_check  # loads the engine

    games = games or IMPACT_GAMES
    try:
        with tqdm(total=SANITY_GAMES, unit="game", desc=f"validating {cs.name}", leave=False, file=sys.stderr,
                  disable=None) as bar:
            def advance(n: int) -> None:
                bar.update(n)

            rep = sanity_check(cs, budget=budget, progress=advance)
        with tqdm(total=games, unit="game", desc=f"card impact {cs.name}", leave=False, file=sys.stderr,
                  disable=None) as bar:
            def step(n: int) -> None:
                bar.update(n)

            outliers = impact_outliers(cs, games, progress=step)
    except CardgenError as exc:  # a problem only a simulation meets: report it and go on with the next set
        click.echo(f"error: {cs.name}: cannot simulate: {exc}", err=True)
        return 1
    report(rep.diagnostics + outliers)
    errors = sum(1 for d in rep.diagnostics if d.severity == "error")
    warnings = len(rep.diagnostics) + len(outliers) - errors
    counts = ", ".join(f"{n} {word}{'' if n == 1 else 's'}" for n, word in (
        (rep.stalemates, "stalemate"), (rep.violations, "invariant violation"), (errors, "error"),
        (warnings, "warning")))
    click.echo(f"{cs.name}: simulated {rep.games} games in {rep.seconds:.1f} s: {counts}")
    click.echo(f"{cs.name}: card impact from {games} two-player greedy games: {len(outliers)} outlier"
               f"{'' if len(outliers) == 1 else 's'}")
    for note in rep.cut_short():
        click.echo(f"{cs.name}: simulation cut short: {note}")
    return errors


@click.command("validate")
@SET_OPTION
@click.option("--sim/--no-sim", "sim", default=True, show_default=True,
              help="Also play a short simulation of each set (cards never played, stalemates, rule breaks).")
@click.option("--sim-seconds", "budget", type=SIM_SECONDS, default=20.0,
              show_default=True, metavar="SECONDS",
              help="Time budget of each set's simulation: no new game starts after it (the output says so).")
@click.option("--games", type=click.IntRange(min=1, max=1_000_000), metavar="N",
              help="Two-player greedy games of each set's card-impact lint (default 500); more find smaller outliers.")
@fails_cleanly
def command(sets: tuple[str, ...], sim: bool, budget: float, games: int | None) -> None:
    """Check card sets; every problem is printed as path:line:col."""
    from cardgen.engine.playability import games_can_end

    failed = 0
    for group in set_groups(sets):
        try:
            cs = load_group(group)
        except SetError as exc:
            report(exc.diagnostics)
            failed += len(exc.errors)
            continue
        except CardgenError as exc:
            click.echo(error_text(exc), err=True)
            failed += 1
            continue
        found = static_problems(cs)
        report(found)
        errors = sum(1 for d in found if d.severity == "error")
        failed += errors
        if errors:
            click.echo(f"{cs.name}: {errors} error{'s' if errors != 1 else ''} ({len(cs.cards)} designs, "
                       f"{cs.total} cards)")
        else:
            click.echo(f"{cs.name}: ok ({len(cs.cards)} designs, {cs.total} cards)")
        if sim and games_can_end(cs):  # a set nothing can hurt with would only play to the turn cap
            failed += simulate_set(cs, budget, games)
    if failed:
        click.echo(f"{failed} error{'s' if failed != 1 else ''} found", err=True)
        sys.exit(1)
