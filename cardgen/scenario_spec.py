"""A scenario as typed data (docs/scenarios.md): what the loader reads from a file and the engine plays.

`cardgen.loader.scenario` builds a `ScenarioSpec` and checks everything the file and its card set decide
(the shape, card and player names, copies against the deck, life against the rules); the engine's
`cardgen.engine.replay` sets the table and plays it, checking what only the game can decide (is this move
legal now?). Every item keeps its place in the file, so both report `file:line:col`. Like `model`, this is
plain frozen data shared by both stages, so the engine never imports the loader.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
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
    # `made_with:` what each set's cards were when the file was saved (set name -> card name -> digest), and where
    made_with: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    made_with_pos: Pos = (1, 1)
    # `deck_shuffled:` the hands and piles are the whole deck as `seed` shuffled it (a simulated game's deal):
    # the shuffling generator goes on from that shuffle
    deck_shuffled: bool = False

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats)

    def diagnostic(self, pos: Pos, message: str) -> Diagnostic:
        return Diagnostic(self.path, pos[0], pos[1], message)

    def error(self, pos: Pos, message: str) -> ScenarioError:
        return ScenarioError([self.diagnostic(pos, message)])


# What a card's digest leaves out: its words and pictures, and where it is written (they change no game).
_NOT_PLAYED = frozenset({"text", "flavour", "art", "back", "intended", "number", "origin", "file", "line", "column"})
RULES_KEY = "(rules)"  # the set's rules, digested beside its cards
_RULES_WORDS = frozenset({"life_word", "counters_hint"})  # printed words (a translation changes them), no rule


def _digest(data: object) -> str:
    text = json.dumps(data, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def made_with(cs: CardSet) -> dict[str, dict[str, str]]:
    """Each set of the deck: its rules' digest and each card's (what the engine plays: not text, art or place)."""
    out: dict[str, dict[str, str]] = {}
    for c in cs.cards:
        origin = c.origin or cs.name
        if origin not in out:
            rules = dataclasses.asdict(cs.origin_rules.get(origin, cs.rules))
            out[origin] = {RULES_KEY: _digest({k: v for k, v in rules.items() if k not in _RULES_WORDS})}
        fields = {k: v for k, v in dataclasses.asdict(c).items() if k not in _NOT_PLAYED}
        out[origin][c.name] = _digest(fields)
    return out


def changed_since(spec: ScenarioSpec) -> list[Diagnostic]:
    """Warnings for every set whose cards or rules are not what `made_with:` says they were when saved."""
    if not spec.made_with:
        return []
    now = made_with(spec.cs)
    out: list[Diagnostic] = []

    def warn(message: str) -> None:
        out.append(Diagnostic(spec.path, spec.made_with_pos[0], spec.made_with_pos[1], message, "warning"))

    for name, then in spec.made_with.items():
        cards = now.get(name)
        if cards is None:
            warn(f"set '{name}' was in the deck when this game was saved, and is not now")
            continue
        changed = [n for n in then if n != RULES_KEY and n in cards and cards[n] != then[n]]
        gone = [n for n in then if n != RULES_KEY and n not in cards]
        new = [n for n in cards if n != RULES_KEY and n not in then]
        if then.get(RULES_KEY) not in (None, cards[RULES_KEY]):
            warn(f"set '{name}': its rules changed since this game was saved")
        for n in changed:
            warn(f"set '{name}': card '{n}' changed since this game was saved")
        for n in gone:
            warn(f"set '{name}': card '{n}' was removed since this game was saved")
        for n in new:
            warn(f"set '{name}': card '{n}' was added since this game was saved")
    return out
