"""The bots a simulation can seat, by name: `random` (the engine's) and `greedy` (ours).

Each agent gets its own seed so a game is reproducible from (run seed, game
index) alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from cardgen.engine.agents import Agent, RandomAgent
from cardgen.errors import CardgenError
from cardgen.sim.greedy import GreedyAgent
from cardgen.sim.search import SearchAgent
from cardgen.suggest import did_you_mean


@dataclass(frozen=True)
class Budget:
    """The search bot's thinking time a decision: `iterations` (reproducible) or `ms` of wall time (not)."""

    iterations: int | None = None
    ms: float | None = None

    def __str__(self) -> str:
        return f"{self.ms:g}ms" if self.ms is not None else str(self.iterations)


DEFAULT_BUDGET = "30"


def _random(seed: int, budget: Budget) -> Agent:
    return RandomAgent(seed)


def _greedy(seed: int, budget: Budget) -> Agent:
    return GreedyAgent(seed)


def _search(seed: int, budget: Budget) -> Agent:
    return SearchAgent(seed, iterations=budget.iterations, ms=budget.ms)


AGENTS: dict[str, Callable[[int, Budget], Agent]] = {
    "random": _random,
    "greedy": _greedy,
    "search": _search,
}


class UnknownAgentError(CardgenError):
    """An --agent value that names no bot, or a --budget that is no budget."""


MAX_ITERATIONS = 100_000  # deals a decision: some seconds each, and a game has hundreds of decisions
MAX_MS = 60_000.0  # a minute a decision


def parse_budget(text: str) -> Budget:
    """`200` (iterations a decision, at most MAX_ITERATIONS) or `50ms` (milliseconds a decision, at most MAX_MS)."""
    m = re.fullmatch(r"\s*(\d{1,20}(?:\.\d{1,20})?)\s*(ms)?\s*", text)
    if m is None or float(m[1]) <= 0 or (m[2] is None and "." in m[1]):
        raise UnknownAgentError(f"--budget must be a whole number of iterations (e.g. 200) or milliseconds "
                                f"(e.g. 50ms), not '{text}'")
    if (m[2] is None and int(m[1]) > MAX_ITERATIONS) or (m[2] is not None and float(m[1]) > MAX_MS):
        raise UnknownAgentError(f"--budget '{text.strip()}' is over the limit of {MAX_ITERATIONS:,} iterations or "
                                f"{MAX_MS:,.0f}ms a decision")
    return Budget(ms=float(m[1])) if m[2] else Budget(iterations=int(m[1]))


def agent_names(spec: str) -> tuple[str, ...]:
    """`greedy` or a comma list like `greedy,random` (rotated round the seats game by game)."""
    names = tuple(a.strip().lower() for a in spec.split(","))
    bad = [a or "(empty)" for a in names if a not in AGENTS]
    if not names or bad:
        hint = did_you_mean(bad[0], list(AGENTS)) if bad else ""
        raise UnknownAgentError(f"unknown agent '{', '.join(bad) or spec}'{hint}; choose from {', '.join(AGENTS)} "
                                "(or a comma list of them)")
    return names


def make_agent(name: str, seed: int, budget: Budget | None = None) -> Agent:
    return AGENTS[name](seed, budget or parse_budget(DEFAULT_BUDGET))
