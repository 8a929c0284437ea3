"""The typed observation of what is pending: one `Pending` per step on the stack, built by the engine.

Bots, trackers and the table read these instead of the engine's frames (OpenSpiel's observer idea): a frame
is the engine's working record of a step, changed in place as the step runs and free to change shape when
the rules code does; a `Pending` is an immutable summary of it in the rules' own terms, with no engine object
inside. `PlayerView.step` is the one deciding now, `PlayerView.steps` all of them, bottom first (the turn,
then the cards in flight...). Agreed with the balance lab (issue 20) and the engine refit (issue 24): the
fields below change only by agreement (docs and /work/coord/observation.md).

Fields (None where a field does not apply to the kind):

- `kind`: which kind of step (`StepKind`, one per frame class);
- `player`: whose step it is: the turn's player, the card's player (a strike, an opener, an answer, a heal),
  the holder (a hold's tick, a let-go), the combo's or free attack's player, the blocker (after a block), the
  player dropping or bracing, the dodged attack's player (direction);
- `card`: the design played (a strike, an opener, an answer, a heal; a tick's hold card);
- `target`: whom it is aimed at: a window's target, a combo's or free attack's victim, the attacker a blocker
  may grab back (after a block);
- `asking`: the seats a response window will still ask, in order (the one deciding first); () elsewhere;
- `damage`: what it deals next if nothing stops it: a strike's next hit, a hold's tick, the damage a player
  braces for;
- `damage_left`: a strike's hits still to come, summed;
- `heal`: a heal card's amount;
- `multiplier`: a combo's (or an opener's) multiplier of its follow-ups' damage, as the card says (1 elsewhere);
- `phase`: a turn's phase (`Phase`);
- `answer`, `defence`: what an answer does to the step below it (`Answer`) and how (the defence kind it
  plays, or `cancel` / `redirect` for a humiliation);
- `defences`: the defence kinds its target may play against it now (a strike, an opener, a tick);
- `answers`: the kinds of answer the rules admit to it at all (`Answer`; the cards in hand decide the rest;
  out-of-turn attacks, which may interject in most windows, are not answers);
- `sealed`: nothing may answer it (a Lunch Money Grab's free attack).

`pending_of(state, frame)` is the one place a `Pending` is made from a frame.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from cardgen.engine.kinds import How
from cardgen.engine.legal import allowed_defences
from cardgen.engine.moves import Choice
from cardgen.engine.state import (
    AfterBlockF,
    Answer,
    AnswerF,
    BonusF,
    BraceF,
    ComboF,
    DirectionF,
    DropF,
    EffectsF,
    Frame,
    GameState,
    HealF,
    LetGoF,
    OpenerF,
    Phase,
    PickF,
    StrikeF,
    TickF,
    TurnF,
)
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
_NO_KINDS: Final[frozenset[DefenceKind]] = frozenset()
# The answer kinds a step admits (`Pending.answers`), made once.
_NONE: Final[frozenset[Answer]] = frozenset()
_H: Final[frozenset[Answer]] = frozenset({Answer.HUMILIATE})
_D: Final[frozenset[Answer]] = frozenset({Answer.DEFEND})
_DH: Final[frozenset[Answer]] = frozenset({Answer.DEFEND, Answer.HUMILIATE})
_HI: Final[frozenset[Answer]] = frozenset({Answer.HUMILIATE, Answer.INTERFERE})
_DHI: Final[frozenset[Answer]] = frozenset({Answer.DEFEND, Answer.HUMILIATE, Answer.INTERFERE})


class Pending:
    """One pending step in the rules' terms (see the module docstring for each field).

    Immutable: every attribute is `Final` (mypy rejects an assignment; compiled by mypyc, so is Python); compared
    and hashed by value. A plain class, not a frozen dataclass or a named tuple: a bot reads one at most
    decisions, and those took 1 to 3 µs to build (a fifth of a compiled decision), this one 0.05 µs compiled."""

    __slots__ = ("answer", "answers", "asking", "card", "damage", "damage_left", "defence", "defences", "heal",
                 "kind", "multiplier", "phase", "player", "sealed", "target")

    def __init__(self, kind: StepKind, player: int, card: int | None = None, target: int | None = None,
                 asking: tuple[int, ...] = (), damage: int | None = None, damage_left: int | None = None,
                 heal: int | None = None, multiplier: int = 1, phase: Phase | None = None,
                 answer: Answer | None = None, defence: How | None = None, defences: frozenset[DefenceKind] = _NO_KINDS,
                 answers: frozenset[Answer] = _NONE, sealed: bool = False) -> None:
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


def pending_of(s: GameState, f: Frame) -> Pending:
    """The `Pending` of frame `f` of state `s` (the one place frames are read for the observation)."""
    t = type(f)
    if t is TurnF:
        assert isinstance(f, TurnF)
        return Pending(StepKind.TURN, f.player, None, None, (), None, None, None, 1, f.phase, None, None,
                       _NO_KINDS, _NONE, False)
    if t is StrikeF:
        assert isinstance(f, StrikeF)
        left = f.dmg[f.si:]
        defences = allowed_defences(s, f)
        answers = _NONE if f.sealed else _DHI if defences else _HI
        return Pending(StepKind.STRIKE, f.player, f.design, f.target, f.resp[f.pos:], left[0] if left else 0,
                       sum(left), None, 1, None, None, None, defences, answers, f.sealed)
    if t is AnswerF:
        assert isinstance(f, AnswerF)
        return Pending(StepKind.ANSWER, f.player, f.design if f.design >= 0 else None, f.target, f.resp[f.pos:],
                       None, None, None, 1, None, f.what, f.how, _NO_KINDS, _H, False)
    if t is OpenerF:
        assert isinstance(f, OpenerF)
        defences = allowed_defences(s, f)
        return Pending(StepKind.OPENER, f.player, f.design, f.target, f.resp[f.pos:], None, None, None,
                       f.opener.multiplier, None, None, None, defences, _DH if defences else _H, False)
    if t is TickF:
        assert isinstance(f, TickF)
        h = f.hold
        defences = frozenset(h.broken_by)
        answers = (_DH if defences else _H) if h.humiliation_breaks else (_D if defences else _NONE)
        return Pending(StepKind.TICK, f.player, h.design, h.victim, f.resp[f.pos:], h.damage, None, None, 1, None,
                       None, None, defences, answers, False)
    if t is HealF:
        assert isinstance(f, HealF)
        return Pending(StepKind.HEAL, f.player, f.design, f.target, f.resp[f.pos:], None, None, f.amount, 1, None,
                       None, None, _NO_KINDS, _H, False)
    if t is ComboF:
        assert isinstance(f, ComboF)
        return Pending(StepKind.COMBO, f.player, None, f.victim, (), None, None, None, f.multiplier, None, None,
                       None, _NO_KINDS, _NONE, f.sealed)
    if t is BonusF:
        assert isinstance(f, BonusF)
        return Pending(StepKind.BONUS, f.player, None, f.victim)
    if t is AfterBlockF:
        assert isinstance(f, AfterBlockF)
        return Pending(StepKind.AFTER_BLOCK, f.player, None, f.attacker)
    if t is BraceF:
        assert isinstance(f, BraceF)
        return Pending(StepKind.BRACE, f.player, None, None, (), f.amount)
    if t is EffectsF:
        assert isinstance(f, EffectsF)
        return Pending(StepKind.EFFECT, f.player, f.design, f.target, f.resp[f.pos:] if not f.running else (),
                       None, None, None, 1, None, None, None, _NO_KINDS, _H, False)
    if t is PickF:
        assert isinstance(f, PickF)
        task = f.tasks[0] if f.tasks else None
        return Pending(StepKind.PICK, task.picker if task else f.player, f.design,
                       (task.owner if task.how == Choice.TAKE else task.dest) if task else None)
    if t is DirectionF:
        return Pending(StepKind.DIRECTION, f.player)
    if t is DropF:
        return Pending(StepKind.DROP, f.player)
    if t is LetGoF:
        return Pending(StepKind.LET_GO, f.player)
    raise AssertionError(f"no observation for {t.__name__}")
