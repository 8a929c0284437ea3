"""`random.Random`'s `shuffle` and `randrange`, without their per-element Python calls; and a cheaper shuffle.

The hot loop shuffles the discard pile several times a game and picks a
random move at every decision; the standard methods spend most of their time
in a Python-level `_randbelow` call per number drawn. These draw exactly the
same `getrandbits` numbers in the same order (CPython 3.11's algorithm), so a
seed gives the same games as before, and the same whatever the Python version.
"""

from __future__ import annotations

import random
from typing import TypeVar

T = TypeVar("T")


def below(rng: random.Random, n: int) -> int:
    """A uniform integer in [0, n) for n > 0: `random.Random._randbelow_with_getrandbits`."""
    bits = rng.getrandbits
    k = n.bit_length()  # not (n - 1): n may be 1, and that still draws one bit
    r = bits(k)
    while r >= n:
        r = bits(k)
    return r


def shuffle(rng: random.Random, x: list[T]) -> None:
    """`rng.shuffle(x)` in place (Fisher-Yates from the end, the same numbers drawn)."""
    bits = rng.getrandbits
    k = len(x).bit_length()  # `n.bit_length()` for each n below, kept up to date as n falls by one
    half = 1 << k >> 1
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        if n < half:
            k -= 1
            half >>= 1
        j = bits(k)
        while j >= n:
            j = bits(k)
        x[i], x[j] = x[j], x[i]



def _bytes(rng: random.Random, n: int) -> bytes:
    """`rng.randbytes(n)` as CPython's `random.py` defines it, without its Python-level call."""
    return rng.getrandbits(8 * n).to_bytes(n, "little")


def shuffle_bytes(rng: random.Random, x: list[T]) -> None:
    """A uniform shuffle of `x` in place that draws its random numbers as bytes, a byte an index (Fisher-Yates with
    rejection on just enough of the byte's bits), one generator call for the whole list: for the deals a bot looks
    ahead on, where no earlier games need the very numbers of `random.shuffle`. A list of more than 256 items
    (an index needs more than a byte) is shuffled by `shuffle`."""
    n = len(x)
    if n > 256:
        shuffle(rng, x)
        return
    spare = _bytes(rng, 2 * n)  # (a card needs 1.4 bytes on average, with rejections)
    size = len(spare)
    used = 0
    mask = (1 << (n - 1).bit_length()) - 1  # `i.bit_length()` low bits, kept up to date as i falls by one
    for i in range(n - 1, 0, -1):
        if i <= mask >> 1:
            mask >>= 1
        j = spare[used] & mask if used < size else 256
        used += 1
        while j > i:
            if used >= size:
                spare = _bytes(rng, n)
                size = n
                used = 0
            j = spare[used] & mask
            used += 1
        x[i], x[j] = x[j], x[i]
