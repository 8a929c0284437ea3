"""The rules engine: game state, legal moves, applying moves, outcomes, agents and scenarios.

It reads card sets through their mechanic fields only and never imports rendering.
"""

from __future__ import annotations

from cardgen.engine.moves import Move
from cardgen.engine.rules import IllegalMoveError, apply, describe, legal_moves, new_game, outcome, push
from cardgen.engine.state import GameState, Outcome

__all__ = ["GameState", "IllegalMoveError", "Move", "Outcome", "apply", "describe", "legal_moves", "new_game",
           "outcome", "push"]
