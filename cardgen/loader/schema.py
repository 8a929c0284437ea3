"""The JSON Schema of the card-set format, built from the model's vocabularies.

One schema covers every YAML file of a set: `set.yaml` carries the set keys
(checked as required by the loader), card files carry `cards:`. Editors get it
through the `yaml-language-server` comment; `cardgen schema` prints it.
"""

from __future__ import annotations

import json
from typing import Any

from cardgen import model
from cardgen.primitives import PRIMITIVES, TEXT_ONLY, Primitive

SCHEMA_ID = "https://cardgen.invalid/card-set.schema.json"
SCHEMA_FILE = "card-set.schema.json"

MAX_NUMBER = 99  # a sane bound for any count, damage, life or turn number on a card or in the rules
_POS_INT: dict[str, Any] = {"type": "integer", "minimum": 1, "maximum": MAX_NUMBER}
_NONNEG_INT: dict[str, Any] = {"type": "integer", "minimum": 0, "maximum": MAX_NUMBER}
_NAME: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": 60}
_KEY: dict[str, Any] = {"type": "string", "pattern": "^[a-z][a-z0-9-]*$"}
ICON_FILE_PATTERN = "\\.([sS][vV][gG]|[pP][nN][gG])$"
FONT_FILE_PATTERN = "\\.[tT][tT][fF]$"
BACK_IMAGE_PATTERN = "\\.([pP][nN][gG]|[jJ][pP][eE]?[gG]|[tT][iI][fF][fF]?)$"
COLOUR_PATTERN = "^#[0-9A-Fa-f]{6}$"
# set.yaml `look.fonts` key -> the face layout's logical face it replaces (cardgen.render.fonts.FONT_FILES)
LOOK_FACES: dict[str, str] = {"regular": "Sans", "bold": "Sans-Bold", "italic": "Sans-Oblique",
                              "condensed": "Cond", "condensed_bold": "Cond-Bold"}


def _enum(values: tuple[str, ...], description: str) -> dict[str, Any]:
    return {"type": "string", "enum": list(values), "description": description}


def _enum_list(values: tuple[str, ...], description: str) -> dict[str, Any]:
    return {"type": "array", "items": {"type": "string", "enum": list(values)}, "uniqueItems": True,
            "description": description}


MAX_EFFECTS = 8  # primitives on one card: a slip holds a few sentences


def _primitive_schema(prim: Primitive) -> dict[str, Any]:
    """One primitive's parameters (`cardgen.primitives`), with their bounds; none given means the defaults."""
    props: dict[str, Any] = {n.name: {"type": "integer", "minimum": n.low, "maximum": n.high,
                                      "description": f"default {n.default}"} for n in prim.numbers}
    props |= {w.name: _enum(w.words, f"default {w.default}") for w in prim.words}
    out: dict[str, Any] = {"type": ["object", "null"], "additionalProperties": False, "properties": props,
                           "description": prim.doc}
    if prim.numbers:  # `- draw: 2`: the first number alone (a pattern or bound applies only to its own type)
        first = prim.numbers[0]
        out |= {"type": ["object", "null", "integer"], "minimum": first.low, "maximum": first.high,
                "description": f"{prim.doc}; a number alone is its `{first.name}`"}
    return out


def effects_schema() -> dict[str, Any]:
    """`effects:`: a list of primitives, each a one-key mapping (`- steal: {who: chosen}`), or the word `text`.

    The two forms are told apart by type (a pattern holds only for text, `items` only for a list), not by a
    `oneOf`, so a mistake inside the list is reported at its own key with a did-you-mean."""
    item = {"type": "object", "minProperties": 1, "maxProperties": 1, "additionalProperties": False,
            "properties": {op: _primitive_schema(prim) for op, prim in PRIMITIVES.items()}}
    return {"type": ["array", "string"], "pattern": f"^{TEXT_ONLY}$", "items": item, "minItems": 1,
            "maxItems": MAX_EFFECTS,
            "description": "What the card does, as primitives in order (docs/effects.md), or `text`: its own "
                           "`text` says it, printed as written and not simulated."}


CARD_PROPERTIES: dict[str, Any] = {
    "name": {**_NAME, "description": "Printed name; unique within the set."},
    "type": {**_KEY, "description": "A key of the set's `types`."},
    "count": {**_POS_INT, "description": "Copies of this card in the deck."},
    "source": _enum(model.SOURCES, "Where the card comes from: canon (rulebook, published-list) or designed."),
    "damage": {"oneOf": [_POS_INT, {"type": "array", "items": _POS_INT, "minItems": 1, "maxItems": 6}],
               "description": "Damage of a hit; a list is a '+' multi-strike (4 + 3), each strike defended alone."},
    "travels": {"type": "boolean", "description": "If dodged or blocked, the next player in the travel direction "
                "takes the hit unless they defend; the end of the line takes it regardless."},
    "passes_on": _enum(model.PASSES_ON, "If dodged, the attack moves on to the next player (left, right, or "
                       "the attacker's choice); a block stops it."),
    "defended_by": _enum_list(model.DEFENCE_KINDS, "Defences that stop this card; [] means undefendable. "
                              "Default: dodge and block (and disarm for weapons)."),
    "stuns": {**_NONNEG_INT, "description": "STUNS nT: a hit stuns the target for n turns."},
    "stunned": {**_NONNEG_INT, "description": "STUNNED nT: playing it stuns you for n turns."},
    "targets": _enum(model.TARGETS, "Who the card hits: one player, all others, yourself, or everyone."),
    "defence": _enum(model.DEFENCE_KINDS, "Played in response as this defence."),
    "retaliates": {**_NONNEG_INT, "description": "Damage dealt back to the player whose card this answered."},
    "pair": {"type": "array", "items": {"type": "string", "enum": list(model.PAIR_HALVES)},
             "minItems": 2, "maxItems": 2, "description": "Counter pair: the card is played as either half."},
    "heal": {"type": "object", "additionalProperties": False, "required": ["amount"],
             "properties": {"amount": _POS_INT,
                            "when": {**_enum_list(model.HEAL_WHEN, "On your turn, and/or when dropping to 0."),
                                     "minItems": 1}},
             "description": "Restores counters/life to the card's own player."},
    "opens": {"type": "object", "additionalProperties": False, "required": ["combo"],
              "properties": {"combo": _KEY,
                             "then": {"type": "array", "items": _KEY, "uniqueItems": True},
                             "free": {"type": "boolean"},
                             "multiplier": {"type": "integer", "minimum": 1, "maximum": 4},
                             "after_block": {"type": "boolean"},
                             "chain": {"type": "boolean"},
                             "sealed": {"type": "boolean",
                                        "description": "The follow-up cannot be answered at all (not even "
                                                       "redirected); only a heal when dropping helps."}},
              "description": "Opens a combo that follow-up cards (`follows`) or card types (`then`) continue."},
    "follows": {**_KEY, "description": "Only playable right after a successful opener of this combo."},
    "ongoing": {"type": "object", "additionalProperties": False, "required": ["damage"],
                "properties": {"damage": _POS_INT,
                               "broken_by": _enum_list(model.DEFENCE_KINDS, "Defences that break the hold."),
                               "vomit": {"type": "boolean"},
                               "holder_restricted": {"type": "boolean"},
                               "humiliation_breaks": {"type": "boolean",
                                                      "description": "Anyone's humiliation breaks the hold."}},
                "description": "Damage at the start of each of the attacker's turns until broken."},
    "humiliate": _enum(model.HUMILIATE, "Answers any card: cancel it (stunning its player) or redirect it."),
    "interfere": {"type": "boolean", "description": "Step into an attack on another player and take it instead."},
    "stomp": {"type": "boolean", "description": "Played on an unconscious player: they can no longer be revived."},
    "draw": {**_NONNEG_INT, "description": "Cards its player draws at once."},
    "timing": _enum(model.TIMINGS, "When it may be played: on your turn, in response, or any time."),
    "effects": effects_schema(),
    "text": {"type": "string", "maxLength": 400,
             "description": "Own rules text; checked against the mechanics (numbers, keywords, card names)."},
    "flavour": {"type": "string", "maxLength": 200, "description": "Printed in italics; no rules effect."},
    "art": {"type": "string", "description": "Image path relative to the set folder."},
    "intended": {"type": "string", "minLength": 1, "maxLength": 300,
                 "description": "A balance verdict the designer accepts, and why (e.g. 'strong: the set's best "
                                "counter'): `validate` and `compare` report the card as intended instead of "
                                "warning. No rules effect."},
}

CARD_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["name", "type", "count", "source"],
    "properties": CARD_PROPERTIES,
}

TYPE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["label", "colour", "role"],
    "properties": {
        "label": _NAME,
        "colour": {"type": "string", "pattern": COLOUR_PATTERN},
        "role": _enum(model.ROLES, "How the engine treats cards of this type."),
    },
}

RULES_PROPERTIES: dict[str, Any] = {
    "life": {**_POS_INT, "description": "Starting life or counters."},
    "hand_size": _POS_INT,
    "life_word": {"type": "string", "enum": ["life", "counters"]},
    "counters_hint": {"type": "string"},
    "negative_life": {"type": "boolean"},
    "revive": {"type": "boolean"},
    "heal_action": {"type": "boolean"},
    "heals_per_turn": _NONNEG_INT,
    "weapons_may_drop": {"type": "boolean"},
    "travel_direction": {"type": "string", "enum": ["left", "right"]},
    "discard_limit": _NONNEG_INT,
    "weapon_once_per_turn": {"type": "boolean",
                             "description": "One weapon card on your own turn, and the same weapon card never "
                                            "twice in one turn (classic)."},
    "one_per_own_turn": _enum_list(model.ROLES, "Roles of which at most one card may be played on your own "
                                               "turn, follow-ups included (classic: [attack])."),
    "moves_per_hold": {**_NONNEG_INT, "description": "Wrestling moves allowed after one HOLD (classic: 4); "
                                                     "0 = no limit."},
    "turn_cap": {"type": "integer", "minimum": 1, "maximum": 100_000},
}

_COLOUR: dict[str, Any] = {"type": "string", "pattern": COLOUR_PATTERN}
LOOK_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False,
    "description": "The designer's own look: TrueType faces and a card back (files inside the set folder).",
    "properties": {
        "fonts": {"type": "object", "additionalProperties": False, "minProperties": 1,
                  "properties": {key: {"type": "string", "pattern": FONT_FILE_PATTERN,
                                       "description": f"TrueType file drawn where the bundled {face} was."}
                                 for key, face in LOOK_FACES.items()},
                  "description": "Faces to replace (the others stay DejaVu); each must have every glyph the "
                                 "cards print. Embedded as subsets."},
        "back": {"type": "object", "additionalProperties": False, "minProperties": 1,
                 "properties": {
                     "image": {"type": "string", "pattern": BACK_IMAGE_PATTERN,
                               "description": "PNG, JPEG or TIFF covering the whole back and its bleed; at least "
                                              "300 dpi on a poker card with 3 mm bleed (821 x 1121 px)."},
                     "fill": {**_COLOUR, "description": "Background of the generated back."},
                     "pattern": {**_COLOUR, "description": "Its diagonal stripes."},
                     "ink": {**_COLOUR, "description": "Its frame, title and subtitle (4.5:1 on fill and "
                                                      "pattern)."},
                     "title": {**_NAME, "description": "The back's title (default: the set's title)."},
                     "subtitle": {"type": "string", "maxLength": 60,
                                  "description": "The line under the title ('' for none)."}},
                 "description": "An `image`, or a design: `fill`, `pattern`, `ink`, `title`, `subtitle`."},
    },
}
LOOK_SCHEMA["properties"]["backs"] = {
    "type": "object", "minProperties": 1, "propertyNames": {"pattern": "^[a-z][a-z0-9_-]*$"},
    "additionalProperties": LOOK_SCHEMA["properties"]["back"],
    "description": "A back per card type (its key): an `image`, or a design over the set's `back` (the backs "
                   "then tell the types apart, on purpose)."}

MAX_SET_NAME = 40  # the name is a folder and file name (<out>/<name>/<name>-cards.pdf) and printed in the footer

SET_PROPERTIES: dict[str, Any] = {
    "name": {**_KEY, "maxLength": MAX_SET_NAME,
             "description": "The set's short name: its output folder and file names (lowercase, digits, '-')."},
    "title": _NAME,
    "description": {"type": "string"},
    "language": {"type": "string", "pattern": "^[a-z]{2,3}$",
                 "description": "The language the deck prints in (en, de): its card text, labels and rules page "
                                "(default en; `--lang` overrides it, with the set's words from lang/<code>.yaml)."},
    "deck_size": {"type": "integer", "minimum": 1, "maximum": 1000},
    "rules": {"type": "object", "additionalProperties": False, "properties": RULES_PROPERTIES,
              "description": "Rule options; `life` and `hand_size` are required unless the set extends another."},
    "types": {"type": "object", "minProperties": 1, "additionalProperties": TYPE_SCHEMA,
              "propertyNames": _KEY},
    "equivalences": {"type": "object", "additionalProperties": _NAME,
                     "description": "Card of this set -> same-function card of another set, for mixing."},
    "cards": {"type": "array", "items": CARD_SCHEMA},
    "icons": {"type": "object", "propertyNames": _KEY,
              "additionalProperties": {"type": "string", "pattern": ICON_FILE_PATTERN},
              "description": "Keyword -> SVG or PNG file in the set folder; `{key}` or the keyword in capitals "
                             "(DODGE, DODGED) in card text draws the icon inline."},
    "look": LOOK_SCHEMA,
    "extends": {"type": "string", "minLength": 1,
                "description": "A bundled set name, or a set folder relative to this one, to start from."},
    "remove": {"type": "array", "items": _NAME, "uniqueItems": True,
               "description": "Names of base-set cards to leave out (with `extends`)."},
    "override": {"type": "array", "items": {"type": "object", "additionalProperties": False, "required": ["name"],
                                            "properties": CARD_PROPERTIES},
                 "description": "Base-set cards to change: the name, then only the fields that change."},
}

SET_REQUIRED_WHEN_EXTENDING: tuple[str, ...] = ("name", "title")
SET_REQUIRED: tuple[str, ...] = ("name", "title", "deck_size", "rules", "types")


def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of one YAML file of a card set."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "cardgen card set",
        "type": "object",
        "additionalProperties": False,
        "properties": SET_PROPERTIES,
    }


def schema_json() -> str:
    return json.dumps(schema(), indent=2, sort_keys=True) + "\n"
