"""The pending steps of a game, each kind one class that owns its rules.

A frame on the state's stack is a decision or an effect still to come (a turn
in progress, an attack waiting for answers, a combo waiting for its
follow-up...). Each class says, by its methods, everything about its kind:
`step` runs it on (True once someone must decide: `s.to_act`, `s.moves`), `apply`
carries out a move it offered, and a `Window` (a card others may answer) says
what may answer it (`defences`, `humiliations`, `interferable`,
`interjectable`) and what each answer does to it (`on_defence`,
`on_interference`, `on_redirect`, `on_cancel`). The rules loop (`rules.push`, `rules._advance`)
only calls the top frame: a new kind of step is one new class here, and its
tests. Dispatch is by method (a vtable call when compiled by mypyc), never by
chains of class tests.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final

from mypy_extensions import mypyc_attr

from cardgen.engine.cards import STRIKE_DEFENCES, CardInfo
from cardgen.engine.effects import (
    Hold,
    can_act,
    clockwise,
    draw_one,
    end_hold,
    end_if_decided,
    knock_out,
    lost,
    next_seat,
    put_in_play,
    restore,
)
from cardgen.engine.events import (
    Cancelled,
    Combo,
    ComboEnds,
    ComboWasted,
    Damage,
    Defended,
    Draws,
    Hit,
    HoldEnd,
    HoldStarts,
    Interferes,
    LostTurn,
    MovesOn,
    Redirected,
    Stomped,
    Stopped,
    StunLifted,
    Stunned,
    TurnLost,
    WeaponBack,
    WeaponDiscarded,
)
from cardgen.engine.kinds import HOW, Answer, How, Phase, Reply, Stage
from cardgen.engine.legal import (
    DECLINE_MOVE,
    DONE_MOVE,
    NO_DEFENCE,
    barred,
    effect_targets,
    heal_moves,
    turn_moves,
    variants,
)
from cardgen.engine.moves import (
    AS_HOLD,
    BONUS,
    DECLINE,
    DEFEND,
    DIRECTION,
    DISCARD,
    DONE,
    DROP,
    FOLLOW,
    HEAL,
    HUMILIATE,
    INTERFERE,
    INTERJECT,
    LEFT,
    OPEN,
    PASS,
    PICK,
    PLAY,
    RELEASE,
    RIGHT,
    STOMP,
    VOMIT_HIT,
    Choice,
    Move,
)
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
from cardgen.engine.primitives import RUN, STRIKES, Task, deliver, random_picks, victims
from cardgen.model import DefenceKind, Opener
from cardgen.primitives import Effect

if TYPE_CHECKING:
    from cardgen.engine.state import GameState


# Enum members as module constants: an attribute of an Enum class costs a slow lookup on every use, and these
# are read at every step. `Final`, because compiled a Final name is a C static, where any other module-level
# name is a lookup in the module's dict.
_PHASE_START: Final = Phase.START
_PHASE_CHECK: Final = Phase.CHECK
_PHASE_ACTION: Final = Phase.ACTION
_PHASE_DISCARD: Final = Phase.DISCARD
_PHASE_HEAL: Final = Phase.HEAL
_PHASE_END: Final = Phase.END
_STAGE_WINDOW: Final = Stage.WINDOW
_STAGE_NEXT: Final = Stage.NEXT
_STAGE_DIRECTION: Final = Stage.DIRECTION
_STAGE_FINISH: Final = Stage.FINISH
_ANSWER_DEFEND: Final = Answer.DEFEND
_ANSWER_HUMILIATE: Final = Answer.HUMILIATE
_ANSWER_INTERFERE: Final = Answer.INTERFERE
_HOW_NONE: Final = How.NONE
_HOW_DODGE: Final = How.DODGE
_HOW_BLOCK: Final = How.BLOCK
_HOW_DISARM: Final = How.DISARM
_HOW_REDIRECT: Final = How.REDIRECT
_LEFT: Final = Move(DIRECTION, choice=LEFT)  # (sorted: left before right)
_RIGHT: Final = Move(DIRECTION, choice=RIGHT)


# --- offering moves -----------------------------------------------------------------------------------------


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


# --- the frames ---------------------------------------------------------------------------------------------


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
        """The hidden hands of `s` were just dealt afresh for `viewer` (`determinize`) from `real`: make what this
        step holds of those hands agree with them (by default it holds nothing)."""

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
            a = AnswerF(p, m.card, _ANSWER_DEFEND, HOW[m.choice], self.player, m.target)
        elif k == HUMILIATE:
            a = AnswerF(p, m.card, _ANSWER_HUMILIATE, HOW[ci.humiliate or ""], self.player, m.target)
        else:
            a = AnswerF(p, m.card, _ANSWER_INTERFERE, _HOW_NONE, self.player, m.target)
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


class TurnF(Frame):
    """The turn of `player`. phase: start (holds tick), check (a lost turn?), action, discard, heal, end."""

    __slots__ = ("count", "phase")

    def __init__(self, player: int) -> None:
        self.player = player  # (no super() chain: frames are built several times a turn)
        self.phase = Phase.START
        self.count = 0

    def step(self, s: GameState) -> bool:
        p = self.player
        phase = self.phase
        if phase is _PHASE_DISCARD:  # the commonest step of all (a random player discards often): tested first
            if lost(s, p):
                self.phase = _PHASE_END  # knocked out, stunned or vomiting in the middle of their own turn: it is over
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
            self.phase = _PHASE_END
            return False
        if phase is _PHASE_START or phase is _PHASE_CHECK:
            return self._begin(s, p)
        if phase is _PHASE_END:
            self._end(s, p)
            return False
        if lost(s, p):
            self.phase = _PHASE_END  # knocked out, stunned or vomiting in the middle of their own turn: it is over
            return False
        if phase is _PHASE_ACTION:
            return offer(s, p, turn_moves(s, p))
        if phase is _PHASE_HEAL:
            info = s.game.info  # each heal card keeps its own set's limit, in a mixed deck too
            moves = heal_moves(s, p, {d for d in s.hands[p] if info[d].heal_cap > self.count})
            if moves:
                return decide(s, p, [*moves, DONE_MOVE])
            self.phase = _PHASE_END
            return False
        raise AssertionError(f"turn phase {phase}")

    def _begin(self, s: GameState, p: int) -> bool:
        """The start of the turn: its holder's holds tick first, then a lost turn ends it, else the action."""
        if self.phase is _PHASE_START:
            self.phase = _PHASE_CHECK
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
            self.phase = _PHASE_END
            return False
        if s.skips[p]:  # a `skip_turns` effect: this turn is lost (a turn lost otherwise does not count)
            s.skips[p] -= 1
            if s.log is not None:
                s.log.append(TurnLost(s.turn, p, LostTurn.SKIPPED))
            self.phase = _PHASE_END
            return False
        self.phase = _PHASE_ACTION  # just checked: the player can act
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
            self.phase = _PHASE_DISCARD
            self.count += 1
        elif k in (DONE, PASS):
            self.phase = _PHASE_END
            self._end(s, self.player)  # what the turn's next step would do at once: spare a trip round the loop
        elif k == PLAY:
            self._play(s, p, m)
        elif k == HEAL:
            self.phase = _PHASE_HEAL
            self.count += 1
            play_heal(s, p, m, s.game.info[m.card].heal_turn)
        elif k == DEFEND:
            _break_own_hold(s, p, m)
        elif k == VOMIT_HIT:
            s.vomit_hit_used = True
            ci = put_in_play(s, p, m.card)
            start_effect(s, p, ci, m.target, no_def=True)
        elif k == STOMP:
            self.phase = _PHASE_END
            ci = put_in_play(s, p, m.card)
            st = StrikeF(p, m.card, m.target, ci.damage or (0,), NO_DEFENCE)
            s.stack.append(st)
            st.open(s)
        elif k == RELEASE:
            release(s, p, m.target)
        else:
            raise AssertionError(f"{k} offered on a turn")

    def _play(self, s: GameState, p: int, m: Move) -> None:
        self.phase = _PHASE_END
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




class StrikeF(Window):
    """A card that deals damage, in flight: strike `si` of `dmg` aimed at `target`."""

    __slots__ = ("allowed", "blocked_by", "cancelled", "connected", "design", "direction", "disarmed", "dmg",
                 "drop", "in_combo", "moved", "no_def", "origin", "sealed", "si", "stage", "victims")
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
        exclude = self.player
        if self.target == exclude and s.game.info[self.design].targets == "one":
            exclude = -1  # an attack redirected at its own player may be defended by them; one hitting all may not
        self.resp = s.game.askers(self.target, exclude, tuple(s.down))

    def step(self, s: GameState) -> bool:
        """Runs the stages of a strike on from one to the next while nothing else lands on the stack above it
        (a drop to 0, a new window): each is what the rules loop would run next anyway, minus a trip round it."""
        if self.stage is _STAGE_WINDOW:
            ci = s.game.info[self.design]
            t = self.target
            if (s.down[t] != ci.stomp) or (ci.stomp and s.stomped[t]):
                self.stage = _STAGE_NEXT  # the target is gone: the strike finds nobody
            elif self.ask(s):
                return True
            else:
                self.stage = _STAGE_NEXT
                self._hit(s, ci)
                if s.stack[-1] is not self:
                    return False  # the target dropped to 0: that comes first
        if self.stage is _STAGE_NEXT:
            self._next(s)
        if self.stage is _STAGE_FINISH:
            self._finish(s)
            return False
        if self.stage is _STAGE_WINDOW:
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
            s.stun_until[t] = max(s.stun_until[t], s.turn + ci.stuns)
            if s.log is not None:
                s.log.append(Stunned(s.turn, t, s.stun_until[t]))
        if ci.ongoing is not None and self.si == 0 and t != self.player:  # redirected at its player: holds nobody
            o = ci.ongoing
            s.holds.append(Hold(self.player, t, ci.d, o.damage, o.broken_by, o.vomit, o.holder_restricted,
                                releasable=o.holder_restricted, humiliation_breaks=o.humiliation_breaks))
            if s.log is not None:
                s.log.append(HoldStarts(s.turn, self.player, t, ci.d))
        deal_damage(s, t, amount, ci.d)

    def _next(self, s: GameState) -> None:
        self.si += 1
        self.moved = False
        self.direction = 0
        if not self.disarmed and not self.cancelled:
            if self.si < len(self.dmg) and not s.down[self.origin]:
                self.target = self.origin
                self.stage = _STAGE_WINDOW
                self.open(s)
                return
            while self.victims:
                v = self.victims.pop(0)
                if not s.down[v]:
                    self.origin = self.target = v
                    self.si = 0
                    self.stage = _STAGE_WINDOW
                    self.open(s)
                    return
        self.stage = _STAGE_FINISH

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

    def humiliations(self, s: GameState, q: int, ci: CardInfo, out: list[Move]) -> None:
        d = ci.d
        if ci.cancels:
            out.append(s.game.shared_move(HUMILIATE, d))
        else:  # a redirect: at anyone else still standing
            out += [s.game.shared_move(HUMILIATE, d, t) for t in range(len(s.life))
                    if t not in (q, self.target) and not s.down[t]]

    def on_defence(self, s: GameState, how: How, defender: int) -> None:
        ci = s.game.info[self.design]
        if how == _HOW_DISARM and ci.weapon:
            self.disarmed = True
            self.stage = _STAGE_FINISH
            return
        if how == _HOW_BLOCK and self.blocked_by < 0:
            self.blocked_by = defender
        moves_on = (ci.travels and how in (_HOW_DODGE, _HOW_BLOCK)) or (ci.passes_on is not None and how == _HOW_DODGE)
        if not moves_on:
            self.stage = _STAGE_NEXT
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
                        self.stage = _STAGE_DIRECTION
                        s.stack.append(DirectionF(self.player))
                        return
                    ways = ways[:1]
                if not ways:
                    self.stage = _STAGE_NEXT
                    return
                self.direction = ways[0]
        self.move_on(s)

    def move_on(self, s: GameState) -> None:
        """Dodged (or blocked) on the way: on to the next seat in its direction, unless that ends the line."""
        q = next_seat(s, self.target, self.direction)
        if q in (self.player, self.target):
            self.stage = _STAGE_NEXT
            return
        if s.log is not None:
            s.log.append(MovesOn(s.turn, self.design, q))
        self.target = q
        self.moved = True
        self.stage = _STAGE_WINDOW
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
        self.stage = _STAGE_FINISH

    def pending(self, s: GameState) -> Pending:
        left = self.dmg[self.si:]
        defences = self.defences(s)
        answers = NO_ANSWERS if self.sealed else ANY_ANSWER if defences else HUMILIATE_OR_INTERFERE
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
        if what is _ANSWER_DEFEND:
            ci = s.game.info[self.design]
            if s.log is not None:  # a hot spot: do not even build the event unlogged
                s.log.append(Defended(s.turn, self.player, ci.d, self.how))
            parent.on_defence(s, self.how, self.player)
            if ci.retaliates:
                deal_damage(s, parent.player, ci.retaliates, ci.d)
        elif what is _ANSWER_INTERFERE:
            parent.on_interference(s, self.player)
        elif self.how == _HOW_REDIRECT:
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
                         in_combo=True, sealed=self.sealed and ci.follows is None)  # the free attack, not a hold
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




class EffectsF(Window):
    """A card with `effects:` (cardgen/primitives.py) played by `player` (at `target`, or at nobody: -1).

    First a window, where others may answer the card as any card (a humiliation may cancel it); then its
    primitives run in order. A strike (damage) is put in flight above this frame and finishes first; a
    primitive that needs cards picked puts a `PickF` above it. The game is decided only once every primitive
    has run.
    """

    __slots__ = ("aim", "design", "effects", "index", "running")

    def __init__(self, player: int, design: int, target: int) -> None:
        super().__init__(player, target if target >= 0 else player)
        self.design = design
        self.aim = target  # the chosen player (-1: none)
        self.effects: tuple[Effect, ...] = ()  # set by `start_effect`
        self.index = 0
        self.running = False  # the window is over: the primitives run

    def card(self) -> int:
        return self.design

    def hits_pending(self, s: GameState) -> bool:
        return self.index < len(self.effects)

    def step(self, s: GameState) -> bool:
        if not self.running:
            if self.ask(s):
                return True
            self.running = True
        while True:
            if self.index >= len(self.effects) or s.result is not None:
                s.stack.pop()
                end_if_decided(s)  # its knock-outs waited for every primitive to run
                return False
            e = self.effects[self.index]
            self.index += 1
            strike = STRIKES.get(e.op)
            if strike is not None:
                self._strike(s, e, strike == "sealed")
            else:
                tasks = RUN[e.op](s, self.player, self.design, self.aim, e)
                if tasks:
                    s.stack.append(PickF(self.player, self.design, e.op, tasks))
            if s.stack[-1] is not self:
                return False  # a strike, the picks, a knock-out or a drop come first

    def _strike(self, s: GameState, e: Effect, sealed: bool) -> None:
        hit = victims(s, self.player, self.aim, e)
        if not hit:
            return
        f = StrikeF(self.player, self.design, hit[0], (e.number("amount"),),
                    NO_DEFENCE if sealed else s.game.info[self.design].defences)
        f.victims = hit[1:]
        f.sealed = sealed
        s.stack.append(f)
        f.open(s)

    def pending(self, s: GameState) -> Pending:
        return Pending(StepKind.EFFECT, self.player, self.design, self.target,
                       self.resp[self.pos:] if not self.running else (), None, None, None, 1, None, None, None,
                       NO_KINDS, HUMILIATE_ONLY, False)


class PickF(Frame):
    """The cards one primitive of a card's `effects:` asks for (`tasks`, each a picker, a hand and how many),
    offered one card at a time; the cards move only when every pick is made, so passing is all at once. A player
    who cannot act (stunned, vomiting, tied up) has their picks made at random, as do `random` tasks. `player`
    is the card's player."""

    __slots__ = ("count", "design", "held", "op", "tasks")

    def __init__(self, player: int, design: int, op: str, tasks: list[Task]) -> None:
        super().__init__(player)
        self.design = design
        self.op = op
        self.tasks = tasks
        self.count = 0  # cards picked for the first task so far
        self.held: list[tuple[int, int, int]] = []  # (owner, card, where it goes) picked so far

    def copy(self) -> Frame:
        f = PickF(self.player, self.design, self.op, list(self.tasks))
        f.count = self.count
        f.held = list(self.held)
        return f

    def hits_pending(self, s: GameState) -> bool:
        return True  # the card it belongs to has not finished

    def step(self, s: GameState) -> bool:
        while self.tasks:
            if self._offer(s):
                return True
        s.stack.pop()
        deliver(s, self.player, self.design, self.op, self.held)
        return False

    def _offer(self, s: GameState) -> bool:
        """Offer the next card of the first task (True: someone must pick); picks made at random need no one."""
        task = self.tasks[0]
        hand = s.hands[task.owner]
        held = [c for o, c, _ in self.held if o == task.owner]
        if self.count >= task.cards or len(held) >= len(hand) or s.down[task.picker] or s.down[task.owner]:
            self.tasks.pop(0)
            self.count = 0
            return False
        if task.random or not can_act(s, task.picker):
            for c in random_picks(s, hand, held, task.cards - self.count):
                self.held.append((task.owner, c, task.dest))
            self.tasks.pop(0)
            self.count = 0
            return False
        left = list(hand)
        for c in held:
            left.remove(c)
        target = task.owner if task.how == Choice.TAKE else task.dest
        return decide(s, task.picker, [Move(PICK, c, target, task.how) for c in sorted(set(left))])

    def apply(self, s: GameState, p: int, m: Move) -> None:
        if m.kind != PICK:
            super().apply(s, p, m)
            return
        self.held.append((self.tasks[0].owner, m.card, self.tasks[0].dest))
        self.count += 1

    def redeal(self, real: GameState, s: GameState, viewer: int) -> None:
        """After the hidden hands were dealt afresh for `viewer` (`determinize`): a hand `viewer` is looking at to
        take from is the real one again, and the cards others picked so far, which `viewer` has not seen, become
        cards of their new hands."""
        looking = self.tasks[0].owner if (self.tasks and self.tasks[0].picker == viewer
                                          and self.tasks[0].how == Choice.TAKE) else -1
        if looking >= 0:
            show_hand(s, looking, real.hands[looking], viewer)
        fresh: list[tuple[int, int, int]] = []
        for owner, card, dest in self.held:
            if owner not in (viewer, looking):
                left = list(s.hands[owner])
                for o, c, _ in fresh:
                    if o == owner:
                        left.remove(c)
                card = min(left) if left else card
            fresh.append((owner, card, dest))
        self.held = fresh

    def pending(self, s: GameState) -> Pending:
        task = self.tasks[0] if self.tasks else None
        if task is None:
            return Pending(StepKind.PICK, self.player, self.design)
        return Pending(StepKind.PICK, task.picker, self.design,
                       task.owner if task.how == Choice.TAKE else task.dest)


def show_hand(s: GameState, owner: int, hand: list[int], viewer: int) -> None:
    """Make `owner`'s hand in `s` the cards `hand` (what `viewer` sees), trading each card it lacks with a hidden
    place (the draw pile, another hand but the viewer's) that holds it, so every card stays in the game once."""
    want = list(hand)
    extra = list(s.hands[owner])
    for c in hand:
        if c in extra:
            extra.remove(c)
            want.remove(c)
    for c in want:
        places = [s.draw, *(s.hands[q] for q in range(len(s.hands)) if q not in (owner, viewer))]
        pile = next(pl for pl in places if c in pl)
        pile[pile.index(c)] = extra.pop()
    s.hands[owner] = list(hand)


class DirectionF(Frame):
    """An attack that passes on was dodged: its player picks left or right."""

    __slots__ = ()

    def step(self, s: GameState) -> bool:
        return offer(s, self.player, [_LEFT, _RIGHT])

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


def start_effect(s: GameState, p: int, ci: CardInfo, target: int, drop: bool = False, free: bool = False,
                 mult: int = 1, in_combo: bool = False, no_def: bool = False, sealed: bool = False) -> None:
    """Resolve a played card's draw, and put its damage (if any) in flight (or its `effects:`, `EffectsF`)."""
    if ci.effects:
        ef = EffectsF(p, ci.d, target)
        ef.effects = ci.effects
        s.stack.append(ef)
        ef.open(s)
        return
    for _ in range(ci.draw):
        if not draw_one(s, p):
            break
    if not ci.damage and ci.ongoing is None:
        return
    dmg = ci.damage if ci.damage else (ci.ongoing.damage,) if ci.ongoing is not None else ()
    if mult != 1:
        dmg = tuple(x * mult for x in dmg)
    if target >= 0:
        victims = [target]
    elif ci.targets == "others":
        victims = clockwise(s, (p + 1) % len(s.life), p)
    elif ci.targets == "all":
        victims = [*clockwise(s, (p + 1) % len(s.life), p), p]
    else:
        victims = [p]
    if not victims:
        return
    f = StrikeF(p, ci.d, victims[0], dmg, ci.defences - STRIKE_DEFENCES if free else ci.defences)
    f.victims = victims[1:]
    f.drop = drop
    f.in_combo = in_combo
    f.no_def = no_def
    f.sealed = sealed
    s.stack.append(f)
    f.open(s)


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


def _break_own_hold(s: GameState, p: int, m: Move) -> None:
    """On their own turn, a held player plays a card that breaks the hold (it is not their action)."""
    ci = put_in_play(s, p, m.card)
    if s.log is not None:
        s.log.append(Defended(s.turn, p, ci.d, HOW[m.choice]))
    for h in [h for h in s.holds if h.victim == p and h.holder == m.target and m.choice in h.broken_by]:
        end_hold(s, h, HoldEnd.BROKEN)
    if ci.retaliates:
        deal_damage(s, m.target, ci.retaliates, ci.d)


def deal_damage(s: GameState, p: int, amount: int, why: int) -> None:
    """Take `amount` from `p` into the lost pool; at 0 or below, open their heal-when-dropping window.

    Damage that would take `p` to 0 or below while they hold a heal that comes before the damage (Lunch
    Money's First Aid) waits on a `BraceF` for those heals first, and is then dealt in full (`lose`).
    """
    if amount <= 0 or s.down[p]:
        return
    if s.life[p] <= amount and s.game.bracing and can_brace(s, p):
        s.stack.append(BraceF(p, amount, why))
        return
    lose(s, p, amount, why)


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
