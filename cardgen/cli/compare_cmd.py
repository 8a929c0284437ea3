"""`cardgen compare A B`: two versions of a set play the same games; which cards changed strength?"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click
from tqdm import tqdm

from cardgen.cli.bounds import ALPHA
from cardgen.cli.common import fails_cleanly, load_group
from cardgen.cli.simulate_cmd import capped_jobs, emit_results, play_options
from cardgen.errors import OutputError
from cardgen.output import check_writable
from cardgen.render.sim_report import compare_report_bytes
from cardgen.sim.agents import agent_names, parse_budget
from cardgen.sim.compare import CompareConfig, compare
from cardgen.sim.runner import SimConfig


def _p(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def _table(res: dict[str, Any], labels: tuple[str, str] | None = None) -> list[str]:
    m = res["impact_measure"]
    a, b = labels or (res["a"], res["b"])
    lines = [f"{a} -> {b}: {res['games']} games each, {res['players']} players, agent {res['agent']}, "
             f"seed {res['seed']}; {res['common_random_numbers']}",
             f"  card impact ({m} hand, points): changes with Holm-adjusted p < {res['alpha']:g} are flagged"]
    flagged = res["flagged"]
    for name in flagged:
        row = res["cards"][name][m]
        lines.append(f"  FLAGGED {name}: {row['change']:+.1f} points [{row['ci95'][0]:+.1f}, {row['ci95'][1]:+.1f}], "
                     f"{_p(row['p_holm'])} (Holm)")
    if not flagged:
        lines.append(f"  no card changed at adjusted p < {res['alpha']:g}")
    tested = [n for n, c in res["cards"].items() if "p_holm" in c.get(m, {})]
    tested.sort(key=lambda n: (res["cards"][n][m]["p_holm"], n))
    width = max([len(n) for n in tested] + [4])
    lines.append(f"  {'card':<{width}}  {'A':>7}  {'B':>7}  {'change':>7}  {'95 % interval':>16}  {'p (Holm)':>9}")
    for n in tested:
        row = res["cards"][n][m]
        a, b = row["a"]["diff"], row["b"]["diff"]
        ci = f"[{row['ci95'][0]:+.1f}, {row['ci95'][1]:+.1f}]"
        lines.append(f"  {n:<{width}}  {a:+7.1f}  {b:+7.1f}  {row['change']:+7.1f}  {ci:>16}  {row['p_holm']:>9.3g}")
    only = [f"{n} (only in {c['only_in'].upper()})" for n, c in res["cards"].items() if "only_in" in c]
    if only:
        lines.append("  not compared: " + ", ".join(only))
    lines.append("  seat win rates: " + "; ".join(
        f"seat {s['seat']} {100 * s['a']:.1f} -> {100 * s['b']:.1f} % ({_p(s['p_holm'])})" for s in res["seats"]))
    return lines


@click.command("compare")
@click.argument("set_a", metavar="A")
@click.argument("set_b", metavar="B")
@play_options("greedy")
@click.option("--seed-b", type=int, help="B plays from its own run seed (no common random numbers: a null check).")
@click.option("--alpha", default=0.01, show_default=True, type=ALPHA,
              help="Flag changes whose Holm-adjusted p-value is below this.")
@click.option("--json", "json_path", type=click.Path(path_type=Path), metavar="FILE",
              help="Write the results as JSON ('-' for standard output).")
@click.option("--report", "report_path", type=click.Path(path_type=Path), metavar="FILE.pdf|.png",
              help="Write a chart of the changes.")
@fails_cleanly
def command(set_a: str, set_b: str, players: int, games: int, seed: int, agent: str, budget: str, jobs: int,
            cluster: str | None, seed_b: int | None, alpha: float, json_path: Path | None,
            report_path: Path | None) -> None:
    """Play two versions of a set on the same deals and report which cards and seats changed."""
    if not 0 < alpha < 1:
        raise OutputError(f"--alpha must be between 0 and 1, not {alpha}")
    if report_path is not None and report_path.suffix.lower() not in (".pdf", ".png"):
        raise OutputError(f"--report must end in .pdf or .png, not '{report_path.name}'")
    for path in (json_path, report_path):
        if path is not None and str(path) != "-":
            check_writable(path.parent)
    a, b = load_group((set_a,)), load_group((set_b,))
    labels = None
    if a.name == b.name:  # a copied folder keeps its name: say which is which
        labels = (f"{a.name} ({set_a})", f"{b.name} ({set_b})")
        click.echo(f"warning: A and B are both set '{a.name}'; shown as {labels[0]} and {labels[1]}", err=True)
    sim = SimConfig(players=players, games=games, seed=seed, agents=agent_names(agent), jobs=capped_jobs(jobs, cluster),
                    cluster=cluster,
                    budget=parse_budget(budget))
    with tqdm(total=games, unit="game", desc=f"comparing {a.name} and {b.name}", leave=False, file=sys.stderr,
              disable=None) as bar:
        res = compare(a, b, CompareConfig(sim, seed_b=seed_b, alpha=alpha), progress=bar.update)
    report = compare_report_bytes(res, report_path.suffix) if report_path is not None else None
    emit_results(res, _table(res, labels), json_path, report_path, report)
