"""The fixed part of a game (OpenSpiel's `Game`): the deck, its rules facts, the table rules, the seats.

Nothing here changes during play, so a `GameState` shares it with all its
copies and with every player view. The changing part is `state.GameState`
(`GameState.deal(game, seed)` starts one).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Final, Protocol, TypeVar, cast

from cardgen.engine import seats
from cardgen.engine.cards import CardInfo, card_info
from cardgen.engine.frozen import init_args
from cardgen.engine.moves import Choice, Move, MoveKind, heals_at
from cardgen.model import CardSet, Rules

# A card's turn plays aimed at one set of seats: all of them, and its HOLD half's alone (`legal.card_plays`).
TurnPlays = tuple[tuple[Move, ...], tuple[Move, ...]]
T = TypeVar("T")


class MoveMaker(Protocol):
    """`Move`'s own signature: what `Game.shared_move` is called with."""

    def __call__(self, kind: MoveKind, card: int = -1, target: int = -1, choice: Choice = Choice.NONE) -> Move: ...


def deck_of(cs: CardSet) -> tuple[int, ...]:
    """Every physical card of the set as design indices, in print order (sorted)."""
    deck: list[int] = []
    for d, c in enumerate(cs.cards):
        deck += [d] * c.count
    return tuple(deck)


@dataclass(frozen=True, slots=True)
class Game:
    """A card set seated at a table: what every state of one game shares and never changes."""

    cs: CardSet
    info: tuple[CardInfo, ...]
    rules: Rules  # the table's rules (starting life, hand size, turn cap...): see docs/rules-decisions.md
    names: tuple[str, ...]
    start_life: int
    turn_cap: int
    deck: tuple[int, ...]  # every physical card, sorted by design
    # Derived from `info` for the response windows' quick "can anyone here answer at all?".
    meddling: frozenset[int] = field(init=False)  # may answer a card aimed at another
    answering: frozenset[int] = field(init=False)  # may answer a card at all
    cancelling: frozenset[int] = field(init=False)  # cancels any card, heals included (classic's Humiliation)
    reviving: bool = field(init=False)  # some heal card may revive an unconscious player
    bracing: bool = field(init=False)  # some heal card is played before the damage that would drop you
    after_block: frozenset[int] = field(init=False)  # opens a combo right after a BLOCK (Beer Money's Grab)
    # The game's table of each design's turn plays by the seats it may aim at, filled as they are first asked
    # for (`legal.card_plays`): a move table, not a fact; a copy of a state shares it with its game.
    turn_plays: tuple[dict[int, TurnPlays], ...] = field(init=False, compare=False, repr=False)
    # The game's memos of what the rules look up again and again (the same few seatings and moves recur turn
    # after turn): each a `functools.cache` of its own, so a hit costs what the module-level memo it replaces
    # cost, and nothing is shared between games. Every seat clockwise from each seat, itself first:
    seats_from: tuple[tuple[int, ...], ...] = field(init=False, compare=False, repr=False)
    askers: Callable[[int, int, tuple[bool, ...]], tuple[int, ...]] = field(  # `seats.askers`: whom a window asks
        init=False, compare=False, repr=False)
    revivable: Callable[[int, tuple[bool, ...], tuple[bool, ...]], tuple[int, ...]] = field(  # `seats.revivable`
        init=False, compare=False, repr=False)
    rivals: Callable[[int, tuple[bool, ...]], tuple[tuple[int, ...], int]] = field(  # `seats.rivals`
        init=False, compare=False, repr=False)
    heals_at: Callable[[int, tuple[int, ...]], tuple[Move, ...]] = field(  # `moves.heals_at`
        init=False, compare=False, repr=False)
    # A move made once and shared, for the moves no card's facts hold (heals, stomps, answers, follow-ups): a hit
    # costs a third of building the named tuple again.
    shared_move: MoveMaker = field(init=False, compare=False, repr=False)
    # The PICK moves an effect offers (`frames.PickF`), by where the card goes and what becomes of it, then by
    # design (None: not made yet): a pick offers a card of a hand at a time, several times a look-ahead.
    pick_moves: dict[tuple[int, Choice], list[Move | None]] = field(init=False, compare=False, repr=False)

    # What the game's players (its bots) work out from its cards once and read every decision, by the function
    # that works it out (`derived`): owned by the game, gone with it.
    _tables: dict[Callable[[Game], object], object] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        for name, value in zip(_DERIVED, _derived(self.info), strict=True):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "turn_plays", tuple({} for _ in self.info))
        n = len(self.names)
        object.__setattr__(self, "seats_from", tuple(seats.seats_from(p, n) for p in range(n)))
        object.__setattr__(self, "askers", cache(seats.askers))
        object.__setattr__(self, "revivable", cache(seats.revivable))
        object.__setattr__(self, "rivals", cache(seats.rivals))
        object.__setattr__(self, "heals_at", cache(heals_at))
        object.__setattr__(self, "shared_move", cache(Move))
        object.__setattr__(self, "pick_moves", {})
        object.__setattr__(self, "_tables", {})

    def pick_row(self, target: int, how: Choice) -> list[Move | None]:
        """The PICK moves of each design that put it at `target` as `how` says (`pick_moves`)."""
        key = (target, how)
        row = self.pick_moves.get(key)
        if row is None:
            row = self.pick_moves[key] = [None] * len(self.info)
        return row

    def derived(self, build: Callable[[Game], T]) -> T:
        """`build(self)`, worked out on the first call and kept by the game for the next (a bot's table of card
        values: each game seats new bots, and a simulation's games share one `Game`)."""
        got = self._tables.get(build)
        if got is None:
            got = self._tables[build] = build(self)
        return cast(T, got)

    @property
    def n(self) -> int:
        return len(self.names)

    @property
    def deck_total(self) -> int:
        return len(self.deck)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return Game, init_args(self)  # (cardgen/engine/frozen.py)


_DERIVED: Final = ("meddling", "answering", "cancelling", "reviving", "bracing", "after_block")


def _derived(info: tuple[CardInfo, ...]) -> tuple[object, ...]:
    return (frozenset(ci.d for ci in info if ci.meddles), frozenset(ci.d for ci in info if ci.answers),
            frozenset(ci.d for ci in info if ci.cancels), any(ci.revives for ci in info),
            any(ci.heal_first for ci in info),
            frozenset(ci.d for ci in info if ci.opener is not None and ci.opener.after_block))


def seat_names(players: int) -> tuple[str, ...]:
    """The default seat names of a table of `players`: P1, P2..."""
    return tuple(f"P{i + 1}" for i in range(players))


def make_game(cs: CardSet, names: list[str] | tuple[str, ...], turn_cap: int | None = None,
              info: tuple[CardInfo, ...] | None = None) -> Game:
    """The fixed game for `cs` at a table of `names`, built afresh (`info`: the set's card facts, if already
    worked out). A simulation makes one and starts all its games from it (`GameState.deal`): its
    tables then serve every game."""
    r = cs.rules
    return Game(cs=cs, info=info if info is not None else card_info(cs), rules=r, names=tuple(names),
                start_life=r.life, turn_cap=turn_cap if turn_cap is not None else r.turn_cap, deck=deck_of(cs))

