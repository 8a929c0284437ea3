"""Paper sizes and card sizes, read from `templates/layout/papers.yaml` and `card_sizes.yaml`.

Kept as data so a new paper or card size is a YAML edit, not a code change. The card face's layout
and inks are typed data of their own (cardgen.render.face_layout), carried by a render session.
"""

from __future__ import annotations

import math
import re
from functools import cache
from typing import Any, NamedTuple

from cardgen.paths import templates_dir
from cardgen.render.errors import LayoutError
from cardgen.yaml_doc import read_plain


class Paper(NamedTuple):
    """A sheet of paper, portrait, in millimetres."""

    name: str
    width: float
    height: float
    label: str


class CardSize(NamedTuple):
    """A card's trim size, portrait, in millimetres."""

    name: str
    width: float
    height: float


@cache
def _load(name: str) -> dict[str, Any]:
    path = templates_dir() / "layout" / name
    with path.open(encoding="utf-8") as fh:
        data = read_plain(fh.read())  # read on every build: libyaml when PyYAML has it
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


def default_size() -> str:
    return str(_load("card_sizes.yaml")["default"])


def size_names() -> list[str]:
    """The named card sizes (`--size`), as listed in card_sizes.yaml."""
    return list(_load("card_sizes.yaml")["sizes"])


# ASCII digits only: `\d` alone takes any script's digits (٦٣x٨٨), which float() reads but the sheet label
# would have to print in a face that lacks them
_CUSTOM = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*[xX×]\s*(\d+(?:\.\d+)?)\s*(?:mm)?\s*$", re.ASCII)


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
    if not (math.isfinite(w) and math.isfinite(h)) or w <= 0 or h <= 0:
        raise LayoutError(f"card size '{spec}': width and height must be positive")
    return CardSize(f"{m.group(1)}x{m.group(2)}", w, h)


MAX_OFFSET_MM = 10.0  # a printer's duplex shift is a few mm; more would push the backs off their cards


def parse_offset(spec: str) -> tuple[float, float]:
    """'X,Y' in millimetres (may be negative) -> (x, y)."""
    parts = spec.split(",")
    try:
        if len(parts) != 2 or not spec.isascii() or "_" in spec:
            raise ValueError
        x, y = float(parts[0]), float(parts[1])
    except ValueError:
        raise LayoutError(f"offset '{spec}' must be X,Y in millimetres, for example 0.5,-1") from None
    if not all(math.isfinite(v) and abs(v) <= MAX_OFFSET_MM for v in (x, y)):
        raise LayoutError(f"offset '{spec}': each part must be a number of millimetres between "
                          f"-{MAX_OFFSET_MM:g} and {MAX_OFFSET_MM:g}")
    return x, y
