"""Card faces: golden drawing log, shrink-to-fit, errors naming the card, split faces, contrast.

Refresh the golden log deliberately after an intended change of the faces:
    CARDGEN_REFRESH_GOLDEN=1 pytest tests/test_card_face.py
then look at the diff of tests/golden/card_faces.log before committing it.
"""

from __future__ import annotations

import dataclasses
import difflib
import os
from pathlib import Path

import pytest

from cardgen.checks import load_set
from cardgen.model import Card
from cardgen.render.card_face import badges_of, draw_card, half_texts, ink_on, value_of
from cardgen.render.errors import CardFitError, GlyphError
from cardgen.render.fonts import register_fonts
from cardgen.render.geometry import Rect
from cardgen.render.session import RenderSession

GOLDEN = Path(__file__).parent / "golden" / "card_faces.log"
REFRESH = os.environ.get("CARDGEN_REFRESH_GOLDEN") == "1"
POKER = Rect(0.0, 0.0, 63.5, 88.9)

# A small fixed set exercising every part of a card face (a YAML fixture, loaded like any set).
SPECIMEN = load_set(Path(__file__).parent / "fixtures" / "sets" / "specimen")


def face_log(card: Card, trim: Rect = POKER, bleed: float = 0.0) -> list[str]:
    register_fonts()
    log: list[str] = []
    s = RenderSession.bundled()
    draw_card(s, s.pen(None, log), card, SPECIMEN, trim, bleed)
    return log


def specimen_log() -> str:
    out: list[str] = []
    for card in SPECIMEN.cards:
        out.append(f"# {card.name}")
        out.extend(face_log(card))
    out.append("# Folding Chair, slip with 2 mm bleed")
    out.extend(face_log(SPECIMEN.card("Folding Chair"), Rect(2.0, 2.0, 60.0, 85.0), 2.0))
    return "\n".join(out) + "\n"


def test_faces_match_golden_log() -> None:
    actual = specimen_log()
    if REFRESH:
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(actual, encoding="utf-8")
        pytest.skip("golden log refreshed")
    assert GOLDEN.exists(), "no golden log: run CARDGEN_REFRESH_GOLDEN=1 pytest tests/test_card_face.py"
    expected = GOLDEN.read_text(encoding="utf-8")
    if actual != expected:
        diff = "\n".join(list(difflib.unified_diff(expected.splitlines(), actual.splitlines(), "golden", "now",
                                                   lineterm=""))[:60])
        pytest.fail("card faces changed; if intended, refresh with CARDGEN_REFRESH_GOLDEN=1\n" + diff)


def texts(log: list[str]) -> str:
    return " ".join(line.split(" ", 7)[7] for line in log if line.startswith("text "))


def test_face_shows_name_value_badges_opener_and_footer() -> None:
    chair = texts(face_log(SPECIMEN.card("Folding Chair")))
    assert all(b in chair for b in ("'Folding Chair'", "'4 + 3'", "'STUNS 1T'", "'TRAVELS'"))
    assert "'specimen 03/10'" in chair and "'ATTACK'" in chair
    head = texts(face_log(SPECIMEN.card("Headlock")))
    assert "'after GRAB'" in head
    rh = texts(face_log(SPECIMEN.card("Roundhouse")))
    assert all(b in rh for b in ("'PASSES ON ↔'", "'STUNNED 1T'"))


def test_type_colour_from_set_data() -> None:
    log = face_log(SPECIMEN.card("Chocolate Milk"))
    assert any(line.startswith("fill_rect") and "#2E9E4F" in line for line in log)
    recoloured = dataclasses.replace(SPECIMEN, types={**SPECIMEN.types, "healing": dataclasses.replace(
        SPECIMEN.types["healing"], colour="#123456")})
    log2: list[str] = []
    s = RenderSession.bundled()
    draw_card(s, s.pen(None, log2), SPECIMEN.card("Chocolate Milk"), recoloured, POKER, 0.0)
    assert any("#123456" in line for line in log2) and not any("#2E9E4F" in line for line in log2)


def _rules_size(log: list[str]) -> float:
    sizes = [float(line.split()[4]) for line in log if line.startswith("text ") and line.split()[3] in
             ("Sans", "Cond")]
    return min(sizes)


def test_long_text_shrinks_but_stays_legible() -> None:
    short = _rules_size(face_log(SPECIMEN.card("Jab")))
    long = _rules_size(face_log(SPECIMEN.card("Choke")))
    assert long < short
    assert long >= 7.0


def test_text_that_cannot_fit_names_the_card() -> None:
    card = dataclasses.replace(SPECIMEN.card("Jab"), text="Deals 1. " * 200)
    with pytest.raises(CardFitError, match="card 'Jab'"):
        face_log(card)


def test_missing_glyph_names_card_and_character() -> None:
    card = dataclasses.replace(SPECIMEN.card("Jab"), name="Jab 漢")
    with pytest.raises(GlyphError, match=r"card 'Jab 漢'.*'漢'"):
        face_log(card)


def test_superscripts_and_accents_render() -> None:
    log = face_log(SPECIMEN.card("Kick²"))
    assert "'Kick²'" in texts(log) and "café" in texts(log)


def test_split_face_halves() -> None:
    card = SPECIMEN.card("Dodge/Hold")
    top, bottom = half_texts(card, card.text or "")
    assert top.startswith("DODGE") and "HOLD on your turn" not in top
    assert bottom.startswith("HOLD") and "DODGE stops" not in bottom
    log = face_log(card)
    assert "'DODGE'" in texts(log) and "'HOLD'" in texts(log)
    assert any(line.startswith("push") and line.endswith(" 180.00") for line in log), "lower half turned 180°"


def test_value_and_badges_from_mechanics() -> None:
    assert value_of(SPECIMEN.card("Chocolate Milk")) is not None
    assert value_of(SPECIMEN.card("Chocolate Milk")).text == "+2"  # type: ignore[union-attr]
    assert value_of(SPECIMEN.card("Choke")).caption == "EACH TURN"  # type: ignore[union-attr]
    assert value_of(SPECIMEN.card("Grab")) is None
    assert [b[0] for b in badges_of(RenderSession.bundled(), SPECIMEN.card("Headlock"), SPECIMEN)] == ["after GRAB"]


def test_ink_contrast() -> None:
    s = RenderSession.bundled()
    assert ink_on(s, "#F4C20D") != ink_on(s, "#222222")
    assert ink_on(s, "#FFFFFF") == ink_on(s, "#F4C20D")


def test_long_name_wraps_to_two_lines_in_the_band() -> None:
    card = dataclasses.replace(SPECIMEN.card("Jab"), name="The Extremely Long Named Flying Elbow of Doom")
    log = face_log(card)
    name_lines = [line for line in log if line.startswith("text ") and line.split()[3] in ("Sans-Bold", "Cond-Bold")
                  and float(line.split()[2]) > 73.9]
    assert len(name_lines) == 2
    assert all(float(line.split()[4]) >= 8.0 for line in name_lines)


def test_bleed_extends_colour_beyond_the_trim_and_drops_the_trim_line() -> None:
    trim = Rect(3.0, 3.0, 60.0, 85.0)
    log = face_log(SPECIMEN.card("Jab"), trim, 3.0)
    bands = [line.split() for line in log if line.startswith("fill_rect") and "#F4C20D" in line]
    assert any(float(b[1]) == 0.0 and float(b[3]) == 66.0 for b in bands)  # band spans the bleed
    assert not any(line.startswith("stroke_rect") for line in log)
