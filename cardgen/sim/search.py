"""The searching bot (`--agent search`): determinized Monte Carlo search from its own seat's view.

At each decision it first asks the greedy heuristics which moves are worth a
look (its `CANDIDATES` best) and adds the best way of playing nothing
(passing, declining to answer) and letting go of a hold, which greedy never
does. Then, for each of its budget's iterations, it deals the cards it
cannot see at random (`view.determinized`: the other hands and the draw pile,
consistent with its view) and plays every candidate on that same deal, each
followed by greedy bots in every seat (their tie-breaks seeded alike for
every candidate) for `HORIZON` turns, and scores the state reached by the
win-chance model of `cardgen.sim.evaluate` (a finished game: 1 won, 0 lost).
Playing every candidate on the same deals compares them on equal terms
(common random numbers), and a short look-ahead scored by a model is far
less noisy than a game played out to the end, so few deals tell moves apart.
It keeps greedy's choice unless another candidate did better on the same
deals by more than chance would explain (paired t above `SWITCH_T`), and
then plays the best of those. This is the root level of information-set
Monte Carlo search (Cowling, Powley and Whitehouse, 2012) with a heuristic
prior, a cut-off and a static evaluation.

Each of the three parts is a parameter, as in OpenSpiel's ISMCTS: the `prior` that ranks the moves worth a
look (greedy's scores), the `rollout` policy that plays the look-ahead (greedy bots), and the `evaluator` that
scores the state reached (`win_chance`). A designer's new effect then needs no code here: greedy values it by
its own look-ahead, and a better model of a position plugs in as the evaluator.

It reads only its `PlayerView`; the look-ahead plays on states it dealt
itself. `iterations` counts deals; with `ms` it deals until that much wall
time has passed (at least one deal), which depends on the machine: only an
iteration budget is reproducible from the seed.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Final, Protocol

from cardgen.engine.game import Game
from cardgen.engine.moves import DECLINE, DONE, PASS, RELEASE, Move
from cardgen.engine.state import GameState
from cardgen.engine.views import PlayerView, observe
from cardgen.sim.evaluate import win_chance
from cardgen.sim.greedy import GreedyAgent, attack_value

CANDIDATES: Final = 6  # moves searched at most (greedy's best ones), and the best way of playing nothing
HOLD_BACK: Final = frozenset({PASS, DECLINE, DONE})
LET_GO: Final = frozenset({RELEASE})
SWITCH_T: Final = 0.5  # how sure (paired t) the search must be that a move beats greedy's choice before it switches
HORIZON: Final = 2  # turns a look-ahead plays before `win_chance` scores it


# Scores of a view's moves, one per move in `view.moves` (higher: more worth a look).
Prior = Callable[[PlayerView], list[float]]
# The value of a state for a seat, from 0 (lost) to 1 (won).
Evaluator = Callable[[GameState, int], float]


class Rollout(Protocol):
    """The policy that plays every seat in a look-ahead: a bot whose tie-breaks can be seeded alike for each
    candidate move."""

    def choose(self, view: PlayerView) -> Move: ...

    def reseed(self, seed: int) -> None: ...


def attack_values(game: Game) -> list[float]:
    """Each design's value as an attack (greedy's), for `win_chance` (kept by the game: `Game.derived`)."""
    return [attack_value(ci) for ci in game.info]


def modelled_win_chance(s: GameState, seat: int) -> float:
    """The default evaluator: `win_chance` with greedy's attack values (a finished game: 1 won, 0 lost)."""
    return win_chance(s, seat, s.game.derived(attack_values))


class SearchAgent:
    """Determinized search over greedy's best moves, with greedy look-ahead (see module doc)."""

    def __init__(self, seed: int | None = None, iterations: int | None = 50, ms: float | None = None,
                 prior: Prior | None = None, rollout: Rollout | None = None,
                 evaluator: Evaluator | None = None) -> None:
        """`prior`, `rollout`, `evaluator`: the search's parts (default: greedy's scores, greedy bots seeded from
        `seed`, `modelled_win_chance`)."""
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.ms = ms
        self.searched = 0  # decisions searched (more than one candidate)
        self.rollouts = 0
        greedy = GreedyAgent(self.rng.getrandbits(63))
        self._prior: Prior = prior if prior is not None else greedy.scores
        self._rollout: Rollout = rollout if rollout is not None else greedy
        self._evaluate: Evaluator = evaluator if evaluator is not None else modelled_win_chance

    def candidates(self, view: PlayerView) -> list[Move]:
        """The prior's best moves, best first (ties in the order the engine lists them)."""
        moves = view.moves
        scores = self._prior(view)
        ranked = sorted(range(len(moves)), key=lambda i: -scores[i])
        out = [moves[i] for i in ranked[:CANDIDATES]]
        # Always weigh playing nothing (taking the hit, keeping the card): greedy defends against every attack,
        # even a 1-damage one with its last Block, and only a search can tell when that is a waste.
        # And letting go of a hold, which greedy never does: a hold that ties its holder's hands can cost more
        # than it deals.
        for kinds in (HOLD_BACK, LET_GO):
            extra = next((moves[i] for i in ranked if moves[i].kind in kinds), None)
            if extra is not None and extra not in out:
                out.append(extra)
        return out

    def choose(self, view: PlayerView) -> Move:
        moves = view.moves
        if len(moves) == 1:
            return moves[0]
        cands = self.candidates(view)
        if len(cands) == 1:
            return cands[0]
        self.searched += 1
        values: list[list[float]] = [[] for _ in cands]
        deadline = time.perf_counter() + self.ms / 1000 if self.ms is not None else None
        deals = 0
        while deals == 0 or (time.perf_counter() < deadline if deadline is not None
                             else deals < (self.iterations or 1)):
            deal = view.determinized(self.rng)
            bot_seed = self.rng.getrandbits(63)
            for i, m in enumerate(cands):
                # the same deal, shuffles and bot tie-breaks for every candidate: only the move differs
                self._rollout.reseed(bot_seed)
                values[i].append(self._play_out(deal.copy() if i < len(cands) - 1 else deal, m, view.seat))
            deals += 1
        self.rollouts += deals * len(cands)
        return cands[self._pick(values)]

    @staticmethod
    def _pick(values: list[list[float]]) -> int:
        """Greedy's choice (candidate 0) unless another did better on the same deals by more than chance would
        explain (a paired t above SWITCH_T): a few noisy deals should not talk the bot out of a sound move."""
        best, best_gain = 0, 0.0
        base = values[0]
        n = len(base)
        for i in range(1, len(values)):
            diffs = [a - b for a, b in zip(values[i], base, strict=True)]
            mean = sum(diffs) / n
            if mean <= best_gain:
                continue
            var = sum((d - mean) ** 2 for d in diffs) / max(n - 1, 1)
            if var == 0 or mean / math.sqrt(var / n) > SWITCH_T:
                best, best_gain = i, mean
        return best

    def _play_out(self, s: GameState, move: Move, me: int) -> float:
        """Play `move`, then the rollout policy for up to HORIZON turns; the evaluator scores the result for `me`."""
        s.push(move, False)
        views = [observe(s, q) for q in range(len(s.life))]
        bot = self._rollout
        stop = s.turn + HORIZON
        while s.result is None and s.turn < stop:
            s.push(bot.choose(views[s.to_act]), False)
        return self._evaluate(s, me)
