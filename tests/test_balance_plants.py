"""The balance procedure on home-made sets with one planted change each, and on controls (issue 20).

Each fixture in tests/fixtures/balance_plants extends a bundled set with one change of a kind designers make.
The procedure runs with its defaults except two things that keep the suite affordable and the verdicts the same on
every machine: a game cap instead of the wall-time budget (the plants stop early, when their verdict is clear),
and, for the plants, only the table size at which the plant shows, at the error rate the defaults give each table
size (0.05 shared by 2 sizes). The controls and the table-size plant play both sizes.
`bench/balance_fixtures.py` runs every fixture with the full defaults and the time budget (docs/simulation.md).
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli.main import main
from cardgen.loader import load_set
from cardgen.sim.balance import BalanceConfig, BalanceResult, card_changes, compare_versions

PLANTS = Path(__file__).parent / "fixtures" / "balance_plants"
DEFAULTS = BalanceConfig()
PER_TABLE = DEFAULTS.alpha / len(DEFAULTS.tables)  # the error rate the defaults give one table size


def capped(tables: tuple[int, ...], games: int) -> BalanceConfig:
    """The defaults, bounded by `games` per table size instead of time, at the defaults' per-table error rate."""
    return BalanceConfig(tables=tables, alpha=PER_TABLE * len(tables), seconds=1e9, max_games=games)


# fixture -> (the planted card, the table sizes at which it must be called, and how)
PLANTED = {
    "basic-attack": ("Knuckle Sammitch", {2: "stronger"}),
    "bigger-heal": ("Self Help", {2: "stronger"}),
    "classic-weapon": ("Textbook", {2: "stronger"}),
    "new-card": ("Bar Brawl", {2: "too strong"}),
    "combo-follow-up": ("Manhandle", {2: "stronger"}),
    "self-stun": ("Horror of Horrors", {2: "weaker"}),
    "every-rival": ("Kick⁴", {4: "stronger"}),
}


@functools.cache
def compared(name: str, tables: tuple[int, ...], games: int) -> BalanceResult:
    b = load_set(PLANTS / name)
    return compare_versions(load_set(Path(b.base)), b, capped(tables, games))


@pytest.mark.parametrize("name", sorted(PLANTED))
def test_compare_names_the_planted_card_and_only_it(name: str) -> None:
    card, calls = PLANTED[name]
    res = compared(name, (2, 4), 2000) if name == "every-rival" else compared(name, tuple(calls), 3000)
    assert {v.card for v in res.flagged()} == {card}
    assert res.flagged(("knock-on",)) == []  # no other card is called either
    for t in res.tables:
        [v] = [v for v in t.verdicts if v.card == card]
        if t.players in calls:
            assert v.call == calls[t.players], (t.players, v)
            assert v.low is not None and v.high is not None and (v.low > 0 or v.high < 0)
            assert v.p is not None and v.p < res.config.alpha  # p is scaled to compare with the run's rate


def test_the_card_strong_only_at_four_players_is_said_to_depend_on_the_table() -> None:
    res = compared("every-rival", (2, 4), 2000)
    [two] = [v for t in res.tables if t.players == 2 for v in t.verdicts if v.card == "Kick⁴"]
    assert not two.flagged
    assert "Kick⁴" in res.depends_on_table or two.call == "undecided"


def test_copies_only_control_calls_nothing() -> None:
    res = compared("copies-only", (2, 4), 600)
    kinds = {c.name: c.kind for c in res.changes if c.kind != "unchanged"}
    assert kinds == {"Smack": "copies", "Kick²": "copies"}
    assert res.flagged() == [] and res.flagged(("knock-on",)) == []


def test_flavour_only_control_is_decided_without_a_game() -> None:
    b = load_set(PLANTS / "flavour-only")
    a = load_set(Path(b.base))
    assert [c.kind for c in card_changes(a, b)] == ["unchanged"] * len(a.cards)  # flavour is not design
    res = compare_versions(a, b)  # the defaults, time budget and all
    assert all(t.games == 0 and t.stopped == "nothing to test" for t in res.tables)
    assert res.flagged() == [] and res.seconds < 5


def test_compare_cli_on_a_plant_names_it_in_words() -> None:
    result = CliRunner().invoke(main, ["compare", "beer", str(PLANTS / "self-stun"), "--games", "1000",
                                       "--players", "2"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "  Horror of Horrors: changed (stunned)" in lines
    [called] = [x for x in lines if "than before." in x]
    assert called.startswith("  Horror of Horrors, at 2 players: players who start with it win ")
    assert "about one win fewer in " in called and called.endswith("Weaker than before.")
    assert "knock-on effects on the other cards: none that matters" in result.stdout


def test_validate_on_a_plant_warns_about_the_planted_card_only() -> None:
    result = CliRunner().invoke(main, ["validate", "--set", str(PLANTS / "self-stun"), "--sim-seconds", "0.5",
                                       "--games", "600"])
    assert result.exit_code == 0, result.output
    balance = [x for x in result.stderr.splitlines() if "than before" in x]
    assert len(balance) == 1 and "card 'Horror of Horrors' is weaker" in balance[0], result.stderr
    path, line = balance[0].split(":")[:2]
    assert Path(path).resolve() == (PLANTS / "self-stun" / "set.yaml").resolve()
    assert "Horror of Horrors" in (PLANTS / "self-stun" / "set.yaml").read_text().splitlines()[int(line) - 1]
    assert "compared with its base beer" in result.stdout


def test_validate_on_a_control_warns_about_no_card() -> None:
    result = CliRunner().invoke(main, ["validate", "--set", str(PLANTS / "flavour-only"), "--sim-seconds", "0.5"])
    assert result.exit_code == 0, result.output
    assert "than before" not in result.stderr
    assert "no card stands out" in result.stdout


def test_verdicts_do_not_depend_on_jobs_and_record_the_games() -> None:
    from cardgen.sim.balance import BALANCE_TIMING_KEYS, result_json

    b = load_set(PLANTS / "bigger-heal")
    a = load_set(Path(b.base))
    runs = [result_json(compare_versions(a, b, BalanceConfig(tables=(2,), games=400, jobs=jobs))) for jobs in (1, 2)]
    for r in runs:
        for key in BALANCE_TIMING_KEYS:
            r.pop(key)
    assert runs[0] == runs[1]
    assert runs[0]["tables"][0]["games"] == 400 and runs[0]["config"]["games"] == 400


@pytest.mark.parametrize("name", [*sorted(PLANTED), "copies-only"])
def test_validate_with_the_default_procedure_warns_about_the_planted_card_and_no_other(name: str) -> None:
    """`cardgen validate --set FIXTURE` as a designer runs it, the stopping rule deciding (the time budget is
    raised so a slow machine cannot cut a verdict short; the defaults decided every fixture well inside it)."""
    result = CliRunner().invoke(main, ["validate", "--set", str(PLANTS / name), "--sim-seconds", "2",
                                       "--balance-seconds", "900"])
    assert result.exit_code == 0, result.output
    warnings = [x for x in result.stderr.splitlines() if ": warning: " in x]
    if name in PLANTED:
        card = PLANTED[name][0]
        assert len(warnings) == 1 and f"card '{card}' is " in warnings[0], result.stderr
        path, line = warnings[0].split(":")[:2]
        assert Path(path).resolve() == (PLANTS / name / "set.yaml").resolve()
        assert card in (PLANTS / name / "set.yaml").read_text(encoding="utf-8").splitlines()[int(line) - 1]
    else:
        assert warnings == [], result.stderr
        assert "no card stands out" in result.stdout
