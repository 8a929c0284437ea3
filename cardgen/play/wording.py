"""The table's words: the engine's log as sentences in the rules' own terms, move labels and what is asked now.

"Bob plays Kick on Ann. Ann blocks with Dodge/Block. Ann takes 2 (10 left)." Each log line starts at a turn
or at a card the turn's player puts into play; answers and what follows join that line. Everything here is
public at a real table (cards played and discarded, damage, statuses): no hand is ever named.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardgen.engine import events as ev
from cardgen.engine import moves as mv
from cardgen.engine.game import Game
from cardgen.engine.moves import Move
from cardgen.engine.state import (
    AfterBlockF,
    BonusF,
    BraceF,
    ComboF,
    DirectionF,
    DropF,
    Frame,
    HealF,
    LetGoF,
    OpenerF,
    StrikeF,
    TickF,
    TurnF,
)

# How each defence kind reads as a verb.
DEFENCE_VERBS = {"dodge": "dodges", "block": "blocks", "disarm": "disarms", "freedom": "breaks free",
                 "break": "breaks the hold"}


@dataclass(frozen=True)
class LogLine:
    turn: int
    text: str


def _card(g: Game, d: int) -> str:
    return g.info[d].name if d >= 0 else "a card"


def _moved(g: Game, e: ev.Moved) -> str:
    n, m = g.names, e.move
    who, card = n[e.player], _card(g, m.card)
    on = f" on {n[m.target]}" if m.target >= 0 else ""
    k = m.kind
    if k == mv.PLAY:
        how = " as a hold" if m.choice == "hold" else ""
        drop = " (and drops it after)" if m.choice == "drop" else ""
        return f"{who} plays {card}{how}{on}{drop}."
    if k == mv.DEFEND:
        verb = DEFENCE_VERBS.get(m.choice, f"defends ({m.choice})")
        return f"{who} {verb} with {card}."
    if k == mv.DISCARD:
        return f"{who} discards {card}."
    if k == mv.HEAL:
        return f"{who} plays {card}" + ("." if m.target == e.player else f" on {n[m.target]}.")
    if k == mv.STOMP:
        return f"{who} stomps {n[m.target]} with {card}."
    if k == mv.RELEASE:
        return f"{who} lets go of {n[m.target]}."
    if k == mv.VOMIT_HIT:
        return f"{who} takes the free hit on the vomiting {n[m.target]} with {card}."
    if k == mv.HUMILIATE:
        return f"{who} plays {card}" + (f", sending it to {n[m.target]}." if m.target >= 0 else ".")
    if k == mv.INTERFERE:
        return f"{who} interferes with {card}."
    if k == mv.INTERJECT:
        return f"{who} plays {card}{on}."
    if k == mv.FOLLOW:
        return f"{who} follows up with {card}{on}."
    if k == mv.OPEN:
        return f"{who} answers the block with {card}{on}."
    if k == mv.BONUS:
        return f"{who} takes the free attack: {card}{on}."
    if k == mv.DIRECTION:
        return f"{who} sends it {m.choice}."
    if k == mv.PASS:
        return f"{who} passes."
    return ""  # DONE, DECLINE: what follows says it (the damage taken, the combo ended, the turn over)


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


def _decline(seat: int, top: Frame | None) -> str:
    """The words for saying no, which depend on what is asked."""
    if isinstance(top, ComboF):
        return "End the combo"
    if isinstance(top, BonusF):
        return "Skip the free attack"
    if isinstance(top, AfterBlockF):
        return "No combo"
    if isinstance(top, DropF | BraceF):
        return "No heal"
    if isinstance(top, LetGoF):
        return "Keep the hold"
    if isinstance(top, StrikeF | OpenerF | TickF) and top.target == seat:
        return "Take it"
    return "No answer"


def move_label(g: Game, seat: int, m: Move, top: Frame | None = None) -> str:
    """A button's words for a legal move of `seat` (the card itself is shown beside it); `top`: the frame
    that asks (it decides how "decline" reads)."""
    n = g.names
    to = "yourself" if m.target == seat else n[m.target] if m.target >= 0 else ""
    k = m.kind
    if k == mv.PLAY:
        base = "Play as a hold" if m.choice == "hold" else "Play"
        return f"{base} on {to}" + (", then drop it" if m.choice == "drop" else "") if to else base
    if k == mv.DISCARD:
        return "Discard"
    if k == mv.DEFEND:
        verb = {"dodge": "Dodge", "block": "Block", "disarm": "Disarm", "freedom": "Break free",
                "break": "Break the hold"}.get(m.choice, f"Defend ({m.choice})")
        return f"{verb}" + (f" ({n[m.target]}'s hold)" if m.target >= 0 else "")
    if k == mv.HEAL:
        return f"Heal {to}"
    if k == mv.STOMP:
        return f"Stomp {to}"
    if k == mv.RELEASE:
        return f"Let go of {to}"
    if k == mv.VOMIT_HIT:
        return f"Free hit on {to}"
    if k == mv.HUMILIATE:
        return f"Send it to {to}" if to else "Stop it"
    if k == mv.INTERFERE:
        return "Interfere"
    if k == mv.DIRECTION:
        return f"Send it {m.choice}"
    if k in (mv.INTERJECT, mv.FOLLOW, mv.OPEN, mv.BONUS):
        word = {mv.INTERJECT: "Play", mv.FOLLOW: "Follow up", mv.OPEN: "Open a combo", mv.BONUS: "Free attack"}[k]
        return f"{word} on {to}" + (", then drop it" if m.choice == "drop" else "") if to else word
    if k == mv.DECLINE:
        return _decline(seat, top)
    return {mv.PASS: "Pass", mv.DONE: "Done"}.get(k, str(k))


def in_flight(g: Game, frames: Sequence[Frame]) -> list[str]:
    """The cards and choices pending, bottom first, in words: "Bob's Kick at Ann"."""
    n = g.names
    out: list[str] = []
    for f in frames:
        who = n[f.player]
        if isinstance(f, StrikeF | OpenerF):
            out.append(f"{who}'s {_card(g, f.design)} at {n[f.target]}")
        elif isinstance(f, HealF):
            out.append(f"{who}'s {_card(g, f.design)} on {n[f.target]}")
        elif isinstance(f, TickF):
            out.append(f"{who}'s hold on {n[f.hold.victim]} is about to hurt ({f.hold.damage})")
        elif isinstance(f, ComboF):
            out.append(f"{who}'s combo on {n[f.victim]}")
        elif isinstance(f, BonusF):
            out.append(f"{who}'s free attack on {n[f.victim]}")
        elif isinstance(f, AfterBlockF):
            out.append(f"after {who}'s block, a combo may open")
        elif isinstance(f, DirectionF):
            out.append(f"{who} picks where the dodged attack goes")
        elif isinstance(f, DropF | BraceF):
            out.append(f"{who} is going down: a heal may save them")
        elif isinstance(f, LetGoF):
            out.append(f"{who} may let go of a hold")
        elif not isinstance(f, TurnF):
            out.append(f"{who}: {type(f).__name__}")
    return out
