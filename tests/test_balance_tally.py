"""The tally's variance is the delta-method sum over games, kept as moments instead of per-game terms.

The reference below computes that sum the plain way: every game's influence on the difference, squared, times
the game's squared weight. The tally must give the same figure (to rounding) for every tested pair, for a set
alone (a card against its band, the same game in both slots) and for two versions, with weights and with games
that have no winner.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.loader import load_set
from cardgen.model import CardSet
from cardgen.sim.balance.games import GameNote, PairedNote, PairTask
from cardgen.sim.balance.tally import Tally
from cardgen.sim.balance.verdicts import plan

PLANTS = Path(__file__).parent / "fixtures" / "balance_plants"


def _held(note: GameNote | None, d: int) -> tuple[int, int, int]:
    """(1 if the winner started with design d, seats that started with it, 1 if the game had a winner)."""
    if note is None:
        return 0, 0, 0
    winner, masks = note[0], note[1]
    n = sum(1 for m in masks if m >> d & 1)
    x = 1 if winner >= 0 and masks[winner] >> d & 1 else 0
    return x, n, 1 if winner >= 0 else 0


def _reference(games: list[tuple[PairedNote, int]], seats: int, key: tuple[int, int]) -> tuple[float, float]:
    total = sum(w for _, w in games)
    parts = []
    estimate = 0.0
    for v, d, sign in ((0, key[0], -1), (1, key[1], 1)):
        if d < 0:
            parts.append(None)
            continue
        n1 = sum(w * _held(pair[v], d)[1] for pair, w in games)
        w1 = sum(w * _held(pair[v], d)[0] for pair, w in games)
        won = sum(w * _held(pair[v], d)[2] for pair, w in games)
        n0 = seats * total - n1
        p1, p0 = w1 / n1, (won - w1) / n0
        estimate += sign * (p1 - p0)
        parts.append((v, d, sign, p1, p0, n1, n0))
    var = 0.0
    for pair, w in games:
        psi = 0.0
        for part in parts:
            if part is None:
                continue
            v, d, sign, p1, p0, n1, n0 = part
            x, n, won_game = _held(pair[v], d)
            psi += sign * ((x - p1 * n) / n1 - ((won_game - x) - p0 * (seats - n)) / n0)
        var += w * w * psi * psi
    return estimate, var


def _check(a: CardSet, b: CardSet | None, players: int, count: int) -> int:
    p = plan(a, b)
    pairs = p.pairs()
    notes = PairTask(a, b, ("greedy",), 11)(players, 0, count)
    games: list[tuple[PairedNote, int]] = []
    tally = Tally(players)
    for g, (na, nb) in enumerate(notes):
        if g % 7 == 3:  # a game with no winner in A (as a stalemate leaves it)
            na = (-1, *na[1:])
        w = 3 if g % 5 == 0 else 1
        games.append(((na, nb), w))
        tally.add((na, nb), pairs, w)
    for key in pairs:
        got = tally.difference(key)
        assert got is not None
        want = _reference(games, players, key)
        assert got[0] == pytest.approx(want[0], rel=1e-12, abs=1e-15)
        assert got[1] == pytest.approx(want[1], rel=1e-9, abs=1e-18)
    return len(pairs)


def test_a_set_alone_every_card_against_its_band() -> None:
    assert _check(load_set("beer"), None, 2, 120) > 100  # every card against the cards of its role


def test_two_versions_at_four_players() -> None:
    b = load_set(PLANTS / "nerf")
    assert _check(load_set(Path(b.base or "")), b, 4, 120) > 10


def test_joint_moments_are_kept_for_tested_pairs_only() -> None:
    b = load_set(PLANTS / "nerf")
    a = load_set(Path(b.base or ""))
    notes = PairTask(a, b, ("greedy",), 2)(2, 0, 40)
    pairs = plan(a, b).pairs()
    tally = Tally(2)
    for pair in notes:
        tally.add(pair, pairs)
    assert not set(tally.cross) - set(pairs)  # nothing is kept for a pair that is not tested
