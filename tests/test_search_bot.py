"""The searching bot: it decides from its own seat's view only, is reproducible with an iteration budget,
and every simulation figure works with it; rank correlations of card rankings."""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

from cardgen.checks import load_set
from cardgen.cli.main import main
from cardgen.engine.rules import new_game, push
from cardgen.engine.views import observe
from cardgen.sim.agents import Budget, UnknownAgentError, parse_budget
from cardgen.sim.greedy import GreedyAgent
from cardgen.sim.impact import kendall, spearman
from cardgen.sim.runner import TIMING_KEYS, SimConfig, add_rank_agreement, results_json, simulate
from cardgen.sim.search import SearchAgent


def test_same_view_same_choice_whatever_the_hidden_cards() -> None:
    """Two states that differ only in what the seat cannot see get the same move from the same bot."""
    cs = load_set("beer")
    checked = 0
    for seed in range(6):
        s = new_game(cs, 2, seed=seed)
        greedy = GreedyAgent(seed)
        for _ in range(6 + seed):  # some way into the game
            push(s, greedy.choose(observe(s, s.to_act)))
        if s.result is not None or len(s.moves) < 2:
            continue
        me = s.to_act
        other = observe(s, me).determinized(random.Random(seed))
        assert other.hands[1 - me] != s.hands[1 - me] or other.draw != s.draw
        picks = [SearchAgent(7, iterations=4).choose(observe(state, me)) for state in (s, other)]
        assert picks[0] == picks[1]
        checked += 1
    assert checked >= 3


def test_search_runs_in_simulate_with_every_figure() -> None:
    cs = load_set("beer")
    cfg = SimConfig(players=2, games=2, seed=3, agents=("search", "greedy"), budget=Budget(iterations=2))
    a = results_json(cs, simulate(cs, cfg))
    b = results_json(cs, simulate(cs, cfg))
    assert a["budget"] == "2" and set(a["agent_win_rate"]) == {"greedy", "search"}
    assert set(a["cards"]["Block"]["by_agent"]) == {"greedy", "search"}
    assert a["cards"]["Block"]["by_agent"]["search"]["opening"]["holders"] + \
        a["cards"]["Block"]["by_agent"]["search"]["opening"]["others"] == 2  # one search seat a game
    untimed = [{k: v for k, v in r.items() if k not in TIMING_KEYS} for r in (a, b)]
    assert untimed[0] == untimed[1]  # an iteration budget is reproducible


def test_budget_parsing() -> None:
    assert parse_budget("50") == Budget(iterations=50)
    assert parse_budget("250ms") == Budget(ms=250.0)
    for bad in ("0", "-3", "fast", "2.5"):
        with pytest.raises(UnknownAgentError):
            parse_budget(bad)


def test_rank_correlations_known_values() -> None:
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    assert kendall([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(4 / 6)  # one discordant pair of six
    assert spearman([1, 2, 3], [5, 5, 5]) is None


def test_rank_agreement_of_a_bot_with_itself_is_one() -> None:
    cs = load_set("beer")
    cfg = SimConfig(players=2, games=30, seed=1, agents=("greedy",))
    res = add_rank_agreement(cs, results_json(cs, simulate(cs, cfg)), cfg, "greedy")
    agree = res["rank_agreement"]
    assert agree["against"] == "greedy" and agree["spearman"] == 1.0 and agree["kendall"] == 1.0
    assert list(res)[-1] in ("games_per_s", "decisions_per_s", "seconds", "jobs", "cluster")


def test_simulate_cli_rank_against_and_intervals_in_the_summary() -> None:
    result = CliRunner().invoke(main, ["simulate", "--set", "beer", "--players", "2", "--games", "20",
                                       "--agent", "greedy", "--rank-against", "random"])
    assert result.exit_code == 0, result.output
    assert "card ranking against random's: Spearman" in result.stdout
    assert "seat win rates (95 % interval): " in result.stdout and "[" in result.stdout
    bad = CliRunner().invoke(main, ["simulate", "--set", "beer", "--games", "2", "--rank-against", "clever"])
    assert bad.exit_code == 1 and "unknown agent" in bad.stderr
