"""Card effects as data: the primitives a card's `effects:` list is made of, each declared once.

The classic rulebook says a special event does whatever the card says. A designer writes what it says as an
ordered list of primitives with parameters (`- steal: {who: chosen}`, `- pass: {cards: 1, way: left}`), and
everything else follows from the declarations below: the loader's schema and its bounds
(`schema_parts.effects_schema`), the printed text and the rules page (the message catalogue's
`effects.<op>` sentence in every language), the spreadsheet column, the numbers `tune` may vary, and the engine
(`engine/primitives.RUN`, one function per primitive). A test fails when a registered primitive lacks any of
them. Adding a primitive is one entry here, its engine function, its sentence in each catalogue and its tests.

A card that only words can describe writes `effects: text`: it prints its `text` as written, the engine plays
it as doing nothing, and `validate` and the balance lab name it "not simulated".
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final


class Who(StrEnum):
    """Whom a primitive acts on, from the card's player's seat.

    `chosen`: the player the card is played at (the card then needs a target when played); `left`/`right`: the
    next conscious neighbour that way; `others`: every other conscious player, from the left; `all`: the same and
    then the card's player; `most`/`fewest`: the conscious player with the most or fewest life or counters (ties:
    the first clockwise from the card's player's left, the card's player last), the card's player included
    unless the primitive moves cards between two hands.
    """

    SELF = "self"
    CHOSEN = "chosen"
    LEFT = "left"
    RIGHT = "right"
    OTHERS = "others"
    ALL = "all"
    MOST = "most"
    FEWEST = "fewest"


class Pick(StrEnum):
    """Which cards leave a hand: the ones a player `chosen` (a real decision), or at `random`."""

    CHOSEN = "chosen"
    RANDOM = "random"


class Way(StrEnum):
    """Which way cards are passed: `left` (clockwise) or `right`."""

    LEFT = "left"
    RIGHT = "right"


EVERYONE: Final = tuple(Who)
ONE_OTHER: Final = (Who.CHOSEN, Who.LEFT, Who.RIGHT, Who.MOST, Who.FEWEST)  # another player's hand
ANOTHER_OR_OTHERS: Final = (*ONE_OTHER, Who.OTHERS)


@dataclass(frozen=True)
class Number:
    """A whole-number parameter: its default and bounds (`tune` varies it within them)."""

    name: str
    default: int
    low: int
    high: int


@dataclass(frozen=True)
class Word:
    """A parameter that is one word of a vocabulary."""

    name: str
    default: str
    words: tuple[str, ...]


@dataclass(frozen=True)
class Primitive:
    """One primitive: its parameters, what it does (for the docs and the schema), and how the engine treats it.

    `strike`: it is a hit the engine puts in flight like an attack's: "defended" (the card's defences may answer
    each hit) or "sealed" (nothing answers it); "" for anything else. `moves_cards`: it moves cards between two
    players' hands (`most`/`fewest` then leave out the card's player). `own_log`: the log shows it by the events it
    causes (the damage a hit does, what a heal restores), so it has no `play.log.effect.<op>` line of its own.
    """

    op: str
    doc: str
    numbers: tuple[Number, ...] = ()
    words: tuple[Word, ...] = ()
    strike: str = ""
    moves_cards: bool = False
    own_log: bool = False

    @property
    def params(self) -> tuple[str, ...]:
        return tuple(n.name for n in self.numbers) + tuple(w.name for w in self.words)

    def default(self, name: str) -> int | str:
        for n in self.numbers:
            if n.name == name:
                return n.default
        for w in self.words:
            if w.name == name:
                return w.default
        raise KeyError(name)


def _who(default: Who, allowed: tuple[Who, ...] = EVERYONE) -> Word:
    return Word("who", default.value, tuple(w.value for w in allowed))


_CARDS: Final = Number("cards", 1, 1, 10)
_AMOUNT: Final = Number("amount", 1, 1, 20)
_PICKS: Final = tuple(p.value for p in Pick)
_PICK_OWN: Final = Word("pick", Pick.CHOSEN.value, _PICKS)
_PICK_THEIRS: Final = Word("pick", Pick.RANDOM.value, _PICKS)

PRIMITIVES: Final[dict[str, Primitive]] = {p.op: p for p in (
    Primitive("damage", "deals `amount` to each player `who` names; their defences against the card may answer "
              "each hit", (_AMOUNT,), (_who(Who.CHOSEN),), strike="defended", own_log=True),
    Primitive("lose", "moves `amount` of each named player's life or counters to the lost pool: not a hit, so "
              "nothing defends it", (_AMOUNT,), (_who(Who.CHOSEN),), strike="sealed", own_log=True),
    Primitive("heal", "gives each named player `amount` back from the lost pool, never above the starting life",
              (_AMOUNT,), (_who(Who.SELF),), own_log=True),
    Primitive("draw", "each named player draws `cards` cards", (_CARDS,), (_who(Who.SELF),)),
    Primitive("discard", "each named player discards `cards` cards: ones they choose, or at random",
              (_CARDS,), (_who(Who.CHOSEN), _PICK_OWN)),
    Primitive("steal", "the card's player takes `cards` cards from each named player's hand: at random, or "
              "chosen by the card's player looking at that hand", (_CARDS,),
              (_who(Who.CHOSEN, ANOTHER_OR_OTHERS), _PICK_THEIRS), moves_cards=True),
    Primitive("give", "the card's player gives `cards` cards of their choice to each named player", (_CARDS,),
              (_who(Who.CHOSEN, ANOTHER_OR_OTHERS),), moves_cards=True),
    Primitive("swap_hands", "the card's player and the named player swap hands", (),
              (_who(Who.CHOSEN, ONE_OTHER),), moves_cards=True),
    Primitive("pass", "every conscious player chooses `cards` cards and passes them to the next player `way`, "
              "all at once", (_CARDS,), (Word("way", Way.LEFT.value, tuple(w.value for w in Way)),)),
    Primitive("take_discard", "the card's player takes the top `cards` cards of the discard pile (under this "
              "card) into their hand", (_CARDS,)),
    Primitive("shuffle_discard", "the discard pile (but this card) is shuffled into the draw pile"),
    Primitive("skip_turns", "each named player loses their next `turns` turns (they may still answer cards)",
              (Number("turns", 1, 1, 5),), (_who(Who.LEFT),)),
    Primitive("reveal_hand", "the named player shows their hand to the card's player alone", (),
              (_who(Who.CHOSEN, ONE_OTHER),), moves_cards=True),
    Primitive("stun", "each named player is stunned for the rest of this turn and the next `turns` turns of anyone "
              "(as STUNS nT): no turn, no card at all", (Number("turns", 1, 1, 5),), (_who(Who.CHOSEN),)),
)}

TEXT_ONLY: Final = "text"  # `effects: text`: words alone, not simulated


@dataclass(frozen=True)
class Effect:
    """One primitive of a card's `effects:`, every parameter given (defaults filled in), in declared order."""

    op: str
    values: tuple[tuple[str, int | str], ...]

    def number(self, name: str) -> int:
        value = dict(self.values)[name]
        assert isinstance(value, int)
        return value

    def word(self, name: str) -> str:
        value = dict(self.values)[name]
        assert isinstance(value, str)
        return value

    @property
    def who(self) -> str:
        """Whom it acts on ("" for a primitive without a `who`)."""
        value = dict(self.values).get("who", "")
        return value if isinstance(value, str) else ""

    def as_data(self) -> dict[str, dict[str, int | str]]:
        """The effect as a designer writes it, parameters at their defaults left out (the sheet and `new`)."""
        prim = PRIMITIVES[self.op]
        return {self.op: {k: v for k, v in self.values if v != prim.default(k)}}


def make_effect(op: str, given: dict[str, int | str] | int | None) -> Effect:
    """An `Effect` of primitive `op` with the parameters `given` (already checked by the schema): a mapping, none,
    or a number alone, which is the primitive's first number (`- draw: 2`)."""
    prim = PRIMITIVES[op]
    if isinstance(given, int):
        given = {prim.numbers[0].name: given}
    given = given or {}
    return Effect(op, tuple((name, given.get(name, prim.default(name))) for name in prim.params))


def aims(effects: tuple[Effect, ...]) -> bool:
    """The card is played at one chosen player: some primitive acts on `chosen`."""
    return any(e.who == Who.CHOSEN for e in effects)


def hits(effects: tuple[Effect, ...]) -> bool:
    """Some primitive deals damage: the card's defences (`defended_by`, or its role's) may answer its hits."""
    return any(PRIMITIVES[e.op].strike == "defended" for e in effects)


def numbers_of(effects: tuple[Effect, ...]) -> list[tuple[int, str, Number]]:
    """Every number of a card's effects, with its primitive's position and bounds (what `tune` may vary)."""
    out: list[tuple[int, str, Number]] = []
    for i, e in enumerate(effects):
        for n in PRIMITIVES[e.op].numbers:
            out.append((i, n.name, n))
    return out
