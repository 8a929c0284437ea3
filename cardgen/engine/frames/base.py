"""What every pending step shares: the `Frame` base class and how a step offers its moves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final

from mypy_extensions import mypyc_attr

from cardgen.engine.cards import CardInfo
from cardgen.engine.kinds import Answer, How, Phase, Stage
from cardgen.engine.legal import NO_DEFENCE
from cardgen.engine.moves import DIRECTION, LEFT, RIGHT, Move
from cardgen.engine.pending import Pending
from cardgen.model import DefenceKind

if TYPE_CHECKING:
    from cardgen.engine.state import GameState


# Enum members as module constants: an attribute of an Enum class costs a slow lookup on every use, and these
# are read at every step. `Final`, because compiled a Final name is a C static, where any other module-level
# name is a lookup in the module's dict.
PHASE_START: Final = Phase.START
PHASE_CHECK: Final = Phase.CHECK
PHASE_ACTION: Final = Phase.ACTION
PHASE_DISCARD: Final = Phase.DISCARD
PHASE_HEAL: Final = Phase.HEAL
PHASE_END: Final = Phase.END
STAGE_WINDOW: Final = Stage.WINDOW
STAGE_NEXT: Final = Stage.NEXT
STAGE_DIRECTION: Final = Stage.DIRECTION
STAGE_FINISH: Final = Stage.FINISH
ANSWER_DEFEND: Final = Answer.DEFEND
ANSWER_HUMILIATE: Final = Answer.HUMILIATE
ANSWER_INTERFERE: Final = Answer.INTERFERE
HOW_NONE: Final = How.NONE
HOW_DODGE: Final = How.DODGE
HOW_BLOCK: Final = How.BLOCK
HOW_DISARM: Final = How.DISARM
HOW_REDIRECT: Final = How.REDIRECT
LEFT_MOVE: Final = Move(DIRECTION, choice=LEFT)  # (sorted: left before right)
RIGHT_MOVE: Final = Move(DIRECTION, choice=RIGHT)






def decide(s: GameState, p: int, moves: list[Move]) -> bool:
    """`p` must choose one of `moves` (in any order, no repeats: every caller makes each move from a different
    card, kind or target), offered sorted. Not hashed into a set: hashing every move cost more than the sort."""
    moves.sort()
    s.to_act = p
    s.moves = moves
    return True


def offer(s: GameState, p: int, moves: list[Move]) -> bool:
    """`decide` for a list its caller made sorted and unique already."""
    s.to_act = p
    s.moves = moves
    return True


def holds_answer(info: tuple[CardInfo, ...], hand: list[int], meddling: bool) -> bool:
    """Whether `hand` holds a card that may answer a pending card at all (`meddling`: a card aimed at another
    player). Most hands hold none, so a window asks this first: a loop over a short hand (compiled, native
    code; `frozenset.isdisjoint` there was a Python-level call, 3 % of a compiled greedy game)."""
    for d in hand:
        ci = info[d]
        if ci.meddles if meddling else ci.answers:
            return True
    return False


@mypyc_attr(serializable=True)  # compiled: `cls.__new__(cls)` without `__init__`, for `copy`
class Frame:
    """A pending step of `player`. Every concrete kind says how it runs (`step`) and what its moves do (`apply`)."""

    __slots__ = ("player",)
    _fields: ClassVar[tuple[str, ...]] = ("player",)  # every attribute of the class, its bases' included

    def __init_subclass__(cls) -> None:
        cls._fields = _attributes(cls)

    def __init__(self, player: int) -> None:
        self.player = player

    def copy(self) -> Frame:
        """A shallow copy, slot by slot (`copy.copy` of a slotted object goes through `__reduce_ex__`: measured
        2.5 times as slow, and a bot reads a copy of the top frame at most decisions)."""
        f = type(self).__new__(type(self))
        for name in self._fields:
            setattr(f, name, getattr(self, name))
        return f

    def step(self, s: GameState) -> bool:
        """Run this frame on: True once someone must decide (`s.to_act`, `s.moves` set), False when the rules
        go on by themselves (this frame done and popped, or a new one pushed above it)."""
        raise NotImplementedError(type(self).__name__)

    def apply(self, s: GameState, p: int, m: Move) -> None:
        """Carry out `m`, a move this frame offered to `p`."""
        raise AssertionError(f"{m.kind} offered by {type(self).__name__}")

    def defences(self, s: GameState) -> frozenset[DefenceKind]:
        """Defence kinds its target may play on it now (none but on a `Window` that says so)."""
        return NO_DEFENCE

    def pending(self, s: GameState) -> Pending:
        """This step in the rules' terms, for the players' views (`cardgen.engine.observation`)."""
        raise NotImplementedError(type(self).__name__)

    def redeal(self, real: GameState, s: GameState, viewer: int) -> None:
        """The hidden hands of `s` were just dealt afresh for `viewer` (`GameState.determinized`) from `real`:
        make what this step holds of those hands agree with them (by default it holds nothing)."""

    def hits_pending(self, s: GameState) -> bool:
        """Whether this step is an effect with hits still to land on conscious players (a card that hits
        several players at once): the game is not decided before they land (`effects.end_if_decided`)."""
        return False


def _attributes(cls: type) -> tuple[str, ...]:
    """Every attribute of a frame class, its bases' first: its `__slots__`, or (compiled by mypyc, where
    `__slots__` is not kept) mypyc's own list of them."""
    compiled: tuple[str, ...] | None = getattr(cls, "__mypyc_attrs__", None)
    if compiled is not None:
        return tuple(dict.fromkeys(reversed(compiled)))
    return tuple(name for c in reversed(cls.__mro__) for name in c.__dict__.get("__slots__", ()))
