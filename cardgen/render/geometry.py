"""Sheet geometry: where the nine cards, their cut marks, the page footer and the backs go.

Pure functions on millimetres (origin bottom-left, as in PDF), no drawing and no
file access, so every position can be unit tested to 0.01 mm.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Literal

from cardgen.render.errors import LayoutError
from cardgen.render.layout_data import CardSize, Paper

Duplex = Literal["long", "short"]
DUPLEX_MODES: tuple[str, ...] = ("long", "short")
COLS = 3
ROWS = 3
_EPS = 1e-6


@dataclass(frozen=True)
class Rect:
    """An axis-aligned box in millimetres; (x, y) is the bottom-left corner."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def top(self) -> float:
        return self.y + self.h

    def inset(self, d: float) -> Rect:
        return Rect(self.x + d, self.y + d, self.w - 2 * d, self.h - 2 * d)

    def shifted(self, dx: float, dy: float) -> Rect:
        return Rect(self.x + dx, self.y + dy, self.w, self.h)


@dataclass(frozen=True)
class Segment:
    """A straight line in millimetres."""

    x1: float
    y1: float
    x2: float
    y2: float

    @property
    def length(self) -> float:
        return float(((self.x2 - self.x1) ** 2 + (self.y2 - self.y1) ** 2) ** 0.5)


@dataclass(frozen=True)
class SheetRules:
    """The printer and cutting conventions the layout honours (from templates/layout)."""

    safe_margin: float = 6.35
    mark_gap: float = 1.0
    mark_length: float = 5.0
    mark_min_length: float = 2.0
    footer_min_room: float = 4.5
    scale_bar: float = 50.0
    slot_clearance: float = 1.5


@dataclass(frozen=True)
class Footer:
    """Where the page label and the scale bar go.

    `rotated` footers run up the side margins (text reads bottom to top), used
    when the cards leave no printable room below them (poker cards on Letter).
    """

    rotated: bool
    bar: Rect
    label: Rect


@dataclass(frozen=True)
class SheetLayout:
    """A portrait sheet of COLS x ROWS cards, in reading order (top-left first)."""

    paper: Paper
    card: CardSize
    bleed: float
    trims: tuple[Rect, ...]  # the cut size of each card
    cells: tuple[Rect, ...]  # trim plus bleed: what is inked
    cut_xs: tuple[float, ...]
    cut_ys: tuple[float, ...]
    marks: tuple[Segment, ...]
    footer: Footer
    rules: SheetRules

    @property
    def per_page(self) -> int:
        return len(self.trims)

    @property
    def grid(self) -> Rect:
        return Rect(self.cells[COLS * (ROWS - 1)].x, self.cells[COLS * (ROWS - 1)].y,
                    self.cells[COLS - 1].right - self.cells[0].x, self.cells[0].top - self.cells[-1].y)


def _unique(values: list[float]) -> tuple[float, ...]:
    out: list[float] = []
    for v in sorted(values):
        if not out or abs(v - out[-1]) > _EPS:
            out.append(v)
    return tuple(out)


def sheet_layout(paper: Paper, card: CardSize, bleed: float = 0.0, rules: SheetRules | None = None) -> SheetLayout:
    """Centre a 3 x 3 grid of cards (each with `bleed` on every side) inside the printable area.

    Raises LayoutError when the bleed is negative or the grid does not fit
    inside the safe margin, saying how much room there is.
    """
    rules = rules or SheetRules()
    if not math.isfinite(bleed) or bleed < 0:
        raise LayoutError(f"bleed must be a number of millimetres, 0 or more (got {bleed:g})")
    cell_w, cell_h = card.width + 2 * bleed, card.height + 2 * bleed
    grid_w, grid_h = COLS * cell_w, ROWS * cell_h
    room_w, room_h = paper.width - 2 * rules.safe_margin, paper.height - 2 * rules.safe_margin
    if grid_w > room_w + _EPS or grid_h > room_h + _EPS:
        max_bleed = min((room_w / COLS - card.width) / 2, (room_h / ROWS - card.height) / 2)
        hint = (f"; the largest bleed that fits is {max(max_bleed, 0.0):.2f} mm" if max_bleed >= -_EPS
                else f"; the largest card is {room_w / COLS:.2f} x {room_h / ROWS:.2f} mm")
        raise LayoutError(f"{COLS * ROWS} cards of {card.width:g} x {card.height:g} mm"
                          f"{f' with {bleed:g} mm bleed' if bleed else ''} do not fit on {paper.label} "
                          f"inside the {rules.safe_margin:g} mm printer margin{hint}")
    x0 = (paper.width - grid_w) / 2
    y0 = (paper.height - grid_h) / 2
    cells: list[Rect] = []
    for i in range(COLS * ROWS):
        row, col = divmod(i, COLS)
        cells.append(Rect(x0 + col * cell_w, y0 + (ROWS - 1 - row) * cell_h, cell_w, cell_h))
    trims = [c.inset(bleed) for c in cells]
    cut_xs = _unique([t.x for t in trims] + [t.right for t in trims])
    cut_ys = _unique([t.y for t in trims] + [t.top for t in trims])
    grid = Rect(x0, y0, grid_w, grid_h)
    footer = _footer(paper, grid, cut_xs, cut_ys, rules)
    marks = _marks(paper, grid, cut_xs, cut_ys, rules, footer)
    return SheetLayout(paper, card, bleed, tuple(trims), tuple(cells), cut_xs, cut_ys, marks, footer, rules)


def _mark_span(edge: float, limit: float, rules: SheetRules) -> tuple[float, float] | None:
    """A mark from `gap` beyond a grid edge towards the safe limit, or None when the margin is too narrow."""
    sign = 1.0 if limit > edge else -1.0
    start = edge + sign * rules.mark_gap
    room = abs(limit - start)
    if room < rules.mark_min_length - _EPS:
        return None
    return start, start + sign * min(rules.mark_length, room)


def _marks(paper: Paper, grid: Rect, xs: tuple[float, ...], ys: tuple[float, ...], rules: SheetRules,
           footer: Footer) -> tuple[Segment, ...]:
    out: list[Segment] = []
    keep_clear = [footer.bar.inset(-rules.slot_clearance / 2), footer.label.inset(-rules.slot_clearance / 2)]

    def clear(seg: Segment) -> bool:
        lo_x, hi_x = min(seg.x1, seg.x2), max(seg.x1, seg.x2)
        lo_y, hi_y = min(seg.y1, seg.y2), max(seg.y1, seg.y2)
        return not any(lo_x < r.right and hi_x > r.x and lo_y < r.top and hi_y > r.y for r in keep_clear)

    for limit, edge in ((paper.height - rules.safe_margin, grid.top), (rules.safe_margin, grid.y)):
        span = _mark_span(edge, limit, rules)
        if span is not None:
            out.extend(Segment(x, span[0], x, span[1]) for x in xs)
    for limit, edge in ((rules.safe_margin, grid.x), (paper.width - rules.safe_margin, grid.right)):
        span = _mark_span(edge, limit, rules)
        if span is not None:
            out.extend(Segment(span[0], y, span[1], y) for y in ys)
    return tuple(s for s in out if clear(s))


def _slot(lo: float, hi: float, need: float, rules: SheetRules) -> tuple[float, float]:
    """A span between two cut lines, kept clear of their marks; widened from `lo` when `need` is longer."""
    a, b = lo + rules.slot_clearance, hi - rules.slot_clearance
    if b - a >= need:
        return a, b
    return lo, lo + need


def _footer(paper: Paper, grid: Rect, xs: tuple[float, ...], ys: tuple[float, ...], rules: SheetRules) -> Footer:
    below = grid.y - rules.safe_margin
    beside = grid.x - rules.safe_margin
    if below >= rules.footer_min_room - _EPS:
        depth = min(below, 10.0)
        bar_lo, bar_hi = _slot(xs[0], xs[1], rules.scale_bar, rules)
        lab_lo, lab_hi = _slot(xs[-2], xs[-1], 0.0, rules)
        y = rules.safe_margin
        return Footer(False, Rect(bar_lo, y, bar_hi - bar_lo, depth), Rect(lab_lo, y, lab_hi - lab_lo, depth))
    if beside >= rules.footer_min_room - _EPS:
        depth = min(beside, 10.0)
        mid = len(ys) // 2
        bar_lo, bar_hi = _slot(ys[mid - 1], ys[mid], rules.scale_bar, rules)
        lab_lo, lab_hi = _slot(ys[mid - 1], ys[mid], 0.0, rules)
        right = paper.width - rules.safe_margin
        return Footer(True, Rect(rules.safe_margin, bar_lo, depth, bar_hi - bar_lo),
                      Rect(right - depth, lab_lo, depth, lab_hi - lab_lo))
    raise LayoutError(f"cards of {grid.w / COLS:g} x {grid.h / ROWS:g} mm leave no printable margin on "
                      f"{paper.label} for the page footer and the {rules.scale_bar:g} mm scale bar")


def mirror(rect: Rect, paper: Paper, duplex: Duplex) -> Rect:
    """Where the back of `rect` lands on the back page.

    Long-edge duplex turns the sheet over its vertical (long) edge, so x mirrors;
    short-edge duplex turns it over its top edge, so y mirrors.
    """
    if duplex == "long":
        return replace(rect, x=paper.width - rect.x - rect.w)
    if duplex == "short":
        return replace(rect, y=paper.height - rect.y - rect.h)
    raise LayoutError(f"unknown duplex mode '{duplex}' (choose from long, short)")


def back_cells(layout: SheetLayout, duplex: Duplex, offset: tuple[float, float] = (0.0, 0.0)) -> tuple[Rect, ...]:
    """The inked box of each card's back, in the same order as `layout.cells`, shifted by the printer offset."""
    return tuple(mirror(c, layout.paper, duplex).shifted(offset[0], offset[1]) for c in layout.cells)


def pages_needed(cards: int, per_page: int = COLS * ROWS) -> int:
    return max(1, -(-cards // per_page))
