"""What a print shop fixes and what it lets a designer choose: `--shop` with a `--dpi` the shop takes (MPC's
300, 600 and 900), a clear error for a size, bleed or resolution the shop does not take, art below the shop's
resolution refused naming the card and its figure, and every embedded font subset under a tag of its own."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image
from pypdf import PdfReader

from cardgen.checks import load_set
from cardgen.cli.main import main
from cardgen.errors import SetError
from cardgen.export.print_shop import export_print_shop
from cardgen.export.shops import shop

DESIGNER = Path(__file__).parent / "fixtures" / "designer_layout"


@pytest.mark.parametrize(("dpi", "px"), [(300.0, (822, 1122)), (600.0, (1644, 2244)), (900.0, (2466, 3366))])
def test_mpc_takes_300_600_and_900_dpi(dpi: float, px: tuple[int, int]) -> None:
    """The sizes; the 600 dpi files themselves are written by a fresh process below (this one stays small)."""
    assert shop("mpc").px_at(dpi) == px and dpi in shop("mpc").dpis


@pytest.mark.parametrize(("args", "message"), [
    (["--shop", "mpc", "--dpi", "450"], "MakePlayingCards (--shop mpc) takes 300, 600, 900 dpi, not 450"),
    (["--shop", "tgc", "--dpi", "600"], "The Game Crafter (--shop tgc) takes 300 dpi, not 600"),
    (["--shop", "mpc", "--size", "bridge"], "prints poker cards; leave out --size bridge"),
    (["--shop", "tgc", "--bleed", "2"], "fixes the bleed at 3.175 mm (37.5 px at 300 dpi); leave out --bleed 2"),
])
def test_an_option_the_shop_fixes_is_an_error(tmp_path: Path, args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["export", "print-shop", "--set", "beer", "--out", str(tmp_path), *args])
    assert result.exit_code == 1 and message in result.output and result.output.startswith("error: ")
    assert not any(tmp_path.iterdir())  # nothing written


def test_the_same_value_as_the_shop_is_no_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["export", "print-shop", "--set", "beer", "--out", str(tmp_path), "--shop",
                                       "tgc", "--size", "poker", "--bleed", "3.175", "--dpi", "300"])
    assert result.exit_code == 0, result.output


def test_art_below_the_shops_resolution_is_refused_for_the_shop(tmp_path: Path) -> None:
    folder = tmp_path / "low"
    shutil.copytree(DESIGNER, folder)
    with Image.open(folder / "art" / "plane.png") as img:
        img.resize((300, 200)).save(folder / "art" / "plane.png")
    cs = load_set(folder)
    with pytest.raises(SetError) as info:
        export_print_shop(cs, shop="mpc")
    text = str(info.value)
    assert "more.yaml:2:5: error: card 'Paper Plane': its art 'art/plane.png' (300 x 200 px) prints at" in text
    figure = re.search(r"prints at (\d+) dpi in its ([\d.]+) x ([\d.]+) mm box", text)
    assert figure is not None and int(figure.group(1)) < 300
    assert float(figure.group(2)) == pytest.approx(63.5 + 0.0, abs=0.1)  # full-bleed art: the card's width
    assert "the shop needs 300 dpi" in text
    export_print_shop(cs, "poker", 3.175, 300.0)  # without a shop it is the designer's call (validate warns)


def _subset_names(pdf: Path) -> list[str]:
    names: set[str] = set()
    for page in PdfReader(pdf).pages:
        fonts = page["/Resources"].get_object().get("/Font", {})
        for ref in fonts.get_object().values():
            names.add(str(ref.get_object()["/BaseFont"]))
    return sorted(names)


@pytest.mark.parametrize("name", ["beer", "lunch"])
def test_every_embedded_subset_has_a_tag_of_its_own(tmp_path: Path, name: str) -> None:
    result = CliRunner().invoke(main, ["build", "--set", name, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    for pdf in (tmp_path / name).glob("*.pdf"):
        names = _subset_names(pdf)
        assert len(names) >= 4
        tags = [n.split("+")[0] for n in names]
        assert all(re.fullmatch(r"/[A-Z]{6}", t) for t in tags), names
        assert len(set(tags)) == len(tags), f"{pdf.name}: {names}"
        PdfReader(pdf, strict=True)  # the file still reads strictly: its cross-references hold


def test_a_shop_export_with_art_runs_in_a_fresh_process(tmp_path: Path) -> None:
    """The art check lays each card out before anything else has loaded the faces."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", "from cardgen.cli.entry import run; run()", "export", "print-shop",
                           "--set", str(DESIGNER), "--out", str(tmp_path), "--shop", "mpc", "--dpi", "600"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "31 designs and 3 backs, 1644 x 2244 px" in done.stdout
    for name in ("01-jab.png", "back-weapon.png"):
        with Image.open(tmp_path / "playground" / "print-shop" / "cards" / name) as img:
            assert img.size == (1644, 2244)
            assert img.info["dpi"][0] == pytest.approx(600.0, abs=0.01)  # PNG stores dots per metre
