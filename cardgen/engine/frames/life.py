"""Losing and restoring life: damage and what it leads to (dropping, bracing with a heal, being revived),
and letting go of a hold.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardgen.engine.effects import can_act, end_hold, knock_out, lost, restore
from cardgen.engine.events import Damage, HoldEnd, StunLifted
from cardgen.engine.frames.base import Frame, decide
from cardgen.engine.legal import DECLINE_MOVE
from cardgen.engine.moves import DECLINE, HEAL, RELEASE, Move
from cardgen.engine.pending import Pending, StepKind

if TYPE_CHECKING:
    from cardgen.engine.state import GameState


class DropF(Frame):
    """`player` dropped to 0 or below and may play heal cards that work when dropping."""

    __slots__ = ()

    def step(self, s: GameState) -> bool:
        """Heals after the damage (Beer Money): as many as the player holds, once back above 0 too, while they
        restore something; declining at 0 or below knocks the player out, above 0 it only ends the healing."""
        p = self.player
        life = s.life[p]
        if s.down[p] or life >= s.game.start_life:
            s.stack.pop()
            return False
        info = s.game.info
        moves = [s.game.shared_move(HEAL, d, p) for d in set(s.hands[p]) if info[d].heal_drop and not info[d].heal_first
                 ] if can_act(s, p) else []
        if not moves:
            s.stack.pop()
            if life <= 0:
                knock_out(s, p)
            return False
        return decide(s, p, [*moves, DECLINE_MOVE])

    def apply(self, s: GameState, p: int, m: Move) -> None:
        if m.kind == HEAL:
            play_heal(s, p, m, s.game.info[m.card].heal_drop)
        elif m.kind == DECLINE:
            s.stack.pop()
            if s.life[p] <= 0:
                knock_out(s, p)  # (above 0 again: they only stop healing)
        else:
            super().apply(s, p, m)

    def pending(self, s: GameState) -> Pending:
        return Pending(StepKind.DROP, self.player)


class BraceF(Frame):
    """Damage about to take `player` to 0 or below: first they may play heals that come before the damage
    (Lunch Money's First Aid), then it is dealt in full."""

    __slots__ = ("amount", "why")

    def __init__(self, player: int, amount: int, why: int) -> None:
        super().__init__(player)
        self.amount = amount
        self.why = why

    def step(self, s: GameState) -> bool:
        p = self.player
        if s.down[p] or s.life[p] > self.amount or not can_brace(s, p):
            s.stack.pop()
            lose(s, p, self.amount, self.why)
            return False
        info = s.game.info
        return decide(s, p, [*[s.game.shared_move(HEAL, d, p) for d in set(s.hands[p]) if info[d].heal_first],
                             DECLINE_MOVE])

    def apply(self, s: GameState, p: int, m: Move) -> None:
        if m.kind == HEAL:
            play_heal(s, p, m, s.game.info[m.card].heal_drop)
        elif m.kind == DECLINE:
            s.stack.pop()
            lose(s, p, self.amount, self.why)  # no more heals first: the damage lands in full
        else:
            super().apply(s, p, m)

    def pending(self, s: GameState) -> Pending:
        return Pending(StepKind.BRACE, self.player, None, None, (), self.amount)


class LetGoF(Frame):
    """The start of a turn: a holder whose hold may be let go at any time is asked whether to let go."""

    __slots__ = ()

    def step(self, s: GameState) -> bool:
        p = self.player
        moves = sorted({Move(RELEASE, -1, h.victim) for h in s.holds if h.holder == p and h.releasable})
        if not moves or lost(s, p):  # a stunned or vomiting holder plays nothing, letting go included
            s.stack.pop()
            return False
        return decide(s, p, [*moves, DECLINE_MOVE])

    def apply(self, s: GameState, p: int, m: Move) -> None:
        if m.kind == RELEASE:
            release(s, p, m.target)
        elif m.kind != DECLINE:
            super().apply(s, p, m)
        s.stack.pop()  # a hold let go, or kept




# --- effects that push frames -------------------------------------------------------------------------------

    def pending(self, s: GameState) -> Pending:
        return Pending(StepKind.LET_GO, self.player)


def play_heal(s: GameState, p: int, m: Move, amount: int) -> None:
    """A heal card restoring `amount`: on the table, where a cancelling humiliation may still stop it (`HealF`)."""
    s.hands[p].remove(m.card)
    s.discard.append(m.card)
    cancelling = s.game.cancelling
    if not cancelling or all(cancelling.isdisjoint(s.hands[q]) for q in range(len(s.hands)) if q != p):
        restore(s, m.target, amount, p, m.card)  # nobody holds a card that could cancel it: no window
        return
    h = HealF(p, m.card, m.target, amount)
    s.stack.append(h)
    h.open(s)


def lift_own_stun(s: GameState, p: int, d: int) -> None:
    """A card with STUNNED nT that `p` played this turn was cancelled: a cancelled card does nothing, its
    STUNNED included (docs/rules-decisions.md, 15). Left alone if something else has since stunned `p` longer."""
    stunned = s.game.info[d].stunned
    if stunned and s.stun_until[p] == s.turn + stunned:
        s.stun_until[p] = s.turn - 1  # as before the card: `p` could act to play it, so was not stunned
        if s.log is not None:
            s.log.append(StunLifted(s.turn, p, d))


def release(s: GameState, p: int, victim: int) -> None:
    """`p` lets go of their holds on `victim` that may be let go at any time."""
    for h in [h for h in s.holds if h.holder == p and h.victim == victim and h.releasable]:
        end_hold(s, h, HoldEnd.RELEASED)


def deal_damage(s: GameState, p: int, amount: int, why: int) -> None:
    """Take `amount` from `p` into the lost pool; at 0 or below, open their heal-when-dropping window.

    Damage that would take `p` to 0 or below while they hold a heal that comes before the damage (Lunch
    Money's First Aid) waits on a `BraceF` for those heals first, and is then dealt in full (`lose`).
    """
    if amount <= 0 or s.down[p]:
        return
    if braces(s, p, amount):
        s.stack.append(BraceF(p, amount, why))
        return
    lose(s, p, amount, why)


def braces(s: GameState, p: int, amount: int) -> bool:
    """Whether `amount` of damage on `p` waits for heals that come before it (`deal_damage` pushes a `BraceF`)."""
    return s.life[p] <= amount and s.game.bracing and can_brace(s, p)


def can_brace(s: GameState, p: int) -> bool:
    """`p` can act and holds a heal played before the damage lands."""
    info = s.game.info
    return any(info[d].heal_first for d in s.hands[p]) and can_act(s, p)


def lose(s: GameState, p: int, amount: int, why: int) -> None:
    """`deal_damage` now, with no heal before it."""
    if amount <= 0 or s.down[p]:
        return
    lost_now = amount if s.game.rules.negative_life else min(amount, s.life[p])
    s.life[p] -= lost_now
    s.pool += lost_now
    if s.log is not None:  # a hot spot: do not even build the event unlogged
        s.log.append(Damage(s.turn, p, lost_now, s.life[p], why))
    if s.dealt is not None:
        s.dealt[why] += lost_now
    if s.life[p] <= 0:
        s.stack.append(DropF(p))


# The steps of other families this one starts, imported after its own are defined: the families start
# one another (cardgen/engine/frames/__init__.py imports them in an order where every base class comes first).
from cardgen.engine.frames.answers import HealF  # noqa: E402
