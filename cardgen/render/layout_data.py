"""Paper sizes, card sizes, the face layout and ink colours, read from `templates/layout/*.yaml`.

Kept as data so a new paper or card size is a YAML edit, not a code change.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

import yaml

from cardgen.paths import templates_dir
from cardgen.render.errors import LayoutError


@dataclass(frozen=True)
class Paper:
    """A sheet of paper, portrait, in millimetres."""

    name: str
    width: float
    height: float
    label: str


@dataclass(frozen=True)
class CardSize:
    """A card's trim size, portrait, in millimetres."""

    name: str
    width: float
    height: float


@cache
def _load(name: str) -> dict[str, Any]:
    path = templates_dir() / "layout" / name
    with path.open(encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    if not isinstance(data, dict):
        raise LayoutError(f"{path}: expected a mapping")
    return data


def paper_names() -> list[str]:
    return sorted(_load("papers.yaml")["papers"])


def safe_margin() -> float:
    """The printer's unprintable outer band (mm): no ink or mark goes there."""
    return float(_load("papers.yaml")["safe_margin"])


def paper(name: str) -> Paper:
    papers = _load("papers.yaml")["papers"]
    key = name.strip().lower()
    if key not in papers:
        raise LayoutError(f"unknown paper '{name}' (choose from {', '.join(sorted(papers))})")
    p = papers[key]
    return Paper(key, float(p["width"]), float(p["height"]), str(p.get("label", key)))


def size_names() -> list[str]:
    return list(_load("card_sizes.yaml")["sizes"])


def default_size() -> str:
    return str(_load("card_sizes.yaml")["default"])


_CUSTOM = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*[xX×]\s*(\d+(?:\.\d+)?)\s*(?:mm)?\s*$")


def card_size(spec: str) -> CardSize:
    """A named size (poker, bridge, slip) or a custom 'WxH' in millimetres."""
    sizes = _load("card_sizes.yaml")["sizes"]
    key = spec.strip().lower()
    if key in sizes:
        s = sizes[key]
        return CardSize(key, float(s["width"]), float(s["height"]))
    m = _CUSTOM.match(spec)
    if m is None:
        raise LayoutError(f"unknown card size '{spec}' (choose from {', '.join(sizes)}, or WxH in mm such as 62x87)")
    w, h = float(m.group(1)), float(m.group(2))
    if w <= 0 or h <= 0:
        raise LayoutError(f"card size '{spec}': width and height must be positive")
    return CardSize(f"{m.group(1)}x{m.group(2)}", w, h)


def parse_offset(spec: str) -> tuple[float, float]:
    """'X,Y' in millimetres (may be negative) -> (x, y)."""
    parts = spec.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        return float(parts[0]), float(parts[1])
    except ValueError:
        raise LayoutError(f"offset '{spec}' must be X,Y in millimetres, for example 0.5,-1") from None


@cache
def face_layout() -> dict[str, Any]:
    return _load("face.yaml")


@cache
def colours() -> dict[str, Any]:
    return _load("colours.yaml")


def colour(key: str) -> str:
    """An ink colour by dotted key ('frame', 'badges.stuns')."""
    node: Any = colours()
    for part in key.split("."):
        node = node[part]
    return str(node)


def num(key: str) -> float:
    """A number from face.yaml by dotted key ('band.height')."""
    node: Any = face_layout()
    for part in key.split("."):
        node = node[part]
    return float(node)


def text(key: str) -> str:
    """A string (a font name) from face.yaml by dotted key."""
    node: Any = face_layout()
    for part in key.split("."):
        node = node[part]
    return str(node)
