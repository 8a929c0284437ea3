"""The typed observation of what is pending: one `Pending` per step on the stack, built by the engine.

Bots, trackers and the table read these instead of the engine's frames (OpenSpiel's observer idea): a frame
is the engine's working record of a step, changed in place as the step runs and free to change shape when
the rules code does; a `Pending` is a frozen summary of it in the rules' own terms, with no engine object
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

`pending_of(state, frame)` gives a frame's `Pending`: each frame class builds its own (`Frame.pending` in
`engine/frames.py`, beside the rest of its rules).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Final

from cardgen.engine.kinds import Answer, Phase

if TYPE_CHECKING:
    from cardgen.engine.frames import Frame
    from cardgen.engine.state import GameState


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


# The steps other players are asked to answer in turn (a response window).
WINDOWS: Final[frozenset[StepKind]] = frozenset({StepKind.STRIKE, StepKind.OPENER, StepKind.ANSWER, StepKind.TICK,
                                                 StepKind.HEAL})
NO_ANSWER: Final[frozenset[Answer]] = frozenset()
_NO_KINDS: Final[frozenset[str]] = frozenset()
HUMILIATION_ONLY: Final[frozenset[Answer]] = frozenset({Answer.HUMILIATE})


@dataclass(frozen=True, slots=True)
class Pending:
    """One pending step in the rules' terms (see the module docstring for each field)."""

    kind: StepKind
    player: int
    card: int | None = None
    target: int | None = None
    asking: tuple[int, ...] = ()
    damage: int | None = None
    damage_left: int | None = None
    heal: int | None = None
    multiplier: int = 1
    phase: Phase | None = None
    answer: Answer | None = None
    defence: str | None = None
    defences: frozenset[str] = _NO_KINDS
    answers: frozenset[Answer] = NO_ANSWER
    sealed: bool = False


def answer_kinds(defences: frozenset[str], *more: Answer) -> frozenset[Answer]:
    """The kinds of answer a step admits: a defence if its target has defence kinds to play, and `more`."""
    return frozenset((Answer.DEFEND, *more) if defences else more)


def pending_of(s: GameState, f: Frame) -> Pending:
    """The `Pending` of frame `f` of state `s` (each frame class says its own: `Frame.pending`)."""
    return f.pending(s)
