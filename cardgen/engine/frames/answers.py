"""A card others may answer (`Window`), and the steps answering makes: an answer in flight, a hold's tick,
a heal card played, the free attack a humiliation earns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from cardgen.engine.cards import CardInfo
from cardgen.engine.effects import Hold, can_act, end_hold, put_in_play, restore
from cardgen.engine.events import Cancelled, Defended, HoldEnd, Stunned
from cardgen.engine.frames.base import (
    ANSWER_DEFEND,
    ANSWER_HUMILIATE,
    ANSWER_INTERFERE,
    HOW_NONE,
    HOW_REDIRECT,
    Frame,
    decide,
    holds_answer,
)
from cardgen.engine.kinds import HOW, Answer, How
from cardgen.engine.legal import DECLINE_MOVE, NO_DEFENCE, barred, effect_targets, variants
from cardgen.engine.moves import BONUS, DECLINE, DEFEND, DROP, HUMILIATE, INTERFERE, INTERJECT, Move
from cardgen.engine.pending import (
    DEFEND_ONLY,
    DEFEND_OR_HUMILIATE,
    HUMILIATE_ONLY,
    NO_ANSWERS,
    NO_KINDS,
    Pending,
    StepKind,
)
from cardgen.model import DefenceKind

if TYPE_CHECKING:
    from cardgen.engine.state import GameState


class Window(Frame):
    """A card other players may answer: each seat in `resp` is asked once, in order (`ask`).

    What may answer it: the target's defence kinds (`defences`), the humiliations a card offers
    (`humiliations`), an interference (`interferable`), a card played at any time (`interjectable`). What an
    answer does to it: `on_defence`, `on_interference`, `on_redirect`, `on_cancel`.
    """

    __slots__ = ("pos", "resp", "target")
    interferable: ClassVar[bool] = False  # an interference (Beer Money's) may take it in the target's place
    played_now: ClassVar[bool] = True  # its card was played this turn (a hold ticking was played before)
    interjectable: ClassVar[bool] = True  # a card playable at any time may be played in its window

    def __init__(self, player: int, target: int) -> None:
        super().__init__(player)
        self.target = target
        self.resp: tuple[int, ...] = ()
        self.pos = 0

    def card(self) -> int:
        """The design of the card waiting for answers."""
        raise NotImplementedError(type(self).__name__)

    def open(self, s: GameState) -> None:
        """(Re)start the window: its target is asked first, then the others clockwise."""
        self.pos = 0
        self.resp = s.game.askers(self.target, self.player, tuple(s.down))

    def ask(self, s: GameState) -> bool:
        """Offer the answers of the next seat in `resp` that has any (`decide`); False once nobody is left to ask."""
        resp = self.resp
        target = self.target
        hands = s.hands
        info = s.game.info
        while self.pos < len(resp):
            q = resp[self.pos]
            # Nobody answers without a card that can answer (anyone but the target: a card that meddles), and most
            # hands hold none: skip those without a call.
            if holds_answer(info, hands[q], q != target):
                moves = self.answers(s, q)
                if moves:
                    moves.append(DECLINE_MOVE)
                    return decide(s, q, moves)
            self.pos += 1
        return False

    def answers(self, s: GameState, q: int) -> list[Move]:
        """What `q` may answer to this card (empty: `q` is not asked)."""
        hand = s.hands[q]
        target = self.target
        info = s.game.info
        # Only the target may defend; anyone else needs a card that meddles, and most hands hold none: say so first.
        if q != target:
            if not holds_answer(info, hand, True):
                return []
            allowed = NO_DEFENCE
        elif not hand:
            return []
        if not can_act(s, q):
            return []
        if q == target:
            allowed = self.defences(s)
            if not allowed and not holds_answer(info, hand, True):
                return []
        out: list[Move] = []
        seen = 0  # a bit per design: copies of a design answer alike (cheaper than a set, compiled or not)
        for d in hand:
            if seen >> d & 1:
                continue
            seen |= 1 << d
            ci = info[d]
            if not ci.answers:  # most cards (attacks) answer nothing
                continue
            for k, move in ci.defend_moves:
                if k in allowed:
                    out.append(move)
            if ci.humiliate is not None:
                self.humiliations(s, q, ci, out)
            if ci.interfere and self.interferable and q != target:
                out.append(s.game.shared_move(INTERFERE, d))
            if ci.interject and self.interjectable and not (ci.limited and barred(s, q, ci)):
                for t in effect_targets(s, q, ci):
                    out += variants(s, INTERJECT, ci, t)
        return out

    def humiliations(self, s: GameState, q: int, ci: CardInfo, out: list[Move]) -> None:
        """Add to `out` the humiliations of card `ci` that `q` may play on it: by default a cancelling one only
        (classic's cancels ANY card; a redirect sends attacks only)."""
        if ci.cancels:
            out.append(s.game.shared_move(HUMILIATE, ci.d))

    def apply(self, s: GameState, p: int, m: Move) -> None:
        k = m.kind
        if k == DECLINE:
            self.pos += 1
        elif k in (DEFEND, HUMILIATE, INTERFERE):
            self._answer(s, p, m)
        elif k == INTERJECT:
            self.pos += 1
            ci = put_in_play(s, p, m.card)
            start_effect(s, p, ci, m.target, drop=m.choice == DROP)
        else:
            super().apply(s, p, m)

    def _answer(self, s: GameState, p: int, m: Move) -> None:
        """A defence, humiliation or interference: itself a card the others may answer."""
        self.pos += 1
        k = m.kind
        ci = put_in_play(s, p, m.card)
        if k == DEFEND:
            a = AnswerF(p, m.card, ANSWER_DEFEND, HOW[m.choice], self.player, m.target)
        elif k == HUMILIATE:
            a = AnswerF(p, m.card, ANSWER_HUMILIATE, HOW[ci.humiliate or ""], self.player, m.target)
        else:
            a = AnswerF(p, m.card, ANSWER_INTERFERE, HOW_NONE, self.player, m.target)
        s.stack.append(a)
        a.open(s)

    def on_defence(self, s: GameState, how: How, defender: int) -> None:
        """A defence of kind `how` by `defender` resolved: by default the card fails."""
        s.stack.pop()

    def on_interference(self, s: GameState, by: int) -> None:
        """An interference by `by` resolved."""
        raise AssertionError(f"{type(self).__name__} cannot be interfered with")

    def on_redirect(self, s: GameState, a: AnswerF) -> None:
        """A redirecting humiliation `a` resolved."""
        raise AssertionError(f"{type(self).__name__} cannot be redirected")

    def on_cancel(self, s: GameState) -> None:
        """A cancelling humiliation resolved: by default the card does nothing."""
        s.stack.pop()


class AnswerF(Window):
    """A response card (defence, humiliation, interference) to the frame below it, itself answerable."""

    __slots__ = ("design", "how", "humiliated", "redirect", "what")
    interjectable: ClassVar[bool] = False

    def __init__(self, player: int, design: int, what: Answer, how: How, target: int, redirect: int = -1) -> None:
        self.player = player  # (no super() chain: frames are built several times a turn)
        self.target = target
        self.resp: tuple[int, ...] = ()
        self.pos = 0
        self.design = design
        self.what = what
        self.how = how  # the defence kind, CANCEL or REDIRECT, NONE (an interference)
        self.redirect = redirect
        self.humiliated = False  # a humiliation was played on it (and cancelled, or it would not resolve)

    def card(self) -> int:
        return self.design

    def apply(self, s: GameState, p: int, m: Move) -> None:
        if m.kind == HUMILIATE:
            self.humiliated = True  # whatever becomes of that humiliation, this one's player is no longer the last
        super().apply(s, p, m)

    def step(self, s: GameState) -> bool:
        """Nobody answered this answer: it resolves on the card below it."""
        if self.ask(s):
            return True
        s.stack.pop()
        parent = s.stack[-1]
        assert isinstance(parent, Window)  # an answer only ever answers a window
        what = self.what
        if what is ANSWER_DEFEND:
            ci = s.game.info[self.design]
            if s.log is not None:  # a hot spot: do not even build the event unlogged
                s.log.append(Defended(s.turn, self.player, ci.d, self.how))
            parent.on_defence(s, self.how, self.player)
            if ci.retaliates:
                deal_damage(s, parent.player, ci.retaliates, ci.d)
        elif what is ANSWER_INTERFERE:
            parent.on_interference(s, self.player)
        elif self.how == HOW_REDIRECT:
            parent.on_redirect(s, self)
        else:
            self._cancel(s, parent)
        return False

    def _cancel(self, s: GameState, parent: Window) -> None:
        """The answered card does nothing. Only the last humiliation of a chain (one nobody humiliated) stuns the
        answered card's player for the rest of the turn and earns its player the free attack; an earlier one
        whose humiliator was cancelled in turn only cancels the card it answered."""
        last = not self.humiliated
        victim = parent.player
        if s.log is not None:
            s.log.append(Cancelled(s.turn, parent.card(), victim, self.player))
        if parent.played_now:
            lift_own_stun(s, victim, parent.card())
        if last:
            s.stun_until[victim] = max(s.stun_until[victim], s.turn)
            if s.log is not None:
                s.log.append(Stunned(s.turn, victim, s.stun_until[victim]))
        parent.on_cancel(s)
        if last and not s.down[victim]:
            s.stack.append(BonusF(self.player, victim))

    def pending(self, s: GameState) -> Pending:
        return Pending(StepKind.ANSWER, self.player, self.design if self.design >= 0 else None, self.target,
                       self.resp[self.pos:], None, None, None, 1, None, self.what, self.how, NO_KINDS, HUMILIATE_ONLY,
                       False)


class TickF(Window):
    """A hold about to deal its damage at the start of the holder's turn; the victim may break it."""

    __slots__ = ("hold",)
    played_now: ClassVar[bool] = False

    def __init__(self, hold: Hold) -> None:
        super().__init__(hold.holder, hold.victim)
        self.hold = hold

    def card(self) -> int:
        return self.hold.design

    def step(self, s: GameState) -> bool:
        h = self.hold
        if h not in s.holds or s.down[h.victim]:
            s.stack.pop()
            return False
        if self.ask(s):
            return True
        s.stack.pop()
        deal_damage(s, h.victim, h.damage, h.design)
        return False

    def defences(self, s: GameState) -> frozenset[DefenceKind]:
        return frozenset(self.hold.broken_by)

    def humiliations(self, s: GameState, q: int, ci: CardInfo, out: list[Move]) -> None:
        if self.hold.humiliation_breaks:
            out.append(s.game.shared_move(HUMILIATE, ci.d))  # the hold's own set says whether a humiliation breaks it

    def _break(self, s: GameState) -> None:
        s.stack.pop()
        end_hold(s, self.hold, HoldEnd.BROKEN)

    def on_defence(self, s: GameState, how: How, defender: int) -> None:
        self._break(s)

    def on_redirect(self, s: GameState, a: AnswerF) -> None:
        self._break(s)

    def on_cancel(self, s: GameState) -> None:
        self._break(s)

    def pending(self, s: GameState) -> Pending:
        h = self.hold
        defences = frozenset(h.broken_by)
        if h.humiliation_breaks:
            answers = DEFEND_OR_HUMILIATE if defences else HUMILIATE_ONLY
        else:
            answers = DEFEND_ONLY if defences else NO_ANSWERS
        return Pending(StepKind.TICK, self.player, h.design, h.victim, self.resp[self.pos:], h.damage, None, None, 1,
                       None, None, None, defences, answers, False)


class HealF(Window):
    """A heal card played by `player` on `target`, which a cancelling humiliation may still stop."""

    __slots__ = ("amount", "design")
    interjectable: ClassVar[bool] = False

    def __init__(self, player: int, design: int, target: int, amount: int) -> None:
        super().__init__(player, target)
        self.design = design
        self.amount = amount

    def card(self) -> int:
        return self.design

    def step(self, s: GameState) -> bool:
        if self.ask(s):
            return True
        s.stack.pop()
        restore(s, self.target, self.amount, self.player, self.design)
        return False

    def pending(self, s: GameState) -> Pending:
        return Pending(StepKind.HEAL, self.player, self.design, self.target, self.resp[self.pos:], None, None,
                       self.amount, 1, None, None, None, NO_KINDS, HUMILIATE_ONLY, False)


class BonusF(Frame):
    """The free attack a humiliation earns: `player` may hit `victim` without resistance."""

    __slots__ = ("victim",)

    def __init__(self, player: int, victim: int) -> None:
        super().__init__(player)
        self.victim = victim

    def step(self, s: GameState) -> bool:
        p, v = self.player, self.victim
        moves: list[Move] = []
        if can_act(s, p) and not s.down[v]:
            for d in set(s.hands[p]):
                ci = s.game.info[d]
                if ci.free_attack and not (ci.limited and barred(s, p, ci)):
                    moves += variants(s, BONUS, ci, v)
        if not moves:
            s.stack.pop()
            return False
        return decide(s, p, [*moves, DECLINE_MOVE])

    def apply(self, s: GameState, p: int, m: Move) -> None:
        s.stack.pop()  # taken or not
        if m.kind == BONUS:
            ci = put_in_play(s, p, m.card)
            start_effect(s, p, ci, m.target, drop=m.choice == DROP, no_def=True)
        elif m.kind != DECLINE:
            super().apply(s, p, m)

    def pending(self, s: GameState) -> Pending:
        return Pending(StepKind.BONUS, self.player, None, self.victim)


# The steps of other families this one starts, imported after its own are defined: the families start
# one another (cardgen/engine/frames/__init__.py imports them in an order where every base class comes first).
from cardgen.engine.frames.card_effects import start_effect  # noqa: E402
from cardgen.engine.frames.life import deal_damage, lift_own_stun  # noqa: E402
