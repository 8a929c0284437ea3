"""Why a card in hand cannot be played now, in the rules' words: what the page says on a dimmed card.

The engine's legal moves say what may be played; they do not say why the rest may not. This reads the card's
rules facts (`CardInfo`, the same the engine acts on) against what is asked now (`PlayerView.step`) and
names the first condition the card misses, as a key of the catalogue's `play.why_not` (a card's only move
may also be a discard: the reason is then for its play). Where no condition below explains it, the reason
is the general one ("the rules allow no play of it now"): never a wrong reason.
"""

from __future__ import annotations

from typing import Final

from cardgen.engine import moves as mv
from cardgen.engine.cards import CardInfo
from cardgen.engine.kinds import Phase
from cardgen.engine.observation import WINDOWS, Pending, StepKind
from cardgen.engine.views import PlayerView

# Moves that do something with a card: play it, or pick it for an effect (a discard is no play of it).
_PLAYS: Final = mv.CARD_PLAYS | {mv.PICK}


def plays_now(view: PlayerView, d: int) -> bool:
    """Some legal move now plays design `d` (not only discards it)."""
    return any(m.card == d and m.kind in _PLAYS for m in view.moves)


def why_not(view: PlayerView, ci: CardInfo) -> tuple[str, dict[str, object]]:
    """The catalogue key (under `play.why_not`) and its fields saying why `ci` has no play now."""
    seat, step = view.seat, view.step
    if view.result is not None:
        return "over", {}
    if view.to_act != seat:
        return "not_yours", {"who": view.game.names[view.to_act]}
    if step is None:
        return "none", {}
    if step.kind is StepKind.TURN:
        return _on_turn(view, ci, step)
    if step.kind in WINDOWS:
        return _in_window(view, ci, step)
    if step.kind in (StepKind.DROP, StepKind.BRACE):
        return ("heals_going_down", {}) if not (ci.heal_drop or ci.heal_turn) else ("none", {})
    if step.kind is StepKind.COMBO:
        return ("follows_combo", {}) if ci.follows is None and not ci.typed_follow_up else ("none", {})
    if step.kind is StepKind.BONUS:
        return ("free_attack", {}) if not ci.free_attack else ("none", {})
    if step.kind is StepKind.AFTER_BLOCK:
        return ("after_block", {}) if ci.opener is None or not ci.opener.after_block else ("none", {})
    return "none", {}


def _on_turn(view: PlayerView, ci: CardInfo, step: Pending) -> tuple[str, dict[str, object]]:
    seat = view.seat
    if step.phase is not None and step.phase != Phase.ACTION:
        return "action_done", {}
    if view.stunned(seat):
        return "stunned", {}
    if ci.defend_as and not ci.on_turn:
        return "defence", {"kinds": ", ".join(ci.defend_as)}
    if ci.follows is not None and not ci.turn_play:
        return "follow_up", {"combo": ci.follows}
    if ci.opener is not None and ci.opener.after_block and not ci.turn_play:
        return "after_block", {}
    if ci.heal_drop and not ci.heal_turn and not ci.turn_play:
        return "heal_drop", {}
    if ci.heal_turn and not ci.turn_play:
        hurt = view.life[seat] < view.game.start_life
        if not hurt and not (ci.revives and any(view.down)):
            return "full_life", {}
    if ci.stomp and not ci.turn_play and not any(d and not s for d, s in zip(view.down, view.stomped, strict=True)):
        return "stomp", {}
    if (ci.humiliate is not None or ci.interfere or ci.interject) and not ci.on_turn:
        return "answer_only", {}
    if ci.limited:
        return "limited", {}
    return "none", {}


def _in_window(view: PlayerView, ci: CardInfo, step: Pending) -> tuple[str, dict[str, object]]:
    card = view.game.info[step.card].name if step.card is not None and step.card >= 0 else ""
    at_me = step.target == view.seat
    if ci.defend_as:
        if not at_me:
            return "not_at_you", {"card": card}
        if not step.defences:
            return "no_defence", {"card": card}
        if not set(ci.defend_as) & set(step.defences):
            return "wrong_defence", {"card": card, "kinds": ", ".join(sorted(step.defences))}
    if ci.turn_play and not (ci.interject or ci.meddles or ci.defend_as):
        return "on_your_turn", {}
    if ci.follows is not None and not (ci.answers or ci.interject):
        return "follow_up", {"combo": ci.follows}
    if ci.heal_drop and ci.heal_turn and not ci.answers:
        return "heal_turn_or_drop", {}
    if ci.heal_drop and not ci.answers:
        return "heal_drop", {}
    if ci.heal_turn and not ci.answers:
        return "on_your_turn", {}
    if step.sealed:
        return "sealed", {"card": card}
    return "none", {}
