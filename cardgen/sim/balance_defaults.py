"""The balance procedure's defaults, in a module light enough for the CLI to read at start-up (no engine).

One set of defaults for `compare`, `validate` and `simulate`'s summary (docs/simulation.md, "Balance verdicts").
The games stop on counts only, never on the clock, so a verdict depends on the files and the seed alone.
"""

from __future__ import annotations

import os

TABLES: tuple[int, ...] = (2, 4)  # table sizes played, each with its own verdicts
AGENTS: tuple[str, ...] = ("greedy",)  # bots that play every card for what it says
ALPHA = 0.05  # chance of calling an unchanged card, per family of tests (split between the table sizes)
MIN_EFFECT = 3.0  # points of win rate: a smaller change does not matter to a designer (about one game in 33)
MAX_GAMES = 8_000  # per table size: the game budget in games played (what the stopping rule may play before it
# says "not clear"); deals counted without a game (`balance.informative`) are not charged against it...
DEAL_CAP = 3  # ...but they are not free (keyed decks, dealing both versions): at most this many times MAX_GAMES deals


def default_jobs() -> int:
    """Worker processes by default: every core (the verdicts do not depend on it)."""
    return max(1, os.cpu_count() or 1)
