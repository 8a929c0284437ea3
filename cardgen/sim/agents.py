"""The bots a simulation can seat, by name: `random` (the engine's) and `greedy` (ours).

Each agent gets its own seed so a game is reproducible from (run seed, game
index) alone.
"""

from __future__ import annotations

from collections.abc import Callable

from cardgen.engine.agents import Agent, RandomAgent
from cardgen.errors import CardgenError
from cardgen.sim.greedy import GreedyAgent

AGENTS: dict[str, Callable[[int], Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
}


class UnknownAgentError(CardgenError):
    """An --agent value that names no bot."""


def agent_names(spec: str) -> tuple[str, ...]:
    """`greedy` or a comma list like `greedy,random` (rotated round the seats game by game)."""
    names = tuple(a.strip().lower() for a in spec.split(","))
    bad = [a or "(empty)" for a in names if a not in AGENTS]
    if not names or bad:
        raise UnknownAgentError(f"unknown agent '{', '.join(bad) or spec}'; choose from {', '.join(AGENTS)} "
                                "(or a comma list of them)")
    return names


def make_agent(name: str, seed: int) -> Agent:
    return AGENTS[name](seed)
