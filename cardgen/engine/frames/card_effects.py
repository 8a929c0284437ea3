"""A card's `effects:` played in order (`cardgen.primitives`), the picks they ask for, and starting the
effect of any card played.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from cardgen.engine.cards import STRIKE_DEFENCES, CardInfo
from cardgen.engine.effect_steps import Step
from cardgen.engine.effects import can_act, clockwise, draw_one, end_if_decided
from cardgen.engine.frames.answers import Window
from cardgen.engine.frames.base import Frame, offer
from cardgen.engine.legal import NO_DEFENCE
from cardgen.engine.moves import PICK, Choice, Move
from cardgen.engine.pending import HUMILIATE_ONLY, NO_KINDS, Pending, StepKind
from cardgen.engine.primitives import RUN, Task, deliver, random_picks, victims

if TYPE_CHECKING:
    from cardgen.engine.state import GameState


_TAKE: Final = Choice.TAKE  # (compiled, naming an enum member is a Python attribute lookup each time)


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
        self.effects: tuple[Step, ...] = ()  # set by `start_effect`
        self.index = 0
        self.running = False  # the window is over: the primitives run

    def copy(self) -> Frame:
        """`Frame.copy`, attribute by attribute (an effect's look-ahead copies it)."""
        f = EffectsF(self.player, self.design, self.aim)
        f.target, f.resp, f.pos = self.target, self.resp, self.pos
        f.effects, f.index, f.running = self.effects, self.index, self.running
        return f

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
            if e.strike:
                self._strike(s, e, e.strike == "sealed")
            else:
                tasks = RUN[e.op](s, self.player, self.design, self.aim, e)
                if tasks:
                    s.stack.append(PickF(self.player, self.design, e.op, tasks))
            if s.stack[-1] is not self:
                return False  # a strike, the picks, a knock-out or a drop come first

    def _strike(self, s: GameState, e: Step, sealed: bool) -> None:
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
        left.sort()
        target = task.owner if task.how == _TAKE else task.dest
        row = s.game.pick_row(target, task.how)  # (the same few pick moves recur: made once a game)
        moves: list[Move] = []
        last = -1
        for c in left:  # one move a design, in the order `decide` would sort them (they differ by card alone)
            if c != last:
                m = row[c]
                if m is None:
                    m = row[c] = Move(PICK, c, target, task.how)
                moves.append(m)
                last = c
        return offer(s, task.picker, moves)

    def apply(self, s: GameState, p: int, m: Move) -> None:
        if m.kind != PICK:
            super().apply(s, p, m)
            return
        self.held.append((self.tasks[0].owner, m.card, self.tasks[0].dest))
        self.count += 1

    def redeal(self, real: GameState, s: GameState, viewer: int) -> None:
        """After the hidden hands were dealt afresh for `viewer` (`GameState.determinized`): a hand `viewer` is
        looking at to take from is the real one again, and the cards others picked so far, which `viewer` has not
        seen, become cards of their new hands."""
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


def start_effect(s: GameState, p: int, ci: CardInfo, target: int, drop: bool = False, free: bool = False,
                 mult: int = 1, in_combo: bool = False, no_def: bool = False, sealed: bool = False,
                 victim_only: bool = False) -> None:
    """Resolve a played card's draw, and put its damage (if any) in flight (or its `effects:`, `EffectsF`)."""
    if ci.effects:
        ef = EffectsF(p, ci.d, target)
        ef.effects = ci.steps
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
    f.victim_only = victim_only
    s.stack.append(f)
    f.open(s)


# The steps of other families this one starts, imported after its own are defined: the families start
# one another (cardgen/engine/frames/__init__.py imports them in an order where every base class comes first).
from cardgen.engine.frames.strikes import StrikeF  # noqa: E402
