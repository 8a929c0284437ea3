"""The balance procedure on home-made sets with planted changes, and on controls, with every default.

Each fixture in tests/fixtures/balance_plants extends a bundled set with changes of the kinds designers make:
stronger and weaker cards, a nerf, a defence, a new card, a card that matters only at four players, two edits
at once, a rule. The acceptance: with the defaults a user gets (`cardgen compare BASE FIXTURE` and `cardgen
validate --set FIXTURE`, nothing lowered or lifted), every plant is named in the right direction at the table
size it was made for, and the controls (other copy counts, flavour, a rename, a new card at par) are quiet.
The defaults stop on game counts only, so these are the verdicts every machine gives; `validate` gets
`compare`'s run from the verdict cache (the same sets and settings), which the last test checks.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from cardgen.checks import load_set
from cardgen.cli.main import main
from cardgen.sim import balance_defaults as defaults
from cardgen.sim.balance import BalanceConfig, BalanceResult, compare_versions
from cardgen.sim.balance.interaction import Row, interactions

PLANTS = Path(__file__).parent / "fixtures" / "balance_plants"

# What each fixture must be called (tests/fixtures/balance_plants/expected.yaml, read by bench/balance_bench.py too)
_READ: dict[str, Any] = yaml.safe_load((PLANTS / "expected.yaml").read_text(encoding="utf-8"))
AT_MINIMUM: dict[str, dict[str, dict[int, str]]] = _READ.pop("at_minimum")  # named about half the time
EXPECTED: dict[str, dict[str, dict[int, str]]] = _READ
RULE_FIGURE = "game length"  # a rule change: the game itself is judged
PLANTED = {name: plants for name, plants in EXPECTED.items() if plants and RULE_FIGURE not in plants}
RULES = {name: plants[RULE_FIGURE] for name, plants in EXPECTED.items() if RULE_FIGURE in plants}
CONTROLS = tuple(name for name, plants in EXPECTED.items() if not plants)
CALLS = ("stronger", "weaker", "too strong", "too weak", "never played")


def _compare(name: str, tmp_path: Path) -> tuple[list[str], dict[str, Any]]:
    out = tmp_path / f"{name}.json"
    result = CliRunner().invoke(main, ["compare", load_set(PLANTS / name).base or "", str(PLANTS / name),
                                       "--json", str(out)])
    assert result.exit_code == 0, result.output
    res = json.loads(out.read_text(encoding="utf-8"))
    assert res["config"] == {**res["config"], "tables": list(defaults.TABLES), "agents": list(defaults.AGENTS),
                             "alpha": defaults.ALPHA, "min_effect": defaults.MIN_EFFECT,
                             "max_games": defaults.MAX_GAMES, "games": None, "seed": 0}
    for t in res["tables"]:
        assert t["games"] <= defaults.DEAL_CAP * defaults.MAX_GAMES  # deals: the budget counts games played
        assert t["stopped"] in ("decided", "max games", "nothing to test")
    return result.stdout.splitlines(), res


def _called(lines: list[str]) -> list[str]:
    """The verdict sentences that call a card (the designer-facing words end with the call)."""
    ends = ("Stronger than before.", "Weaker than before.", "Too strong.", "Too weak.",
            "Never played: nobody would choose it.")
    return [x for x in lines if x.endswith(ends)]


@pytest.mark.parametrize("name", sorted(PLANTED))
def test_compare_with_the_defaults_names_every_plant_and_only_the_plants(name: str, tmp_path: Path) -> None:
    plants = PLANTED[name]
    lines, res = _compare(name, tmp_path)
    assert res["flagged"] == sorted(plants)
    assert not set(res["knock_on_flagged"]) & set(plants)
    for card, calls in plants.items():
        for t in res["tables"]:
            [v] = [v for v in t["verdicts"] if v["card"] == card]
            if t["players"] in calls:
                assert v["call"] == calls[t["players"]], (t["players"], v)
                if v["call"] != "never played":
                    assert v["low"] > 0 or v["high"] < 0
                    assert abs(v["change"]) >= res["config"]["min_effect"]  # the 3-point minimum, every call
                    assert v["p"] < res["config"]["alpha"]
            else:  # a size the plant was not made for: never called the other way
                assert v["call"] in {*calls.values(), "no change that matters", "within the band", "undecided"}, v
    # the summary names each plant in words at each table size where it is called, and no other card
    called = _called(lines)
    sizes = sum(v["card"] in plants and v["call"] in CALLS for t in res["tables"] for v in t["verdicts"])
    assert len(called) == sizes, lines
    assert all(any(x.startswith(f"  {'new card ' if name == 'new-card' else ''}{card}, at ") for card in plants)
               for x in called), lines


@pytest.mark.parametrize("name", sorted(AT_MINIMUM))
def test_a_plant_at_the_minimum_effect_is_never_called_the_other_way(name: str, tmp_path: Path) -> None:
    plants = AT_MINIMUM[name]
    _, res = _compare(name, tmp_path)
    assert set(res["flagged"]) <= set(plants) and not set(res["knock_on_flagged"]) & set(plants)
    for card, calls in plants.items():
        for t in res["tables"]:
            [v] = [v for v in t["verdicts"] if v["card"] == card]
            wanted = calls.get(t["players"])
            allowed = {wanted, "undecided"} if wanted else {*calls.values(), "no change that matters", "undecided"}
            assert v["call"] in allowed, (t["players"], v)
            if wanted:  # its figure points the planted way, near the minimum
                assert v["change"] > 0 if wanted == "stronger" else v["change"] < 0


def test_compare_words_come_from_the_interval_the_games_guarantee(tmp_path: Path) -> None:
    lines, res = _compare("self-stun", tmp_path)
    assert "  Horror of Horrors: changed (stunned)" in lines
    [two] = [x for x in _called(lines) if x.startswith("  Horror of Horrors, at 2 players")]
    [v] = [v for v in res["tables"][0]["verdicts"] if v["card"] == "Horror of Horrors"]
    assert two.startswith("  Horror of Horrors, at 2 players: players who start with it win ")
    # the near end of the interval, not the estimate: what the games guarantee at least
    assert f"at least one win fewer in {round(100 / abs(v['high']))} games" in two
    assert two.endswith("Weaker than before.")


@pytest.mark.parametrize("name", sorted(RULES))
def test_a_rule_change_is_compared_with_its_own_verdict(name: str, tmp_path: Path) -> None:
    lines, res = _compare(name, tmp_path)
    assert res["rules"] == [{"rule": "life", "before": "15", "after": "8"}]
    assert lines[0] == "beer -> plant-rule-life: no card's design or copies changed; rules changed: life 15 -> 8"
    for t in res["tables"]:
        assert t["games"] > 0 and t["stopped"] != "nothing to test"
        [length] = [v for v in t["verdicts"] if v["card"] == "game length"]
        assert length["family"] == "rules" and length["call"] == RULES[name][t["players"]]
        assert length["high"] < 0 and length["b_rate"] < 0.7 * length["a_rate"]  # games far shorter
        [first] = [v for v in t["verdicts"] if v["card"] == "first player"]
        assert first["call"] not in CALLS  # the first player's edge does not move by the minimum
        assert any(x.startswith(f"  the game, at {t['players']} players: games last ") and x.endswith("Shorter games.")
                   for x in lines)
    assert res["flagged"] == []  # no card of the designer's is judged: the game is
    assert any(x.startswith("  cards that gain or lose under the new rules: ") for x in lines)


@pytest.mark.parametrize("name", CONTROLS)
def test_compare_with_the_defaults_names_nothing_on_the_controls(name: str, tmp_path: Path) -> None:
    lines, res = _compare(name, tmp_path)
    assert res["flagged"] == [] and res["knock_on_flagged"] == [] and res["depends_on_table"] == []
    assert _called(lines) == []
    if name == "copies-only":
        assert lines.count("  no card stands out among the changed cards") == 2
        assert {c["card"]: c["kind"] for c in res["changes"] if c["kind"] != "unchanged"} == {"Smack": "copies",
                                                                                             "Kick²": "copies"}
    elif name == "flavour-only":
        assert [c["kind"] for c in res["changes"]] == ["unchanged"] * len(res["changes"])  # flavour is not design
        assert all(t["games"] == 0 for t in res["tables"])
        assert [x for x in lines if "nothing to test" in x] == [
            f"{p} players: 0 games: nothing to test (the versions play identical games)" for p in (2, 4)]
    else:  # a new card: its place in the band is said, against both edges
        new = next(c["card"] for c in res["changes"] if c["kind"] == "new")
        said = [x for x in lines if x.startswith(f"  new card {new}, at ")]
        assert len(said) == 2, said
        for x in said:  # the edge it is judged against, then its figure against the other edge
            edges = [x.index(", the strongest"), x.index(", the weakest")]
            assert " against " in x and min(edges) > 0 and ("within the band" in x or "not clear yet" in x), x


@pytest.mark.parametrize("name", [*sorted(PLANTED), *sorted(RULES), *CONTROLS])
def test_validate_with_the_defaults_warns_about_the_plants_and_no_other(name: str) -> None:
    result = CliRunner().invoke(main, ["validate", "--set", str(PLANTS / name), "--sim-seconds", "2"])
    assert result.exit_code == 0, result.output
    warnings = [x for x in result.stderr.splitlines() if ": warning: " in x]
    assert f"compared with its base {load_set(Path(load_set(PLANTS / name).base or '')).name}" in result.stdout
    plants = PLANTED.get(name, {})
    assert sorted(x.split("card '")[1].split("'")[0] for x in warnings) == sorted(plants), result.stderr
    for line in warnings:
        path, lineno = line.split(":")[:2]
        card = line.split("card '")[1].split("'")[0]
        assert Path(path).resolve() == (PLANTS / name / "set.yaml").resolve()
        assert card in (PLANTS / name / "set.yaml").read_text(encoding="utf-8").splitlines()[int(lineno) - 1]
    if not plants:
        assert "no card stands out" in result.stdout
    if name in RULES:
        assert f"{load_set(PLANTS / name).name}: balance: the game, at 2 players: games last " in result.stdout


def test_validate_gets_compares_run_from_the_cache(balance_cache: Path, tmp_path: Path) -> None:
    """`validate` asks for the run `compare` made (the same sets and settings: played just now, or already by
    this session's nerf tests) and is answered from the cache, which it says, writing nothing new."""
    _compare("nerf", tmp_path)
    before = sorted(balance_cache.glob("*.json"))
    result = CliRunner().invoke(main, ["validate", "--set", str(PLANTS / "nerf"), "--sim-seconds", "2"])
    assert result.exit_code == 0
    assert "(answered from the cache of an identical run)" in result.stdout
    assert before and sorted(balance_cache.glob("*.json")) == before


# --- the table size: a flag only where the difference between the sizes is itself clear -------------------


def _result(name: str) -> BalanceResult:
    b = load_set(PLANTS / name)
    return compare_versions(load_set(Path(b.base or "")), b)


def test_the_card_strong_only_at_four_players_is_said_to_depend_on_the_table() -> None:
    res = _result("every-rival")
    [it] = [i for i in res.interactions if i.card == "Kick⁴"]
    assert it.tables == (2, 4) and it.depends and it.low > 0 and it.change >= res.config.min_effect
    assert res.depends_on_table == ("Kick⁴",)
    two, four = (next(v for v in t.verdicts if v.card == "Kick⁴") for t in res.tables)
    assert two.call == "no change that matters" and four.call == "stronger"


def test_the_table_size_line_is_told_in_the_cards_direction() -> None:
    from cardgen.sim.balance import verdict_lines

    res = _result("every-rival")
    [line] = [x for x in verdict_lines(res) if x.startswith("strength depends on the table size: ")]
    assert "Kick⁴ (" in line and " points stronger at 4 players than at 2 [+" in line


@pytest.mark.parametrize("name", sorted(set(PLANTED) - {"every-rival", "two-edits"}))
def test_a_plant_is_said_to_depend_on_the_table_only_when_the_difference_is_clear(name: str) -> None:
    res = _result(name)
    [card] = PLANTED[name]
    [it] = [i for i in res.interactions if i.card == card]
    calls = {t.players: next(v for v in t.verdicts if v.card == card).call for t in res.tables}
    differ = calls[2] != calls[4]  # the planted card is called at one size at least
    clear = (it.low > 0 or it.high < 0) and abs(it.change) >= res.config.min_effect
    assert it.depends == (differ and clear) and (card in res.depends_on_table) == it.depends


def test_interaction_interval_matches_its_p_value() -> None:
    """Holm's level and the interval agree: the interval excludes 0 exactly when the adjusted p is below the
    error rate (one card, so the level is alpha itself)."""
    clear = []
    cfg = BalanceConfig()
    for d in (0.02, 0.05, 0.08, -0.08):
        [it], _ = interactions([Row("X", 2, 4, d, (0.0004, 0.0009), 1.2, True)], cfg)
        assert (it.low > 0 or it.high < 0) == (it.p < 0.05) == it.depends, it
        clear.append(it.depends)
    assert clear == [False, False, True, True]
    [same], _ = interactions([Row("X", 2, 4, 0.3, (0.0004, 0.0009), 1.2, False)], cfg)
    assert same.low > 0 and not same.depends  # the same call at both sizes is not a dependence on the table


def test_verdicts_do_not_depend_on_jobs_and_record_the_games(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardgen.sim.balance import BALANCE_TIMING_KEYS, result_json

    monkeypatch.setenv("CARDGEN_BALANCE_CACHE", "0")  # both runs really played
    b = load_set(PLANTS / "bigger-heal")
    a = load_set(Path(b.base or ""))
    runs = [result_json(compare_versions(a, b, BalanceConfig(max_games=1200, jobs=jobs))) for jobs in (1, 2)]
    for r in runs:
        for key in BALANCE_TIMING_KEYS:
            r.pop(key)
    assert runs[0] == runs[1]
    assert all(0 < t["games"] <= 1200 for t in runs[0]["tables"]) and runs[0]["config"]["max_games"] == 1200


def test_phase_two_plays_in_the_workers_and_gives_what_one_process_gives(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table-size games after the verdicts (phase 2) look at one chunk at a time in game order; with workers,
    the chunks are played there (the likely next ones ahead), and the result is the one-process result."""
    from cardgen.sim.balance import BALANCE_TIMING_KEYS, games, result_json

    monkeypatch.setenv("CARDGEN_BALANCE_CACHE", "0")
    b = load_set(PLANTS / "nerf")
    a = load_set(Path(b.base or ""))
    real = games.PairTask.__call__
    here: list[tuple[int, ...]] = []  # chunks played in this process (the workers do not see this patch)

    def counting(self: games.PairTask, players: int, first: int, stop: int) -> list[games.PairedNote]:
        here.append((players, first, stop))
        return real(self, players, first, stop)

    monkeypatch.setattr(games.PairTask, "__call__", counting)
    runs = []
    for jobs in (1, 2):
        here.clear()
        res = compare_versions(a, b, BalanceConfig(seed=2, max_games=1600, jobs=jobs))
        runs.append(result_json(res))
        assert sum(t.interaction_games for t in res.tables) >= 400  # phase 2 played two chunks or more
        assert (len(here) > 0) == (jobs == 1)
    for r in runs:
        for key in BALANCE_TIMING_KEYS:
            r.pop(key)
    assert runs[0] == runs[1]
