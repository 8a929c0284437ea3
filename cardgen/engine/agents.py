"""Players that pick moves: a uniformly random legal agent, and a loop that plays a whole game."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from cardgen.engine.cards import CardInfo
from cardgen.engine.moves import Move
from cardgen.engine.rules import new_game, push
from cardgen.engine.state import GameState
from cardgen.model import CardSet


class Agent(Protocol):
    """Anything that picks one of the legal moves offered to the player to act."""

    def choose(self, state: GameState, moves: Sequence[Move]) -> Move: ...


class RandomAgent:
    """Picks uniformly among the legal moves, from its own seeded `random.Random`."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: GameState, moves: Sequence[Move]) -> Move:
        # `rng.choice(moves)`, inline (this runs once per decision): the same number drawn, with no Python calls.
        n = len(moves)
        bits = self.rng.getrandbits
        k = n.bit_length()
        r = bits(k)
        while r >= n:
            r = bits(k)
        return moves[r]


def play_game(cs: CardSet, agents: Sequence[Agent], seed: int | None = None, turn_cap: int | None = None,
              record: bool = False, info: tuple[CardInfo, ...] | None = None,
              check: Callable[[GameState], None] | None = None) -> GameState:
    """Play one game to its end (the turn cap ends it at the latest); `check(state)` runs after every move."""
    s = new_game(cs, len(agents), seed=seed, turn_cap=turn_cap, record=record, info=info)
    if check is not None:
        check(s)
    while s.result is None:
        push(s, agents[s.to_act].choose(s, s.moves))
        if check is not None:
            check(s)
    return s
