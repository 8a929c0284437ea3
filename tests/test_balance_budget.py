"""The game budget counts games played, not deals: a change to a rare card, whose deals are mostly counted from
the deal and not played, deals on past the budget's deals until it has played the budget (`intervals.Extension`),
so it gets about the games a common card gets at the same budget; every look's place depends on the deals alone.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cardgen.loader import load_set
from cardgen.sim import balance_defaults as defaults
from cardgen.sim.balance import BalanceConfig, BalanceResult, compare_versions, verdict_lines
from cardgen.sim.balance import procedure as procedure_module
from cardgen.sim.balance.intervals import EXTENSION, LOOKS, Extension, extension

PLANTS = Path(__file__).parent / "fixtures" / "balance_plants"
BUDGET = 400  # games played a table size: small, so the runs below reach it


@pytest.fixture(autouse=True)
def _no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDGEN_BALANCE_CACHE", "0")


def _run(name: str, seed: int = 1, jobs: int = 1, tables: tuple[int, ...] = (2,)) -> BalanceResult:
    b = load_set(PLANTS / name)
    a = load_set(Path(b.base or ""))
    return compare_versions(a, b, BalanceConfig(seed=seed, tables=tables, max_games=BUDGET, jobs=jobs))


def test_an_extension_is_only_for_a_budget_whose_deals_played_at_most_half_of_it() -> None:
    assert extension(8000, False, 3000, 3) == Extension(8000, 24_000, EXTENSION)
    assert extension(8000, False, 4000, 3) is not None  # playing on doubles the games played: worth a look
    assert extension(8000, False, 4001, 3) is None
    assert extension(8000, True, 3000, 3) is None  # a fixed game count keeps its single look
    # its share comes out of the last look's: the shares of all the looks still add up to the whole rate
    assert 0 < EXTENSION < LOOKS[-1][1]
    assert Extension(8000, 24_000, EXTENSION).reached(8000, 17_000)
    assert Extension(8000, 24_000, EXTENSION).reached(6000, 24_000)
    assert not Extension(8000, 24_000, EXTENSION).reached(7999, 23_800)


def test_a_rare_cards_change_deals_on_until_it_has_played_the_budget_a_common_ones_does_not() -> None:
    # Manhandle (2 copies): its 400 deals play about 150 games, so it deals on until it has played 400
    res = _run("combo-follow-up")
    [rare] = res.tables
    assert rare.stopped == "max games"
    assert BUDGET < rare.games <= defaults.DEAL_CAP * BUDGET
    assert rare.played >= BUDGET and rare.played - BUDGET < 200  # to the first chunk that reaches the budget
    # Smack and Kick² (copies changed) split most deals: 400 deals play more than half the budget, and stop there
    [common] = _run("copies-only").tables
    assert common.stopped == "max games" and common.games == BUDGET and 2 * common.played > BUDGET
    assert rare.games > 2 * common.games
    text = "\n".join(verdict_lines(res))
    assert f"2 players: {rare.games} games ({rare.played} played, the rest counted from the deal)" in text


def test_where_every_deal_is_played_the_budget_is_the_deals_and_nothing_is_extended() -> None:
    b = load_set(PLANTS / "rule-life")  # a rule changed: every deal is played
    a = load_set(Path(b.base or ""))
    res = compare_versions(a, b, BalanceConfig(seed=1, tables=(2,), max_games=BUDGET, min_effect=0.1))
    [t] = res.tables
    assert t.games == t.played <= BUDGET


def test_the_extended_looks_depend_on_the_seed_only_never_on_jobs() -> None:
    one, two = (_run("combo-follow-up", seed=2, jobs=j, tables=(2, 4)) for j in (1, min(2, os.cpu_count() or 1)))
    assert one.tables == two.tables and one.interactions == two.interactions
    assert any(t.games > BUDGET for t in one.tables)


def test_the_extensions_look_takes_its_share_from_the_budgets_and_the_shares_add_up_to_the_rate(
        monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[int, float]] = []
    real = procedure_module.table_verdicts

    def spy(tally, p, cfg, share=1.0, census=None):  # type: ignore[no-untyped-def]
        seen.append((tally.games, share))
        return real(tally, p, cfg, share, census)

    monkeypatch.setattr(procedure_module, "table_verdicts", spy)
    [t] = _run("combo-follow-up", seed=2).tables
    assert t.stopped == "max games" and t.games > BUDGET
    # the budget of 400 deals puts its first three looks together at 200 (`look_plan`), its last at 400
    first = sum(w for _, w in LOOKS[:-1])
    assert seen == [(200, pytest.approx(first)), (BUDGET, pytest.approx(LOOKS[-1][1] - EXTENSION)),
                    (t.games, pytest.approx(EXTENSION))]
    assert sum(s for _, s in seen) == pytest.approx(1.0)
