"""The offline gallery: generated HTML checked as text, and in a real headless browser when one is installed."""

from __future__ import annotations

import html.parser
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from cardgen.cli.main import main
from cardgen.loader import load_set

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


class _Collect(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.imgs: list[str] = []
        self.rows = 0
        self.external: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "img":
            self.imgs.append(a.get("src") or "")
        if tag == "tr":
            self.rows += 1
        for key in ("src", "href"):
            v = a.get(key) or ""
            if "://" in v:
                self.external.append(v)


@pytest.fixture(scope="module")
def gallery(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("gallery")
    res = CliRunner().invoke(main, ["export", "gallery", "--set", "lunch", "--out", str(out)])
    assert res.exit_code == 0, res.output
    return out / "lunch" / "index.html"


def test_gallery_lists_every_card_with_an_existing_local_image(gallery: Path) -> None:
    cs = load_set("lunch")
    p = _Collect()
    p.feed(gallery.read_text(encoding="utf-8"))
    assert len(p.imgs) == len(cs.cards)
    assert not p.external  # readable offline
    for src in p.imgs:
        assert (gallery.parent / src).is_file()
    assert p.rows == len(cs.cards) + 2  # header + footer rows
    assert f">{cs.total}<" in gallery.read_text(encoding="utf-8")


@pytest.mark.skipif(CHROMIUM is None, reason="no headless Chromium installed (.ci/run installs it)")
def test_gallery_renders_card_images_in_headless_chromium(gallery: Path, tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    assert CHROMIUM is not None
    subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1200,900",
                    f"--screenshot={shot}", gallery.as_uri()], check=True, capture_output=True, timeout=120)
    img = Image.open(shot).convert("RGB")
    assert img.size == (1200, 900)
    # The basic-attack yellow only appears if the card images loaded (the table is below the fold).
    yellow = (0xF4, 0xC2, 0x0D)
    raw = img.tobytes()
    near = sum(1 for i in range(0, len(raw), 3)
               if all(abs(raw[i + k] - yellow[k]) < 24 for k in range(3)))
    assert near > 20_000
