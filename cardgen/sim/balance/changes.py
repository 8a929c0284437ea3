"""What a designer changed between two versions of a set: each card's kind of change, and the rules that differ.

A card's identity is its design, the mechanics; name, flavour, art and print fields are not. A rule is part of
the design when it changes how the game plays (life, hand size, limits); its words (`life_word`) are not.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from cardgen.model import Card, CardSet, Rules
from cardgen.sim.balance.model import CardChange, ChangeKind, RuleChange

# Card fields that are not its design: a change to these alone leaves the card the same card.
NOT_DESIGN: frozenset[str] = frozenset({"name", "count", "source", "number", "text", "flavour", "art", "back",
                                        "origin", "file", "line", "column", "intended"})
# Rules that are words only.
RULE_WORDS: frozenset[str] = frozenset({"life_word", "counters_hint"})
# How the charts tag a card the designer changed, by kind of change (the card's row is highlighted).
CHANGE_TAGS: dict[str, str] = {"mechanics": "changed", "copies": "copies", "new": "new"}


def design_of(card: Card) -> tuple[Any, ...]:
    """A card's identity: every field that changes how it plays (not its name, count, words or picture)."""
    return tuple(getattr(card, f.name) for f in dataclasses.fields(card) if f.name not in NOT_DESIGN)


def _design_fields(a: Card, b: Card) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(a)
                 if f.name not in NOT_DESIGN and getattr(a, f.name) != getattr(b, f.name))


def card_changes(a: CardSet, b: CardSet) -> list[CardChange]:
    """Every card of A (in A's order) then B's new ones, each with what changed; cards are matched by name
    (a renamed card is one removed and one new)."""
    lb = {c.name.casefold(): c for c in b.cards}
    la = {c.name.casefold() for c in a.cards}
    out: list[CardChange] = []
    for c in a.cards:
        other = lb.get(c.name.casefold())
        if other is None:
            out.append(CardChange(c.name, "removed", (c.count, 0), role=a.role(c)))
            continue
        fields = _design_fields(c, other) + (("type",) if a.role(c) != b.role(other) else ())
        kind: ChangeKind = "mechanics" if fields else "copies" if c.count != other.count else "unchanged"
        out.append(CardChange(c.name, kind, (c.count, other.count), tuple(dict.fromkeys(fields)), b.role(other)))
    for c in b.cards:
        if c.name.casefold() not in la:
            out.append(CardChange(c.name, "new", (0, c.count), role=b.role(c)))
    return out


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return ", ".join(map(str, value)) or "none"
    return str(value)


def rule_changes(a: Rules, b: Rules) -> list[RuleChange]:
    """The rules that play differently in B (each with A's and B's value, as words)."""
    return [RuleChange(f.name.replace("_", " "), _shown(getattr(a, f.name)), _shown(getattr(b, f.name)))
            for f in dataclasses.fields(a)
            if f.name not in RULE_WORDS and getattr(a, f.name) != getattr(b, f.name)]


def plays_alike(a: CardSet, b: CardSet) -> bool:
    """The two versions play identical games: same designs, same copies, same rules, in the same order."""
    return (not rule_changes(a.rules, b.rules) and len(a.cards) == len(b.cards)
            and all(x.name == y.name and x.count == y.count and design_of(x) == design_of(y)
                    and a.role(x) == b.role(y) for x, y in zip(a.cards, b.cards, strict=True)))
