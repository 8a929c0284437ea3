"""A thin drawing layer over a reportlab canvas, in millimetres, that can also log its calls.

Card faces and sheets draw only through a Pen. The log (one line per call,
rounded to 0.01 mm) is what the golden regression tests compare, and the call
counts are what the benchmark's plain-reportlab baseline reproduces.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Literal

from reportlab.lib.colors import CMYKColor, HexColor
from reportlab.pdfbase.pdfmetrics import stringWidth

from cardgen.render.errors import GlyphError
from cardgen.render.fonts import missing_glyphs
from cardgen.render.icons import Icon, cmyk_image, draw_icon
from cardgen.render.inks import hex_to_cmyk

MM = 72.0 / 25.4  # points per millimetre
PT = 25.4 / 72.0  # millimetres per point
Align = Literal["left", "centre", "right"]


class TextMetrics:
    """Text measured in one render session, remembered there: widths, glyph checks, and the wrapped and
    fitted blocks of cardgen.render.textfit (the same words recur on every copy and at every size tried).
    A new session starts empty, so nothing needs clearing between builds."""

    def __init__(self) -> None:
        self._widths: dict[tuple[str, str, float], float] = {}
        self._missing: dict[tuple[str, str], tuple[str, ...]] = {}
        self.words: dict[Any, Any] = {}  # textfit: measured words by (size, faces, bold keywords, icons)
        self.fitted: dict[Any, Any] = {}  # textfit: fit_lines' answers by its arguments

    def width(self, text: str, face: str, size_pt: float) -> float:
        """Width of `text` in millimetres."""
        key = (text, face, size_pt)
        w = self._widths.get(key)
        if w is None:
            w = self._widths[key] = float(stringWidth(text, face, size_pt)) * PT
        return w

    def missing(self, text: str, face: str) -> tuple[str, ...]:
        key = (text, face)
        found = self._missing.get(key)
        if found is None:
            found = self._missing[key] = tuple(missing_glyphs(text, face))
        return found


def to_cmyk(hex_colour: str) -> CMYKColor:
    """Device CMYK by the plain formula (`cardgen.render.inks`: black on K only, total ink at most 240 %)."""
    return CMYKColor(*hex_to_cmyk(hex_colour))


def _r(v: float) -> str:
    return f"{v:.2f}"


class MissingGlyph(GlyphError):
    """A string to draw has a character the face lacks; the caller adds the card's name."""

    def __init__(self, char: str, face: str, text: str) -> None:
        self.char, self.face, self.text = char, face, text
        super().__init__(f"character '{char}' (U+{ord(char):04X}) is not in the bundled font {face} (in '{text}')")


class Pen:
    """Draws in millimetres on a reportlab canvas (or nowhere, when only logging)."""

    def __init__(self, canvas: Any | None, log: list[str] | None = None, cmyk: bool = False,
                 metrics: TextMetrics | None = None) -> None:
        self.canvas = canvas
        self.metrics = TextMetrics() if metrics is None else metrics
        self.log = log
        self.cmyk = cmyk  # inks as device CMYK (print-shop files) instead of RGB
        self.counts: Counter[str] = Counter()
        self._colours: dict[str, Any] = {}

    def _note(self, kind: str, *args: object) -> None:
        self.counts[kind] += 1
        if self.log is not None:
            self.log.append(" ".join([kind, *(_r(a) if isinstance(a, float) else str(a) for a in args)]))

    def _colour(self, hex_colour: str) -> Any:
        """The ink as a plain tuple (RGB, or CMYK for print-shop files): reportlab writes the same operator
        as for a colour object, without the opacity bookkeeping a colour object costs on every call."""
        c = self._colours.get(hex_colour)
        if c is None:
            ink = to_cmyk(hex_colour) if self.cmyk else HexColor(hex_colour)
            c = self._colours[hex_colour] = ((ink.cyan, ink.magenta, ink.yellow, ink.black) if self.cmyk
                                             else (ink.red, ink.green, ink.blue))
        return c

    # --- shapes ----------------------------------------------------------------------------

    def fill_rect(self, x: float, y: float, w: float, h: float, colour: str, radius: float = 0.0) -> None:
        self._note("fill_rect", x, y, w, h, colour, radius)
        c = self.canvas
        if c is None:
            return
        c.setFillColor(self._colour(colour))
        if radius > 0:
            c.roundRect(x * MM, y * MM, w * MM, h * MM, radius * MM, stroke=0, fill=1)
        else:
            c.rect(x * MM, y * MM, w * MM, h * MM, stroke=0, fill=1)

    def stroke_rect(self, x: float, y: float, w: float, h: float, colour: str, width_pt: float,
                    radius: float = 0.0) -> None:
        self._note("stroke_rect", x, y, w, h, colour, width_pt, radius)
        c = self.canvas
        if c is None:
            return
        c.setStrokeColor(self._colour(colour))
        c.setLineWidth(width_pt)
        if radius > 0:
            c.roundRect(x * MM, y * MM, w * MM, h * MM, radius * MM, stroke=1, fill=0)
        else:
            c.rect(x * MM, y * MM, w * MM, h * MM, stroke=1, fill=0)

    def line(self, x1: float, y1: float, x2: float, y2: float, colour: str, width_pt: float,
             dash: tuple[float, float] | None = None) -> None:
        self._note("line", x1, y1, x2, y2, colour, width_pt)
        c = self.canvas
        if c is None:
            return
        c.setStrokeColor(self._colour(colour))
        c.setLineWidth(width_pt)
        if dash:
            c.setDash(dash[0] * MM, dash[1] * MM)
        c.line(x1 * MM, y1 * MM, x2 * MM, y2 * MM)
        if dash:
            c.setDash()

    def fill_polygon(self, points: list[tuple[float, float]], colour: str) -> None:
        self._note("fill_polygon", *(v for pt in points for v in pt), colour)
        c = self.canvas
        if c is None:
            return
        c.setFillColor(self._colour(colour))
        path = c.beginPath()
        path.moveTo(points[0][0] * MM, points[0][1] * MM)
        for x, y in points[1:]:
            path.lineTo(x * MM, y * MM)
        path.close()
        c.drawPath(path, stroke=0, fill=1)

    def circle(self, x: float, y: float, r: float, colour: str, stroke_mm: float = 0.0) -> None:
        """A filled disc, or a ring `stroke_mm` wide when that is given."""
        self._note("circle", x, y, r, colour, float(stroke_mm))
        c = self.canvas
        if c is None:
            return
        if stroke_mm:
            c.setStrokeColor(self._colour(colour))
            c.setLineWidth(stroke_mm * MM)
            c.circle(x * MM, y * MM, r * MM, stroke=1, fill=0)
        else:
            c.setFillColor(self._colour(colour))
            c.circle(x * MM, y * MM, r * MM, stroke=0, fill=1)

    # --- text ------------------------------------------------------------------------------

    def width(self, text: str, face: str, size_pt: float) -> float:
        """Width of `text` in millimetres."""
        return self.metrics.width(text, face, size_pt)

    def text(self, x: float, y: float, text: str, face: str, size_pt: float, colour: str,
             align: Align = "left") -> None:
        """Draw one line with its baseline at y; fails on a character the face lacks."""
        missing = self.metrics.missing(text, face)
        if missing:
            raise MissingGlyph(missing[0], face, text)
        self._note("text", x, y, face, size_pt, colour, align, repr(text))
        c = self.canvas
        if c is None:
            return
        c.setFillColor(self._colour(colour))
        c.setFont(face, size_pt)
        if align == "centre":
            c.drawCentredString(x * MM, y * MM, text)
        elif align == "right":
            c.drawRightString(x * MM, y * MM, text)
        else:
            c.drawString(x * MM, y * MM, text)

    def icon(self, icon: Icon, x: float, y: float, w: float, h: float) -> None:
        """Draw an inline icon with its bottom-left corner at (x, y), w x h millimetres (vector for SVG)."""
        self._note("icon", x, y, w, h, icon.key)
        if self.canvas is not None:
            draw_icon(self.canvas, icon, x * MM, y * MM, w * MM, h * MM, self.cmyk)

    # --- transforms ------------------------------------------------------------------------

    @contextmanager
    def moved(self, dx: float, dy: float, degrees: float = 0.0) -> Iterator[None]:
        """Draw in a coordinate system moved to (dx, dy) and turned by `degrees` counter-clockwise."""
        self._note("push", float(dx), float(dy), float(degrees))
        c = self.canvas
        if c is not None:
            c.saveState()
            c.translate(dx * MM, dy * MM)
            if degrees:
                c.rotate(degrees)
        try:
            yield
        finally:
            if c is not None:
                c.restoreState()
            self._note("pop")

    def image(self, path: str, px_size: tuple[int, int], x: float, y: float, w: float, h: float,
              contain: bool = False, focus: tuple[float, float] = (0.5, 0.5)) -> None:
        """Draw an image in the box: covering it (scaled to fill it, the overflow clipped), or with `contain` whole
        inside it. `focus` (0..1 from the picture's left and top) is the point that stays in view when cropped
        (and where a contained picture sits in the room it leaves); the default centres it."""
        scale = (min if contain else max)(w / px_size[0], h / px_size[1])
        iw, ih = px_size[0] * scale, px_size[1] * scale
        with self.clipped(x, y, w, h):
            self._note("image", x, y, w, h)
            if self.canvas is not None:
                self.canvas.drawImage(cmyk_image(path) if self.cmyk else path, (x + (w - iw) * focus[0]) * MM,
                                      (y + (h - ih) * (1.0 - focus[1])) * MM, iw * MM, ih * MM,
                                      mask=None if self.cmyk else "auto")

    @contextmanager
    def clipped(self, x: float, y: float, w: float, h: float) -> Iterator[None]:
        """Clip drawing to a box (a card's inked area, so nothing spills onto a neighbour)."""
        self._note("clip", x, y, w, h)
        c = self.canvas
        if c is not None:
            c.saveState()
            p = c.beginPath()
            p.rect(x * MM, y * MM, w * MM, h * MM)
            c.clipPath(p, stroke=0, fill=0)
        try:
            yield
        finally:
            if c is not None:
                c.restoreState()
            self._note("unclip")
