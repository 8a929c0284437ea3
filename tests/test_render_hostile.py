"""Bad input the hostile-input sweep found in rendering (a set's own layout files, odd card sizes, a title of
one long word, svglib's chatter): each through the real command, exit code 1 with the message at its line
and nothing of an earlier build replaced, or, where the input is fine, a build that prints it."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

import pytest
from hostile import cardgen, clean_failure, extending_set
from pypdf import PdfReader


def _tree(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
            for p in sorted(root.rglob("*"))}


LAYOUT_CASES = [
    # (file, text, where the error is, what it says)
    ("face.yaml", "text:\n  step_pt: 0\n", "face.yaml:2:12", "'text.step_pt' is 0; expected a number from 0.05 to 5"),
    ("face.yaml", "text:\n  step_pt: 0.0000001\n", "face.yaml:2:12", "'text.step_pt' is 0.0000001"),
    ("face.yaml", "text:\n  leading: 0\n", "face.yaml:2:12", "'text.leading' is 0; expected a number from 0.8"),
    ("face.yaml", "margin: .nan\n", "face.yaml:1:9", "'margin' must be a plain number such as 2.5, not '.nan'"),
    ("face.yaml", "band:\n  height: .inf\n", "face.yaml:2:11", "'band.height' must be a plain number"),
    ("face.yaml", "margin: -3\n", "face.yaml:1:9", "'margin' is -3; expected a number from 0 to 1000"),
    ("face.yaml", "margin: 1.0\n", "face.yaml:1:9", "'margin' (1 mm) is inside the 3 mm safe margin"),
    ("face.yaml", "art:\n  height_ratio: 5\n", "face.yaml:2:17", "'art.height_ratio' is 5; expected a number"),
    ("face.yaml", "band:\n  name_font: Comic\n", "face.yaml:2:14", "'band.name_font' names the face 'Comic'"),
    ("face.yaml", "text:\n  font: sans\n", "face.yaml:2:9", "(did you mean 'Sans'?)"),
    ("colours.yaml", "frame: red\n", "colours.yaml:1:8", "'frame' is 'red'; expected a colour as '#RRGGBB'"),
    ("colours.yaml", "badges:\n  stuns: '#12345'\n", "colours.yaml:2:10", "'badges.stuns' is '#12345'"),
]


@pytest.mark.parametrize(("file", "text", "where", "said"), LAYOUT_CASES)
def test_a_bad_layout_value_is_refused_at_its_line_by_validate_and_build(tmp_path: Path, file: str, text: str,
                                                                         where: str, said: str) -> None:
    folder = extending_set(tmp_path / "hl", "hl")
    (folder / "layout").mkdir()
    (folder / "layout" / file).write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    (out / "hl").mkdir(parents=True)
    (out / "hl" / "hl-cards.pdf").write_bytes(b"earlier build")
    before = _tree(out)
    for args in (("validate", "--set", str(folder), "--no-sim", "--no-balance"),
                 ("build", "--set", str(folder), "--proof", "--out", str(out))):
        run = cardgen(*args, cwd=tmp_path, timeout=60)
        assert clean_failure(run), run.err
        line = next((x for x in run.err.splitlines() if said in x), None)
        assert line is not None and f"layout/{where}: error: " in line, run.err
    assert _tree(out) == before


@pytest.mark.parametrize(("make", "said"), [
    (lambda f: (f / "layout").write_text("not a folder\n", encoding="utf-8"), "'layout' must be a folder"),
    (lambda f: (f / "layout" / "face.yaml").mkdir(parents=True), "must be a YAML file, not a folder"),
])
def test_a_layout_that_is_not_a_folder_or_a_face_file_that_is_a_folder_is_refused(
        tmp_path: Path, make: Callable[[Path], object], said: str) -> None:
    folder = extending_set(tmp_path / "hl", "hl")
    make(folder)
    run = cardgen("validate", "--set", str(folder), "--no-sim", "--no-balance", cwd=tmp_path, timeout=60)
    assert clean_failure(run) and said in run.err, run.err


@pytest.mark.parametrize("args", [("--size", "٦٣x٨٨"), ("--offset", "٣,0", "--backs"),
                                  ("--offset", "1_0,0", "--backs")])
def test_digits_of_other_scripts_in_a_size_or_an_offset_are_refused(tmp_path: Path, args: tuple[str, ...]) -> None:
    run = cardgen("build", "--set", "lunch", "--proof", "--out", str(tmp_path / "out"), *args, cwd=tmp_path,
                  timeout=60)
    assert clean_failure(run) and ("unknown card size" in run.err or "must be X,Y" in run.err), run.err
    assert not (tmp_path / "out").exists()


def test_a_title_of_one_long_word_is_broken_across_the_assembly_page_lines(tmp_path: Path) -> None:
    title = "W" * 60  # as long as set.yaml allows, and wider than the page at the subtitle's size
    folder = extending_set(tmp_path / "lw", "lw")
    (folder / "set.yaml").write_text(f"name: lw\ntitle: {title}\nextends: lunch\n", encoding="utf-8")
    run = cardgen("build", "--set", str(folder), "--proof", "--out", str(tmp_path / "out"), cwd=tmp_path, timeout=60)
    assert run.code == 0, run.err
    reader = PdfReader(tmp_path / "out" / "lw" / "lw-print.pdf")
    page = next(p.extract_text() for p in reader.pages if "Making the deck" in p.extract_text())
    assert page.count("W") >= 60, page  # every letter of it printed, over two lines


def test_a_title_no_face_can_draw_is_reported_at_its_set_yaml_line(tmp_path: Path) -> None:
    folder = extending_set(tmp_path / "em", "em")
    (folder / "set.yaml").write_text('name: em\nextends: lunch\ntitle: "Fun \U0001F389 Set"\n', encoding="utf-8")
    run = cardgen("validate", "--set", str(folder), "--no-sim", "--no-balance", cwd=tmp_path, timeout=60)
    assert clean_failure(run), run.err
    assert any(x.startswith(f"{folder / 'set.yaml'}:3:8: error: cannot be printed: character") for x in
               run.err.splitlines()), run.err


def test_svglibs_own_log_lines_stay_out_of_a_builds_output(tmp_path: Path) -> None:
    """An icon only svglib reads (a <use>, a colour it does not know) builds without svglib's warnings on stderr."""
    folder = extending_set(tmp_path / "sv", "sv", extra="icons:\n  dodge: icons/dodge.svg\n")
    (folder / "icons").mkdir()
    (folder / "icons" / "dodge.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">'
        '<defs><g id="a"><use xlink:href="#a"/><circle cx="5" cy="5" r="4" fill="#123456"/></g></defs>'
        '<use xlink:href="#a"/><text x="1" y="8" style="fill: weirdcolour">x</text></svg>', encoding="utf-8")
    for args in (("validate", "--set", str(folder), "--no-sim", "--no-balance"),
                 ("build", "--set", str(folder), "--proof", "--out", str(tmp_path / "out"))):
        run = cardgen(*args, cwd=tmp_path, timeout=90)
        assert run.code == 0, run.err
        assert "Circular" not in run.err and "Can't handle" not in run.err, run.err
