"""A `Move` as data and back, in one place, for the web table, saved games and scenario files.

Two forms, each written and read here (python-chess keeps its one `Move` with its UCI and SAN forms alike):

- the wire form, the web table's JSON: `{kind, card, target, choice}`, the engine's own numbers and words.
  `to_wire` writes it; `from_wire` reads one from an untrusted page, checking every field, and says what is
  wrong as a `MoveFormatError` whose `reason` is a message-catalogue key (`refused.<reason>`).
- the named form, scenario files and saves (docs/scenarios.md): who moves, one action word with the card it
  plays (`play: Kick`, `heal: First Aid`, `discard: [...]`, `direction: left`, `pass: true`), `target:` a
  player's name, `as:` or `drop:`. `to_named` writes it; the scenario loader reads it back with each value's
  place in the file, and `ACTION_KINDS` says which engine moves an action word may stand for (`play:` is any
  card the situation lets its player play: an attack, a follow-up, an answer...).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from cardgen.engine import moves as mv
from cardgen.engine.moves import Choice, Move, MoveKind
from cardgen.errors import CardgenError
from cardgen.model import CardSet

WIRE_FIELDS: Final = ("kind", "card", "target", "choice")
_KINDS: Final = {str(k): k for k in mv.KINDS}
_CHOICES: Final = {str(c): c for c in Choice}
_MAX_INDEX: Final = 1 << 31  # a card or seat number a page may send (the engine checks it is a legal one)

# What each action word of the named form may stand for, read back against the legal moves.
NO_MOVE_KINDS: Final = frozenset({mv.PASS, mv.DECLINE, mv.DONE})  # `pass`, `decline`, `done`: each means "no"
ACTION_KINDS: Final[Mapping[str, frozenset[MoveKind]]] = {
    "play": mv.CARD_PLAYS - {mv.VOMIT_HIT}, "heal": frozenset({mv.HEAL}), "free_hit": frozenset({mv.VOMIT_HIT}),
    "discard": frozenset({mv.DISCARD}), "pick": frozenset({mv.PICK}), "release": frozenset({mv.RELEASE}),
    "direction": frozenset({mv.DIRECTION}), **{str(k): NO_MOVE_KINDS for k in sorted(NO_MOVE_KINDS)},
}


class MoveFormatError(CardgenError):
    """A wire move that is not one: `reason` is its catalogue key under `refused.`, `fields` fill its sentence."""

    def __init__(self, reason: str, **fields: str) -> None:
        super().__init__(f"{reason}: {fields}")
        self.reason = reason
        self.fields = fields


def to_wire(m: Move) -> dict[str, int | str]:
    """The move as the web table's JSON object."""
    return {"kind": str(m.kind), "card": m.card, "target": m.target, "choice": str(m.choice)}


def from_wire(data: Mapping[str, object], also: frozenset[str] = frozenset()) -> Move:
    """The move a page sent (`also`: other keys the message may carry, read by the caller); MoveFormatError
    for a key that is not a move's, a kind or choice the engine has no word for, or a number that is not one."""
    extra = sorted(str(k) for k in data if k not in WIRE_FIELDS and k not in also)
    if extra:
        raise MoveFormatError("unknown_field", field=extra[0][:40])
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in _KINDS:
        raise MoveFormatError("unknown_kind", kind=str(kind)[:40])
    card, target = number(data, "card"), number(data, "target")
    choice = data.get("choice", "")
    if not isinstance(choice, str) or choice not in _CHOICES:
        raise MoveFormatError("unknown_choice", choice=str(choice)[:40])
    return Move(_KINDS[kind], card, target, _CHOICES[choice])


def number(data: Mapping[str, object], key: str) -> int:
    """`data[key]` as a whole number from -1 (none, also when left out) up; MoveFormatError("not_number")."""
    v = data.get(key, -1)
    if not isinstance(v, int) or isinstance(v, bool) or not -1 <= v < _MAX_INDEX:
        raise MoveFormatError("not_number", field=key)
    return v


def card_ref(cs: CardSet, d: int) -> str:
    """A design as the named form names it: its printed name, or `Name@set` where a mixed deck has two of that
    name."""
    c = cs.cards[d]
    twins = [x for x in cs.cards if x.name.casefold() == c.name.casefold()]
    return f"{c.name}@{c.origin}" if len(twins) > 1 else c.name


def to_named(cs: CardSet, names: Sequence[str], p: int, m: Move) -> dict[str, object]:
    """Seat `p`'s move in the named form, naming exactly it (a discard never implies the `done` after it)."""
    out: dict[str, object] = {"who": names[p]}
    k = m.kind
    if k in NO_MOVE_KINDS:
        out[str(k)] = True
        return out
    if k == mv.RELEASE:
        out["release"] = names[m.target]
        return out
    if k == mv.DIRECTION:
        out["direction"] = str(m.choice)
        return out
    card = card_ref(cs, m.card) if m.card >= 0 else ""
    if k == mv.DISCARD:
        out["discard"] = card
        out["more"] = True  # the `done` that ends the discards is its own move
        return out
    if k == mv.PICK:
        out["pick"] = card  # where it goes and why is the effect's to say
        return out
    out["heal" if k == mv.HEAL else "free_hit" if k == mv.VOMIT_HIT else "play"] = card
    if m.target >= 0:
        out["target"] = names[m.target]
    if m.choice == Choice.DROP:
        out["drop"] = True
    elif m.choice:
        out["as"] = str(m.choice)
    return out
