"""How a game ends: the engine's one `Outcome` type, and the reasons a game ends."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from cardgen.engine.frozen import init_args

if TYPE_CHECKING:
    from cardgen.engine.state import GameState


class Reason(StrEnum):
    """Why a game ended."""

    LAST_STANDING = "last standing"
    NOBODY_STANDING = "nobody standing"
    TURN_CAP = "turn cap"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: `winner` seat (None: nobody), and why."""

    winner: int | None
    reason: Reason
    turns: int

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return Outcome, init_args(self)  # (cardgen/engine/frozen.py)


def outcome(s: GameState) -> Outcome | None:
    """The result once the game is over (a winner, nobody, or a stalemate at the turn cap), else None."""
    return s.result
