"""The JSON Schema pieces a card's fields are declared with: bounds, vocabularies and the `effects:` list.

Below both the mechanic registry (`cardgen.mechanic_registry`, which declares each card mechanic's fragment)
and the loader's schema (`cardgen.loader.schema`, which assembles the whole file's schema from them).
"""

from __future__ import annotations

from typing import Any

from cardgen.primitives import PRIMITIVES, TEXT_ONLY, Primitive

MAX_NUMBER = 99  # a sane bound for any count, damage, life or turn number on a card or in the rules
MAX_EFFECTS = 8  # primitives on one card: a slip holds a few sentences
POS_INT: dict[str, Any] = {"type": "integer", "minimum": 1, "maximum": MAX_NUMBER}
NONNEG_INT: dict[str, Any] = {"type": "integer", "minimum": 0, "maximum": MAX_NUMBER}
NAME: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": 60}
KEY: dict[str, Any] = {"type": "string", "pattern": "^[a-z][a-z0-9-]*$"}


def enum(values: tuple[str, ...], description: str) -> dict[str, Any]:
    return {"type": "string", "enum": list(values), "description": description}


def enum_list(values: tuple[str, ...], description: str) -> dict[str, Any]:
    return {"type": "array", "items": {"type": "string", "enum": list(values)}, "uniqueItems": True,
            "description": description}


def _primitive_schema(prim: Primitive) -> dict[str, Any]:
    """One primitive's parameters (`cardgen.primitives`), with their bounds; none given means the defaults."""
    props: dict[str, Any] = {n.name: {"type": "integer", "minimum": n.low, "maximum": n.high,
                                      "description": f"default {n.default}"} for n in prim.numbers}
    props |= {w.name: enum(w.words, f"default {w.default}") for w in prim.words}
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
