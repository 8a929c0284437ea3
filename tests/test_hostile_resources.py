"""Set files that would cost time or memory without bound, or print wrong without a word: each refused by the real
command at its file and line, with exit 1, no traceback, nothing written, well within the time and memory limits.
"""

from __future__ import annotations

import shutil
import struct
from pathlib import Path

import pytest
from hostile import Run, clean_failure, extending_set, measured

from cardgen.paths import fonts_dir

PEAK_MB = 300
SECONDS = 5.0


def _refused(run: Run, peak_mb: float, *said: str) -> None:
    assert clean_failure(run), (run.code, run.err)
    for text in said:
        assert text in run.err, run.err
    assert run.cpu < SECONDS, run.cpu
    assert peak_mb < PEAK_MB, peak_mb


# --- fonts -------------------------------------------------------------------------------------------------------


def _tables(data: bytes) -> dict[bytes, tuple[int, int, int]]:
    """Tag -> (directory entry offset, table offset, length)."""
    count = struct.unpack_from(">H", data, 4)[0]
    out = {}
    for i in range(count):
        at = 12 + 16 * i
        tag, _sum, offset, length = struct.unpack_from(">4sIII", data, at)
        out[tag] = (at, offset, length)
    return out


def font_with_fs_type(fs_type: int) -> bytes:
    data = bytearray((fonts_dir() / "DejaVuSans.ttf").read_bytes())
    _entry, offset, _length = _tables(bytes(data))[b"OS/2"]
    struct.pack_into(">H", data, offset + 8, fs_type)
    return bytes(data)


def font_with_cmap_groups(groups: list[tuple[int, int]]) -> bytes:
    """DejaVu Sans whose character map is one format-12 subtable of `groups` (first, last code point)."""
    data = bytearray((fonts_dir() / "DejaVuSans.ttf").read_bytes())
    data += b"\0" * (-len(data) % 4)
    sub = struct.pack(">HHIII", 12, 0, 16 + 12 * len(groups), 0, len(groups))
    sub += b"".join(struct.pack(">III", first, last, 1) for first, last in groups)
    table = struct.pack(">HHHHI", 0, 1, 3, 10, 12) + sub
    entry, _offset, _length = _tables(bytes(data))[b"cmap"]
    struct.pack_into(">II", data, entry + 8, len(data), len(table))
    return bytes(data + table)


def _font_set(tmp_path: Path, font: bytes) -> Path:
    folder = extending_set(tmp_path / "f", "f", extra="look:\n  fonts: {regular: fonts/Own.ttf}\n")
    (folder / "fonts").mkdir()
    (folder / "fonts" / "Own.ttf").write_bytes(font)
    return folder


@pytest.mark.parametrize(("fs_type", "said"), [
    (0x0002, "forbids embedding it (restricted licence)"),
    (0x0302, "forbids subsetting"),
    (0x0200, "allows only bitmaps"),
])
def test_a_font_whose_licence_forbids_embedding_is_refused(tmp_path: Path, fs_type: int, said: str) -> None:
    folder = _font_set(tmp_path, font_with_fs_type(fs_type))
    run, peak = measured("validate", "--no-sim", "--set", str(folder), cwd=tmp_path)
    _refused(run, peak, "f/set.yaml:5:", "look.fonts.regular: 'fonts/Own.ttf' cannot be used:", said,
             f"0x{fs_type:04X}")


@pytest.mark.parametrize("fs_type", [0x0000, 0x0004, 0x0008, 0x0006])  # installable, print, editable; 2|4: print
def test_a_font_whose_licence_allows_embedding_is_taken(tmp_path: Path, fs_type: int) -> None:
    folder = _font_set(tmp_path, font_with_fs_type(fs_type))
    run, _peak = measured("validate", "--no-sim", "--set", str(folder), cwd=tmp_path)
    assert run.code == 0, run.err


@pytest.mark.parametrize(("groups", "said"), [
    ([(0, 0x7FFFFFFF)], "reaches U+7FFFFFFF, beyond Unicode"),
    ([(0, 0x10FFFF)], "names 1,114,112 code points, more than the 200,000"),
    ([(0x20, 0xFFFF)] * 4, "names 262,016 code points"),
])
def test_a_font_whose_character_map_is_huge_is_refused_quickly(tmp_path: Path, groups: list[tuple[int, int]],
                                                                said: str) -> None:
    folder = _font_set(tmp_path, font_with_cmap_groups(groups))
    run, peak = measured("validate", "--no-sim", "--set", str(folder), cwd=tmp_path)
    _refused(run, peak, "f/set.yaml:5:", said)


# --- layout files --------------------------------------------------------------------------------------------------


def _layout_set(tmp_path: Path, name: str, text: str) -> Path:
    folder = extending_set(tmp_path / "l", "l")
    (folder / "layout").mkdir()
    (folder / "layout" / name).write_text(text, encoding="utf-8")
    return folder


def test_a_huge_layout_file_is_refused_while_reading(tmp_path: Path) -> None:
    text = "".join(f"k{i}: '#FFFFFF'\n" for i in range(3_000_000))  # about 40 MB
    folder = _layout_set(tmp_path, "colours.yaml", text)
    run, peak = measured("validate", "--no-sim", "--set", str(folder), cwd=tmp_path)
    _refused(run, peak, "layout/colours.yaml:1:1: error:", "over the limit of 100,000 bytes")


def test_a_key_given_twice_in_colours_yaml_is_refused_at_the_second(tmp_path: Path) -> None:
    folder = _layout_set(tmp_path, "colours.yaml", 'frame: "#222222"\nbadges:\n  stuns: "#C62828"\n'
                                                  '  stuns: "#00FF00"\n')
    run, peak = measured("validate", "--no-sim", "--set", str(folder), cwd=tmp_path)
    _refused(run, peak, "layout/colours.yaml:4:3: error: 'badges.stuns' is given twice")
    shutil.rmtree(folder / "layout")
    (folder / "layout").mkdir()
    (folder / "layout" / "face.yaml").write_text("margin: 4\nmargin: 5\n", encoding="utf-8")
    run, peak = measured("build", "--set", str(folder), "--out", "out", cwd=tmp_path)
    _refused(run, peak, "layout/face.yaml:2:1: error: 'margin' is given twice")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(("face", "said"), [
    ("text: {max_pt: 1000, step_pt: 0.05}\n", "layout/face.yaml:1:16: error: 'text.max_pt' is 1000; expected a number "
                                              "from 0.1 to 72"),
    ("text: {max_pt: 72, step_pt: 0.05}\n", "layout/face.yaml:1:29: error: 'text.step_pt' 0.05 gives 1301 sizes"),
    ("frame_width_pt: 1000\n", "layout/face.yaml:1:17: error: 'frame_width_pt' is 1000; expected a number from 0.1 "
                               "to 2"),
    ("art: {frame_pt: 40}\n", "'art.frame_pt' is 40; expected a number from 0.1 to 2"),
    ("safe_margin: 0\nmargin: 0\n", "layout/face.yaml:1:14: error: 'safe_margin' cannot go below the bundled 3 mm"),
    ("safe_margin: 3\nmargin: 0.5\n", "layout/face.yaml:2:9: error: 'margin' (0.5 mm) is inside the 3 mm safe margin"),
])
def test_layout_bounds_keep_a_face_printable(tmp_path: Path, face: str, said: str) -> None:
    folder = _layout_set(tmp_path, "face.yaml", face)
    run, peak = measured("validate", "--no-sim", "--set", str(folder), cwd=tmp_path)
    _refused(run, peak, said)


def test_the_widest_text_range_the_bounds_allow_still_builds(tmp_path: Path) -> None:
    folder = _layout_set(tmp_path, "face.yaml", "text: {max_pt: 72, min_pt: 7, step_pt: 0.65}\n")  # 101 sizes
    run, _peak = measured("validate", "--no-sim", "--set", str(folder), cwd=tmp_path)
    assert clean_failure(run) and "gives 101 sizes" in run.err, run.err
    (folder / "layout" / "face.yaml").write_text("text: {max_pt: 72, min_pt: 7, step_pt: 0.66}\n")  # 99 sizes
    run, _peak = measured("validate", "--no-sim", "--set", str(folder), cwd=tmp_path)
    assert run.code == 0, run.err


def test_a_title_with_markup_characters_prints_as_written_on_the_rules_page(tmp_path: Path) -> None:
    from pypdf import PdfReader

    title = 'Tom & Jerry\'s "Bar" <3'
    extending_set(tmp_path / "tj", "tj", extra="")
    (tmp_path / "tj" / "set.yaml").write_text(f"name: tj\ntitle: '{title.replace(chr(39), chr(39) * 2)}'\n"
                                              "extends: lunch\n", encoding="utf-8")
    run, _peak = measured("rules", "--set", "./tj", "--out", "out", cwd=tmp_path)
    assert run.code == 0, run.err
    reader = PdfReader(tmp_path / "out" / "tj" / "tj-rules.pdf")
    text = reader.pages[0].extract_text()
    assert title in text and "&amp;" not in text and "&#" not in text
    assert reader.metadata is not None and reader.metadata.title is not None
    assert reader.metadata.title.startswith(title)
