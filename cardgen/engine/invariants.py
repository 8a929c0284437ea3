"""Checks that hold after every move of every game; tests run them, the engine never needs them.

Each check returns human-readable problems (empty when all is well), so a
failing property test says what broke, not only that something did.

`check_state` looks at every card (its cost grows with the deck); `Checker` runs the same checks after
every move at a cost that does not: cards are counted per pile and compared through a multiset
fingerprint (a random 61-bit weight per design, summed), whose sums over the two big piles follow what
changed since the last check (the draw pile only shrinks from its top, the discard pile only grows,
until a reshuffle swaps them), and the damage limits are worked out once per game.
"""

from __future__ import annotations

import random
from collections.abc import Collection
from dataclasses import dataclass

from cardgen.engine.events import Damage, Healed
from cardgen.engine.frozen import init_args
from cardgen.engine.game import Game
from cardgen.engine.primitives import STRIKES
from cardgen.engine.state import DropF, GameState
from cardgen.primitives import Effect


@dataclass(frozen=True)
class Snapshot:
    """The parts of a state compared across one move."""

    turn: int
    life: tuple[int, ...]
    log_len: int

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return Snapshot, init_args(self)  # (cardgen/engine/frozen.py)


def snapshot(s: GameState) -> Snapshot:
    return Snapshot(s.turn, tuple(s.life), len(s.log) if s.log is not None else 0)


def check_state(s: GameState) -> list[str]:
    """Problems with one state on its own: card conservation, life accounting, statuses, who acts."""
    out: list[str] = []
    zones = [c for h in s.hands for c in h] + s.draw + s.discard + s.table
    if len(zones) != s.game.deck_total:
        out.append(f"{len(zones)} cards in play, the deck has {s.game.deck_total}")
    if tuple(sorted(zones)) != s.game.deck:  # the deck is in design order: sorted, as multisets compare
        out.append("the cards in play are not the deck's cards")
    return out + _table_problems(s)


def _table_problems(s: GameState) -> list[str]:
    """`check_state` but the cards: life, statuses, holds, who acts (a cost that grows with the players)."""
    out: list[str] = []
    total = s.game.start_life * s.n
    if sum(s.life) + s.pool != total:
        out.append(f"life {sum(s.life)} + lost pool {s.pool} != {total}")
    if s.pool < 0:
        out.append(f"lost pool is negative ({s.pool})")
    dropping = {f.player for f in s.stack if isinstance(f, DropF)}
    for p in range(s.n):
        name = s.game.names[p]
        if s.life[p] > s.game.start_life:
            out.append(f"{name} has {s.life[p]}, over the starting {s.game.start_life}")
        if s.life[p] < 0 and not s.game.rules.negative_life:
            out.append(f"{name} has negative life {s.life[p]} in a set without negative life")
        if s.down[p] and s.hands[p]:
            out.append(f"{name} is unconscious but holds {len(s.hands[p])} cards")
        if not s.down[p] and s.life[p] <= 0 and p not in dropping:
            out.append(f"{name} is conscious at {s.life[p]}")
        if s.down[p] and s.life[p] > 0:
            out.append(f"{name} is unconscious at {s.life[p]}")
    for h in s.holds:
        if s.down[h.holder] or s.down[h.victim]:
            out.append(f"hold of {s.game.names[h.holder]} on {s.game.names[h.victim]} outlives an unconscious player")
    return out + _acting_problems(s)


def _acting_problems(s: GameState) -> list[str]:
    """Who acts: someone who may, with sorted unique moves, until the game is over (and nobody after)."""
    out: list[str] = []
    if s.result is None:
        p = s.to_act
        if p < 0 or not s.moves:
            out.append("nobody is to act but the game is not over")
        else:
            if s.down[p]:
                out.append(f"unconscious {s.game.names[p]} is to act")
            if s.stunned(p):
                out.append(f"stunned {s.game.names[p]} is to act")
            if s.vomiting(p):
                out.append(f"vomiting {s.game.names[p]} is to act")
            if s.moves != sorted(set(s.moves)):
                out.append("legal moves are not sorted and unique")
    elif s.moves:
        out.append("the game is over but moves are offered")
    return out


@dataclass(frozen=True)
class Limits:
    """The most a single damage event may take and a single heal may give, by card design."""

    damage: tuple[int, ...]
    heal: tuple[int, ...]

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return Limits, init_args(self)  # (cardgen/engine/frozen.py)


def limits(game: Game) -> Limits:
    """Damage: a strike (times any combo multiplier), a hold's tick, or a retaliation; heal: the card's amount."""
    info = game.info
    mult = max([ci.opener.multiplier for ci in info if ci.opener is not None] + [1])
    return Limits(tuple(max([x * mult for x in ci.damage] + [ci.retaliates, ci.ongoing.damage if ci.ongoing else 0]
                            + _effect_amounts(ci.effects, STRIKES)) for ci in info),
                  tuple(max([ci.heal_turn, ci.heal_drop, *_effect_amounts(ci.effects, ("heal",))]) for ci in info))


def _effect_amounts(effects: tuple[Effect, ...], ops: Collection[str]) -> list[int]:
    """The amounts of a card's effects of kinds `ops` (damage dealt, life restored)."""
    return [e.number("amount") for e in effects if e.op in ops]


def check_step(before: Snapshot, s: GameState, known: Limits | None = None) -> list[str]:
    """Problems across one move: life changed only by damage and heals that cards account for;
    hands refilled at turn ends. `known`: the game's `limits`, if already worked out."""
    out: list[str] = []
    if s.log is not None:
        delta = [0] * s.n
        names, info = s.game.names, s.game.info
        lim = known or limits(s.game)
        most, heals = lim.damage, lim.heal
        for e in s.log[before.log_len:]:
            if isinstance(e, Damage):
                delta[e.player] -= e.amount
                if not 0 < e.amount <= most[e.why]:
                    out.append(f"{names[e.player]} lost {e.amount} to {info[e.why].name}, which cannot deal that much")
            elif isinstance(e, Healed):
                delta[e.player] += e.amount
                if not 0 <= e.amount <= heals[e.card]:
                    out.append(f"{names[e.player]} regained {e.amount} from {info[e.card].name}, which cannot heal "
                               "that much")
        for p in range(s.n):
            if before.life[p] + delta[p] != s.life[p]:
                out.append(f"{s.game.names[p]}'s life went {before.life[p]} -> {s.life[p]}, the cards say "
                           f"{delta[p]:+d}")
    if s.turn != before.turn and (s.draw or s.discard):
        size = s.game.rules.hand_size
        for p in range(s.n):
            if not s.down[p] and len(s.hands[p]) < size:
                out.append(f"turn {s.turn} began with {s.game.names[p]} holding {len(s.hands[p])} < {size} cards")
    return out


class Checker:
    """`check_state` and `check_step` after every move of one game, at a cost that does not grow with the deck
    (see the module docstring); `check_state` at the end of the game still looks at every card."""

    def __init__(self, game: Game, seed: int = 0) -> None:
        # Worked out afresh for every game (no module-level memo): a few microseconds against the checks of a game.
        rng = random.Random(seed)
        self.weight = [rng.getrandbits(61) for _ in game.info]
        self.total = sum(map(self.weight.__getitem__, game.deck))
        self.limits = limits(game)
        self.count = game.deck_total
        self._draw: list[int] | None = None
        self._seen: list[int] = []  # the draw pile as it was when last summed
        self._draw_weight = 0
        self._discard: list[int] | None = None
        self._discard_len = 0
        self._discard_weight = 0
        self._discard_last = -1

    def _draw_weight_of(self, draw: list[int], rest: int) -> int:
        """The draw pile only loses cards from its top until a reshuffle replaces it: take off what left.

        `rest`: the weight of every other pile. A new draw pile (at the first check of a game, or after a
        reshuffle) is taken to hold what the other piles leave: that one check only counts its cards, and
        `check_state` checks every card at the start and the end of every game."""
        n, seen = len(draw), self._seen
        if draw is not self._draw:
            self._draw, self._seen, self._draw_weight = draw, list(draw), self.total - rest
        elif n > len(seen) or (n and seen[n - 1] != draw[-1]):  # not a pile that lost its top: sum it all
            self._seen, self._draw_weight = list(draw), sum(map(self.weight.__getitem__, draw))
        elif n < len(seen):
            self._draw_weight -= sum(map(self.weight.__getitem__, seen[n:]))
            del seen[n:]
        return self._draw_weight

    def _discard_weight_of(self, pile: list[int]) -> int:
        """The discard pile only grows until a reshuffle takes it: add what came."""
        n, k = len(pile), self._discard_len
        if pile is not self._discard or n < k or (k and pile[k - 1] != self._discard_last):
            self._discard, k, self._discard_weight = pile, 0, 0
        self._discard_weight += sum(map(self.weight.__getitem__, pile[k:]))
        self._discard_len = n
        if n:
            self._discard_last = pile[-1]
        return self._discard_weight

    def state(self, s: GameState) -> list[str]:
        out: list[str] = []
        w = self.weight
        count = sum(len(h) for h in s.hands) + len(s.draw) + len(s.discard) + len(s.table)
        if count != self.count:
            out.append(f"{count} cards in play, the deck has {self.count}")
        rest = (sum(w[c] for h in s.hands for c in h) + sum(w[c] for c in s.table)
                + self._discard_weight_of(s.discard))
        weight = rest + self._draw_weight_of(s.draw, rest)
        if weight != self.total:
            out.append("the cards in play are not the deck's cards")
        return out + _table_problems(s)

    def step(self, before: Snapshot, s: GameState) -> list[str]:
        return check_step(before, s, self.limits)
