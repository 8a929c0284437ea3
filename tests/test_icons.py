"""Icons in text: drawn as vectors on the text baseline on cards and on the rules page, fitted, checked."""

from __future__ import annotations

import dataclasses
import io
import shutil
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from cardgen.checks import load_set
from cardgen.errors import SetError
from cardgen.paths import card_data_dir
from cardgen.render.card_face import icon_style
from cardgen.render.fonts import register_fonts
from cardgen.render.icons import form_name, icons_of
from cardgen.render.pen import TextMetrics
from cardgen.render.rules_page import rules_pdf
from cardgen.render.session import RenderSession
from cardgen.render.sheets import PrintOptions, cards_pdf
from cardgen.render.textfit import Faces, IconStyle, wrap

FIXTURES = Path(__file__).parent / "fixtures"


def _mul(a: list[float], b: list[float]) -> list[float]:
    """PDF matrix product a x b, matrices as [a b c d e f]."""
    return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
            a[2] * b[1] + a[3] * b[3], a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]]


Placed = tuple[list[tuple[str, float, float, float]], list[tuple[str, float, float]]]


def placements(page: Any, reader: PdfReader) -> Placed:
    """Forms placed on the page (name, x, y, scaled height) and text shown (text, x, y), in page points."""
    ops = ContentStream(page.get_contents(), reader).operations
    ctm = [1.0, 0, 0, 1.0, 0, 0]
    stack: list[list[float]] = []
    tm = [1.0, 0, 0, 1.0, 0, 0]
    leading = 0.0
    forms: list[tuple[str, float, float, float]] = []
    texts: list[tuple[str, float, float]] = []
    for operands, op in ops:
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            ctm = _mul([float(v) for v in operands], ctm)
        elif op == b"BT":
            tm = [1.0, 0, 0, 1.0, 0, 0]
        elif op == b"Tm":
            tm = [float(v) for v in operands]
        elif op == b"TL":
            leading = float(operands[0])
        elif op == b"Td":
            tm = _mul([1.0, 0, 0, 1.0, float(operands[0]), float(operands[1])], tm)
        elif op == b"T*":
            tm = _mul([1.0, 0, 0, 1.0, 0, -leading], tm)
        elif op == b"Tj":
            m = _mul(tm, ctm)
            texts.append((str(operands[0]), m[4], m[5]))
        elif op == b"Do":
            forms.append((str(operands[0]), ctm[4], ctm[5], ctm[3]))
    return forms, texts


def _icon_forms(page: Any) -> dict[str, Any]:
    xobjects = page["/Resources"]["/XObject"]
    return {name: ref.get_object() for name, ref in xobjects.items()}


def test_card_icons_are_vector_forms_on_the_text_baseline() -> None:
    cs = load_set("lunch")
    jab = cs.card("Jab")  # "Deals 1. May be DODGED or BLOCKED."
    one = cards_pdf(dataclasses.replace(cs, cards=(jab,)), PrintOptions(proof=True))
    reader = PdfReader(io.BytesIO(one.data))
    page = reader.pages[0]
    objects = _icon_forms(page)
    assert objects and all(o["/Subtype"] == "/Form" for o in objects.values())  # no raster image at all
    for form in objects.values():
        body = form.get_data()
        assert b" c" in body or b" l" in body  # paths: curves and lines
        assert "/XObject" not in form.get("/Resources", {})
    forms, texts = placements(page, reader)
    assert len(forms) == 2  # DODGE and BLOCK icons
    size = 11.0  # the rules text of a one-line card stays at the largest size
    for word in ("DODGED", "BLOCKED"):
        tx, ty = next((x, y) for t, x, y in texts if t.startswith(word))
        fx, fy = min(((x, y) for _, x, y, _h in forms), key=lambda p: abs(p[1] - ty) + abs(tx - p[0]))
        assert abs(fy - ty) < 0.01, (word, fy, ty)  # standing on the baseline
        assert 0 < tx - fx < size * 1.2  # right in front of its word
    for name, _x, _y, scale in forms:
        bbox = [float(v) for v in objects[name]["/BBox"]]
        assert scale * (bbox[3] - bbox[1]) == pytest.approx(size * 0.95, rel=1e-3)  # 0.95 of the text size


def test_rules_page_glossary_draws_the_icons_on_the_baseline() -> None:
    cs = load_set("beer")
    reader = PdfReader(io.BytesIO(rules_pdf(cs, "a4")))
    page = reader.pages[0]
    forms, texts = placements(page, reader)
    names = {form_name(i) for i in icons_of(cs)}
    assert len(names) == 4
    assert "Icons:" in page.extract_text()
    assert {n.split(".", 1)[1] for n, *_ in forms} == names  # each of the four icons drawn
    text_ys = [y for _, _, y in texts]
    assert len(forms) >= 8  # the glossary's Icons entry lists all four, and the text uses them again
    for _name, x, y, _h in forms:
        assert min(abs(y - ty) for ty in text_ys) < 0.01, (x, y)  # on a line's baseline
    assert all(o["/Subtype"] == "/Form" for o in _icon_forms(page).values())


def test_text_fitting_counts_icon_widths() -> None:
    register_fonts()
    cs = load_set("lunch")
    text = "May be DODGED or BLOCKED."
    faces = Faces("Sans", "Sans-Bold")
    plain = wrap(TextMetrics(), text, 200.0, 11.0, faces, 1.2)
    assert plain is not None and len(plain.lines) == 1
    width = plain.lines[0][-1].end(TextMetrics(), 11.0)
    style = icon_style(RenderSession.bundled(), cs)
    with_icons = wrap(TextMetrics(), text, 200.0, 11.0, faces, 1.2, style=style)
    assert with_icons is not None
    icons = [r for r in with_icons.lines[0] if r.icon is not None]
    assert [r.icon.key for r in icons if r.icon] == ["dodge", "block"]
    extra = with_icons.lines[0][-1].end(TextMetrics(), 11.0) - width
    assert extra == pytest.approx(sum(r.width for r in icons) + 2 * 11.0 * style.gap_em * 25.4 / 72, rel=1e-6)
    assert len(wrap(TextMetrics(), text, width + 0.5, 11.0, faces, 1.2, style=style).lines) == 2  # type: ignore[union-attr]
    assert len(wrap(TextMetrics(), text, width + 0.5, 11.0, faces, 1.2, style=IconStyle()).lines) == 1  # type: ignore[union-attr]


def _set_with(tmp_path: Path, icons_yaml: str, text: str) -> Path:
    folder = tmp_path / "mine"
    shutil.copytree(card_data_dir() / "lunch", folder)
    head = (folder / "set.yaml").read_text(encoding="utf-8")
    head = head[:head.index("icons:")] + icons_yaml
    (folder / "set.yaml").write_text(head, encoding="utf-8")
    basic = folder / "1-basic.yaml"
    basic.write_text(basic.read_text(encoding="utf-8").replace(
        "  - {name: Jab, type: basic, count: 4, damage: 1, source: rulebook}",
        f"  - {{name: Jab, type: basic, count: 4, damage: 1, source: rulebook, text: \"{text}\"}}"), encoding="utf-8")
    return folder


def test_token_draws_the_icon_alone_and_png_icons_work(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "icons" / "splat.png", tmp_path / "splat.png")
    folder = _set_with(tmp_path, "icons:\n  dodge: icons/dodge.svg\n  splat: splat.png\n",
                       "Deals 1. {splat} May be DODGED or BLOCKED.")
    shutil.copy(FIXTURES / "icons" / "splat.png", folder / "splat.png")
    cs = load_set(folder)
    style = icon_style(RenderSession.bundled(), cs)
    assert [i.key for i in style.icons] == ["dodge", "splat"]
    assert style.icons[1].aspect == pytest.approx(64 / 48)
    register_fonts()
    block = wrap(TextMetrics(), "Deals 1. {splat} May be", 200.0, 11.0, Faces("Sans", "Sans-Bold"), 1.2, style=style)
    assert block is not None
    assert [r.text for r in block.lines[0]] == ["Deals 1.", "", "May be"]  # the token itself is not printed
    pdf = cards_pdf(dataclasses.replace(cs, cards=(cs.card("Jab"),)), PrintOptions(proof=True))
    page = PdfReader(io.BytesIO(pdf.data)).pages[0]
    kinds = sorted(str(o["/Subtype"]) for o in _icon_forms(page).values())
    assert kinds == ["/Form", "/Image"]  # the SVG as a form, the PNG as an image


def test_missing_icons_are_errors_at_their_line(tmp_path: Path) -> None:
    folder = _set_with(tmp_path, "icons:\n  dodge: icons/dodge.svg\n  block: icons/blok.svg\n  evil: ../x.svg\n",
                       "Deals 1. {dogde} May be DODGED.")
    (folder / "icons" / "broken.svg").write_text("<svg", encoding="utf-8")
    head = (folder / "set.yaml").read_text(encoding="utf-8") + "  bad: icons/broken.svg\n"
    (folder / "set.yaml").write_text(head, encoding="utf-8")
    lines = head.splitlines()
    with pytest.raises(SetError) as info:
        load_set(folder)
    got = {(Path(d.path).name, d.line): d.message for d in info.value.diagnostics}
    block_line = next(i for i, line in enumerate(lines, 1) if "blok.svg" in line)
    evil_line = next(i for i, line in enumerate(lines, 1) if "../x.svg" in line)
    bad_line = next(i for i, line in enumerate(lines, 1) if "broken.svg" in line)
    assert got[("set.yaml", block_line)] == ("icons: 'block': icon file 'icons/blok.svg' not found (did you mean "
                                             "'icons/block.svg'?)")
    assert "outside the set folder" in got[("set.yaml", evil_line)]
    assert "not a readable SVG drawing" in got[("set.yaml", bad_line)]
    text_errors = [m for (f, _l), m in got.items() if f == "1-basic.yaml"]
    assert any("no icon '{dogde}'" in m and "(did you mean 'dodge'?)" in m for m in text_errors), got
