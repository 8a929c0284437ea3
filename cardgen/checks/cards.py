"""Cards against their type and the set: the field a type needs, an opener a follow-up waits for, two different
halves of a pair; the deck's size and its declared equivalences."""

from __future__ import annotations

from collections.abc import Callable

from cardgen.checks.where import card_problem
from cardgen.errors import Diagnostic
from cardgen.loader.card_checks import deck_problems
from cardgen.loader.load import LoadedSet
from cardgen.mechanic_registry import has_mechanics
from cardgen.model import Card, CardSet
from cardgen.primitives import hits
from cardgen.suggest import did_you_mean

NEEDS: dict[str, str] = {
    "attack": "damage", "weapon": "damage", "counter": "pair", "heal": "heal", "humiliation": "humiliate",
}


def blank(cs: CardSet, card: Card) -> bool:
    """A card with no mechanics whose type implies none: it would print a blank face and do nothing."""
    role = cs.role(card)
    return NEEDS.get(role) is None and role != "wrestling" and not has_mechanics(card)


def _has(card: Card, need: str) -> bool:
    return {"damage": bool(card.damage) or card.ongoing is not None or card.opens is not None,
            "pair": card.pair is not None, "heal": card.heal is not None,
            "humiliate": card.humiliate is not None}[need]


def _needs(cs: CardSet, c: Card, need: str) -> str:
    """What a card of a type whose role needs field `need` lacks. A card written as `effects:` cannot have that
    field at all (the loader refuses the two together), so its way out is another type, not the field."""
    label = cs.types[c.type].label
    article = "an" if label[:1].lower() in "aeiou" else "a"
    if c.effects or c.words_only:
        events = [t for t, ty in cs.types.items() if ty.role in ("event", "special")]
        hint = f" such as `type: {events[0]}`" if events else ""
        return (f"field `type`: {article} {label} card needs `{need}`, which a card written as `effects:` cannot "
                f"have; give it an event or special type{hint}")
    return f"field `{need}`: {article} {label} card needs `{need}`"


def card_fields(loaded: LoadedSet) -> Callable[[Card], list[Diagnostic]]:
    """Each card's fields against its type and the set's other cards."""
    cs = loaded.cs
    combos = {c.opens.combo for c in cs.cards if c.opens} | {h for c in cs.cards if c.pair for h in c.pair}

    def problems(c: Card) -> list[Diagnostic]:
        if blank(cs, c):
            return [card_problem(loaded, c, "name", "has no mechanics at all: it would print a blank face and do "
                                 "nothing in play; give it damage, a defence, a heal, a pair, opens, follows or "
                                 "another mechanic")]
        out = []
        role = cs.role(c)
        need = NEEDS.get(role)
        if need and not _has(c, need):
            out.append(card_problem(loaded, c, "type", _needs(cs, c, need)))
        if role == "wrestling" and c.follows is None:
            out.append(card_problem(loaded, c, "type", "field `follows`: a wrestling move must follow an opener "
                                    "(e.g. follows: hold)"))
        if loaded.complete and c.follows is not None and c.follows not in combos:
            hint = did_you_mean(c.follows, sorted(combos))
            out.append(card_problem(loaded, c, "follows", f"field `follows`: no card in the set opens "
                                    f"'{c.follows}'{hint}; known openers: {', '.join(sorted(combos)) or 'none'}"))
        for t in c.opens.then if c.opens is not None else ():
            if t not in cs.types:
                out.append(card_problem(loaded, c, "opens", f"field `opens.then`: unknown card type '{t}'"
                                        f"{did_you_mean(t, list(cs.types))}"))
        if c.pair is not None and c.pair[0] == c.pair[1]:
            out.append(card_problem(loaded, c, "pair", f"field `pair`: both halves are '{c.pair[0]}'; a counter "
                                    "pair needs two different halves"))
        if c.effects and c.defended_by and not hits(c.effects):
            out.append(card_problem(loaded, c, "defended_by", "field `defended_by`: does nothing: defences answer "
                                    "a card's hits, and none of its effects is a `damage`", "warning"))
        if c.passes_on and c.travels:
            out.append(card_problem(loaded, c, "passes_on", "field `passes_on`: a card cannot both travel and "
                                    "pass on"))
        return out

    return problems


def deck_limits(loaded: LoadedSet) -> list[Diagnostic]:
    """The deck's card total against the maximum (always) and against dealing two hands (when every card was
    taken)."""
    return [d for d in deck_problems(loaded.cs, loaded.head) if loaded.complete or "maximum" in d.message]


def whole_set_problems(loaded: LoadedSet) -> list[Diagnostic]:
    """The declared deck size and equivalences against the cards, when every card was taken."""
    if not loaded.complete:
        return []
    cs, head = loaded.cs, loaded.head
    out = []
    if cs.total != cs.deck_size:
        line, col = head.where(("deck_size",))
        out.append(Diagnostic(head.path, line, col, f"deck_size: declared {cs.deck_size} cards but the card "
                              f"counts add up to {cs.total} ({cs.total - cs.deck_size:+d})"))
    names = {c.name.upper() for c in cs.cards}
    for mine in cs.equivalences:
        if mine.upper() not in names:
            line, col = head.where(("equivalences", mine), key=True)
            out.append(Diagnostic(head.path, line, col, f"equivalences: '{mine}' is not a card of this set"
                                  f"{did_you_mean(mine, [c.name for c in cs.cards])}"))
    return out
