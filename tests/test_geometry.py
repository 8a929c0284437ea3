"""Sheet geometry: nine card positions to 0.01 mm, bleed, cut marks inside the printer margin, duplex mirroring."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardgen.render.errors import LayoutError
from cardgen.render.face_layout import bundled
from cardgen.render.geometry import (
    Rect,
    SheetLayout,
    back_cells,
    gutterfold_layout,
    mirror,
    pages_needed,
    sheet_layout,
)
from cardgen.render.layout_data import CardSize, card_size, paper, parse_offset
from cardgen.render.sheets import sheet_rules

A4 = paper("a4")
LETTER = paper("letter")
POKER = card_size("poker")
TOL = 0.01
SAFE = 6.35


def expected_trims(paper_w: float, paper_h: float, w: float, h: float, bleed: float) -> list[tuple[float, float]]:
    """Independent statement of the layout: a centred 3 x 3 grid, reading order from the top-left."""
    cw, ch = w + 2 * bleed, h + 2 * bleed
    left = (paper_w - 3 * cw) / 2
    bottom = (paper_h - 3 * ch) / 2
    return [(left + c * cw + bleed, bottom + (2 - r) * ch + bleed) for r in range(3) for c in range(3)]


@pytest.mark.parametrize(("pname", "margins"), [("a4", (9.75, 15.15)), ("letter", (12.7, 6.35))])
def test_nine_poker_positions_exact(pname: str, margins: tuple[float, float]) -> None:
    p = paper(pname)
    lay = sheet_layout(p, POKER, 0.0, sheet_rules(bundled().face))
    assert len(lay.trims) == 9
    # the published margins for 9 poker cards (print-and-play reference)
    assert lay.trims[6].x == pytest.approx(margins[0], abs=TOL)
    assert lay.trims[6].y == pytest.approx(margins[1], abs=TOL)
    for t, (x, y) in zip(lay.trims, expected_trims(p.width, p.height, 63.5, 88.9, 0.0), strict=True):
        assert (t.x, t.y) == pytest.approx((x, y), abs=TOL)
        assert (t.w, t.h) == pytest.approx((63.5, 88.9), abs=TOL)


def test_reading_order_top_left_first() -> None:
    lay = sheet_layout(A4, POKER)
    assert lay.trims[0].y > lay.trims[3].y > lay.trims[6].y
    assert lay.trims[0].x < lay.trims[1].x < lay.trims[2].x


def test_sizes_from_data() -> None:
    assert (card_size("bridge").width, card_size("bridge").height) == (57.15, 88.9)
    assert (card_size("poker").width, card_size("poker").height) == (63.5, 88.9)
    slip = card_size("slip")
    assert slip.width < 63.5 and slip.height < 88.9
    assert (card_size("62x87").width, card_size("62.5X88").height) == (62.0, 88.0)
    assert (LETTER.width, LETTER.height) == (215.9, 279.4)
    assert (A4.width, A4.height) == (210.0, 297.0)


@pytest.mark.parametrize("bad", ["jumbo", "62x", "x87", "0x80", "-3x80", ""])
def test_bad_size_is_an_error(bad: str) -> None:
    with pytest.raises(LayoutError):
        card_size(bad)


def test_unknown_paper() -> None:
    with pytest.raises(LayoutError, match="unknown paper 'b5'"):
        paper("b5")


def test_bleed_grows_cells_and_keeps_trims() -> None:
    slip = card_size("slip")
    lay = sheet_layout(A4, slip, 2.0, sheet_rules(bundled().face))
    for cell, trim, (x, y) in zip(lay.cells, lay.trims, expected_trims(210, 297, 60, 85, 2.0), strict=True):
        assert (trim.x, trim.y) == pytest.approx((x, y), abs=TOL)
        assert cell.w == pytest.approx(64.0) and cell.h == pytest.approx(89.0)
        assert cell.x == pytest.approx(trim.x - 2.0) and cell.y == pytest.approx(trim.y - 2.0)
    assert len(lay.cut_xs) == 6 and len(lay.cut_ys) == 6  # two cuts between neighbours with bleed
    no_bleed = sheet_layout(A4, slip)
    assert len(no_bleed.cut_xs) == 4 and len(no_bleed.cut_ys) == 4  # shared cuts


@pytest.mark.parametrize("bleed", [-0.5, float("nan"), float("inf")])
def test_bleed_must_be_a_finite_non_negative_number(bleed: float) -> None:
    with pytest.raises(LayoutError, match="bleed must be a number of millimetres, 0 or more"):
        sheet_layout(A4, POKER, bleed)


def test_too_big_names_the_room() -> None:
    with pytest.raises(LayoutError, match=r"does not fit on US Letter.*printable area is 203\.20 x 266\.70 mm"):
        sheet_layout(LETTER, CardSize("big", 210, 90), 0.0, sheet_rules(bundled().face))
    with pytest.raises(LayoutError, match=r"gap 2 mm is narrower than two bleeds \(6 mm\)"):
        sheet_layout(A4, POKER, 3.0, sheet_rules(bundled().face), gap=2.0)


def _inside_safe(r: Rect, lay: SheetLayout) -> bool:
    return (r.x >= SAFE - 1e-6 and r.y >= SAFE - 1e-6 and r.right <= lay.paper.width - SAFE + 1e-6
            and r.top <= lay.paper.height - SAFE + 1e-6)


def _hits(a: Rect, b: Rect) -> bool:
    return a.x < b.right - 1e-6 and b.x < a.right - 1e-6 and a.y < b.top - 1e-6 and b.y < a.top - 1e-6


LAYOUTS = [(p, s, b) for p in ("a4", "letter") for s in ("poker", "bridge", "slip") for b in (0.0, 1.0, 3.0)]


@pytest.mark.parametrize(("pname", "size", "bleed"), LAYOUTS)
@pytest.mark.parametrize("kind", ["portrait", "landscape allowed", "gutterfold", "wide gap"])
def test_marks_and_footer_outside_cards_inside_safe_margin(pname: str, size: str, bleed: float, kind: str) -> None:
    if kind == "gutterfold":
        lay = gutterfold_layout(paper(pname), card_size(size), bleed, sheet_rules(bundled().face))
    else:
        gap = 2 * bleed + 4 if kind == "wide gap" else None
        lay = sheet_layout(paper(pname), card_size(size), bleed, sheet_rules(bundled().face), gap=gap,
                           allow_landscape=kind == "landscape allowed")
    inked = lay.cells + lay.folded_backs
    for c in inked:
        assert _inside_safe(c, lay)
        assert sum(_hits(c, d) for d in inked) == 1, "cards never overlap"
    for t in lay.trims:  # every card keeps its bleed: no other card's ink within `bleed` of its cut
        assert not any(_hits(t.inset(-bleed), d) for d in inked if d.inset(bleed) != t)
    assert lay.marks, "some cut marks must be drawn"
    for s in lay.marks:
        box = Rect(min(s.x1, s.x2), min(s.y1, s.y2), abs(s.x2 - s.x1) + 1e-9, abs(s.y2 - s.y1) + 1e-9)
        assert _inside_safe(box, lay), s
        assert not any(_hits(box, c) for c in lay.cells), s
        assert s.length >= 2.0 - 1e-9
        # each mark continues a cut line
        assert (s.x1 == s.x2 and any(abs(s.x1 - x) < 1e-9 for x in lay.cut_xs)) or \
               (s.y1 == s.y2 and any(abs(s.y1 - y) < 1e-9 for y in lay.cut_ys))
    for r in (lay.footer.bar, lay.footer.label):
        assert _inside_safe(r, lay)
        assert not any(_hits(r, c) for c in lay.cells)
    room = lay.footer.label_room
    if room is not None:  # the line a long page label may take: its slot's, and more only where nothing is
        label = lay.footer.label
        assert abs(room.right - label.right) < 1e-9 and room.x <= label.x + 1e-9 and abs(room.y - label.y) < 1e-9
        assert _inside_safe(room, lay)
        assert not any(_hits(room, c) for c in lay.cells + lay.folded_backs)
        assert not _hits(room, lay.footer.bar) and (lay.note is None or not _hits(room, lay.note))
        for s in lay.marks + lay.fold_marks:
            line = Rect(min(s.x1, s.x2), min(s.y1, s.y2), abs(s.x2 - s.x1) + 1e-9, abs(s.y2 - s.y1) + 1e-9)
            assert not _hits(room, line.inset(-0.5)), (s, room)
    assert max(lay.footer.bar.w, lay.footer.bar.h) >= 50.0
    # every cut line has a mark (top or bottom for vertical cuts, a side for horizontal ones), except
    # touching cards without bleed, whose shared cuts are also drawn as trim lines
    if bleed or lay.gap:
        for x in lay.cut_xs:
            assert any(m.x1 == m.x2 and abs(m.x1 - x) < 1e-9 for m in lay.marks), f"cut x={x:.2f} unmarked"
        for y in lay.cut_ys:
            assert any(m.y1 == m.y2 and abs(m.y1 - y) < 1e-9 for m in lay.marks), f"cut y={y:.2f} unmarked"


@pytest.mark.parametrize(("pname", "size"), [(p, s) for p in ("a4", "letter") for s in ("poker", "bridge", "slip")])
def test_three_mm_bleed_prints_and_fewer_cards_only_when_nine_cannot_fit(pname: str, size: str) -> None:
    rules = sheet_rules(bundled().face)
    card = card_size(size)
    lay = sheet_layout(paper(pname), card, 3.0, rules)
    assert lay.gap == 6.0 and lay.per_page >= 4 and not lay.landscape
    room_w, room_h = paper(pname).width - 2 * SAFE, paper(pname).height - 2 * SAFE
    nine_w, nine_h = 3 * card.width + 2 * 6 + 6, 3 * card.height + 2 * 6 + 6  # 3 cards, 2 gutters, outer bleed
    need = rules.mark_min_length  # a mark at least this long beyond the bleed on each side
    assert (lay.per_page == 9) == (nine_w + 2 * need <= room_w and nine_h + 2 * need <= room_h)
    for t in lay.trims:
        assert (t.w, t.h) == pytest.approx((card.width, card.height), abs=1e-9)


def test_a_page_without_backs_turns_landscape_only_when_that_holds_more() -> None:
    assert sheet_layout(A4, POKER, 3.0, sheet_rules(bundled().face), allow_landscape=True).per_page == 8
    assert sheet_layout(A4, POKER, 3.0, sheet_rules(bundled().face), allow_landscape=True).paper.width == 297
    assert not sheet_layout(A4, POKER, 0.0, sheet_rules(bundled().face), allow_landscape=True).landscape


@pytest.mark.parametrize(("pname", "size", "bleed"), LAYOUTS)
def test_gutterfold_backs_sit_exactly_opposite_their_fronts(pname: str, size: str, bleed: float) -> None:
    lay = gutterfold_layout(paper(pname), card_size(size), bleed, sheet_rules(bundled().face))
    assert len(lay.folded_backs) == len(lay.cells) >= (3 if pname == "letter" else 4)
    if lay.fold_y is not None:  # fronts above a horizontal fold, backs below, turned
        assert lay.fold_x is None and lay.backs_turned
        for front, back in zip(lay.cells, lay.folded_backs, strict=True):
            assert front.y >= lay.fold_y + 3.0 - bleed - 1e-9  # the fold runs in a gutter, never through a card
            assert front.y - lay.fold_y == pytest.approx(lay.fold_y - back.top, abs=1e-9)
            assert (back.x, back.w, back.h) == (front.x, front.w, front.h)
        assert lay.fold_marks and all(m.y1 == m.y2 == lay.fold_y for m in lay.fold_marks)
        return
    assert lay.fold_x == pytest.approx(lay.paper.width / 2) and lay.paper.width > lay.paper.height
    assert not lay.backs_turned
    for front, back in zip(lay.cells, lay.folded_backs, strict=True):
        assert front.right <= lay.fold_x - 3.0 + bleed + 1e-9  # the fold runs in a gutter, never through a card
        assert lay.fold_x - front.right == pytest.approx(back.x - lay.fold_x, abs=1e-9)
        assert (back.y, back.w, back.h) == (front.y, front.w, front.h)
    assert lay.fold_marks and all(m.x1 == m.x2 == lay.fold_x for m in lay.fold_marks)


@pytest.mark.parametrize(("size", "per_page"), [("poker", 3), ("slip", 3), ("bridge", 4)])
def test_gutterfold_on_letter_with_bleed_holds_three_or_more(size: str, per_page: int) -> None:
    """Letter with 3 mm bleed held 2 poker or slip cards a sheet with a vertical fold; a horizontal fold holds 3."""
    lay = gutterfold_layout(LETTER, card_size(size), 3.0, sheet_rules(bundled().face))
    assert lay.per_page == per_page
    inked = lay.cells + lay.folded_backs
    safe = sheet_rules(bundled().face).safe_margin
    assert all(c.x >= safe - 1e-9 and c.y >= safe - 1e-9 and c.right <= lay.paper.width - safe + 1e-9
               and c.top <= lay.paper.height - safe + 1e-9 for c in inked)


def test_poker_on_letter_footer_turns_into_the_side_margin() -> None:
    lay = sheet_layout(LETTER, POKER, 0.0, sheet_rules(bundled().face))
    assert lay.footer.rotated
    assert not any(s.x1 == s.x2 for s in lay.marks), "no room above or below the cards for vertical marks"
    assert not sheet_layout(A4, POKER).footer.rotated


def test_mirror_long_and_short_edge() -> None:
    r = Rect(10.0, 20.0, 60.0, 85.0)
    assert mirror(r, A4, "long") == Rect(210.0 - 70.0, 20.0, 60.0, 85.0)
    assert mirror(r, A4, "short") == Rect(10.0, 297.0 - 105.0, 60.0, 85.0)


@pytest.mark.parametrize("pname", ["a4", "letter"])
def test_back_cells_mirror_each_front(pname: str) -> None:
    lay = sheet_layout(paper(pname), card_size("slip"), 0.0, sheet_rules(bundled().face))
    long_backs = back_cells(lay, "long")
    short_backs = back_cells(lay, "short")
    for i, (lb, sb) in enumerate(zip(long_backs, short_backs, strict=True)):
        row, col = divmod(i, 3)
        # long edge: same row, column reversed; short edge: same column, each back where its front lands once
        # the sheet is turned over top to bottom (the grid sits higher than centred on Letter, for its footer)
        assert lb.x == pytest.approx(lay.cells[row * 3 + 2 - col].x, abs=TOL)
        assert lb.y == pytest.approx(lay.cells[i].y, abs=TOL)
        assert sb.x == pytest.approx(lay.cells[i].x, abs=TOL)
        assert sb.y == pytest.approx(lay.paper.height - lay.cells[i].top, abs=TOL)
    shifted = back_cells(lay, "long", (1.5, -0.75))
    for a, b in zip(shifted, long_backs, strict=True):
        assert (a.x - b.x, a.y - b.y) == pytest.approx((1.5, -0.75))


@given(st.floats(0, 150), st.floats(0, 200), st.floats(1, 60), st.floats(1, 90), st.sampled_from(["long", "short"]))
def test_mirror_twice_is_identity(x: float, y: float, w: float, h: float, duplex: str) -> None:
    r = Rect(x, y, w, h)
    back = mirror(mirror(r, LETTER, duplex), LETTER, duplex)  # type: ignore[arg-type]
    assert back.x == pytest.approx(x, abs=1e-9) and back.y == pytest.approx(y, abs=1e-9)


def test_offset_parsing() -> None:
    assert parse_offset("0.5,-1") == (0.5, -1.0)
    for bad in ("1", "a,b", "1,2,3"):
        with pytest.raises(LayoutError):
            parse_offset(bad)


def test_pages_needed() -> None:
    assert pages_needed(110) == 13
    assert pages_needed(9) == 1
    assert pages_needed(10) == 2
    assert pages_needed(104) == 12
