"""The engine's fast shuffle and draw are the standard library's, number for number (seeds keep their games); the
bytes shuffle of a look-ahead's deal is uniform and cheap."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.engine.randomness import below, shuffle, shuffle_bytes


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 300))
def test_shuffle_matches_random_shuffle(seed: int, n: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    a, b = list(range(n)), list(range(n))
    shuffle(ours, a)
    theirs.shuffle(b)
    assert a == b
    assert ours.getstate() == theirs.getstate()  # the same numbers were drawn, so later draws agree too


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32), st.lists(st.integers(1, 10_000), min_size=1, max_size=20))
def test_below_matches_randrange(seed: int, sizes: list[int]) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    assert [below(ours, n) for n in sizes] == [theirs.randrange(n) for n in sizes]
    assert ours.getstate() == theirs.getstate()


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32), st.lists(st.integers(0, 60), max_size=140))
def test_bytes_shuffle_keeps_the_cards(seed: int, cards: list[int]) -> None:
    x = list(cards)
    shuffle_bytes(random.Random(seed), x)
    assert sorted(x) == sorted(cards)


def test_bytes_shuffle_is_uniform() -> None:
    """Every order of five cards about equally often: a chi-square test over the 120 orders of 60,000 shuffles
    (the 0.9999 quantile of chi-square with 119 degrees of freedom is about 185)."""
    rng = random.Random(7)
    seen: Counter[tuple[int, ...]] = Counter()
    for _ in range(60_000):
        x = [0, 1, 2, 3, 4]
        shuffle_bytes(rng, x)
        seen[tuple(x)] += 1
    assert len(seen) == 120
    expected = 60_000 / 120
    assert sum((c - expected) ** 2 / expected for c in seen.values()) < 185


class _Counting(random.Random):
    calls = 0

    def getrandbits(self, k: int) -> int:
        self.calls += 1
        return super().getrandbits(k)


def test_bytes_shuffle_draws_once_for_a_deck() -> None:
    """A hundred cards: one call for their bytes, where `shuffle` makes one a card; past 256 cards (an index needs
    more than a byte) it is `shuffle` itself."""
    rng, plain = _Counting(1), _Counting(1)
    shuffle_bytes(rng, list(range(100)))
    shuffle(plain, list(range(100)))
    assert plain.calls >= 99 and rng.calls == 1
    big, same = list(range(300)), list(range(300))
    shuffle_bytes(random.Random(4), big)
    random.Random(4).shuffle(same)
    assert big == same
