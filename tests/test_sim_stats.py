"""Streaming statistics: Wilson intervals, percentiles, merging order-independence."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.sim.stats import GameRecord, Stats, wilson_interval


def _rec(winner: int | None, turns: int, cards: dict[str, int] | None = None) -> GameRecord:
    cards = cards or {}
    return GameRecord(winner, turns, turns * 3, cards)


def test_wilson_interval_known_value() -> None:
    # 50 of 100: the Wilson 95 % interval is about 0.404 .. 0.596.
    lo, hi = wilson_interval(50, 100)
    assert abs(lo - 0.4038) < 1e-3 and abs(hi - 0.5962) < 1e-3


def test_wilson_interval_stays_inside_unit_range_at_extremes() -> None:
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and 0.0 < hi < 0.35
    lo, hi = wilson_interval(10, 10)
    assert 0.65 < lo < 1.0 and abs(hi - 1.0) < 1e-12
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_percentiles_from_histogram_match_sorted_list() -> None:
    rng = random.Random(3)
    lengths = [rng.randint(5, 80) for _ in range(501)]
    s = Stats(seats=2)
    for t in lengths:
        s.add(_rec(0, t))
    ordered = sorted(lengths)
    assert s.percentile(0.5) == ordered[250]
    assert s.percentile(0.95) == ordered[int(0.95 * 501 + 0.999) - 1]


def test_stalemates_and_card_plays_are_counted() -> None:
    s = Stats(seats=3)
    s.add(_rec(1, 10, {"Jab": 2}))
    s.add(_rec(None, 300, {"Jab": 1, "Block": 1}))
    out = s.summary(["Jab", "Block", "Hail Mary"])
    assert out["stalemates"] == 1
    assert out["seat_wins"] == [0, 1, 0]
    jab = out["cards"]["Jab"]
    assert (jab["played"], jab["games"], jab["plays_per_game"]) == (3, 2, 1.5)
    assert out["dead_cards"] == ["Hail Mary"]


def test_card_impact_counts_holders_and_their_wins() -> None:
    """Seat 0 holds Jab (design 0) in its opening hand in both games and wins one; seat 1 never holds it."""
    s = Stats(seats=2, designs=2)
    for winner in (0, 1):
        s.add(GameRecord(winner, 10, 30, {"Jab": 1}, agents=("greedy", "greedy"), opening=(0b01, 0b10),
                         drawn=(0b11, 0b10), dealt=(4, 0), prevented=(0, 2)))
    out = s.summary(["Jab", "Block"])
    jab, block = out["cards"]["Jab"], out["cards"]["Block"]
    assert (jab["opening"]["holders"], jab["opening"]["holder_wins"]) == (2, 1)
    assert (jab["opening"]["others"], jab["opening"]["other_wins"]) == (2, 1)
    assert jab["opening"]["diff"] == 0.0
    assert (jab["damage_per_play"], block["prevented_per_play"]) == (4.0, None)  # Block was never played
    assert block["drawn"]["holders"] == 4 and block["drawn"]["others"] == 0 and block["drawn"]["z"] is None
    assert out["agent_win_ci95"]["greedy"][0] < 0.5 < out["agent_win_ci95"]["greedy"][1]


def test_effect_of_a_known_difference() -> None:
    from cardgen.sim.impact import effect

    f = effect(60, 100, 40, 100)  # 60 % against 40 %: 20 points, SE sqrt(.24/100 * 2) = 6.93 points
    assert f["diff"] == 20.0 and f["z"] == pytest.approx(20 / 6.928, abs=0.01)
    assert f["ci95"] == pytest.approx([20 - 1.96 * 6.928, 20 + 1.96 * 6.928], abs=0.02)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.one_of(st.none(), st.integers(0, 3)), st.integers(1, 50)), min_size=1, max_size=40),
       st.integers(1, 39))
def test_merging_split_batches_equals_one_batch(games: list[tuple[int | None, int]], cut: int) -> None:
    whole = Stats(seats=4)
    left, right = Stats(seats=4), Stats(seats=4)
    for i, (w, t) in enumerate(games):
        rec = _rec(w, t, {"Jab": 1} if t % 2 else {})
        whole.add(rec)
        (left if i < cut else right).add(rec)
    left.merge(right)
    assert left.summary(["Jab"]) == whole.summary(["Jab"])
