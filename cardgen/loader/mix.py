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


def table_rules(sets: list[model.CardSet]) -> model.Rules:
    """The table's rules for a mix, whatever order the sets are named in (docs/rules-decisions.md, Mixing).

    Starting life, hand size, turn cap: the largest; discards: the loosest limit; healing as the action and
    negative counters: on if any set has them (Beer Money's heal cards need its negative counters); the words
    for life come with the largest starting life (ties: set name order). Everything a card does itself (a
    weapon dropped, once a turn, healing cards a turn, a heal that revives or comes before the damage, travel
    direction) follows the card's own set instead (`CardSet.rules_of`); the table's `heals_per_turn`, the
    loosest, is only what the rules page states first.
    """
    rs = [cs.rules for cs in sorted(sets, key=lambda c: c.name)]
    words = max(rs, key=lambda r: r.life)  # the first of the largest (sorted by set name)
    return dataclasses.replace(
        words, life=max(r.life for r in rs), hand_size=max(r.hand_size for r in rs),
        turn_cap=max(r.turn_cap for r in rs),
        discard_limit=0 if any(r.discard_limit == 0 for r in rs) else max(r.discard_limit for r in rs),
        heal_action=any(r.heal_action for r in rs),
        heals_per_turn=0 if any(r.heals_per_turn == 0 for r in rs) else max(r.heals_per_turn for r in rs),
        negative_life=any(r.negative_life for r in rs), revive=any(r.revive for r in rs),
        weapons_may_drop=any(r.weapons_may_drop for r in rs),
        weapon_once_per_turn=any(r.weapon_once_per_turn for r in rs),
        one_per_own_turn=tuple(sorted({role for r in rs for role in r.one_per_own_turn})),
        moves_per_hold=0 if any(r.moves_per_hold == 0 for r in rs) else max(r.moves_per_hold for r in rs))


def mix_sets(sets: list[model.CardSet], warnings: list[Diagnostic] | None = None) -> model.CardSet:
    """One deck made of every card of every set.

    The deck is the same whatever order the sets are named in: cards come set by set in set-name order,
    and the table's rules are `table_rules`; each card keeps its own set's rules (`origin_rules`). Only
    the mix's name, title and folder follow the order given.

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
    named = sets
    sets = sorted(sets, key=lambda c: c.name)  # the deck's order: never the order the sets were named in
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
            # one back for every card: a mixed deck's backs must not tell its cards apart
            cards.append(dataclasses.replace(c, number=number, origin=c.origin or cs.name, back=None))
    mixed = model.CardSet(
        name="+".join(cs.name for cs in named),
        title=" + ".join(cs.title for cs in named),
        deck_size=sum(cs.deck_size for cs in sets),
        rules=table_rules(sets),
        types=types, cards=tuple(cards), path=first.path, equivalences=equivalences,
        description="Mixed deck: " + ", ".join(cs.title for cs in named),
        origin_types=origin_types, origin_rules={cs.name: cs.rules for cs in sets},
        icons={k: v for cs in reversed(sets) for k, v in cs.icons.items()},  # the first set's icon wins a key
        language=first.language,  # load_group refuses sets that print in different languages
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
