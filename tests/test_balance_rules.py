"""The balance procedure's decision rules as pure functions: the call from an interval and the minimum effect
(one rule for changed, new and single-set cards), the games a verdict would need, the looks and their share
of the error rate, and each interval agreeing with its p-value."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardgen.sim.balance.intervals import (
    LOOKS,
    anytime_p,
    half_width,
    holm_levels,
    look_half_width,
    look_p,
    look_plan,
)
from cardgen.sim.balance.model import BalanceConfig, BalanceResult, TableResult, Verdict
from cardgen.sim.balance.verdicts import Figure, Probe, call_of, games_needed
from cardgen.sim.balance.words import at_least, count, verdict_sentence

CHANGED = Probe("Knuckle Sammitch", "changed", "mechanics", 3, 3)
NEW = Probe("Bar Brawl", "new", "new", -1, 20, (1, 2, 3))
MARGIN = 0.03  # three points, as fractions


def _changed(est: float) -> Figure:
    return Figure(CHANGED, est, 0.0)


@pytest.mark.parametrize(("est", "low", "high", "call"), [
    (0.05, 0.01, 0.09, "stronger"),            # past the minimum and surely above 0
    (-0.05, -0.09, -0.01, "weaker"),
    (0.02, 0.005, 0.035, "undecided"),         # surely above 0, but not clearly past or short of the minimum
    (0.02, 0.01, 0.029, "no change that matters"),  # surely changed, surely by less than the minimum
    (0.05, -0.01, 0.11, "undecided"),          # large but not yet sure
    (0.0, -0.029, 0.029, "no change that matters"),
])
def test_the_call_needs_a_sure_change_at_least_the_minimum(est: float, low: float, high: float, call: str) -> None:
    assert call_of(_changed(est), low, high, MARGIN, 0.0) == call


@pytest.mark.parametrize(("edge", "est", "low", "high", "call"), [
    ("hi", 0.05, 0.01, 0.09, "too strong"),      # beyond the strongest edge, surely and by the minimum
    ("hi", 0.023, 0.005, 0.041, "undecided"),    # surely beyond the edge, but by less than the minimum: no call
    ("lo", -0.05, -0.09, -0.01, "too weak"),
    ("lo", -0.023, -0.041, -0.005, "undecided"),
    ("hi", -0.01, -0.025, 0.005, "within the band"),  # inside at this edge and (other, below) at the other
])
def test_a_new_card_is_called_by_the_same_rule_as_a_changed_one(edge: str, est: float, low: float, high: float,
                                                                call: str) -> None:
    other = (-0.06, 0.0) if edge == "lo" else (0.06, 0.0)  # far inside the band at the other edge
    f = Figure(NEW, est, 0.0, 1, edge, other, 2)  # type: ignore[arg-type]
    assert call_of(f, low, high, MARGIN, 0.01) == call


def test_games_needed_aims_at_the_verdict_the_estimate_can_reach() -> None:
    # past the minimum: the half-width must fall below the estimate (4x the games to halve it)
    assert games_needed(0.04, 0.08, 1000, MARGIN) == 4000
    # short of it the card can only be cleared: the half-width must fall below 3 - 2.5 = 0.5 points; the figure is
    # rounded up to two significant figures (a designer reads "about 130,000", not "about 132,300")
    exact = 30_000 * (0.0105 / 0.005) ** 2
    assert games_needed(0.025, 0.0105, 30_000, MARGIN) == 140_000 and exact == pytest.approx(132_300)


def test_the_looks_split_the_error_rate_and_keep_most_of_it_for_the_last() -> None:
    assert sum(w for _, w in LOOKS) == pytest.approx(1.0)
    plan = look_plan(8000, False, 200)
    assert [g for g, _ in plan] == [1000, 2000, 4000, 8000] and sum(w for _, w in plan) == pytest.approx(1.0)
    assert plan[-1][1] > 0.5
    assert look_plan(4000, True, 200) == [(4000, 1.0)]  # a fixed game count: one look with the whole rate
    plan = look_plan(300, False, 200)  # looks on chunk boundaries, within the budget: the first two fall together
    assert [g for g, _ in plan] == [200, 300] and [w for _, w in plan] == pytest.approx([0.3, 0.7])


@given(st.floats(-0.3, 0.3), st.floats(1e-6, 0.01), st.sampled_from([0.05, 0.025, 0.0025]))
def test_a_looks_interval_excludes_zero_exactly_when_its_p_value_is_below_the_level(est: float, var: float,
                                                                                 level: float) -> None:
    hw = look_half_width(var, level)
    if abs(abs(est) - hw) > 1e-9 * max(1.0, hw):
        assert (abs(est) > hw) == (look_p(est, var) < level)


def test_the_last_look_is_narrower_than_the_anytime_interval_at_the_same_games() -> None:
    var = 1.0 / 4000
    assert look_half_width(var, 0.025 * LOOKS[-1][1]) < 0.8 * half_width(var, 4000, 0.025)


@given(st.floats(-0.3, 0.3), st.floats(1e-4, 0.5), st.integers(400, 30_000), st.sampled_from([0.05, 0.025, 0.01]))
def test_interval_excludes_zero_exactly_when_the_p_value_is_below_the_level(est: float, var: float, games: int,
                                                                           level: float) -> None:
    hw = half_width(var, games, level)
    p = anytime_p(est, var, games, level)
    if abs(abs(est) - hw) > 1e-9 * max(1.0, hw):  # off the boundary itself
        assert (abs(est) > hw) == (p < level)


def test_the_interval_narrows_with_games_but_slower_than_a_fixed_sample_one() -> None:
    # `var` is the fixed-sample variance of the estimate after n games: sigma^2 / n for a per-game sigma of 1
    widths = [half_width(1.0 / n, n, 0.025) for n in (400, 4000, 40_000)]
    assert widths[0] > widths[1] > widths[2]
    assert all(w > 1.96 * math.sqrt(1.0 / n) for w, n in zip(widths, (400, 4000, 40_000), strict=True))


def test_holm_levels_step_down() -> None:
    adjusted, levels = holm_levels([0.001, 0.04, 0.012], 0.05)
    assert adjusted == pytest.approx([0.003, 0.04, 0.024])
    # 0.001 <= 0.05/3, 0.012 <= 0.05/2, 0.04 <= 0.05: all rejected, each at its step's level
    assert levels == pytest.approx([0.05 / 3, 0.05, 0.05 / 2])
    _, stuck = holm_levels([0.001, 0.2, 0.03], 0.05)
    assert stuck == pytest.approx([0.05 / 3, 0.025, 0.025])  # 0.03 > 0.025: it and the rest are judged there


# --- the words: derived from the same figures as the call --------------------------------------------------


def _verdict(**kw: object) -> Verdict:
    base: dict[str, object] = dict(card="Textbook", players=2, family="card", kind="unchanged", call="too strong",
                                   change=5.2, low=1.1, high=9.3, p=0.01, a_rate=None, b_rate=0.42, others=0.51,
                                   a_others=None, reference="Ruler", games=8000, games_needed=None, edge="hi",
                                   reference_role="weapon", other_reference="Hall Pass", other_change=14.0)
    base.update(kw)
    return Verdict(**base)  # type: ignore[arg-type]


def _result(*verdicts: Verdict, b: str | None = None) -> BalanceResult:
    return BalanceResult("classic", b, (), (TableResult(2, 8000, "max games", verdicts),), BalanceConfig(), 0.0)


def test_a_band_sentence_names_the_edge_it_used_and_never_contradicts_itself() -> None:
    v = _verdict()
    words = verdict_sentence(v, _result(v))
    # a card whose holders win less than the others can still be above its role's strongest edge: said as such
    assert words == ("Textbook, at 2 players: players who start with it win 42 % of games, the others 51 %; that is "
                     "+5.2 points [+1.1, +9.3] against Ruler, the strongest other weapon card, and +14.0 against "
                     "Hall Pass, the weakest: at least one extra win in 91 games. Too strong.")
    low = _verdict(call="too weak", change=-4.6, low=-8.8, high=-0.5, edge="lo", other_change=-5.1)
    assert "against Ruler, the weakest other weapon card, and -5.1 against Hall Pass, the strongest: at least one " \
           "win fewer in 200 games. Too weak." in verdict_sentence(low, _result(low))
    alone = _verdict(reference_role="")  # the role has no other card: the band is every other card
    assert "against Ruler, the strongest other card, and" in verdict_sentence(alone, _result(alone))


def test_the_size_comes_from_the_near_end_of_the_interval() -> None:
    lucky = _verdict(family="changed", call="stronger", change=15.0, low=1.3, high=28.7)
    assert at_least(lucky) == "at least one extra win in 77 games"  # not "one in 7", the lucky estimate's
    assert at_least(_verdict(change=-8.0, low=-12.0, high=-4.0)) == "at least one win fewer in 25 games"


def test_an_open_verdict_never_prints_an_absurd_game_count() -> None:
    v = _verdict(call="undecided", games_needed=4_868_100)
    assert verdict_sentence(v, _result(v)).endswith("not clear yet after 8000 games (more than 100,000 would tell)")
    near = _verdict(call="undecided", games_needed=13_000)
    assert verdict_sentence(near, _result(near)).endswith("(about 13,000 would tell)")


def test_counts_agree_with_their_nouns() -> None:
    assert [count("cards", n, "en") for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
    assert [count("copies", n, "de") for n in (1, 3)] == ["1 Exemplar", "3 Exemplare"]
