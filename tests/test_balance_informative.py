"""Deals not worth playing (`cardgen.sim.balance.informative`): a deal where no tested card's holders differ
from the other players is counted, not played. The designer's cards get the very same figures as when every
deal is played, from fewer games; the other figures come from the played games weighted to stand for every
deal (Horvitz-Thompson), whose weighted tally is checked against repeated games.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cardgen.loader import load_set
from cardgen.sim.balance import BalanceConfig, compare_versions, verdict_lines
from cardgen.sim.balance import verdicts as verdicts_module
from cardgen.sim.balance.games import PairTask, counted, skipped_note, was_skipped
from cardgen.sim.balance.informative import CENSUS, SKIPPED, splits, weight, worth_playing
from cardgen.sim.balance.tally import Tally
from cardgen.sim.balance.verdicts import plan

PLANTS = Path(__file__).parent / "fixtures" / "balance_plants"


@pytest.fixture(autouse=True)
def _no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDGEN_BALANCE_CACHE", "0")


def test_a_deal_is_worth_playing_only_where_a_tested_card_splits_the_seats() -> None:
    d = 3
    held_by_one, by_none, by_all = (1 << d, 0), (0, 0b10), (1 << d, 1 << d | 1)
    assert splits(held_by_one, (d,))
    assert not splits(by_none, (d,)) and not splits(by_all, (d,))
    assert worth_playing(((d,), ()), held_by_one, by_none)
    assert worth_playing(((), (d,)), by_none, held_by_one)  # B's card splits B's seats
    assert not worth_playing(((d,), (d,)), by_none, by_all)
    assert worth_playing(None, by_none, by_none)  # nothing to select by: every deal is played
    assert [weight(g, False) for g in range(2 * CENSUS)] == [CENSUS] + [0] * (CENSUS - 1) + [CENSUS] + [0] * (
        CENSUS - 1)
    assert weight(1, True) == 1


def test_a_skipped_deal_counts_as_any_winner_would_for_the_tested_card() -> None:
    d, other = 2, 5
    for masks in ((0, 1 << other), (1 << d, 1 << d)):  # nobody holds d, or both do
        note = skipped_note(masks)
        assert note[0] == SKIPPED and was_skipped((note, note))
        by_seat = []
        for winner in (0, 1):
            t = Tally(2)
            t.add(((winner, *note[1:]), (winner, *note[1:])), [(d, d)])
            by_seat.append((t.holders[0][d], t.holder_wins[0][d], t.won[0]))
        ct = Tally(2)
        ct.add(counted((note, note)), [(d, d)])
        assert by_seat[0] == by_seat[1] == (ct.holders[0][d], ct.holder_wins[0][d], ct.won[0])


def test_a_weighted_game_counts_as_that_many_games_and_adds_its_weight_squared_to_the_variance() -> None:
    b = load_set(PLANTS / "nerf")
    a = load_set(Path(b.base or ""))
    p = plan(a, b)
    notes = PairTask(a, b, ("greedy",), 5)(2, 0, 60)
    pairs = p.pairs()
    once, repeated, weighted = Tally(2, p.watched()), Tally(2, p.watched()), Tally(2, p.watched())
    for g, pair in enumerate(notes):
        k = 3 if g % 2 else 1
        once.add(pair, pairs)
        weighted.add(pair, pairs, k)
        for _ in range(k):
            repeated.add(pair, pairs)
    assert weighted.games == repeated.games and weighted.holders == repeated.holders
    assert weighted.turns == repeated.turns and weighted.ever_played == repeated.ever_played
    for key in pairs:
        dw, dr, d1 = weighted.difference(key), repeated.difference(key), once.difference(key)
        assert dw is not None and dr is not None and d1 is not None
        assert dw[0] == pytest.approx(dr[0])
        # the same per-game terms: a weight-3 game adds 9 of its square, three repeats add 3
        assert dw[1] >= dr[1] - 1e-12
    changed = next((t.da, t.db) for t in p.tests if t.family == "changed")
    dw, dr = weighted.difference(changed), repeated.difference(changed)
    assert dw is not None and dr is not None and dw[1] > dr[1] > 0
    assert once.length_diff2() == once.turn_diff2  # weights 1: the plain sum of squares
    assert weighted.length_diff2() != weighted.turn_diff2


def _primary(res: object) -> list[tuple[object, ...]]:
    return [(t.players, t.games, v.card, v.call, v.change, v.low, v.high, v.p, v.a_rate, v.b_rate)
            for t in res.tables for v in t.verdicts if v.family != "knock-on"]  # type: ignore[attr-defined]


def test_the_designer_cards_get_the_same_figures_from_fewer_games(monkeypatch: pytest.MonkeyPatch) -> None:
    b = load_set(PLANTS / "nerf")
    a = load_set(Path(b.base or ""))
    cfg = BalanceConfig(seed=3, games=600, tables=(2,))
    skipping = compare_versions(a, b, cfg)
    monkeypatch.setattr(verdicts_module.Plan, "tested", lambda self: None)  # play every deal
    every = compare_versions(a, b, cfg)
    assert _primary(skipping) == _primary(every)
    [t_skip], [t_every] = skipping.tables, every.tables
    assert t_every.played == t_every.games == 600
    # Kick⁴ (4 copies of 110) splits the two hands in about 3 deals of 10; a quarter of the rest is played too
    assert 0.3 * 600 < t_skip.played < 0.6 * 600
    assert f"2 players: 600 games ({t_skip.played} played, the rest counted from the deal)" in "\n".join(
        verdict_lines(skipping))
    assert "2 players: 600 games (fixed game count)" in "\n".join(verdict_lines(every))
    # the other figures come from the played games, weighted: close to every deal's, not equal
    assert t_skip.length is not None and t_every.length is not None
    assert abs(t_skip.length["change"] - t_every.length["change"]) < 1.0


def test_skipping_does_not_depend_on_jobs() -> None:
    b = load_set(PLANTS / "combo-follow-up")
    a = load_set(Path(b.base or ""))
    one = compare_versions(a, b, BalanceConfig(seed=2, games=400, tables=(2,), jobs=1))
    two = compare_versions(a, b, BalanceConfig(seed=2, games=400, tables=(2,), jobs=min(2, os.cpu_count() or 1)))
    assert one.tables == two.tables
    assert one.tables[0].played < one.tables[0].games


def test_a_played_deal_plays_the_same_game_whether_dealt_for_its_hands_first_or_not() -> None:
    """With tested designs a worker deals each version once to read the opening hands and plays that very deal:
    every game it plays is the game the plain path (dealt inside `play_one`) plays."""
    b = load_set(PLANTS / "nerf")
    a = load_set(Path(b.base or ""))
    selected = PairTask(a, b, ("greedy",), 4, tested=plan(a, b).tested())(2, 0, 80)
    plain = PairTask(a, b, ("greedy",), 4)(2, 0, 80)
    played = [(g, pair) for g, pair in enumerate(selected) if not was_skipped(pair)]
    assert 10 < len(played) < 80
    assert all(pair == plain[g] for g, pair in played)
