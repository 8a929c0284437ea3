"""Type icons: a small vector shape per card-type role, drawn in the band so types differ without colour.

The shapes are data (`templates/layout/type_icons.yaml`), in a unit box scaled to the icon size.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from cardgen.paths import templates_dir
from cardgen.render.errors import LayoutError
from cardgen.render.geometry import Rect
from cardgen.render.pen import Pen
from cardgen.yaml_doc import read_plain


@cache
def icon_data() -> dict[str, Any]:
    path = templates_dir() / "layout" / "type_icons.yaml"
    data = read_plain(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not isinstance(data.get("icons"), dict):
        raise LayoutError(f"{path}: expected 'size', 'gap' and 'icons'")
    return data


def icon_size() -> float:
    return float(icon_data()["size"])


def icon_gap() -> float:
    return float(icon_data()["gap"])


def draw_icon(pen: Pen, role: str, box: Rect, colour: str) -> None:
    """Draw the icon of `role` filling `box` (a square) in `colour`."""
    shapes = icon_data()["icons"].get(role)
    if shapes is None:
        raise LayoutError(f"no type icon for the role '{role}' in templates/layout/type_icons.yaml")
    for shape in shapes:
        if "polygon" in shape:
            pen.fill_polygon([(box.x + x * box.w, box.y + y * box.h) for x, y in shape["polygon"]], colour)
        elif "circle" in shape:
            cx, cy, r = shape["circle"]
            pen.circle(box.x + cx * box.w, box.y + cy * box.h, r * box.w, colour)
        elif "ring" in shape:
            cx, cy, r, width = shape["ring"]
            pen.circle(box.x + cx * box.w, box.y + cy * box.h, r * box.w, colour, width * box.w)
        else:
            raise LayoutError(f"type icon '{role}': unknown shape {sorted(shape)}")
