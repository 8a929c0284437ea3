"""The enums of the pending steps, below both the frames and the observation that summarises them."""

from __future__ import annotations

from enum import StrEnum


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


class Reply(StrEnum):
    """Who is asked next after a BLOCK: the BLOCKER, then the ATTACKER, whether to open a combo; then DONE."""

    BLOCKER = "blocker"
    ATTACKER = "attacker"
    DONE = "done"
