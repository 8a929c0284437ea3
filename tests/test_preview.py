"""`cardgen preview`: card PNGs cut from the rasterised PDF, and a contact sheet."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from PIL import Image

from cardgen.checks import load_set
from cardgen.cli.preview_cmd import command as preview_command


def test_one_card_and_contact_sheet(tmp_path: Path) -> None:
    result = CliRunner().invoke(preview_command, ["--set", "lunch", "--card", "jab", "--dpi", "60",
                                                  "--out", str(tmp_path)])
    assert result.exit_code == 0, result.stderr
    pngs = sorted((tmp_path / "lunch" / "preview").glob("*.png"))
    assert [p.name for p in pngs] == ["01-jab.png"]
    im = Image.open(pngs[0]).convert("RGB")
    # slip size (60 x 85 mm) at 60 dpi
    assert abs(im.width - 60 / 25.4 * 60) <= 1.5 and abs(im.height - 85 / 25.4 * 60) <= 1.5
    # the colour band at the top is the type colour from the set data
    want = load_set("lunch").types["basic"].colour.lstrip("#")
    r, g, b = (int(want[i:i + 2], 16) for i in (0, 2, 4))
    got = im.getpixel((im.width // 8, im.height // 30))
    assert isinstance(got, tuple)
    assert all(abs(x - y) <= 12 for x, y in zip(got, (r, g, b), strict=True)), got
    assert (tmp_path / "lunch" / "lunch-contact-01-jab.png").is_file()  # the set's own sheet is left alone


def test_whole_set_preview(tmp_path: Path) -> None:
    result = CliRunner().invoke(preview_command, ["--set", "lunch", "--dpi", "20", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.stderr
    assert len(list((tmp_path / "lunch" / "preview").glob("*.png"))) == len(load_set("lunch").cards)
    contact = Image.open(tmp_path / "lunch" / "lunch-contact.png")
    one = Image.open(next((tmp_path / "lunch" / "preview").glob("*.png")))
    assert contact.width > 5 * one.width and contact.height > 4 * one.height


def test_unknown_card_fails_cleanly(tmp_path: Path) -> None:
    result = CliRunner().invoke(preview_command, ["--set", "lunch", "--card", "Bazooka", "--out", str(tmp_path)])
    assert result.exit_code == 1
    assert "no card named 'Bazooka'" in result.stderr
    assert not list(tmp_path.iterdir())
