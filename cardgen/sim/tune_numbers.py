"""The numbers `tune` may change: every integer of a card's design, found from the card's own record.

Nothing is listed by hand: a number is any integer field of `Card` (or of a record a card holds, such as its
heal or its hold) that is part of the design (`cardgen.sim.balance.changes.NOT_DESIGN` are not), so a number a
later card field adds is tunable as soon as it exists. A number is named by its field ("damage", "stuns",
"retaliates"; a held record's as "<field> <part>": "opens most"), two old names kept for their words ("heal":
the heal's amount, "hold damage": the hold's damage), "copies" for the count; and every number of the card's
`effects:` (`cardgen.primitives`), named `effects[i].param` and bounded by its primitive. More of a number makes
a card stronger except for its costs (`COSTS`: turns it stuns its own player for; an effect that costs its own
player: `COSTLY_EFFECTS` aimed at itself, or a gift).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass
from typing import Any, Literal

from cardgen.model import Card
from cardgen.primitives import PRIMITIVES, Effect, Number, Who, make_effect
from cardgen.primitives import numbers_of as effect_numbers
from cardgen.sim.balance.changes import NOT_DESIGN

Direction = Literal["weaken", "strengthen"]
COSTS: frozenset[str] = frozenset({"stunned"})  # more of these weakens the card
NAMES: dict[tuple[str, ...], str] = {("count",): "copies", ("heal", "amount"): "heal",
                                     ("ongoing", "damage"): "hold damage"}
FLOORS: dict[str, int] = {"damage": 1, "heal": 1, "copies": 1, "hold damage": 1}  # else 0
CEILINGS: dict[str, int] = {"copies": 12}  # else 99
EFFECTS = "effects"  # the family name of the numbers of a card's `effects:` (`--numbers effects`)
# Primitives whose number, aimed at the card's own player, is a cost to that player.
COSTLY_EFFECTS: frozenset[str] = frozenset({"damage", "lose", "discard", "skip_turns"})


def _is_int(tp: Any) -> bool:
    return tp is int


def _is_ints(tp: Any) -> bool:
    return typing.get_origin(tp) is tuple and typing.get_args(tp) in ((int, Ellipsis),)


def _record(tp: Any) -> type | None:
    """The dataclass of an optional record field (`Heal | None`), else None."""
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(tp) if a is not type(None)]
        tp = inner[0] if len(inner) == 1 else None
    return tp if isinstance(tp, type) and dataclasses.is_dataclass(tp) else None


def _paths() -> dict[str, tuple[str, ...]]:
    """Every registered number: its name and its path in the card."""
    out: dict[str, tuple[str, ...]] = {}
    hints = typing.get_type_hints(Card)
    for f in dataclasses.fields(Card):
        if f.name in NOT_DESIGN - {"count"}:
            continue
        tp = hints[f.name]
        if _is_int(tp) or _is_ints(tp):
            out[NAMES.get((f.name,), f.name)] = (f.name,)
        elif f.name != EFFECTS and (rec := _record(tp)) is not None:
            sub = typing.get_type_hints(rec)
            for g in dataclasses.fields(rec):
                if _is_int(sub[g.name]):
                    out[NAMES.get((f.name, g.name), f"{f.name} {g.name}")] = (f.name, g.name)
    return out


PATHS: dict[str, tuple[str, ...]] = _paths()
# the names `--numbers` takes: the card's own numbers, its effects' (one name for them all), copies last
NUMBERS: tuple[str, ...] = (*(n for n in PATHS if n != "copies"), EFFECTS, "copies")


def family(name: str) -> str:
    """The `--numbers` name a number belongs to: its own, or "effects" for `effects[i].param`."""
    return EFFECTS if name.startswith(f"{EFFECTS}[") else name


def _effect_at(card: Card, name: str) -> tuple[int, Effect, Number]:
    """The position, effect and bounds of the number `effects[i].param` of `card`."""
    index, param = name.removeprefix(f"{EFFECTS}[").split("].")
    e = card.effects[int(index)]
    return int(index), e, next(n for n in PRIMITIVES[e.op].numbers if n.name == param)


def _bounds(card: Card, name: str) -> tuple[int, int]:
    if family(name) == EFFECTS:
        _, _, n = _effect_at(card, name)
        return n.low, n.high
    return FLOORS.get(name, 0), CEILINGS.get(name, 99)


def costly(card: Card, name: str) -> bool:
    """More of this number weakens the card (a cost to its own player)."""
    if family(name) == EFFECTS:
        _, e, _ = _effect_at(card, name)
        return (e.op in COSTLY_EFFECTS and e.who == Who.SELF) or e.op == "give"
    return name in COSTS


def numbers_of(card: Card) -> dict[str, tuple[int, ...]]:
    """The numbers `card` has, with their values (a tuple: damage has one entry a strike): those of the mechanics
    it has (a 0 stun, a heal it does not hold are not its numbers), and its copies."""
    out: dict[str, tuple[int, ...]] = {}
    for name, path in PATHS.items():
        value: Any = card
        for part in path:
            value = getattr(value, part)
            if value is None:
                break
        if value is None or value == () or value == 0:  # a mechanic the card does not have is not added
            continue
        out[name] = tuple(value) if isinstance(value, tuple) else (int(value),)
    for i, param, _ in effect_numbers(card.effects):
        out[f"{EFFECTS}[{i}].{param}"] = (card.effects[i].number(param),)
    return out


def with_number(card: Card, name: str, value: tuple[int, ...]) -> Card:
    """`card` with number `name` set to `value`."""
    if family(name) == EFFECTS:
        i, e, n = _effect_at(card, name)
        changed = make_effect(e.op, {**dict(e.values), n.name: value[0]})
        return dataclasses.replace(card, effects=(*card.effects[:i], changed, *card.effects[i + 1:]))
    path = PATHS[name]
    new: Any = value if name == "damage" or len(path) > 1 or isinstance(getattr(card, path[0]), tuple) else value[0]
    if len(path) == 1:
        return dataclasses.replace(card, **{path[0]: new})
    held = getattr(card, path[0])
    return dataclasses.replace(card, **{path[0]: dataclasses.replace(held, **{path[1]: value[0]})})


def step(card: Card, name: str, value: tuple[int, ...], steps: int, direction: Direction) -> tuple[int, ...] | None:
    """`value` of `card`'s number `name` moved `steps` steps the way that weakens or strengthens the card; None
    past the number's bounds."""
    sign = -1 if direction == "weaken" else 1
    if costly(card, name):
        sign = -sign
    low, high = _bounds(card, name)
    out = tuple(v + sign * steps for v in value)
    if any(not low <= v <= high for v in out):
        return None
    return out


def past(card: Card, name: str, value: tuple[int, ...], start: tuple[int, ...], direction: Direction) -> bool:
    """`value` lies beyond `start` in the fixing direction (a fix never goes past where the designer started)."""
    sign = -1 if direction == "weaken" else 1
    if costly(card, name):
        sign = -sign
    return len(value) == len(start) and any(sign * (v - s) > 0 for v, s in zip(value, start, strict=True))


@dataclass(frozen=True)
class Edit:
    """One number of one card changed (`number` from `before` to `after`, `steps` steps of 1), and any other
    numbers changed with it (`more`: a candidate that moves two numbers at once)."""

    card: str
    number: str
    before: tuple[int, ...]
    after: tuple[int, ...]
    steps: int
    more: tuple[Edit, ...] = ()

    def __str__(self) -> str:
        def show(v: tuple[int, ...]) -> str:
            return " + ".join(map(str, v))

        return " and ".join(f"{e.number} {show(e.before)} -> {show(e.after)}" for e in self.parts())

    def parts(self) -> tuple[Edit, ...]:
        return (dataclasses.replace(self, more=()), *self.more)

    @property
    def size(self) -> int:
        """All the steps of all its numbers."""
        return sum(e.steps for e in self.parts())

    @property
    def numbers(self) -> tuple[str, ...]:
        return tuple(e.number for e in self.parts())

    def apply(self, card: Card) -> Card:
        """The card with this edit."""
        for e in self.parts():
            card = with_number(card, e.number, e.after)
        return card
