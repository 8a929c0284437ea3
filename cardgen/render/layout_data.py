"""Paper sizes, card sizes, the face layout and ink colours, read from `templates/layout/*.yaml`.

Kept as data so a new paper or card size is a YAML edit, not a code change.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from cardgen.paths import templates_dir
from cardgen.render.errors import LayoutError
from cardgen.suggest import did_you_mean
from cardgen.yaml_lib import yaml


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


# libyaml's loader when PyYAML has it (its wheels do): the layout files are read on every build, and the
# pure-Python loader takes longer than drawing a page.
SAFE_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_yaml(text: str) -> Any:
    """Plain YAML data (no positions needed), as fast as the installed PyYAML can."""
    return yaml.load(text, Loader=SAFE_LOADER)


@cache
def _load(name: str) -> dict[str, Any]:
    path = templates_dir() / "layout" / name
    with path.open(encoding="utf-8") as fh:
        data = read_yaml(fh.read())
    if not isinstance(data, dict):
        raise LayoutError(f"{path}: expected a mapping")
    return data


def min_text_pt() -> float:
    """The one minimum size (pt) of anything a player reads; a set's own layout cannot lower it."""
    return float(_load("face.yaml")["min_text_pt"])


# Every size in face.yaml that sets text a player reads, at its smallest: each must be at least min_text_pt.
READABLE_SIZES: tuple[str, ...] = (
    "band.name_min_pt", "value_row.min_pt", "value_row.caption_pt", "badge.min_pt", "text.min_pt",
    "text.flavour_min_pt", "footer.pt", "split.name_min_pt", "split.divider_min_pt", "back.title_min_pt",
    "back.subtitle_pt", "sheet.footer_min_pt", "sheet.scale_bar_pt",
)
# Lines drawn on a card (key of their inset from the cut, key of their width): the line's outer edge
# stays at least the face's safe margin from the cut, so a miscut never cuts into or unevens a frame.
FRAME_LINES: tuple[tuple[str, str], ...] = (("back.inset", "back.frame_pt"),)


def face_problems(face: dict[str, Any]) -> list[str]:
    """What a face layout gets wrong against the print rules: text below the minimum, a line in the safe zone."""
    def get(key: str) -> float:
        node: Any = face
        for part in key.split("."):
            node = node[part]
        return float(node)

    out = []
    floor = min_text_pt()
    for key in READABLE_SIZES:
        if get(key) < floor - 1e-9:
            out.append(f"'{key}' is {get(key):g} pt, below the minimum text size of {floor:g} pt")
    if get("text.max_pt") < get("text.min_pt"):
        out.append("'text.max_pt' is below 'text.min_pt'")
    safe = get("safe_margin")
    for inset, width in FRAME_LINES:
        edge = get(inset) - get(width) * 25.4 / 72 / 2
        if edge < safe - 1e-9:
            out.append(f"the line at '{inset}' ({get(inset):g} mm, {get(width):g} pt wide) reaches {edge:.2f} mm "
                       f"from the cut, inside the {safe:g} mm safe margin")
    return out


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
    if not (math.isfinite(w) and math.isfinite(h)) or w <= 0 or h <= 0:
        raise LayoutError(f"card size '{spec}': width and height must be positive")
    return CardSize(f"{m.group(1)}x{m.group(2)}", w, h)


MAX_OFFSET_MM = 10.0  # a printer's duplex shift is a few mm; more would push the backs off their cards


def parse_offset(spec: str) -> tuple[float, float]:
    """'X,Y' in millimetres (may be negative) -> (x, y)."""
    parts = spec.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        x, y = float(parts[0]), float(parts[1])
    except ValueError:
        raise LayoutError(f"offset '{spec}' must be X,Y in millimetres, for example 0.5,-1") from None
    if not all(math.isfinite(v) and abs(v) <= MAX_OFFSET_MM for v in (x, y)):
        raise LayoutError(f"offset '{spec}': each part must be a number of millimetres between "
                          f"-{MAX_OFFSET_MM:g} and {MAX_OFFSET_MM:g}")
    return x, y


SET_LAYOUT_DIR = "layout"  # a set folder's own face.yaml / colours.yaml, merged over the bundled ones
LAYOUT_FILES: tuple[str, ...] = ("face.yaml", "colours.yaml")
# The merged layout files of the set being drawn, resolved once per render (not once per drawing call).
_ACTIVE: ContextVar[dict[str, dict[str, Any]] | None] = ContextVar("cardgen_set_layout", default=None)


@contextmanager
def set_layout(set_folder: str) -> Iterator[None]:
    """Draw with the set's own layout data (if its folder has `layout/`) inside this block."""
    own = Path(set_folder) / SET_LAYOUT_DIR if set_folder else None
    own_dir = str(own.resolve()) if own is not None and own.is_dir() else ""
    token = _ACTIVE.set({name: _layered(name, own_dir) for name in LAYOUT_FILES} if own_dir else None)
    try:
        yield
    finally:
        _ACTIVE.reset(token)


@contextmanager
def face_overrides(values: dict[str, Any]) -> Iterator[None]:
    """Draw with these face.yaml values over the active layout (a print shop's wider safe zone)."""
    merged = {name: _current(name) for name in LAYOUT_FILES}
    merged["face.yaml"] = _merge(merged["face.yaml"], values, "face.yaml")
    token = _ACTIVE.set(merged)
    try:
        yield
    finally:
        _ACTIVE.reset(token)


def _merge(base: dict[str, Any], own: dict[str, Any], where: str) -> dict[str, Any]:
    """`own` over `base`; only keys the bundled layout knows, with values of the same kind."""
    out = dict(base)
    for key, value in own.items():
        if key not in base:
            raise LayoutError(f"{where}: unknown layout key '{key}'{did_you_mean(str(key), list(base))}")
        if isinstance(base[key], dict):
            if not isinstance(value, dict):
                raise LayoutError(f"{where}: '{key}' must be a mapping")
            out[key] = _merge(base[key], value, f"{where}.{key}")
        elif isinstance(base[key], (int, float)) and (not isinstance(value, (int, float)) or isinstance(value, bool)):
            raise LayoutError(f"{where}: '{key}' must be a number, got {value!r}")
        else:
            out[key] = value
    return out


def _layered(name: str, own_dir: str) -> dict[str, Any]:
    """The bundled layout file with the set's own one merged over it (re-read when that file changes)."""
    if not own_dir:
        return _load(name)
    path = Path(own_dir) / name
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return _load(name)
    return _layered_at(name, own_dir, stamp)


@cache
def _layered_at(name: str, own_dir: str, stamp: int) -> dict[str, Any]:
    base = _load(name)
    path = Path(own_dir) / name
    try:
        own = read_yaml(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise LayoutError(f"{path}: cannot read layout: {exc}") from exc
    if not isinstance(own, dict):
        raise LayoutError(f"{path}: expected a mapping")
    merged = _merge(base, own, str(path))
    if name == "face.yaml":
        if "min_text_pt" in own and float(own["min_text_pt"]) < min_text_pt():
            raise LayoutError(f"{path}: 'min_text_pt' cannot go below the bundled {min_text_pt():g} pt")
        problems = face_problems(merged)
        if problems:
            raise LayoutError(f"{path}: {problems[0]}")
    return merged


def _current(name: str) -> dict[str, Any]:
    active = _ACTIVE.get()
    return active[name] if active is not None else _load(name)


def face_layout() -> dict[str, Any]:
    return _current("face.yaml")


def colours() -> dict[str, Any]:
    return _current("colours.yaml")


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
