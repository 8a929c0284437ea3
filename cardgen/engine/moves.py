"""Moves: one decision of the player who must act now, on their turn or out of turn.

Cards are named by design index (copies of a design are interchangeable), so
the legal-move list stays short and identical hands give identical lists.
Kinds and choices are `StrEnum`s: they compare, sort, hash and print as their plain words (so the legal-move
lists sort as they always did, and a move prints as the same text).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final, NamedTuple

from cardgen.model import DefenceKind


class MoveKind(StrEnum):
    """What a move does. Turn actions first, then answers and follow-ups."""

    PLAY = "play"  # an attack, weapon, event, opener or HOLD at `target` (-1: no single target)
    DISCARD = "discard"  # discard one card; more may follow, then DONE
    HEAL = "heal"  # a heal card on `target` (yourself, or reviving an unconscious player); also when dropping
    STOMP = "stomp"
    RELEASE = "release"  # let go of the hold on `target`
    VOMIT_HIT = "vomit-hit"  # the free basic attack on a vomiting player
    PASS = "pass"
    DONE = "done"  # stop discarding / healing
    DEFEND = "defend"  # `choice`: the defence kind played (a counter pair is played as one half)
    HUMILIATE = "humiliate"  # target: the new victim of a redirect; -1: cancel (or break a hold)
    INTERFERE = "interfere"
    INTERJECT = "interject"  # a card that may be played at any time, played in a response window
    FOLLOW = "follow"  # a follow-up of a successful combo opener
    OPEN = "open"  # an opener played right after a BLOCK
    BONUS = "bonus"  # the free attack after a humiliation
    DIRECTION = "direction"  # `choice`: LEFT or RIGHT, for an attack that passes on
    DECLINE = "decline"
    PICK = "pick"  # a card an effect asks for (`choice` says what becomes of it; `target`: where it goes)


PLAY: Final = MoveKind.PLAY
DISCARD: Final = MoveKind.DISCARD
HEAL: Final = MoveKind.HEAL
STOMP: Final = MoveKind.STOMP
RELEASE: Final = MoveKind.RELEASE
VOMIT_HIT: Final = MoveKind.VOMIT_HIT
PASS: Final = MoveKind.PASS
DONE: Final = MoveKind.DONE
DEFEND: Final = MoveKind.DEFEND
HUMILIATE: Final = MoveKind.HUMILIATE
INTERFERE: Final = MoveKind.INTERFERE
INTERJECT: Final = MoveKind.INTERJECT
FOLLOW: Final = MoveKind.FOLLOW
OPEN: Final = MoveKind.OPEN
BONUS: Final = MoveKind.BONUS
DIRECTION: Final = MoveKind.DIRECTION
DECLINE: Final = MoveKind.DECLINE
PICK: Final = MoveKind.PICK

class Choice(StrEnum):
    """How a move plays its card, where the rules leave a choice (NONE elsewhere)."""

    NONE = ""
    DROP = "drop"  # a weapon its player discards after this use (Beer Money)
    HOLD = "hold"  # a counter pair played as its HOLD half
    LEFT = "left"  # DIRECTION: the attack passes on to the left (clockwise)
    RIGHT = "right"
    # DEFEND: the defence kind played (`model.DefenceKind`, the same words)
    DODGE = "dodge"
    BLOCK = "block"
    DISARM = "disarm"
    FREEDOM = "freedom"
    BREAK = "break"
    # PICK: what becomes of the card picked (a card's `effects:`, cardgen/primitives.py)
    GIVE = "give"  # from your hand to the move's target (give, pass)
    TAKE = "take"  # from the target's hand into yours (steal, picked looking at that hand)
    THROW = "throw"  # from your hand onto the discard pile (discard)


# Module constants of the choices the rules test (an Enum class attribute is a slow lookup: see frames/base.py).
NO_CHOICE: Final = Choice.NONE
DROP: Final = Choice.DROP
AS_HOLD: Final = Choice.HOLD
LEFT: Final = Choice.LEFT
RIGHT: Final = Choice.RIGHT


def defence_choice(kind: DefenceKind) -> Choice:
    """The DEFEND move's choice for defence kind `kind` (the same word)."""
    return Choice(kind)


KINDS: Final[tuple[MoveKind, ...]] = tuple(MoveKind)
# Kinds that end a window or a phase without playing a card.
NO_CARD: Final[frozenset[MoveKind]] = frozenset({PASS, DONE, DECLINE, RELEASE, DIRECTION})
# Kinds that put a card into play (discarding is not playing a card): what statistics and scenarios count as plays.
CARD_PLAYS: Final[frozenset[MoveKind]] = frozenset(KINDS) - NO_CARD - {DISCARD, PICK}
# Kinds that start a card's own effect: the damage up to the next of these belongs to that play.
EFFECT_KINDS: Final[frozenset[MoveKind]] = frozenset({PLAY, FOLLOW, BONUS, INTERJECT, VOMIT_HIT, STOMP, OPEN})


class Move(NamedTuple):
    """A decision: its kind, the card design played (-1: none), a target seat (-1: none) and a choice.

    A named tuple, so that sorting, hashing and comparing the legal-move lists run in C.
    """

    kind: MoveKind
    card: int = -1
    target: int = -1
    choice: Choice = Choice.NONE


def heals_at(card: int, targets: tuple[int, ...]) -> tuple[Move, ...]:
    """HEAL moves of `card` at each of `targets` (memoised by each game: `Game.heals_at`; Lunch Money offers its
    heals at every unconscious player each turn, and building them afresh was 3 % of a random lunch game)."""
    return tuple(Move(HEAL, card, t) for t in targets)
