"""The balance procedure's defaults, in a module light enough for the CLI to read at start-up (no engine).

One set of defaults for `compare`, `validate` and `simulate`'s summary (docs/simulation.md, "Balance verdicts").
"""

from __future__ import annotations

TABLES: tuple[int, ...] = (2, 4)  # table sizes played, each with its own verdicts
AGENTS: tuple[str, ...] = ("greedy",)  # bots that play every card for what it says
ALPHA = 0.05  # chance of calling an unchanged card, per family of tests (split between the table sizes)
MIN_EFFECT = 3.0  # points of win rate: a smaller change does not matter to a designer (about one game in 33)
SECONDS = 60.0  # wall-time budget of one run (all table sizes)
MAX_GAMES = 30_000  # per table size
