"""A player's turn: its phases, from the start (holds tick, a lost turn) through the action to discarding.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardgen.engine.effects import draw_one, end_hold, lost, put_in_play
from cardgen.engine.events import Defended, Draws, HoldEnd, LostTurn, TurnLost
from cardgen.engine.frames.base import (
    PHASE_ACTION,
    PHASE_CHECK,
    PHASE_DISCARD,
    PHASE_END,
    PHASE_HEAL,
    PHASE_START,
    Frame,
    decide,
    offer,
)
from cardgen.engine.kinds import HOW, Phase
from cardgen.engine.legal import DONE_MOVE, NO_DEFENCE, heal_moves, turn_moves
from cardgen.engine.moves import AS_HOLD, DEFEND, DISCARD, DONE, DROP, HEAL, PASS, PLAY, RELEASE, STOMP, VOMIT_HIT, Move
from cardgen.engine.pending import NO_ANSWERS, NO_KINDS, Pending, StepKind

if TYPE_CHECKING:
    from cardgen.engine.state import GameState


class TurnF(Frame):
    """The turn of `player`. phase: start (holds tick), check (a lost turn?), action, discard, heal, end."""

    __slots__ = ("count", "phase")

    def __init__(self, player: int) -> None:
        self.player = player  # (no super() chain: frames are built several times a turn)
        self.phase = Phase.START
        self.count = 0

    def copy(self) -> Frame:
        """`Frame.copy`, attribute by attribute (the frame of every look-ahead's copy; tests/test_engine_frames.py
        checks that every attribute is carried over)."""
        f = TurnF(self.player)
        f.phase = self.phase
        f.count = self.count
        return f

    def step(self, s: GameState) -> bool:
        p = self.player
        phase = self.phase
        if phase is PHASE_DISCARD:  # the commonest step of all (a random player discards often): tested first
            if lost(s, p):
                self.phase = PHASE_END  # knocked out, stunned or vomiting in the middle of their own turn: it is over
                return False
            hand = s.hands[p]
            if hand and self.count < (s.game.rules.discard_limit or 1_000_000):
                info = s.game.info
                moves = []
                last = -1
                for d in sorted(hand):
                    if d != last:  # one discard a design
                        moves.append(info[d].discard_move)
                        last = d
                moves.append(DONE_MOVE)  # discards sort before "done"
                return offer(s, p, moves)
            self.phase = PHASE_END
            return False
        if phase is PHASE_START or phase is PHASE_CHECK:
            return self._begin(s, p)
        if phase is PHASE_END:
            self._end(s, p)
            return False
        if lost(s, p):
            self.phase = PHASE_END  # knocked out, stunned or vomiting in the middle of their own turn: it is over
            return False
        if phase is PHASE_ACTION:
            return offer(s, p, turn_moves(s, p))
        if phase is PHASE_HEAL:
            info = s.game.info  # each heal card keeps its own set's limit, in a mixed deck too
            moves = heal_moves(s, p, {d for d in s.hands[p] if info[d].heal_cap > self.count})
            if moves:
                return decide(s, p, [*moves, DONE_MOVE])
            self.phase = PHASE_END
            return False
        raise AssertionError(f"turn phase {phase}")

    def _begin(self, s: GameState, p: int) -> bool:
        """The start of the turn: its holder's holds tick first, then a lost turn ends it, else the action."""
        if self.phase is PHASE_START:
            self.phase = PHASE_CHECK
            if s.holds:
                ticking = [h for h in s.holds if h.holder == p]
                if ticking:
                    for h in reversed(ticking):
                        t = TickF(h)
                        s.stack.append(t)
                        t.open(s)
                    return False
        if lost(s, p):
            why = (LostTurn.STUNNED if s.stun_until[p] >= s.turn else LostTurn.VOMITING if not s.down[p]
                   else LostTurn.UNCONSCIOUS)
            if s.log is not None:
                s.log.append(TurnLost(s.turn, p, why))
            self.phase = PHASE_END
            return False
        if s.skips[p]:  # a `skip_turns` effect: this turn is lost (a turn lost otherwise does not count)
            s.skips[p] -= 1
            if s.log is not None:
                s.log.append(TurnLost(s.turn, p, LostTurn.SKIPPED))
            self.phase = PHASE_END
            return False
        self.phase = PHASE_ACTION  # just checked: the player can act
        if 0 <= s.horizon < s.turn:  # a look-ahead past its last turn: it ends here, unread (`GameState.horizon`)
            return offer(s, p, [])
        return offer(s, p, turn_moves(s, p))

    def _end(self, s: GameState, p: int) -> None:
        """The end of `p`'s turn: everyone conscious draws back up, starting with `p`."""
        s.stack.pop()
        size = s.game.rules.hand_size
        hands, down, draw = s.hands, s.down, s.draw
        for q in s.game.seats_from[p]:
            hand = hands[q]
            if len(hand) >= size or down[q]:
                continue
            need = size - len(hand)
            if len(draw) >= need:  # the common case: the top card (the list's end) comes first
                for _ in range(need):  # (popped one by one: compiled, slicing cost several times as much)
                    hand.append(draw.pop())
                got = need
            else:
                got = 0
                while len(hand) < size and draw_one(s, q):
                    got += 1
                draw = s.draw  # a reshuffle replaces the draw pile
            if got:
                s.drew |= 1 << q
                if s.log is not None:
                    s.log.append(Draws(s.turn, q, got))

    def apply(self, s: GameState, p: int, m: Move) -> None:
        """A move of the player whose turn it is, as (or before) their action."""
        k = m.kind
        if k == DISCARD:
            s.hands[p].remove(m.card)
            s.discard.append(m.card)
            self.phase = PHASE_DISCARD
            self.count += 1
        elif k in (DONE, PASS):
            self.phase = PHASE_END
            self._end(s, self.player)  # what the turn's next step would do at once: spare a trip round the loop
        elif k == PLAY:
            self._play(s, p, m)
        elif k == HEAL:
            self.phase = PHASE_HEAL
            self.count += 1
            play_heal(s, p, m, s.game.info[m.card].heal_turn)
        elif k == DEFEND:
            _break_own_hold(s, p, m)
        elif k == VOMIT_HIT:
            s.vomit_hit_used = True
            ci = put_in_play(s, p, m.card)
            start_effect(s, p, ci, m.target, no_def=True)
        elif k == STOMP:
            self.phase = PHASE_END
            ci = put_in_play(s, p, m.card)
            st = StrikeF(p, m.card, m.target, ci.damage or (0,), NO_DEFENCE)
            s.stack.append(st)
            st.open(s)
        elif k == RELEASE:
            release(s, p, m.target)
        else:
            raise AssertionError(f"{k} offered on a turn")

    def _play(self, s: GameState, p: int, m: Move) -> None:
        self.phase = PHASE_END
        ci = put_in_play(s, p, m.card)
        if m.choice == AS_HOLD and ci.hold_opener is not None:
            o = OpenerF(p, m.card, m.target, ci.hold_opener, ci.hold_defences)
        elif ci.opener is not None:
            o = OpenerF(p, m.card, m.target, ci.opener, ci.defences)
        else:
            start_effect(s, p, ci, m.target, drop=m.choice == DROP)
            return
        s.stack.append(o)
        o.open(s)

    def pending(self, s: GameState) -> Pending:
        return Pending(StepKind.TURN, self.player, None, None, (), None, None, None, 1, self.phase, None, None,
                       NO_KINDS, NO_ANSWERS, False)


def _break_own_hold(s: GameState, p: int, m: Move) -> None:
    """On their own turn, a held player plays a card that breaks the hold (it is not their action)."""
    ci = put_in_play(s, p, m.card)
    if s.log is not None:
        s.log.append(Defended(s.turn, p, ci.d, HOW[m.choice]))
    for h in [h for h in s.holds if h.victim == p and h.holder == m.target and m.choice.value in h.broken_by]:
        end_hold(s, h, HoldEnd.BROKEN)
    if ci.retaliates:
        deal_damage(s, m.target, ci.retaliates, ci.d)


# The steps of other families this one starts, imported after its own are defined: the families start
# one another (cardgen/engine/frames/__init__.py imports them in an order where every base class comes first).
from cardgen.engine.frames.answers import TickF  # noqa: E402
from cardgen.engine.frames.card_effects import start_effect  # noqa: E402
from cardgen.engine.frames.life import deal_damage, play_heal, release  # noqa: E402
from cardgen.engine.frames.strikes import OpenerF, StrikeF  # noqa: E402
