"""`cardgen build`: files, print file with rules and bookmarks, same bytes twice, clean failures."""

from __future__ import annotations

import io
import subprocess
import sys
import types
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from cardgen.cli.build_cmd import command as build_command
from cardgen.loader import load_set
from cardgen.paths import bundled_set_names, card_data_dir
from cardgen.render import build as build_mod
from cardgen.render.sheets import PrintOptions, cards_pdf

HAS_BEER = (card_data_dir() / "beer" / "set.yaml").is_file()


def run(args: list[str]) -> tuple[int, str, str]:
    result = CliRunner().invoke(build_command, args)
    return result.exit_code, result.stdout, result.stderr


def files_under(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


@pytest.fixture
def no_rules_page(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(build_mod, "RULES_MODULE", "cardgen.render.rules_page_not_there")


def test_build_writes_cards_and_print(tmp_path: Path, no_rules_page: None) -> None:
    code, _, err = run(["--set", "lunch", "--out", str(tmp_path), "--proof"])
    assert code == 0, err
    folder = tmp_path / "lunch"
    assert (folder / "lunch-cards.pdf").is_file() and (folder / "lunch-print.pdf").is_file()
    assert "rules page module is not available" in err
    cards = PdfReader(folder / "lunch-cards.pdf")
    printed = PdfReader(folder / "lunch-print.pdf")
    assert len(printed.pages) == len(cards.pages)
    assert printed.metadata is not None and "Lunch Money" in str(printed.metadata.title)
    titles = [item.title for item in printed.outline[1]]  # type: ignore[union-attr]
    cs = load_set("lunch")
    assert titles == list(dict.fromkeys(cs.types[c.type].label for c in cs.cards))
    assert not list(folder.glob(".*.tmp"))


def _fake_rules(cs: object, paper: str) -> bytes:
    from reportlab.pdfgen.canvas import Canvas

    buf = io.BytesIO()
    c = Canvas(buf, invariant=1)
    c.drawString(100, 700, f"RULES {paper}")
    c.save()
    return buf.getvalue()


def test_rules_page_goes_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = types.ModuleType("fake_rules_page")
    fake.rules_pdf = _fake_rules  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fake_rules_page", fake)
    monkeypatch.setattr(build_mod, "RULES_MODULE", "fake_rules_page")
    code, _, err = run(["--set", "lunch", "--out", str(tmp_path), "--proof", "--paper", "letter"])
    assert code == 0, err
    folder = tmp_path / "lunch"
    assert (folder / "lunch-rules.pdf").is_file()
    printed = PdfReader(folder / "lunch-print.pdf")
    assert len(printed.pages) == 1 + len(PdfReader(folder / "lunch-cards.pdf").pages)
    assert "RULES letter" in printed.pages[0].extract_text()
    assert printed.outline[0].title == "Rules"  # type: ignore[union-attr]


def test_same_bytes_twice_and_in_another_process(tmp_path: Path, no_rules_page: None) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    assert run(["--set", "lunch", "--out", str(a), "--backs"])[0] == 0
    assert run(["--set", "lunch", "--out", str(b), "--backs"])[0] == 0
    for pa in files_under(a):
        assert pa.read_bytes() == (b / pa.relative_to(a)).read_bytes(), pa.name
    # a fresh interpreter (new font registrations, new object ids) gives the same cards PDF
    script = ("import sys; from cardgen.loader import load_set; from cardgen.render.sheets import cards_pdf, "
              "PrintOptions; sys.stdout.buffer.write(cards_pdf(load_set('lunch'), PrintOptions(backs=True)).data)")
    other = subprocess.run([sys.executable, "-c", script], capture_output=True, check=True).stdout
    assert other == (a / "lunch" / "lunch-cards.pdf").read_bytes()


def test_count_pages_with_backs(tmp_path: Path, no_rules_page: None) -> None:
    cs = load_set("lunch")
    assert run(["--set", "lunch", "--out", str(tmp_path), "--backs", "--duplex", "short", "--offset", "0.5,-1"])[0] == 0
    assert len(PdfReader(tmp_path / "lunch" / "lunch-cards.pdf").pages) == 2 * -(-cs.total // 9)


@pytest.mark.skipif(not HAS_BEER, reason="beer set not bundled yet")
def test_mixed_deck_stem(tmp_path: Path, no_rules_page: None) -> None:
    code, _, err = run(["--set", "lunch", "--set", "beer", "--out", str(tmp_path), "--proof"])
    assert code == 0, err
    assert (tmp_path / "lunch+beer" / "lunch+beer-cards.pdf").is_file()
    assert (tmp_path / "lunch+beer" / "lunch+beer-print.pdf").is_file()
    text = " ".join(p.extract_text() for p in PdfReader(tmp_path / "lunch+beer" / "lunch+beer-cards.pdf").pages)
    assert "beer 0" in text and "lunch 0" in text  # footers name each card's own set


def test_no_set_builds_every_bundled_set(tmp_path: Path, no_rules_page: None) -> None:
    code, _, err = run(["--out", str(tmp_path), "--proof"])
    assert code == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == bundled_set_names()


@pytest.mark.parametrize("args", [
    ["--paper", "b5"],
    ["--size", "jumbo"],
    ["--size", "100x100"],
    ["--bleed", "-1"],
    ["--size", "poker", "--bleed", "3"],
    ["--offset", "3"],
    ["--size", "30x40"],  # fits the paper, but no card text fits such a small card
])
def test_bad_options_fail_cleanly(tmp_path: Path, args: list[str]) -> None:
    out = tmp_path / "out"
    code, _, err = run(["--set", "lunch", "--out", str(out), *args])
    assert code == 1
    assert err.startswith("error: ") and "Traceback" not in err
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
