"""Balance lab: per-card impact finds a broken card, `compare` flags what changed, greedy reads what cards say.

The fixtures in tests/fixtures/balance are a base set (Beer Money, with 4 copies of Death From Above and 8 of
Fists of Fury), a broken copy (Death From Above an undefendable 12, Fists of Fury a self-stunning 1) and a
control that only changes copy counts. Game counts are the issue's (1,000 two-player greedy games) where the
claim is about them; docs/simulation.md has the figures over more seeds (bench/compare_bench.py).
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from PIL import Image

from cardgen.checks import load_set
from cardgen.cli.main import main
from cardgen.engine.moves import DISCARD, PLAY, Move
from cardgen.engine.rules import new_game, settle
from cardgen.engine.views import observe
from cardgen.sim.balance import BalanceConfig, compare_versions, verdict_lines
from cardgen.sim.balance.intervals import holm
from cardgen.sim.greedy import GreedyAgent
from cardgen.sim.runner import SimConfig, results_json, simulate

BALANCE = Path(__file__).parent / "fixtures" / "balance"
OVERPOWERED, USELESS = "Death From Above", "Fists of Fury"


def greedy_2p(games: int, seed: int) -> SimConfig:
    return SimConfig(players=2, games=games, seed=seed, agents=("greedy",))


@pytest.fixture(scope="module")
def broken_run() -> dict[str, Any]:
    cs = load_set(BALANCE / "broken")
    return results_json(cs, simulate(cs, greedy_2p(1000, 1)))


def test_overpowered_card_ranks_top_and_useless_card_bottom(broken_run: dict[str, Any]) -> None:
    ranking = broken_run["impact_ranking"]
    cards = broken_run["cards"]
    assert OVERPOWERED in ranking[:2], ranking[:4]
    # Greedy never plays the useless card and discards it when it has nothing better to do (as a player would),
    # so it reads as a dead card costs (about -7 points here, like the weakest attacks), not at the very bottom.
    assert cards[USELESS]["played"] == 0
    assert cards[OVERPOWERED]["opening"]["z"] >= 3
    assert cards[USELESS]["opening"]["z"] <= -3
    assert cards[OVERPOWERED]["damage_per_play"] == 12.0  # nothing stops it, nothing halves it


def test_greedy_plays_the_self_harming_card_far_less_than_the_base_card(broken_run: dict[str, Any]) -> None:
    base = load_set(BALANCE / "base")
    plain = results_json(base, simulate(base, greedy_2p(60, 1)))["cards"][USELESS]["plays_per_game"]
    assert broken_run["cards"][USELESS]["plays_per_game"] < plain / 10


@pytest.mark.parametrize(("other", "games", "seed", "expected"),
                         [("broken", 1000, 2, {OVERPOWERED: "stronger", USELESS: "never played"}),
                          ("control", 1000, 1, {})])
def test_compare_flags_exactly_the_cards_whose_power_changed(other: str, games: int, seed: int,
                                                            expected: dict[str, str]) -> None:
    res = compare_versions(load_set(BALANCE / "base"), load_set(BALANCE / other),
                           BalanceConfig(tables=(2,), games=games, seed=seed))
    [table] = res.tables
    assert {v.card: v.call for v in res.flagged()} == expected
    for v in table.verdicts:
        if v.card in expected and v.call != "never played":
            assert v.p is not None and v.p < 0.05
    if other == "control":  # copy counts alone: the typical card moves by less than 3 points
        changes = [abs(v.change) for v in table.verdicts if v.change is not None]
        assert statistics.median(changes) < 3.0, sorted(changes)


def test_the_self_harming_card_is_never_played_after_the_change_and_was_before() -> None:
    res = compare_versions(load_set(BALANCE / "base"), load_set(BALANCE / "broken"),
                           BalanceConfig(tables=(2,), games=1000, seed=2))
    [v] = [v for v in res.tables[0].verdicts if v.card == USELESS]
    assert v.call == "never played" and v.played_when_held == 0.0
    [sentence] = [x for x in verdict_lines(res) if x.startswith(f"  {USELESS}, at 2 players")]
    assert sentence.endswith("Never played: nobody would choose it.")
    # the unchanged cards are not judged on whether they are played
    assert all(x.played_when_held is None for x in res.tables[0].verdicts if x.family == "knock-on")


def test_holm_adjustment_known_values() -> None:
    # p = 0.01, 0.04, 0.03 over 3 tests: sorted 0.01*3 = 0.03, 0.03*2 = 0.06, max(0.06, 0.04*1) = 0.06.
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.9]) == [1.0, 1.0]


def test_compare_cli_words_json_and_report(tmp_path: Path) -> None:
    out, png = tmp_path / "c.json", tmp_path / "c.png"
    result = CliRunner().invoke(main, ["compare", str(BALANCE / "base"), str(BALANCE / "broken"), "--players", "2",
                                       "--games", "1500", "--seed", "2", "--json", str(out), "--report", str(png)])
    assert result.exit_code == 0, result.output
    res = json.loads(out.read_text())
    assert res["a"] == "balance-base" and res["b"] == "balance-broken"
    [table] = res["tables"]
    assert table["players"] == 2 and table["games"] == 1500 and table["stopped"] == "games"
    assert set(res["flagged"]) == {OVERPOWERED, USELESS}
    changed = {c["card"]: c for c in res["changes"] if c["kind"] != "unchanged"}
    assert set(changed) == {OVERPOWERED, USELESS} and changed[OVERPOWERED]["fields"] == ["damage", "defended_by"]
    [v] = [v for v in table["verdicts"] if v["card"] == OVERPOWERED]
    assert v["call"] == "stronger"
    assert v["low"] > 0  # a called card's interval excludes 0, and its p agrees
    assert v["p"] < 0.05
    assert f"{OVERPOWERED}, at 2 players: players who start with it win" in result.stdout
    [u] = [v for v in table["verdicts"] if v["card"] == USELESS]
    assert u["call"] == "never played" and u["played_when_held"] == 0.0
    assert "Stronger than before." in result.stdout and "Never played: nobody would choose it." in result.stdout
    assert Image.open(png).format == "PNG"


def test_compare_refuses_bad_options_cleanly() -> None:
    for args in (["--alpha", "2"], ["--agent", "clever"], ["--budget", "soon"]):
        result = CliRunner().invoke(main, ["compare", "beer", "beer", "--games", "2", *args])
        assert result.exit_code == 1 and "error: " in result.stderr and "Traceback" not in result.output, args


def _two_attack_set(make_set, mini_set_files: dict[str, str]) -> Path:  # type: ignore[no-untyped-def]
    files = dict(mini_set_files)
    files["cards.yaml"] = (
        "cards:\n"
        "  - {name: Poke, type: basic, count: 2, damage: 3, source: designed}\n"
        "  - {name: Sneak, type: basic, count: 2, damage: 3, defended_by: [], source: designed}\n"
        "  - {name: Oops, type: basic, count: 1, damage: 1, stunned: 3, source: designed}\n"
        "  - {name: Block, type: defense, count: 1, defence: block, source: rulebook}\n")
    return make_set(files)  # type: ignore[no-any-return]


def test_greedy_values_what_the_card_says(make_set, mini_set_files: dict[str, str]) -> None:  # type: ignore[no-untyped-def]
    cs = load_set(_two_attack_set(make_set, mini_set_files))
    poke, sneak, oops, block = (next(d for d, c in enumerate(cs.cards) if c.name == n)
                                for n in ("Poke", "Sneak", "Oops", "Block"))
    for seed in range(5):
        s = new_game(cs, 2, seed=seed)
        me = s.to_act
        bot = GreedyAgent(seed)
        # Same damage: the attack nothing can stop comes first.
        s.hands[me] = [poke, sneak, poke]
        settle(s)
        offered = {(m.kind, m.card) for m in s.moves}
        assert {(PLAY, poke), (PLAY, sneak)} <= offered
        assert bot.choose(observe(s, me)).card == sneak
        # A card that only hurts its own player (1 damage for 3 lost turns): never played; discarded to make room.
        s.hands[me] = [oops, block, block]
        settle(s)
        assert (PLAY, oops) in {(m.kind, m.card) for m in s.moves}
        assert bot.choose(observe(s, me)) == Move(DISCARD, oops)


def test_validate_compares_a_set_that_extends_another_with_its_base() -> None:
    result = CliRunner().invoke(main, ["validate", "--set", str(BALANCE / "broken"), "--sim-seconds", "0.1",
                                       "--games", "1000"])
    assert result.exit_code == 0, result.output  # warnings do not fail validate
    [line] = [x for x in result.stderr.splitlines() if f"'{OVERPOWERED}' is stronger" in x]
    path, lineno, _col, rest = line.split(":", 3)
    assert Path(path).resolve() == (BALANCE / "broken" / "set.yaml").resolve()
    assert (BALANCE / "broken" / "set.yaml").read_text().splitlines()[int(lineno) - 1].lstrip().startswith(
        f"- {{name: {OVERPOWERED}")
    assert "warning: " in rest and "players who start with" in rest and "Stronger than before" in rest
    assert "compared with its base balance-base): 1000 games at 2 players, 1000 games at 4 players" in result.stdout
    warned = {x.split("'")[1] for x in result.stderr.splitlines() if "warning: card '" in x and " is " in x}
    assert warned == {OVERPOWERED, USELESS}
