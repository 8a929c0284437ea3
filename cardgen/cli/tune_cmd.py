"""`cardgen tune BASE SET`: the smallest change of a flagged card's numbers that brings it back inside the band."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import click
from tqdm import tqdm

from cardgen.cli.bounds import ALPHA, Finite
from cardgen.cli.common import OutPath, fails_cleanly, load_group
from cardgen.cli.compare_cmd import parse_tables
from cardgen.cli.simulate_cmd import emit_results
from cardgen.errors import OutputError
from cardgen.output import check_writable
from cardgen.sim import balance_defaults as defaults
from cardgen.sim.agents import AGENTS, DEFAULT_BUDGET, agent_names, parse_budget
from cardgen.sim.balance import BalanceConfig, verdict_lines
from cardgen.sim.tune import (
    DEFAULT_NUMBERS,
    MAX_STEPS,
    NUMBERS,
    TUNE_MAX_GAMES,
    TUNE_SECONDS,
    TuneConfig,
    TuneResult,
    flagged_cards,
    tunable,
    tune,
    tune_json,
    tune_lines,
    verdicts_of,
)


def parse_numbers(text: str) -> tuple[str, ...]:
    """`damage,stunned` -> the numbers tune may change."""
    names = tuple(dict.fromkeys(x.strip().lower() for x in text.split(",") if x.strip()))
    bad = [n for n in names if n not in NUMBERS]
    if not names or bad:
        raise OutputError(f"--numbers takes a comma list of {', '.join(NUMBERS)}, not '{text}'")
    return names


@click.command("tune")
@click.argument("base", metavar="BASE")
@click.argument("set_ref", metavar="SET")
@click.option("--card", "cards", multiple=True, metavar="NAME",
              help="Card to tune (repeat it); default: every card the balance verdicts call too strong or too weak.")
@click.option("--numbers", default=",".join(DEFAULT_NUMBERS), show_default=True, metavar="LIST",
              help=f"Numbers that may change, from {', '.join(NUMBERS)}.")
@click.option("--max-steps", default=MAX_STEPS, show_default=True, type=click.IntRange(min=1, max=20),
              help="Largest change of one number tried (steps of 1).")
@click.option("--players", "tables", default=",".join(map(str, defaults.TABLES)), show_default=True, metavar="N,N",
              help="Table sizes every candidate is judged at.")
@click.option("--max-games", default=TUNE_MAX_GAMES, show_default=True, type=click.IntRange(min=400),
              help="Games per table size and candidate at most (a candidate stops sooner when its verdict is clear).")
@click.option("--games", type=click.IntRange(min=1, max=10_000_000), metavar="N",
              help="Play exactly N games per table size and candidate (no early stop).")
@click.option("--seconds", default=TUNE_SECONDS, show_default=True, type=Finite(1, 86_400),
              help="Wall-time budget of the verdicts on the set as it is, and of the search for each card.")
@click.option("--confirm-seconds", default=defaults.SECONDS, show_default=True,
              type=Finite(0.1, 86_400),
              help="Wall-time budget of the suggestion's confirmation by the default procedure (every table size).")
@click.option("--min-effect", default=defaults.MIN_EFFECT, show_default=True, type=Finite(0.1, 100),
              metavar="POINTS", help="Smallest change of win rate (points) that counts.")
@click.option("--alpha", default=defaults.ALPHA, show_default=True, type=ALPHA,
              help="Chance of calling a card that did not change, per family of tests.")
@click.option("--seed", default=0, show_default=True, type=click.IntRange(min=0), help="Run seed.")
@click.option("--agent", default=",".join(defaults.AGENTS), show_default=True, metavar=f"[{'|'.join(AGENTS)}]",
              help="Bot for every seat, or a comma list.")
@click.option("--budget", default=DEFAULT_BUDGET, show_default=True, metavar="N|Nms",
              help="The search bot's budget a decision.")
@click.option("--jobs", default=1, show_default=True, type=click.IntRange(min=1, max=256),
              help="Worker processes (verdicts do not change; more candidates fit in the time budget).")
@click.option("--json", "json_path", type=OutPath(), metavar="FILE",
              help="Write the results as JSON ('-' for standard output).")
@fails_cleanly
def command(base: str, set_ref: str, cards: tuple[str, ...], numbers: str, max_steps: int, tables: str,
            max_games: int, games: int | None, seconds: float, confirm_seconds: float, min_effect: float,
            alpha: float, seed: int, agent: str, budget: str, jobs: int, json_path: Path | None) -> None:
    """Suggest the smallest change of a flagged card's numbers (damage, heal, stun...) that brings it back inside
    the band, judged on the same paired games as `cardgen compare BASE SET` (docs/simulation.md, "Suggested
    fixes")."""
    if json_path is not None and str(json_path) != "-":
        check_writable(json_path.parent)
    cfg = TuneConfig(BalanceConfig(tables=parse_tables(tables), agents=agent_names(agent), seed=seed, alpha=alpha,
                                   min_effect=min_effect, max_games=max_games, games=games, jobs=jobs,
                                   budget=parse_budget(budget)),
                     seconds=seconds, max_steps=max_steps, numbers=parse_numbers(numbers),
                     confirm_seconds=confirm_seconds)
    a, b = load_group((base,)), load_group((set_ref,))
    for name in cards:  # a misspelt name is refused now, not after the verdicts' games
        tunable(b, name, cfg.numbers)
    with tqdm(unit="game", desc=f"tuning {b.name}", leave=False, file=sys.stderr, disable=None) as bar:
        def advance(n: int) -> None:
            bar.update(n)

        def trying(what: str) -> None:
            bar.set_postfix_str(what, refresh=True)

        # The verdicts on the set as it is, as `cardgen compare BASE SET --seconds S` plays them (its game limit).
        bar.set_postfix_str(f"{b.name} as it is", refresh=True)
        first = verdicts_of(a, b, dataclasses.replace(cfg.balance, seconds=seconds, max_games=defaults.MAX_GAMES),
                            advance)
        names = list(cards) or flagged_cards(first)
        results: list[TuneResult] = [tune(a, b, name, cfg, advance, trying, first) for name in names]
    lines = [line for r in results for line in tune_lines(r)] or [*verdict_lines(first), "nothing to tune"]
    emit_results(tune_json(results, cfg), lines, json_path, None, None)
