"""The rules engine: game state, legal moves, applying moves, outcomes, agents and scenarios.

It reads card sets through their mechanic fields only and never imports rendering.

The names below are imported from their modules when first asked for (PEP 562): a command that needs one
part of the engine (`cardgen build` checks playability with `engine.playability` only) does not pay for
importing the rules, the game log's event classes and the rest.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

# `outcome` is both a submodule and a function; the package's `outcome` is the function (`outcome.outcome`),
# bound here at once: the import system asks the package for it while importing the submodule, and that
# question must be answered without importing anything (a lazy answer imported the rules in the middle of
# importing the frames).
from cardgen.engine.outcome import outcome

if TYPE_CHECKING:
    from cardgen.engine.moves import Move
    from cardgen.engine.rules import IllegalMoveError, apply, describe, legal_moves, new_game, push
    from cardgen.engine.state import GameState, Outcome

_HOME: dict[str, str] = {
    "Move": "cardgen.engine.moves", "GameState": "cardgen.engine.state", "Outcome": "cardgen.engine.state",
    **{name: "cardgen.engine.rules"
       for name in ("IllegalMoveError", "apply", "describe", "legal_moves", "new_game", "push")},
}

__all__ = ["GameState", "IllegalMoveError", "Move", "Outcome", "apply", "describe", "legal_moves", "new_game",
           "outcome", "push"]


def __getattr__(name: str) -> object:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # asked once: later lookups find it as a plain module attribute
    return value
