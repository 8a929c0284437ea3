"""The balance procedure's decision rules as pure functions (issue 20): the call from an interval and the
minimum effect, the games a verdict would need, and the anytime-valid interval and p-value agreeing."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardgen.sim.balance import (
    _call,
    _Figure,
    _needed,
    _Test,
    anytime_p,
    half_width,
    holm_levels,
)

CHANGED = _Test("Knuckle Sammitch", "changed", "mechanics", 3, 3)
MARGIN = 0.03  # three points, as fractions


def _changed(est: float) -> _Figure:
    return _Figure(CHANGED.name, CHANGED, est, 0.0)


@pytest.mark.parametrize(("est", "low", "high", "call"), [
    (0.05, 0.01, 0.09, "stronger"),            # past the minimum and surely above 0
    (-0.05, -0.09, -0.01, "weaker"),
    (0.02, 0.005, 0.035, "undecided"),         # surely above 0, but not clearly past or short of the minimum
    (0.02, 0.01, 0.029, "no change that matters"),  # surely changed, surely by less than the minimum
    (0.05, -0.01, 0.11, "undecided"),          # large but not yet sure
    (0.0, -0.029, 0.029, "no change that matters"),
])
def test_the_call_needs_a_sure_change_at_least_the_minimum(est: float, low: float, high: float, call: str) -> None:
    assert _call(_changed(est), low, high, MARGIN, 0.0) == call


def test_games_needed_aims_at_the_verdict_the_estimate_can_reach() -> None:
    # past the minimum: the half-width must fall below the estimate (4x the games to halve it)
    assert _needed(0.04, 0.08, 1000, MARGIN) == 4000
    # short of it the card can only be cleared: the half-width must fall below 3 - 2.5 = 0.5 points
    assert _needed(0.025, 0.0105, 30_000, MARGIN) == pytest.approx(30_000 * (0.0105 / 0.005) ** 2, rel=0.01)
    assert _needed(0.025, 0.0105, 30_000, MARGIN) > 30_000


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
