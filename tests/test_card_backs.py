"""A back per card (a card's own `back:`, tests/fixtures/designer_boxes): Paper Plane brings an image, Hail Mary a
design over the set's back, Hammer a title over its type's (weapon) back. Each stands behind its own card on the
duplex backs page (long and short edge), on a print shop's pages and in the Tabletop Simulator sheet of backs;
a bad `back:` is an error at its line, and nothing is written."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from PIL import Image

from cardgen.checks import load_set
from cardgen.cli.main import main
from cardgen.errors import SetError
from cardgen.export.print_shop import export_print_shop, shop_pages
from cardgen.export.tts import export_tts
from cardgen.loader.mix import mix_sets
from cardgen.model import CardSet
from cardgen.render.fonts import register_fonts
from cardgen.render.geometry import Rect, back_cells
from cardgen.render.session import RenderSession
from cardgen.render.sheets import PrintOptions, card_sequence, cards_pdf, draw_back
from cardgen.sheets.columns import raw_card

BOXED = Path(__file__).parent / "fixtures" / "designer_boxes"
TEAL = (0x1B, 0x6F, 0x8A)  # backs/plane.png's ground
SUN = (0xF2, 0xC0, 0x1E)  # its sun, low on the right
HAIL_MARY = (0x0B, 0x3D, 0x2E)  # Hail Mary's own fill
WEAPON = (0x6B, 0x02, 0x40)  # the weapon type's fill (Hammer keeps it)
DPI = 60


def _near(a: tuple[int, ...], b: tuple[int, ...], tol: int = 16) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=False))


def _share(img: Image.Image, ink: tuple[int, int, int]) -> float:
    """The share of `img`'s pixels within a small distance of `ink`."""
    raw = img.convert("RGB").tobytes()
    pixels = [tuple(raw[i:i + 3]) for i in range(0, len(raw), 3)]
    return sum(_near(p, ink) for p in pixels) / len(pixels)


def _back_log(cs: CardSet, name: str) -> list[str]:
    register_fonts()
    s = RenderSession.for_cards(cs)
    log: list[str] = []
    draw_back(s, s.pen(None, log), cs, Rect(0.0, 0.0, 63.5, 88.9), 0.0, cs.card(name))
    return log


def test_a_card_back_wins_over_its_type_and_the_set() -> None:
    cs = load_set(BOXED)
    plane, hail, hammer = _back_log(cs, "Paper Plane"), _back_log(cs, "Hail Mary"), _back_log(cs, "Hammer")
    assert [line.split()[0] for line in plane] == ["clip", "image", "unclip"]
    assert "#0B3D2E" in hail[1] and any("'HAIL MARY'" in line for line in hail)
    assert "#6B0240" in hammer[1] and any("'HAMMER" in line for line in hammer)  # its type's inks, its own title
    assert not any("ARMOURY" in line for line in hammer)
    knife, jab = _back_log(cs, "Knife"), _back_log(cs, "Jab")  # the others keep their type's and the set's
    assert any("'ARMOURY'" in line for line in knife)
    assert any("'BOXED" in line for line in jab) and not any("#0B3D2E" in line for line in jab)


def _backs_page(cs: CardSet, duplex: str, name: str) -> tuple[Image.Image, dict[str, Rect]]:
    """The backs page that holds `name`'s back, rasterised, and where each of its cards' backs is (mm)."""
    opts = PrintOptions(paper="a4", size="poker", backs=True, duplex=duplex)  # type: ignore[arg-type]
    pdf = cards_pdf(cs, opts)
    cards = card_sequence(cs, False)
    index = next(i for i, c in enumerate(cards) if c.name == name)
    per = pdf.layout.per_page
    first = index // per * per
    cells = back_cells(pdf.layout, duplex)  # type: ignore[arg-type]
    where = {c.name: cells[i - first] for i, c in enumerate(cards[first:first + per], start=first)}
    doc = pdfium.PdfDocument(pdf.data)
    try:
        page = doc[index // per * 2 + 1].render(scale=DPI / 72).to_pil().convert("RGB")
    finally:
        doc.close()
    return page, where


def _cell(page: Image.Image, paper_h: float, r: Rect, inset: float = 4.0) -> Image.Image:
    px = DPI / 25.4
    return page.crop((round((r.x + inset) * px), round((paper_h - r.top + inset) * px),
                      round((r.right - inset) * px), round((paper_h - r.y - inset) * px)))


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_the_backs_page_puts_each_own_back_behind_its_card(duplex: str) -> None:
    cs = load_set(BOXED)
    paper_h = 297.0
    page, where = _backs_page(cs, duplex, "Paper Plane")
    plane = _cell(page, paper_h, where["Paper Plane"])
    assert _share(plane, TEAL) > 0.6  # the plane's picture, not the set's dark back
    lower_right = plane.crop((plane.width // 2, plane.height // 2, plane.width, plane.height))
    upper_left = plane.crop((0, 0, plane.width // 2, plane.height // 2))
    assert _share(lower_right, SUN) > 0.05 and _share(upper_left, SUN) == 0  # upright, not turned or mirrored
    others = [n for n in where if n != "Paper Plane"]
    assert others and all(_share(_cell(page, paper_h, where[n]), TEAL) < 0.01 for n in others)
    # Hail Mary and Hammer share a page: each its own, behind its own front
    page, where = _backs_page(cs, duplex, "Hail Mary")
    assert _share(_cell(page, paper_h, where["Hail Mary"]), HAIL_MARY) > 0.3
    assert _share(_cell(page, paper_h, where["Hammer"]), WEAPON) > 0.3
    assert _share(_cell(page, paper_h, where["Spinning Backfist"]), HAIL_MARY) < 0.01
    # the mirror: long edge keeps the row and flips the column, short edge the reverse
    front = {c.name: i for i, c in enumerate(card_sequence(cs, False))}
    pdf_layout = cards_pdf(cs, PrintOptions(paper="a4", size="poker", backs=True)).layout
    slot = front["Hail Mary"] % pdf_layout.per_page
    cell = pdf_layout.cells[slot]
    back = where["Hail Mary"]
    if duplex == "long":
        assert back.y == pytest.approx(cell.y) and back.x == pytest.approx(210.0 - cell.right)
    else:
        assert back.x == pytest.approx(cell.x) and back.y == pytest.approx(paper_h - cell.top)


def test_a_shop_gets_each_card_back_and_its_count() -> None:
    cs = load_set(BOXED)
    files = export_print_shop(cs, "poker", 3.175, 72.0).files
    for name in ("back-31-paper-plane.png", "back-11-hail-mary.png", "back-15-hammer.png", "back-weapon.png"):
        assert f"cards/{name}" in files
    plane = Image.open(io.BytesIO(files["cards/back-31-paper-plane.png"]))
    assert _share(plane, TEAL) > 0.6
    assert _share(Image.open(io.BytesIO(files["cards/back-11-hail-mary.png"])), HAIL_MARY) > 0.3
    rows = {r["file"]: int(r["copies"]) for r in csv.DictReader(io.StringIO(files["quantities.csv"].decode()))}
    assert rows["cards/back-31-paper-plane.png"] == 1 and rows["cards/back-15-hammer.png"] == 1
    assert rows["cards/back-weapon.png"] == 3  # the weapons but Hammer
    assert sum(v for k, v in rows.items() if k.startswith("cards/back")) == sum(c.count for c in cs.cards)
    # pairs: each copy's back right before its face
    pairs = shop_pages(cs, "pairs")
    before = {p.card.name: pairs[i - 1].name for i, p in enumerate(pairs) if p.card is not None}
    assert before["Paper Plane"] == "back-31-paper-plane.png" and before["Jab"] == "back.png"
    assert before["Knife"] == "back-weapon.png" and before["Hammer"] == "back-15-hammer.png"


def test_tabletop_simulator_gets_a_sheet_of_backs_slot_for_slot() -> None:
    cs = load_set(BOXED)
    out = export_tts(cs, dpi=40.0)
    deck = json.loads(out.files["boxed-tts.json"])["ObjectStates"][0]
    entry = next(iter(deck["CustomDeck"].values()))
    assert entry["UniqueBack"] is True and entry["BackURL"] == "boxed-tts-backs-1.png"
    sheet = Image.open(io.BytesIO(out.files["boxed-tts-backs-1.png"])).convert("RGB")
    cols = entry["NumWidth"]
    w, h = out.card_px

    def slot(name: str) -> Image.Image:
        r, c = divmod([c.name for c in cs.cards].index(name), cols)
        return sheet.crop((c * w + w // 8, r * h + h // 8, (c + 1) * w - w // 8, (r + 1) * h - h // 8))

    assert _share(slot("Paper Plane"), TEAL) > 0.6
    assert _share(slot("Hail Mary"), HAIL_MARY) > 0.3 and _share(slot("Knife"), WEAPON) > 0.3
    assert _share(slot("Jab"), TEAL) < 0.01 and _share(slot("Jab"), HAIL_MARY) < 0.01


def test_a_set_whose_cards_share_one_back_keeps_one_back_image() -> None:
    out = export_tts(load_set("lunch"), dpi=20.0)
    entry = next(iter(json.loads(out.files["lunch-tts.json"])["ObjectStates"][0]["CustomDeck"].values()))
    assert entry["UniqueBack"] is False and entry["BackURL"] == "lunch-tts-back.png"
    assert not [f for f in out.files if "tts-backs" in f]


def test_a_mixed_deck_drops_the_cards_own_backs() -> None:
    mixed = mix_sets([load_set(BOXED), load_set("beer")])
    assert all(c.back is None for c in mixed.cards)


def test_the_spreadsheet_writes_a_card_back_as_its_file_gave_it() -> None:
    cs = load_set(BOXED)
    assert raw_card(cs.card("Paper Plane"))["back"] == {"image": "backs/plane.png"}
    assert raw_card(cs.card("Hammer"))["back"]["title"] == "Hammer Time"
    assert "back" not in raw_card(cs.card("Jab"))


def _broken(tmp_path: Path, file: str, old: str, new: str) -> Path:
    folder = tmp_path / "bad"
    shutil.copytree(BOXED, folder)
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    return folder


@pytest.mark.parametrize(("file", "old", "new", "message"), [
    ("more.yaml", "backs/plane.png", "backs/plnae.png",
     r"more\.yaml:3:38: error: card 'Paper Plane' field `back\.image`: image 'backs/plnae\.png' not found "
     r"\(did you mean 'backs/plane\.png'\?\)"),
    ("more.yaml", "{image: backs", "{imgae: backs",
     r"more\.yaml:3:31: error: card 'Paper Plane' field `back`: unknown key 'imgae' \(did you mean 'image'\?\)"),
    ("set.yaml", "{title: Hammer Time}", "{title: Hammer Time, image: backs/plane.png}",
     r"set\.yaml:15:\d+: error: override 'Hammer' field `back\.title`: a back is an `image` or a design \(title\), "
     r"not both"),
    ("set.yaml", "{title: Hammer Time}", "{title: Hammer Time, ink: \"#6B0241\"}",
     r"set\.yaml:15:\d+: error: card 'Hammer' field `back\.ink`: ink #6B0241 on fill #6B0240 is 1\.00:1"),
    ("set.yaml", "{title: Hammer Time}", "{title: \"Hammer\\u200bTime\"}",
     r"set\.yaml:15:\d+: error: override 'Hammer' field `back\.title`: has .*write plain visible text"),
])
def test_a_bad_card_back_is_an_error_at_its_line_and_nothing_is_written(
        tmp_path: Path, file: str, old: str, new: str, message: str) -> None:
    folder = _broken(tmp_path, file, old, new)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", "--set", str(folder), "--out", str(out), "--backs"])
    assert result.exit_code == 1, result.output
    assert not out.exists() or not any(p.is_file() for p in out.rglob("*"))
    assert re.search(message, result.output), result.output
    assert "Traceback" not in result.output


def test_a_bad_card_back_is_refused_by_the_loader(tmp_path: Path) -> None:
    folder = _broken(tmp_path, "more.yaml", "backs/plane.png", "backs/defense.jpg")
    with pytest.raises(SetError, match=r"image 'backs/defense\.jpg' not found \(did you mean 'backs/defense\.png'"):
        load_set(folder)
