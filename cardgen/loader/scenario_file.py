"""Scenario files (docs/scenarios.md), read like set files: YAML with positions, checked by a JSON Schema.

The schema checks the shape (keys, types, lists) with the set files' messages (`path:line:col`, the
field, what was expected, a did-you-mean for a misspelt key); what needs the game (card and player
names, legal moves) is checked when the engine sets the scenario up and plays it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardgen.errors import Diagnostic
from cardgen.loader.schema_check import check_schema, make_validator
from cardgen.yaml_doc import Document, read_document

_NAME = {"type": "string", "minLength": 1}
_NAMES = {"oneOf": [_NAME, {"type": "array", "items": _NAME}]}
_MOVE_FIELDS: dict[str, Any] = {
    "play": _NAME, "free_hit": _NAME, "discard": _NAMES, "heal": _NAME, "pick": _NAME,
    "pass": {"type": "boolean"}, "decline": {"type": "boolean"}, "done": {"type": "boolean"},
    "release": _NAME, "direction": {"enum": ["left", "right"]},
    "target": _NAME, "as": {"enum": ["dodge", "block", "disarm", "hold", "freedom", "break"]},
    "drop": {"type": "boolean"}, "more": {"type": "boolean"}, "note": {"type": "string"},
}
_MOVE_ENTRY = {"oneOf": [{"enum": ["pass", "decline", "done"]},
                         {"type": "object", "additionalProperties": False, "properties": _MOVE_FIELDS,
                          "minProperties": 1}]}
_PLAYER_EXPECT = {"type": "object", "additionalProperties": False, "properties": {
    "life": {"type": "integer"}, "hand": _NAMES, "has": _NAMES, "lacks": _NAMES,
    "cards": {"type": "integer", "minimum": 0}, "status": _NAMES}}
_EXPECT = {"type": "object", "properties": {
    "pool": {"type": "integer"}, "to_act": {"type": ["string", "null"]}, "winner": {"type": ["string", "null"]},
    "turn": {"type": "integer", "minimum": 0}, "discard_top": _NAMES, "draw_pile": {"type": "integer", "minimum": 0}},
    "additionalProperties": _PLAYER_EXPECT,
    "description": "The state to check: the keys above, or a player's name with what to check for them."}

SCENARIO_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "cardgen scenario",
    "type": "object",
    "additionalProperties": False,
    "required": ["sets", "players", "moves"],
    "properties": {
        "title": {"type": "string"},
        "description": {"type": "string"},
        "sets": {"oneOf": [_NAME, {"type": "array", "items": _NAME, "minItems": 1}]},
        "seed": {"type": "integer", "minimum": 0},
        "turn_cap": {"type": "integer", "minimum": 1},
        "deck_shuffled": {"type": "boolean", "description": "The hands and piles are the whole deck as `seed` "
                          "shuffled it (written by `cardgen simulate --save-games`): later shuffles go on from it."},
        "players": {"type": "array", "minItems": 2, "maxItems": 12, "items": {
            "type": "object", "additionalProperties": False, "required": ["name"], "properties": {
                "name": _NAME, "life": {"type": "integer"}, "hand": _NAMES,
                "stunned": {"type": "integer", "minimum": 0}, "unconscious": {"type": "boolean"}}}},
        "draw": _NAMES,
        "discard": _NAMES,
        "first": _NAME,
        "moves": {"type": ["array", "null"], "items": {
            "type": "object", "additionalProperties": False, "minProperties": 1,
            "properties": {"who": _NAME, **_MOVE_FIELDS, "expect": _EXPECT,
                           "expect_moves": {"type": "object", "additionalProperties": False, "required": ["who"],
                                            "properties": {"who": _NAME,
                                                           "can": {"type": "array", "items": _MOVE_ENTRY},
                                                           "cannot": {"type": "array", "items": _MOVE_ENTRY}}}}}},
        "expect": _EXPECT,
        "made_with": {"type": "object", "description": "What each set's cards were when the game was saved "
                      "(written by `cardgen play`): set name -> card name -> digest.",
                      "additionalProperties": {"type": "object", "additionalProperties": {"type": "string"}}},
    },
}
_VALIDATOR = make_validator(SCENARIO_SCHEMA)


def read_scenario(path: Path, shown: str) -> tuple[Document | None, list[Diagnostic]]:
    """The scenario file's YAML document and every problem its shape has (empty: well formed)."""
    diags: list[Diagnostic] = []
    doc = read_document(path, shown, diags, expected="a scenario: sets, players and moves (docs/scenarios.md)")
    if doc is None or diags:
        return doc, diags
    return doc, check_schema(doc, _VALIDATOR)
