"""A designer places the face's named elements (layout/face.yaml `elements:`, extending the bundled layout): each
shown or hidden, in the flow or in a box; every fitting rule and print check holds for whatever they arrange
(the minimum size, the safe margin, no words over a picture, another element's words or the band's colour),
each refusal naming the element. The bundled layout goes through the same path and draws as before
(tests/golden/card_faces.log, and the bundled outputs' hashes)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardgen.errors import CardgenError
from cardgen.loader import load_set
from cardgen.render.errors import LayoutError
from cardgen.render.face_layout import ELEMENTS, bundled, set_layout
from tests.test_face_as_data import _log

BOXED = Path(__file__).parent / "fixtures" / "designer_boxes"
VALUE_INK = "#1F1F1F"


def _copy(tmp_path: Path, old: str, new: str) -> Path:
    folder = tmp_path / "set"
    shutil.copytree(BOXED, folder)
    face = folder / "layout" / "face.yaml"
    text = face.read_text(encoding="utf-8")
    assert old in text
    face.write_text(text.replace(old, new), encoding="utf-8")
    return folder


def _within(op: list[str], box: tuple[float, float, float, float]) -> bool:
    """Whether a logged fill_rect/text lies in (x, y from the top, w, h) of a poker card."""
    x, y = float(op[1]), float(op[2])
    bx, by, bw, bh = box
    return bx - 1e-6 <= x <= bx + bw + 1e-6 and 88.9 - by - bh - 1e-6 <= y <= 88.9 - by + 1e-6


def test_the_bundled_layout_flows_every_element_and_gives_every_key() -> None:
    face = bundled().face
    assert face.extends == "none"
    assert all(getattr(face.elements, e).flows() for e in ELEMENTS)


def test_boxed_badges_and_value_are_drawn_in_their_boxes_and_the_icon_is_dropped() -> None:
    log = _log(load_set(BOXED), "Headlock")
    assert not [op for op in log if op[0] == "fill_polygon"]  # no type icon (the bundled draws it with polygons)
    value = next(op for op in log if op[0] == "fill_rect" and op[5] == VALUE_INK)
    assert [float(v) for v in value[1:5]] == pytest.approx([40.0, 88.9 - 66 - 15, 20.0, 15.0])  # the whole box
    badge = next(op for op in log if op[0] == "text" and "'after" in " ".join(op))
    assert _within(badge, (3.5, 66, 34, 15))
    text = next(op for op in log if op[0] == "text" and "'Only" in " ".join(op))
    assert _within(text, (3.5, 46, 56.5, 18))


def test_full_bleed_art_still_spans_the_card_and_its_bleed() -> None:
    image = next(op for op in _log(load_set(BOXED), "Paper Plane", bleed=3.0) if op[0] == "image")
    assert float(image[1]) == pytest.approx(-3.0) and float(image[3]) == pytest.approx(63.5 + 6.0)


def test_a_box_is_held_to_the_minimum_size(tmp_path: Path) -> None:
    folder = _copy(tmp_path, "text:      {place: box, x: 3.5, y: 46, w: 56.5, h: 18}",
                   "text:      {place: box, x: 3.5, y: 46, w: 56.5, h: 4}")
    with pytest.raises(CardgenError, match=r"card '.*': its rules text does not fit.*7 pt|does not fit"):
        _log(load_set(folder), "Choke")


@pytest.mark.parametrize(("old", "new", "card", "message"), [
    ("value:     {place: box, x: 40,", "value:     {place: box, x: 42,", "Jab",
     r"'elements\.value' box \(42, 66, 20 x 15 mm\) reaches past the 3 mm safe margin of a 63\.5 x 88\.9 mm card"),
    ("badges:    {place: box, x: 3.5, y: 66,", "badges:    {place: box, x: 3.5, y: 40,", "Headlock",
     r"'elements\.badges' overlaps 'elements\.text'"),
    ("text:      {place: box, x: 3.5, y: 46,", "text:      {place: box, x: 3.5, y: 30,", "Paper Plane",
     r"'elements\.text' overlaps a picture"),
    ("text:      {place: box, x: 3.5, y: 46, w: 56.5, h: 18}",
     "text:      {place: box, x: 3.5, y: 12.5, w: 56.5, h: 30}\n  name: {place: box, x: 3.5, y: 3.2, w: 56.5, h: 9}",
     "Jab", r"'elements\.text' lies on the band"),
])
def test_an_arrangement_that_breaks_a_print_rule_is_refused_naming_the_element(tmp_path: Path, old: str, new: str,
                                                                               card: str, message: str) -> None:
    folder = _copy(tmp_path, old, new)
    with pytest.raises(CardgenError, match=message):
        _log(load_set(folder), card)


def test_words_a_player_needs_cannot_be_hidden(tmp_path: Path) -> None:
    folder = _copy(tmp_path, "type_icon: {show: hide}", "type_icon: {show: hide}\n  value: {show: hide}")
    folder.joinpath("layout", "face.yaml").write_text(
        folder.joinpath("layout", "face.yaml").read_text(encoding="utf-8").replace(
            "  value:     {place: box, x: 40, y: 66, w: 20, h: 15}\n", ""), encoding="utf-8")
    with pytest.raises(LayoutError, match=r"face\.yaml:\d+:\d+: error: 'elements\.value' cannot be hidden"):
        set_layout(str(folder))


def test_a_misspelt_element_or_word_is_an_error_at_its_line(tmp_path: Path) -> None:
    folder = _copy(tmp_path, "type_icon: {show: hide}", "type_icon: {show: hid}")
    with pytest.raises(LayoutError, match=r"face\.yaml:\d+:\d+: error: 'elements\.type_icon\.show' is 'hid'; "
                                          r"expected one of show, hide.*did you mean 'hide'"):
        set_layout(str(folder))
    folder2 = tmp_path / "two"
    shutil.copytree(_copy(tmp_path / "x", "type_icon:", "type_icn:"), folder2)
    with pytest.raises(LayoutError, match=r"unknown layout key 'elements\.type_icn'.*did you mean 'type_icon'"):
        set_layout(str(folder2))


def test_extends_none_asks_for_every_key(tmp_path: Path) -> None:
    folder = _copy(tmp_path, "extends: bundled", "extends: none")
    with pytest.raises(LayoutError, match=r"face\.yaml:\d+:\d+: error: '\w+' lacks '"):
        set_layout(str(folder))
    complete = tmp_path / "complete"
    shutil.copytree(BOXED, complete)
    (complete / "layout" / "face.yaml").write_text(
        (bundled_path := Path(__file__).parent.parent / "templates" / "layout" / "face.yaml").read_text(
            encoding="utf-8").replace("icon: show", "icon: hide"), encoding="utf-8")
    assert bundled_path.is_file()
    face = set_layout(str(complete)).face
    assert face.band.icon == "hide" and face.extends == "none"
