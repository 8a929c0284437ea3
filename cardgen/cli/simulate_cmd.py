"""`cardgen simulate`: many bot games of a set (or a mixed deck), as JSON and a chart report."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
from tqdm import tqdm

from cardgen.cli.common import SET_OPTION, Choice, fails_cleanly, load_group
from cardgen.errors import OutputError
from cardgen.output import check_writable, write_atomic
from cardgen.render.sim_report import report_bytes
from cardgen.sim.agents import agent_names
from cardgen.sim.runner import SimConfig, results_json, simulate


def _summary(res: dict[str, Any]) -> list[str]:
    seats = ", ".join(f"{100 * r:.1f} %" for r in res["seat_win_rate"])
    lines = [
        f"{res['set']}: {res['games']} games, {res['players']} players, agent {res['agent']}, seed {res['seed']}",
        f"  seat win rates: {seats}",
        f"  turns: mean {res['turns_mean']:.1f}, median {res['turns_p50']}, 95th percentile {res['turns_p95']}",
        f"  stalemates: {res['stalemates']} ({100 * res['stalemate_rate']:.2f} %), draws: {res['draws']}, "
        f"invariant violations: {res['invariant_violations']}",
        f"  dead cards: {', '.join(res['dead_cards']) or 'none'}",
        f"  speed: {res['games_per_s']} games/s, {res['decisions_per_s']} decisions/s",
    ]
    if len(res["agent_win_rate"]) > 1:
        lines.insert(2, "  win rate per seat played: " + ", ".join(
            f"{a} {100 * r:.1f} %" for a, r in res["agent_win_rate"].items()))
    return lines


@click.command("simulate")
@SET_OPTION
@click.option("--players", default=4, show_default=True, type=int, help="Players per game.")
@click.option("--games", default=1000, show_default=True, type=int, help="Games to play.")
@click.option("--seed", default=0, show_default=True, type=int, help="Run seed: the same seed, the same results.")
@click.option("--agent", default="random", show_default=True, metavar="[random|greedy]",
              help="Bot for every seat, or a comma list (e.g. greedy,random) rotated round the seats.")
@click.option("--jobs", default=1, show_default=True, type=int, help="Worker processes (results do not change).")
@click.option("--check", type=Choice(["end", "moves"]), default="end", show_default=True,
              help="Check the engine's invariants at the end of each game, or after every move (slower).")
@click.option("--json", "json_path", type=click.Path(path_type=Path), metavar="FILE",
              help="Write the results as JSON ('-' for standard output).")
@click.option("--report", "report_path", type=click.Path(path_type=Path), metavar="FILE.pdf|.png",
              help="Write charts: seat win rates, game lengths, card use.")
@fails_cleanly
def command(sets: tuple[str, ...], players: int, games: int, seed: int, agent: str, jobs: int, check: str,
            json_path: Path | None, report_path: Path | None) -> None:
    """Play bot games and report balance: seat win rates, game length, card use, stalemates."""
    if not sets:
        raise OutputError("name a set to simulate with --set (repeat it to mix sets)")
    if report_path is not None and report_path.suffix.lower() not in (".pdf", ".png"):
        raise OutputError(f"--report must end in .pdf or .png, not '{report_path.name}'")
    for path in (json_path, report_path):
        if path is not None and str(path) != "-":
            check_writable(path.parent)  # fail before a long run, not after it
    cs = load_group(sets)
    cfg = SimConfig(players=players, games=games, seed=seed, agents=agent_names(agent), jobs=jobs,
                    check_every_move=check == "moves")
    cfg.validate(cs)
    with tqdm(total=games, unit="game", desc=f"simulating {cs.name}", leave=False, file=sys.stderr,
              disable=None) as bar:

        def advance(n: int) -> None:
            bar.update(n)

        res = results_json(cs, simulate(cs, cfg, progress=advance))
    text = json.dumps(res, indent=2, ensure_ascii=False) + "\n"
    report = report_bytes(res, report_path.suffix) if report_path is not None else None
    if json_path is not None and str(json_path) == "-":
        click.echo(text, nl=False)
    else:
        if json_path is not None:
            write_atomic(json_path, text.encode("utf-8"))
        for line in _summary(res):
            click.echo(line)
    if report_path is not None and report is not None:
        write_atomic(report_path, report)
        click.echo(f"report: {report_path}", err=json_path is not None and str(json_path) == "-")
