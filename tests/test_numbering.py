"""Card numbers: design number out of the number of designs, the same in footer, previews, gallery and TTS."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from cardgen.checks import load_set
from cardgen.cli.main import main
from cardgen.numbering import card_file_stem, card_label, card_number


def test_every_copy_of_a_design_reads_design_number_of_designs(tmp_path: Path) -> None:
    cs = load_set("beer")
    tap = cs.card("Love Tap")
    assert tap.count == 5 and len(cs.cards) == 28
    assert card_number(tap, cs) == "01/28"
    assert card_label(tap, cs) == "beer 01/28"
    assert card_file_stem(cs.card("Death From Above"), cs) == "09-death-from-above"
    res = CliRunner().invoke(main, ["build", "--set", "beer", "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    text = "\n".join(p.extract_text() for p in PdfReader(tmp_path / "beer" / "beer-cards.pdf").pages)
    assert text.count("beer 01/28") == 5  # the footer of each printed copy
    assert "001/110" not in text


@pytest.mark.parametrize("kind", ["preview", "gallery", "tts"])
def test_same_number_and_file_name_everywhere(kind: str, tmp_path: Path) -> None:
    cs = load_set("beer")
    smite = cs.card("Smite")
    args = {"preview": ["preview", "--set", "beer", "--card", "Smite", "--dpi", "20"],
            "gallery": ["export", "gallery", "--set", "beer"],
            "tts": ["export", "tts", "--set", "beer", "--dpi", "30"]}[kind]
    res = CliRunner().invoke(main, [*args, "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    folder = tmp_path / "beer"
    if kind == "preview":
        assert [p.name for p in (folder / "preview").glob("*.png")] == [f"{card_file_stem(smite, cs)}.png"]
    elif kind == "gallery":
        page = (folder / "index.html").read_text(encoding="utf-8")
        assert card_label(smite, cs) in page
        assert f'src="gallery/{card_file_stem(smite, cs)}.png"' in page
        assert (folder / "gallery" / f"{card_file_stem(smite, cs)}.png").is_file()
    else:
        deck = json.loads((folder / "tts" / "beer-tts.json").read_text())["ObjectStates"][0]
        card = next(c for c in deck["ContainedObjects"] if c["Nickname"] == "Smite")
        assert card_label(smite, cs) in card["Description"]
