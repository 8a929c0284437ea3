"""`cardgen validate`: load every named set (or all bundled ones) and report all problems.

One verdict: besides the loader's checks, a set is refused for whatever `build`
would refuse (the print preflight draws every face as a build does) and for
cards no rule could ever let anyone play (a static analysis of the mechanics);
then a short simulation, bounded by a count of turns, looks for what only games show.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import click

from cardgen.checks.before_build import static_problems
from cardgen.checks.language import translation_print_problems, translation_problems
from cardgen.cli.bounds import SIM_SECONDS
from cardgen.cli.common import LANG_OPTION, SET_OPTION, fails_cleanly, load_group, report, set_groups
from cardgen.errors import CardgenError, Diagnostic, SetError, error_text
from cardgen.model import CardSet
from cardgen.sim import balance_defaults

if TYPE_CHECKING:
    from cardgen.sim.balance import BalanceConfig, BalanceResult, KeptGames


def simulate_set(cs: CardSet, budget: float | None, balance: BalanceConfig | None, base: CardSet | None = None,
                 timings: bool = False, kept: KeptGames | None = None) -> int:
    """Run the sanity simulation and the balance lint (`balance`, None: skipped), print their diagnostics and
    summary lines; the number of errors. `base`: the set `cs` extends, its balance compared with; `kept`: the
    games of the sets judged before, which a comparison with one of them as its base reads. The summary
    is a function of the files and options; how long each part took goes to stderr, with `timings` only."""
    from tqdm import tqdm

    from cardgen.checks.sanity import SANITY_GAMES, balance_findings, balance_notes, sanity_check  # loads the engine

    try:
        findings: list[Diagnostic] = []
        notes: list[str] = []
        if balance is None:
            with tqdm(total=SANITY_GAMES, unit="game", desc=f"validating {cs.name}", leave=False, file=sys.stderr,
                      disable=None) as bar:
                def advance(n: int) -> None:
                    bar.update(n)

                rep = sanity_check(cs, budget=budget, progress=advance)
            took = [f"simulation {rep.seconds:.1f} s"]
        else:
            from cardgen.cli.compare_cmd import run_with_bar

            box: list[list[Diagnostic]] = []

            def lint(bar: Callable[[int], None]) -> BalanceResult:
                found, result = balance_findings(cs, base, balance, bar, kept)
                box.append(found)
                return result

            # The sanity games run in a thread of this process while the balance games run in their workers (one
            # after the other, a core would wait); what each prints does not depend on it, only the balance's
            # progress bar is shown.
            with ThreadPoolExecutor(1) as sanity:
                pending = sanity.submit(sanity_check, cs, budget=budget)
                result = run_with_bar(f"balance {cs.name}", lint, balance)
                rep = pending.result()
            findings, notes = box[0], balance_notes(result, cs)
            took = [f"simulation {rep.seconds:.1f} s",
                    f"balance {result.seconds:.1f} s" + (" (from the cache)" if result.cached else "")]
    except CardgenError as exc:  # a problem only a simulation meets: report it and go on with the next set
        click.echo(f"error: {cs.name}: cannot simulate: {exc}", err=True)
        return 1
    report(rep.diagnostics + findings)
    errors = sum(1 for d in rep.diagnostics if d.severity == "error")
    warnings = len(rep.diagnostics) + len(findings) - errors
    counts = ", ".join(f"{n} {word}{'' if n == 1 else 's'}" for n, word in (
        (rep.stalemates, "stalemate"), (rep.violations, "invariant violation"), (errors, "error"),
        (warnings, "warning")))
    click.echo(f"{cs.name}: simulated {rep.games} games: {counts}")
    for note in notes:
        click.echo(f"{cs.name}: {note}")
    for note in rep.cut_short():
        click.echo(f"{cs.name}: simulation cut short: {note}")
    if timings:
        click.echo(f"{cs.name}: took {', '.join(took)}", err=True)
    return errors


@click.command("validate")
@SET_OPTION
@click.option("--sim/--no-sim", "sim", default=True, show_default=True,
              help="Also play a short simulation of each set (cards never played, stalemates, rule breaks).")
@click.option("--sim-seconds", "budget", type=SIM_SECONDS, default=None, metavar="SECONDS",
              help="Time budget of each set's simulation: no new game starts after it (the output says so). "
                   "Default: none; the games are bounded by a count of turns, so every run says the same.")
@click.option("--balance/--no-balance", "balance", default=True, show_default=True,
              help="Also judge card balance by the shared procedure (a set that extends another: the designer's "
                   "changes against the base), as `cardgen compare` does.")
@click.option("--max-games", default=balance_defaults.MAX_GAMES, show_default=True,
              type=click.IntRange(min=400, max=10_000_000), metavar="N",
              help="Game budget of the balance games per table size, in games played (they stop sooner when "
                   "the verdicts are clear).")
@click.option("--games", type=click.IntRange(min=1, max=1_000_000), metavar="N",
              help="Balance games per table size, exactly (no early stop).")
@click.option("--seed", default=0, show_default=True, type=click.IntRange(min=0), help="Balance run seed.")
@click.option("--jobs", default=balance_defaults.default_jobs(), show_default="the CPU count",
              type=click.IntRange(min=1, max=256), help="Worker processes of the balance games (the verdicts do "
              "not change).")
@click.option("--timings", is_flag=True, help="Also say how long each set's simulation and balance games took "
              "(on stderr: the rest of the output is the same on every run).")
@LANG_OPTION
@fails_cleanly
def command(sets: tuple[str, ...], sim: bool, budget: float | None, balance: bool, max_games: int,
            games: int | None, seed: int, jobs: int, timings: bool, lang: str | None) -> None:
    """Check card sets; every problem is printed as path:line:col."""
    from cardgen.engine.playability import games_can_end

    failed = 0
    kept: KeptGames | None = None  # (made at the first balance) a set's games, for a later set extending it
    for group in set_groups(sets):
        try:
            cs = load_group(group, lang=lang)
        except SetError as exc:
            report(exc.diagnostics)
            failed += len(exc.errors)
            continue
        except CardgenError as exc:
            click.echo(error_text(exc), err=True)
            failed += 1
            continue
        found = static_problems(cs) + (translation_problems(cs) + translation_print_problems(cs) if lang is None
                                       else [])
        report(found)
        errors = sum(1 for d in found if d.severity == "error")
        failed += errors
        if errors:
            click.echo(f"{cs.name}: {errors} error{'s' if errors != 1 else ''} ({len(cs.cards)} designs, "
                       f"{cs.total} cards)")
        else:
            click.echo(f"{cs.name}: ok ({len(cs.cards)} designs, {cs.total} cards)")
        if sim and games_can_end(cs):  # a set nothing can hurt with would only play to the turn cap
            from cardgen.cli.compare_cmd import base_of
            from cardgen.sim.balance import BalanceConfig, KeptGames

            cfg = BalanceConfig(max_games=max_games, games=games, seed=seed, jobs=jobs) if balance else None
            kept = kept or KeptGames()
            failed += simulate_set(cs, budget, cfg, base_of(cs, lang) if balance else None, timings, kept)
    if failed:
        click.echo(f"{failed} error{'s' if failed != 1 else ''} found", err=True)
        sys.exit(1)
