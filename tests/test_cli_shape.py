"""One shape for every message and option: `path:line:col: error: ...`, long values shortened, --out a
folder everywhere (rules and schema also take a file), choices shown and checked one way, and commands that
say what they did."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from cardgen.checks import load_set
from cardgen.cli.main import main
from cardgen.errors import CardgenError, Diagnostic, error_text, shorten
from cardgen.export.gallery_files import gallery_files
from cardgen.loader.schema import SCHEMA_FILE, schema_json
from cardgen.numbering import card_file_stem
from cardgen.render.preview import preview_files
from cardgen.render.sheets import PrintOptions

SET_YAML = "name: w\ntitle: W\nextends: lunch\n"


def _card(name: str) -> str:
    return f"cards:\n  - name: {name}\n    type: basic\n    count: 1\n    damage: 2\n    source: designed\n"


def _set(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / "w"
    folder.mkdir()
    (folder / "set.yaml").write_text(SET_YAML, encoding="utf-8")
    (folder / "cards.yaml").write_text(_card(name), encoding="utf-8")
    return folder


def test_build_errors_have_the_validate_shape_with_a_column(tmp_path: Path) -> None:
    folder = _set(tmp_path, "W" * 45)  # valid for the schema, too wide for the name band
    res = CliRunner().invoke(main, ["build", "--set", str(folder), "--out", str(tmp_path / "out")])
    assert res.exit_code == 1
    line = res.stderr.strip()
    assert line.startswith(f"{folder / 'cards.yaml'}:2:5: error: card '{'W' * 45}': its name does not fit"), line
    assert not (tmp_path / "out").exists()


def test_a_10000_character_value_gives_a_short_line(tmp_path: Path) -> None:
    folder = _set(tmp_path, "N" * 10_000)
    for args in (["validate", "--no-sim"], ["build", "--out", str(tmp_path / "out")]):
        res = CliRunner().invoke(main, [args[0], "--set", str(folder), *args[1:]])
        assert res.exit_code == 1
        first = res.stderr.splitlines()[0]
        assert ":2:11: error: card 'NNN" in first and "(10,000 characters)" in first, first
        assert len(first) < 300


def test_error_text_shapes() -> None:
    assert error_text(CardgenError("a b/c.yaml:3:4: card 'X': no")) == "a b/c.yaml:3:4: error: card 'X': no"
    assert error_text(CardgenError("t/card_text.j2:7:1: error: too slow")) == "t/card_text.j2:7:1: error: too slow"
    assert error_text(CardgenError("set x does not load: a.yaml:1:2: bad")) == \
        "error: set x does not load: a.yaml:1:2: bad"
    assert str(Diagnostic("f.yaml", 1, 2, "name 'abc'")) == "f.yaml:1:2: error: name 'abc'"
    assert shorten("x" * 61) == "x" * 40 + "..." + "x" * 17 + " (61 characters)"
    assert shorten("short") == "short"


def test_usage_errors_have_the_same_shape_through_the_entry_point(tmp_path: Path) -> None:
    import subprocess
    import sys

    res = subprocess.run([sys.executable, "-m", "cardgen.cli.main", "build", "--set", "lunch", "--duplex", "lnog"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert res.returncode == 1
    assert res.stderr.strip() == ("error: Invalid value for '--duplex': 'lnog' is not one of 'long', 'short'. "
                                  "(did you mean 'long'?) (see python -m cardgen.cli.main build --help)"), res.stderr


@pytest.mark.parametrize("command", ["build", "preview", "rules"])
def test_paper_is_a_choice_shown_the_same_way(command: str) -> None:
    res = CliRunner().invoke(main, [command, "--help"])
    assert "--paper [a4|letter]" in res.output


def test_every_out_option_names_a_folder_by_default() -> None:
    for path in (["build"], ["preview"], ["rules"], ["export", "tts"], ["export", "gallery"]):
        res = CliRunner().invoke(main, [*path, "--help"])
        assert "--out PATH" in res.output and "[default: output]" in " ".join(res.output.split()), path


def test_rules_out_takes_a_folder_or_a_pdf_file(tmp_path: Path) -> None:
    folder = tmp_path / "prints"
    folder.mkdir()
    res = CliRunner().invoke(main, ["rules", "--set", "lunch", "--out", str(folder)])
    assert res.exit_code == 0, res.output
    assert (folder / "lunch" / "lunch-rules.pdf").is_file()  # as `build --out prints` lays it out
    assert str(folder / "lunch" / "lunch-rules.pdf") in res.output
    res = CliRunner().invoke(main, ["rules", "--set", "lunch", "--out", str(tmp_path / "page.pdf")])
    assert res.exit_code == 0 and (tmp_path / "page.pdf").read_bytes() == \
        (folder / "lunch" / "lunch-rules.pdf").read_bytes()


def test_schema_out_says_what_it_wrote(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["schema", "--out", str(tmp_path / "s.json")])
    assert res.exit_code == 0 and res.output.startswith(f"{tmp_path / 's.json'}: JSON Schema")
    assert (tmp_path / "s.json").read_text(encoding="utf-8") == schema_json()
    res = CliRunner().invoke(main, ["schema", "--out", str(tmp_path)])
    assert res.exit_code == 0 and json.loads((tmp_path / SCHEMA_FILE).read_text(encoding="utf-8"))


def test_replay_says_when_its_expectations_pass(tmp_path: Path) -> None:
    scenario = Path(__file__).parent / "scenarios" / "classic-humiliation-chain.yaml"
    res = CliRunner().invoke(main, ["replay", str(scenario)])
    assert res.exit_code == 0
    assert "every expectation met" in res.stderr and json.loads(res.stdout)


def test_preview_of_one_card_keeps_the_contact_sheet(tmp_path: Path) -> None:
    out = str(tmp_path)
    assert CliRunner().invoke(main, ["preview", "--set", "lunch", "--dpi", "18", "--out", out]).exit_code == 0
    sheet = tmp_path / "lunch" / "lunch-contact.png"
    whole = sheet.read_bytes()
    res = CliRunner().invoke(main, ["preview", "--set", "lunch", "--card", "Jab", "--dpi", "18", "--out", out])
    assert res.exit_code == 0, res.output
    assert sheet.read_bytes() == whole
    one = tmp_path / "lunch" / "lunch-contact-01-jab.png"
    assert one.is_file() and Image.open(one).width < Image.open(sheet).width


def test_preview_and_gallery_name_every_card_alike() -> None:
    beer = load_set("beer")
    preview = {Path(k).name for k in preview_files(beer, PrintOptions(), 18) if "/preview/" in k}
    gallery = {Path(k).name for k in gallery_files(beer, dpi=18) if "/gallery/" in k}
    assert preview == gallery == {f"{card_file_stem(c, beer)}.png" for c in beer.cards}
    assert len(preview) == len(beer.cards)  # one file per card: Kick² and Kick⁴ stay apart
