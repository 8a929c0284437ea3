"""Turn JSON Schema violations into diagnostics a person can act on.

jsonschema is imported only for a document that does not plainly conform (`quick_schema`), so a
build of well-formed files never pays for it; its errors are then worded exactly as always.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any, cast

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
from cardgen.primitives import PRIMITIVES, TEXT_ONLY
from cardgen.schema_parts import MAX_NUMBER
from cardgen.suggest import did_you_mean
from cardgen.yaml_doc import Document, PathKey

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


Said = list[tuple[PathKey, bool, str]]  # (where, whether at the key rather than the value, the words)


def _unknown_keys(at: PathKey, where: str, sub: dict[str, Any], instance: dict[str, Any]) -> Said:
    allowed = list(sub.get("properties", {}))
    return [((*at, key), True, f"{where}: unknown key '{key}'{did_you_mean(key, allowed)}; expected one of: "
             + ", ".join(allowed)) for key in instance if key not in allowed]


def _one_of(doc: Document, at: PathKey, where: str, err: jsonschema.ValidationError) -> str:
    """A value that takes none of its field's forms; a damage value in the words of strikes."""
    inst = err.instance
    if not (at and at[-1] == "damage"):
        if isinstance(inst, list) and not inst:
            return f"{where}: must not be empty"
        return f"{where}: expected {_forms(err.validator_value)}, got {_got(doc, at, inst)}"
    if isinstance(inst, int) and not isinstance(inst, bool) and not 1 <= inst <= MAX_NUMBER:
        return f"{where}: must be from 1 to {MAX_NUMBER}, got {inst}"
    if isinstance(inst, list):
        for item in inst:
            if not isinstance(item, int) or isinstance(item, bool) or not 1 <= item <= MAX_NUMBER:
                return f"{where}: every strike must be a whole number from 1 to {MAX_NUMBER}, got {_describe(item)}"
        return f"{where}: expected a list of 1 to 6 strikes, got {len(inst)}"
    return f"{where}: expected a whole number or a list of strikes (e.g. [4, 3]), got {_got(doc, at, inst)}"


def _sized(v: str, value: Any, where: str) -> str | None:
    """The words for a length or size bound, or None for another keyword."""
    if v in ("minLength", "minItems", "minProperties") and (value == 1 or v == "minProperties"):
        return f"{where}: must not be empty"
    return {"maxLength": f"{where}: is too long (at most {value} characters)",
            "maxItems": f"{where}: has too many entries (at most {value})",
            "minItems": f"{where}: needs at least {value} entries",
            "uniqueItems": f"{where}: has a repeated entry"}.get(v)


def _bare_primitive(at: PathKey, inst: Any) -> str:
    """How to write an entry of `effects:` given as a word: `- shuffle_discard` without its colon is the text
    'shuffle_discard' to YAML, not the primitive, an easy slip since a primitive without parameters has nothing
    after it. `effects:` itself given one primitive instead of a list of them: how to write the list."""
    if at and at[-1] == "effects":
        return _not_a_list(inst)
    if len(at) < 2 or at[-2] != "effects" or not isinstance(inst, str):
        return ""
    word = inst.strip()
    if word in PRIMITIVES:
        return f"; write `- {word}:` with a colon (a primitive without parameters), or `- {word}: {{...}}`"
    return did_you_mean(word, list(PRIMITIVES))


def _not_a_list(inst: Any) -> str:
    """`effects: steal` or `effects: {steal: {...}}`: one primitive where a list of them belongs."""
    names = [inst.strip()] if isinstance(inst, str) else [str(k) for k in inst] if isinstance(inst, dict) else []
    if not names or not all(n in PRIMITIVES for n in names):
        return ""
    entries = ", ".join(f"{{{n}: ...}}" for n in names)
    return f"; `effects:` is a list, one primitive an entry: `effects: [{entries}]`"


def _words(doc: Document, at: PathKey, where: str, err: jsonschema.ValidationError) -> str:
    """One violation of a value, in words."""
    v, value, got = str(err.validator), cast(Any, err.validator_value), _got(doc, at, err.instance)
    if v == "required":
        missing = str(err.message).split("'")[1] if "'" in err.message else str(value)
        return f"{where}: missing required key '{missing}'"
    if v == "enum":
        choices = [str(c) for c in value]
        return f"{where}: expected one of {', '.join(choices)}, got {got}{did_you_mean(str(err.instance), choices)}"
    if v == "type":
        words = _TYPE_WORDS.get(value, str(value)) if isinstance(value, str) else " or ".join(
            _TYPE_WORDS.get(w, w) for w in value)
        return f"{where}: expected {words}, got {got}{_bare_primitive(at, err.instance)}"
    if v in ("minimum", "exclusiveMinimum"):
        return f"{where}: must be at least {value}, got {got}"
    if v == "maximum":
        return f"{where}: must be at most {value}, got {got}"
    if v == "oneOf":
        return _one_of(doc, at, where, err)
    if v == "pattern":
        return (f"{where}: {got} is not {_PATTERN_WORDS.get(str(value), f'the form {value}')}"
                + _bare_primitive(at, err.instance))
    if v == "maxProperties":
        return (f"{where}: one primitive per list entry (write each on its own '- ' line), got "
                + ", ".join(str(k) for k in (err.instance if isinstance(err.instance, dict) else ())))
    return _sized(v, value, where) or f"{where}: {err.message}"


def _message(doc: Document, err: jsonschema.ValidationError) -> Said:
    at: PathKey = tuple(err.absolute_path)
    where = _field_name(doc, at)
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        return _unknown_keys(at, where, err.schema if isinstance(err.schema, dict) else {}, err.instance)
    return [(at, False, _words(doc, at, where, err))]


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
