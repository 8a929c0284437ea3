"""A designer arranges the card face from data alone (the set's layout/face.yaml over the bundled one): the value
box to the right, the type icon dropped, art across the card's full width and through the bleed, cropped around
a focal point or shown whole, and a back per card type (set.yaml `look.backs`) on the sheets and for a shop.
The bundled layout's values draw exactly as before (tests/golden/card_faces.log)."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from cardgen.checks import load_set
from cardgen.errors import SetError
from cardgen.export.print_shop import export_print_shop
from cardgen.model import CardSet
from cardgen.render.card_face import draw_card
from cardgen.render.errors import LayoutError
from cardgen.render.face_layout import bundled, set_layout
from cardgen.render.fonts import register_fonts
from cardgen.render.geometry import Rect
from cardgen.render.session import RenderSession
from cardgen.render.sheets import draw_back

DESIGNER = Path(__file__).parent / "fixtures" / "designer_layout"
POKER = Rect(0.0, 0.0, 63.5, 88.9)
SKY = (0x9F, 0xD3, 0xF5)


def _log(cs: CardSet, name: str, bleed: float = 0.0) -> list[list[str]]:
    register_fonts()
    log: list[str] = []
    s = RenderSession.for_cards(cs)
    draw_card(s, s.pen(None, log), cs.card(name), cs, POKER, bleed)
    return [line.split() for line in log]


def test_the_bundled_layout_keeps_the_old_arrangement() -> None:
    face = bundled().face
    assert (face.band.icon, face.value_row.side, face.art.fit, face.art.span) == ("show", "left", "cover", "box")
    assert (face.art.focus_x, face.art.focus_y) == (0.5, 0.5)


def test_the_designer_moves_the_value_and_drops_the_icon() -> None:
    cs = load_set(DESIGNER)
    log = _log(cs, "Paper Plane")
    assert not [op for op in log if op[0] == "fill_polygon"]  # no type icon in the band
    box = next(op for op in log if op[0] == "fill_rect" and op[5] == "#1F1F1F")
    right = float(box[1]) + float(box[3])
    assert right == pytest.approx(63.5 - bundled().face.margin)  # the value box ends at the right margin
    lunch = _log(load_set("lunch"), "Jab")
    assert [op for op in lunch if op[0] == "fill_polygon"]  # the bundled set keeps its icon
    name_at = next(float(op[1]) for op in log if op[0] == "text" and "'Paper" in " ".join(op))
    assert name_at < 63.5 / 2 - 10  # the name, centred in the whole band now, starts further left


def test_full_bleed_art_spans_the_card_and_its_bleed() -> None:
    cs = load_set(DESIGNER)
    image = next(op for op in _log(cs, "Paper Plane", bleed=3.0) if op[0] == "image")
    assert float(image[1]) == pytest.approx(-3.0) and float(image[3]) == pytest.approx(63.5 + 6.0)


def _art_row(tmp_path: Path, fit: str) -> list[tuple[int, int, int]]:
    """The pixels across the card at the middle of its art, with the designer's layout and art.fit = `fit`."""
    folder = tmp_path / fit
    shutil.copytree(DESIGNER, folder)
    face = folder / "layout" / "face.yaml"
    face.write_text(face.read_text(encoding="utf-8").replace("fit: cover", f"fit: {fit}"), encoding="utf-8")
    cs = load_set(folder)
    files = export_print_shop(cs, "poker", 0.0, 150.0).files
    pdf = pdfium.PdfDocument(files[f"{cs.name}-print-shop.pdf"])
    page = pdf[[c.name for c in cs.cards].index("Paper Plane")]
    image = page.render(scale=150 / 72).to_pil().convert("RGB")
    art = next(op for op in _log(cs, "Paper Plane") if op[0] == "image")
    y = round((88.9 - (float(art[2]) + float(art[4]) / 2)) / 25.4 * 150)
    return [image.getpixel((x, y)) for x in range(image.width)]


def _near(a: tuple[int, int, int], b: tuple[int, int, int]) -> bool:
    return all(abs(x - y) <= 12 for x, y in zip(a, b, strict=True))


def test_cover_fills_the_width_and_contain_shows_the_whole_picture(tmp_path: Path) -> None:
    cover, contain = _art_row(tmp_path, "cover"), _art_row(tmp_path, "contain")
    assert _near(cover[1], SKY) and _near(cover[-2], SKY)  # edge to edge
    for edge in (contain[1], contain[-2]):  # letterboxed: the card's own paper shows at both edges
        assert min(edge) > 200 and not _near(edge, SKY)
    assert any(_near(p, SKY) for p in contain)


def test_a_back_per_type() -> None:
    cs = load_set(DESIGNER)
    s = RenderSession.for_cards(cs)
    register_fonts()

    def back_of(name: str) -> list[str]:
        log: list[str] = []
        draw_back(s, s.pen(None, log), cs, Rect(0.0, 0.0, 63.5, 88.9), 0.0, cs.card(name))
        return log

    weapon, defense, basic = back_of("Knife"), back_of("Dodge"), back_of("Jab")
    assert weapon[1].startswith("fill_rect") and "#6B0240" in weapon[1]
    assert any("'ARMOURY'" in line for line in weapon)
    assert [line.split()[0] for line in defense] == ["clip", "image", "unclip"]  # its image
    assert any("'PLAYGROUND" in line for line in basic) and not any("#6B0240" in line for line in basic)


def test_a_shop_gets_each_back_and_its_count() -> None:
    cs = load_set(DESIGNER)
    files = export_print_shop(cs, "poker", 3.175, 72.0).files  # the backs a shop gets, at a light resolution
    assert {"cards/back.png", "cards/back-weapon.png", "cards/back-defense.png"} <= set(files)
    rows = {r["file"]: int(r["copies"]) for r in csv.DictReader(io.StringIO(files["quantities.csv"].decode()))}
    assert rows["cards/back-weapon.png"] == 4 and rows["cards/back-defense.png"] == 34
    assert sum(v for k, v in rows.items() if k.startswith("cards/back")) == sum(c.count for c in cs.cards)


def test_a_back_for_a_type_the_set_lacks_is_an_error_at_its_line(tmp_path: Path) -> None:
    folder = tmp_path / "bad"
    shutil.copytree(DESIGNER, folder)
    head = folder / "set.yaml"
    head.write_text(head.read_text(encoding="utf-8").replace("    weapon: {", "    weapons: {"), encoding="utf-8")
    with pytest.raises(SetError) as info:
        load_set(folder)
    assert "look.backs.weapons: the set has no card type 'weapons'" in str(info.value)
    assert f"{head}:10:" in str(info.value) and "did you mean 'weapon'" in str(info.value)


def test_an_unknown_arrangement_word_is_an_error_at_its_line(tmp_path: Path) -> None:
    folder = tmp_path / "bad"
    shutil.copytree(DESIGNER, folder)
    face = folder / "layout" / "face.yaml"
    face.write_text(face.read_text(encoding="utf-8").replace("fit: cover", "fit: cvoer"), encoding="utf-8")
    with pytest.raises(LayoutError, match=r"face\.yaml:8:8: error: 'art\.fit' is 'cvoer'; expected one of cover, "
                                          r"contain.*did you mean 'cover'"):
        set_layout(str(folder))
