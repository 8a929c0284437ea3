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


def _fisher_yates_on_bytes(rng: random.Random, x: list[int]) -> None:
    """The bytes shuffle's algorithm written plainly: from the end, each index drawn from a byte masked to the
    bits of the current bound and rejected while above it; bytes drawn 2n at first, then n at a time."""
    n = len(x)
    spare, used = rng.randbytes(2 * n), 0  # (`random.py`'s randbytes: getrandbits(8 n), little-endian)
    for i in range(n - 1, 0, -1):
        mask = (1 << i.bit_length()) - 1
        while True:
            if used == len(spare):
                spare, used = rng.randbytes(n), 0
            j = spare[used] & mask
            used += 1
            if j <= i:
                break
        x[i], x[j] = x[j], x[i]


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 256))
def test_bytes_shuffle_is_the_plain_algorithm(seed: int, n: int) -> None:
    """The deals a bot looks ahead on stay the same deals: the bytes shuffle draws and swaps exactly as the plain
    algorithm (every size up to 256, where a byte still holds an index)."""
    ours, plain = random.Random(seed), random.Random(seed)
    a, b = list(range(n)), list(range(n))
    shuffle_bytes(ours, a)
    _fisher_yates_on_bytes(plain, b)
    assert a == b
    assert ours.getstate() == plain.getstate()


class _Wasteful(random.Random):
    """A generator whose first bytes are all rejected (0xFF is above every bound but 255, 127...): the shuffle
    must draw more bytes midway."""

    def getrandbits(self, k: int) -> int:
        first = not getattr(self, "started", False)
        self.started = True
        return (1 << k) - 1 if first else super().getrandbits(k)

    def randbytes(self, n: int) -> bytes:
        return self.getrandbits(8 * n).to_bytes(n, "little")


def test_bytes_shuffle_draws_more_bytes_as_the_plain_algorithm() -> None:
    for n in (2, 3, 5, 40, 100, 129, 200, 256):
        ours, plain = _Wasteful(n), _Wasteful(n)
        a, b = list(range(n)), list(range(n))
        shuffle_bytes(ours, a)
        _fisher_yates_on_bytes(plain, b)
        assert a == b, n
        assert ours.getstate() == plain.getstate(), n


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
