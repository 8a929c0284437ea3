"""What is pending, in the rules' terms: one `Pending` per step on the stack, made by the step's own frame
(`Frame.pending`); `cardgen.engine.observation` says what each field means."""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from cardgen.engine.kinds import Answer, How, Phase
from cardgen.model import DefenceKind


class StepKind(StrEnum):
    """The kinds of pending step: one per frame class of the engine."""

    TURN = "turn"
    STRIKE = "strike"  # a card that deals damage, in flight
    OPENER = "opener"  # a combo opener waiting for answers
    ANSWER = "answer"  # a defence, humiliation or interference, itself answerable
    TICK = "tick"  # a hold about to deal its damage
    COMBO = "combo"  # a successful opener: follow-ups may come
    BONUS = "bonus"  # the free attack a humiliation earns
    AFTER_BLOCK = "after block"  # after a BLOCK: a combo may open
    DIRECTION = "direction"  # a dodged attack that passes on: left or right
    DROP = "drop"  # a player dropped to 0: heals that work when dropping
    BRACE = "brace"  # damage about to drop a player: heals that come first
    HEAL = "heal"  # a heal card in flight (a cancelling humiliation may stop it)
    LET_GO = "let go"  # a holder asked whether to let go
    EFFECT = "effect"  # a card's `effects:`: first a window (its answers), then its primitives run
    PICK = "pick"  # cards a primitive asks players to pick (`player`: who picks now; `target`: where the card goes,
    #                or whose hand it is taken from)


# The steps other players are asked to answer in turn (a response window).
WINDOWS: Final[frozenset[StepKind]] = frozenset({StepKind.STRIKE, StepKind.OPENER, StepKind.ANSWER, StepKind.TICK,
                                                 StepKind.HEAL, StepKind.EFFECT})
NO_KINDS: Final[frozenset[DefenceKind]] = frozenset()
# The answer kinds a step admits (`Pending.answers`), made once.
NO_ANSWERS: Final[frozenset[Answer]] = frozenset()
HUMILIATE_ONLY: Final[frozenset[Answer]] = frozenset({Answer.HUMILIATE})
DEFEND_ONLY: Final[frozenset[Answer]] = frozenset({Answer.DEFEND})
DEFEND_OR_HUMILIATE: Final[frozenset[Answer]] = frozenset({Answer.DEFEND, Answer.HUMILIATE})
HUMILIATE_OR_INTERFERE: Final[frozenset[Answer]] = frozenset({Answer.HUMILIATE, Answer.INTERFERE})
ANY_ANSWER: Final[frozenset[Answer]] = frozenset({Answer.DEFEND, Answer.HUMILIATE, Answer.INTERFERE})


class Pending:
    """One pending step in the rules' terms (see the module docstring for each field).

    Immutable: every attribute is `Final` (mypy rejects an assignment; compiled by mypyc, so is Python); compared
    and hashed by value. A plain class, not a frozen dataclass or a named tuple: a bot reads one at most
    decisions, and those cost a sizeable share of a compiled decision to build, this one next to nothing."""

    __slots__ = ("answer", "answers", "asking", "card", "damage", "damage_left", "defence", "defences", "heal",
                 "kind", "multiplier", "phase", "player", "sealed", "target")

    def __init__(self, kind: StepKind, player: int, card: int | None = None, target: int | None = None,
                 asking: tuple[int, ...] = (), damage: int | None = None, damage_left: int | None = None,
                 heal: int | None = None, multiplier: int = 1, phase: Phase | None = None,
                 answer: Answer | None = None, defence: How | None = None, defences: frozenset[DefenceKind] = NO_KINDS,
                 answers: frozenset[Answer] = NO_ANSWERS, sealed: bool = False) -> None:
        self.kind: Final = kind
        self.player: Final = player
        self.card: Final = card
        self.target: Final = target
        self.asking: Final = asking
        self.damage: Final = damage
        self.damage_left: Final = damage_left
        self.heal: Final = heal
        self.multiplier: Final = multiplier
        self.phase: Final = phase
        self.answer: Final = answer
        self.defence: Final = defence
        self.defences: Final = defences
        self.answers: Final = answers
        self.sealed: Final = sealed

    def values(self) -> tuple[object, ...]:
        """Every field, in the order of `FIELDS`."""
        return (self.kind, self.player, self.card, self.target, self.asking, self.damage, self.damage_left,
                self.heal, self.multiplier, self.phase, self.answer, self.defence, self.defences, self.answers,
                self.sealed)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Pending) and self.values() == other.values()

    def __hash__(self) -> int:
        return hash(self.values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(FIELDS, self.values(), strict=True))
        return f"Pending({shown})"


FIELDS: Final = ("kind", "player", "card", "target", "asking", "damage", "damage_left", "heal", "multiplier", "phase",
                 "answer", "defence", "defences", "answers", "sealed")
