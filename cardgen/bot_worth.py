"""What a mechanic is worth to the greedy bot, declared with the mechanic (`mechanic_registry.Mechanic.worth`).

Greedy values a card by these terms, read off the engine facts its mechanics derive, so each mechanic brings
its own value and the bot keeps no rule per mechanic: a new rulebook mechanic declares its worth beside its
schema and wording, and a card's `effects:` are valued by looking ahead (`Part.LOOK`). The figures are the
greedy bot's own scale (one point: one point of damage), tuned by head-to-head games (docs/simulation.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Part(StrEnum):
    """Where a term's points go in greedy's score of a card."""

    HIT = "hit"  # per unit, into what the card does as a hit (times a combo's multiplier)
    SPREAD = "spread"  # the hit is worth `1 + per` times as much per unit (an undefendable or area hit)
    AFTER = "after"  # per unit, added after the hit's multipliers (a stun: turns the target loses)
    COST = "cost"  # per unit, what the card's own player loses by playing it (turns stunned)
    ANSWER = "answer"  # per unit, added to an answer made with the card (damage dealt back)
    EVENT = "event"  # per unit, what a card that deals no hit is worth as a turn's play (cards drawn)
    MOVE = "move"  # valued as the moves it makes, by greedy's rule for each kind of move (`moves`)
    LOOK = "look"  # valued by playing it on a deal of the unseen cards and scoring the position reached
    NONE = "none"  # no value of its own (`why` says why)


@dataclass(frozen=True, slots=True)
class Worth:
    """One term: `per` points for each unit of engine fact `fact` (its attribute `of`, if given; with `empty`:
    1 unit when the fact is empty, else 0; a tuple counts its sum, a flag 1)."""

    part: Part
    fact: str = ""
    per: float = 0.0
    of: str = ""
    empty: bool = False
    moves: tuple[str, ...] = ()  # MOVE: the kinds of move (`engine.moves.MoveKind` values) that carry its value
    why: str = ""  # NONE: why it has no value of its own


def units(info: object, w: Worth) -> float:
    """How many units of `w`'s fact an engine card (`CardInfo`) has."""
    value = getattr(info, w.fact)
    if w.of and value is not None:
        value = getattr(value, w.of)
    if w.empty:
        return 0.0 if value else 1.0
    if value is None:
        return 0.0
    if isinstance(value, tuple):
        return float(sum(value))
    return float(value)


def move(*kinds: str) -> tuple[Worth, ...]:
    return (Worth(Part.MOVE, moves=kinds),)


def none(why: str) -> tuple[Worth, ...]:
    return (Worth(Part.NONE, why=why),)
