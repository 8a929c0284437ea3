"""What each primitive of a card's `effects:` does to the state (`cardgen.primitives` declares them).

One function per primitive that changes the state by itself, in `RUN`. A primitive that deals damage is a
strike instead (`STRIKES`: the frames put one in flight, so defences, drops and knock-outs work as for any
hit). A primitive that needs a player to choose cards returns `Pick` tasks: the effect's frame
(`frames.EffectsF`) offers each as real moves, and moves the cards once every task is done. Whom an effect
acts on is resolved here (`victims`), from the card's player's seat.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final, NamedTuple

from cardgen.engine.effect_steps import Step
from cardgen.engine.effects import clockwise, draw_one, next_seat, restore
from cardgen.engine.events import Effected, Reshuffle
from cardgen.engine.moves import Choice
from cardgen.engine.randomness import below, shuffle
from cardgen.primitives import PRIMITIVES, Pick, Way, Who

if TYPE_CHECKING:
    from cardgen.engine.state import GameState

# `Who`, `Pick` and `Way` as the plain strings a `Step` holds: compiled, naming an enum member is a Python attribute
# lookup each time, and `victims` runs for every primitive of every effect a look-ahead plays.
_SELF: Final[str] = Who.SELF.value
_CHOSEN: Final[str] = Who.CHOSEN.value
_LEFT: Final[str] = Who.LEFT.value
_RIGHT: Final[str] = Who.RIGHT.value
_OTHERS: Final[str] = Who.OTHERS.value
_ALL: Final[str] = Who.ALL.value
_MOST: Final[str] = Who.MOST.value
_RANDOM: Final[str] = Pick.RANDOM.value
_WAY_LEFT: Final[str] = Way.LEFT.value
_THROW: Final = Choice.THROW  # (the same for the choices a pick move names)
_TAKE: Final = Choice.TAKE
_GIVE: Final = Choice.GIVE

# Primitives that are strikes (`Primitive.strike`): "defended" ones by the card's defences, "sealed" by nothing.
STRIKES: Final[dict[str, str]] = {op: p.strike for op, p in PRIMITIVES.items() if p.strike}


class Task(NamedTuple):
    """`cards` cards that `picker` picks from `owner`'s hand, each going to `dest` (-1: the discard pile); `how`
    is what the PICK move says becomes of the card; `random`: the engine picks them (no decision)."""

    picker: int
    owner: int
    cards: int
    dest: int
    how: Choice
    random: bool


def victims(s: GameState, p: int, target: int, e: Step) -> list[int]:
    """The conscious players effect `e` of `p`'s card (played at `target`, -1: none) acts on, in order."""
    who = e.who or _SELF
    n = len(s.life)
    if who == _SELF:
        return [] if s.down[p] else [p]
    if who == _CHOSEN:
        return [] if target < 0 or s.down[target] else [target]
    if who in (_LEFT, _RIGHT):
        q = next_seat(s, p, 1 if who == _LEFT else -1)
        return [] if q == p else [q]
    others = clockwise(s, (p + 1) % n, p)
    if who == _OTHERS:
        return others
    if who == _ALL:
        return [*others, p] if not s.down[p] else others
    pool = others if e.moves_cards or s.down[p] else [*others, p]
    if not pool:
        return []
    life = s.life
    best = max(life[q] for q in pool) if who == _MOST else min(life[q] for q in pool)
    return [next(q for q in pool if life[q] == best)]  # ties: the first clockwise from the card's left


def _log(s: GameState, p: int, d: int, op: str, target: int, count: int) -> None:
    if s.log is not None:
        s.log.append(Effected(s.turn, p, d, op, target, count))


def _heal(s: GameState, p: int, d: int, target: int, e: Step) -> list[Task]:
    for q in victims(s, p, target, e):
        restore(s, q, e.number("amount"), p, d)
    return []


def _draw(s: GameState, p: int, d: int, target: int, e: Step) -> list[Task]:
    for q in victims(s, p, target, e):
        got = 0
        while got < e.number("cards") and draw_one(s, q):
            got += 1
        _log(s, p, d, e.op, q, got)
    return []


def _discard(s: GameState, p: int, d: int, target: int, e: Step) -> list[Task]:
    random = e.word("pick") == _RANDOM
    return [Task(q, q, e.number("cards"), -1, _THROW, random) for q in victims(s, p, target, e)]


def _steal(s: GameState, p: int, d: int, target: int, e: Step) -> list[Task]:
    random = e.word("pick") == _RANDOM
    return [Task(p, q, e.number("cards"), p, _TAKE, random) for q in victims(s, p, target, e)]


def _give(s: GameState, p: int, d: int, target: int, e: Step) -> list[Task]:
    return [Task(p, p, e.number("cards"), q, _GIVE, False) for q in victims(s, p, target, e)]


def _pass(s: GameState, p: int, d: int, target: int, e: Step) -> list[Task]:
    step = 1 if e.word("way") == _WAY_LEFT else -1
    return [Task(q, q, e.number("cards"), next_seat(s, q, step), _GIVE, False)
            for q in clockwise(s, p, -1) if next_seat(s, q, step) != q]


def _swap_hands(s: GameState, p: int, d: int, target: int, e: Step) -> list[Task]:
    for q in victims(s, p, target, e):
        if not s.down[p]:
            s.hands[p], s.hands[q] = s.hands[q], s.hands[p]
            _log(s, p, d, e.op, q, 0)
    return []


def _take_discard(s: GameState, p: int, d: int, target: int, e: Step) -> list[Task]:
    pile = s.discard
    own = pile.pop() if pile and pile[-1] == d else -1  # this card stays on top: it is not taken
    got = 0
    while got < e.number("cards") and pile and not s.down[p]:
        s.hands[p].append(pile.pop())
        got += 1
    if own >= 0:
        pile.append(own)
    _log(s, p, d, e.op, p, got)
    return []


def _shuffle_discard(s: GameState, p: int, d: int, target: int, e: Step) -> list[Task]:
    own = [d] if s.discard and s.discard[-1] == d else []
    pile = s.discard[:len(s.discard) - len(own)]
    cards = s.draw + pile
    shuffle(s.generator(), cards)
    s.draw, s.discard = cards, own  # new piles (the invariant checker counts a new draw pile afresh)
    if s.log is not None:
        s.log.append(Reshuffle(s.turn, len(cards)))
    _log(s, p, d, e.op, -1, len(pile))
    return []


def _skip_turns(s: GameState, p: int, d: int, target: int, e: Step) -> list[Task]:
    for q in victims(s, p, target, e):
        s.skips[q] += e.number("turns")
        _log(s, p, d, e.op, q, e.number("turns"))
    return []


def _reveal_hand(s: GameState, p: int, d: int, target: int, e: Step) -> list[Task]:
    for q in victims(s, p, target, e):
        s.revealed.append((p, q, tuple(sorted(s.hands[q]))))
        _log(s, p, d, e.op, q, len(s.hands[q]))
    return []


def _stun(s: GameState, p: int, d: int, target: int, e: Step) -> list[Task]:
    for q in victims(s, p, target, e):
        s.stun_until[q] = max(s.stun_until[q], s.turn + e.number("turns"))
        _log(s, p, d, e.op, q, e.number("turns"))
    return []


Run = Callable[["GameState", int, int, int, Step], list[Task]]
RUN: Final[dict[str, Run]] = {
    "heal": _heal, "draw": _draw, "discard": _discard, "steal": _steal, "give": _give, "pass": _pass,
    "swap_hands": _swap_hands, "take_discard": _take_discard, "shuffle_discard": _shuffle_discard,
    "skip_turns": _skip_turns, "reveal_hand": _reveal_hand, "stun": _stun,
}


def deliver(s: GameState, p: int, d: int, op: str, held: list[tuple[int, int, int]]) -> None:
    """Move the cards picked for one primitive, all at once: (owner, card, where it goes; -1 the discard pile)."""
    moved: dict[tuple[int, int], int] = {}
    for owner, card, dest in held:
        s.hands[owner].remove(card)
        if dest < 0:
            s.discard.append(card)
        else:
            s.hands[dest].append(card)
        if s.log is not None:  # (counted for the log alone)
            moved[owner, dest] = moved.get((owner, dest), 0) + 1
    for (owner, dest), count in sorted(moved.items()):
        who, other = (dest, owner) if op == "steal" else (owner, dest)
        _log(s, who, d, op, other, count)


def random_picks(s: GameState, hand: list[int], held: list[int], count: int) -> list[int]:
    """`count` cards picked at random from `hand` (less the cards in `held`), by the state's own generator."""
    left = list(hand)
    for c in held:
        left.remove(c)
    left.sort()
    rng = s.generator()
    out = []
    for _ in range(min(count, len(left))):
        out.append(left.pop(below(rng, len(left))))  # (`rng.randrange`'s very number)
    return out
