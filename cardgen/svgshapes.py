"""Plain SVG icons read without svglib: paths and basic shapes in flat colours, as PDF path operations.

svglib (with lxml, cssselect2 and reportlab.graphics behind it) costs about a tenth of a
second to import, more than a whole build spends drawing icons. Keyword icons are small
flat drawings, so this reader takes the common subset: `path` (without arcs), `circle`,
`ellipse`, `rect` (square corners), `line`, `polyline`, `polygon` and `g`, painted with
`fill`, `stroke`, `stroke-width`, `stroke-linecap`, `stroke-linejoin` and `fill-rule` in
hex colours, `black` or `white`, sized by `width`/`height` in px with an optional
`viewBox` of the same proportions. Anything else (CSS, transforms, gradients, text,
opacity, arcs...) makes `read_svg` answer None, and the caller hands the file to svglib:
the result is then svglib's, so this is only ever a faster road to the same drawing.
Shared by the loader (is the icon readable?) and rendering (draw it).
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, NamedTuple

SVG_NS = "{http://www.w3.org/2000/svg}"
PX = 0.75  # points per CSS pixel, as svglib converts them
KAPPA = 0.5522847498307936  # control-point distance of a quarter circle drawn with one cubic curve

Colour = tuple[float, float, float]
Op = tuple[str, tuple[float, ...]]  # "m" (x, y), "l" (x, y), "c" (x1, y1, x2, y2, x, y), "h" ()

_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_PATH_TOKEN = re.compile(r"[MmLlHhVvCcSsQqTtZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[\s,]+|.")
_PAINT = frozenset({"fill", "stroke", "stroke-width", "stroke-linecap", "stroke-linejoin", "fill-rule"})
_GEOMETRY: dict[str, frozenset[str]] = {
    "path": frozenset({"d"}), "circle": frozenset({"cx", "cy", "r"}), "ellipse": frozenset({"cx", "cy", "rx", "ry"}),
    "rect": frozenset({"x", "y", "width", "height"}), "line": frozenset({"x1", "y1", "x2", "y2"}),
    "polyline": frozenset({"points"}), "polygon": frozenset({"points"}), "g": frozenset(),
}
_IGNORED = frozenset({"title", "desc", "metadata"})
_NAMED = {"black": (0.0, 0.0, 0.0), "white": (1.0, 1.0, 1.0)}
_CAPS = {"butt": 0, "round": 1, "square": 2}
_JOINS = {"miter": 0, "round": 1, "bevel": 2}


class Unsupported(Exception):
    """Something this reader does not draw: svglib takes the file instead."""


class Paint(NamedTuple):
    fill: Colour | None
    stroke: Colour | None
    width: float
    cap: int
    join: int
    even_odd: bool


class Shape(NamedTuple):
    ops: tuple[Op, ...]
    paint: Paint


class SimpleSvg(NamedTuple):
    """A drawing `width` x `height` points; `matrix` maps its user units to those points (y up)."""

    width: float
    height: float
    matrix: tuple[float, float, float, float, float, float]
    shapes: tuple[Shape, ...]


def svglib_drawing(path: Path | str) -> Any:
    """svglib's drawing of an SVG the plain reader does not take (None when it cannot read it), with svglib's
    own log lines silenced: the loader reports an unusable icon at its line, and a build's output stays the
    files it wrote. svglib (a tenth of a second to import) is imported only here."""
    import logging

    from svglib.svglib import svg2rlg

    log = logging.getLogger("svglib.svglib")
    level = log.level
    log.setLevel(logging.CRITICAL)
    try:
        return svg2rlg(str(path))
    finally:
        log.setLevel(level)


def read_svg(path: Path | str) -> SimpleSvg | None:
    """The drawing, or None when the file is not plain enough for this reader (or not XML at all)."""
    from defusedxml.ElementTree import parse  # no entity declarations: an icon needs none

    try:
        root = parse(path).getroot()
        return None if root is None else _drawing(root)
    except (ET.ParseError, Unsupported, ValueError, OSError, RecursionError):  # defusedxml refuses with ValueErrors
        return None


def _drawing(root: ET.Element) -> SimpleSvg:
    if root.tag != f"{SVG_NS}svg":
        raise Unsupported(root.tag)
    _only(root, _PAINT | {"width", "height", "viewBox", "version", "id"})
    width, height = _px(root.get("width")) * PX, _px(root.get("height")) * PX
    if width <= 0 or height <= 0:
        raise Unsupported("no size")
    box = root.get("viewBox")
    if box is None:
        x0, y0, vw, vh = 0.0, 0.0, width / PX, height / PX
    else:
        x0, y0, vw, vh = _numbers(box, 4)
        if vw <= 0 or vh <= 0 or abs(vw / vh - width / height) > 1e-9 * (width / height):
            raise Unsupported("viewBox of other proportions (preserveAspectRatio)")
    sx, sy = width / vw, height / vh
    shapes: list[Shape] = []
    _children(root, _inherit(root, Paint((0.0, 0.0, 0.0), None, 1.0, 0, 0, False)), shapes)
    return SimpleSvg(width, height, (sx, 0.0, 0.0, -sy, -x0 * sx, height + y0 * sy), tuple(shapes))


def _children(node: ET.Element, paint: Paint, out: list[Shape]) -> None:
    for child in node:
        if not isinstance(child.tag, str):  # a comment or processing instruction
            continue
        if not child.tag.startswith(SVG_NS):
            raise Unsupported(child.tag)
        name = child.tag[len(SVG_NS):]
        if name in _IGNORED:
            continue
        if name not in _GEOMETRY:
            raise Unsupported(name)
        _only(child, _PAINT | _GEOMETRY[name] | {"id"})
        own = _inherit(child, paint)
        if name == "g":
            _children(child, own, out)
            continue
        if len(child):
            raise Unsupported(f"content inside <{name}>")
        ops = _outline(name, child)
        if name == "line" or (name == "polyline" and own.fill is not None):
            if name == "polyline":
                raise Unsupported("filled polyline")
            own = Paint(None, own.stroke, own.width, own.cap, own.join, own.even_odd)
        if ops and (own.fill is not None or own.stroke is not None):
            out.append(Shape(tuple(ops), own))


def _only(node: ET.Element, allowed: frozenset[str]) -> None:
    extra = set(node.attrib) - allowed
    if extra:
        raise Unsupported(", ".join(sorted(extra)))


def _inherit(node: ET.Element, paint: Paint) -> Paint:
    fill, stroke, width = paint.fill, paint.stroke, paint.width
    cap, join, even_odd = paint.cap, paint.join, paint.even_odd
    if "fill" in node.attrib:
        fill = _colour(node.attrib["fill"])
    if "stroke" in node.attrib:
        stroke = _colour(node.attrib["stroke"])
    if "stroke-width" in node.attrib:
        width = _px(node.attrib["stroke-width"])
    if "stroke-linecap" in node.attrib:
        cap = _lookup(_CAPS, node.attrib["stroke-linecap"])
    if "stroke-linejoin" in node.attrib:
        join = _lookup(_JOINS, node.attrib["stroke-linejoin"])
    if "fill-rule" in node.attrib:
        even_odd = _lookup({"nonzero": 0, "evenodd": 1}, node.attrib["fill-rule"]) == 1
    if width <= 0:
        stroke = None
    return Paint(fill, stroke, width, cap, join, even_odd)


def _lookup(table: dict[str, int], value: str) -> int:
    if value.strip() not in table:
        raise Unsupported(value)
    return table[value.strip()]


def _colour(value: str) -> Colour | None:
    v = value.strip().lower()
    if v == "none":
        return None
    if v in _NAMED:
        return _NAMED[v]
    if re.fullmatch(r"#[0-9a-f]{3}", v):
        v = "#" + "".join(ch * 2 for ch in v[1:])
    if re.fullmatch(r"#[0-9a-f]{6}", v):
        r, g, b = (int(v[i:i + 2], 16) / 255 for i in (1, 3, 5))
        return (r, g, b)
    raise Unsupported(f"colour {value}")


def _px(value: str | None) -> float:
    """A length in user units (px): a plain number or one ending in px; other units go to svglib."""
    if value is None:
        raise Unsupported("missing length")
    v = value.strip()
    v = v[:-2] if v.endswith("px") else v
    if not _NUMBER.fullmatch(v):
        raise Unsupported(f"length {value}")
    return float(v)


def _numbers(text: str, count: int | None = None) -> list[float]:
    if _NUMBER.sub("", text).replace(",", " ").strip():
        raise Unsupported(f"numbers {text}")
    out = [float(n) for n in _NUMBER.findall(text)]
    if count is not None and len(out) != count:
        raise Unsupported(f"numbers {text}")
    return out


def _attr(node: ET.Element, name: str) -> float:
    return _px(node.get(name, "0"))


def _outline(name: str, node: ET.Element) -> list[Op]:
    if name == "path":
        return path_ops(node.get("d", ""))
    if name in ("circle", "ellipse"):
        cx, cy = _attr(node, "cx"), _attr(node, "cy")
        rx = _attr(node, "r") if name == "circle" else _attr(node, "rx")
        ry = _attr(node, "r") if name == "circle" else _attr(node, "ry")
        return _ellipse(cx, cy, rx, ry) if rx > 0 and ry > 0 else []
    if name == "rect":
        x, y, w, h = (_attr(node, k) for k in ("x", "y", "width", "height"))
        if w <= 0 or h <= 0:
            return []
        return [("m", (x, y)), ("l", (x + w, y)), ("l", (x + w, y + h)), ("l", (x, y + h)), ("h", ())]
    if name == "line":
        return [("m", (_attr(node, "x1"), _attr(node, "y1"))), ("l", (_attr(node, "x2"), _attr(node, "y2")))]
    points = _numbers(node.get("points", ""))
    if len(points) < 4 or len(points) % 2:
        return []
    ops: list[Op] = [("m", (points[0], points[1]))]
    ops += [("l", (points[i], points[i + 1])) for i in range(2, len(points), 2)]
    return [*ops, ("h", ())] if name == "polygon" else ops


def _ellipse(cx: float, cy: float, rx: float, ry: float) -> list[Op]:
    """Four cubic quarter arcs, starting at the right-hand point like reportlab's circle."""
    kx, ky = rx * KAPPA, ry * KAPPA
    return [("m", (cx + rx, cy)),
            ("c", (cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry)),
            ("c", (cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy)),
            ("c", (cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry)),
            ("c", (cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy)),
            ("h", ())]


_ARITY = {"m": 2, "l": 2, "h": 1, "v": 1, "c": 6, "s": 4, "q": 4, "t": 2, "z": 0}


def path_ops(d: str) -> list[Op]:
    """SVG path data as absolute moves, lines, cubic curves and closes (quadratics raised to cubics)."""
    tokens = [t for t in _PATH_TOKEN.findall(d) if t.strip(" \t\r\n,")]
    ops: list[Op] = []
    x = y = sx = sy = 0.0
    last_ctrl: tuple[float, float] | None = None  # the previous curve's second control point (S)
    last_quad: tuple[float, float] | None = None  # the previous quadratic's control point (T)
    i, cmd = 0, ""
    while i < len(tokens):
        if tokens[i].isalpha():
            cmd = tokens[i]
            i += 1
        elif not cmd or cmd in "Zz":
            raise Unsupported(f"path data {d[:40]}")
        kind, rel = cmd.lower(), cmd.islower()
        if kind not in _ARITY:
            raise Unsupported(f"path command {cmd}")
        n = _ARITY[kind]
        args = [float(t) for t in tokens[i:i + n]]
        if len(args) != n or any(t.isalpha() for t in tokens[i:i + n]):
            raise Unsupported(f"path data {d[:40]}")
        i += n
        ox, oy = (x, y) if rel else (0.0, 0.0)
        ctrl, quad = None, None
        if kind == "z":
            ops.append(("h", ()))
            x, y = sx, sy
        elif kind == "m":
            x, y = ox + args[0], oy + args[1]
            sx, sy = x, y
            ops.append(("m", (x, y)))
            cmd = "l" if rel else "L"  # more pairs after a move are lines
        elif kind in "lhv":
            if kind == "h":
                x = ox + args[0]
            elif kind == "v":
                y = (y if rel else 0.0) + args[0]
            else:
                x, y = ox + args[0], oy + args[1]
            ops.append(("l", (x, y)))
        elif kind in "cs":
            if kind == "c":
                x1, y1 = ox + args[0], oy + args[1]
                rest = args[2:]
            else:
                x1, y1 = (2 * x - last_ctrl[0], 2 * y - last_ctrl[1]) if last_ctrl else (x, y)
                rest = args
            x2, y2, x, y = ox + rest[0], oy + rest[1], ox + rest[2], oy + rest[3]
            ops.append(("c", (x1, y1, x2, y2, x, y)))
            ctrl = (x2, y2)
        else:  # q, t
            if kind == "q":
                qx, qy = ox + args[0], oy + args[1]
                end = (ox + args[2], oy + args[3])
            else:
                qx, qy = (2 * x - last_quad[0], 2 * y - last_quad[1]) if last_quad else (x, y)
                end = (ox + args[0], oy + args[1])
            ops.append(("c", (x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y), end[0] + 2 / 3 * (qx - end[0]),
                              end[1] + 2 / 3 * (qy - end[1]), *end)))
            x, y = end
            quad = (qx, qy)
        last_ctrl, last_quad = ctrl, quad
    if ops and ops[0][0] != "m":
        raise Unsupported("path data must start with a move")
    if any(not math.isfinite(v) for _, args in ops for v in args):
        raise Unsupported("path data out of range")
    return ops
