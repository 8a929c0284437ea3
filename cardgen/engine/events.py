"""The game log: one small class per kind of event, naming seats and card designs by number.

Events hold seat numbers and design indices (two cards named Dodge in a mixed deck stay apart); names
are added only when an event is written out (`Event.json`, used by `cardgen replay`). Each class's
`event` is the name the JSON gives it, and its fields come out in the order they are declared. Events
are not frozen (a frozen dataclass costs three times as much to make, and simulations log every game):
read them, never change them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, ClassVar

from cardgen.engine.kinds import How
from cardgen.engine.moves import Move
from cardgen.engine.outcome import Reason

if TYPE_CHECKING:
    from cardgen.engine.game import Game

# Fields that hold a seat (-1: nobody) or a card design, in every event class: written out as names.
SEAT_FIELDS = frozenset({"player", "by", "holder", "victim", "to", "winner", "target"})
CARD_FIELDS = frozenset({"card", "why"})


class LostTurn(StrEnum):
    """Why a player loses their turn (`TurnLost`)."""

    STUNNED = "stunned"
    VOMITING = "vomiting"
    UNCONSCIOUS = "unconscious"
    SKIPPED = "skipped"  # a card's `skip_turns` effect


class HoldEnd(StrEnum):
    """Why a hold ends (`HoldEnds`)."""

    RELEASED = "released"
    BROKEN = "broken"
    HOLDER_OUT = "holder out"
    VICTIM_OUT = "victim out"


@dataclass(slots=True)
class Event:
    """Something that happened on turn `turn`."""

    event: ClassVar[str] = "event"
    turn: int

    def json(self, game: Game) -> dict[str, object]:
        """The event as JSON-ready data, seats and cards by name."""
        out: dict[str, object] = {"turn": self.turn, "event": self.event}
        for f in dataclasses.fields(self)[1:]:
            value = getattr(self, f.name)
            if f.name in SEAT_FIELDS and isinstance(value, int):
                value = game.names[value] if value >= 0 else None
            elif f.name in CARD_FIELDS and isinstance(value, int):
                value = game.info[value].name
            out[f.name] = value
        return out


@dataclass(slots=True)
class Moved(Event):
    """A player's decision (the JSON leaves out what the move does not name)."""

    event: ClassVar[str] = "move"
    player: int
    move: Move

    def json(self, game: Game) -> dict[str, object]:
        m = self.move
        out: dict[str, object] = {"turn": self.turn, "event": self.event, "move": m.kind,
                                  "player": game.names[self.player]}
        if m.card >= 0:
            out["card"] = game.info[m.card].name
        if m.target >= 0:
            out["target"] = game.names[m.target]
        if m.choice:
            out["choice"] = str(m.choice)
        return out


@dataclass(slots=True)
class TurnStarts(Event):
    event: ClassVar[str] = "turn starts"
    player: int


@dataclass(slots=True)
class TurnLost(Event):
    event: ClassVar[str] = "turn lost"
    player: int
    why: LostTurn

    def json(self, game: Game) -> dict[str, object]:
        return {"turn": self.turn, "event": self.event, "player": game.names[self.player], "why": self.why}


@dataclass(slots=True)
class Draws(Event):
    event: ClassVar[str] = "draws"
    player: int
    cards: int


@dataclass(slots=True)
class Reshuffle(Event):
    event: ClassVar[str] = "reshuffle"
    cards: int


@dataclass(slots=True)
class Hit(Event):
    event: ClassVar[str] = "hit"
    card: int
    player: int
    strike: int
    of: int


@dataclass(slots=True)
class Stomped(Event):
    event: ClassVar[str] = "stomped"
    player: int


@dataclass(slots=True)
class Stunned(Event):
    event: ClassVar[str] = "stunned"
    player: int
    until_turn: int


@dataclass(slots=True)
class Effected(Event):
    """One primitive of a card's `effects:` done by `player`'s card on `target` (-1: nobody in particular, or
    every player at once): `count` cards or turns where it moves some. Hits, damage and heals log as usual."""

    event: ClassVar[str] = "effect"
    player: int
    card: int
    op: str
    target: int
    count: int


@dataclass(slots=True)
class StunLifted(Event):
    """A cancelled card's own STUNNED no longer holds (its player is not stunned by it)."""

    event: ClassVar[str] = "stun lifted"
    player: int
    card: int


@dataclass(slots=True)
class HoldStarts(Event):
    event: ClassVar[str] = "hold"
    holder: int
    victim: int
    card: int


@dataclass(slots=True)
class Damage(Event):
    """`player` lost `amount` (to `life`) to card `why`."""

    event: ClassVar[str] = "damage"
    player: int
    amount: int
    life: int
    why: int


@dataclass(slots=True)
class Healed(Event):
    event: ClassVar[str] = "heal"
    player: int
    amount: int
    life: int
    by: int
    card: int


@dataclass(slots=True)
class Revived(Event):
    event: ClassVar[str] = "revived"
    player: int


@dataclass(slots=True)
class Unconscious(Event):
    event: ClassVar[str] = "unconscious"
    player: int
    life: int


@dataclass(slots=True)
class GameOver(Event):
    event: ClassVar[str] = "game over"
    winner: int
    reason: Reason


@dataclass(slots=True)
class HoldEnds(Event):
    event: ClassVar[str] = "hold ends"
    holder: int
    victim: int
    why: HoldEnd

    def json(self, game: Game) -> dict[str, object]:
        return {"turn": self.turn, "event": self.event, "holder": game.names[self.holder],
                "victim": game.names[self.victim], "why": self.why}


@dataclass(slots=True)
class Vomiting(Event):
    event: ClassVar[str] = "vomiting"
    player: int
    until_turn: int


@dataclass(slots=True)
class MovesOn(Event):
    event: ClassVar[str] = "moves on"
    card: int
    to: int


@dataclass(slots=True)
class Defended(Event):
    event: ClassVar[str] = "defended"
    player: int
    card: int
    how: How


@dataclass(slots=True)
class Interferes(Event):
    event: ClassVar[str] = "interferes"
    player: int


@dataclass(slots=True)
class Stopped(Event):
    event: ClassVar[str] = "stopped"
    card: int
    by: int


@dataclass(slots=True)
class Redirected(Event):
    event: ClassVar[str] = "redirected"
    to: int


@dataclass(slots=True)
class Cancelled(Event):
    event: ClassVar[str] = "cancelled"
    card: int
    player: int
    by: int


@dataclass(slots=True)
class Combo(Event):
    event: ClassVar[str] = "combo"
    player: int
    victim: int
    combo: str


@dataclass(slots=True)
class ComboWasted(Event):
    event: ClassVar[str] = "combo wasted"
    player: int


@dataclass(slots=True)
class ComboEnds(Event):
    event: ClassVar[str] = "combo ends"
    player: int


@dataclass(slots=True)
class WeaponDiscarded(Event):
    event: ClassVar[str] = "weapon discarded"
    card: int
    player: int


@dataclass(slots=True)
class WeaponBack(Event):
    event: ClassVar[str] = "weapon back to hand"
    card: int
    player: int


def log_json(game: Game, log: list[Event]) -> list[dict[str, object]]:
    """A whole log as JSON-ready data."""
    return [e.json(game) for e in log]
