"""The pending steps of a game, each kind one class that owns its rules, in families of steps.

A frame on the state's stack is a decision or an effect still to come (a turn
in progress, an attack waiting for answers, a combo waiting for its
follow-up...). Each class says, by its methods, everything about its kind:
`step` runs it on (True once someone must decide: `s.to_act`, `s.moves`), `apply`
carries out a move it offered, `pending` says what it asks, and a `Window` (a card others may answer) says
what may answer it (`defences`, `humiliations`, `interferable`,
`interjectable`) and what each answer does to it (`on_defence`,
`on_interference`, `on_redirect`, `on_cancel`). The rules loop (`GameState.push`, `flow.advance`)
only calls the top frame: a new kind of step is one new class in its family, and its
tests. Dispatch is by method (a vtable call when compiled by mypyc), never by
chains of class tests.

The families (`base`, `answers`, `life`, `strikes`, `card_effects`, `turn`) start one another's steps, so
each imports the others' names after defining its own; this package imports them in an order where every
base class (`Frame`, `Window`) is defined before a family that derives from it.
"""

from __future__ import annotations

from cardgen.engine.frames.base import Frame, decide, holds_answer, offer

from cardgen.engine.frames.answers import AnswerF, BonusF, HealF, TickF, Window  # isort: skip
from cardgen.engine.frames.life import (  # isort: skip
    BraceF,
    DropF,
    LetGoF,
    can_brace,
    deal_damage,
    lift_own_stun,
    lose,
    play_heal,
    release,
)
from cardgen.engine.frames.strikes import AfterBlockF, ComboF, DirectionF, OpenerF, StrikeF  # isort: skip
from cardgen.engine.frames.card_effects import EffectsF, PickF, show_hand, start_effect  # isort: skip
from cardgen.engine.frames.turn import TurnF  # isort: skip

__all__ = [
    "AfterBlockF", "AnswerF", "BonusF", "BraceF", "ComboF", "DirectionF", "DropF", "EffectsF", "Frame", "HealF",
    "LetGoF", "OpenerF", "PickF", "StrikeF", "TickF", "TurnF", "Window", "can_brace", "deal_damage", "decide",
    "holds_answer", "lift_own_stun", "lose", "offer", "play_heal", "release", "show_hand", "start_effect",
]
