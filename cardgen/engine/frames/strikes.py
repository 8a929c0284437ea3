"""Attacks in flight: a strike and its victims, the way a passing attack goes on, openers and their combos,
and the combo a BLOCK may open.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from cardgen.engine.cards import STRIKE_DEFENCES, CardInfo
from cardgen.engine.effects import Hold, can_act, end_if_decided, next_seat, put_in_play
from cardgen.engine.events import (
    Combo,
    ComboEnds,
    ComboWasted,
    Hit,
    HoldStarts,
    Interferes,
    MovesOn,
    Redirected,
    Stomped,
    Stopped,
    Stunned,
    WeaponBack,
    WeaponDiscarded,
)
from cardgen.engine.frames.answers import Window
from cardgen.engine.frames.base import (
    HOW_BLOCK,
    HOW_DISARM,
    HOW_DODGE,
    LEFT_MOVE,
    RIGHT_MOVE,
    STAGE_DIRECTION,
    STAGE_FINISH,
    STAGE_NEXT,
    STAGE_WINDOW,
    Frame,
    decide,
    offer,
)
from cardgen.engine.kinds import How, Reply, Stage
from cardgen.engine.legal import DECLINE_MOVE, NO_DEFENCE, barred, variants
from cardgen.engine.moves import DECLINE, DEFEND, DIRECTION, DROP, FOLLOW, HUMILIATE, LEFT, OPEN, Move
from cardgen.engine.pending import (
    ANY_ANSWER,
    DEFEND_ONLY,
    DEFEND_OR_HUMILIATE,
    HUMILIATE_ONLY,
    HUMILIATE_OR_INTERFERE,
    NO_ANSWERS,
    NO_KINDS,
    Pending,
    StepKind,
)
from cardgen.model import DefenceKind, Opener

if TYPE_CHECKING:
    from cardgen.engine.state import GameState


class StrikeF(Window):
    """A card that deals damage, in flight: strike `si` of `dmg` aimed at `target`."""

    __slots__ = ("allowed", "blocked_by", "cancelled", "connected", "design", "direction", "disarmed", "dmg",
                 "drop", "in_combo", "moved", "no_def", "origin", "sealed", "si", "stage", "stun_due", "victim_only",
                 "victims")
    interferable: ClassVar[bool] = True

    def __init__(self, player: int, design: int, target: int, dmg: tuple[int, ...],
                 allowed: frozenset[DefenceKind]) -> None:
        self.player = player  # (no super() chain: frames are built several times a turn)
        self.target = target
        self.resp: tuple[int, ...] = ()
        self.pos = 0
        self.design = design
        self.origin = target
        self.dmg = dmg
        self.si = 0
        self.allowed = allowed
        self.victims: list[int] = []
        self.no_def = False
        self.direction = 0  # 0: not moving yet; +1 left (clockwise), -1 right
        self.moved = False  # reached this target by travelling / passing on
        self.blocked_by = -1
        self.connected = False
        self.cancelled = False
        self.disarmed = False
        self.drop = False
        self.in_combo = False
        self.sealed = False  # nobody may answer it at all (a Lunch Money Grab's free attack)
        self.victim_only = False  # only its victim's own defences may answer it (a Lunch Money Headlock or Choke)
        self.stun_due = False  # its STUNS waits for a damage its target braces against with a heal (`_hit`)
        self.stage = Stage.WINDOW  # window -> next (after a hit or a defence) -> finish

    def copy(self) -> Frame:
        f = super().copy()
        assert isinstance(f, StrikeF)
        f.victims = list(self.victims)
        return f

    def card(self) -> int:
        return self.design

    def open(self, s: GameState) -> None:
        self.pos = 0
        if self.sealed:
            self.resp = ()  # nobody may answer it at all
            return
        if self.victim_only:
            self.resp = (self.target,) if not s.down[self.target] else ()
            return
        exclude = self.player
        if self.target == exclude and s.game.info[self.design].targets == "one":
            exclude = -1  # an attack redirected at its own player may be defended by them; one hitting all may not
        self.resp = s.game.askers(self.target, exclude, tuple(s.down))

    def step(self, s: GameState) -> bool:
        """Runs the stages of a strike on from one to the next while nothing else lands on the stack above it
        (a drop to 0, a new window): each is what the rules loop would run next anyway, minus a trip round it."""
        if self.stage is STAGE_WINDOW:
            ci = s.game.info[self.design]
            t = self.target
            if (s.down[t] != ci.stomp) or (ci.stomp and s.stomped[t]):
                self.stage = STAGE_NEXT  # the target is gone: the strike finds nobody
            elif self.ask(s):
                return True
            else:
                self.stage = STAGE_NEXT
                self._hit(s, ci)
                if s.stack[-1] is not self:
                    return False  # the target dropped to 0: that comes first
        if self.stage is STAGE_NEXT:
            if self.stun_due:  # the damage has landed, after any heal its target played before it
                self.stun_due = False
                if not s.down[self.target]:
                    self._stun(s, s.game.info[self.design])
            self._next(s)
        if self.stage is STAGE_FINISH:
            self._finish(s)
            return False
        if self.stage is STAGE_WINDOW:
            return False  # the next strike, or the next victim: a new window
        raise AssertionError(f"strike stage {self.stage}")  # "direction": a DirectionF sits above it

    def _hit(self, s: GameState, ci: CardInfo) -> None:
        t = self.target
        self.connected = True
        amount = self.dmg[self.si]
        if s.log is not None:  # a hot spot: do not even build the event unlogged
            s.log.append(Hit(s.turn, ci.d, t, self.si + 1, len(self.dmg)))
        if ci.stomp:
            s.stomped[t] = True
            if s.log is not None:
                s.log.append(Stomped(s.turn, t))
            return
        if ci.stuns:
            if not s.down[t] and amount > 0 and braces(s, t, amount):
                self.stun_due = True  # the stun comes with the damage, after the heals played before it
            else:
                self._stun(s, ci)
        if ci.ongoing is not None and self.si == 0 and t != self.player:  # redirected at its player: holds nobody
            o = ci.ongoing
            s.holds.append(Hold(self.player, t, ci.d, o.damage, o.broken_by, o.vomit, o.holder_restricted,
                                releasable=o.holder_restricted, humiliation_breaks=o.humiliation_breaks))
            if s.log is not None:
                s.log.append(HoldStarts(s.turn, self.player, t, ci.d))
        deal_damage(s, t, amount, ci.d)

    def _stun(self, s: GameState, ci: CardInfo) -> None:
        """The hit's STUNS nT on its target (rules-decisions 14)."""
        t = self.target
        s.stun_until[t] = max(s.stun_until[t], s.turn + ci.stuns)
        if s.log is not None:
            s.log.append(Stunned(s.turn, t, s.stun_until[t]))

    def _next(self, s: GameState) -> None:
        self.si += 1
        self.moved = False
        self.direction = 0
        if not self.disarmed and not self.cancelled:
            if self.si < len(self.dmg) and not s.down[self.origin]:
                self.target = self.origin
                self.stage = STAGE_WINDOW
                self.open(s)
                return
            while self.victims:
                v = self.victims.pop(0)
                if not s.down[v]:
                    self.origin = self.target = v
                    self.si = 0
                    # An interference took the hits of the victim it stepped in for, undefended; the next victim
                    # defends their own (docs/rules-decisions.md, 17 and 36). A free attack, undefended from the
                    # start, has one victim only, so this never lifts its rule.
                    self.no_def = False
                    self.stage = STAGE_WINDOW
                    self.open(s)
                    return
        self.stage = STAGE_FINISH

    def _finish(self, s: GameState) -> None:
        s.stack.pop()
        ci = s.game.info[self.design]
        p = self.player
        if ci.weapon:
            s.table.remove(self.design)
            if self.disarmed or self.cancelled or self.drop or s.down[p]:
                s.discard.append(self.design)
                if s.log is not None:
                    s.log.append(WeaponDiscarded(s.turn, ci.d, p))
            else:
                s.hands[p].append(self.design)
                if s.log is not None:
                    s.log.append(WeaponBack(s.turn, ci.d, p))
        if self.in_combo:
            combo = s.stack[-1]
            assert isinstance(combo, ComboF)
            combo.followed(s, self)
        if self.blocked_by >= 0 and not self.cancelled and self.blocked_by != p and s.game.after_block:
            s.stack.append(AfterBlockF(self.blocked_by, p))  # (only if some card of the game opens after a block)
        if ci.area:
            end_if_decided(s)  # its knock-outs waited for every hit to land

    def hits_pending(self, s: GameState) -> bool:
        down = s.down
        return any(not down[v] for v in self.victims)

    def defences(self, s: GameState) -> frozenset[DefenceKind]:
        if self.no_def:
            return NO_DEFENCE
        if (self.moved and s.game.info[self.design].travels
                and next_seat(s, self.target, self.direction) == self.player):
            return self.allowed - STRIKE_DEFENCES  # the end of the line takes it
        return self.allowed

    def answers(self, s: GameState, q: int) -> list[Move]:
        out = super().answers(s, q)
        if self.victim_only:  # a sealed combo's follow-up: its victim's own defence (Freedom), nothing else
            return [m for m in out if m.kind == DEFEND]
        return out

    def humiliations(self, s: GameState, q: int, ci: CardInfo, out: list[Move]) -> None:
        d = ci.d
        if ci.cancels:
            out.append(s.game.shared_move(HUMILIATE, d))
        else:  # a redirect: at anyone else still standing
            out += [s.game.shared_move(HUMILIATE, d, t) for t in range(len(s.life))
                    if t not in (q, self.target) and not s.down[t]]

    def on_defence(self, s: GameState, how: How, defender: int) -> None:
        ci = s.game.info[self.design]
        if how == HOW_DISARM and ci.weapon:
            self.disarmed = True
            self.stage = STAGE_FINISH
            return
        if how == HOW_BLOCK and self.blocked_by < 0:
            self.blocked_by = defender
        moves_on = (ci.travels and how in (HOW_DODGE, HOW_BLOCK)) or (ci.passes_on is not None and how == HOW_DODGE)
        if not moves_on:
            self.stage = STAGE_NEXT
            return
        if self.direction == 0:
            if ci.travels:
                self.direction = ci.travel_step
            elif ci.passes_on == "left":
                self.direction = 1
            elif ci.passes_on == "right":
                self.direction = -1
            else:
                ways = [w for w in (1, -1) if next_seat(s, self.target, w) not in (self.player, self.target)]
                if len(ways) == 2 and next_seat(s, self.target, 1) != next_seat(s, self.target, -1):
                    if can_act(s, self.player):
                        self.stage = STAGE_DIRECTION
                        s.stack.append(DirectionF(self.player))
                        return
                    ways = ways[:1]
                if not ways:
                    self.stage = STAGE_NEXT
                    return
                self.direction = ways[0]
        self.move_on(s)

    def move_on(self, s: GameState) -> None:
        """Dodged (or blocked) on the way: on to the next seat in its direction, unless that ends the line."""
        q = next_seat(s, self.target, self.direction)
        if q in (self.player, self.target):
            self.stage = STAGE_NEXT
            return
        if s.log is not None:
            s.log.append(MovesOn(s.turn, self.design, q))
        self.target = q
        self.moved = True
        self.stage = STAGE_WINDOW
        self.open(s)

    def on_interference(self, s: GameState, by: int) -> None:
        self.target = self.origin = by
        self.no_def = True
        self.pos = len(self.resp)
        if s.log is not None:
            s.log.append(Interferes(s.turn, by))

    def on_redirect(self, s: GameState, a: AnswerF) -> None:
        self.target = self.origin = a.redirect
        self.moved = False
        self.direction = 0
        self.open(s)
        if s.log is not None:
            s.log.append(Redirected(s.turn, a.redirect))

    def on_cancel(self, s: GameState) -> None:
        self.cancelled = True
        self.stage = STAGE_FINISH

    def pending(self, s: GameState) -> Pending:
        left = self.dmg[self.si:]
        defences = self.defences(s)
        answers = (NO_ANSWERS if self.sealed else DEFEND_ONLY if self.victim_only else ANY_ANSWER if defences
                   else HUMILIATE_OR_INTERFERE)
        return Pending(StepKind.STRIKE, self.player, self.design, self.target, self.resp[self.pos:],
                       left[0] if left else 0, sum(left), None, 1, None, None, None, defences, answers, self.sealed)


class OpenerF(Window):
    """A combo opener (GRAB, HOLD, POWER PLAY...) aimed at `target`, waiting for responses."""

    __slots__ = ("allowed", "design", "opener")

    def __init__(self, player: int, design: int, target: int, opener: Opener, allowed: frozenset[DefenceKind]) -> None:
        super().__init__(player, target)
        self.design = design
        self.opener = opener
        self.allowed = allowed

    def card(self) -> int:
        return self.design

    def step(self, s: GameState) -> bool:
        if s.down[self.target] or s.down[self.player]:
            s.stack.pop()
            return False
        if self.ask(s):
            return True
        s.stack.pop()
        if s.log is not None:
            s.log.append(Combo(s.turn, self.player, self.target, self.opener.combo))
        s.stack.append(ComboF(self.player, self.target, self.opener))
        return False

    def defences(self, s: GameState) -> frozenset[DefenceKind]:
        return self.allowed

    def humiliations(self, s: GameState, q: int, ci: CardInfo, out: list[Move]) -> None:
        out.append(s.game.shared_move(HUMILIATE, ci.d))  # a redirect stops an opener (it is no attack to redirect)

    def on_redirect(self, s: GameState, a: AnswerF) -> None:
        s.stack.pop()
        if s.log is not None:
            s.log.append(Stopped(s.turn, self.design, a.player))

    def pending(self, s: GameState) -> Pending:
        defences = self.defences(s)
        return Pending(StepKind.OPENER, self.player, self.design, self.target, self.resp[self.pos:], None, None, None,
                       self.opener.multiplier, None, None, None, defences,
                       DEFEND_OR_HUMILIATE if defences else HUMILIATE_ONLY, False)


class ComboF(Frame):
    """A successful opener: its player may play a follow-up on `victim` (or let it go)."""

    __slots__ = ("chain", "combo", "free", "most", "multiplier", "sealed", "steps", "then", "victim")

    def __init__(self, player: int, victim: int, opener: Opener) -> None:
        super().__init__(player)
        self.victim = victim
        self.combo: str = opener.combo
        self.then: tuple[str, ...] = opener.then
        self.free: bool = opener.free
        self.multiplier: int = opener.multiplier
        self.chain: bool = opener.chain
        self.sealed: bool = opener.sealed
        self.most: int = opener.most  # follow-ups in all (0: no limit)
        self.steps = 0

    def step(self, s: GameState) -> bool:
        p, v = self.player, self.victim
        if s.down[p] or s.down[v] or not can_act(s, p):
            s.stack.pop()
            return False
        moves: list[Move] = []
        for d in set(s.hands[p]):
            ci = s.game.info[d]
            if ci.limited and barred(s, p, ci):
                continue
            if ci.follows == self.combo or (self.steps == 0 and ci.typed_follow_up and ci.type in self.then):
                moves += variants(s, FOLLOW, ci, v)
        if not moves:
            s.stack.pop()
            if s.log is not None:
                s.log.append((ComboWasted if self.steps == 0 else ComboEnds)(s.turn, p))
            return False
        return decide(s, p, [*moves, DECLINE_MOVE])

    def apply(self, s: GameState, p: int, m: Move) -> None:
        if m.kind == DECLINE:
            s.stack.pop()  # the combo left unfinished
        elif m.kind == FOLLOW:
            ci = put_in_play(s, p, m.card)
            start_effect(s, p, ci, self.victim, drop=m.choice == DROP, free=self.free, mult=self.multiplier,
                         in_combo=True, sealed=self.sealed and ci.follows is None,  # the free attack
                         victim_only=self.sealed and ci.follows is not None)  # a hold: its victim may break it
        else:
            super().apply(s, p, m)

    def followed(self, s: GameState, f: StrikeF) -> None:
        """A follow-up strike `f` finished: the combo goes on only while a chain keeps connecting on its victim."""
        self.steps += 1
        if (not (self.chain and f.connected and not f.cancelled and f.target == self.victim)
                or self.steps == self.most):  # (classic: at most four wrestling moves after a HOLD)
            s.stack.pop()

    def pending(self, s: GameState) -> Pending:
        return Pending(StepKind.COMBO, self.player, None, self.victim, (), None, None, None, self.multiplier, None,
                       None, None, NO_KINDS, NO_ANSWERS, self.sealed)


class AfterBlockF(Frame):
    """After a BLOCK: the blocker, then the attacker, may start a combo (GRAB) on the other."""

    __slots__ = ("attacker", "stage")

    def __init__(self, blocker: int, attacker: int) -> None:
        super().__init__(blocker)
        self.attacker = attacker
        self.stage = Reply.BLOCKER

    def step(self, s: GameState) -> bool:
        after_block = s.game.after_block
        while self.stage is not Reply.DONE:
            p, other = (self.player, self.attacker) if self.stage is Reply.BLOCKER else (self.attacker, self.player)
            if not after_block.isdisjoint(s.hands[p]) and can_act(s, p) and not s.down[other]:
                moves = [s.game.shared_move(OPEN, d, other) for d in set(s.hands[p])
                         if (o := s.game.info[d].opener) is not None and o.after_block]
                if moves:
                    return decide(s, p, [*moves, DECLINE_MOVE])
            self._next()
        s.stack.pop()
        return False

    def _next(self) -> None:
        self.stage = Reply.ATTACKER if self.stage is Reply.BLOCKER else Reply.DONE

    def apply(self, s: GameState, p: int, m: Move) -> None:
        if m.kind == DECLINE:
            self._next()
        elif m.kind == OPEN:
            s.stack.pop()
            ci = put_in_play(s, p, m.card)
            assert ci.opener is not None
            o = OpenerF(p, m.card, m.target, ci.opener, ci.defences - STRIKE_DEFENCES)
            s.stack.append(o)
            o.open(s)
        else:
            super().apply(s, p, m)

    def pending(self, s: GameState) -> Pending:
        return Pending(StepKind.AFTER_BLOCK, self.player, None, self.attacker)


class DirectionF(Frame):
    """An attack that passes on was dodged: its player picks left or right."""

    __slots__ = ()

    def step(self, s: GameState) -> bool:
        return offer(s, self.player, [LEFT_MOVE, RIGHT_MOVE])

    def apply(self, s: GameState, p: int, m: Move) -> None:
        if m.kind != DIRECTION:
            super().apply(s, p, m)
        s.stack.pop()
        strike = s.stack[-1]
        assert isinstance(strike, StrikeF)
        strike.direction = 1 if m.choice == LEFT else -1
        strike.move_on(s)

    def pending(self, s: GameState) -> Pending:
        return Pending(StepKind.DIRECTION, self.player)


# The steps of other families this one starts, imported after its own are defined: the families start
# one another (cardgen/engine/frames/__init__.py imports them in an order where every base class comes first).
from cardgen.engine.frames.answers import AnswerF  # noqa: E402
from cardgen.engine.frames.card_effects import start_effect  # noqa: E402
from cardgen.engine.frames.life import braces, deal_damage  # noqa: E402
