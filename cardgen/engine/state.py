"""Game state: piles, hands, life, statuses, holds, and a stack of pending frames.

The state is mutable and cheap to copy (`GameState.copy`): the hot loop of a
simulation pushes moves in place, searches copy first. Cards are design
indices into `CardSet.cards`. Frames on the stack are the pending steps
(a turn in progress, an attack waiting for responses, a combo waiting for its
follow-up...: `cardgen.engine.frames`, each kind a class that owns its rules);
the top frame decides who acts now. The frame classes, `Hold` and `Outcome`
are importable from here too.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from mypy_extensions import mypyc_attr

from cardgen.engine.effects import Hold
from cardgen.engine.events import Event, Moved
from cardgen.engine.flow import advance
from cardgen.engine.frames import (
    AfterBlockF,
    AnswerF,
    BonusF,
    BraceF,
    ComboF,
    DirectionF,
    DropF,
    EffectsF,
    Frame,
    HealF,
    LetGoF,
    OpenerF,
    PickF,
    StrikeF,
    TickF,
    TurnF,
    Window,
)
from cardgen.engine.game import Game
from cardgen.engine.kinds import Answer, Phase, Reply, Stage
from cardgen.engine.moves import Move
from cardgen.engine.outcome import Outcome, Reason
from cardgen.engine.randomness import shuffle, shuffle_bytes
from cardgen.errors import CardgenError
from cardgen.model import Role

__all__ = [
    "AfterBlockF",
    "Answer",
    "AnswerF",
    "BonusF",
    "BraceF",
    "ComboF",
    "DirectionF",
    "DropF",
    "EffectsF",
    "Frame",
    "GameState",
    "HealF",
    "Hold",
    "IllegalMoveError",
    "LetGoF",
    "OpenerF",
    "Outcome",
    "Phase",
    "PickF",
    "Reason",
    "Reply",
    "Stage",
    "StrikeF",
    "TickF",
    "TurnF",
    "Window",
    "blank_state",
]


class IllegalMoveError(CardgenError):
    """A move that is not among the legal moves of the state it is pushed on."""


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
    roles_played: set[Role] = field(default_factory=set)  # limited roles the turn's player played this turn
    vomit_hit_used: bool = False
    skips: list[int] = field(default_factory=list)  # own turns each seat still loses to a `skip_turns` effect
    # Hands shown this turn by a `reveal_hand` effect: (who saw it, whose hand, the cards then); seen by the first
    # alone (`views.PlayerView.revealed`), forgotten when the next turn starts.
    revealed: list[tuple[int, int, tuple[int, ...]]] = field(default_factory=list)
    rng_shared: bool = False  # `rng` is shared with a copy, or not made yet: made or cloned at first use
    # While `rng` is shared and not yet drawn from: the seed it is `random.Random(seed)` of, -1 if unknown. A
    # state's own generator is then made from the seed, not cloned (a clone copies 625 words of state twice).
    rng_seed: int = -1
    # A look-ahead's last turn (-1: none): once a later turn reaches its action, its legal moves are not listed
    # (nobody reads them: the look-ahead ends there, `cardgen.sim.greedy`), `moves` stays empty.
    horizon: int = -1

    @classmethod
    def deal(cls, game: Game, seed: int | None = None, record: bool = False, tally: bool = False,
             order: Sequence[int] | None = None, shuffled: bool = False) -> GameState:
        """A new game at `game`'s table in one call: the deck shuffled with `seed`, a hand dealt to each seat (seat
        0 first), run to the first decision. `record`: keep the full log; `tally`: only the damage per design.
        `order`: the deck in this order instead of the print order (a paired comparison's deal), as it lies if
        `shuffled` (the generator then serves only the game's later shuffles)."""
        s = blank_state(game, seed, record, tally)
        if order is not None:
            s.draw = list(order)
        if not shuffled:
            shuffle(s.generator(), s.draw)
        for _ in range(game.rules.hand_size):
            for p in range(game.n):
                if s.draw:
                    s.hands[p].append(s.draw.pop())
        advance(s)
        return s

    @property
    def n(self) -> int:
        return len(self.life)

    def stunned(self, p: int) -> bool:
        return self.stun_until[p] >= self.turn

    def vomiting(self, p: int) -> bool:
        return self.vomit_until[p] >= self.turn

    def anyone_vomiting(self) -> bool:
        """Whether some seat vomits this turn (compiled, `any` over a generator is a native loop; `max` is a call)."""
        turn = self.turn
        return any(until >= turn for until in self.vomit_until)

    def restricted(self, p: int) -> bool:
        """A holder of a restricting hold may only discard, pass or let go."""
        return any(h.holder == p and h.restricted for h in self.holds)

    def conscious(self) -> list[int]:
        return [p for p in range(len(self.life)) if not self.down[p]]

    def legal_moves(self) -> list[Move]:
        """What `to_act` may do now (empty once the game is over)."""
        return list(self.moves)

    def push(self, move: Move, check: bool = True) -> None:
        """Apply `move` in place and run on to the next decision, python-chess style.

        `check=False` skips validating the move, for a hot loop whose moves come straight from `moves` (an
        illegal move then corrupts the state instead of raising).
        """
        if check:
            if self.result is not None:
                raise IllegalMoveError("the game is over")
            if move not in self.moves:
                raise IllegalMoveError(f"illegal move {self.describe(move)} for {self.game.names[self.to_act]}")
        p = self.to_act
        if self.log is not None:
            self.log.append(Moved(self.turn, p, move))
        self.stack[-1].apply(self, p, move)  # the frame that offered the move
        advance(self)

    def settle(self) -> None:
        """Run a state just set up (dealt, or its hidden cards dealt afresh: `determinized`) to its decision: who
        acts and their legal moves. Re-running the pending frame only repeats the question it asked."""
        advance(self)

    def describe(self, m: Move) -> str:
        """A move in words: 'play Kick at Bob', 'defend with Dodge/Block as dodge'."""
        parts: list[str] = [m.kind]
        if m.card >= 0:
            parts.append(self.game.info[m.card].name)
        if m.target >= 0:
            parts.append(f"at {self.game.names[m.target]}")
        if m.choice:
            parts.append(f"({m.choice})")
        return " ".join(parts)

    def unseen(self, seat: int) -> tuple[int, ...]:
        """The cards `seat` cannot see (the other hands and the draw pile), as a sorted multiset of designs."""
        return tuple(self._unseen(seat))

    def _unseen(self, seat: int) -> list[int]:
        """`unseen` as a new list. Every card is in a hand, a pile or on the table (`invariants.check_state`): the
        cards this seat does not see are the others' hands and the draw pile."""
        out = list(self.draw)
        for p, hand in enumerate(self.hands):
            if p != seat:
                out.extend(hand)
        out.sort()  # (compiled, counting the designs instead cost more: every count is a boxed int)
        return out

    def determinized(self, seat: int, rng: random.Random) -> GameState:
        """A full state `seat` cannot tell from this one (OpenSpiel's `ResampleFromInfostate`, for a searching
        bot): the cards it cannot see dealt at random into the other hands (same sizes) and the draw pile, a fresh
        shuffling generator drawn from `rng`; its legal moves for `seat` are this state's. Not logged."""
        cards = self._unseen(seat)
        shuffle_bytes(rng, cards)
        hands: list[list[int]] = []
        for p, hand in enumerate(self.hands):
            if p == seat:
                hands.append(list(hand))
            else:
                size = len(hand)
                hands.append(cards[:size])
                del cards[:size]
        shared = self.rng_shared
        t = self.copy()  # (field by field, not a keyword call of the constructor)
        self.rng_shared = shared  # (`copy` marks the generator shared; `t` gets a generator of its own below)
        t.hands, t.draw = hands, cards
        t.rng, t.rng_shared, t.rng_seed = _UNMADE, True, rng.getrandbits(64)  # (made at its first use: `generator`)
        t.to_act, t.moves, t.log, t.dealt, t.drew = -1, [], None, None, 0
        t.revealed = []  # (hands shown this turn are not kept: the deal above may have moved those cards)
        for f in t.stack:
            f.redeal(self, t, seat)
        advance(t)
        return t

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
        t.rng_seed = self.rng_seed
        t.to_act = self.to_act
        t.moves = list(self.moves)
        t.result = self.result
        t.log = None if self.log is None else list(self.log)
        t.dealt = None if self.dealt is None else list(self.dealt)
        t.drew = self.drew
        t.weapons_used = set(self.weapons_used)
        t.vomit_hit_used = self.vomit_hit_used
        t.roles_played = set(self.roles_played)
        t.skips = list(self.skips)
        t.revealed = list(self.revealed)
        t.horizon = self.horizon
        return t

    def copy_drawing_from(self, rng: random.Random) -> GameState:
        """A copy whose shuffles draw from `rng`, which the caller owns and keeps drawing from: a look-ahead that
        needs random numbers of its own, not this state's, so no generator is seeded or cloned for it."""
        t = self.copy()
        t.rng = rng
        t.rng_shared = False
        t.rng_seed = -1
        return t

    def generator(self) -> random.Random:
        """This state's own generator for its shuffles: a copy that shares it clones it first (copy-on-write)."""
        if self.rng_shared:
            if self.rng_seed >= 0:
                own = random.Random(self.rng_seed)
            else:
                own = random.Random(0)
                own.setstate(self.rng.getstate())
            self.rng = own
            self.rng_shared = False
            self.rng_seed = -1
        return self.rng


# The generator of a state whose own is not made yet (`rng_seed`): shared, so never drawn from (`generator`).
_UNMADE: random.Random = random.Random(0)


def blank_state(game: Game, seed: int | None, record: bool, tally: bool = False) -> GameState:
    """A state with no cards dealt: every card in the draw pile (unshuffled). `record`: keep the game's log;
    `tally`: keep only the damage dealt per design (`dealt`)."""
    n = game.n
    return GameState(
        game=game, life=[game.start_life] * n, hands=[[] for _ in range(n)], draw=list(game.deck),
        down=[False] * n, stomped=[False] * n, stun_until=[-1] * n, vomit_until=[-1] * n, skips=[0] * n,
        # a seeded generator is made at its first use (`generator`): a dealt game that never reshuffles, and a
        # deal only read for its hands, never pay for seeding a Mersenne Twister
        rng=random.Random() if seed is None else _UNMADE, rng_shared=seed is not None,
        rng_seed=-1 if seed is None else abs(seed),  # (`random.Random` seeds by the absolute value)
        log=[] if record else None, dealt=[0] * len(game.info) if tally else None, current=n - 1,
    )
