"""`cardgen compare A B`: two versions of a set play the same games; which of the designer's changes matter?"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click
from tqdm import tqdm

from cardgen.cli.bounds import ALPHA, Finite
from cardgen.cli.common import OutPath, fails_cleanly, load_group
from cardgen.cli.simulate_cmd import capped_jobs, emit_results
from cardgen.errors import OutputError
from cardgen.model import CardSet
from cardgen.output import check_writable
from cardgen.render.sim_report import compare_report_bytes
from cardgen.sim.agents import AGENTS, DEFAULT_BUDGET, agent_names, parse_budget
from cardgen.sim.balance import CHANGE_TAGS, BalanceConfig, BalanceResult, compare_versions, result_json, verdict_lines
from cardgen.sim.balance.verdicts import MIN_GAMES
from cardgen.sim.balance_defaults import default_jobs

DEFAULTS = BalanceConfig()


def parse_tables(text: str) -> tuple[int, ...]:
    """`2,4` -> (2, 4): the table sizes to play."""
    try:
        sizes = tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise OutputError(f"--players takes table sizes such as 2,4, not '{text}'") from None
    if not sizes or any(not 2 <= p <= 8 for p in sizes):
        raise OutputError(f"--players takes table sizes from 2 to 8 such as 2,4, not '{text}'")
    return tuple(dict.fromkeys(sizes))


def balance_options(fn: Any) -> Any:
    """The options of the balance procedure, shared by compare and validate (one set of defaults)."""
    options = [
        click.option("--players", "tables", default=",".join(map(str, DEFAULTS.tables)), show_default=True,
                     metavar="N,N", help="Table sizes to play, each with its own verdicts."),
        click.option("--max-games", default=DEFAULTS.max_games, show_default=True,
                     type=click.IntRange(min=MIN_GAMES, max=10_000_000), metavar="N",
                     help="Game budget per table size, in games played: the games stop sooner when every "
                          "verdict is clear."),
        click.option("--games", type=click.IntRange(min=1, max=10_000_000), metavar="N",
                     help="Play exactly N games per table size (no early stop)."),
        click.option("--min-effect", default=DEFAULTS.min_effect, show_default=True,
                     type=Finite(0.1, 100), metavar="POINTS",
                     help="Smallest change of win rate (points) that counts."),
        click.option("--alpha", default=DEFAULTS.alpha, show_default=True, type=ALPHA,
                     help="Chance of calling a card that did not change, per family of tests."),
        click.option("--seed", default=0, show_default=True, type=int,
                     help="Run seed: the same files and seed, the same verdicts."),
        click.option("--agent", default=",".join(DEFAULTS.agents), show_default=True,
                     metavar=f"[{'|'.join(AGENTS)}]", help="Bot for every seat, or a comma list."),
        click.option("--budget", default=DEFAULT_BUDGET, show_default=True, metavar="N|Nms",
                     help="The search bot's budget a decision."),
        click.option("--jobs", default=default_jobs(), show_default="the CPU count",
                     type=click.IntRange(min=1, max=256), help="Worker processes (the verdicts do not change)."),
    ]
    for opt in reversed(options):
        fn = opt(fn)
    return fn


def balance_config(tables: str, games: int | None, max_games: int, min_effect: float, alpha: float, seed: int,
                   agent: str, budget: str, jobs: int) -> BalanceConfig:
    if not 0 < alpha < 1:
        raise OutputError(f"--alpha must be between 0 and 1, not {alpha}")
    if seed < 0:
        raise OutputError(f"--seed must be 0 or more, not {seed}")
    return BalanceConfig(tables=parse_tables(tables), agents=agent_names(agent), seed=seed, alpha=alpha,
                         min_effect=min_effect, max_games=max_games, games=games, jobs=capped_jobs(jobs, None),
                         budget=parse_budget(budget))


def base_of(cs: CardSet, lang: str | None = None) -> CardSet | None:
    """The set `cs` extends, loaded (in `lang`, as `cs` was; None for a set that extends none)."""
    return load_group((cs.base,), show_warnings=False, lang=lang) if cs.base else None


def run_with_bar(label: str, fn: Any, cfg: BalanceConfig) -> BalanceResult:
    """Run `fn(progress)` under a progress bar on stderr (games played, all table sizes)."""
    total = cfg.limit() * len(cfg.tables)  # at most: the bar ends early when the verdicts are clear
    with tqdm(total=total, unit="game", desc=label, leave=False, file=sys.stderr, disable=None) as bar:
        def advance(n: int) -> None:
            bar.update(n)

        result: BalanceResult = fn(advance)
    return result


def report_view(res: dict[str, Any]) -> dict[str, Any]:
    """The compare chart's input (one table size: the one with the most calls, then the smallest), from the JSON."""
    tables = [t for t in res["tables"] if t["games"]]
    if not tables:
        raise OutputError("nothing was played (the versions play identical games): no chart to draw")
    table = max(tables, key=lambda t: (sum(v["call"] in ("stronger", "weaker", "too strong", "too weak")
                                           for v in t["verdicts"]), -t["players"]))
    cards: dict[str, Any] = {}
    for v in table["verdicts"]:
        if v["change"] is None:
            continue
        flagged = v["call"] in ("stronger", "weaker", "too strong", "too weak")
        a = None if v["a_rate"] is None else round(100 * (v["a_rate"] - v["a_others"]), 2)
        b = None if v["b_rate"] is None else round(100 * (v["b_rate"] - v["others"]), 2)
        cards[v["card"]] = {"opening": {"change": v["change"], "ci95": [v["low"], v["high"]], "a": {"diff": a},
                                        "b": {"diff": b}, "p_holm": v["p"], "flagged": flagged}}
    cfg = res["config"]
    return {"a": res["a"], "b": res["b"], "cards": cards, "seats": [], "impact_measure": "opening",
            "flagged": res["flagged"], "games": table["games"], "players": table["players"],
            "agent": ",".join(cfg["agents"]), "seed": cfg["seed"], "alpha": cfg["alpha"],
            "common_random_numbers": "paired deals (per-card keys)", "length": table.get("length"),
            "changes": {c["card"]: CHANGE_TAGS[c["kind"]] for c in res["changes"] if c["kind"] in CHANGE_TAGS},
            "references": {v["card"]: v["reference"] for v in table["verdicts"] if v["family"] == "new"}}



@click.command("compare")
@click.argument("set_a", metavar="A")
@click.argument("set_b", metavar="B")
@balance_options
@click.option("--json", "json_path", type=OutPath(), metavar="FILE",
              help="Write the results as JSON ('-' for standard output).")
@click.option("--report", "report_path", type=OutPath(), metavar="FILE.pdf|.png",
              help="Write a chart of the changes.")
@click.option("--lang", default=None, metavar="CODE",
              help="Say the verdicts in this language (en, de), both sets read with their words in it. Default: "
                   "the language of B.")
@fails_cleanly
def command(set_a: str, set_b: str, tables: str, max_games: int, games: int | None, min_effect: float,
            alpha: float, seed: int, agent: str, budget: str, jobs: int, json_path: Path | None,
            report_path: Path | None, lang: str | None) -> None:
    """Play two versions of a set on paired deals at 2 and 4 players and say which changed cards got stronger or
    weaker (docs/simulation.md, "Balance verdicts")."""
    cfg = balance_config(tables, games, max_games, min_effect, alpha, seed, agent, budget, jobs)
    if report_path is not None and report_path.suffix.lower() not in (".pdf", ".png"):
        raise OutputError(f"--report must end in .pdf or .png, not '{report_path.name}'")
    for path in (json_path, report_path):
        if path is not None and str(path) != "-":
            check_writable(path.parent)
    a, b = load_group((set_a,), lang=lang), load_group((set_b,), lang=lang)
    if a.name == b.name:  # a copied folder keeps its set name: say so, or "hb -> hb" reads as nothing changed
        click.echo(f"warning: A ({set_a}) and B ({set_b}) are both set '{a.name}': below, '{a.name}' before the "
                   "arrow is A and after it B", err=True)
    result = run_with_bar(f"comparing {a.name} and {b.name}", lambda bar: compare_versions(a, b, cfg, bar), cfg)
    res = result_json(result)
    report = compare_report_bytes(report_view(res), report_path.suffix) if report_path is not None else None
    emit_results(res, verdict_lines(result, b.language), json_path, report_path, report)
