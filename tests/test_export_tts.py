"""Tabletop Simulator export: one slot per design, the saved-object structure, unique deck keys, sheet size."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from PIL import Image

from cardgen.checks import load_set
from cardgen.cli.main import main
from cardgen.export.tts import DESIGNS_PER_SHEET, MAX_SHEET_PX, export_tts, fit_card_px, grid_of
from cardgen.numbering import card_label

# The keys Tabletop Simulator writes for a card and a custom deck in a saved object (Saved Objects/*.json),
# each with the JSON type it uses there.
CARD_KEYS: dict[str, type | tuple[type, ...]] = {
    "GUID": str, "Name": str, "Transform": dict, "Nickname": str, "Description": str, "GMNotes": str,
    "ColorDiffuse": dict, "Locked": bool, "Grid": bool, "Snap": bool, "IgnoreFoW": bool, "Autoraise": bool,
    "Sticky": bool, "Tooltip": bool, "GridProjection": bool, "HideWhenFaceDown": bool, "Hands": bool,
    "CardID": int, "SidewaysCard": bool, "CustomDeck": dict, "LuaScript": str, "LuaScriptState": str, "XmlUI": str}
DECK_KEYS: dict[str, type | tuple[type, ...]] = {
    **{k: v for k, v in CARD_KEYS.items() if k != "CardID"}, "DeckIDs": list, "ContainedObjects": list}
CUSTOM_DECK_KEYS: dict[str, type] = {"FaceURL": str, "BackURL": str, "NumWidth": int, "NumHeight": int,
                                     "BackIsHidden": bool, "UniqueBack": bool, "Type": int}
SAVE_KEYS = ("SaveName", "GameMode", "Date", "Table", "Sky", "Note", "Rules", "XmlUI", "LuaScript",
             "ObjectStates", "TabStates", "VersionNumber")
TRANSFORM_KEYS = ("posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ")


def _has_keys(obj: dict[str, Any], keys: dict[str, type | tuple[type, ...]]) -> None:
    for key, kind in keys.items():
        assert key in obj, key
        assert isinstance(obj[key], kind), (key, obj[key])


def check_saved_deck(deck: dict[str, Any]) -> None:
    """The structure TTS loads: every card's CustomDeck agrees with the deck's, ids point at real slots."""
    _has_keys(deck, DECK_KEYS)
    assert deck["Name"] == "DeckCustom"
    assert set(deck["Transform"]) == set(TRANSFORM_KEYS)
    assert len(deck["DeckIDs"]) == len(deck["ContainedObjects"])
    for entry in deck["CustomDeck"].values():
        _has_keys(entry, CUSTOM_DECK_KEYS)
        assert 1 <= entry["NumWidth"] <= 10 and 1 <= entry["NumHeight"] <= 7
    for card_id, card in zip(deck["DeckIDs"], deck["ContainedObjects"], strict=True):
        _has_keys(card, CARD_KEYS)
        assert card["Name"] == "Card" and card["CardID"] == card_id
        key = str(card_id // 100)
        assert list(card["CustomDeck"]) == [key]
        assert card["CustomDeck"][key] == deck["CustomDeck"][key]
        entry = deck["CustomDeck"][key]
        assert card_id % 100 < entry["NumWidth"] * entry["NumHeight"] - 1  # never the hidden-card slot


@pytest.fixture(scope="module")
def beer_export() -> Any:
    return export_tts(load_set("beer"), dpi=40)


def test_one_slot_per_design_with_copies_in_deck_ids(beer_export: Any) -> None:
    cs = load_set("beer")
    result = beer_export
    assert (result.cards, result.designs, result.sheets) == (110, 28, 1)
    saved = json.loads(result.files["beer-tts.json"])
    assert set(SAVE_KEYS) <= set(saved)
    deck = saved["ObjectStates"][0]
    check_saved_deck(deck)
    assert len(deck["CustomDeck"]) == 1
    by_name: dict[str, set[int]] = {}
    for card in deck["ContainedObjects"]:
        by_name.setdefault(card["Nickname"], set()).add(card["CardID"])
    for card in cs.cards:
        assert [c["Nickname"] for c in deck["ContainedObjects"]].count(card.name) == card.count
        assert len(by_name[card.name]) == 1  # every copy shows the same slot
    assert len({i for ids in by_name.values() for i in ids}) == 28
    love_tap = next(c for c in deck["ContainedObjects"] if c["Nickname"] == "Love Tap")
    assert love_tap["Description"].splitlines() == ["Basic Attack", card_label(cs.card("Love Tap"), cs)]
    # 28 designs + the hidden slot on a 10 x 3 grid, each slot the size of a card
    w, h = result.card_px
    entry = next(iter(deck["CustomDeck"].values()))
    assert (entry["NumWidth"], entry["NumHeight"]) == grid_of(28) == (10, 3)
    sheet = Image.open(io.BytesIO(result.files["beer-tts-faces-1.png"]))
    assert sheet.size == (10 * w, 3 * h)
    assert abs(h / w - 88.9 / 63.5) < 0.02  # poker proportions


def test_hidden_slot_shows_the_back_image(beer_export: Any) -> None:
    w, h = beer_export.card_px
    sheet = Image.open(io.BytesIO(beer_export.files["beer-tts-faces-1.png"])).convert("RGB")
    back = Image.open(io.BytesIO(beer_export.files["beer-tts-back.png"])).convert("RGB")
    assert sheet.crop((9 * w, 2 * h, 10 * w, 3 * h)).tobytes() == back.tobytes()


def test_two_decks_combined_in_one_save_never_share_a_key(beer_export: Any) -> None:
    """Two exported decks on one table: each card still finds its own sheet."""
    lunch = json.loads(export_tts(load_set("lunch"), dpi=30).files["lunch-tts.json"])
    beer = json.loads(beer_export.files["beer-tts.json"])
    table = {**beer, "ObjectStates": beer["ObjectStates"] + lunch["ObjectStates"]}
    keys = [k for deck in table["ObjectStates"] for k in deck["CustomDeck"]]
    assert len(keys) == len(set(keys))
    faces = {}
    for deck in table["ObjectStates"]:
        check_saved_deck(deck)
        for card in deck["ContainedObjects"]:
            for key, entry in card["CustomDeck"].items():
                assert faces.setdefault(key, entry["FaceURL"]) == entry["FaceURL"]
    assert {f.split("-tts")[0] for f in faces.values()} == {"beer", "lunch"}
    guids = [o["GUID"] for deck in table["ObjectStates"] for o in [deck, *deck["ContainedObjects"]]]
    assert len(guids) == len(set(guids))


def test_deck_key_follows_content_and_is_stable(beer_export: Any) -> None:
    again = export_tts(load_set("beer"), dpi=40)
    assert again.files["beer-tts.json"] == beer_export.files["beer-tts.json"]
    other = export_tts(load_set("beer"), dpi=30)  # different images, different key
    key = next(iter(json.loads(other.files["beer-tts.json"])["ObjectStates"][0]["CustomDeck"]))
    assert key not in json.loads(beer_export.files["beer-tts.json"])["ObjectStates"][0]["CustomDeck"]


def test_more_designs_than_one_sheet_holds_go_on_a_second_sheet() -> None:
    cs = load_set("lunch")
    many = [replace(c, name=f"{c.name} {k}", number=k * len(cs.cards) + i + 1)
            for k in range(3) for i, c in enumerate(cs.cards)]
    big = replace(cs, cards=tuple(many[:DESIGNS_PER_SHEET + 3]))
    result = export_tts(big, dpi=20)
    deck = json.loads(result.files["lunch-tts.json"])["ObjectStates"][0]
    check_saved_deck(deck)
    assert result.sheets == 2 and len(deck["CustomDeck"]) == 2
    sizes = sorted((e["NumWidth"], e["NumHeight"]) for e in deck["CustomDeck"].values())
    assert sizes == [grid_of(3), (10, 7)] == [(4, 1), (10, 7)]
    assert len(set(deck["DeckIDs"])) == DESIGNS_PER_SHEET + 3


def test_sheets_stay_within_4096_px_unless_asked(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["export", "tts", "--set", "lunch", "--out", str(tmp_path), "--dpi", "200"])
    assert res.exit_code == 0, res.output
    sheet = Image.open(tmp_path / "lunch" / "tts" / "lunch-tts-faces-1.png")
    assert max(sheet.size) <= MAX_SHEET_PX
    assert f"over the {MAX_SHEET_PX} px" not in res.output
    res = CliRunner().invoke(main, ["export", "tts", "--set", "lunch", "--out", str(tmp_path), "--dpi", "200",
                                    "--large-sheets"])
    assert res.exit_code == 0, res.output
    sheet = Image.open(tmp_path / "lunch" / "tts" / "lunch-tts-faces-1.png")
    assert sheet.size[0] == 10 * round(63.5 / 25.4 * 200)
    assert "warning:" in res.output and f"over the {MAX_SHEET_PX} px" in res.output


def test_cards_shrink_only_as_much_as_their_own_grid_needs() -> None:
    assert fit_card_px((500, 700), grid_of(69), MAX_SHEET_PX) == (409, 573)  # 10 x 7: width and height limit
    assert fit_card_px((500, 700), grid_of(5), MAX_SHEET_PX) == (500, 700)  # 6 x 1 fits as it is
    assert fit_card_px((500, 700), grid_of(69), None) == (500, 700)


def test_cli_writes_files_with_url_base(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["export", "tts", "--set", "beer", "--out", str(tmp_path), "--dpi", "30",
                                    "--url-base", "https://example.invalid/deck/"])
    assert res.exit_code == 0, res.output
    saved = json.loads((tmp_path / "beer" / "tts" / "beer-tts.json").read_text())
    entry = next(iter(saved["ObjectStates"][0]["CustomDeck"].values()))
    assert entry["BackURL"] == "https://example.invalid/deck/beer-tts-back.png"
    assert entry["FaceURL"] == "https://example.invalid/deck/beer-tts-faces-1.png"
    folder = tmp_path / "beer" / "tts"
    res = CliRunner().invoke(main, ["export", "tts", "--set", "beer", "--out", str(tmp_path), "--dpi", "30"])
    entry = next(iter(json.loads((folder / "beer-tts.json").read_text())["ObjectStates"][0]["CustomDeck"].values()))
    assert entry["FaceURL"] == (folder / "beer-tts-faces-1.png").resolve().as_uri()
