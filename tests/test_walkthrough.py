"""docs/designing-cards.md, run end to end: every `cardgen` command of its shell blocks, as written, in order,
with the spreadsheet edit it describes, on a temporary folder."""

from __future__ import annotations

import csv
import io
import json
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from cardgen.cli.main import main

DOC = Path(__file__).resolve().parents[1] / "docs" / "designing-cards.md"
NEW_ROW = {"name": "Wet Willy", "type": "basic", "count": "2", "source": "designed", "damage": "1", "stuns": "1",
           "flavour": "Nobody ever sees it coming."}


def _doc() -> str:
    return DOC.read_text(encoding="utf-8")


def doc_commands() -> list[list[str]]:
    """The commands of the page's ```sh blocks, split as a shell would."""
    blocks = re.findall(r"```sh\n(.*?)```", _doc(), flags=re.S)
    return [shlex.split(line) for block in blocks for line in block.splitlines() if line.startswith("cardgen ")]


def test_doc_shows_the_commands_and_the_row_this_test_uses() -> None:
    verbs = [" ".join(c[1:3]) if c[1] in ("export", "import") else c[1] for c in doc_commands()]
    assert verbs == ["export sheet", "import sheet", "validate", "preview", "export gallery", "simulate", "build",
                     "export tts"]
    assert "| " + " | ".join(NEW_ROW.values()) + " |" in _doc()
    assert "| " + " | ".join(NEW_ROW) + " |" in _doc()


def test_walkthrough(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()

    def run(args: list[str], code: int = 0) -> str:
        res = runner.invoke(main, args)
        assert res.exit_code == code, (args, res.output)
        return res.output

    commands = iter(doc_commands())
    run(next(commands)[1:])  # export sheet
    sheet = tmp_path / "my-cards.csv"
    header = next(csv.reader(io.StringIO(sheet.read_text(encoding="utf-8"))))
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\r\n").writerow([NEW_ROW.get(h, "") for h in header])
    sheet.write_text(sheet.read_text(encoding="utf-8") + buf.getvalue(), encoding="utf-8", newline="")

    # the mistake the page shows, on a copy of the sheet
    bad = tmp_path / "bad" / "my-cards.csv"
    bad.parent.mkdir()
    bad.write_text(sheet.read_text(encoding="utf-8").replace(",damage,", ",damge,", 1), encoding="utf-8", newline="")
    monkeypatch.chdir(bad.parent)
    out = run(next(iter(doc_commands()[1:]))[1:], code=1)
    shown = re.search(r"^    (my-cards\.csv:1:5: error: .*?); \.\.\.$", _doc(), flags=re.M)
    assert shown is not None and shown.group(1) in out
    assert not (bad.parent / "my-cards").exists()
    monkeypatch.chdir(tmp_path)

    run(next(commands)[1:])  # import sheet
    assert (tmp_path / "my-cards" / "set.yaml").is_file() and (tmp_path / "my-cards" / "cards.yaml").is_file()

    out = run(next(commands)[1:])  # validate
    assert "my-cards: ok (31 designs, 112 cards)" in out

    run(next(commands)[1:])  # preview
    assert [p.name for p in (tmp_path / "output" / "my-cards" / "preview").glob("*.png")] == ["31-wet-willy.png"]

    run(next(commands)[1:])  # export gallery
    page = (tmp_path / "output" / "my-cards" / "index.html").read_text(encoding="utf-8")
    assert "my-cards 31/31" in page and "Wet Willy" in page

    run([*next(commands)[1:], "--json", "my-cards.json"])  # simulate
    result = json.loads((tmp_path / "my-cards.json").read_text())
    assert result["games"] == 200 and result["invariant_violations"] == 0
    assert "Wet Willy" in result["cards"]
    assert (tmp_path / "my-cards-report.pdf").stat().st_size > 1000

    run(next(commands)[1:])  # build
    printed = PdfReader(tmp_path / "output" / "my-cards" / "my-cards-print.pdf")
    text = "".join(p.extract_text() for p in printed.pages)
    assert "Wet Willy" in text and "Nobody ever sees it coming." in text

    run(next(commands)[1:])  # export tts
    saved = json.loads((tmp_path / "output" / "my-cards" / "tts" / "my-cards-tts.json").read_text())
    assert len(saved["ObjectStates"][0]["DeckIDs"]) == 112
    assert next(commands, None) is None
