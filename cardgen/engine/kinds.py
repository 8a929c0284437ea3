"""The enums of the pending steps, below both the frames and the observation that summarises them."""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class Phase(StrEnum):
    """Where a turn is: START (holds tick), CHECK (a lost turn?), ACTION, DISCARD, HEAL (more may follow), END."""

    START = "start"
    CHECK = "check"
    ACTION = "action"
    DISCARD = "discard"
    HEAL = "heal"
    END = "end"


class Stage(StrEnum):
    """Where a strike is: its WINDOW (answers), NEXT (the next strike or victim), DIRECTION (asked), FINISH."""

    WINDOW = "window"
    NEXT = "next"
    DIRECTION = "direction"
    FINISH = "finish"


class Answer(StrEnum):
    """What an answering card does to the card below it."""

    DEFEND = "defend"
    HUMILIATE = "humiliate"
    INTERFERE = "interfere"


class How(StrEnum):
    """How an answer acts on the card below it: the defence kind it plays (the DEFEND move's `Choice`, the same
    words), what a humiliation does (`model.Humiliate`), or NONE (an interference)."""

    NONE = ""
    DODGE = "dodge"
    BLOCK = "block"
    DISARM = "disarm"
    FREEDOM = "freedom"
    BREAK = "break"
    CANCEL = "cancel"
    REDIRECT = "redirect"


# Each `How` by its word: a DEFEND move's choice, or a card's `humiliate`, as the answer it makes.
HOW: Final[dict[str, How]] = {h.value: h for h in How}


class Reply(StrEnum):
    """Who is asked next after a BLOCK: the BLOCKER, then the ATTACKER, whether to open a combo; then DONE."""

    BLOCKER = "blocker"
    ATTACKER = "attacker"
    DONE = "done"
