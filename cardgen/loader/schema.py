"""The JSON Schema of the card-set format, built from the model's vocabularies.

One schema covers every YAML file of a set: `set.yaml` carries the set keys
(checked as required by the loader), card files carry `cards:`. Editors get it
through the `yaml-language-server` comment; `cardgen schema` prints it.
"""

from __future__ import annotations

import json
from typing import Any

from cardgen import model
from cardgen.mechanic_registry import card_properties
from cardgen.schema_parts import KEY, NAME, NONNEG_INT, POS_INT, enum, enum_list

SCHEMA_ID = "https://cardgen.invalid/card-set.schema.json"
SCHEMA_FILE = "card-set.schema.json"

ICON_FILE_PATTERN = "\\.([sS][vV][gG]|[pP][nN][gG])$"
FONT_FILE_PATTERN = "\\.[tT][tT][fF]$"
BACK_IMAGE_PATTERN = "\\.([pP][nN][gG]|[jJ][pP][eE]?[gG]|[tT][iI][fF][fF]?)$"
COLOUR_PATTERN = "^#[0-9A-Fa-f]{6}$"
# set.yaml `look.fonts` key -> the face layout's logical face it replaces (cardgen.render.fonts.FONT_FILES)
LOOK_FACES: dict[str, str] = {"regular": "Sans", "bold": "Sans-Bold", "italic": "Sans-Oblique",
                              "condensed": "Cond", "condensed_bold": "Cond-Bold"}
POS_INT, NONNEG_INT, NAME, KEY, _enum, _enum_list = POS_INT, NONNEG_INT, NAME, KEY, enum, enum_list

_COLOUR: dict[str, Any] = {"type": "string", "pattern": COLOUR_PATTERN}
BACK_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "minProperties": 1,
    "properties": {
        "image": {"type": "string", "pattern": BACK_IMAGE_PATTERN,
                  "description": "PNG, JPEG or TIFF covering the whole back and its bleed; at least "
                                 "300 dpi on a poker card with 3 mm bleed (821 x 1121 px)."},
        "fill": {**_COLOUR, "description": "Background of the generated back."},
        "pattern": {**_COLOUR, "description": "Its diagonal stripes."},
        "ink": {**_COLOUR, "description": "Its frame, title and subtitle (4.5:1 on fill and pattern)."},
        "title": {**NAME, "description": "The back's title (default: the set's title)."},
        "subtitle": {"type": "string", "maxLength": 60,
                     "description": "The line under the title ('' for none)."}},
    "description": "An `image`, or a design: `fill`, `pattern`, `ink`, `title`, `subtitle`."}

CARD_PROPERTIES: dict[str, Any] = card_properties(
    head={
        "name": {**NAME, "description": "Printed name; unique within the set."},
        "type": {**KEY, "description": "A key of the set's `types`."},
        "count": {**POS_INT, "description": "Copies of this card in the deck."},
        "source": enum(model.SOURCES, "Where the card comes from: canon (rulebook, published-list) or "
                                       "designed."),
    },
    tail={
        "text": {"type": "string", "maxLength": 400,
                 "description": "Own rules text; checked against the mechanics (numbers, keywords, card names)."},
        "flavour": {"type": "string", "maxLength": 200, "description": "Printed in italics; no rules effect."},
        "art": {"type": "string", "description": "Image path relative to the set folder."},
        "back": {**BACK_SCHEMA, "description": "The card's own back, instead of its type's or the set's: an "
                                               "`image` in the set folder, or a design over its type's back "
                                               "(`fill`, `pattern`, `ink`, `title`, `subtitle`). The back then "
                                               "tells this card apart, on purpose."},
        "intended": {"type": "string", "minLength": 1, "maxLength": 300,
                     "description": "A balance verdict the designer accepts, and why (e.g. 'strong: the set's best "
                                    "counter'): `validate` and `compare` report the card as intended instead of "
                                    "warning. No rules effect."},
    },
)

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
        "label": NAME,
        "colour": {"type": "string", "pattern": COLOUR_PATTERN},
        "role": enum(model.ROLES, "How the engine treats cards of this type."),
    },
}

RULES_PROPERTIES: dict[str, Any] = {
    "life": {**POS_INT, "description": "Starting life or counters."},
    "hand_size": POS_INT,
    "life_word": {"type": "string", "enum": ["life", "counters"]},
    "counters_hint": {"type": "string"},
    "negative_life": {"type": "boolean"},
    "revive": {"type": "boolean"},
    "heal_action": {"type": "boolean"},
    "heals_per_turn": NONNEG_INT,
    "weapons_may_drop": {"type": "boolean"},
    "travel_direction": {"type": "string", "enum": ["left", "right"]},
    "discard_limit": NONNEG_INT,
    "weapon_once_per_turn": {"type": "boolean",
                             "description": "One weapon card on your own turn, and the same weapon card never "
                                            "twice in one turn (classic)."},
    "one_per_own_turn": enum_list(model.ROLES, "Roles of which at most one card may be played on your own "
                                               "turn, follow-ups included (classic: [attack])."),
    "moves_per_hold": {**NONNEG_INT, "description": "Wrestling moves allowed after one HOLD (classic: 4); "
                                                     "0 = no limit."},
    "turn_cap": {"type": "integer", "minimum": 1, "maximum": 100_000},
}

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
        "back": BACK_SCHEMA,
    },
}
LOOK_SCHEMA["properties"]["backs"] = {
    "type": "object", "minProperties": 1, "propertyNames": {"pattern": "^[a-z][a-z0-9_-]*$"},
    "additionalProperties": LOOK_SCHEMA["properties"]["back"],
    "description": "A back per card type (its key): an `image`, or a design over the set's `back` (the backs "
                   "then tell the types apart, on purpose)."}

MAX_SET_NAME = 40  # the name is a folder and file name (<out>/<name>/<name>-cards.pdf) and printed in the footer

SET_PROPERTIES: dict[str, Any] = {
    "name": {**KEY, "maxLength": MAX_SET_NAME,
             "description": "The set's short name: its output folder and file names (lowercase, digits, '-')."},
    "title": NAME,
    "description": {"type": "string"},
    "language": {"type": "string", "pattern": "^[a-z]{2,3}$",
                 "description": "The language the deck prints in (en, de): its card text, labels and rules page "
                                "(default en; `--lang` overrides it, with the set's words from lang/<code>.yaml)."},
    "deck_size": {"type": "integer", "minimum": 1, "maximum": 1000},
    "rules": {"type": "object", "additionalProperties": False, "properties": RULES_PROPERTIES,
              "description": "Rule options; `life` and `hand_size` are required unless the set extends another."},
    "types": {"type": "object", "minProperties": 1, "additionalProperties": TYPE_SCHEMA,
              "propertyNames": KEY},
    "equivalences": {"type": "object", "additionalProperties": NAME,
                     "description": "Card of this set -> same-function card of another set, for mixing."},
    "cards": {"type": "array", "items": CARD_SCHEMA},
    "icons": {"type": "object", "propertyNames": KEY,
              "additionalProperties": {"type": "string", "pattern": ICON_FILE_PATTERN},
              "description": "Keyword -> SVG or PNG file in the set folder; `{key}` or the keyword in capitals "
                             "(DODGE, DODGED) in card text draws the icon inline."},
    "look": LOOK_SCHEMA,
    "extends": {"type": "string", "minLength": 1,
                "description": "A bundled set name, or a set folder relative to this one, to start from."},
    "remove": {"type": "array", "items": NAME, "uniqueItems": True,
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
