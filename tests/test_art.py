"""Card art: checked by Pillow at validation, placed and clipped on the face."""

from __future__ import annotations

import io
from pathlib import Path

import pypdfium2
import pytest
from PIL import Image, ImageChops
from pypdf import PdfReader

from cardgen.checks import load_set, load_set_with_warnings
from cardgen.errors import SetError
from cardgen.render.build import build
from cardgen.render.face_layout import bundled
from cardgen.render.sheets import PrintOptions, cards_pdf, resolve_layout

MM_PT = 25.4 / 72


def _art_set(tmp_path: Path, art: str) -> Path:
    folder = tmp_path / "artset"
    (folder / "images").mkdir(parents=True)
    Image.new("RGB", (900, 360), "#33aa77").save(folder / "images" / "big.png")
    Image.new("RGB", (90, 36), "#aa3333").save(folder / "images" / "small.png")
    (folder / "images" / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\nnot an image at all")
    (folder / "notes.txt").write_text("not an image")
    (folder / "set.yaml").write_text(
        "name: artset\ntitle: Art\nextends: lunch\ncards:\n"
        f"  - {{name: Sunburn, type: basic, count: 1, damage: 2, source: designed, art: {art}}}\n", encoding="utf-8")
    return folder


def _error(folder: Path) -> str:
    with pytest.raises(SetError) as info:
        load_set(folder)
    [err] = info.value.errors
    assert (err.line, err.column) == (5, 5)
    return err.message


def test_good_art_validates_and_is_placed_in_the_pdf(tmp_path: Path) -> None:
    cs, warnings = load_set_with_warnings(_art_set(tmp_path, "images/big.png"))
    assert warnings == []
    sunburn = cs.card("Sunburn")
    one = cs.__class__(**{**cs.__dict__, "cards": (sunburn,)})
    pdf = cards_pdf(one, PrintOptions(proof=True))
    page = PdfReader(io.BytesIO(pdf.data)).pages[0]
    images = list(page.images)
    assert len(images) == 1 and images[0].image is not None
    assert images[0].image.size == (900, 360)


def test_missing_image_is_an_error(tmp_path: Path) -> None:
    assert "image 'images/none.png' not found" in _error(_art_set(tmp_path, "images/none.png"))


def test_corrupt_image_is_an_error(tmp_path: Path) -> None:
    assert "cannot be read" in _error(_art_set(tmp_path, "images/broken.png"))


def test_not_an_image_is_an_error(tmp_path: Path) -> None:
    assert "cannot be read" in _error(_art_set(tmp_path, "notes.txt"))


def test_path_outside_the_set_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "outside.png").write_bytes(b"")
    msg = _error(_art_set(tmp_path, "../outside.png"))
    assert "outside the set folder" in msg


def test_low_resolution_is_a_warning_naming_the_dpi(tmp_path: Path) -> None:
    _, warnings = load_set_with_warnings(_art_set(tmp_path, "images/small.png"))
    [w] = warnings
    assert w.severity == "warning" and "card 'Sunburn'" in w.message and "gives 40 dpi" in w.message


def test_decompression_bomb_header_is_refused_without_decoding(tmp_path: Path) -> None:
    folder = _art_set(tmp_path, "images/bomb.png")
    Image.new("1", (30_000, 30_000)).save(folder / "images" / "bomb.png")  # a few KB on disk
    msg = _error(folder)
    assert "pixels" in msg and "refused" in msg


def test_art_copies_on_several_pages_reach_the_print_file(tmp_path: Path) -> None:
    """Copies of a card with transparent art on two sheets: the joined print file lists the image on each
    sheet and its sheets rasterise exactly as the card-sheet file's pages, but for the page label (each file
    numbers its own pages)."""
    folder = _art_set(tmp_path, "images/clear.png")
    Image.new("RGBA", (900, 360), (200, 40, 40, 128)).save(folder / "images" / "clear.png")
    set_yaml = folder / "set.yaml"
    set_yaml.write_text(set_yaml.read_text(encoding="utf-8").replace("count: 1", "count: 12"), encoding="utf-8")
    cs = load_set(folder)
    one = cs.__class__(**{**cs.__dict__, "cards": (cs.card("Sunburn"),)})
    written = {p.name: p for p in build([one], PrintOptions(), tmp_path / "out", show_progress=False)}
    printed = PdfReader(written["artset-print.pdf"], strict=True)
    assert len(printed.pages) == 4 and all(len(list(page.images)) == 1 for page in printed.pages[2:])  # rules, assembly
    cards = pypdfium2.PdfDocument(written["artset-cards.pdf"])
    joined = pypdfium2.PdfDocument(written["artset-print.pdf"])
    label = resolve_layout(PrintOptions(), bundled().face).footer.label
    for i in (0, 1):
        a, b = cards[i].render(scale=1).to_pil().convert("RGB"), joined[i + 2].render(scale=1).to_pil().convert("RGB")
        assert a.size == b.size
        box = (round(label.x / MM_PT), a.height - round(label.top / MM_PT), a.width, a.height)  # 1 px = 1 pt
        different = ImageChops.difference(a, b).getbbox()
        assert different is not None and _inside(different, box), i  # the labels differ, nothing else
        for img in (a, b):
            img.paste("white", box)
        assert ImageChops.difference(a, b).getbbox() is None, i


def _inside(inner: tuple[int, int, int, int], outer: tuple[int, int, int, int]) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]
