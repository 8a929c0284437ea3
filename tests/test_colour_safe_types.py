"""Card types differ without colour: palettes hold CIEDE2000 >= 10 in greyscale and under red-green colour
blindness (Machado 2009), and every band carries its type's icon (read back from the rendered PDF)."""

from __future__ import annotations

from itertools import combinations

import pypdfium2
import pytest
from PIL import Image

from cardgen.checks import load_set
from cardgen.model import ROLES, CardSet
from cardgen.render.colour_vision import CONDITIONS, MIN_DELTA_E, ciede2000, closest_pairs, delta_e
from cardgen.render.sheets import PrintOptions, cards_pdf
from cardgen.render.type_icons import icon_data, icon_size

# Sharma, Wu & Dalal (2005) test pairs: Lab, Lab, CIEDE2000
SHARMA = [((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
          ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
          ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
          ((22.7233, 20.0904, -46.694), (23.0331, 14.973, -42.5619), 2.0373)]


@pytest.mark.parametrize(("a", "b", "expected"), SHARMA)
def test_ciede2000_matches_the_published_test_data(a: tuple[float, float, float], b: tuple[float, float, float],
                                                   expected: float) -> None:
    assert ciede2000(a, b) == pytest.approx(expected, abs=1e-4)


def test_the_old_palettes_fail_as_the_issue_measured() -> None:
    """The method reproduces the issue's figures for the palettes it replaced."""
    assert delta_e("#D7261E", "#2F6FD6", "greyscale") == pytest.approx(1.1, abs=0.05)  # beer weapon / defense
    assert delta_e("#D1342F", "#2F6FD6", "greyscale") == pytest.approx(0.8, abs=0.05)  # classic attack / counter
    assert delta_e("#D1342F", "#7A4A1E", "protanopia") == pytest.approx(4.5, abs=0.05)  # classic attack / weapon
    assert delta_e("#123456", "#123456", "deuteranopia") == 0.0


@pytest.mark.parametrize("name", ["classic", "lunch", "beer"])
def test_bundled_type_colours_differ_in_every_condition(name: str) -> None:
    cs = load_set(name)
    worst = closest_pairs([(key, t.colour) for key, t in cs.types.items()])
    assert set(worst) == set(CONDITIONS)
    for condition in ("normal", "greyscale", "deuteranopia", "protanopia"):  # what the palettes promise
        d, a, b = worst[condition]
        assert d >= MIN_DELTA_E, f"{name}: {a} and {b} differ by only {d:.1f} in {condition}"
    assert worst["greyscale (luma)"][0] >= 9.5  # a driver's plain grey: nearly as far apart (docs/printing.md)


def test_every_role_has_an_icon_and_no_two_icons_are_alike() -> None:
    icons = icon_data()["icons"]
    assert set(icons) == set(ROLES)
    for a, b in combinations(ROLES, 2):
        assert icons[a] != icons[b]


def _one_of_each_type(cs: CardSet) -> CardSet:
    import dataclasses

    firsts = {}
    for c in cs.cards:
        if c.pair is None:
            firsts.setdefault(c.type, dataclasses.replace(c, count=1))
    return dataclasses.replace(cs, cards=tuple(firsts.values()))


@pytest.mark.parametrize("name", ["classic", "beer"])
def test_bands_read_back_differ_in_grey_and_carry_distinct_icons(name: str) -> None:
    """Rasterise one card of each type; in greyscale the bands still differ by CIEDE2000 >= 10, and the
    icon's ink (pixels unlike the band around them) has a different shape for every type."""
    cs = _one_of_each_type(load_set(name))
    pdf = cards_pdf(cs, PrintOptions(size="poker", proof=True))
    dpi = 150
    px = dpi / 25.4
    doc = pypdfium2.PdfDocument(pdf.data)
    greys: dict[str, str] = {}
    masks: dict[str, set[tuple[int, int]]] = {}
    for i, card in enumerate(cs.cards):
        page, slot = divmod(i, pdf.layout.per_page)
        img = doc[page].render(scale=dpi / 72).to_pil().convert("RGB")
        trim = pdf.layout.trims[slot]
        top = pdf.layout.paper.height - trim.top
        band: Image.Image = img.crop((round((trim.x + 1) * px), round((top + 1) * px),
                                      round((trim.x + 3.25 + icon_size() + 0.5) * px), round((top + 14) * px)))
        background = band.getpixel((1, 1))
        assert isinstance(background, tuple)
        greys[card.type] = "#{:02X}{:02X}{:02X}".format(*background[:3])
        grey = band.convert("L")
        ground = int(grey.getpixel((1, 1)))  # type: ignore[arg-type]
        masks[card.type] = {(x, y) for x in range(band.width) for y in range(band.height)
                            if abs(int(grey.getpixel((x, y))) - ground) > 60}  # type: ignore[arg-type]
        assert len(masks[card.type]) > 40, f"{card.type}: no icon in the band"
    for a, b in combinations(greys, 2):
        # the band colours as rasterised (8 bits, anti-aliasing aside), compared in greyscale
        assert delta_e(greys[a], greys[b], "greyscale") >= MIN_DELTA_E - 0.5, (a, b)
        overlap = len(masks[a] & masks[b]) / len(masks[a] | masks[b])
        if cs.types[a].role != cs.types[b].role:
            assert overlap < 0.7, (a, b)
