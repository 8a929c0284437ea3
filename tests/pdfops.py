"""Read a written PDF's pages back as drawing events, for tests that check what was really drawn.

A small interpreter of the content-stream operators cardgen's files use (reportlab's output): the
graphics-state stack with its transformation matrix, fill and stroke colours (RGB, CMYK, grey), line
widths, paths (rectangles, lines, curves) and text (font size, position), descending into form
XObjects. Every event is in millimetres on the page, so a test compares it with the layout directly.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

from pypdf import PdfReader
from pypdf.generic import ContentStream

PT = 25.4 / 72.0
Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def mul(m: Matrix, n: Matrix) -> Matrix:
    """m then n (PDF's row-vector convention: [x y 1] m n)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


def scale_of(m: Matrix) -> float:
    return float((abs(m[0] * m[3] - m[1] * m[2])) ** 0.5)


@dataclass(frozen=True)
class Event:
    """One painting operation: `kind` is fill, stroke, text or image; the box is in mm on the page."""

    kind: str
    box: tuple[float, float, float, float]  # x0, y0, x1, y1 (for a stroke: the path, without the line width)
    colour: tuple[str, tuple[float, ...]]  # ("rgb" | "cmyk" | "gray", components)
    width_mm: float = 0.0  # stroke: the line width; text: the font size in mm
    operator: str = ""  # the colour operator that set the colour (rg, k, g, sc...)
    in_form: bool = False
    clip: tuple[float, float, float, float] | None = None
    font: str = ""

    @property
    def size_pt(self) -> float:
        return self.width_mm / PT

    def outer(self) -> tuple[float, float, float, float]:
        """The inked box: a stroke's path grown by half its line width (a straight axis-aligned line, drawn
        with reportlab's butt caps, only across its length)."""
        h = self.width_mm / 2 if self.kind == "stroke" else 0.0
        x0, y0, x1, y1 = self.box
        hx = 0.0 if self.kind == "stroke" and y1 - y0 < 1e-6 else h
        hy = 0.0 if self.kind == "stroke" and x1 - x0 < 1e-6 else h
        return x0 - hx, y0 - hy, x1 + hx, y1 + hy


@dataclass
class _State:
    ctm: Matrix = IDENTITY
    fill: tuple[str, tuple[float, ...]] = ("gray", (0.0,))
    stroke: tuple[str, tuple[float, ...]] = ("gray", (0.0,))
    fill_op: str = ""
    stroke_op: str = ""
    width: float = 1.0
    clip: tuple[float, float, float, float] | None = None

    def copy(self) -> _State:
        return _State(self.ctm, self.fill, self.stroke, self.fill_op, self.stroke_op, self.width, self.clip)


@dataclass
class Page:
    """A page's events and boxes (mm)."""

    events: list[Event] = field(default_factory=list)
    media: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    trim: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    bleed: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    operators: set[str] = field(default_factory=set)


def _box(b: Any) -> tuple[float, float, float, float]:
    return tuple(float(v) * PT for v in (b.left, b.bottom, b.right, b.top))  # type: ignore[return-value]


def pages(data: bytes) -> list[Page]:
    reader = PdfReader(io.BytesIO(data))
    out = []
    for page in reader.pages:
        p = Page(media=_box(page.mediabox), trim=_box(page.trimbox), bleed=_box(page.bleedbox))
        _run(page.get_contents(), page.get("/Resources"), reader, _State(), p, False)
        out.append(p)
    return out


def _bounds(points: list[tuple[float, float]]) -> tuple[float, float, float, float]:
    xs, ys = [q[0] for q in points], [q[1] for q in points]
    return min(xs) * PT, min(ys) * PT, max(xs) * PT, max(ys) * PT


def _run(content: Any, resources: Any, reader: PdfReader, st: _State, page: Page, in_form: bool) -> None:
    if content is None:
        return
    resources = resources.get_object() if resources is not None else {}
    ops = ContentStream(content, reader).operations
    stack: list[_State] = []
    path: list[tuple[float, float]] = []
    pending_clip = False
    tm: Matrix = IDENTITY
    line: Matrix = IDENTITY
    leading = 0.0
    font_size = 0.0
    font = ""
    for operands, raw in ops:
        op = raw.decode("latin-1")
        page.operators.add(op)
        if op == "q":
            stack.append(st.copy())
        elif op == "Q":
            st = stack.pop()
        elif op == "cm":
            st.ctm = mul(tuple(float(a) for a in operands), st.ctm)  # type: ignore[arg-type]
        elif op in ("rg", "RG", "k", "K", "g", "G", "sc", "SC", "scn", "SCN"):
            comps = tuple(float(a) for a in operands if not isinstance(a, str) and not hasattr(a, "idnum"))
            kind = {1: "gray", 3: "rgb", 4: "cmyk"}.get(len(comps), "?")
            if op.islower():
                st.fill, st.fill_op = (kind, comps), op
            else:
                st.stroke, st.stroke_op = (kind, comps), op
        elif op == "w":
            st.width = float(operands[0])
        elif op == "re":
            x, y, w, h = (float(a) for a in operands)
            path += [apply(st.ctm, x, y), apply(st.ctm, x + w, y + h), apply(st.ctm, x, y + h),
                     apply(st.ctm, x + w, y)]
        elif op in ("m", "l"):
            path.append(apply(st.ctm, float(operands[0]), float(operands[1])))
        elif op == "c":
            for i in (0, 2, 4):
                path.append(apply(st.ctm, float(operands[i]), float(operands[i + 1])))
        elif op in ("v", "y"):
            for i in (0, 2):
                path.append(apply(st.ctm, float(operands[i]), float(operands[i + 1])))
        elif op in ("W", "W*"):
            pending_clip = True
        elif op in ("f", "F", "f*", "S", "s", "B", "B*", "b", "b*", "n"):
            if path and op != "n":
                box = _bounds(path)
                if op in ("f", "F", "f*", "B", "B*", "b", "b*"):
                    page.events.append(Event("fill", box, st.fill, 0.0, st.fill_op, in_form, st.clip))
                if op in ("S", "s", "B", "B*", "b", "b*"):
                    page.events.append(Event("stroke", box, st.stroke, st.width * scale_of(st.ctm) * PT,
                                             st.stroke_op, in_form, st.clip))
            if pending_clip and path:
                st.clip = _bounds(path)
            pending_clip = False
            path = []
        elif op == "BT":
            tm = line = IDENTITY
        elif op == "Tf":
            font, font_size = str(operands[0]), float(operands[1])
        elif op == "Tm":
            tm = line = tuple(float(a) for a in operands)  # type: ignore[assignment]
        elif op == "TL":
            leading = float(operands[0])
        elif op == "T*":
            tm = line = mul((1.0, 0.0, 0.0, 1.0, 0.0, -leading), line)
        elif op == "Td":
            tm = line = mul((1.0, 0.0, 0.0, 1.0, float(operands[0]), float(operands[1])), line)
        elif op in ("Tj", "TJ", "'", '"'):
            m = mul(tm, st.ctm)
            x, y = apply(m, 0.0, 0.0)
            size = font_size * scale_of(m) * PT
            page.events.append(Event("text", (x * PT, y * PT, x * PT, y * PT + size), st.fill, size,
                                     st.fill_op, in_form, st.clip, font))
        elif op == "Do":
            xobj = resources["/XObject"][operands[0]].get_object()
            if xobj.get("/Subtype") == "/Form":
                inner = st.copy()
                if "/Matrix" in xobj:
                    inner.ctm = mul(tuple(float(v) for v in xobj["/Matrix"]), st.ctm)  # type: ignore[arg-type]
                _run(xobj, xobj.get("/Resources", resources), reader, inner, page, True)
            else:
                c = st.ctm
                box = _bounds([apply(c, 0, 0), apply(c, 1, 1), apply(c, 0, 1), apply(c, 1, 0)])
                cs = str(xobj.get("/ColorSpace", ""))
                page.events.append(Event("image", box, (cs, ()), 0.0, "Do", in_form, st.clip))


def text_runs(data: bytes) -> list[tuple[int, str, float]]:
    """(page, decoded text, size in pt on the page) of every text run, through pypdf's own text decoding."""
    out: list[tuple[int, str, float]] = []
    for i, page in enumerate(PdfReader(io.BytesIO(data)).pages):
        def visit(text: str, cm: Any, tm: Any, _font: Any, size: float, i: int = i) -> None:
            if text.strip():
                m = mul(tuple(float(v) for v in tm), tuple(float(v) for v in cm))  # type: ignore[arg-type]
                out.append((i, text, float(size) * scale_of(m)))
        page.extract_text(visitor_text=visit)
    return out
