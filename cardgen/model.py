"""The card-set data model: plain frozen dataclasses shared by every stage.

The loader builds these from YAML; rendering and the engine only read them.
Every field is a mechanic the engine executes, so printed text (derived from
these fields) and the rules cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal, NamedTuple

from cardgen.primitives import Effect, hits


class Source(StrEnum):
    """Where a card comes from: canon (a rulebook, a published card list) or designed here."""

    RULEBOOK = "rulebook"
    PUBLISHED_LIST = "published-list"
    DESIGNED = "designed"


class Role(StrEnum):
    """How the engine treats the cards of a type."""

    ATTACK = "attack"
    WEAPON = "weapon"
    DEFENCE = "defence"
    HEAL = "heal"
    COUNTER = "counter"
    WRESTLING = "wrestling"
    SPECIAL = "special"
    EVENT = "event"
    HUMILIATION = "humiliation"


class DefenceKind(StrEnum):
    """What a defence does: the words a card's `defence`, `defended_by` and a hold's `broken_by` use."""

    DODGE = "dodge"
    BLOCK = "block"
    DISARM = "disarm"
    FREEDOM = "freedom"
    BREAK = "break"


class PairHalf(StrEnum):
    """A half of a counter pair (`pair: [dodge, hold]`)."""

    DODGE = "dodge"
    BLOCK = "block"
    HOLD = "hold"
    DISARM = "disarm"


class PassesOn(StrEnum):
    """Where a dodged `passes_on` attack goes next."""

    LEFT = "left"
    RIGHT = "right"
    EITHER = "either"


class Targets(StrEnum):
    """Whom a card's hit strikes."""

    ONE = "one"
    OTHERS = "others"
    SELF = "self"
    ALL = "all"


class HealWhen(StrEnum):
    """When a heal may be played: on its player's turn, or as they drop to 0 or below."""

    TURN = "turn"
    DROPPING = "dropping"


class Humiliate(StrEnum):
    """What a humiliation does to the card it answers."""

    CANCEL = "cancel"
    REDIRECT = "redirect"


class Timing(StrEnum):
    """When a card may be played besides its usual moment."""

    TURN = "turn"
    RESPONSE = "response"
    ANY = "any"


def words(vocabulary: type[StrEnum]) -> tuple[str, ...]:
    """A vocabulary's words, in declaration order (what the schema and the checks list)."""
    return tuple(m.value for m in vocabulary)


ROLES: tuple[str, ...] = words(Role)
SOURCES: tuple[str, ...] = words(Source)
DEFENCE_KINDS: tuple[str, ...] = words(DefenceKind)
PAIR_HALVES: tuple[str, ...] = words(PairHalf)
PASSES_ON: tuple[str, ...] = words(PassesOn)
TARGETS: tuple[str, ...] = words(Targets)
HEAL_WHEN: tuple[str, ...] = words(HealWhen)
HUMILIATE: tuple[str, ...] = words(Humiliate)
TIMINGS: tuple[str, ...] = words(Timing)


@dataclass(frozen=True)
class CardType:
    """A card type of a set: its printed label, colour and rules role."""

    key: str
    label: str
    colour: str  # "#RRGGBB"
    role: Role


@dataclass(frozen=True)
class Opener:
    """A card that opens a combo (GRAB, HOLD, POWER PLAY, DISTRACTION).

    `combo` is the name follow-up cards refer to with `follows`; `then` lists
    card types that may also follow directly; `free` makes the follow-ups
    undefendable by dodge/block; `multiplier` scales the follow-up's damage;
    `after_block` lets the opener be played right after a BLOCK (by the
    blocker first, then the attacker); `chain` lets follow-ups follow each
    other (wrestling moves after a HOLD).
    """

    combo: str
    then: tuple[str, ...] = ()
    free: bool = False
    multiplier: int = 1
    after_block: bool = False
    chain: bool = False
    sealed: bool = False  # LM Grab, BM Distraction: nothing may answer its follow-up (only a heal when dropping)
    most: int = 0  # follow-ups in all, 0 = no limit (a HOLD's, from its set's `moves_per_hold`; not a card field)


@dataclass(frozen=True)
class Ongoing:
    """Damage that repeats at the start of each of the attacker's turns until broken."""

    damage: int
    broken_by: tuple[DefenceKind, ...] = (DefenceKind.FREEDOM,)
    vomit: bool = False  # victim helpless for one round after release (Choke & Puke)
    holder_restricted: bool = False  # holder may only discard/draw while holding, and may let go at any time
    humiliation_breaks: bool = False  # BM: anyone's humiliation breaks it (not only the victim's defences)


@dataclass(frozen=True)
class Heal:
    """Restores counters/life to the card's own player."""

    amount: int
    when: tuple[HealWhen, ...] = (HealWhen.TURN,)


@dataclass(frozen=True)
class Card:
    """One card design; `count` copies of it are in the deck."""

    name: str
    type: str
    count: int
    source: Source
    number: int = 0  # position in the set (1-based), for the printed footer
    damage: tuple[int, ...] = ()  # one entry per strike: (4, 3) prints "4 + 3"
    travels: bool = False
    passes_on: PassesOn | None = None
    defended_by: tuple[DefenceKind, ...] | None = None  # None: the role's default
    stuns: int = 0
    stunned: int = 0
    targets: Targets = Targets.ONE
    defence: DefenceKind | None = None
    retaliates: int = 0
    pair: tuple[PairHalf, PairHalf] | None = None
    heal: Heal | None = None
    opens: Opener | None = None
    follows: str | None = None
    ongoing: Ongoing | None = None
    humiliate: Humiliate | None = None
    interfere: bool = False
    stomp: bool = False
    draw: int = 0
    timing: Timing | None = None
    effects: tuple[Effect, ...] = ()  # what it does, as primitives in order (cardgen/primitives.py)
    words_only: bool = False  # `effects: text`: its own `text` says what it does; the engine plays it as nothing
    text: str | None = None
    flavour: str | None = None
    art: str | None = None
    back: OwnBack | None = None  # its own back (a card's `back:`), instead of its type's or the set's
    intended: str | None = None  # a balance verdict the designer accepts (docs/simulation.md); no rules effect
    origin: str = ""  # the set this card comes from (matters in a mixed deck)
    file: str = ""
    line: int = 0
    column: int = 0

    @property
    def total_damage(self) -> int:
        return sum(self.damage)


@dataclass(frozen=True)
class Rules:
    """A set's rule options: the switches that differ between the three rulebooks."""

    life: int
    hand_size: int
    life_word: str = "life"  # "life" or "counters"
    counters_hint: str = ""  # what to use as counters
    negative_life: bool = False  # beer: damage below 0 is tracked, heals can revive
    revive: bool = False  # lunch: First Aid can revive an unconscious player (Stomp prevents)
    heal_action: bool = False  # healing is the turn's one action (any number of heal cards)
    heals_per_turn: int = 0  # 0 = unlimited
    weapons_may_drop: bool = False  # beer: weapon may be discarded after use
    travel_direction: Literal["left", "right"] = "left"
    discard_limit: int = 0  # 0 = any number
    weapon_once_per_turn: bool = False  # classic: the same weapon may not be used twice in one turn
    one_per_own_turn: tuple[str, ...] = ()  # classic [attack]: roles of which one card at most on your own turn
    moves_per_hold: int = 0  # classic 4: wrestling moves (a HOLD's follow-ups) after one HOLD; 0 = no limit
    turn_cap: int = 300


@dataclass(frozen=True)
class BackDesign:
    """A card back drawn from data: the generated back's stripes and frame in the set's own inks and words.

    None keeps the bundled layout's value (`templates/layout/colours.yaml` `back`, `face.yaml` `back`).
    """

    fill: str | None = None
    pattern: str | None = None
    ink: str | None = None
    title: str | None = None  # default: the set's title
    subtitle: str | None = None


@dataclass(frozen=True)
class OwnBack:
    """A back of a type's cards (set.yaml `look.backs`) or of one card (its `back:`): an image (a path in the set
    folder), or a design over the set's back (a card's: over its type's design, if the type has one)."""

    image: str = ""
    design: BackDesign = BackDesign()


class FontSource(NamedTuple):
    """Where a set.yaml named one of its faces: that file, the line and column, the key under `look.fonts`
    and the font's path as written there (what a message about the face points at)."""

    path: str
    line: int
    column: int
    key: str
    written: str


@dataclass(frozen=True)
class Look:
    """The designer's own look (set.yaml `look:`): TrueType faces, a back image or a back design.

    `fonts` maps a logical face of the face layout (Sans, Sans-Bold, Sans-Oblique, Cond, Cond-Bold) to a
    TrueType file; paths are absolute, checked by the loader to lie inside the set folder. `sources` says,
    for each of them, where a set.yaml named it (an extending set's inherited faces: in its base's).
    """

    fonts: dict[str, str] = field(default_factory=dict)
    back_image: str = ""
    back: BackDesign = BackDesign()
    sources: dict[str, FontSource] = field(default_factory=dict)
    backs: dict[str, OwnBack] = field(default_factory=dict)  # by card type: that type's own back

    @property
    def own(self) -> bool:
        return bool(self.fonts or self.back_image or self.back != BackDesign())


@dataclass(frozen=True)
class CardSet:
    """A loaded set (or a mix of sets): metadata, types, rules and cards in print order."""

    name: str
    title: str
    deck_size: int
    rules: Rules
    types: dict[str, CardType]
    cards: tuple[Card, ...]
    path: str = ""
    equivalences: dict[str, str] = field(default_factory=dict)
    description: str = ""
    origin_types: dict[str, dict[str, CardType]] = field(default_factory=dict)
    origin_rules: dict[str, Rules] = field(default_factory=dict)  # each mixed set's own rules, by set name
    icons: dict[str, str] = field(default_factory=dict)  # keyword key -> icon file (absolute path)
    base: str = ""  # the folder of the set this one `extends:` ("" for none): validate compares against it
    look: Look = Look()  # a mixed deck keeps the bundled look: one back for all its cards
    language: str = "en"  # the language it prints in: its generated text, the face's labels, the rules page

    @property
    def total(self) -> int:
        return sum(c.count for c in self.cards)

    def card(self, name: str) -> Card:
        for c in self.cards:
            if c.name == name:
                return c
        raise KeyError(name)

    def type_of(self, card: Card) -> CardType:
        """The card's type as its own set defines it (colours differ between mixed sets)."""
        own = self.origin_types.get(card.origin)
        if own is not None and card.type in own:
            return own[card.type]
        return self.types[card.type]

    def role(self, card: Card) -> Role:
        return self.type_of(card).role

    def rules_of(self, card: Card) -> Rules:
        """The rules of the card's own set: in a mixed deck a card plays by its own set's rules."""
        return self.origin_rules.get(card.origin, self.rules)


def defences_of(card: Card, cs: CardSet) -> tuple[DefenceKind, ...]:
    """The defences that stop `card`: its `defended_by`, or its role's default.

    A rule, not a wording: the engine, the card text and the rules page all ask here.
    """
    if card.defended_by is not None:
        return card.defended_by
    role = cs.role(card)
    if role == "weapon":
        return (DefenceKind.DODGE, DefenceKind.BLOCK, DefenceKind.DISARM)
    if role in ("attack", "special", "event") and (card.damage or card.opens or hits(card.effects)):
        return (DefenceKind.DODGE, DefenceKind.BLOCK)
    return ()
