"""What a card's mechanics mean, in one place: pure functions of a card's fields (and its type's role).

The engine (`engine/cards.card_info`), the rules page (`render/rules_content`) and the loader's checks
(`loader/card_checks`) all classify cards with these, so what the page says may be played out of turn,
as an attack, as an answer, is what the engine allows. Rendering may not import the engine, nor the engine
rendering: both import this, which imports only the data model.
"""

from __future__ import annotations

from cardgen.model import Card, DefenceKind, PairHalf, Role
from cardgen.primitives import aims

HOLD_HALF = "hold"  # the counter-pair half that opens a HOLD
_HALF_KIND: dict[PairHalf, DefenceKind] = {PairHalf.DODGE: DefenceKind.DODGE, PairHalf.BLOCK: DefenceKind.BLOCK,
                                           PairHalf.DISARM: DefenceKind.DISARM}  # not HOLD
# Roles whose cards are not attacks even when they hit (a wrestling move follows a HOLD, an event just happens).
NOT_ATTACK_ROLES: frozenset[str] = frozenset({"wrestling", "event", "heal"})
# Roles whose hits may be the free attack a humiliation earns (docs/rules-decisions.md).
FREE_ATTACK_ROLES: frozenset[str] = frozenset({"attack", "weapon", "wrestling"})


def has_effect(card: Card) -> bool:
    """Played as an action, it does something of its own: damage, a hold, a combo, cards drawn, an `effects:`
    list (or words alone, `effects: text`: played, it does what its text says, which the engine cannot)."""
    return (bool(card.damage) or card.ongoing is not None or card.opens is not None or card.draw > 0
            or bool(card.effects) or card.words_only)


def reacts(card: Card) -> bool:
    """It exists to answer another card: a defence, a counter pair, a humiliation, an interference."""
    return card.humiliate is not None or card.defence is not None or card.interfere or card.pair is not None


def defends_as(card: Card) -> tuple[DefenceKind, ...]:
    """The defence kinds it can be played as: its `defence`, or its counter pair's halves but HOLD."""
    if card.defence is not None:
        return (card.defence,)
    if card.pair is not None:
        return tuple(_HALF_KIND[h] for h in card.pair if h in _HALF_KIND)
    return ()


def opens_hold(card: Card) -> bool:
    """A counter pair with a HOLD half: played on your turn as a HOLD."""
    return card.pair is not None and HOLD_HALF in card.pair


def heals_on_turn(card: Card) -> int:
    """What it restores played on its player's turn (0: not a turn heal)."""
    return card.heal.amount if card.heal is not None and "turn" in card.heal.when else 0


def heals_dropping(card: Card) -> int:
    """What it restores played the moment its player drops to 0 or below (0: it cannot be)."""
    return card.heal.amount if card.heal is not None and "dropping" in card.heal.when else 0


def response_only(card: Card) -> bool:
    """`timing: response`: played only in a response window, never as a turn's action."""
    return card.timing == "response"


def turn_play(card: Card) -> bool:
    """Playable as the action of a turn: an attack, an opener, an event (not a follow-up, answer, heal or stomp)."""
    heal_only = card.heal is not None and not has_effect(card)
    return (has_effect(card) and card.follows is None and not reacts(card) and not heal_only and not card.stomp
            and not response_only(card))


def interjects(card: Card) -> bool:
    """Played for its own effect out of turn, in any response window (`timing: response` or `any`)."""
    return (has_effect(card) and card.follows is None and card.opens is None and not reacts(card)
            and not card.stomp and card.timing in ("response", "any"))


def area(card: Card) -> bool:
    """Hits several players at once: every other player (`targets: others`) or everyone (`all`)."""
    return card.targets in ("others", "all")


def cancels(card: Card) -> bool:
    """A humiliation that cancels the card it answers (classic's cancels any card, heals included)."""
    return card.humiliate == "cancel"


def redirects(card: Card) -> bool:
    """A humiliation that sends an attack on to another player."""
    return card.humiliate == "redirect"


def basic_attack(card: Card, role: Role) -> bool:
    """A plain attack card that deals damage as a turn action: what a vomiting player may be hit with for free."""
    return role == "attack" and bool(card.damage) and turn_play(card)


def free_attack(card: Card, role: Role) -> bool:
    """May be the free attack a humiliation earns: a hit of an attack, weapon or wrestling card, no opener."""
    return role in FREE_ATTACK_ROLES and bool(card.damage) and card.opens is None


def typed_follow_up(card: Card) -> bool:
    """May follow an opener whose `then` names its type: a turn-play hit that opens no combo of its own."""
    return turn_play(card) and card.opens is None and bool(card.damage)


def aimed(card: Card) -> bool:
    """Played at one chosen player: an opener, a hit or hold on one target, or effects acting on `chosen`."""
    return (card.opens is not None or ((bool(card.damage) or card.ongoing is not None) and card.targets == "one")
            or aims(card.effects))


def meddles(card: Card) -> bool:
    """May answer a card aimed at someone else: a humiliation, an interference, an interjection."""
    return card.humiliate is not None or card.interfere or interjects(card)


def answers(card: Card) -> bool:
    """May answer a pending card at all: a defence, or it meddles."""
    return bool(defends_as(card)) or meddles(card)


def out_of_turn(card: Card) -> bool:
    """Playable on someone else's turn other than as a defence of your own: it meddles, or heals when dropping
    (what the rules page lists as "also playable on someone else's turn")."""
    return meddles(card) or heals_dropping(card) > 0


def any_time(card: Card) -> bool:
    """Its `timing` lets it be played at any moment, even on another player's turn (`response` does not: it is
    never a turn's action, so the rules page lists it apart, `response_only`)."""
    return card.timing == "any"


def attacks(card: Card, role: Role) -> bool:
    """A turn action that hits or holds or opens a combo, of an attacking role (what the page calls an Attack)."""
    return (role not in NOT_ATTACK_ROLES and (bool(card.damage) or card.opens is not None or card.ongoing is not None)
            and card.follows is None)

