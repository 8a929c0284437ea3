"""A fast yes/no check of a document against the project's own JSON Schemas, without jsonschema.

Importing jsonschema (and its referencing and attrs) costs more than checking every file of a set
(README, "Dependencies", has the measurement). Well-formed files are the common case, so the loader asks
this checker first and imports jsonschema only when a document does not plainly conform: then it
finds and words every violation exactly as before. The checker knows only the keywords our
schemas use; any other keyword makes it answer "not plainly valid", so a schema change can
never make it wave a bad file through (tests/test_quick_schema.py compares it with jsonschema).
"""

from __future__ import annotations

import re
from typing import Any

_ANNOTATIONS = frozenset({"description", "title", "default", "examples", "$comment", "$schema", "$id"})
_KNOWN = frozenset({"type", "properties", "additionalProperties", "required", "items", "minItems", "maxItems",
                    "uniqueItems", "minimum", "maximum", "enum", "pattern", "minLength", "maxLength",
                    "minProperties", "maxProperties", "propertyNames", "oneOf"}) | _ANNOTATIONS


class _Unsure(Exception):
    """A keyword this checker does not know: let jsonschema decide."""


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _has_type(x: Any, name: str) -> bool:
    """JSON Schema types, with the project's strict integers (2.0 is not a whole number)."""
    if name == "integer":
        return isinstance(x, int) and not isinstance(x, bool)
    if name == "number":
        return _is_number(x)
    if name == "string":
        return isinstance(x, str)
    if name == "boolean":
        return isinstance(x, bool)
    if name == "array":
        return isinstance(x, list)
    if name == "object":
        return isinstance(x, dict)
    if name == "null":
        return x is None
    raise _Unsure(name)


def _same(a: Any, b: Any) -> bool:
    """JSON equality: true is not 1, 1 is 1.0."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if _is_number(a) and _is_number(b):
        return bool(a == b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return type(a) is type(b) and bool(a == b)


def _ok(schema: Any, x: Any) -> bool:
    if schema is True:
        return True
    if schema is False:
        return False
    if not isinstance(schema, dict) or not schema.keys() <= _KNOWN:
        raise _Unsure(str(schema))
    s: dict[str, Any] = schema
    if "type" in s:
        want = s["type"]
        if not any(_has_type(x, w) for w in (want if isinstance(want, list) else [want])):
            return False
    if "enum" in s and not any(_same(x, v) for v in s["enum"]):
        return False
    if "oneOf" in s and sum(_ok(sub, x) for sub in s["oneOf"]) != 1:
        return False
    if isinstance(x, str):
        return _string_ok(s, x)
    if _is_number(x):
        return not (("minimum" in s and x < s["minimum"]) or ("maximum" in s and x > s["maximum"]))
    if isinstance(x, list):
        return _array_ok(s, x)
    if isinstance(x, dict):
        return _object_ok(s, x)
    return True


def _string_ok(s: dict[str, Any], x: str) -> bool:
    if len(x) < s.get("minLength", 0) or ("maxLength" in s and len(x) > s["maxLength"]):
        return False
    return "pattern" not in s or re.search(s["pattern"], x) is not None  # re caches compiled patterns


def _array_ok(s: dict[str, Any], x: list[Any]) -> bool:
    if len(x) < s.get("minItems", 0) or ("maxItems" in s and len(x) > s["maxItems"]):
        return False
    if s.get("uniqueItems") and any(_same(x[i], x[j]) for i in range(len(x)) for j in range(i)):
        return False
    return "items" not in s or all(_ok(s["items"], item) for item in x)


def _object_ok(s: dict[str, Any], x: dict[Any, Any]) -> bool:
    if len(x) < s.get("minProperties", 0) or not all(k in x for k in s.get("required", ())):
        return False
    if "maxProperties" in s and len(x) > s["maxProperties"]:
        return False
    props: dict[str, Any] = s.get("properties", {})
    extra = s.get("additionalProperties", True)
    for key, value in x.items():
        if not isinstance(key, str):
            raise _Unsure("a key that is not text")
        if "propertyNames" in s and not _ok(s["propertyNames"], key):
            return False
        if not _ok(props.get(key, extra), value):
            return False
    return True


def plainly_valid(schema: dict[str, Any], document: Any) -> bool:
    """True only if `document` conforms to `schema`; False means "ask jsonschema" (invalid, or not sure)."""
    try:
        return _ok(schema, document)
    except _Unsure:
        return False
