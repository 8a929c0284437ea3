"""The engine's fast shuffle and draw are the standard library's, number for number (seeds keep their games)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.engine.randomness import below, shuffle


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
