"""Moves: one decision of the player who must act now, on their turn or out of turn.

Cards are named by design index (copies of a design are interchangeable), so
the legal-move list stays short and identical hands give identical lists.
"""

from __future__ import annotations

from typing import NamedTuple

# Turn actions
PLAY = "play"  # an attack, weapon, event, opener or HOLD at `target` (-1: no single target)
DISCARD = "discard"  # discard one card; more may follow, then DONE
HEAL = "heal"  # a heal card on `target` (yourself, or reviving an unconscious player); also when dropping
STOMP = "stomp"
RELEASE = "release"  # let go of the hold on `target`
VOMIT_HIT = "vomit-hit"  # the free basic attack on a vomiting player
PASS = "pass"
DONE = "done"  # stop discarding / healing
# Responses and follow-ups
DEFEND = "defend"  # `choice` is the defence kind played (a counter pair is played as one half)
HUMILIATE = "humiliate"  # target: the new victim of a redirect; -1: cancel (or break a hold)
INTERFERE = "interfere"
INTERJECT = "interject"  # a card that may be played at any time, played in a response window
FOLLOW = "follow"  # a follow-up of a successful combo opener
OPEN = "open"  # an opener played right after a BLOCK
BONUS = "bonus"  # the free attack after a humiliation
DIRECTION = "direction"  # choice "left" or "right" for an attack that passes on
DECLINE = "decline"

KINDS: tuple[str, ...] = (PLAY, DISCARD, HEAL, STOMP, RELEASE, VOMIT_HIT, PASS, DONE, DEFEND, HUMILIATE, INTERFERE,
                          INTERJECT, FOLLOW, OPEN, BONUS, DIRECTION, DECLINE)
# Kinds that end a window or a phase without playing a card.
NO_CARD: frozenset[str] = frozenset({PASS, DONE, DECLINE, RELEASE, DIRECTION})
# Kinds that put a card into play (discarding is not playing a card): what statistics and scenarios count as plays.
CARD_PLAYS: frozenset[str] = frozenset(KINDS) - NO_CARD - {DISCARD}
# Kinds that start a card's own effect: the damage up to the next of these belongs to that play.
EFFECT_KINDS: frozenset[str] = frozenset({PLAY, FOLLOW, BONUS, INTERJECT, VOMIT_HIT, STOMP, OPEN})


class Move(NamedTuple):
    """A decision: its kind, the card design played (-1: none), a target seat (-1: none) and a choice.

    A named tuple, so that sorting, hashing and comparing the legal-move lists run in C.
    """

    kind: str
    card: int = -1
    target: int = -1
    choice: str = ""
