"""A scenario as typed data (docs/scenarios.md): what the loader reads from a file and the engine plays.

`cardgen.loader.scenario` builds a `ScenarioSpec` and checks everything the file and its card set decide
(the shape, card and player names, copies against the deck, life against the rules); the engine's
`cardgen.engine.replay` sets the table and plays it, checking what only the game can decide (is this move
legal now?). Every item keeps its place in the file, so both report `file:line:col`. Like `model`, this is
plain frozen data shared by both stages, so the engine never imports the loader.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

from cardgen.errors import Diagnostic, SetError
from cardgen.model import CardSet

Pos = tuple[int, int]  # line and column, 1-based
Action = Literal["play", "free_hit", "discard", "heal", "pick", "pass", "decline", "done", "release", "direction"]
ACTIONS: tuple[Action, ...] = ("play", "free_hit", "discard", "heal", "pick", "pass", "decline", "done", "release",
                               "direction")
NO_ACTIONS: frozenset[Action] = frozenset({"pass", "decline", "done"})  # each means "no"
CardAction = Literal["play", "free_hit", "heal", "pick"]
# How a move plays its card, as the file writes it (`as:`, or "drop" for `drop: true`; the engine's `Choice`, the
# same words): a Literal here, since the loader may not import the engine.
PlayedAs = Literal["", "drop", "hold", "dodge", "block", "disarm", "freedom", "break"]
Direction = Literal["", "left", "right"]
T = TypeVar("T", covariant=True)  # a Want[int] is a Want[object]


class ScenarioError(SetError):
    """A scenario file that is not valid, or a move in it that is not legal."""


@dataclass(frozen=True, slots=True)
class CardRef:
    """A card named in the file: the design it names, the name as written, and where."""

    design: int
    written: str
    pos: Pos


@dataclass(frozen=True, slots=True)
class Seat:
    """One player at the hand-set table."""

    name: str
    life: int
    hand: tuple[int, ...]  # design indices
    stunned: int  # stunned for the first n turns (0: not)
    down: bool  # unconscious at the start


@dataclass(frozen=True, slots=True)
class MoveSpec:
    """One scripted decision (`who` -1: an `expect_moves` entry, which names no player)."""

    pos: Pos  # the whole move
    action: Action
    key_pos: Pos  # the action's key
    value_pos: Pos  # the action's value
    written: str  # the entry as `key: value, ...`, for messages
    who: int = -1
    who_pos: Pos = (1, 1)
    cards: tuple[CardRef, ...] = ()  # play, free_hit, heal: one; discard: one or more
    player: int = -1  # release: the victim let go of
    direction: Direction = ""
    target: int = -1
    target_pos: Pos = (1, 1)
    choice: PlayedAs = ""  # `as:` (dodge, block, hold...), or "drop" for `drop: true`
    more: bool = False  # discard: no `done` after the cards


@dataclass(frozen=True, slots=True)
class Want(Generic[T]):
    """One expected value and where the file says it."""

    value: T
    pos: Pos


@dataclass(frozen=True, slots=True)
class SeatExpect:
    """What an `expect:` block says about one player (card names are the printed ones)."""

    seat: int
    life: Want[int] | None = None
    hand: Want[tuple[str, ...]] | None = None  # sorted
    has: tuple[Want[str], ...] = ()
    lacks: tuple[Want[str], ...] = ()
    cards: Want[int] | None = None
    status: Want[tuple[str, ...]] | None = None  # each word, or `not WORD`


@dataclass(frozen=True, slots=True)
class ExpectSpec:
    """An `expect:` block: the state it checks (None: not checked)."""

    seats: tuple[SeatExpect, ...] = ()
    pool: Want[int] | None = None
    to_act: Want[str | None] | None = None
    winner: Want[str | None] | None = None
    turn: Want[int] | None = None
    discard_top: Want[tuple[str, ...]] | None = None  # printed names, the top card last
    draw_pile: Want[int] | None = None


@dataclass(frozen=True, slots=True)
class MovesCheck:
    """An `expect_moves:` item: moves `who` can and cannot make at that point."""

    pos: Pos
    who: int
    can: tuple[MoveSpec, ...] = ()
    cannot: tuple[MoveSpec, ...] = ()


Step = MoveSpec | ExpectSpec | MovesCheck


@dataclass(frozen=True, slots=True)
class ScenarioSpec:
    """A whole scenario, checked against its card set (`cs`, the sets of `sets` mixed)."""

    path: str  # as shown in messages
    title: str
    description: str
    sets: tuple[str, ...]
    cs: CardSet
    seed: int
    turn_cap: int | None  # None: the set's
    seats: tuple[Seat, ...]
    draw: tuple[int, ...]  # the top of the draw pile, top card first
    discard: tuple[int, ...]
    first: int  # the seat that takes the first turn
    steps: tuple[Step, ...]  # the `moves:` list in order
    expect: ExpectSpec | None  # the final `expect:`

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats)

    def diagnostic(self, pos: Pos, message: str) -> Diagnostic:
        return Diagnostic(self.path, pos[0], pos[1], message)

    def error(self, pos: Pos, message: str) -> ScenarioError:
        return ScenarioError([self.diagnostic(pos, message)])
