"""The table's words: the engine's log as sentences in the rules' own terms, move labels and what is asked now.

"Bob plays Kick on Ann. Ann blocks with Dodge/Block. Ann takes 2 (10 left)." Each log line starts at a turn
or at a card the turn's player puts into play; answers and what follows join that line. Everything here is
public at a real table (cards played and discarded, damage, statuses): no hand is ever named.
Every sentence is the message catalogue's `play:` section in the table's language (templates/messages/<lang>.yaml),
with the seats' names and the cards' names (as published) as its fields.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from cardgen import messages
from cardgen.engine import events as ev
from cardgen.engine import moves as mv
from cardgen.engine.game import Game
from cardgen.engine.moves import Move
from cardgen.engine.observation import WINDOWS, Pending, StepKind

EN: Final = messages.DEFAULT_LANGUAGE

# The defence kinds with their own sentence and button (`play.log.defend.<kind>`, `play.button.defend.<kind>`).
DEFENCES: Final = frozenset({mv.Choice.DODGE, mv.Choice.BLOCK, mv.Choice.DISARM, mv.Choice.FREEDOM, mv.Choice.BREAK})


@dataclass(frozen=True)
class LogLine:
    turn: int
    text: str


def say(lang: str, key: str, **fields: object) -> str:
    """The catalogue's `play.<key>` in `lang` with its fields filled in."""
    return messages.text(f"play.{key}", lang, **fields)


def _card(g: Game, d: int, lang: str) -> str:
    return g.info[d].name if d >= 0 else say(lang, "a_card")


def reason(lang: str, why: str) -> str:
    """An engine's reason (a hold ends "broken", a game "last standing") in the table's words."""
    words = messages.message("play.why", lang)
    return str(words.get(str(why), why)) if isinstance(words, dict) else str(why)


def _direction(lang: str, choice: mv.Choice) -> str:
    words = messages.message("play.direction", lang)
    return str(words.get(str(choice), choice)) if isinstance(words, dict) else str(choice)


def _moved(g: Game, e: ev.Moved, lang: str) -> str:
    return _words(g, e.player, e.move, None, lang)[0]


# Kinds whose log line and button take the same key and nothing but the move's own names.
_SAME_WORDS: dict[mv.MoveKind, str] = {mv.DISCARD: "discard", mv.STOMP: "stomp", mv.RELEASE: "release",
                                       mv.VOMIT_HIT: "vomit_hit", mv.INTERFERE: "interfere", mv.PASS: "pass"}


def _words(g: Game, seat: int, m: Move, step: Pending | None, lang: str = EN) -> tuple[str, str]:
    """What move `m` of `seat` says in the log, and its button's words (`step`: what asks, which decides how a
    "decline" reads): one dispatch on the kind of move for both."""
    n = g.names
    who, card = n[seat], _card(g, m.card, lang)
    target = n[m.target] if m.target >= 0 else ""
    to = say(lang, "yourself") if m.target == seat else target
    drop = m.choice == mv.Choice.DROP
    k = m.kind

    def log(key: str, **more: object) -> str:
        return say(lang, f"log.{key}", who=who, card=card, target=target, **more)

    def button(key: str, **more: object) -> str:
        return say(lang, f"button.{key}", to=to, target=target, **more)

    def aimed(key: str) -> tuple[str, str]:
        """A play aimed like a card at a seat: `key`, `key_on`, and the button's `key_on_drop`."""
        said = log(f"{key}_on" if target else key)
        return said, button(f"{key}_on_drop" if drop else f"{key}_on") if to else button(key)

    if k in _SAME_WORDS:
        return log(_SAME_WORDS[k]), button(_SAME_WORDS[k])
    if k == mv.PLAY:
        if m.choice == mv.Choice.HOLD:
            return log("hold_on" if target else "hold"), button("hold_on") if to else button("hold")
        said = log(("play_on" if target else "play") + ("_drop" if drop else ""))
        return said, button("play_on_drop" if drop else "play_on") if to else button("play")
    if k == mv.DEFEND:
        kind = str(m.choice) if m.choice in DEFENCES else "other"
        label = button(f"defend.{kind}", choice=m.choice)
        return (log(f"defend.{kind}", choice=m.choice),
                button("defend_hold", defence=label) if target else label)
    if k == mv.PICK:  # a card an effect asks for: named in the log only if it goes face up (discarded)
        how = _PICKS.get(m.choice, "give")
        return (log("pick_throw") if how == "throw" else ""), button(f"pick_{how}", card=card)
    if k == mv.HEAL:
        return log("heal" if m.target == seat or not target else "heal_on"), button("heal")
    if k == mv.HUMILIATE:
        return log("humiliate_to" if target else "humiliate"), button("humiliate_to") if to else button("humiliate")
    if k == mv.DIRECTION:
        where = _direction(lang, m.choice)
        return log("direction", direction=where), button("direction", direction=where)
    if k in _OUT_OF_TURN:
        return aimed(_OUT_OF_TURN[k])
    if k == mv.DECLINE:
        return "", _decline(seat, step, lang)  # what follows says it (the damage taken, the combo ended...)
    if k == mv.DONE:
        return "", button("done")
    return "", str(k)


# What a PICK move does with its card (`play.button.pick_<key>`).
_PICKS: Final[dict[mv.Choice, str]] = {mv.Choice.GIVE: "give", mv.Choice.TAKE: "take", mv.Choice.THROW: "throw"}
# Plays out of the turn's action, aimed like a play: their keys in the catalogue's `play.log` and `play.button`.
_OUT_OF_TURN: Final[dict[mv.MoveKind, str]] = {
    mv.INTERJECT: "interject", mv.FOLLOW: "follow", mv.OPEN: "open", mv.BONUS: "bonus"}


def _event(g: Game, e: ev.Event, lang: str = EN) -> str:
    """What a non-move event adds to its line ("" for what a move has said already: draws, hits, defences)."""
    n = g.names

    def log(key: str, **fields: object) -> str:
        return say(lang, f"log.{key}", **fields)

    if isinstance(e, ev.Damage):
        return log("damage", who=n[e.player], amount=e.amount, life=e.life)
    if isinstance(e, ev.Healed):
        return log("healed", who=n[e.player], amount=e.amount, life=e.life)
    if isinstance(e, ev.Unconscious):
        return log("unconscious", who=n[e.player])
    if isinstance(e, ev.Stunned):
        return log("stunned", who=n[e.player], turn=e.until_turn)
    if isinstance(e, ev.Effected):
        who, whom = n[e.player], n[e.target] if e.target >= 0 else ""
        cards = messages.counted("effects.count.cards", lang, e.count)
        turns = messages.counted("effects.count.turns", lang, e.count)
        return log(f"effect.{e.op}", who=who, whom=whom, cards=cards, turns=turns)
    if isinstance(e, ev.StunLifted):
        return log("stun_lifted", who=n[e.player], card=_card(g, e.card, lang))
    if isinstance(e, ev.Vomiting):
        return log("vomiting", who=n[e.player], turn=e.until_turn)
    if isinstance(e, ev.TurnLost):
        return log("turn_lost", who=n[e.player], why=reason(lang, e.why))
    if isinstance(e, ev.HoldStarts):
        return log("hold_starts", holder=n[e.holder], victim=n[e.victim], card=_card(g, e.card, lang))
    if isinstance(e, ev.HoldEnds):
        return log("hold_ends", holder=n[e.holder], victim=n[e.victim], why=reason(lang, e.why))
    if isinstance(e, ev.Stomped):
        return log("stomped", who=n[e.player])
    if isinstance(e, ev.Revived):
        return log("revived", who=n[e.player])
    if isinstance(e, ev.Reshuffle):
        return log("reshuffle", cards=e.cards)
    if isinstance(e, ev.MovesOn):
        return log("moves_on", card=_card(g, e.card, lang), to=n[e.to])
    if isinstance(e, ev.Stopped):
        card = _card(g, e.card, lang)
        return log("stopped_by", by=n[e.by], card=card) if e.by >= 0 else log("stopped", card=card)
    if isinstance(e, ev.Redirected):
        return log("redirected", to=n[e.to])
    if isinstance(e, ev.Cancelled):
        return log("cancelled", who=n[e.player], card=_card(g, e.card, lang), by=n[e.by])
    if isinstance(e, ev.Combo):
        return log("combo", who=n[e.player], victim=n[e.victim])
    if isinstance(e, ev.ComboWasted):
        return log("combo_wasted", who=n[e.player])
    if isinstance(e, ev.ComboEnds):
        return log("combo_ends", who=n[e.player])
    if isinstance(e, ev.WeaponDiscarded):
        return log("weapon_dropped", who=n[e.player], card=_card(g, e.card, lang))
    if isinstance(e, ev.GameOver):
        why = reason(lang, e.reason)
        if e.winner < 0:
            return log("game_over_nobody", reason=why)
        return log("game_over", winner=n[e.winner], reason=why)
    return ""


def log_lines(g: Game, log: Sequence[ev.Event], start: int = 0, current: int = -1, lang: str = EN) -> list[LogLine]:
    """The log from event `start` on as lines in `lang` (`current`: whose turn it is at `start`)."""
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
            words.append(say(lang, "log.turn", turn=e.turn, who=g.names[e.player]))
            continue
        if isinstance(e, ev.Moved):
            if e.player == current and e.move.kind in mv.EFFECT_KINDS:
                flush()
            turn = e.turn
            if e.move.kind == mv.DISCARD and discards and discards[0] == e.player and words[-1] == discards[2]:
                discards[1].append(_card(g, e.move.card, lang))  # one sentence for a run of discards
                words[-1] = discards[2] = say(lang, "log.discards", who=g.names[e.player],
                                              cards=messages.or_list(discards[1], lang, join="and"))
                continue
            said = _moved(g, e, lang)
            if said:
                words.append(said)
                discards[:] = [e.player, [_card(g, e.move.card, lang)], said] if e.move.kind == mv.DISCARD else []
            continue
        if isinstance(e, ev.GameOver):
            flush()
        text = _event(g, e, lang)
        if text:
            words.append(text)
    flush()
    return lines


def _decline(seat: int, step: Pending | None, lang: str = EN) -> str:
    """The words for saying no, which depend on what is asked."""
    kind = step.kind if step is not None else None
    key = "no_answer"
    if kind is StepKind.COMBO:
        key = "end_combo"
    elif kind is StepKind.BONUS:
        key = "skip_bonus"
    elif kind is StepKind.AFTER_BLOCK:
        key = "no_combo"
    elif kind is StepKind.DROP or kind is StepKind.BRACE:
        key = "no_heal"
    elif kind is StepKind.LET_GO:
        key = "keep_hold"
    elif kind in _TAKEN and step is not None and step.target == seat:
        key = "take_it"
    return say(lang, f"button.{key}")


_TAKEN: Final = frozenset({StepKind.STRIKE, StepKind.OPENER, StepKind.TICK})  # what a target may "take"


def move_label(g: Game, seat: int, m: Move, step: Pending | None = None, lang: str = EN) -> str:
    """A button's words for a legal move of `seat` (the card itself is shown beside it); `step`: what asks
    (it decides how "decline" reads)."""
    return _words(g, seat, m, step, lang)[1]


# What each kind of pending step says (`play.pending.<key>`); an answer says `answer` or `answer_to`.
_PENDING: Final[dict[StepKind, str]] = {
    StepKind.STRIKE: "strike", StepKind.OPENER: "strike", StepKind.HEAL: "heal", StepKind.TICK: "tick",
    StepKind.COMBO: "combo", StepKind.BONUS: "bonus", StepKind.AFTER_BLOCK: "after_block",
    StepKind.DIRECTION: "direction", StepKind.DROP: "going_down", StepKind.BRACE: "going_down",
    StepKind.LET_GO: "let_go", StepKind.EFFECT: "effect", StepKind.PICK: "pick"}


def in_flight(g: Game, steps: Sequence[Pending], lang: str = EN) -> list[str]:
    """The cards and choices pending, bottom first, in words: "Bob's Kick at Ann"."""
    n = g.names
    out: list[str] = []
    for p in steps:
        whom = n[p.target] if p.target is not None and p.target >= 0 else ""
        key = _PENDING.get(p.kind)
        if key is None and p.kind in WINDOWS:  # an answer
            key = "answer_to" if whom else "answer"
        if key:
            out.append(say(lang, f"pending.{key}", who=n[p.player], whom=whom, damage=p.damage,
                           card=_card(g, p.card if p.card is not None else -1, lang)))
    return out
