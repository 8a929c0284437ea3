"""Turn JSON Schema violations into diagnostics a person can act on.

jsonschema is imported only for a document that does not plainly conform (`quick_schema`), so a
build of well-formed files never pays for it; its errors are then worded exactly as always.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any

from cardgen.errors import Diagnostic
from cardgen.loader.quick_schema import plainly_valid
from cardgen.loader.schema import (
    BACK_IMAGE_PATTERN,
    CARD_SCHEMA,
    COLOUR_PATTERN,
    FONT_FILE_PATTERN,
    ICON_FILE_PATTERN,
    schema,
)
from cardgen.loader.yaml_doc import Document, PathKey
from cardgen.primitives import TEXT_ONLY
from cardgen.schema_parts import MAX_NUMBER
from cardgen.suggest import did_you_mean

if TYPE_CHECKING:
    import jsonschema


def _strict_integer(checker: Any, instance: Any) -> bool:
    """JSON Schema counts 2.0 as an integer; card counts and damage must be written as whole numbers."""
    return isinstance(instance, int) and not isinstance(instance, bool)


def _validator_class() -> Any:
    import jsonschema

    return jsonschema.validators.extend(  # type: ignore[no-untyped-call]
        jsonschema.Draft202012Validator,
        type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _strict_integer))


class SchemaValidator:
    """One document kind's schema: a quick yes for a conforming document, jsonschema for anything else."""

    def __init__(self, schema_dict: dict[str, Any]) -> None:
        self.schema = schema_dict

    @cached_property
    def _full(self) -> Any:
        return _validator_class()(self.schema)

    def is_valid(self, data: Any) -> bool:
        return plainly_valid(self.schema, data) or bool(self._full.is_valid(data))

    def iter_errors(self, data: Any) -> Any:
        if plainly_valid(self.schema, data):
            return iter(())
        return self._full.iter_errors(data)


_VALIDATOR = SchemaValidator(schema())
CARD_VALIDATOR = SchemaValidator(CARD_SCHEMA)
SET_VALIDATOR = _VALIDATOR
_PATTERN_WORDS = {
    "^[a-z][a-z0-9-]*$": "a lowercase key (letters, digits and '-', starting with a letter, e.g. 'basic')",
    COLOUR_PATTERN: "a colour written as '#RRGGBB' (e.g. '#F4C20D')",
    ICON_FILE_PATTERN: "an .svg or .png file (e.g. 'icons/dodge.svg')",
    FONT_FILE_PATTERN: "a TrueType .ttf file (e.g. 'fonts/MyFace-Regular.ttf')",
    BACK_IMAGE_PATTERN: "a .png, .jpg or .tif image (e.g. 'back.png')",
    f"^{TEXT_ONLY}$": f"'{TEXT_ONLY}' (the card's own text says what it does) or a list of effects",
}
_TYPE_WORDS = {"integer": "a whole number", "string": "text", "boolean": "true or false",
               "array": "a list", "object": "a mapping", "number": "a number"}


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nothing"
    if isinstance(value, str):
        return f"text '{value}'" if len(value) < 40 else "text"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return repr(value)


def _got(doc: Document, at: PathKey, value: Any) -> str:
    """`_describe(value)`, but a boolean written `yes`/`no`/`on`/`off` is shown as written, with how YAML read it."""
    word = doc.spelled.get(at)
    if isinstance(value, bool) and word is not None:
        return f"'{word}' (YAML reads {word} as {'true' if value else 'false'})"
    return _describe(value)


def _field_name(doc: Document, at: PathKey) -> str:
    """'card 'Jab' field `count`' style location words for a path."""
    parts: list[str] = []
    if len(at) >= 2 and at[0] == "cards" and isinstance(at[1], int):
        cards = doc.data.get("cards") if isinstance(doc.data, dict) else None
        name = None
        if isinstance(cards, list) and at[1] < len(cards) and isinstance(cards[at[1]], dict):
            name = cards[at[1]].get("name")
        parts.append(f"card '{name}'" if isinstance(name, str) else f"card #{at[1] + 1}")
        rest = at[2:]
    else:
        rest = at
    if rest:
        parts.append("field `" + ".".join(str(p) for p in rest) + "`")
    return " ".join(parts) if parts else "document"


def _forms(subschemas: Any) -> str:
    """The forms a oneOf field takes, in words: 'text or a list', 'one of pass, decline, done or a mapping'."""
    kinds = {"string": "text", "array": "a list", "object": "a mapping", "integer": "a whole number",
             "boolean": "true or false"}
    words = []
    for sub in subschemas if isinstance(subschemas, list) else []:
        if isinstance(sub, dict) and "enum" in sub:
            words.append("one of " + ", ".join(str(x) for x in sub["enum"]))
        elif isinstance(sub, dict):
            words.append(kinds.get(str(sub.get("type")), "another form"))
    return " or ".join(dict.fromkeys(words)) or "another form"


def _message(doc: Document, err: jsonschema.ValidationError) -> list[tuple[PathKey, bool, str]]:
    at: PathKey = tuple(err.absolute_path)
    where = _field_name(doc, at)
    v = err.validator
    sub = err.schema if isinstance(err.schema, dict) else {}
    value: Any = err.validator_value
    if v == "additionalProperties" and isinstance(err.instance, dict):
        allowed = list(sub.get("properties", {}))
        out = []
        for key in err.instance:
            if key not in allowed:
                hint = did_you_mean(key, allowed)
                out.append(((*at, key), True, f"{where}: unknown key '{key}'{hint}; expected one of: "
                            + ", ".join(allowed)))
        return out
    if v == "required":
        missing = str(err.message).split("'")[1] if "'" in err.message else str(value)
        return [(at, False, f"{where}: missing required key '{missing}'")]
    if v == "enum":
        choices = [str(c) for c in value]
        hint = did_you_mean(str(err.instance), choices)
        return [(at, False, f"{where}: expected one of {', '.join(choices)}, got {_got(doc, at, err.instance)}{hint}")]
    if v == "type":
        want = value
        words = _TYPE_WORDS.get(want, str(want)) if isinstance(want, str) else " or ".join(
            _TYPE_WORDS.get(w, w) for w in want)
        return [(at, False, f"{where}: expected {words}, got {_got(doc, at, err.instance)}")]
    if v in ("minimum", "exclusiveMinimum"):
        return [(at, False, f"{where}: must be at least {err.validator_value}, got {_got(doc, at, err.instance)}")]
    if v == "maximum":
        return [(at, False, f"{where}: must be at most {err.validator_value}, got {_got(doc, at, err.instance)}")]
    if v == "oneOf" and not (at and at[-1] == "damage"):  # the strike words below are damage's alone
        if isinstance(err.instance, list) and not err.instance:
            return [(at, False, f"{where}: must not be empty")]
        return [(at, False, f"{where}: expected {_forms(err.validator_value)}, got {_got(doc, at, err.instance)}")]
    if v == "oneOf":
        inst = err.instance
        if isinstance(inst, int) and not isinstance(inst, bool) and not 1 <= inst <= MAX_NUMBER:
            return [(at, False, f"{where}: must be from 1 to {MAX_NUMBER}, got {inst}")]
        if isinstance(inst, list):
            for item in inst:
                if not isinstance(item, int) or isinstance(item, bool) or not 1 <= item <= MAX_NUMBER:
                    return [(at, False, f"{where}: every strike must be a whole number from 1 to {MAX_NUMBER}, "
                                        f"got {_describe(item)}")]
            return [(at, False, f"{where}: expected a list of 1 to 6 strikes, got {len(inst)}")]
        return [(at, False, f"{where}: expected a whole number or a list of strikes (e.g. [4, 3]), "
                            f"got {_got(doc, at, inst)}")]
    if v == "pattern":
        form = _PATTERN_WORDS.get(str(err.validator_value), f"the form {err.validator_value}")
        return [(at, False, f"{where}: {_got(doc, at, err.instance)} is not {form}")]
    if v == "minProperties":
        return [(at, False, f"{where}: must not be empty")]
    if v == "maxProperties":
        return [(at, False, f"{where}: one primitive per list entry (write each on its own '- ' line), got "
                            + ", ".join(str(k) for k in (err.instance if isinstance(err.instance, dict) else ())))]
    if v in ("minLength", "minItems") and value == 1:
        return [(at, False, f"{where}: must not be empty")]
    if v == "maxLength":
        return [(at, False, f"{where}: is too long (at most {value} characters)")]
    if v == "maxItems":
        return [(at, False, f"{where}: has too many entries (at most {value})")]
    if v == "minItems":
        return [(at, False, f"{where}: needs at least {value} entries")]
    if v == "uniqueItems":
        return [(at, False, f"{where}: has a repeated entry")]
    return [(at, False, f"{where}: {err.message}")]


def make_validator(schema_dict: dict[str, Any]) -> SchemaValidator:
    """A validator for another document kind (scenarios), with the same strict whole numbers."""
    return SchemaValidator(schema_dict)


def check_schema(doc: Document, validator: SchemaValidator | None = None) -> list[Diagnostic]:
    """Every schema violation in the document (a set file, or `validator`'s kind), in file order."""
    out: list[Diagnostic] = []
    seen: set[tuple[int, int, str]] = set()
    for err in (validator or _VALIDATOR).iter_errors(doc.data):
        for at, is_key, msg in _message(doc, err):
            line, col = doc.where(at, key=is_key)
            if (line, col, msg) in seen:
                continue
            seen.add((line, col, msg))
            out.append(Diagnostic(doc.path, line, col, msg))
    out.sort(key=lambda d: (d.line, d.column))
    return out
