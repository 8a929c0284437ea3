"""`cardgen build`: files, print file with rules and bookmarks, same bytes twice, clean failures."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from cardgen.checks import load_set
from cardgen.cli.build_cmd import command as build_command
from cardgen.paths import bundled_set_names
from cardgen.render.sheets import PrintOptions, cards_pdf


def run(args: list[str]) -> tuple[int, str, str]:
    result = CliRunner().invoke(build_command, args)
    return result.exit_code, result.stdout, result.stderr


def files_under(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


def test_build_beer_writes_cards_rules_and_print(tmp_path: Path) -> None:
    code, out, err = run(["--set", "beer", "--out", str(tmp_path)])
    assert code == 0, err
    folder = tmp_path / "beer"
    assert sorted(p.name for p in folder.iterdir()) == ["beer-cards.pdf", "beer-print.pdf", "beer-rules.pdf"]
    assert out.split() == [str(folder / n) for n in ("beer-cards.pdf", "beer-rules.pdf", "beer-print.pdf")]
    cards = PdfReader(folder / "beer-cards.pdf")
    rules = PdfReader(folder / "beer-rules.pdf")
    printed = PdfReader(folder / "beer-print.pdf")
    assert len(cards.pages) == 13  # ceil(110 / 9)
    assert len(rules.pages) == 1
    assert len(printed.pages) == 15
    assert "Rules at a glance" in printed.pages[0].extract_text()  # the rules page comes first
    assert "Making the deck" in printed.pages[1].extract_text()  # then the assembly page
    assert printed.metadata is not None and "Beer Money" in str(printed.metadata.title)
    assert printed.outline[0].title == "Rules"  # type: ignore[union-attr]
    assert printed.outline[1].title == "Making the deck"  # type: ignore[union-attr]
    assert printed.get_destination_page_number(printed.outline[1]) == 1  # type: ignore[arg-type]
    titles = [item.title for item in printed.outline[3]]  # type: ignore[union-attr]
    cs = load_set("beer")
    assert titles == list(dict.fromkeys(cs.types[c.type].label for c in cs.cards))
    first_weapon = next(c for c in cs.cards if c.type == "weapon")
    weapon_item = printed.outline[3][titles.index("Weapon")]  # type: ignore[union-attr,index]
    copies_before = sum(c.count for c in cs.cards if c.number < first_weapon.number)
    assert printed.get_destination_page_number(weapon_item) == 2 + copies_before // 9  # after rules and assembly
    assert not list(folder.glob(".*.tmp"))


def test_backs_double_the_card_pages(tmp_path: Path) -> None:
    assert run(["--set", "beer", "--out", str(tmp_path), "--backs", "--duplex", "short", "--offset", "0.5,-1"])[0] == 0
    assert len(PdfReader(tmp_path / "beer" / "beer-cards.pdf").pages) == 26
    assert len(PdfReader(tmp_path / "beer" / "beer-print.pdf").pages) == 28  # rules, assembly on its reverse, sheets


def test_same_bytes_twice_and_in_another_process(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    assert run(["--set", "lunch", "--out", str(a), "--backs"])[0] == 0
    assert run(["--set", "lunch", "--out", str(b), "--backs"])[0] == 0
    names = [p.name for p in files_under(a)]
    assert names == ["lunch-cards.pdf", "lunch-print.pdf", "lunch-rules.pdf"]
    for pa in files_under(a):
        assert pa.read_bytes() == (b / pa.relative_to(a)).read_bytes(), pa.name
    # a fresh interpreter (new font registrations, new object ids) writes the same files
    other = subprocess.run([sys.executable, "-m", "cardgen.cli.main", "build", "--set", "lunch", "--backs",
                            "--out", str(tmp_path / "c")], capture_output=True, text=True, check=True)
    assert "Traceback" not in other.stderr
    for pa in files_under(a):
        assert pa.read_bytes() == (tmp_path / "c" / pa.relative_to(a)).read_bytes(), pa.name


def test_mixed_deck_stem(tmp_path: Path) -> None:
    code, _, err = run(["--set", "lunch", "--set", "beer", "--out", str(tmp_path), "--proof"])
    assert code == 0, err
    folder = tmp_path / "lunch+beer"
    assert sorted(p.name for p in folder.iterdir()) == [
        "lunch+beer-cards.pdf", "lunch+beer-print.pdf", "lunch+beer-rules.pdf"]
    text = " ".join(p.extract_text() for p in PdfReader(folder / "lunch+beer-cards.pdf").pages)
    assert re.search(r"\bbeer \d+/\d+", text) and re.search(r"\blunch \d+/\d+", text)  # each card's own set


def test_no_set_builds_every_bundled_set(tmp_path: Path) -> None:
    code, _, err = run(["--out", str(tmp_path), "--proof"])
    assert code == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == bundled_set_names()
    for name in bundled_set_names():
        assert (tmp_path / name / f"{name}-print.pdf").is_file()


@pytest.mark.parametrize("args", [  # a bad --paper is a usage error: tests/test_cli_errors.py
    ["--size", "jumbo"],
    ["--size", "300x300"],
    ["--size", "poker", "--bleed", "3", "--gap", "5"],
    ["--offset", "3"],
    ["--size", "30x40"],  # fits the paper, but no card text fits such a small card
])
def test_bad_options_fail_cleanly(tmp_path: Path, args: list[str]) -> None:
    out = tmp_path / "out"
    code, _, err = run(["--set", "lunch", "--out", str(out), *args])
    assert code == 1
    assert err.startswith("error: ") or ": error: " in err.splitlines()[0]  # `[path:line:col: ]error: ...`
    assert "Traceback" not in err
    assert not out.exists()


def test_unwritable_output_folder(tmp_path: Path) -> None:
    blocker = tmp_path / "file.txt"
    blocker.write_text("not a folder")
    code, _, err = run(["--set", "lunch", "--out", str(blocker / "out")])
    assert code == 1 and "output folder" in err
    assert blocker.read_text() == "not a folder"


def test_missing_glyph_names_card_and_character(tmp_path: Path, make_set: Callable[..., Path],
                                                 mini_set_files: dict[str, str]) -> None:
    files = dict(mini_set_files)
    files["cards.yaml"] = files["cards.yaml"].replace("{name: Jab,", "{name: Jab 漢,")
    folder = make_set(files)
    out = tmp_path / "out"
    code, _, err = run(["--set", str(folder), "--out", str(out)])
    assert code == 1
    assert "Jab 漢" in err and "'漢'" in err
    assert not out.exists()


def test_progress_callback_counts_every_card() -> None:
    cs = load_set("lunch")
    seen: list[int] = []
    cards_pdf(cs, PrintOptions(), seen.append)
    assert sum(seen) == cs.total
