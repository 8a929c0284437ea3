"""A small fixed card set that exercises every part of a card face.

Its cards carry their own `text`, so the golden drawing log of the regression
tests changes only when the rendering changes, not when a bundled set or the
text templates are edited.
"""

from __future__ import annotations

from cardgen.model import Card, CardSet, CardType, Heal, Ongoing, Opener, Rules

TYPES: dict[str, CardType] = {
    "attack": CardType("attack", "Attack", "#D1342F", "attack"),
    "basic": CardType("basic", "Basic Attack", "#F4C20D", "attack"),
    "counter": CardType("counter", "Counter", "#2F6FD6", "counter"),
    "special": CardType("special", "Specialty", "#F07A18", "special"),
    "healing": CardType("healing", "Healing", "#2E9E4F", "heal"),
    "humiliation": CardType("humiliation", "Humiliation", "#222222", "humiliation"),
}


def _c(number: int, name: str, type_: str, text: str, **kw: object) -> Card:
    return Card(name=name, type=type_, count=2, source="designed", number=number, text=text, origin="specimen",
                **kw)  # type: ignore[arg-type]


CARDS: tuple[Card, ...] = (
    _c(1, "Jab", "basic", "Deals 1. May be DODGED or BLOCKED.", damage=(1,)),
    _c(2, "Kick²", "basic", "Deals 2. May be DODGED or BLOCKED.", damage=(2,),
       flavour="Twice the kick, café-strength."),
    _c(3, "Folding Chair", "attack", "2 strikes: 4 + 3. Each strike is defended on its own.", damage=(4, 3),
       stuns=1),
    _c(4, "Roundhouse", "attack", "Deals 3. If DODGED it moves on; a BLOCK stops it.", damage=(3,),
       passes_on="either", travels=True, stunned=1),
    _c(5, "Grab", "special", "Follow with HEADLOCK or a Basic Attack card. The follow-up cannot be DODGED or BLOCKED.",
       opens=Opener(combo="grab", then=("basic",), free=True)),
    _c(6, "Headlock", "special", "Only right after a successful GRAB. Deals 3. Cannot be defended.", damage=(3,),
       follows="grab"),
    _c(7, "Choke", "special", "Only right after a successful GRAB. The victim loses 4 now and 4 more at the start "
       "of each of your turns until it is broken by FREEDOM. While holding you may only discard and draw; you may "
       "let go at any time. Once free, the victim vomits for a round: no defence, and each player may hit them "
       "with one free basic attack.", follows="grab", ongoing=Ongoing(damage=4, holder_restricted=True, vomit=True)),
    _c(8, "Chocolate Milk", "healing", "Restore 2 life to yourself on your turn.", heal=Heal(amount=2)),
    _c(9, "Dodge/Hold", "counter", "Play as DODGE or HOLD. DODGE stops an attack, weapon or HOLD on you. "
       "HOLD on your turn opens wrestling moves.", pair=("dodge", "hold")),
    _c(10, "Horror of Horrors", "humiliation", "Redirect any attack to another player. Play at any time.",
       humiliate="redirect", timing="any", flavour="Nobody ever looks up at the bar."),
)

SPECIMEN = CardSet(name="specimen", title="Specimen Set", deck_size=20, rules=Rules(life=10, hand_size=5),
                   types=TYPES, cards=CARDS)
