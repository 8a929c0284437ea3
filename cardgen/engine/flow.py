"""Running everything automatic: from a state just changed to the next decision (or the game's end).

The state's own `push` and `settle` call `advance`; it starts turns (with the holders' chances to let go) and
asks the top frame to run its step until one asks a player something. What each step does is its frame's own
(`cardgen.engine.frames`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardgen.engine.effects import next_seat
from cardgen.engine.events import GameOver, TurnStarts
from cardgen.engine.frames import LetGoF, TurnF
from cardgen.engine.outcome import Outcome, Reason

if TYPE_CHECKING:
    from cardgen.engine.state import GameState


def advance(s: GameState) -> None:
    """Run `s` on until a player must decide (`s.to_act`, `s.moves`) or the game is over."""
    stack = s.stack
    while True:
        if s.result is not None:
            s.to_act = -1
            s.moves = []
            return
        if not stack:
            begin_turn(s)
            continue
        if stack[-1].step(s):
            return


def begin_turn(s: GameState) -> None:
    """The next conscious seat's turn starts (or the game ends at the turn cap)."""
    if s.turn >= s.game.turn_cap:
        s.result = Outcome(None, Reason.TURN_CAP, s.turn)
        if s.log is not None:
            s.log.append(GameOver(s.turn, -1, Reason.TURN_CAP))
        return
    s.turn += 1
    down = s.down
    p = s.current + 1
    if p == len(down):
        p = 0
    if down[p]:  # the next seat is the common case
        p = next_seat(s, s.current, 1)
    s.current = p
    if s.weapons_used:
        s.weapons_used.clear()
    if s.roles_played:
        s.roles_played.clear()
    s.vomit_hit_used = False
    if s.revealed:
        s.revealed = []
    s.stack.append(TurnF(p))
    if s.log is not None:
        s.log.append(TurnStarts(s.turn, p))
    if s.holds:  # a holder who may let go at any time is asked at the start of every turn
        n = len(down)
        for q in sorted({h.holder for h in s.holds if h.releasable}, key=lambda q: (q - p) % n, reverse=True):
            s.stack.append(LetGoF(q))
