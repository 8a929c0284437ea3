"""The spreadsheet columns, derived from the card schema, and conversion between cells and YAML values.

A nested YAML field becomes dotted columns (`heal.amount`, `heal.when`), so the
header names every field exactly as a card file does. Lists are written
comma-separated (`dodge, block`), a multi-strike as `4 + 3`, an empty list as
`none`, booleans as TRUE/FALSE, a card's effects as `steal(who=chosen); draw(cards=2)` (parameters at their
defaults left out) or `text`; an empty cell means the field is left out.
"""

from __future__ import annotations

import dataclasses
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardgen.loader.schema import CARD_PROPERTIES
from cardgen.model import Card, OwnBack
from cardgen.primitives import TEXT_ONLY

EMPTY_LIST = "none"
TRUE_WORDS = frozenset({"true", "yes", "y", "x", "1", "✓", "✔"})
FALSE_WORDS = frozenset({"false", "no", "n", "0"})


@dataclass(frozen=True)
class Column:
    """One spreadsheet column: its header, the YAML path it fills and the kind of value it holds."""

    header: str
    path: tuple[str, ...]
    kind: str  # "int", "bool", "text", "list", "damage", "effects"


def _kind(prop: dict[str, Any]) -> str:
    if "oneOf" in prop:
        return "damage"
    t = prop.get("type")
    return {"integer": "int", "boolean": "bool", "array": "list"}.get(str(t), "text")


def _columns() -> tuple[Column, ...]:
    out: list[Column] = []
    for name, prop in CARD_PROPERTIES.items():
        if prop.get("type") == "object":
            for sub, sub_prop in prop["properties"].items():
                out.append(Column(f"{name}.{sub}", (name, sub), _kind(sub_prop)))
        else:
            out.append(Column(name, (name,), "effects" if name == "effects" else _kind(prop)))
    return tuple(out)


COLUMNS: tuple[Column, ...] = _columns()
BY_HEADER: dict[str, Column] = {c.header: c for c in COLUMNS}


class CellError(ValueError):
    """A cell that cannot be read as its column's kind; the message says what was expected."""


def _whole(value: Any) -> int:
    if isinstance(value, bool):
        raise CellError(f"expected a whole number, got {str(value).upper()}")
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if value.is_integer():
            return int(value)
        raise CellError(f"expected a whole number, got {value:g}")
    text = str(value).strip()
    if re.fullmatch(r"[+-]?\d+(\.0+)?", text):
        return int(float(text))
    raise CellError(f"expected a whole number, got '{text}'")


def parse_cell(column: Column, value: Any) -> Any:
    """The YAML value of a non-empty cell (raises CellError with what was expected)."""
    if column.kind == "int":
        return _whole(value)
    if column.kind == "bool":
        if isinstance(value, bool):
            return value
        word = str(value).strip().lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
        raise CellError(f"expected TRUE or FALSE, got '{value}'")
    if column.kind == "damage":
        if isinstance(value, int | float) and not isinstance(value, bool):
            return _whole(value)
        parts = [p for p in re.split(r"\s*[+,]\s*", str(value).strip()) if p]
        if not parts:
            raise CellError(f"expected a whole number or strikes like '4 + 3', got '{value}'")
        try:
            strikes = [_whole(p) for p in parts]
        except CellError:
            raise CellError(f"expected a whole number or strikes like '4 + 3', got '{value}'") from None
        return strikes[0] if len(strikes) == 1 else strikes
    if column.kind == "effects":
        return _effects(str(value))
    if column.kind == "list":
        text = str(value).strip()
        if text.lower() in (EMPTY_LIST, "[]"):
            return []
        return [p for p in re.split(r"[\s,;/]+", text.strip("[]")) if p]
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).replace("\r\n", "\n").replace("\r", "\n").strip()


_EFFECT = re.compile(r"\s*([a-z_]+)\s*(?:\((.*)\))?\s*")
_PARAM = re.compile(r"\s*([a-z_]+)\s*=\s*([a-z_]+|\d+)\s*")


def _effects(text: str) -> str | list[dict[str, dict[str, int | str]]]:
    """`steal(who=chosen); draw(cards=2)` as the YAML list it stands for, or the word `text` (the schema then
    checks the names and bounds, at the cell)."""
    if text.strip() == TEXT_ONLY:
        return TEXT_ONLY
    out: list[dict[str, dict[str, int | str]]] = []
    for part in text.split(";"):
        m = _EFFECT.fullmatch(part)
        if m is None:
            raise CellError(f"expected effects like 'steal(who=chosen); draw(cards=2)' or '{TEXT_ONLY}', got "
                            f"'{part.strip()}'")
        params: dict[str, int | str] = {}
        for item in (m.group(2) or "").split(","):
            if not item.strip():
                continue
            pm = _PARAM.fullmatch(item)
            if pm is None:
                raise CellError(f"expected a parameter like 'cards=2' in {m.group(1)}(...), got '{item.strip()}'")
            params[pm.group(1)] = int(pm.group(2)) if pm.group(2).isdigit() else pm.group(2)
        out.append({m.group(1): params})
    return out


def _effects_cell(value: Any) -> str:
    if not isinstance(value, list):
        return str(value)
    parts = []
    for item in value:
        for op, params in item.items():
            args = ", ".join(f"{k}={v}" for k, v in (params or {}).items())
            parts.append(f"{op}({args})" if args else op)
    return "; ".join(parts)


def is_blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def raw_card(card: Card) -> dict[str, Any]:
    """The card as its YAML would write it: only the fields that differ from their defaults."""
    out: dict[str, Any] = {"name": card.name, "type": card.type, "count": card.count, "source": card.source}
    if card.damage:
        out["damage"] = card.damage[0] if len(card.damage) == 1 else list(card.damage)
    for key in ("travels", "interfere", "stomp"):
        if getattr(card, key):
            out[key] = True
    for key in ("stuns", "stunned", "retaliates", "draw"):
        if getattr(card, key):
            out[key] = getattr(card, key)
    for key in ("passes_on", "defence", "follows", "humiliate", "timing", "text", "flavour", "art", "intended"):
        if getattr(card, key) is not None:
            out[key] = getattr(card, key)
    if card.targets != "one":
        out["targets"] = card.targets
    if card.defended_by is not None:
        out["defended_by"] = list(card.defended_by)
    if card.pair is not None:
        out["pair"] = list(card.pair)
    for key in ("heal", "opens", "ongoing"):
        part = getattr(card, key)
        if part is not None:
            out[key] = _nested(key, part)
    if card.back is not None:
        out["back"] = _back(card, card.back)
    if card.words_only:
        out["effects"] = TEXT_ONLY
    elif card.effects:
        out["effects"] = [e.as_data() for e in card.effects]
    return out


def _back(card: Card, back: OwnBack) -> dict[str, Any]:
    """A card's own back as its YAML writes it: the image relative to the card's file, or the design's inks and
    words (those of its type's and the set's it was drawn over included)."""
    if back.image:
        return {"image": Path(os.path.relpath(back.image, Path(card.file).resolve().parent)).as_posix()}
    return {k: v for k, v in vars(back.design).items() if v is not None}


def _nested(field: str, part: Any) -> dict[str, Any]:
    """A nested mechanic (heal, opens, ongoing) as YAML: required keys, then those off their default."""
    prop = CARD_PROPERTIES[field]
    defaults = {f.name: f.default for f in dataclasses.fields(part)}
    out: dict[str, Any] = {}
    for key in prop["properties"]:
        value = getattr(part, key)
        if key in prop.get("required", ()) or key == "when" or value != defaults.get(key):
            out[key] = list(value) if isinstance(value, tuple) else value
    return out


def cell_value(column: Column, raw: dict[str, Any]) -> str | int | bool | None:
    """What the card's cell in `column` holds (None: empty)."""
    value: Any = raw
    for key in column.path:
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    if column.kind == "effects":
        return _effects_cell(value)
    if column.kind == "damage" and isinstance(value, list):
        return " + ".join(str(v) for v in value)
    if column.kind == "list":
        return ", ".join(value) if value else EMPTY_LIST
    if isinstance(value, bool | int):
        return value
    return str(value)

