"""Per-game seeds derived from (run seed, game index): a game plays the same whichever worker runs it.

A hash rather than one `random.Random(seed)` stream, because a stream would
make game i depend on how many draws games 0..i-1 took, and workers would have
to replay them all.
"""

from __future__ import annotations

import hashlib


def derive_seed(seed: int, *path: int) -> int:
    """A 63-bit seed for the game (and seat, ...) named by `path` under the run seed `seed`."""
    text = ":".join(str(x) for x in (seed, *path)).encode("ascii")
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1
