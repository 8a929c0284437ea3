"""A static estimate of a seat's chance to win a game in progress, for the searching bot's short look-aheads.

Life alone is a poor guide (a player at 6 life with three defences in hand
is far safer than one at 8 with none), and a look-ahead played to the end of
the game is too noisy to tell moves apart. So the searching bot plays a few
turns and scores the state with a logistic model of the chance to win: the
differences between the seat and its strongest rival in life (as a share of
the starting life, and its low end, where a hit can knock a player out),
defences, heals, the best attack in hand, hand size, turns left stunned and
holds kept up, plus whose turn it is.

The weights were fit (maximum likelihood) on positions of two-player Beer
Money games between greedy bots (`bench/fit_eval.py` refits them and prints
them): designed for that game, they read any set through the card facts, so
they give a sensible order for other sets too, if a less exact one.
"""

from __future__ import annotations

import math
from typing import Final

from cardgen.engine.cards import CardInfo
from cardgen.engine.state import GameState

# Weights of `features`: bench/fit_eval.py, 62,078 positions of 6,000 two-player Beer Money games between greedy
# bots from seed 50,000.
WEIGHTS: Final[tuple[float, ...]] = (2.965, 0.369, 0.312, 0.296, 0.415, -0.652, -0.304, -1.167, 0.227)
LOW_LIFE: Final = 4  # life at or below this is in reach of one hit: counted again as its own feature
MAX_DEFENCES: Final = 3  # defences beyond this many add nothing
MAX_HEAL: Final = 6  # healing in hand beyond this adds nothing
# The weights one by one, in `features`' order (compiled: unboxed, where reading the tuple unboxes each time).
_W0: Final = WEIGHTS[0]
_W1: Final = WEIGHTS[1]
_W2: Final = WEIGHTS[2]
_W3: Final = WEIGHTS[3]
_W4: Final = WEIGHTS[4]
_W5: Final = WEIGHTS[5]
_W6: Final = WEIGHTS[6]
_W7: Final = WEIGHTS[7]
_W8: Final = WEIGHTS[8]


class Side:
    """One seat's figures (`side`), as a native object: compiled, its figures stay unboxed floats, where a tuple's
    items are objects to unbox at every read (`win_chance` reads them at most decisions of a look-ahead)."""

    __slots__ = ("best", "defences", "hand", "heal", "holds", "life", "lost", "low")

    def __init__(self, s: GameState, p: int, attack: list[float]) -> None:
        info: tuple[CardInfo, ...] = s.game.info
        full = s.game.start_life
        life = 0 if s.down[p] else max(s.life[p], 0)
        defences = heal = 0
        best = 0.0
        hand = s.hands[p]
        for d in hand:
            ci = info[d]
            if ci.defend_as or ci.humiliate is not None:
                defences += 1
            heal += max(ci.heal_turn, ci.heal_drop)
            if ci.turn_play and attack[d] > best:
                best = attack[d]
        holds = 0
        for h in s.holds:
            if h.holder == p:
                holds += 1
        self.life: float = life / full
        self.low: float = min(life, LOW_LIFE) / LOW_LIFE
        self.defences: float = float(min(defences, MAX_DEFENCES))  # (compiled: a float is no int)
        self.heal: float = min(heal, MAX_HEAL) / 2
        self.best: float = best / 4
        self.hand: float = len(hand) / 5
        self.lost: float = float(max(0, s.stun_until[p] - s.turn + 1) + s.skips[p])
        self.holds: float = float(holds)

    def figures(self) -> tuple[float, ...]:
        return (self.life, self.low, self.defences, self.heal, self.best, self.hand, self.lost, self.holds)


def side(s: GameState, p: int, attack: list[float]) -> tuple[float, ...]:
    """One seat's figures: life, low life, defences, heals, best attack, hand size, turns it will lose (stunned,
    or skipped: a card's `skip_turns`), holds kept up."""
    return Side(s, p, attack).figures()


def features(s: GameState, me: int, attack: list[float]) -> list[float]:
    """`me`'s figures minus its strongest conscious rival's, and +1 on `me`'s own turn (-1 otherwise).
    `attack`: each design's value as an attack (the greedy bot's `attack_value`)."""
    a, b = side(s, me, attack), side(s, rival_of(s, me), attack)
    return [x - y for x, y in zip(a, b, strict=True)] + [1.0 if s.current == me else -1.0]


def rival_of(s: GameState, me: int) -> int:
    """`me`'s strongest conscious rival (the first of the most life), or its strongest rival if all are down."""
    life, down = s.life, s.down
    best = -1
    for awake in (True, False):
        for q in range(len(life)):
            if q != me and (not awake or not down[q]) and (best < 0 or life[q] > life[best]):
                best = q
        if best >= 0:
            return best
    return best


def win_chance(s: GameState, me: int, attack: list[float]) -> float:
    """The estimated chance that `me` wins from `s` (1 or 0 once the game is over, 0.5 for a draw)."""
    if s.result is not None:
        w = s.result.winner
        return 0.5 if w is None else 1.0 if w == me else 0.0
    if s.down[me]:
        return 0.0
    # `features` summed in its order (so the very same float), without building its list: bots ask this often
    a, b = Side(s, me, attack), Side(s, rival_of(s, me), attack)
    z = 0.0
    z += _W0 * (a.life - b.life)
    z += _W1 * (a.low - b.low)
    z += _W2 * (a.defences - b.defences)
    z += _W3 * (a.heal - b.heal)
    z += _W4 * (a.best - b.best)
    z += _W5 * (a.hand - b.hand)
    z += _W6 * (a.lost - b.lost)
    z += _W7 * (a.holds - b.holds)
    z += _W8 * (1.0 if s.current == me else -1.0)
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))
