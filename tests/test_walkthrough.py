"""The designer walk-through of docs/designing-cards.md, command by command, on a temporary folder."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from cardgen.cli.main import main

DOC = Path(__file__).resolve().parents[1] / "docs" / "designing-cards.md"
NEW_CARD = """  - name: Wet Willy
    type: basic
    count: 2
    damage: 1
    stuns: 1
    source: designed
    flavour: Nobody ever sees it coming.
"""


def _doc_commands() -> list[str]:
    return re.findall(r"^cardgen .*$", DOC.read_text(encoding="utf-8"), flags=re.MULTILINE)


def test_doc_lists_the_commands_this_test_runs() -> None:
    verbs = [c.split()[1] for c in _doc_commands()]
    assert verbs == ["new", "validate", "preview", "simulate", "build", "export"]
    assert NEW_CARD.strip().splitlines()[0] in DOC.read_text(encoding="utf-8")


def test_walkthrough(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()

    def run(*args: str) -> str:
        res = runner.invoke(main, list(args))
        assert res.exit_code == 0, (args, res.output)
        return res.output

    run("new", "my-cards", "--base", "lunch")
    cards = tmp_path / "my-cards" / "my-cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8") + NEW_CARD, encoding="utf-8")

    out = run("validate", "--set", "my-cards")
    assert "my-cards: ok (32 designs, 113 cards)" in out

    run("preview", "--set", "my-cards", "--card", "Wet Willy")
    previews = list((tmp_path / "output" / "my-cards" / "preview").glob("*wet-willy*.png"))
    assert len(previews) == 1

    run("simulate", "--set", "my-cards", "--players", "4", "--games", "60", "--seed", "1",
        "--report", "my-cards.pdf", "--json", "my-cards.json")
    result = json.loads((tmp_path / "my-cards.json").read_text())
    assert result["games"] == 60 and result["invariant_violations"] == 0
    assert "Wet Willy" in result["cards"]
    assert (tmp_path / "my-cards.pdf").stat().st_size > 1000

    run("build", "--set", "my-cards")
    printed = PdfReader(tmp_path / "output" / "my-cards" / "my-cards-print.pdf")
    text = "".join(page.extract_text() for page in printed.pages)
    assert "Wet Willy" in text
    assert len(printed.pages) == 1 + -(-113 // 9)

    run("export", "tts", "--set", "my-cards", "--url-base", "https://example.org/my-cards/")
    saved = json.loads((tmp_path / "output" / "my-cards" / "tts" / "my-cards-tts.json").read_text())
    assert len(saved["ObjectStates"][0]["DeckIDs"]) == 113
