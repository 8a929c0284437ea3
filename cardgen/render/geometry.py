"""Sheet geometry: where the nine cards, their cut marks, the page footer and the backs go.

Pure functions on millimetres (origin bottom-left, as in PDF), no drawing and no
file access, so every position can be unit tested to 0.01 mm.
"""

from __future__ import annotations

import math
from typing import Literal, NamedTuple

from cardgen.render.errors import LayoutError
from cardgen.render.layout_data import CardSize, Paper

Duplex = Literal["long", "short"]
DUPLEX_MODES: tuple[str, ...] = ("long", "short")
COLS = 3
ROWS = 3
_EPS = 1e-6


class Rect(NamedTuple):
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


class Segment(NamedTuple):
    """A straight line in millimetres."""

    x1: float
    y1: float
    x2: float
    y2: float

    @property
    def length(self) -> float:
        return float(((self.x2 - self.x1) ** 2 + (self.y2 - self.y1) ** 2) ** 0.5)


class SheetRules(NamedTuple):
    """The printer and cutting conventions the layout honours (from templates/layout)."""

    safe_margin: float = 6.35
    mark_gap: float = 1.0
    mark_length: float = 5.0
    mark_min_length: float = 2.0
    footer_min_room: float = 4.5
    footer_room: float = 4.5  # the depth the footer takes when the page has it (at least footer_min_room)
    scale_bar: float = 50.0
    slot_clearance: float = 1.5
    fold_gutter: float = 6.0


class Footer(NamedTuple):
    """Where the page label and the scale bar go.

    `rotated` footers run up the side margins (text reads bottom to top), used
    when the cards leave no printable room below them (poker cards on Letter).
    `label` is the label's slot, between the last column's cut lines; `label_room` (None: the slot) the
    line it may run left into when it does not fit there, under the cut marks and clear of the scale bar
    and the folding note.
    """

    rotated: bool
    bar: Rect
    label: Rect
    label_room: Rect | None = None


class SheetLayout(NamedTuple):
    """A sheet of `cols` x `rows` cards, in reading order (top-left first).

    `paper` is the page as laid out (turned when `landscape`). A gutterfold sheet also has
    `folded_backs` (the inked box of each front's back, on the same side, mirrored across
    the fold line at `fold_x`).
    """

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
    cols: int = COLS
    rows: int = ROWS
    gap: float = 0.0  # distance between neighbouring cards' cut lines
    landscape: bool = False
    folded_backs: tuple[Rect, ...] = ()
    fold_x: float | None = None
    fold_marks: tuple[Segment, ...] = ()
    fold_y: float | None = None  # a horizontal fold: backs below the fronts, each turned 180 degrees
    note: Rect | None = None  # room in the footer row for the sheet's folding instructions

    @property
    def backs_turned(self) -> bool:
        """Backs printed upside down, so they read upright once folded over a horizontal line."""
        return self.fold_y is not None

    @property
    def per_page(self) -> int:
        return len(self.trims)

    @property
    def grid(self) -> Rect:
        return _bounds(self.cells + self.folded_backs)


def _bounds(rects: tuple[Rect, ...]) -> Rect:
    x0, y0 = min(r.x for r in rects), min(r.y for r in rects)
    return Rect(x0, y0, max(r.right for r in rects) - x0, max(r.top for r in rects) - y0)


def _unique(values: list[float]) -> tuple[float, ...]:
    out: list[float] = []
    for v in sorted(values):
        if not out or abs(v - out[-1]) > _EPS:
            out.append(v)
    return tuple(out)


def _check_bleed_gap(bleed: float, gap: float | None) -> float:
    """The gutter between neighbouring cut lines: `gap`, or twice the bleed when not given."""
    if not math.isfinite(bleed) or bleed < 0:
        raise LayoutError(f"bleed must be a number of millimetres, 0 or more (got {bleed:g})")
    if gap is None:
        return 2 * bleed
    if not math.isfinite(gap) or gap < 0:
        raise LayoutError(f"gap must be a number of millimetres, 0 or more (got {gap:g})")
    if gap < 2 * bleed - _EPS:
        raise LayoutError(f"gap {gap:g} mm is narrower than two bleeds ({2 * bleed:g} mm): neighbouring cards "
                          f"would print over each other's bleed; use --gap {2 * bleed:g} or more")
    return gap


def _mark_room(bleed: float, gap: float, rules: SheetRules) -> float:
    """Margin a grid needs beyond its ink so every cut line gets a mark.

    A mark starts `mark_gap` from the cut; with bleed the bleed already keeps it that far, so it may
    start at the ink's edge. Touching cards without bleed share cut lines drawn as trim lines, so they
    need no margin for marks.
    """
    if bleed == 0 and gap == 0:
        return 0.0
    return max(rules.mark_gap - bleed, 0.0) + rules.mark_min_length


def _grid_size(n: int, size: float, gap: float, bleed: float) -> float:
    return n * size + (n - 1) * gap + 2 * bleed


def _turned(paper: Paper) -> Paper:
    return Paper(paper.name, paper.height, paper.width, f"{paper.label} landscape")


def _place(paper: Paper, w: float, h: float, room: float, rules: SheetRules) -> tuple[float, float] | None:
    """Bottom-left ink corner of a w x h mm grid, or None when it does not fit.

    The grid is centred, with `room` for marks on every side; when centring leaves the page footer less
    than the depth it takes (`footer_room`), the grid moves up for it as far as the marks above allow;
    failing that it is centred if the footer still has its least depth, moves up to give it that, and
    only then does the footer turn into a side margin.
    """
    side = (paper.width - 2 * rules.safe_margin - w) / 2
    free = paper.height - 2 * rules.safe_margin - h
    if side < room - _EPS or free < 2 * room - _EPS:
        return None
    x0 = rules.safe_margin + side
    want = max(rules.footer_room, rules.footer_min_room)
    if free / 2 >= want - _EPS:
        return x0, rules.safe_margin + free / 2
    if free >= room + want - _EPS:
        return x0, rules.safe_margin + want
    if free / 2 >= rules.footer_min_room - _EPS:
        return x0, rules.safe_margin + free / 2
    if free >= room + rules.footer_min_room - _EPS:
        return x0, rules.safe_margin + rules.footer_min_room
    if side >= rules.footer_min_room - _EPS:
        return x0, rules.safe_margin + free / 2
    return None


def grid_choice(paper: Paper, card: CardSize, bleed: float, gap: float, rules: SheetRules,
                allow_landscape: bool = False, halves: int = 1) -> tuple[Paper, int, int, float, float] | None:
    """The page (portrait or, if allowed, turned), the most columns x rows that fit (9 cards at most)
    and the grid's bottom-left ink corner.

    `halves` is 2 for a gutterfold sheet: each row holds `cols` fronts, a fold gutter, `cols` backs.
    Ties go to portrait, then to more columns.
    """
    room = _mark_room(bleed, gap, rules)
    fold = max(gap, 2 * bleed, rules.fold_gutter) if halves == 2 else 0.0
    best: tuple[int, int, Paper, int, int, float, float] | None = None
    pages = [paper, _turned(paper)] if allow_landscape else [paper]
    for turn, page in enumerate(pages):
        for cols in range(4, 0, -1):
            for rows in range(4, 0, -1):
                if cols * rows > 9:
                    continue
                w = halves * _grid_size(cols, card.width, gap, bleed) + (halves - 1) * (fold - 2 * bleed)
                at = _place(page, w, _grid_size(rows, card.height, gap, bleed), room, rules)
                if at is not None and (best is None or (cols * rows, -turn) > best[:2]):
                    best = (cols * rows, -turn, page, cols, rows, at[0], at[1])
    return None if best is None else best[2:]


def _no_fit(paper: Paper, card: CardSize, bleed: float, gap: float, rules: SheetRules) -> LayoutError:
    room_w, room_h = paper.width - 2 * rules.safe_margin, paper.height - 2 * rules.safe_margin
    return LayoutError(f"a card of {card.width:g} x {card.height:g} mm"
                       f"{f' with {bleed:g} mm bleed' if bleed else ''}{f' and {gap:g} mm gaps' if gap else ''} "
                       f"does not fit on {paper.label} inside the {rules.safe_margin:g} mm printer margin with room "
                       f"for cut marks and the page footer (the printable area is {room_w:.2f} x {room_h:.2f} mm)")


def _cells(x0: float, top: float, cols: int, rows: int, card: CardSize, gap: float, bleed: float) -> list[Rect]:
    """Inked boxes of a cols x rows block whose top-left ink corner is (x0, top), in reading order."""
    out: list[Rect] = []
    for i in range(cols * rows):
        row, col = divmod(i, cols)
        x = x0 + col * (card.width + gap)
        y = top - 2 * bleed - card.height - row * (card.height + gap)
        out.append(Rect(x, y, card.width + 2 * bleed, card.height + 2 * bleed))
    return out


def sheet_layout(paper: Paper, card: CardSize, bleed: float = 0.0, rules: SheetRules | None = None,
                 gap: float | None = None, allow_landscape: bool = False) -> SheetLayout:
    """Centre the largest grid of cards (3 x 3 at most) inside the printable area.

    Each card keeps `bleed` of its own colour on every side; neighbouring cut lines are `gap` apart
    (twice the bleed by default, so the bleeds just touch). Every cut line gets a mark outside the
    cards. Raises LayoutError when not even one card fits.
    """
    rules = rules or SheetRules()
    gap = _check_bleed_gap(bleed, gap)
    choice = grid_choice(paper, card, bleed, gap, rules, allow_landscape)
    if choice is None:
        raise _no_fit(paper, card, bleed, gap, rules)
    page, cols, rows, x0, y0 = choice
    cells = _cells(x0, y0 + _grid_size(rows, card.height, gap, bleed), cols, rows, card, gap, bleed)
    return _finish(page, card, bleed, gap, rules, cells, cols, rows, [])


def gutterfold_layout(paper: Paper, card: CardSize, bleed: float = 0.0, rules: SheetRules | None = None,
                      gap: float | None = None) -> SheetLayout:
    """Fronts on one side of a fold line and their backs mirrored on the other, whichever way holds more.

    A vertical fold (landscape page, fronts left) keeps the backs upright, so only their position is
    mirrored; a horizontal fold (fronts above, backs below, portrait or landscape) turns the backs
    180 degrees, so they read upright once folded. Ties go to the vertical fold. Folded along the
    line (backs behind), glued and cut, each back sits behind its own front.
    """
    rules = rules or SheetRules()
    gap = _check_bleed_gap(bleed, gap)
    turned = _turned(paper)
    choice = grid_choice(turned, card, bleed, gap, rules, halves=2)
    across = _horizontal_fold(paper, card, bleed, gap, rules)
    if across is not None and (choice is None or across.per_page > choice[1] * choice[2]):
        return across
    if choice is None:
        raise _no_fit(turned, card, bleed, gap, rules)
    page, cols, rows, _x0, y0 = choice
    fold_gap = max(gap, 2 * bleed, rules.fold_gutter)
    fold_x = page.width / 2
    half_w = _grid_size(cols, card.width, gap, bleed)
    top = y0 + _grid_size(rows, card.height, gap, bleed)
    cells = _cells(fold_x - fold_gap / 2 + bleed - half_w, top, cols, rows, card, gap, bleed)
    backs = [Rect(2 * fold_x - c.right, c.y, c.w, c.h) for c in cells]
    return _finish(page, card, bleed, gap, rules, cells, cols, rows, backs, fold_x)


def _horizontal_fold(paper: Paper, card: CardSize, bleed: float, gap: float, rules: SheetRules) -> SheetLayout | None:
    """The most cards a page with fronts above a horizontal fold and their backs below (portrait first)."""
    room = _mark_room(bleed, gap, rules)
    fold = max(gap, 2 * bleed, rules.fold_gutter)
    best: tuple[int, Paper, int, int, float, float] | None = None
    for page in (paper, _turned(paper)):
        for cols in range(4, 0, -1):
            for rows in range(4, 0, -1):
                if cols * rows > 9:
                    continue
                half_h = _grid_size(rows, card.height, gap, bleed)
                at = _place(page, _grid_size(cols, card.width, gap, bleed), 2 * half_h + fold - 2 * bleed, room, rules)
                if at is not None and (best is None or cols * rows > best[0]):
                    best = (cols * rows, page, cols, rows, at[0], at[1])
    if best is None:
        return None
    _n, page, cols, rows, x0, y0 = best
    half_h = _grid_size(rows, card.height, gap, bleed)
    fold_y = y0 + half_h + (fold - 2 * bleed) / 2
    top = y0 + 2 * half_h + fold - 2 * bleed
    cells = _cells(x0, top, cols, rows, card, gap, bleed)
    backs = [Rect(c.x, 2 * fold_y - c.top, c.w, c.h) for c in cells]
    return _finish(page, card, bleed, gap, rules, cells, cols, rows, backs, fold_y=fold_y)


def _finish(page: Paper, card: CardSize, bleed: float, gap: float, rules: SheetRules, cells: list[Rect],
            cols: int, rows: int, backs: list[Rect], fold_x: float | None = None,
            fold_y: float | None = None) -> SheetLayout:
    trims = [c.inset(bleed) for c in cells]
    every = trims + [b.inset(bleed) for b in backs]
    cut_xs = _unique([t.x for t in every] + [t.right for t in every])
    cut_ys = _unique([t.y for t in every] + [t.top for t in every])
    grid = _bounds(tuple(cells + backs))
    footer = _footer(page, grid, cut_xs, cut_ys, rules)
    note = _note_room(footer, grid, bleed, rules) if backs else None
    floor = note.top if note is not None else rules.safe_margin
    marks = _marks(page, grid, cut_xs, cut_ys, rules, footer, bleed, floor)
    fold_marks: tuple[Segment, ...] = ()
    if fold_x is not None:
        fold_marks = _marks(page, grid, (fold_x,), (), rules, footer, bleed, floor)
    if fold_y is not None:
        fold_marks = _marks(page, grid, (), (fold_y,), rules, footer, bleed, floor)
    footer = footer._replace(label_room=_label_room(footer, note, marks + fold_marks, rules))
    return SheetLayout(page, card, bleed, tuple(trims), tuple(cells), cut_xs, cut_ys, marks, footer, rules,
                       cols, rows, gap, page.width > page.height, tuple(backs), fold_x, fold_marks, fold_y, note)


NOTE_HEIGHT = 3.4  # a line of 7 pt text with its descent: the folding instructions under the cut marks


def _label_room(footer: Footer, note: Rect | None, marks: tuple[Segment, ...], rules: SheetRules) -> Rect | None:
    """The line of the footer row the page label may take when its slot is too short: from the slot's right
    end leftwards, one text line high, until a cut mark (with its clearance), the scale bar or the folding
    note. None where the footer runs up the side (there the slot is all the room)."""
    if footer.rotated:
        return None
    label, gap = footer.label, rules.slot_clearance
    y0, y1 = label.y, label.y + NOTE_HEIGHT
    left = footer.bar.right + gap
    if note is not None:
        left = max(left, note.right + gap)
    for seg in marks:
        lo_y, hi_y = min(seg.y1, seg.y2), max(seg.y1, seg.y2)
        hi_x = max(seg.x1, seg.x2)
        if lo_y < y1 + gap / 2 and hi_y > y0 - gap / 2 and hi_x < label.right:
            left = max(left, hi_x + gap / 2)
    left = min(left, label.x)
    return Rect(left, y0, label.right - left, NOTE_HEIGHT)


def _note_room(footer: Footer, grid: Rect, bleed: float, rules: SheetRules) -> Rect | None:
    """A strip along the safe margin between the scale bar and the page label, under the cut marks (which
    keep at least their least length), when there is room for a line of text there."""
    if footer.rotated:
        return None
    lo, hi = footer.bar.right + rules.slot_clearance, footer.label.x - rules.slot_clearance
    mark_need = max(rules.mark_gap - bleed, 0.0) + rules.mark_min_length
    if hi - lo < 40 or grid.y - rules.safe_margin - mark_need < NOTE_HEIGHT - _EPS:
        return None
    return Rect(lo, rules.safe_margin, hi - lo, NOTE_HEIGHT)


def _mark_span(edge: float, limit: float, rules: SheetRules, bleed: float) -> tuple[float, float] | None:
    """A mark from `mark_gap` beyond the cut (at least at the ink's edge) towards the safe limit, or None
    when the margin is too narrow."""
    sign = 1.0 if limit > edge else -1.0
    start = edge + sign * max(rules.mark_gap - bleed, 0.0)
    room = abs(limit - start)
    if room < rules.mark_min_length - _EPS:
        return None
    return start, start + sign * min(rules.mark_length, room)


def _marks(paper: Paper, grid: Rect, xs: tuple[float, ...], ys: tuple[float, ...], rules: SheetRules,
           footer: Footer, bleed: float, floor: float | None = None) -> tuple[Segment, ...]:
    out: list[Segment] = []
    keep_clear = [footer.bar.inset(-rules.slot_clearance / 2), footer.label.inset(-rules.slot_clearance / 2)]

    def clear(seg: Segment) -> bool:
        lo_x, hi_x = min(seg.x1, seg.x2), max(seg.x1, seg.x2)
        lo_y, hi_y = min(seg.y1, seg.y2), max(seg.y1, seg.y2)
        return not any(lo_x < r.right and hi_x > r.x and lo_y < r.top and hi_y > r.y for r in keep_clear)

    bottom = rules.safe_margin if floor is None else floor
    for limit, edge in ((paper.height - rules.safe_margin, grid.top), (bottom, grid.y)):
        span = _mark_span(edge, limit, rules, bleed)
        if span is not None:
            out.extend(Segment(x, span[0], x, span[1]) for x in xs)
    for limit, edge in ((rules.safe_margin, grid.x), (paper.width - rules.safe_margin, grid.right)):
        span = _mark_span(edge, limit, rules, bleed)
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
    raise LayoutError(f"the cards leave no printable margin on "
                      f"{paper.label} for the page footer and the {rules.scale_bar:g} mm scale bar")


def mirror(rect: Rect, paper: Paper, duplex: Duplex) -> Rect:
    """Where the back of `rect` lands on the back page.

    Long-edge duplex turns the sheet over its vertical (long) edge, so x mirrors;
    short-edge duplex turns it over its top edge, so y mirrors.
    """
    if duplex == "long":
        return rect._replace(x=paper.width - rect.x - rect.w)
    if duplex == "short":
        return rect._replace(y=paper.height - rect.y - rect.h)
    raise LayoutError(f"unknown duplex mode '{duplex}' (choose from long, short)")


def back_cells(layout: SheetLayout, duplex: Duplex, offset: tuple[float, float] = (0.0, 0.0)) -> tuple[Rect, ...]:
    """The inked box of each card's back, in the same order as `layout.cells`, shifted by the printer offset."""
    return tuple(mirror(c, layout.paper, duplex).shifted(offset[0], offset[1]) for c in layout.cells)


def pages_needed(cards: int, per_page: int = COLS * ROWS) -> int:
    return max(1, -(-cards // per_page))
