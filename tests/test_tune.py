"""`cardgen tune`: the smallest change of a flagged card's numbers that brings it back inside the band.

The candidate edits and the edited set are checked directly; the search itself on a planted fixture (Beer
Money whose Fists of Fury strikes 4 + 4 + 4 instead of 2 + 2 + 2), judged by the balance procedure on paired
two-player games, and through the command line.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.checks import load_set
from cardgen.cli.main import main
from cardgen.sim.balance import BalanceConfig
from cardgen.sim.tune import (
    CONFIRM_WORDS,
    FIXES,
    Trial,
    TuneConfig,
    TuneError,
    TuneResult,
    _effects,
    candidate_edits,
    direction_of,
    edited_set,
    pair_edits,
    tune,
    tune_json,
    tune_lines,
)
from cardgen.sim.tune_numbers import NUMBERS, numbers_of

FIXTURES = Path(__file__).parent / "fixtures" / "tune"
STRONG = FIXTURES / "strong-attack"
# a quick search: at most 2,000 games a candidate, so a 5-point minimum: the one-step candidate (damage 3 + 3 + 3)
# is about 4 points stronger than the base (+4.1 [+2.5, +5.7] from its confirmation's 8,000 games played), so
# the default 3 points, or 4, would leave it to chance whether that candidate is confirmed
QUICK = TuneConfig(BalanceConfig(tables=(2,), max_games=2000, min_effect=5.0))


def test_candidates_go_round_the_numbers_one_step_at_a_time() -> None:
    cs = load_set("beer")
    piledriver = cs.card("Piledriver")  # 5 damage, stuns its own player for 1
    weaker = [str(e) for e in candidate_edits(piledriver, "weaken", max_steps=2)]
    assert weaker == ["damage 5 -> 4", "stunned 1 -> 2", "damage 5 -> 3", "stunned 1 -> 3"]
    stronger = [str(e) for e in candidate_edits(piledriver, "strengthen", max_steps=2)]
    assert stronger == ["damage 5 -> 6", "stunned 1 -> 0", "damage 5 -> 7"]  # no stun below 0
    fists = [str(e) for e in candidate_edits(cs.card("Fists of Fury"), "weaken", max_steps=3,
                                              allowed=("damage", "copies"))]
    assert fists == ["damage 2 + 2 + 2 -> 1 + 1 + 1", "copies 4 -> 3", "copies 4 -> 2", "copies 4 -> 1"]
    heals = [str(e) for e in candidate_edits(cs.card("Redemption"), "strengthen", max_steps=1)]
    assert heals == ["heal 4 -> 5"]


def test_an_edited_set_changes_that_card_only_and_its_deck_follows_the_copies() -> None:
    cs = load_set("beer")
    edit = next(e for e in candidate_edits(cs.card("Smite"), "weaken", allowed=("copies",)))
    out = edited_set(cs, edit)
    assert out.card("Smite").count == 1 and out.total == cs.total - 1 == out.deck_size
    assert [c for c in out.cards if c.name != "Smite"] == [c for c in cs.cards if c.name != "Smite"]
    heal = edited_set(cs, candidate_edits(cs.card("Self Help"), "strengthen", max_steps=1)[0])
    assert heal.card("Self Help").heal is not None and heal.card("Self Help").heal.amount == 3
    assert heal.card("Self Help").heal.when == cs.card("Self Help").heal.when  # type: ignore[union-attr]


@pytest.fixture(scope="module")
def strong_tuned() -> TuneResult:
    return tune(load_set("beer"), load_set(STRONG), "Fists of Fury", QUICK)


def test_tune_finds_a_smaller_damage_for_the_planted_attack(strong_tuned: TuneResult) -> None:
    res = strong_tuned
    assert direction_of(res.problem.verdicts) == "weaken"
    assert res.problem.verdicts[0].call == "stronger"
    fix = res.fix
    assert fix is not None and fix.edit is not None and fix.edit.number == "damage"
    assert fix.status in ("fixed", "likely fixed")
    assert all(after < before for after, before in zip(fix.edit.after, fix.edit.before, strict=True))
    assert all(v.change is not None and abs(v.change) < QUICK.balance.min_effect for v in fix.verdicts)
    for trial in res.trials:
        if trial.edit is not None and trial.edit.number == "damage" and trial.edit.steps < fix.edit.steps:
            assert trial.status not in FIXES  # a smaller damage edit did not fix it: this is the smallest
    after = " + ".join(map(str, fix.edit.after))
    lines = tune_lines(res)
    assert any(line.startswith(f"  suggested fix: damage 4 + 4 + 4 -> {after}") for line in lines), lines


def test_tune_json_lists_every_candidate(strong_tuned: TuneResult) -> None:
    data = tune_json([strong_tuned], QUICK)
    card = data["cards"][0]
    assert card["card"] == "Fists of Fury" and card["direction"] == "weaken"
    assert card["fix"] == card["fixes"][0] and card["fix"]["edit"]["number"] == "damage"
    assert len(card["tried"]) >= 1 and all(t["verdicts"][0]["players"] == 2 for t in card["tried"])
    assert json.loads(json.dumps(data)) == data


def test_a_card_that_is_not_flagged_is_not_tuned() -> None:
    with pytest.raises(TuneError, match="nothing to tune"):
        tune(load_set("beer"), load_set(STRONG), "Smack", TuneConfig(BalanceConfig(tables=(2,), games=400)))
    with pytest.raises(TuneError, match="no card 'Nope'"):
        tune(load_set("beer"), load_set(STRONG), "Nope", QUICK)
    with pytest.raises(TuneError, match="none of the numbers"):
        tune(load_set("beer"), load_set(STRONG), "Dodge", QUICK)


def test_tune_cli_prints_the_fix_and_rejects_bad_numbers(tmp_path: Path) -> None:
    out = tmp_path / "t.json"
    result = CliRunner().invoke(main, ["tune", "beer", str(STRONG), "--card", "Fists of Fury", "--players", "2",
                                       "--max-games", "2000", "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "suggested fix: damage 4 + 4 + 4 -> " in result.output
    assert ", by the default procedure at every table size: confirmed: " in result.output
    assert json.loads(out.read_text())["cards"][0]["fix"]["edit"]["number"] == "damage"
    bad = CliRunner().invoke(main, ["tune", "beer", str(STRONG), "--numbers", "damage,colour"])
    assert bad.exit_code == 1 and "--numbers takes a comma list" in bad.output


def test_the_suggestion_is_the_one_its_confirmation_confirms(strong_tuned: TuneResult) -> None:
    fix, confirmed = strong_tuned.fix, strong_tuned.confirmed
    assert fix is not None and confirmed is not None and confirmed.edit == fix.edit
    [v] = confirmed.verdicts
    # the same paired games, played on from where the search stopped, by the default procedure's budget
    assert v.players == 2 and v.games >= fix.verdicts[0].games
    assert confirmed.status in FIXES and not v.flagged
    words = [x for x in tune_lines(strong_tuned) if ", by the default procedure at every table size: " in x]
    assert words and CONFIRM_WORDS[confirmed.status] in words[-1] and f"({v.call}, {v.games} games)" in words[-1]
    assert tune_json([strong_tuned], QUICK)["cards"][0]["fix_confirmed"]["verdicts"][0]["games"] == v.games


def test_an_unconfirmed_candidate_is_never_the_suggestion() -> None:
    from cardgen.sim.balance import Verdict

    still = Verdict("X", 2, "changed", "mechanics", "stronger", 5.0, 1.0, 9.0, 0.01, None, None, None, None, None,
                    8000, None)
    edit = candidate_edits(load_set(STRONG).card("Fists of Fury"), "weaken", max_steps=1)[0]
    found = Trial(edit, "likely fixed", (), 0.0)
    res = TuneResult("Fists of Fury", "beer", "weaken", Trial(None, "still", (still,), 0.0), (found,), (found,),
                     "done", 0.0, 3.0, {}, (Trial(edit, "still", (still,), 0.0),))
    assert res.fix is None
    assert any(x.startswith("  no confirmed fix: damage 4 + 4 + 4 -> 3 + 3 + 3 came closest (not confirmed: still")
               for x in tune_lines(res)), tune_lines(res)


def test_every_integer_of_a_cards_design_is_a_number_tune_may_change() -> None:
    assert {"damage", "stuns", "stunned", "retaliates", "heal", "hold damage", "draw", "copies"} <= set(NUMBERS)
    beer = load_set("beer")
    dodge = dataclasses.replace(beer.card("Dodge"), retaliates=3)  # the defence plant
    assert numbers_of(dodge) == {"copies": (8,), "retaliates": (3,)}
    assert [str(e) for e in candidate_edits(dodge, "weaken", max_steps=2)] == ["retaliates 3 -> 2",
                                                                               "retaliates 3 -> 1"]
    assert "hold damage" in numbers_of(next(c for c in beer.cards if c.ongoing is not None))


def test_a_fix_never_goes_past_where_the_designer_started() -> None:
    punch = dataclasses.replace(load_set("beer").card("Sucker Punch"), damage=(7,))  # raised 3 -> 7
    tried = [str(e) for e in candidate_edits(punch, "weaken", max_steps=6, start={"damage": (3,), "copies": (4,)})]
    assert tried == ["damage 7 -> 6", "damage 7 -> 5", "damage 7 -> 4", "damage 7 -> 3"]
    free = [str(e) for e in candidate_edits(punch, "weaken", max_steps=6)]  # a card with no base: any value
    assert free[-1] == "damage 7 -> 1"


def test_two_numbers_at_once_fewest_steps_first() -> None:
    bat = dataclasses.replace(load_set("beer").card("Manhandle"), damage=(6,), stuns=2)
    singles = candidate_edits(bat, "weaken", max_steps=3)
    pairs = [str(e) for e in pair_edits(singles, 3)]
    assert pairs == ["damage 6 -> 5 and stuns 2 -> 1", "damage 6 -> 5 and stuns 2 -> 0",
                     "damage 6 -> 4 and stuns 2 -> 1"]
    assert all(" and " in p for p in pairs) and len(pairs) == 3


def test_the_words_name_the_number_that_moves_the_card_most() -> None:
    from cardgen.sim.balance import Verdict

    def v(change: float) -> Verdict:
        return Verdict("X", 2, "changed", "mechanics", "undecided", change, change - 3, change + 3, 0.5, None,
                       None, None, None, None, 4000, None)

    card = dataclasses.replace(load_set("beer").card("Manhandle"), damage=(6,), stuns=3)
    [dmg, stun] = [e for e in candidate_edits(card, "weaken", max_steps=1)]
    effects = _effects((v(9.0),), [Trial(dmg, "still", (v(7.8),), 0.0), Trial(stun, "unclear", (v(2.9),), 0.0)], (2,))
    assert list(effects) == ["stuns", "damage"] and effects["stuns"] == pytest.approx(-6.1)


def test_candidates_reuse_the_base_games(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardgen.sim import balance
    from cardgen.sim.balance import games

    base, strong = load_set("beer"), load_set(STRONG)
    other = edited_set(strong, candidate_edits(strong.card("Fists of Fury"), "weaken", max_steps=1)[0])
    cfg = BalanceConfig(tables=(2,), games=200)
    plain = [balance.result_json(balance.compare_versions(base, b, cfg)) for b in (strong, other)]
    calls = []
    real = games.play_one

    def counting(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(games, "play_one", counting)
    shared: dict[tuple[int, int], object] = {}
    memo = [balance.result_json(balance.compare_versions(base, b, cfg, memo=(shared, {})))  # type: ignore[arg-type]
            for b in (strong, other)]
    # of the 200 deals, those worth playing (the same for both: the same card is tested), the base's game
    # once, each candidate's own
    played = [t["played"] for r in memo for t in r["tables"]]
    assert played[0] == played[1] < 200
    assert len(calls) == 3 * played[0]
    for x, y in zip(plain, memo, strict=True):
        for key in balance.BALANCE_TIMING_KEYS:
            x.pop(key), y.pop(key)
        assert x == y  # the same games, so the same verdicts


def test_worker_games_reach_the_memo() -> None:
    """With --jobs the games are played in worker processes; the base's outcomes they return must still land in
    the memo every later candidate reads (else each candidate would replay the base)."""
    from cardgen.sim import balance

    base, strong = load_set("beer"), load_set(STRONG)
    alone: tuple[dict[tuple[int, int], object], dict[tuple[int, int], object]] = ({}, {})
    pooled: tuple[dict[tuple[int, int], object], dict[tuple[int, int], object]] = ({}, {})
    one = balance.compare_versions(base, strong, BalanceConfig(tables=(2,), games=400), memo=alone)  # type: ignore[arg-type]
    two = balance.compare_versions(base, strong, BalanceConfig(tables=(2,), games=400, jobs=2),
                                   memo=pooled)  # type: ignore[arg-type]
    # every game played (the deals worth playing) of both versions
    assert len(alone[0]) == len(alone[1]) == one.tables[0].played == two.tables[0].played
    assert pooled == alone  # the same outcomes whichever process played them
    assert [v.change for t in one.tables for v in t.verdicts] == [v.change for t in two.tables for v in t.verdicts]


def test_a_fix_its_confirmation_rejects_lets_the_number_go_a_step_further(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sucker Punch raised 3 -> 7: 7 -> 4 looks fixed in the search but its confirmation still calls it
    stronger, so 7 -> 3 (where the designer started) is tried and confirmed: that is the suggestion."""
    from cardgen.sim import tune as tune_module
    from cardgen.sim.balance import BalanceResult, TableResult, Verdict

    def v(players: int, call: str, change: float) -> Verdict:
        return Verdict("Sucker Punch", players, "changed", "mechanics", call, change, change - 2.4, change + 2.4,
                       0.01, None, None, None, None, None, 8000, None)

    search_says = {6: "still", 5: "still", 4: "likely fixed", 3: "fixed"}
    confirmation_says = {4: ("still", "stronger", 3.3), 3: ("fixed", "no change that matters", 0.2)}
    searched, confirmed = [], []

    def judge(self: object, edit: tune_module.Edit, tables: tuple[int, ...], bal: BalanceConfig) -> Trial:
        after = edit.after[0]
        if tables == (2, 4):  # the confirmation: every table size
            confirmed.append(after)
            status, call, change = confirmation_says[after]
            return Trial(edit, status, (v(2, call, change), v(4, "no change that matters", 0.1)), 0.0)  # type: ignore[arg-type]
        searched.append(after)
        return Trial(edit, search_says[after], (v(2, "undecided", 2.0),), 0.0)  # type: ignore[arg-type]

    monkeypatch.setattr(tune_module._Search, "judge", judge)
    base = load_set("beer")
    raised = edited_set(base, candidate_edits(base.card("Sucker Punch"), "strengthen", max_steps=4)[-1])
    problem = BalanceResult("beer", raised.name, (), (TableResult(2, 2000, "decided", (v(2, "stronger", 7.7),)),
                                                      TableResult(4, 8000, "decided", (v(4, "no change that matters",
                                                                                         -0.5),))),
                            BalanceConfig(), 0.0)
    res = tune(base, raised, "Sucker Punch", TuneConfig(), problem=problem)
    assert searched == [6, 5, 4, 3] and confirmed == [4, 3]
    assert res.fix is not None and str(res.fix.edit) == "damage 7 -> 3"
    assert "  suggested fix: damage 7 -> 3 (confirmed by the default procedure on the same games)" in tune_lines(res)


def test_an_edit_that_undoes_the_designers_change_needs_no_games() -> None:
    from cardgen.sim.tune import BACK_TO_BASE, _Search, back_to_base

    base = load_set("beer")
    raised = edited_set(base, candidate_edits(base.card("Sucker Punch"), "strengthen", max_steps=4)[-1])  # 3 -> 7
    undo, halfway = [e for e in candidate_edits(raised.card("Sucker Punch"), "weaken", max_steps=4,
                                                start={"damage": (3,)}) if e.after[0] in (3, 4)][::-1]
    assert back_to_base(base, edited_set(raised, undo), "Sucker Punch")
    assert not back_to_base(base, edited_set(raised, halfway), "Sucker Punch")
    search = _Search(base, raised, raised.card("Sucker Punch"), TuneConfig(), "weaken", (2,), None, None)
    trial = search.judge(undo, (2, 4), BalanceConfig())  # no game is played: the card is the base's own
    assert trial.status == "fixed" and trial.verdicts == () and BACK_TO_BASE.startswith("the base card's own design")
