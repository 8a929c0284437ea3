"""`cardgen simulate`: many bot games of a set (or a mixed deck), as JSON and a chart report."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import click
from tqdm import tqdm

from cardgen.cli.bounds import CLUSTER, GAMES, JOBS
from cardgen.cli.common import SET_REQUIRED, Choice, OutPath, fails_cleanly, load_group
from cardgen.errors import OutputError
from cardgen.model import CardSet
from cardgen.output import check_writable, write_atomic
from cardgen.play.simulated import check_save_games, save_games
from cardgen.render.sim_report import report_bytes
from cardgen.sim import balance_defaults
from cardgen.sim.agents import AGENTS, DEFAULT_BUDGET, agent_names, parse_budget
from cardgen.sim.balance import CHANGE_TAGS, BalanceConfig, BalanceResult, card_changes, verdict_lines
from cardgen.sim.runner import SimConfig, add_rank_agreement, results_json, simulate, usable_jobs

P = ParamSpec("P")
R = TypeVar("R")


def _rate(rate: float, ci: list[float]) -> str:
    return f"{100 * rate:.1f} % [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def _ways(card: dict[str, Any]) -> str:
    """How a card was played, commonest way first: "turn 88 %, follow-up 12 %"."""
    ways = card.get("played_as") or {}
    total = sum(ways.values())
    if len(ways) == 1:
        return f"as {next(iter(ways))}"
    return ", ".join(f"{w} {100 * n / total:.0f} %" for w, n in sorted(ways.items(), key=lambda kv: -kv[1]))


def _held_line(res: dict[str, Any], shown: int) -> list[str]:
    """The cards their holders play least (a card held but not played reads low for that reason)."""
    held = [(n, c) for n, c in res["cards"].items() if c.get("played_when_held") is not None]
    if not held:
        return []
    held.sort(key=lambda nc: (float(nc[1]["played_when_held"]), nc[0]))
    parts = [f"{n} {100 * float(c['played_when_held']):.0f} % of {c['held_games']} holders"
             + (f" ({_ways(c)})" if c["played"] else "") for n, c in held[:shown]]
    return ["  least played by their holders: " + "; ".join(parts)]


def _summary(res: dict[str, Any], shown: int = 3) -> list[str]:
    seats = ", ".join(_rate(r, ci) for r, ci in zip(res["seat_win_rate"], res["seat_win_ci95"], strict=True))
    lines = [
        f"{res['set']}: {res['games']} games, {res['players']} players, agent {res['agent']}, seed {res['seed']}",
        f"  seat win rates (95 % interval): {seats}",
        f"  turns: mean {res['turns_mean']:.1f}, median {res['turns_p50']}, 95th percentile {res['turns_p95']}",
        f"  stalemates: {res['stalemates']} ({100 * res['stalemate_rate']:.2f} %), draws: {res['draws']}, "
        f"invariant violations: {res['invariant_violations']}",
        f"  dead cards: {', '.join(res['dead_cards']) or 'none'}",
        *_held_line(res, shown),
        f"  speed: {res['games_per_s']} games/s, {res['decisions_per_s']} decisions/s",
    ]
    if len(res["agent_win_rate"]) > 1:
        lines.insert(2, "  win rate per seat played: " + ", ".join(
            f"{a} {_rate(r, res['agent_win_ci95'][a])}" for a, r in res["agent_win_rate"].items()))
    agree = res.get("rank_agreement")
    if agree is not None:
        lines.insert(-2, f"  card ranking against {agree['against']}'s: Spearman {agree['spearman']}, Kendall "
                     f"{agree['kendall']} over {agree['cards']} cards")
    if res["cards"]:
        idx = lines.index(next(x for x in lines if x.startswith("  dead cards")))
        verdicts = res.get("balance")
        lines[idx:idx] = (["  balance verdicts (the shared procedure): below"]
                          if verdicts is not None else
                          ["  balance verdicts: not given from these games (the shared procedure plays its own: "
                           "--balance, or `cardgen validate`)"])
    return lines


def with_balance(res: dict[str, Any], cs: CardSet, cfg: BalanceConfig) -> tuple[dict[str, Any], BalanceResult]:
    """Add `balance` (the shared procedure's verdicts on the set, `cardgen validate`'s) before the timing keys."""
    from cardgen.cli.compare_cmd import run_with_bar
    from cardgen.sim.balance import judge_set, result_json
    from cardgen.sim.runner import TIMING_KEYS

    base = load_group((cs.base,), show_warnings=False) if cs.base else None
    result = run_with_bar(f"balance {cs.name}", lambda bar: judge_set(cs, base, cfg, bar), cfg)
    out = {k: v for k, v in res.items() if k not in TIMING_KEYS}
    out["balance"] = result_json(result)
    out.update({k: res[k] for k in TIMING_KEYS if k in res})
    return out, result


def emit_results(res: dict[str, Any], summary: list[str], json_path: Path | None, report_path: Path | None,
                 report: bytes | None) -> None:
    """Write the JSON (to a file, or alone on stdout for `--json -`), the terminal lines and the report;
    shared by simulate and compare so both treat `--json -` and `--report` alike."""
    text = json.dumps(res, indent=2, ensure_ascii=False) + "\n"
    to_stdout = json_path is not None and str(json_path) == "-"
    if to_stdout:
        click.echo(text, nl=False)
    else:
        if json_path is not None:
            write_atomic(json_path, text.encode("utf-8"))
        for line in summary:
            click.echo(line)
    if report_path is not None and report is not None:
        write_atomic(report_path, report)
        click.echo(f"report: {report_path}", err=to_stdout)


def capped_jobs(jobs: int, cluster: str | None) -> int:
    """--jobs as it will run: at most the CPU count for a local run, said on stderr when lowered."""
    usable = usable_jobs(jobs, cluster)
    if usable < jobs:
        click.echo(f"note: --jobs {jobs} capped at {usable}, the number of CPUs here", err=True)
    return usable


def play_options(agent: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """The options `simulate` and `compare` share: who plays, how many games, where they run."""
    options = [
        click.option("--players", default=4, show_default=True, type=int, help="Players per game."),
        click.option("--games", default=1000, show_default=True, type=GAMES, help="Games to play."),
        click.option("--seed", default=0, show_default=True, type=int,
                     help="Run seed: the same seed, the same results."),
        click.option("--agent", default=agent, show_default=True, metavar=f"[{'|'.join(AGENTS)}]",
                     help="Bot for every seat, or a comma list (e.g. greedy,random) rotated round the seats."),
        click.option("--budget", default=DEFAULT_BUDGET, show_default=True, metavar="N|Nms",
                     help="The search bot's budget a decision: N iterations, or N milliseconds ('50ms')."),
        click.option("--jobs", default=1, show_default=True, type=JOBS,
                     help="Worker processes, at most the CPU count (results do not change)."),
        click.option("--cluster", metavar="ADDRESS|local", type=CLUSTER,
                     help="Run the games on a Dask cluster (needs cardgen[cluster]); 'local' starts one here."),
    ]

    def wrap(fn: Callable[P, R]) -> Callable[P, R]:
        for opt in reversed(options):
            fn = opt(fn)
        return fn

    return wrap


@click.command("simulate")
@SET_REQUIRED
@play_options("random")
@click.option("--check", type=Choice(["end", "moves"]), default="end", show_default=True,
              help="Check the engine's invariants at the end of each game, or after every move (slower).")
@click.option("--rank-against", metavar="AGENT",
              help="Also play the same games with this bot in every seat and report how alike the two rank the "
                   "cards (Spearman and Kendall), e.g. --agent search --rank-against greedy.")
@click.option("--balance/--no-balance", "balance", default=False, show_default=True,
              help="Also give the balance verdicts, by the one procedure `validate` and `compare` use (its own "
                   "games: greedy bots at 2 and 4 players, against the base for a set that extends another).")
@click.option("--balance-max-games", type=click.IntRange(min=1, max=10_000_000), metavar="N",
              default=balance_defaults.MAX_GAMES, show_default=True,
              help="Game budget of the balance games per table size, in games played (they stop sooner when "
                   "the verdicts are clear).")
@click.option("--json", "json_path", type=OutPath(), metavar="FILE",
              help="Write the results as JSON ('-' for standard output).")
@click.option("--report", "report_path", type=OutPath(), metavar="FILE.pdf|.png",
              help="Write charts: seat win rates, game lengths, card use.")
@click.option("--save-games", "save_count", type=GAMES, metavar="N",
              help="Also save the run's first N games (seed order) as files `cardgen replay FILE --open` steps "
                   "through, move for move.")
@click.option("--games-dir", type=OutPath(), default="output/games", show_default=True, metavar="DIR",
              help="The folder --save-games writes into (<set>-seed<S>-game<g>.yaml).")
@fails_cleanly
def command(sets: tuple[str, ...], players: int, games: int, seed: int, agent: str, budget: str, jobs: int,
            cluster: str | None, check: str, rank_against: str | None, balance: bool, balance_max_games: int,
            json_path: Path | None, report_path: Path | None, save_count: int | None, games_dir: Path) -> None:
    """Play bot games and report balance: seat win rates, game length, card use, stalemates."""
    if not sets:
        raise OutputError("name a set to simulate with --set (repeat it to mix sets)")
    if report_path is not None and report_path.suffix.lower() not in (".pdf", ".png"):
        raise OutputError(f"--report must end in .pdf or .png, not '{report_path.name}'")
    for path in (json_path, report_path):
        if path is not None and str(path) != "-":
            check_writable(path.parent)  # fail before a long run, not after it
    if save_count is not None:
        check_writable(games_dir)
    if rank_against is not None:
        agent_names(rank_against)  # a bad name fails now, not after the first run
    cs = load_group(sets)
    cfg = SimConfig(players=players, games=games, seed=seed, agents=agent_names(agent), jobs=capped_jobs(jobs, cluster),
                    check_every_move=check == "moves", cluster=cluster, budget=parse_budget(budget))
    cfg.validate(cs)
    if save_count is not None:
        check_save_games(save_count, cfg)
    with tqdm(total=games, unit="game", desc=f"simulating {cs.name}", leave=False, file=sys.stderr,
              disable=None) as bar:

        def advance(n: int) -> None:
            bar.update(n)

        res = results_json(cs, simulate(cs, cfg, progress=advance))
        if rank_against is not None:
            bar.reset(total=games)
            bar.set_description(f"simulating {cs.name} with {rank_against}")
            res = add_rank_agreement(cs, res, cfg, rank_against, progress=advance)
    verdicts: list[str] = []
    if balance:
        bcfg = BalanceConfig(max_games=balance_max_games, seed=seed, jobs=cfg.jobs)
        res, result = with_balance(res, cs, bcfg)
        verdicts = ["balance verdicts:", *("  " + x for x in verdict_lines(result, cs.language))]
    if cs.base:  # a set that extends another: which of its cards the designer changed (the report marks them)
        base = load_group((cs.base,), show_warnings=False)
        res["changes"] = {c.name: CHANGE_TAGS[c.kind] for c in card_changes(base, cs) if c.kind in CHANGE_TAGS}
        res["changes_against"] = base.name
    report = report_bytes(res, report_path.suffix) if report_path is not None else None
    emit_results(res, _summary(res) + verdicts, json_path, report_path, report)
    if save_count is not None:
        saved = save_games(cs, sets, cfg, save_count, games_dir)
        click.echo(f"saved {len(saved)} game{'s' if len(saved) != 1 else ''} in {games_dir} ({saved[0].name} ...); "
                   f"step through one with `cardgen replay FILE --open`", err=str(json_path) == "-")
