"""The print rules read back from the written PDFs, operator by operator.

Lines stay out of the safe zone, every text run reaches 4.5:1 on what it is printed on, no text is
below the one 7 pt minimum, no ink enters the 6.35 mm a printer loses, gutterfold on Letter holds
3 cards a sheet with its instructions, the print file has its assembly page, and Letter's scale bar
shows inches.
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from cardgen.checks import load_set, load_sets
from cardgen.cli.build_cmd import command as build_command
from cardgen.cli.validate_cmd import command as validate_command
from cardgen.export.print_shop import shop_pdf
from cardgen.render import layout_data as L
from cardgen.render.contrast import contrast_problems, ratio
from cardgen.render.face_layout import as_dict, bundled
from cardgen.render.rules_page import rules_pdf
from cardgen.render.sheets import PrintOptions, cards_pdf
from tests.pdfops import Event, Page, pages, text_runs

BUNDLED = bundled()

SETS = ("classic", "lunch", "beer")


@cache
def shop_pages(name: str) -> list[Page]:
    return pages(shop_pdf(load_set(name), "poker", 3.175))


def _hex(colour: tuple[str, tuple[float, ...]]) -> str:
    kind, comps = colour
    if kind == "gray":
        comps = comps * 3
    assert kind in ("rgb", "gray"), colour
    return "#" + "".join(f"{round(c * 255):02X}" for c in comps)


@pytest.mark.parametrize("name", SETS)
def test_no_line_in_the_safe_zone(name: str) -> None:
    """Every stroked line of every card and of the back (bar the back's background stripes) has its outer
    edge at least the face's safe margin inside the TrimBox."""
    safe = BUNDLED.face.safe_margin
    pattern = BUNDLED.colours.back.pattern.lstrip("#")
    checked = 0
    for page in shop_pages(name):
        tx0, ty0, tx1, ty1 = page.trim
        for e in page.events:
            if e.kind != "stroke" or _hex(e.colour).lstrip("#") == pattern:
                continue
            x0, y0, x1, y1 = e.outer()
            assert min(x0 - tx0, y0 - ty0, tx1 - x1, ty1 - y1) >= safe - 1e-6, (name, e)
            checked += 1
    assert checked >= 1 + (2 * sum(1 for c in load_set(name).cards if c.pair) if name == "classic" else 0)


def test_back_frame_is_one_mm_beyond_the_safe_margin() -> None:
    back = shop_pages("beer")[-1]
    frame = next(e for e in back.events if e.kind == "stroke" and _hex(e.colour) == BUNDLED.colours.back.ink)
    assert frame.outer()[0] - back.trim[0] == pytest.approx(4.0 - 0.5 * 1.0 * 25.4 / 72, abs=1e-3)  # 3.82 mm


def test_a_set_layout_that_puts_a_line_or_small_text_in_is_refused(tmp_path: Path) -> None:
    bundled = Path(L.__file__).parents[2] / "card_data" / "beer"
    folder = tmp_path / "mine"
    (folder / "layout").mkdir(parents=True)
    (folder / "set.yaml").write_text(f"extends: {bundled}\nname: mine\ntitle: Mine\n", encoding="utf-8")
    (folder / "layout" / "face.yaml").write_text("back: {inset: 3.0}\n", encoding="utf-8")
    result = CliRunner().invoke(validate_command, ["--set", str(folder), "--no-sim"])
    assert result.exit_code == 1 and "inside the 3 mm safe margin" in result.stderr, result.stderr
    (folder / "layout" / "face.yaml").write_text("footer: {pt: 6.5}\n", encoding="utf-8")
    result = CliRunner().invoke(validate_command, ["--set", str(folder), "--no-sim"])
    assert result.exit_code == 1 and "'footer.pt' is 6.5 pt, below the minimum text size of 7 pt" in result.stderr


def _under(events: list[Event], i: int) -> str:
    """The colour printed under text event i: the last fill before it that covers its origin, else paper."""
    t = events[i]
    x, y = t.box[0] + 0.3, t.box[1] + 0.3 * t.width_mm
    for e in reversed(events[:i]):
        inside = e.kind == "fill" and e.box[0] <= x <= e.box[2] and e.box[1] <= y <= e.box[3]
        if inside and (e.clip is None or (e.clip[0] <= x <= e.clip[2] and e.clip[1] <= y <= e.clip[3])):
            return _hex(e.colour)
    return "#FFFFFF"


@pytest.mark.parametrize("name", SETS)
def test_every_text_run_reaches_4_5_to_1(name: str) -> None:
    worst = 21.0
    for page in shop_pages(name):
        for i, e in enumerate(page.events):
            if e.kind == "text" and not e.in_form:
                r = ratio(_hex(e.colour), _under(page.events, i))
                need = 3.0 if e.size_pt >= 18 else 4.5
                assert r >= need, (name, e, _under(page.events, i), r)
                worst = min(worst, r)
    assert worst >= 4.5


@pytest.mark.parametrize("name", SETS)
def test_bundled_palettes_pass_the_contrast_check(name: str) -> None:
    cs = load_set(name)
    assert contrast_problems(as_dict(BUNDLED.colours), {t.label: t.colour for t in cs.types.values()}) == []


def test_validate_reports_a_colour_too_weak_for_its_text(tmp_path: Path) -> None:
    bundled = Path(L.__file__).parents[2] / "card_data" / "beer"
    folder = tmp_path / "pale"
    (folder / "layout").mkdir(parents=True)
    (folder / "set.yaml").write_text(f"extends: {bundled}\nname: pale\ntitle: Pale\n", encoding="utf-8")
    # with black and white to choose from, every type or badge colour has an ink of 4.58:1 or more
    (folder / "layout" / "colours.yaml").write_text('badges: {stuns: "#E08080"}\n', encoding="utf-8")
    assert CliRunner().invoke(validate_command, ["--set", str(folder), "--no-sim"]).exit_code == 0
    # a set's own text ink can still be too pale for its paper
    (folder / "layout" / "colours.yaml").write_text('flavour_text: "#9A9A9A"\n', encoding="utf-8")
    result = CliRunner().invoke(validate_command, ["--set", str(folder), "--no-sim"])
    assert result.exit_code == 1 and "flavour text: #9A9A9A on #FFFFFF is 2.81:1, below 4.5:1" in result.stderr, \
        result.stderr


def _sizes(data: bytes) -> list[float]:
    """The size of every visible text run (the no-break spaces that make room for an icon are not text)."""
    return [size for _page, text, size in text_runs(data) if text.replace("\u00a0", " ").strip()]


@pytest.mark.parametrize("refs", [("classic",), ("lunch",), ("beer",), ("lunch", "beer"), ("classic", "beer")])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_text_below_the_minimum_on_rules_pages(refs: tuple[str, ...], paper: str) -> None:
    sizes = _sizes(rules_pdf(load_sets(list(refs)), paper))
    assert len(sizes) > 100 and min(sizes) >= BUNDLED.face.min_text_pt - 1e-6 == 7.0 - 1e-6


@pytest.mark.parametrize("name", SETS)
def test_no_text_below_the_minimum_on_cards_and_sheets(name: str) -> None:
    cs = load_set(name)
    for opts in (PrintOptions(proof=True), PrintOptions(proof=True, paper="letter", size="bridge", layout="gutterfold",
                                                        bleed=3.0)):
        sizes = _sizes(cards_pdf(cs, opts).data)
        assert min(sizes) >= 7.0 - 1e-6, (name, opts, min(sizes))
    assert min(_sizes(shop_pdf(cs, "poker", 3.175))) >= 7.0 - 1e-6


def _ink_boxes(page: Page) -> list[tuple[float, float, float, float]]:
    return [e.outer() if e.kind != "text" else (e.box[0], e.box[1] - 0.3 * e.width_mm, e.box[2], e.box[3])
            for e in page.events]


@pytest.mark.parametrize(("paper", "size", "bleed"), [("letter", "poker", 0.0), ("letter", "slip", 3.0),
                                                      ("a4", "poker", 0.0), ("letter", "poker", 3.0)])
def test_no_ink_in_the_margin_printers_lose(paper: str, size: str, bleed: float) -> None:
    """Poker on Letter without bleed put its trim line 6.27 mm from the edge; now nothing comes nearer
    than 6.35 mm (fills, strokes with their width, text)."""
    data = cards_pdf(load_set("lunch"), PrintOptions(paper=paper, size=size, bleed=bleed, proof=True)).data
    safe = L.safe_margin()
    for page in pages(data):
        w, h = page.media[2], page.media[3]
        nearest = min(min(x0, y0, w - x1, h - y1) for x0, y0, x1, y1 in _ink_boxes(page))
        assert nearest >= safe - 1e-6, (paper, size, nearest)


def test_gutterfold_on_letter_with_bleed_holds_three_a_sheet(tmp_path: Path) -> None:
    result = CliRunner().invoke(build_command, ["--set", "lunch", "--out", str(tmp_path), "--paper", "letter",
                                                "--size", "poker", "--bleed", "3", "--layout", "gutterfold"])
    assert result.exit_code == 0, result.stderr
    cards = PdfReader(tmp_path / "lunch" / "lunch-cards.pdf")
    assert len(cards.pages) == 37  # 110 cards, 3 a sheet (55 sheets before)
    page = pages((tmp_path / "lunch" / "lunch-cards.pdf").read_bytes())[0]
    title_pt = BUNDLED.face.back.title_max_pt
    backs = [e for e in page.events if e.kind == "text" and _hex(e.colour) == BUNDLED.colours.back.ink]
    titles = [e for e in backs if e.size_pt > title_pt - 8]
    subtitles = [e for e in backs if e.size_pt == pytest.approx(BUNDLED.face.back.subtitle_pt)]
    assert len(subtitles) == 3
    # turned 180 degrees: each back's subtitle sits above its title, and the fronts' footers are below their names
    for sub in subtitles:
        title = min(titles, key=lambda t: abs(t.box[0] - sub.box[0]) + abs(t.box[1] - sub.box[1]))
        assert sub.box[1] > title.box[1]
    text = cards.pages[0].extract_text()
    assert "fold (backs behind) · glue · cut on the marks" in text


def test_print_file_has_an_assembly_page_that_fits_the_build(tmp_path: Path) -> None:
    for args, expect in ((["--layout", "gutterfold"], "Fold on the dashed line"),
                         (["--backs", "--duplex", "short"], "turning on the short edge"),
                         ([], "Print single-sided: the sheets carry no backs")):
        out = tmp_path / "_".join(args or ["plain"])
        result = CliRunner().invoke(build_command, ["--set", "beer", "--out", str(out), *args])
        assert result.exit_code == 0, result.stderr
        printed = PdfReader(out / "beer" / "beer-print.pdf")
        text = printed.pages[1].extract_text().replace("\n", " ")
        assert "Making the deck" in text and expect in text and "110 in all, 28 designs" in text
        assert "Print beer-print.pdf at 100 %" in text
        assert min(_sizes(_page_bytes(printed, 1))) >= 7.0


def _page_bytes(reader: PdfReader, i: int) -> bytes:
    from pypdf import PdfWriter

    w = PdfWriter()
    w.add_page(reader.pages[i])
    buf = io.BytesIO()
    w.write(buf)
    return buf.getvalue()


def _bar(page: Page) -> tuple[list[Event], list[Event]]:
    """The scale bar's line and its ticks, read from the page's strokes (page-text ink, bottom left)."""
    ink = BUNDLED.colours.page_text
    strokes = [e for e in page.events if e.kind == "stroke" and _hex(e.colour) == ink]
    line = max(strokes, key=lambda e: e.box[2] - e.box[0])
    y = line.box[1]
    ticks = [e for e in strokes if e.box[2] - e.box[0] < 0.01 and min(abs(e.box[1] - y), abs(e.box[3] - y)) < 1e-3]
    return [line], ticks


@pytest.mark.parametrize(("paper", "inches"), [("letter", True), ("a4", False)])
def test_scale_bar_shows_inches_on_letter(paper: str, inches: bool) -> None:
    data = cards_pdf(load_set("beer"), PrintOptions(paper=paper, proof=True)).data
    page = pages(data)[0]
    (line,), ticks = _bar(page)
    y = line.box[1]
    down = sorted(t.box[0] for t in ticks if t.box[1] < y - 1e-3)
    up = sorted(t.box[0] for t in ticks if t.box[3] > y + 1e-3)
    assert [round(x - down[0], 3) for x in down] == [0, 10, 20, 30, 40, 50]
    assert line.box[2] - line.box[0] == pytest.approx(50.8 if inches else 50.0, abs=1e-3)
    if inches:
        assert [round(x - up[0], 3) for x in up] == [0, 12.7, 25.4, 38.1, 50.8]
        assert "2 in above" in PdfReader(io.BytesIO(data)).pages[0].extract_text()
    else:
        assert up == []
