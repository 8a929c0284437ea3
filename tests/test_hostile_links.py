"""A shared set folder is untrusted: every kind of file a set may hold, linked to a file outside the folder, one at a
time, is refused by the real command at that file, and nothing from outside reaches the output.

The set below holds one file of every kind the loader and the renderer read (set.yaml, a card file, templates, the
layout files, a translation, a font, an icon, art, a back image): a new kind of set file belongs in `SET_FILES`,
and is then linked out like the others.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from hostile import cardgen, clean_failure

from cardgen.paths import fonts_dir, templates_dir

SECRET = "TOPSECRET-7f3a"


def _png(width: int, height: int) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        from PIL import Image

        Image.new("RGB", (width, height), (40, 90, 160)).save(path)
    return make


def _text(text: str) -> Callable[[Path], None]:
    return lambda path: path.write_text(text, encoding="utf-8")


def _copy(source: Path, extra: str = "") -> Callable[[Path], None]:
    return lambda path: path.write_text(source.read_text(encoding="utf-8") + extra, encoding="utf-8")


SET_YAML = """\
name: links
title: Links
extends: lunch
icons: {sparkle: icons/sparkle.svg}
look:
  fonts: {regular: fonts/Own.ttf}
  back: {image: back/back.png}
"""
CARDS = "cards:\n  - {name: Noodle Slap, type: basic, count: 1, damage: 1, source: designed, art: art/slap.png}\n"
SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><path d="M0 0 L10 0 L10 10 Z" '
       'fill="#000000"/></svg>\n')

# Every file of the set, by its path in the set folder: how to make it.
SET_FILES: dict[str, Callable[[Path], None]] = {
    "set.yaml": _text(SET_YAML),
    "cards.yaml": _text(CARDS),
    "templates/card_text.j2": _copy(templates_dir() / "card_text.j2", '{% include "extra.j2" %}\n'),
    "templates/extra.j2": _text("{# nothing to add #}\n"),
    "layout/face.yaml": _text("text: {leading: 1.2}\n"),
    "layout/colours.yaml": _text('frame: "#222222"\n'),
    "lang/de.yaml": _text("title: Verweise\n"),
    "fonts/Own.ttf": lambda path: shutil.copyfile(fonts_dir() / "DejaVuSans.ttf", path),
    "icons/sparkle.svg": _text(SVG),
    "art/slap.png": _png(700, 280),
    "back/back.png": _png(830, 1130),
}
FOLDERS = sorted({str(Path(rel).parent) for rel in SET_FILES} - {"."})
# What stands in for each file outside the set: the same valid content, with a secret where text can carry one.
OUTSIDE_TEXT = {"templates/extra.j2": SECRET + "\n", "lang/de.yaml": f"title: {SECRET}\n",
                "cards.yaml": CARDS.replace("Noodle Slap", SECRET)}


def _make_set(root: Path) -> Path:
    folder = root / "links"
    for rel, make in SET_FILES.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        make(folder / rel)
    return folder


def _link_out(folder: Path, rel: str, outside: Path) -> None:
    """Move the set's file or folder `rel` outside the set and put a link to it in its place."""
    target = outside / rel.replace("/", "_")
    shutil.move(folder / rel, target)
    if rel in OUTSIDE_TEXT:
        target.write_text(OUTSIDE_TEXT[rel], encoding="utf-8")
    os.symlink(os.path.relpath(target, (folder / rel).parent), folder / rel)


def _validate(folder: Path, cwd: Path) -> list[str]:
    run = cardgen("validate", "--no-sim", "--set", str(folder), cwd=cwd)
    assert clean_failure(run), (run.code, run.err)
    return run.err.splitlines()


def test_the_set_with_every_kind_of_file_is_valid(tmp_path: Path) -> None:
    folder = _make_set(tmp_path)
    run = cardgen("validate", "--no-sim", "--set", str(folder), cwd=tmp_path)
    assert run.code == 0, run.err
    for rel in SET_FILES:  # every file is read: a broken one of each kind is refused
        (folder / rel).write_bytes(b"\x00\x01broken")
        run = cardgen("validate", "--no-sim", "--set", str(folder), cwd=tmp_path)
        assert clean_failure(run), (rel, run.code, run.err)
        SET_FILES[rel](folder / rel)


@pytest.mark.parametrize("rel", [*SET_FILES, *FOLDERS])
def test_a_set_file_linked_outside_the_folder_is_refused_at_it(tmp_path: Path, rel: str) -> None:
    folder = _make_set(tmp_path / "sets")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    _link_out(folder, rel, outside)
    before = sorted(p for p in tmp_path.rglob("*"))
    errors = _validate(folder, tmp_path)
    named = [line for line in errors if "outside the set folder" in line]
    assert named, errors
    assert all(SECRET not in line for line in errors), errors
    first = Path(rel).parts[0]
    assert any(first in line for line in named), named  # the message names the file, or the line naming it
    assert sorted(p for p in tmp_path.rglob("*")) == before  # nothing written


@pytest.mark.parametrize("rel", ["templates/extra.j2", "lang/de.yaml", "cards.yaml"])
def test_no_outside_text_reaches_a_build(tmp_path: Path, rel: str) -> None:
    folder = _make_set(tmp_path / "sets")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    _link_out(folder, rel, outside)
    out = tmp_path / "out"
    lang = ("--lang", "de") if rel.startswith("lang/") else ()
    run = cardgen("build", "--set", str(folder), "--out", str(out), *lang, cwd=tmp_path)
    assert clean_failure(run), (run.code, run.err)
    assert SECRET not in run.err + run.out
    assert not out.exists() or not any(p.is_file() for p in out.rglob("*"))
    run = cardgen("list", "--set", str(folder), *lang, cwd=tmp_path)
    assert clean_failure(run) and SECRET not in run.out + run.err, (run.code, run.out, run.err)


# Where a set's files are read: each must read through cardgen.bounded_read (set_file / read_set_file), never open
# a path itself. Bundled data is read elsewhere (paths.templates_dir, fonts_dir).
SET_READERS = ["loader/*.py", "cardtext.py"]
RAW_READS = re.compile(r"(?<![\w.])open\(|\.read_text\(|\.read_bytes\(|os\.open\(|Image\.open\((?!io\.BytesIO)"
                       r"|FileSystemLoader\((?!str\(folder or templates_dir\(\)\)|p\) for p in paths)")


def test_set_files_are_read_only_through_the_one_function() -> None:
    root = Path(__file__).resolve().parents[1] / "cardgen"
    found = [f"{path.relative_to(root)}:{n}: {line.strip()}" for pattern in SET_READERS
             for path in sorted(root.glob(pattern))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if RAW_READS.search(line.split("#", 1)[0])]
    assert found == [], "read a set's file with cardgen.bounded_read.read_set_file:\n" + "\n".join(found)
