"""Tabletop Simulator export: sheet grid, hidden slot, counts and JSON references."""

from __future__ import annotations

import io
import json
from pathlib import Path

from click.testing import CliRunner
from PIL import Image

from cardgen.cli.main import main
from cardgen.export.tts import CARDS_PER_SHEET, GRID_COLS, GRID_ROWS, export_tts
from cardgen.loader import load_set


def test_lunch_deck_exports_every_copy_on_10x7_sheets() -> None:
    cs = load_set("lunch")
    result = export_tts(cs, dpi=40)
    assert result.cards == cs.total == 110
    assert CARDS_PER_SHEET == 69
    assert result.sheets == 2  # 69 + 41
    w, h = result.card_px
    assert abs(h / w - 88.9 / 63.5) < 0.02  # poker proportions
    for n in (1, 2):
        img = Image.open(io.BytesIO(result.files[f"lunch-tts-faces-{n}.png"]))
        assert img.size == (GRID_COLS * w, GRID_ROWS * h)
    saved = json.loads(result.files["lunch-tts.json"])
    deck = saved["ObjectStates"][0]
    assert len(deck["DeckIDs"]) == 110
    assert len(deck["ContainedObjects"]) == 110
    names = [o["Nickname"] for o in deck["ContainedObjects"]]
    for card in cs.cards:
        assert names.count(card.name) == card.count
    # CardID = sheet * 100 + slot, and no slot reaches the hidden-card slot 69.
    assert max(i % 100 for i in deck["DeckIDs"]) == CARDS_PER_SHEET - 1
    assert set(deck["CustomDeck"]) == {"1", "2"}
    assert deck["CustomDeck"]["1"]["FaceURL"] == "lunch-tts-faces-1.png"
    assert deck["CustomDeck"]["1"]["NumWidth"] == 10 and deck["CustomDeck"]["1"]["NumHeight"] == 7


def test_hidden_slot_shows_the_back_image() -> None:
    result = export_tts(load_set("lunch"), dpi=40)
    w, h = result.card_px
    sheet = Image.open(io.BytesIO(result.files["lunch-tts-faces-1.png"])).convert("RGB")
    back = Image.open(io.BytesIO(result.files["lunch-tts-back.png"])).convert("RGB")
    hidden = sheet.crop((9 * w, 6 * h, 10 * w, 7 * h))
    assert hidden.tobytes() == back.tobytes()


def test_cli_writes_files_with_url_base(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["export", "tts", "--set", "lunch", "--out", str(tmp_path), "--dpi", "40",
                                    "--url-base", "https://example.invalid/deck/"])
    assert res.exit_code == 0, res.output
    saved = json.loads((tmp_path / "lunch" / "tts" / "lunch-tts.json").read_text())
    assert saved["ObjectStates"][0]["CustomDeck"]["1"]["BackURL"] == "https://example.invalid/deck/lunch-tts-back.png"


def test_cli_defaults_to_local_file_urls(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["export", "tts", "--set", "lunch", "--out", str(tmp_path), "--dpi", "30"])
    assert res.exit_code == 0, res.output
    folder = tmp_path / "lunch" / "tts"
    face_url = json.loads((folder / "lunch-tts.json").read_text())["ObjectStates"][0]["CustomDeck"]["1"]["FaceURL"]
    assert face_url == (folder / "lunch-tts-faces-1.png").resolve().as_uri()
