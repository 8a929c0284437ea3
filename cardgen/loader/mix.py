"""Combine several sets into one deck, applying the sets' declared equivalences."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from cardgen import model
from cardgen.errors import Diagnostic, SetError
from cardgen.loader.card_checks import MAX_DECK_CARDS


def same_function(a: model.Card, b: model.Card) -> bool:
    """True when two cards play the same way (heal amounts may differ, as the mixing rules allow)."""
    return a.humiliate == b.humiliate and a.defence == b.defence and (a.heal is None) == (b.heal is None)


def check_mix_size(sets: list[model.CardSet]) -> None:
    """Refuse a mix over the 1,000-card maximum, naming the set that crosses it."""
    running = 0
    for cs in sets:
        running += cs.total
        if running > MAX_DECK_CARDS:
            where = str(Path(cs.path) / "set.yaml") if cs.path else cs.name
            sizes = " + ".join(f"{s.name} ({s.total})" for s in sets)
            raise SetError([Diagnostic(where, 1, 1, f"mixing {sizes} makes a deck of {sum(s.total for s in sets)} "
                                       f"cards, over the maximum of {MAX_DECK_CARDS}; leave a set out")])


def mix_sets(sets: list[model.CardSet], warnings: list[Diagnostic] | None = None) -> model.CardSet:
    """One deck made of every card of every set; rules and types of the first set win.

    Options that some cards need are switched on for the whole mix (revival, so
    Lunch Money's Stomp and First Aid work after Beer Money's rules; dropping
    weapons), whatever order the sets are named in.

    Cards keep their own type colours through `CardSet.origin_types` and their own
    mechanics, so mixing never changes how a card plays. A declared equivalence
    (Beer Money's HORROR OF HORRORS = HUMILIATION, ...) is kept only when the two
    cards play the same way; otherwise it is dropped with a warning (for example
    classic's Humiliation cancels where Lunch Money's redirects).
    """
    if len(sets) == 1:
        return sets[0]
    check_mix_size(sets)
    first = sets[0]
    types: dict[str, model.CardType] = {}
    origin_types: dict[str, dict[str, model.CardType]] = {}
    cards: list[model.Card] = []
    equivalences: dict[str, str] = {}
    for cs in sets:
        origin_types[cs.name] = dict(cs.types)
        for key, t in cs.types.items():
            types.setdefault(key, t)
        equivalences.update(cs.equivalences)
    number = 0
    for cs in sets:
        for c in cs.cards:
            number += 1
            cards.append(dataclasses.replace(c, number=number, origin=c.origin or cs.name))
    mixed = model.CardSet(
        name="+".join(cs.name for cs in sets),
        title=" + ".join(cs.title for cs in sets),
        deck_size=sum(cs.deck_size for cs in sets),
        # the first set's rules, plus every option a mixed-in card needs to be playable at all
        rules=dataclasses.replace(first.rules, weapons_may_drop=any(cs.rules.weapons_may_drop for cs in sets),
                                  revive=any(cs.rules.revive for cs in sets)),
        types=types, cards=tuple(cards), path=first.path, equivalences=equivalences,
        description="Mixed deck: " + ", ".join(cs.title for cs in sets),
        origin_types=origin_types,
    )
    by_name = {c.name.upper(): c for c in cards}
    kept: dict[str, str] = {}
    for mine, theirs in equivalences.items():
        a, b = by_name.get(mine.upper()), by_name.get(theirs.upper())
        if a is None or b is None:
            continue  # the other set is not in this mix
        if not same_function(a, b):
            if warnings is not None:
                warnings.append(Diagnostic(a.file, a.line, a.column, f"equivalence '{mine}' = '{theirs}' ignored in "
                                           f"this mix: {b.origin}'s {b.name} does not play the same way", "warning"))
            continue
        kept[mine] = theirs
    return dataclasses.replace(mixed, equivalences=kept)
