"""Game state: piles, hands, life, statuses, holds, and a stack of pending frames.

The state is mutable and cheap to copy (`GameState.copy`): the hot loop of a
simulation pushes moves in place, searches copy first. Cards are design
indices into `CardSet.cards`. Frames on the stack are the pending decisions
(a turn in progress, an attack waiting for responses, a combo waiting for its
follow-up...); the top frame decides who acts now.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar

from mypy_extensions import mypyc_attr

from cardgen.engine.events import Event
from cardgen.engine.frozen import init_args
from cardgen.engine.game import Game
from cardgen.engine.moves import Move
from cardgen.model import Opener


class Phase(StrEnum):
    """Where a turn is: START (holds tick), CHECK (a lost turn?), ACTION, DISCARD, HEAL (more may follow), END."""

    START = "start"
    CHECK = "check"
    ACTION = "action"
    DISCARD = "discard"
    HEAL = "heal"
    END = "end"


class Stage(StrEnum):
    """Where a strike is: its WINDOW (answers), NEXT (the next strike or victim), DIRECTION (asked), FINISH."""

    WINDOW = "window"
    NEXT = "next"
    DIRECTION = "direction"
    FINISH = "finish"


class Answer(StrEnum):
    """What an answering card does to the card below it."""

    DEFEND = "defend"
    HUMILIATE = "humiliate"
    INTERFERE = "interfere"


class Reason(StrEnum):
    """Why a game ended."""

    LAST_STANDING = "last standing"
    NOBODY_STANDING = "nobody standing"
    TURN_CAP = "turn cap"


@dataclass(frozen=True, slots=True)
class Hold:
    """An ongoing hold (a choke): `damage` at the start of each of the holder's turns until broken."""

    holder: int
    victim: int
    design: int
    damage: int
    broken_by: tuple[str, ...]
    vomit: bool
    restricted: bool
    releasable: bool  # its holder may let go at any time
    humiliation_breaks: bool  # anyone's humiliation breaks it (else only the victim's `broken_by` defences)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return Hold, init_args(self)  # (cardgen/engine/frozen.py)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: `winner` seat (None: nobody), and why."""

    winner: int | None
    reason: Reason
    turns: int

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return Outcome, init_args(self)  # (cardgen/engine/frozen.py)


@mypyc_attr(serializable=True)  # compiled: `cls.__new__(cls)` without `__init__`, for `copy`
class Frame:
    """A pending step. Subclasses with a response window keep `resp` (seats to ask, in order) and `pos`."""

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


def _attributes(cls: type) -> tuple[str, ...]:
    """Every attribute of a frame class, its bases' first: its `__slots__`, or (compiled by mypyc, where
    `__slots__` is not kept) mypyc's own list of them."""
    compiled: tuple[str, ...] | None = getattr(cls, "__mypyc_attrs__", None)
    if compiled is not None:
        return tuple(dict.fromkeys(reversed(compiled)))
    return tuple(name for c in reversed(cls.__mro__) for name in c.__dict__.get("__slots__", ()))


class Window(Frame):
    """A frame other players may answer: each seat in `resp` is asked once, in order."""

    __slots__ = ("pos", "resp", "target")

    def __init__(self, player: int, target: int) -> None:
        super().__init__(player)
        self.target = target
        self.resp: tuple[int, ...] = ()
        self.pos = 0



class TurnF(Frame):
    """The turn of `player`. phase: start (holds tick), check (a lost turn?), action, discard, heal, end."""

    __slots__ = ("count", "phase")

    def __init__(self, player: int) -> None:
        self.player = player  # (no super() chain: frames are built several times a turn)
        self.phase = Phase.START
        self.count = 0


class StrikeF(Window):
    """A card that deals damage, in flight: strike `si` of `dmg` aimed at `target`."""

    __slots__ = ("allowed", "blocked_by", "cancelled", "connected", "design", "direction", "disarmed", "dmg",
                 "drop", "in_combo", "moved", "no_def", "origin", "sealed", "si", "stage", "victims")

    def __init__(self, player: int, design: int, target: int, dmg: tuple[int, ...], allowed: frozenset[str]) -> None:
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


class OpenerF(Window):
    """A combo opener (GRAB, HOLD, POWER PLAY...) aimed at `target`, waiting for responses."""

    __slots__ = ("allowed", "design", "opener")

    def __init__(self, player: int, design: int, target: int, opener: Opener, allowed: frozenset[str]) -> None:
        super().__init__(player, target)
        self.design = design
        self.opener = opener
        self.allowed = allowed


class AnswerF(Window):
    """A response card (defence, humiliation, interference) to the frame below it, itself answerable."""

    __slots__ = ("design", "how", "humiliated", "redirect", "what")

    def __init__(self, player: int, design: int, what: str, how: str, target: int, redirect: int = -1) -> None:
        self.player = player  # (no super() chain: frames are built several times a turn)
        self.target = target
        self.resp: tuple[int, ...] = ()
        self.pos = 0
        self.design = design
        self.what = what  # defend | humiliate | interfere
        self.how = how  # defence kind, or cancel/redirect
        self.redirect = redirect
        self.humiliated = False  # a humiliation was played on it (and cancelled, or it would not resolve)


class TickF(Window):
    """A hold about to deal its damage at the start of the holder's turn; the victim may break it."""

    __slots__ = ("hold",)

    def __init__(self, hold: Hold) -> None:
        super().__init__(hold.holder, hold.victim)
        self.hold = hold


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


class BonusF(Frame):
    """The free attack a humiliation earns: `player` may hit `victim` without resistance."""

    __slots__ = ("victim",)

    def __init__(self, player: int, victim: int) -> None:
        super().__init__(player)
        self.victim = victim


class AfterBlockF(Frame):
    """After a BLOCK: the blocker, then the attacker, may start a combo (GRAB) on the other."""

    __slots__ = ("attacker", "stage")

    def __init__(self, blocker: int, attacker: int) -> None:
        super().__init__(blocker)
        self.attacker = attacker
        self.stage = 0


class DirectionF(Frame):
    """An attack that passes on was dodged: its player picks left or right."""

    __slots__ = ()



class DropF(Frame):
    """`player` dropped to 0 or below and may play heal cards that work when dropping."""

    __slots__ = ()



class BraceF(Frame):
    """Damage about to take `player` to 0 or below: first they may play heals that come before the damage
    (Lunch Money's First Aid), then it is dealt in full."""

    __slots__ = ("amount", "why")

    def __init__(self, player: int, amount: int, why: int) -> None:
        super().__init__(player)
        self.amount = amount
        self.why = why


class HealF(Window):
    """A heal card played by `player` on `target`, which a cancelling humiliation may still stop."""

    __slots__ = ("amount", "design")

    def __init__(self, player: int, design: int, target: int, amount: int) -> None:
        super().__init__(player, target)
        self.design = design
        self.amount = amount


class LetGoF(Frame):
    """The start of a turn: a holder whose hold may be let go at any time is asked whether to let go."""

    __slots__ = ()



@mypyc_attr(serializable=True)  # compiled: `GameState.__new__` without `__init__`, for `copy`
@dataclass(eq=False)
class GameState:
    """What changes during a game; the fixed setup is `game`. Seats 0..n-1 sit clockwise (seat 0 left of the dealer).

    `copy()` copies every field, the mutable ones into fresh containers.
    """

    game: Game
    life: list[int]
    hands: list[list[int]]
    draw: list[int]  # top of the pile is the END of the list
    discard: list[int] = field(default_factory=list)
    table: list[int] = field(default_factory=list)  # weapons in flight
    pool: int = 0
    down: list[bool] = field(default_factory=list)  # unconscious
    stomped: list[bool] = field(default_factory=list)
    stun_until: list[int] = field(default_factory=list)  # stunned while turn <= this
    vomit_until: list[int] = field(default_factory=list)
    holds: list[Hold] = field(default_factory=list)
    turn: int = 0
    current: int = -1
    stack: list[Frame] = field(default_factory=list)
    rng: random.Random = field(default_factory=random.Random)  # the state's shuffles: read it by `generator()`
    to_act: int = -1
    moves: list[Move] = field(default_factory=list)
    result: Outcome | None = None
    log: list[Event] | None = None
    dealt: list[int] | None = None  # damage dealt per design, tallied when asked for (far cheaper than a log)
    drew: int = 0  # a bit per seat that drew a card since a reader last cleared it (a simulation's tracker does)
    weapons_used: set[tuple[int, int]] = field(default_factory=set)  # (player, design) used this turn
    roles_played: set[str] = field(default_factory=set)  # limited roles the turn's player played this turn
    vomit_hit_used: bool = False
    rng_shared: bool = False  # `rng` is shared with a copy: cloned before its first use (`generator`)

    @property
    def n(self) -> int:
        return len(self.life)

    def stunned(self, p: int) -> bool:
        return self.stun_until[p] >= self.turn

    def vomiting(self, p: int) -> bool:
        return self.vomit_until[p] >= self.turn

    def restricted(self, p: int) -> bool:
        """A holder of a restricting hold may only discard, pass or let go."""
        return any(h.holder == p and h.restricted for h in self.holds)

    def conscious(self) -> list[int]:
        return [p for p in range(len(self.life)) if not self.down[p]]

    def legal_moves(self) -> list[Move]:
        """What `to_act` may do now (see `cardgen.engine.rules.legal_moves`)."""
        return list(self.moves)

    def push(self, move: Move) -> None:
        """Apply `move` in place, python-chess style (see `cardgen.engine.rules.push`)."""
        from cardgen.engine.rules import push  # the rules import this module

        push(self, move)

    def copy(self) -> GameState:
        """An independent copy: every field carried over, the mutable ones in fresh containers (field by field:
        tests/test_engine_state.py fails if one is forgotten or shared)."""
        t = GameState.__new__(GameState)
        t.game = self.game
        t.life = list(self.life)
        t.hands = [list(h) for h in self.hands]
        t.draw = list(self.draw)
        t.discard = list(self.discard)
        t.table = list(self.table)
        t.pool = self.pool
        t.down = list(self.down)
        t.stomped = list(self.stomped)
        t.stun_until = list(self.stun_until)
        t.vomit_until = list(self.vomit_until)
        t.holds = list(self.holds)
        t.turn = self.turn
        t.current = self.current
        t.stack = [f.copy() for f in self.stack]
        # The generator is shared until either state shuffles (`generator` clones it first): most copies (a search's
        # look-aheads) never reshuffle, and cloning a Mersenne Twister's state cost more than the rest of the copy.
        t.rng = self.rng
        t.rng_shared = self.rng_shared = True
        t.to_act = self.to_act
        t.moves = list(self.moves)
        t.result = self.result
        t.log = None if self.log is None else list(self.log)
        t.dealt = None if self.dealt is None else list(self.dealt)
        t.drew = self.drew
        t.weapons_used = set(self.weapons_used)
        t.vomit_hit_used = self.vomit_hit_used
        t.roles_played = set(self.roles_played)
        return t

    def generator(self) -> random.Random:
        """This state's own generator for its shuffles: a copy that shares it clones it first (copy-on-write)."""
        if self.rng_shared:
            own = random.Random(0)
            own.setstate(self.rng.getstate())
            self.rng = own
            self.rng_shared = False
        return self.rng


def blank_state(game: Game, seed: int | None, record: bool, tally: bool = False) -> GameState:
    """A state with no cards dealt: every card in the draw pile (unshuffled). `record`: keep the game's log;
    `tally`: keep only the damage dealt per design (`dealt`)."""
    n = game.n
    return GameState(
        game=game, life=[game.start_life] * n, hands=[[] for _ in range(n)], draw=list(game.deck),
        down=[False] * n, stomped=[False] * n, stun_until=[-1] * n, vomit_until=[-1] * n, rng=random.Random(seed),
        log=[] if record else None, dealt=[0] * len(game.info) if tally else None, current=n - 1,
    )
