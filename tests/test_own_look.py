"""A set's own look (set.yaml `look:`): its TrueType faces, its back (an image or a design), its colours.

Read back from the written PDFs: the set's faces embedded as subsets and used on the cards, the back image
drawn over exactly the card and its bleed on the backs pages in duplex registration, the type colours as
fills (device CMYK with --cmyk); and each bad `look:` refused at its set.yaml line with nothing written.
"""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from PIL import Image
from pypdf import PdfReader

from cardgen.checks import load_set, load_sets
from cardgen.cli.main import main
from cardgen.export.print_shop import shop_pdf
from cardgen.render.inks import hex_to_cmyk
from cardgen.render.rules_page import rules_pdf
from cardgen.render.sheets import PrintOptions, cards_pdf
from tests.pdfops import Event, pages, text_runs

FIXTURE = Path(__file__).parent / "fixtures" / "own_look"
MM = 72 / 25.4


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "own_look"
    shutil.copytree(FIXTURE, folder)
    return folder


def _edit(folder: Path, old: str, new: str, name: str = "set.yaml") -> None:
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output + (result.stderr if result.stderr_bytes else "")


def _base_fonts(data: bytes) -> dict[str, str]:
    """Resource name -> BaseFont of every font the pages use, and a check that each is embedded."""
    out: dict[str, str] = {}
    for page in PdfReader(io.BytesIO(data)).pages:
        fonts: Any = page["/Resources"]["/Font"]
        for res, ref in fonts.items():
            font = ref.get_object()
            descriptor = font["/FontDescriptor"].get_object() if "/FontDescriptor" in font else None
            if descriptor is None and "/DescendantFonts" in font:
                descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"].get_object()
            assert descriptor is not None and "/FontFile2" in descriptor, font  # embedded TrueType
            out[res] = str(font["/BaseFont"])
    return out


def test_the_fixture_loads_with_its_look() -> None:
    cs = load_set(FIXTURE)
    assert set(cs.look.fonts) == {"Sans", "Sans-Bold", "Sans-Oblique", "Cond", "Cond-Bold"}
    assert Path(cs.look.back_image) == (FIXTURE / "back.png").resolve()
    assert load_set("lunch").look.own is False


def test_the_sets_faces_are_embedded_as_subsets_and_set_the_cards() -> None:
    cs = load_set(FIXTURE)
    data = cards_pdf(cs, PrintOptions(proof=True, size="poker")).data
    fonts = _base_fonts(data)
    # a subset (six-letter prefix) of each face, its name made unique by the file's digest
    serif = {n for n in fonts.values() if re.fullmatch(r"/[A-Z]{6}\+DejaVuSerif(-Bold|-Italic)?-[0-9a-f]{8}", n)}
    assert {re.sub(r"^/[A-Z]{6}\+|-[0-9a-f]{8}$", "", n) for n in serif} == {
        "DejaVuSerif", "DejaVuSerif-Bold", "DejaVuSerif-Italic"}
    first = pages(data)[0]
    by_res = {e.font for e in first.events if e.kind == "text"}
    names = {fonts[r] for r in by_res}
    # the card faces are set in the set's faces; the sheet's page label and scale bar stay in the bundled one
    assert serif <= names
    sheet_only = {n for n in names if "DejaVuSans" in n}
    assert sheet_only and all(re.fullmatch(r"/[A-Z]{6}\+DejaVuSans(-Bold|Condensed-Bold)?", n) for n in sheet_only)
    texts = [e for e in first.events if e.kind == "text" and "DejaVuSans" in fonts[e.font]]
    assert all(e.box[1] < 25 for e in texts), "only the sheet footer (bottom margin) uses the bundled face"


def test_the_same_set_gives_the_same_bytes() -> None:
    a = cards_pdf(load_set(FIXTURE), PrintOptions(proof=True)).data
    b = cards_pdf(load_set(FIXTURE), PrintOptions(proof=True)).data
    assert a == b


def _bands(page: Any, colours: set[str]) -> list[tuple[float, float, float, float]]:
    """The type-colour fills of a front page (each card's band spans its whole inked width)."""
    def hexed(e: Event) -> str:
        return "#" + "".join(f"{round(c * 255):02X}" for c in e.colour[1])
    return [e.box for e in page.events if e.kind == "fill" and e.colour[0] == "rgb" and hexed(e) in colours]


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_the_back_image_covers_card_and_bleed_in_duplex_registration(duplex: str) -> None:
    cs = load_set(FIXTURE)
    bleed = 3.0
    opts = PrintOptions(proof=True, backs=True, duplex=duplex, bleed=bleed, size="poker")
    pdf = cards_pdf(cs, opts)
    got = pages(pdf.data)
    front, backs = got[0], got[1]
    paper_w, paper_h = front.media[2], front.media[3]
    colours = {t.colour for t in cs.types.values()}
    w, h = 63.5 + 2 * bleed, 88.9 + 2 * bleed
    wide = [b for b in _bands(front, colours) if abs((b[2] - b[0]) - w) < 0.01]  # bands and footers: full width
    bottoms = {(round(b[0], 2), round(b[1], 2)) for b in wide}
    # a card's band top and its footer's bottom are its inked cell's top and bottom
    cells = {(round(x0, 2), round(x1, 2), round(y1, 2)) for x0, _, x1, y1 in wide
             if (round(x0, 2), round(y1 - h, 2)) in bottoms}
    images = [e for e in backs.events if e.kind == "image"]
    assert len(images) == len(cells) == 4
    expected = set()
    for x0, x1, top in cells:
        if duplex == "long":  # turned about the long edge: x mirrored, y kept
            expected.add((round(paper_w - x1, 2), round(top - h, 2)))
        else:  # about the short edge: y mirrored, x kept
            expected.add((round(x0, 2), round(paper_h - top, 2)))
    clips = set()
    for e in images:
        assert e.clip is not None
        cx0, cy0, cx1, cy1 = e.clip
        assert cx1 - cx0 == pytest.approx(w, abs=0.005) and cy1 - cy0 == pytest.approx(h, abs=0.005)
        clips.add((round(cx0, 2), round(cy0, 2)))
        # scaled to cover the clip, centred on it, and no larger than needed on one side
        x0, y0, x1, y1 = e.box
        assert x0 <= cx0 + 1e-6 and y0 <= cy0 + 1e-6 and x1 >= cx1 - 1e-6 and y1 >= cy1 - 1e-6
        assert min(x1 - x0 - w, y1 - y0 - h) == pytest.approx(0.0, abs=0.005)
        assert (x0 + x1) / 2 == pytest.approx((cx0 + cx1) / 2, abs=0.005)
    assert clips == expected
    # the image itself is embedded once, at its own pixels
    reader = PdfReader(io.BytesIO(pdf.data))
    xobjects: Any = reader.pages[1]["/Resources"]["/XObject"]
    sizes = {(int(x.get_object()["/Width"]), int(x.get_object()["/Height"])) for x in xobjects.values()}
    with Image.open(FIXTURE / "back.png") as img:
        assert sizes == {img.size}


def test_print_shop_back_page_is_the_image_over_the_bleed_box() -> None:
    cs = load_set(FIXTURE)
    data = shop_pdf(cs, "poker", 3.0, pages="design")
    last = pages(data)[-1]
    (image,) = [e for e in last.events if e.kind == "image"]
    assert image.clip == pytest.approx(last.bleed, abs=0.005)
    assert last.bleed == pytest.approx((0.0, 0.0, 69.5, 94.9), abs=0.005)


@pytest.mark.parametrize("cmyk", [False, True])
def test_type_colours_are_the_sets_own_fills(cmyk: bool) -> None:
    cs = load_set(FIXTURE)
    data = shop_pdf(cs, "poker", 3.0, cmyk=cmyk)
    fills = {(e.colour[0], tuple(round(c, 4) for c in e.colour[1])) for p in pages(data) for e in p.events
             if e.kind == "fill"}
    for t in cs.types.values():
        if cmyk:
            want = ("cmyk", tuple(round(c, 4) for c in hex_to_cmyk(t.colour)))
        else:
            want = ("rgb", tuple(round(int(t.colour[i:i + 2], 16) / 255, 4) for i in (1, 3, 5)))
        assert want in fills, (t.key, want)
    if cmyk:
        assert all(kind in ("cmyk", "gray") for kind, _ in fills if kind != "gray")
        images = [e for p in pages(data) for e in p.events if e.kind == "image"]
        assert images and all(e.colour[0] == "/DeviceCMYK" for e in images)


def test_a_back_design_in_data_is_drawn_in_its_inks(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder, "  back:\n    image: back.png\n",
          '  back:\n    fill: "#1B4332"\n    pattern: "#2D6A4F"\n    ink: "#F1FAEE"\n    title: Brawl at the Café\n'
          '    subtitle: ""\n')
    cs = load_set(folder)
    assert cs.look.back_image == "" and cs.look.back.fill == "#1B4332"
    data = shop_pdf(cs, "poker", 3.0)
    back = pages(data)[-1]
    fills = {tuple(round(c * 255) for c in e.colour[1]) for e in back.events if e.kind == "fill"}
    assert (0x1B, 0x43, 0x32) in fills
    strokes = {tuple(round(c * 255) for c in e.colour[1]) for e in back.events if e.kind == "stroke"}
    assert {(0x2D, 0x6A, 0x4F), (0xF1, 0xFA, 0xEE)} <= strokes  # stripes and frame
    reader = PdfReader(io.BytesIO(data))
    text = reader.pages[-1].extract_text()
    assert text.split() == ["BRAWL", "AT", "THE", "CAFÉ"]  # the title; the empty subtitle draws nothing
    assert "DejaVuSerif-Bold" in str(_base_fonts(data))


def test_a_mixed_deck_keeps_the_generated_back() -> None:
    cs = load_sets([FIXTURE, "lunch"])
    assert not cs.look.own


def test_an_extending_set_inherits_the_look(tmp_path: Path) -> None:
    child = tmp_path / "child"
    child.mkdir()
    (child / "set.yaml").write_text(f"name: child\ntitle: Child\nextends: {FIXTURE}\n", encoding="utf-8")
    cs = load_set(child)
    assert cs.look == load_set(FIXTURE).look


def _refused(folder: Path, tmp_path: Path, pattern: str) -> str:
    """`validate` and `build` both refuse the set with `pattern` at a set.yaml position; build writes nothing."""
    code, out = _run("validate", "--set", str(folder), "--no-sim", "--no-balance")
    assert code == 1, out
    assert re.search(r"set\.yaml:\d+:\d+: error: " + pattern, out), out
    out_dir = tmp_path / "out"
    code, built = _run("build", "--set", str(folder), "--out", str(out_dir))
    assert code == 1 and re.search(pattern, built), built
    assert not out_dir.exists() or not any(out_dir.rglob("*.pdf"))
    assert "Traceback" not in out + built
    return out


def _line_of(folder: Path, needle: str) -> int:
    lines = (folder / "set.yaml").read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if needle in line)


def test_a_missing_font_is_an_error_at_its_line_with_did_you_mean(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder, "bold: fonts/DejaVuSerif-Bold-subset.ttf", "bold: fonts/DejaVuSerif-Bld-subset.ttf")
    out = _refused(folder, tmp_path, r"look\.fonts\.bold: font file 'fonts/DejaVuSerif-Bld-subset\.ttf' not found "
                                     r"\(did you mean 'fonts/DejaVuSerif-Bold-subset\.ttf'\?\)")
    assert f"set.yaml:{_line_of(folder, 'bold: fonts')}:" in out


def test_a_file_that_is_not_truetype_is_refused(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    shutil.copy(folder / "back.png", folder / "fonts" / "Fake.ttf")
    _edit(folder, "italic: fonts/DejaVuSerif-Italic-subset.ttf", "italic: fonts/Fake.ttf")
    _refused(folder, tmp_path, r"look\.fonts\.italic: 'fonts/Fake\.ttf' is not a usable TrueType font "
                               r"\(Not a recognized TrueType font")


def test_a_font_outside_the_set_folder_is_refused(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    shutil.copy(folder / "fonts" / "DejaVuSerif-subset.ttf", tmp_path / "outside.ttf")
    _edit(folder, "regular: fonts/DejaVuSerif-subset.ttf", "regular: ../outside.ttf")
    _refused(folder, tmp_path, r"look\.fonts\.regular: '\.\./outside\.ttf' is outside the set folder")


def test_a_font_missing_a_glyph_the_cards_print_is_refused(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder, "name: Chamomile", "name: Chamomile Ωmega", "cards.yaml")
    out = _refused(folder, tmp_path, r"look\.fonts\.regular: 'fonts/DejaVuSerif-subset\.ttf' has no glyph for 1 "
                                     r"character the cards print: 'Ω' \(U\+03A9, card 'Chamomile Ωmega'\)")
    for key in ("bold", "italic", "condensed", "condensed_bold"):  # every face the set brings is held to it
        assert f"look.fonts.{key}:" in out
    assert f"set.yaml:{_line_of(folder, 'regular: fonts')}:" in out


def test_a_back_image_too_small_for_300_dpi_is_refused(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    Image.new("RGB", (600, 820), "#336699").save(folder / "small.png")
    _edit(folder, "image: back.png", "image: small.png")
    out = _refused(folder, tmp_path, r"look\.back\.image: image 'small\.png' is 600 x 820 px: 219 dpi on a poker "
                                     r"card with 3 mm bleed \(69\.5 x 94\.9 mm\); it needs 300 dpi, at least "
                                     r"821 x 1121 px")
    assert f"set.yaml:{_line_of(folder, 'image: small.png')}:" in out


def test_a_back_image_of_the_wrong_format_or_missing_is_refused(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    Image.new("RGB", (900, 1200), "#336699").save(folder / "back.gif.png", format="GIF")
    _edit(folder, "image: back.png", "image: back.gif.png")
    _refused(folder, tmp_path, r"look\.back\.image: image 'back\.gif\.png' is GIF; expected one of JPEG, PNG, TIFF")
    _edit(folder, "image: back.gif.png", "image: bakc.png")
    _refused(folder, tmp_path, r"look\.back\.image: image 'bakc\.png' not found \(did you mean 'back\.png'\?\)")


def test_a_back_design_with_too_little_contrast_is_refused(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder, "  back:\n    image: back.png\n", '  back:\n    fill: "#777777"\n    ink: "#999999"\n')
    out = _refused(folder, tmp_path, r"look\.back\.ink: ink #999999 on fill #777777 is 1\.\d\d:1, below 4\.5:1 for "
                                     r"the title on the fill")
    assert f"set.yaml:{_line_of(folder, 'ink:')}:" in out


def test_an_image_and_a_design_together_are_refused(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder, "    image: back.png\n", '    image: back.png\n    ink: "#FFFFFF"\n')
    _refused(folder, tmp_path, r"look\.back\.ink: a back is an `image` or a design \(ink\), not both")


def test_an_unknown_look_key_gets_did_you_mean(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder, "  fonts:\n", "  fnts:\n")
    _refused(folder, tmp_path, r"field `look`: unknown key 'fnts' \(did you mean 'fonts'\?\)")


def test_type_colours_too_close_for_colour_blind_players_get_a_warning(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder, 'colour: "#8E4FC2"', 'colour: "#1F5090"')  # trick next to guard's navy
    code, out = _run("validate", "--set", str(folder), "--no-sim", "--no-balance")
    assert code == 0, out
    line = _line_of(folder, "#1F5090")
    assert re.search(rf"set\.yaml:{line}:\d+: warning: types: 'trick' #1F5090 and 'guard' #1D4E89 differ by only "
                     r"\d+\.\d \(CIEDE2000\) in \w+, below 10", out), out
    code, out = _run("validate", "--set", str(FIXTURE), "--no-sim", "--no-balance")
    assert code == 0 and "warning" not in out, out


def test_a_glyph_only_the_layout_prints_is_caught_as_the_card_is_drawn(tmp_path: Path) -> None:
    """The badges' arrows (PASSES ON ↔) are the layout's, not the set's text: the face lacking them passes
    loading and is refused where the card is drawn, naming the card, the character and the set's file. The
    face has the same PostScript name as the set's bold face (DejaVuSerif-Bold): each still draws as itself."""
    folder = _copy(tmp_path)
    _edit(folder, "condensed_bold: fonts/DejaVuSerif-Bold-subset.ttf",
          "condensed_bold: fonts/DejaVuSerif-Bold-noarrows.ttf")
    load_set(folder)  # every character of the set's own text is there
    code, out = _run("validate", "--set", str(folder), "--no-sim", "--no-balance")
    assert code == 1
    assert re.search(r"cards\.yaml:\d+:\d+: error: card 'Saucer Toss' cannot be printed at poker size: character "
                     r"'↔' \(U\+2194\) is not in the set's font 'DejaVuSerif-Bold-noarrows\.ttf'", out), out
    code, built = _run("build", "--set", str(folder), "--out", str(tmp_path / "out"))
    assert code == 1 and "'↔' (U+2194) is not in the set's font" in built, built
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.pdf"))


def _page_fonts(data: bytes, page: int) -> dict[str, str]:
    """Resource name -> BaseFont of one page's fonts, each checked to be embedded TrueType."""
    fonts: Any = PdfReader(io.BytesIO(data)).pages[page]["/Resources"]["/Font"]
    out = {}
    for res, ref in fonts.items():
        font = ref.get_object()
        assert "/FontFile2" in font["/FontDescriptor"].get_object(), font
        out[res] = str(font["/BaseFont"])
    return out


def test_the_rules_page_is_set_in_the_sets_own_faces(tmp_path: Path) -> None:
    """Item 9: the rules page (its own file, and the print file's first page) draws every text run in the set's
    faces, embedded as subsets: title and headings in its bold, examples in its italic, the tables in its
    condensed faces (here the regular and bold files again); no DejaVu Sans at all."""
    out = tmp_path / "out"
    code, said = _run("build", "--set", str(FIXTURE), "--out", str(out))
    assert code == 0, said
    folder = out / "own-look"
    serif = r"/[A-Z]{6}\+DejaVuSerif(-Bold|-Italic)?-[0-9a-f]{8}"
    for name in ("own-look-rules.pdf", "own-look-print.pdf"):
        data = (folder / name).read_bytes()
        fonts = _page_fonts(data, 0)
        used = {fonts[e.font] for e in pages(data)[0].events if e.kind == "text"}
        assert used and all(re.fullmatch(serif, n) for n in used), (name, used)
        assert {re.sub(r"^/[A-Z]{6}\+|-[0-9a-f]{8}$", "", n) for n in used} == {
            "DejaVuSerif", "DejaVuSerif-Bold", "DejaVuSerif-Italic"}, name
    rules = (folder / "own-look-rules.pdf").read_bytes()
    assert not any("DejaVuSans" in n for n in _page_fonts(rules, 0).values())
    words = " ".join(t for _, t, _ in text_runs(rules))
    assert "Café Brawl" in words and "Glossary" in words and "♥2" in words  # drawn and decodable, in the serif


def test_a_set_without_its_own_faces_keeps_the_bundled_rules_page() -> None:
    fonts = set(_page_fonts(rules_pdf(load_set("beer"), "a4"), 0).values())
    assert {re.sub(r"^/[A-Z]{6}\+", "", n) for n in fonts} == {
        "DejaVuSans", "DejaVuSans-Bold", "DejaVuSans-Oblique", "DejaVuSansCondensed", "DejaVuSansCondensed-Bold"}


def test_a_face_missing_a_character_only_the_rules_page_prints_is_refused_at_its_line(tmp_path: Path) -> None:
    """The heart before a heal's amount is the rules page's card table's, not the cards': a face without it
    loads (the cards print), and validate, build and rules refuse it at the set.yaml line naming the face."""
    folder = _copy(tmp_path)
    _edit(folder, "regular: fonts/DejaVuSerif-subset.ttf", "regular: fonts/DejaVuSerif-noheart.ttf")
    load_set(folder)
    out = _refused(folder, tmp_path, r"look\.fonts\.regular: 'fonts/DejaVuSerif-noheart\.ttf' has no glyph for 1 "
                                     r"character the rules page prints: '♥' \(U\+2665, card 'Chamomile'\)")
    assert f"set.yaml:{_line_of(folder, 'regular: fonts')}:" in out
    assert "look.fonts.bold:" not in out  # the other faces have it
    code, said = _run("rules", "--set", str(folder), "--out", str(tmp_path / "rules"))
    assert code == 1 and "has no glyph for 1 character the rules page prints" in said, said
    assert not list((tmp_path / "rules").rglob("*.pdf"))


def test_two_sets_pairing_one_regular_face_with_different_bold_faces_keep_their_own(tmp_path: Path) -> None:
    """reportlab keeps one family per regular face: each rules layout sets it again, so a set's bold words stay
    in its own bold file when another set of the same process pairs the same regular file with another bold."""
    other = _copy(tmp_path)
    _edit(other, "bold: fonts/DejaVuSerif-Bold-subset.ttf", "bold: fonts/DejaVuSerif-Italic-subset.ttf")
    first = rules_pdf(load_set(FIXTURE), "a4")
    theirs = rules_pdf(load_set(other), "a4")
    again = rules_pdf(load_set(FIXTURE), "a4")
    assert again == first != theirs
