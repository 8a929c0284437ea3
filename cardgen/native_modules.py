"""Which modules the compiled build compiles: read by setup.py (before cardgen is importable) and by the guard.

The hot path of a game and a simulation: the rules, their state and moves, the bots, the per-game
statistics and the balance lab's tally of paired games (the parent process folds every game into it). Left
out, as they gain nothing compiled: the frames package's `__init__` (it only gathers the families, and a
package's own extension module would be found before its source even by the pure build); the
game log's event classes (a plain simulation logs nothing, and mypyc would read their dataclass `ClassVar` names
as fields), the scenario replay, the process pool and the cluster client, the comparison and sanity reports
(they drive games; the games run compiled). Only the standard library may be imported here.
"""

from __future__ import annotations

from pathlib import PurePath

# The shared library every compiled module of the group lives in (an extension module inside the package).
GROUP = "cardgen._native"

PATHS: tuple[str, ...] = (
    "cardgen/engine/agents.py",
    "cardgen/engine/cards.py",
    "cardgen/engine/effect_steps.py",
    "cardgen/engine/effects.py",
    "cardgen/engine/flow.py",
    "cardgen/engine/frozen.py",
    "cardgen/engine/frames/answers.py",
    "cardgen/engine/frames/base.py",
    "cardgen/engine/frames/card_effects.py",
    "cardgen/engine/frames/life.py",
    "cardgen/engine/frames/strikes.py",
    "cardgen/engine/frames/turn.py",
    "cardgen/engine/game.py",
    "cardgen/engine/invariants.py",
    "cardgen/engine/kinds.py",
    "cardgen/engine/legal.py",
    "cardgen/engine/moves.py",
    "cardgen/engine/observation.py",
    "cardgen/engine/outcome.py",
    "cardgen/engine/pending.py",
    "cardgen/engine/playability.py",
    "cardgen/engine/primitives.py",
    "cardgen/engine/randomness.py",
    "cardgen/engine/rules.py",
    "cardgen/engine/seats.py",
    "cardgen/engine/state.py",
    "cardgen/engine/views.py",
    "cardgen/sim/balance/tally.py",
    "cardgen/sim/deal.py",
    "cardgen/sim/evaluate.py",
    "cardgen/sim/greedy.py",
    "cardgen/sim/impact.py",
    "cardgen/sim/play.py",
    "cardgen/sim/search.py",
    "cardgen/sim/seeding.py",
    "cardgen/sim/stats.py",
)

# Compiled with them: the SHA-256 of each source above, as it was compiled (written by setup.py).
STAMP = "cardgen._native_stamp"


def module_of(path: str | PurePath) -> str:
    """`cardgen/engine/rules.py` -> `cardgen.engine.rules`."""
    return ".".join(PurePath(path).with_suffix("").parts)


MODULES: tuple[str, ...] = tuple(module_of(p) for p in PATHS)
