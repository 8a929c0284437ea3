"""Players that pick moves from their seat's view: a uniformly random legal agent, and a loop that plays a
whole game (each agent sees only `observe(state, its seat)`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from cardgen.engine.cards import CardInfo
from cardgen.engine.game import Game
from cardgen.engine.moves import Move
from cardgen.engine.randomness import below
from cardgen.engine.rules import new_game
from cardgen.engine.state import GameState
from cardgen.engine.views import Agent, PlayerView, observe
from cardgen.model import CardSet

__all__ = ["Agent", "RandomAgent", "play_game"]


class RandomAgent:
    """Picks uniformly among the legal moves, from its own seeded `random.Random`."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Move:
        moves = view.moves
        return moves[below(self.rng, len(moves))]


def play_game(cs: CardSet, agents: Sequence[Agent], seed: int | None = None, turn_cap: int | None = None,
              record: bool = False, info: tuple[CardInfo, ...] | None = None,
              check: Callable[[GameState], None] | None = None, game: Game | None = None) -> GameState:
    """Play one game to its end (the turn cap ends it at the latest); `check(state)` runs after every move;
    `game` as `new_game`'s (made once for many games)."""
    s = new_game(cs, len(agents), seed=seed, turn_cap=turn_cap, record=record, info=info, game=game)
    if check is not None:
        check(s)
    views = [observe(s, p) for p in range(len(agents))]
    while s.result is None:
        s.push(agents[s.to_act].choose(views[s.to_act]))
        if check is not None:
            check(s)
    return s
