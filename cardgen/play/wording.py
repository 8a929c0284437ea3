"""The table's words: the engine's log as sentences in the rules' own terms, move labels and what is asked now.

"Bob plays Kick on Ann. Ann blocks with Dodge/Block. Ann takes 2 (10 left)." Each log line starts at a turn
or at a card the turn's player puts into play; answers and what follows join that line. Everything here is
public at a real table (cards played and discarded, damage, statuses): no hand is ever named.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from cardgen.engine import events as ev
from cardgen.engine import moves as mv
from cardgen.engine.game import Game
from cardgen.engine.moves import Move
from cardgen.engine.observation import WINDOWS, Pending, StepKind

# How each defence kind reads as a verb.
DEFENCE_VERBS: dict[mv.Choice, str] = {
    mv.Choice.DODGE: "dodges", mv.Choice.BLOCK: "blocks", mv.Choice.DISARM: "disarms",
    mv.Choice.FREEDOM: "breaks free", mv.Choice.BREAK: "breaks the hold"}
# And as a button.
DEFENCE_LABELS: dict[mv.Choice, str] = {
    mv.Choice.DODGE: "Dodge", mv.Choice.BLOCK: "Block", mv.Choice.DISARM: "Disarm", mv.Choice.FREEDOM: "Break free",
    mv.Choice.BREAK: "Break the hold"}


@dataclass(frozen=True)
class LogLine:
    turn: int
    text: str


def _card(g: Game, d: int) -> str:
    return g.info[d].name if d >= 0 else "a card"


def _moved(g: Game, e: ev.Moved) -> str:
    return _words(g, e.player, e.move, None)[0]


def _words(g: Game, seat: int, m: Move, step: Pending | None) -> tuple[str, str]:
    """What move `m` of `seat` says in the log, and its button's words (`step`: what asks, which decides how a
    "decline" reads): one dispatch on the kind of move for both."""
    n = g.names
    who, card = n[seat], _card(g, m.card)
    target = n[m.target] if m.target >= 0 else ""
    on = f" on {target}" if target else ""
    to = "yourself" if m.target == seat else target
    drop = m.choice == mv.Choice.DROP
    then_drop = ", then drop it" if drop else ""
    k = m.kind
    if k == mv.PLAY:
        hold = m.choice == mv.Choice.HOLD
        base = "Play as a hold" if hold else "Play"
        return (f"{who} plays {card}{' as a hold' if hold else ''}{on}{' (and drops it after)' if drop else ''}.",
                f"{base} on {to}{then_drop}" if to else base)
    if k == mv.DEFEND:
        verb = DEFENCE_VERBS.get(m.choice, f"defends ({m.choice})")
        label = DEFENCE_LABELS.get(m.choice, f"Defend ({m.choice})")
        return f"{who} {verb} with {card}.", label + (f" ({target}'s hold)" if target else "")
    if k == mv.DISCARD:
        return f"{who} discards {card}.", "Discard"
    if k == mv.HEAL:
        return f"{who} plays {card}" + ("." if m.target == seat else f"{on}."), f"Heal {to}"
    if k == mv.STOMP:
        return f"{who} stomps {target} with {card}.", f"Stomp {to}"
    if k == mv.RELEASE:
        return f"{who} lets go of {target}.", f"Let go of {to}"
    if k == mv.VOMIT_HIT:
        return f"{who} takes the free hit on the vomiting {target} with {card}.", f"Free hit on {to}"
    if k == mv.HUMILIATE:
        return (f"{who} plays {card}" + (f", sending it to {target}." if target else "."),
                f"Send it to {to}" if to else "Stop it")
    if k == mv.INTERFERE:
        return f"{who} interferes with {card}.", "Interfere"
    if k == mv.DIRECTION:
        return f"{who} sends it {m.choice}.", f"Send it {m.choice}"
    if k in _OUT_OF_TURN:
        said, word = _OUT_OF_TURN[k]
        return f"{who} {said} {card}{on}.", f"{word} on {to}{then_drop}" if to else word
    if k == mv.PASS:
        return f"{who} passes.", "Pass"
    if k == mv.DECLINE:
        return "", _decline(seat, step)  # what follows says it (the damage taken, the combo ended...)
    if k == mv.DONE:
        return "", "Done"
    return "", str(k)


# Plays out of the turn's action, aimed like a play: the log's verb (before the card) and the button's word.
_OUT_OF_TURN: Final[dict[mv.MoveKind, tuple[str, str]]] = {
    mv.INTERJECT: ("plays", "Play"), mv.FOLLOW: ("follows up with", "Follow up"),
    mv.OPEN: ("answers the block with", "Open a combo"), mv.BONUS: ("takes the free attack:", "Free attack")}


def _event(g: Game, e: ev.Event) -> str:
    """What a non-move event adds to its line ("" for what a move has said already: draws, hits, defences)."""
    n = g.names
    if isinstance(e, ev.Damage):
        return f"{n[e.player]} takes {e.amount} ({e.life} left)."
    if isinstance(e, ev.Healed):
        return f"{n[e.player]} heals {e.amount} ({e.life} now)."
    if isinstance(e, ev.Unconscious):
        return f"{n[e.player]} is knocked out."
    if isinstance(e, ev.Stunned):
        return f"{n[e.player]} is stunned until turn {e.until_turn}."
    if isinstance(e, ev.Vomiting):
        return f"{n[e.player]} is vomiting until turn {e.until_turn}."
    if isinstance(e, ev.TurnLost):
        return f"{n[e.player]} loses the turn ({e.why})."
    if isinstance(e, ev.HoldStarts):
        return f"{n[e.holder]} holds {n[e.victim]} ({_card(g, e.card)})."
    if isinstance(e, ev.HoldEnds):
        return f"{n[e.holder]}'s hold on {n[e.victim]} ends ({e.why})."
    if isinstance(e, ev.Stomped):
        return f"{n[e.player]} is stomped out of the game."
    if isinstance(e, ev.Revived):
        return f"{n[e.player]} is back on their feet."
    if isinstance(e, ev.Reshuffle):
        return f"The discard pile is shuffled into a new draw pile ({e.cards} cards)."
    if isinstance(e, ev.MovesOn):
        return f"{_card(g, e.card)} moves on to {n[e.to]}."
    if isinstance(e, ev.Stopped):
        return f"{n[e.by]} stops {_card(g, e.card)}." if e.by >= 0 else f"{_card(g, e.card)} is stopped."
    if isinstance(e, ev.Redirected):
        return f"It now goes to {n[e.to]}."
    if isinstance(e, ev.Cancelled):
        return f"{n[e.player]}'s {_card(g, e.card)} is cancelled by {n[e.by]}."
    if isinstance(e, ev.Combo):
        return f"{n[e.player]} has a combo on {n[e.victim]}."
    if isinstance(e, ev.ComboWasted):
        return f"{n[e.player]}'s combo goes to waste."
    if isinstance(e, ev.ComboEnds):
        return f"{n[e.player]}'s combo ends."
    if isinstance(e, ev.WeaponDiscarded):
        return f"{n[e.player]} drops {_card(g, e.card)}."
    if isinstance(e, ev.GameOver):
        if e.winner < 0:
            return f"Game over: nobody wins ({e.reason})."
        return f"Game over: {n[e.winner]} wins ({e.reason})."
    return ""


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def log_lines(g: Game, log: Sequence[ev.Event], start: int = 0, current: int = -1) -> list[LogLine]:
    """The log from event `start` on as lines (`current`: whose turn it is at `start`)."""
    lines: list[LogLine] = []
    words: list[str] = []
    discards: list[Any] = []  # a run of discards being said: [player, card names, its sentence]
    turn = 0

    def flush() -> None:
        if words:
            lines.append(LogLine(turn, " ".join(words)))
            words.clear()

    for e in log[start:]:
        if isinstance(e, ev.TurnStarts):
            flush()
            turn, current = e.turn, e.player
            words.append(f"Turn {e.turn}: {g.names[e.player]}.")
            continue
        if isinstance(e, ev.Moved):
            if e.player == current and e.move.kind in mv.EFFECT_KINDS:
                flush()
            turn = e.turn
            if e.move.kind == mv.DISCARD and discards and discards[0] == e.player and words[-1] == discards[2]:
                discards[1].append(_card(g, e.move.card))  # one sentence for a run of discards
                words[-1] = discards[2] = f"{g.names[e.player]} discards {_and(discards[1])}."
                continue
            said = _moved(g, e)
            if said:
                words.append(said)
                discards[:] = [e.player, [_card(g, e.move.card)], said] if e.move.kind == mv.DISCARD else []
            continue
        if isinstance(e, ev.GameOver):
            flush()
        text = _event(g, e)
        if text:
            words.append(text)
    flush()
    return lines


def _decline(seat: int, step: Pending | None) -> str:
    """The words for saying no, which depend on what is asked."""
    kind = step.kind if step is not None else None
    if kind is StepKind.COMBO:
        return "End the combo"
    if kind is StepKind.BONUS:
        return "Skip the free attack"
    if kind is StepKind.AFTER_BLOCK:
        return "No combo"
    if kind is StepKind.DROP or kind is StepKind.BRACE:
        return "No heal"
    if kind is StepKind.LET_GO:
        return "Keep the hold"
    if kind in _TAKEN and step is not None and step.target == seat:
        return "Take it"
    return "No answer"


_TAKEN: Final = frozenset({StepKind.STRIKE, StepKind.OPENER, StepKind.TICK})  # what a target may "take"


def move_label(g: Game, seat: int, m: Move, step: Pending | None = None) -> str:
    """A button's words for a legal move of `seat` (the card itself is shown beside it); `step`: what asks
    (it decides how "decline" reads)."""
    return _words(g, seat, m, step)[1]


def in_flight(g: Game, steps: Sequence[Pending]) -> list[str]:
    """The cards and choices pending, bottom first, in words: "Bob's Kick at Ann"."""
    n = g.names
    out: list[str] = []
    for p in steps:
        who = n[p.player]
        whom = n[p.target] if p.target is not None and p.target >= 0 else ""
        card = _card(g, p.card if p.card is not None else -1)
        k = p.kind
        if k is StepKind.STRIKE or k is StepKind.OPENER:
            out.append(f"{who}'s {card} at {whom}")
        elif k is StepKind.HEAL:
            out.append(f"{who}'s {card} on {whom}")
        elif k is StepKind.TICK:
            out.append(f"{who}'s hold on {whom} is about to hurt ({p.damage})")
        elif k is StepKind.COMBO:
            out.append(f"{who}'s combo on {whom}")
        elif k is StepKind.BONUS:
            out.append(f"{who}'s free attack on {whom}")
        elif k is StepKind.AFTER_BLOCK:
            out.append(f"after {who}'s block, a combo may open")
        elif k is StepKind.DIRECTION:
            out.append(f"{who} picks where the dodged attack goes")
        elif k is StepKind.DROP or k is StepKind.BRACE:
            out.append(f"{who} is going down: a heal may save them")
        elif k is StepKind.LET_GO:
            out.append(f"{who} may let go of a hold")
        elif k in WINDOWS:  # an answer
            out.append(f"{who}'s {card} in answer" + (f" to {whom}" if whom else ""))
    return out
