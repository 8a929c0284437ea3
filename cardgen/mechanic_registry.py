"""Every card mechanic, declared once: what a card file may say, and where each part of its meaning lives.

A mechanic is a card key (`stuns`, `opens`, `effects`, ...). Its entry gives its schema fragment and bounds,
what leaving it out means, the engine facts derived from it (`engine/cards.CardInfo`), the names its printed
sentence is written with in every language's `card_text.j2` and `card_summary.j2`, its rules-page glossary
entries (each with the test that picks the set's cards for it), the game-log sentences it reads as, whether
its 0 means nothing, whether an `effects:` card may also carry it, whether `tune` may vary its numbers, and
what it is worth to the greedy bot (`cardgen.bot_worth`).

Derived from here: the loader's card schema (`loader/schema.CARD_PROPERTIES`, so `cardgen schema` and the
spreadsheet columns of `sheets/columns`), the "does it do anything" test (`has_mechanics`), the loader's
zero and `effects:` checks (`loader/card_checks`) and the rules page's glossary tests
(`render/rules_content`). `tests/test_mechanic_registry.py` fails when a mechanic lacks a part in any bundled
language, or when a card field or engine fact belongs to no mechanic. The primitives a card's `effects:` is
made of are declared the same way, one level down, in `cardgen.primitives`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from cardgen import mechanics as mech
from cardgen import model
from cardgen.bot_worth import Part, Worth, move, none
from cardgen.model import (
    Card,
    CardSet,
    DefenceKind,
    Heal,
    HealWhen,
    Humiliate,
    Ongoing,
    Opener,
    PairHalf,
    PassesOn,
    Source,
    Targets,
    Timing,
    defences_of,
)
from cardgen.primitives import TEXT_ONLY, make_effect
from cardgen.schema_parts import KEY, NONNEG_INT, POS_INT, effects_schema, enum, enum_list

CardTest = Callable[[Card, CardSet], bool]


def _same(value: Any) -> Any:
    return value


def _each(kind: Callable[[Any], Any]) -> Callable[[Any], tuple[Any, ...]]:
    return lambda values: tuple(kind(v) for v in values)


def _damage(value: int | list[int]) -> tuple[int, ...]:
    return (value,) if isinstance(value, int) else tuple(value)


def _heal(h: dict[str, Any]) -> Heal:
    return Heal(h["amount"], tuple(HealWhen(w) for w in h.get("when", ["turn"])))


def _opens(o: dict[str, Any]) -> Opener:
    return Opener(**{**o, "then": tuple(o.get("then", ()))})


def _ongoing(o: dict[str, Any]) -> Ongoing:
    return Ongoing(**{**o, "broken_by": tuple(DefenceKind(k) for k in o.get("broken_by", ["freedom"]))})


def _effects(value: str | list[dict[str, Any]]) -> dict[str, Any]:
    """`effects:` fills one of two fields: its primitives, or (the word `text`) that words alone say it."""
    if isinstance(value, str):  # the schema allows one word only: `text`
        return {"words_only": value == TEXT_ONLY}
    return {"effects": tuple(make_effect(op, params) for item in value for op, params in item.items())}


@dataclass(frozen=True)
class Mechanic:
    """One card key and every part of what it means."""

    key: str  # the card file's key
    schema: dict[str, Any]  # its JSON Schema fragment (bounds, vocabulary); its description is the first line
    absent: str  # what leaving it out means, in words (appended to the schema's description)
    facts: tuple[str, ...]  # `engine.cards.CardInfo` attributes derived from it (what the engine acts on)
    says: tuple[str, ...]  # names its sentence is written with in `card_text.j2` (`card.<key>` or a context name)
    summary: tuple[str, ...]  # the same in `card_summary.j2` (the rules page's one-line list)
    log: tuple[str, ...]  # `play.log.<key>` sentences a game's log reads it as
    glossary: Mapping[str, CardTest] = field(default_factory=dict)  # rules-page entries it brings
    fills: tuple[str, ...] = ()  # the `Card` fields it fills (default: its key)
    acts: bool = True  # the card does something by it (else it only modifies another mechanic)
    zero: str = ""  # a number whose 0 says nothing: what 0 would mean ("no stun"), refused as a value
    with_effects: bool = False  # a card with `effects:` may also carry it
    tune: bool = False  # `tune` may vary its numbers
    read: Callable[[Any], Any] = _same  # its value as written -> the model's (with `fills`: the fields' dict)
    worth: tuple[Worth, ...] = ()  # what it is worth to the greedy bot (`cardgen.bot_worth`)

    @property
    def fields(self) -> tuple[str, ...]:
        return self.fills or (self.key,)

    def model_fields(self, value: Any) -> dict[str, Any]:
        """The `Card` fields its value, as a card file writes it (schema-checked), fills."""
        read = self.read(value)
        return dict(read) if self.fills else {self.key: read}


def _opener(test: Callable[[model.Opener], bool]) -> CardTest:
    return lambda c, cs: c.opens is not None and test(c.opens)


MECHANICS: tuple[Mechanic, ...] = (
    Mechanic("damage", {"oneOf": [POS_INT, {"type": "array", "items": POS_INT, "minItems": 1, "maxItems": 6}],
                        "description": "Damage of a hit; a list is a '+' multi-strike (4 + 3), each strike "
                                       "defended alone."},
             "no hit", facts=("damage",), says=("damage", "strikes"), summary=("damage",), log=("damage",),
             glossary={"multi_strike": lambda c, cs: len(c.damage) > 1}, tune=True, read=_damage,
             worth=(Worth(Part.HIT, "damage", 1.0),)),
    Mechanic("travels", {"type": "boolean", "description": "If dodged or blocked, the next player in the travel "
                         "direction takes the hit unless they defend; the end of the line takes it regardless."},
             "a dodged or blocked hit stops", facts=("travels", "travel_step"), says=("travels",),
             summary=("travels",), log=("moves_on",), glossary={"travels": lambda c, cs: c.travels},
             worth=none("a dodged or blocked hit going on to the next player is no gain its player can count on")),
    Mechanic("passes_on", enum(model.PASSES_ON, "If dodged, the attack moves on to the next player (left, right, "
                                               "or the attacker's choice); a block stops it."),
             "a dodged hit stops", facts=("passes_on",), says=("passes_on",), summary=("passes_on",),
             log=("moves_on", "direction"), glossary={"passes_on": lambda c, cs: c.passes_on is not None},
             read=PassesOn, worth=move("direction")),
    Mechanic("defended_by", enum_list(model.DEFENCE_KINDS, "Defences that stop this card; [] means undefendable. "
                                      "Default: dodge and block (and disarm for weapons)."),
             "its role's defences", facts=("defences", "hold_defences"), says=("defences", "defence_words"),
             summary=("defences",), log=("stopped_by",),
             glossary={"undefendable": lambda c, cs: bool(c.damage or c.opens) and not defences_of(c, cs)},
             acts=False, with_effects=True, read=_each(DefenceKind),
             worth=(Worth(Part.SPREAD, "defences", 0.5, empty=True),)),
    Mechanic("stuns", {**NONNEG_INT, "description": "STUNS nT: a hit stuns the target for n turns."},
             "no stun", facts=("stuns",), says=("stuns",), summary=("stuns",), log=("stunned",),
             glossary={"stuns": lambda c, cs: c.stuns > 0}, zero="no stun", tune=True,
             worth=(Worth(Part.AFTER, "stuns", 1.5),)),
    Mechanic("stunned", {**NONNEG_INT, "description": "STUNNED nT: playing it stuns you for n turns."},
             "no stun on its player", facts=("stunned",), says=("stunned",), summary=("stunned",),
             log=("stunned", "stun_lifted"), glossary={"stunned": lambda c, cs: c.stunned > 0},
             zero="no stun on its player", with_effects=True, tune=True, worth=(Worth(Part.COST, "stunned", 2.0),)),
    Mechanic("targets", enum(model.TARGETS, "Who the card hits: one player, all others, yourself, or everyone."),
             "one player", facts=("targets", "area", "aimed"), says=("targets",), summary=("targets",),
             log=("play_on", "damage"), glossary={"area": lambda c, cs: mech.area(c)}, acts=False, read=Targets,
             worth=(Worth(Part.SPREAD, "area", 0.5),)),
    Mechanic("defence", enum(model.DEFENCE_KINDS, "Played in response as this defence."),
             "not a defence", facts=("defend_as", "defend_moves"), says=("defence",), summary=("defence",),
             log=("defend", "stopped_by"), read=DefenceKind, worth=move("defend")),
    Mechanic("retaliates", {**NONNEG_INT, "description": "Damage dealt back to the player whose card this "
                                                         "answered."},
             "no damage back", facts=("retaliates",), says=("retaliates",), summary=("retaliates",),
             log=("damage",), glossary={"retaliates": lambda c, cs: c.retaliates > 0}, zero="no damage back",
             tune=True, worth=(Worth(Part.ANSWER, "retaliates", 1.0),)),
    Mechanic("pair", {"type": "array", "items": {"type": "string", "enum": list(model.PAIR_HALVES)},
                      "minItems": 2, "maxItems": 2, "description": "Counter pair: the card is played as either "
                                                                   "half."},
             "not a counter pair", facts=("defend_as", "hold_opener"), says=("pair",), summary=("pair",),
             log=("defend", "hold"),
             glossary={"pair": lambda c, cs: c.pair is not None,
                       "hold": lambda c, cs: mech.opens_hold(c) or cs.role(c) == "wrestling"}, read=_each(PairHalf),
             worth=move("defend", "play")),
    Mechanic("heal", {"type": "object", "additionalProperties": False, "required": ["amount"],
                      "properties": {"amount": POS_INT,
                                     "when": {**enum_list(model.HEAL_WHEN, "On your turn, and/or when dropping "
                                                                           "to 0."), "minItems": 1}},
                      "description": "Restores counters/life to the card's own player."},
             "no healing", facts=("heal_turn", "heal_drop", "revives", "heal_first", "heal_cap"),
             says=("heal",), summary=("heal",), log=("heal", "healed", "revived"),
             glossary={"heal": lambda c, cs: c.heal is not None,
                       "heal_dropping": lambda c, cs: mech.heals_dropping(c) > 0}, tune=True, read=_heal,
             worth=move("heal")),
    Mechanic("opens", {"type": "object", "additionalProperties": False, "required": ["combo"],
                       "properties": {"combo": KEY,
                                      "then": {"type": "array", "items": KEY, "uniqueItems": True},
                                      "free": {"type": "boolean"},
                                      "multiplier": {"type": "integer", "minimum": 1, "maximum": 4},
                                      "after_block": {"type": "boolean"},
                                      "chain": {"type": "boolean"},
                                      "sealed": {"type": "boolean",
                                                 "description": "The follow-up cannot be answered at all (not "
                                                                "even redirected); only a heal when dropping "
                                                                "helps."}},
                       "description": "Opens a combo that follow-up cards (`follows`) or card types (`then`) "
                                      "continue."},
             "opens no combo", facts=("opener",), says=("opens",), summary=("opens",), log=("open", "combo"),
             glossary={"combo": lambda c, cs: c.opens is not None, "free": _opener(lambda o: o.free),
                       "after_block": _opener(lambda o: o.after_block),
                       "multiplier": _opener(lambda o: o.multiplier > 1)}, tune=True, read=_opens,
             worth=move("play", "open")),
    Mechanic("follows", {**KEY, "description": "Only playable right after a successful opener of this combo."},
             "follows nothing", facts=("follows", "typed_follow_up"), says=("follows", "opener"),
             summary=("opener",), log=("follow", "combo_ends"), worth=move("follow")),
    Mechanic("ongoing", {"type": "object", "additionalProperties": False, "required": ["damage"],
                         "properties": {"damage": POS_INT,
                                        "broken_by": enum_list(model.DEFENCE_KINDS, "Defences that break the "
                                                                                    "hold."),
                                        "vomit": {"type": "boolean"},
                                        "holder_restricted": {"type": "boolean"},
                                        "humiliation_breaks": {"type": "boolean",
                                                               "description": "Anyone's humiliation breaks the "
                                                                              "hold."}},
                         "description": "Damage at the start of each of the attacker's turns until broken."},
             "no hold", facts=("ongoing",), says=("ongoing", "breakers"), summary=("ongoing",),
             log=("hold_starts", "hold_ends", "vomiting"),
             glossary={"ongoing": lambda c, cs: c.ongoing is not None,
                       "vomit": lambda c, cs: c.ongoing is not None and c.ongoing.vomit}, tune=True, read=_ongoing,
             worth=(Worth(Part.HIT, "ongoing", 2.5, of="damage"),)),
    Mechanic("humiliate", enum(model.HUMILIATE, "Answers any card: cancel it (stunning its player) or redirect "
                                                "it."),
             "not a humiliation", facts=("humiliate", "cancels"), says=("humiliate",), summary=("humiliate",),
             log=("humiliate", "cancelled", "redirected"),
             glossary={"cancel": lambda c, cs: mech.cancels(c), "redirect": lambda c, cs: mech.redirects(c)},
             read=Humiliate, worth=move("humiliate")),
    Mechanic("interfere", {"type": "boolean", "description": "Step into an attack on another player and take it "
                                                             "instead."},
             "no interference", facts=("interfere",), says=("interfere",), summary=("interfere",),
             log=("interfere",), glossary={"interfere": lambda c, cs: c.interfere}, worth=move("interfere")),
    Mechanic("stomp", {"type": "boolean", "description": "Played on an unconscious player: they can no longer be "
                                                         "revived."},
             "no stomp", facts=("stomp",), says=("stomp",), summary=("stomp",), log=("stomp", "stomped"),
             glossary={"stomp": lambda c, cs: c.stomp}, worth=move("stomp")),
    Mechanic("draw", {**NONNEG_INT, "description": "Cards its player draws at once."},
             "no cards drawn", facts=("draw",), says=("draw",), summary=("draw",), log=("play",),
             glossary={"draw": lambda c, cs: c.draw > 0}, zero="no cards drawn", tune=True,
             worth=(Worth(Part.EVENT, "draw", 1.0),)),
    Mechanic("timing", enum(model.TIMINGS, "When it may be played: on your turn, in response, or any time."),
             "on your turn (an answer: when it answers)", facts=("timing", "interject"), says=("timing",),
             summary=("timing",), log=("interject", "interject_on"),
             glossary={"any_time": lambda c, cs: mech.any_time(c) and mech.out_of_turn(c),
                       "answer_only": lambda c, cs: mech.response_only(c) and mech.out_of_turn(c)}, acts=False,
             with_effects=True, read=Timing, worth=move("interject")),
    Mechanic("effects", effects_schema(), "none: its other keys say what it does",
             facts=("effects", "steps", "words_only"), says=("effects_text", "effects_hit"),
             summary=("effects_summary",),
             log=("effect", "pick_throw"), fills=("effects", "words_only"), with_effects=True, tune=True,
             read=_effects, worth=(Worth(Part.LOOK, "effects"),)),
)

# Card keys that are not mechanics: what the card is, how many, and what is printed beside its rules text or on
# its back.
CARD_KEYS: tuple[str, ...] = ("name", "type", "count", "source", "text", "flavour", "art", "back", "intended")
# `Card` fields no file sets: filled by the loader (print number, set, place in the file).
LOADER_FIELDS: tuple[str, ...] = ("number", "origin", "file", "line", "column")
# Engine facts no one mechanic owns: the card itself, what its type's role and its set's rules make of it, and
# what `cardgen.mechanics` concludes from several mechanics together (a turn play, an answer, ...).
SHARED_FACTS: tuple[str, ...] = (
    "d", "card", "name", "type", "role", "weapon", "may_drop", "weapon_limit", "one_per_turn", "counted_role",
    "limited", "turn_play", "basic_attack", "free_attack", "meddles", "answers", "plays", "on_turn", "discard_move")
# Glossary entries a card's type brings rather than one of its keys.
ROLE_GLOSSARY: dict[str, CardTest] = {"weapons": lambda c, cs: cs.role(c) == "weapon"}

BY_KEY: dict[str, Mechanic] = {m.key: m for m in MECHANICS}
# The fields that make a card do something (name, type, count, source, looks and modifiers do not).
MECHANIC_FIELDS: tuple[str, ...] = tuple(f for m in MECHANICS if m.acts for f in m.fields)
_BLANK = {f.name: f.default for f in fields(Card) if f.name in MECHANIC_FIELDS}
# What 0 would mean, for the numbers whose 0 says nothing (`loader/card_checks` refuses writing it).
ZERO_MEANS_NOTHING: dict[str, str] = {m.key: m.zero for m in MECHANICS if m.zero}
# What a card with `effects:` may not also carry: its effects say what it does.
NOT_WITH_EFFECTS: tuple[str, ...] = tuple(m.key for m in MECHANICS if not m.with_effects)
# The rules page's glossary entries a card can bring, with the test that picks the set's cards for each.
GLOSSARY: dict[str, CardTest] = {k: t for m in MECHANICS for k, t in m.glossary.items()} | ROLE_GLOSSARY


# How a card key that is not a mechanic is read into the model (the others: as written).
CARD_KEY_READS: dict[str, Callable[[Any], Any]] = {"source": Source}


def card_fields(raw: dict[str, Any]) -> dict[str, Any]:
    """`Card` keyword arguments for the keys present in `raw`, a schema-checked card (or an override's part)."""
    out: dict[str, Any] = {}
    for key, value in raw.items():
        m = BY_KEY.get(key)
        out |= m.model_fields(value) if m is not None else {key: CARD_KEY_READS.get(key, _same)(value)}
    return out


def has_mechanics(card: Card) -> bool:
    """The card does something in play (else it would print a blank face and never matter)."""
    return any(getattr(card, f) != _BLANK[f] for f in MECHANIC_FIELDS)


def card_properties(head: dict[str, Any], tail: dict[str, Any]) -> dict[str, Any]:
    """The card schema's properties: `head` (what the card is), every mechanic in order, then `tail`.

    A mechanic's description ends with what leaving it out means."""
    body = {m.key: {**m.schema, "description": f"{m.schema['description']} Left out: {m.absent}."}
            for m in MECHANICS}
    return head | body | tail
