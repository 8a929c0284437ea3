"""The offline gallery: generated HTML checked as text, and in a real headless browser when one is installed."""

from __future__ import annotations

import html
import html.parser
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cardtext import rules_text
from cardgen.checks import load_set
from cardgen.cli.main import main
from cardgen.render.face_layout import bundled
from cardgen.render.sheets import PrintOptions, resolve_layout

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


_HARNESS = """<!doctype html><html><body>
<iframe id="phone" src="index.html" style="width:390px;height:844px;border:0"></iframe>
<iframe id="desk" src="index.html" style="width:1280px;height:900px;border:0"></iframe>
<pre id="result">pending</pre>
<script>
function measure(frame) {
  var doc = frame.contentDocument, win = frame.contentWindow, out = {width: win.innerWidth, images: []};
  doc.querySelectorAll("#cards figure img").forEach(function (img) {
    var r = img.getBoundingClientRect();
    out.images.push({name: img.alt, w: r.width, h: r.height, complete: img.complete && img.naturalWidth > 0});
  });
  var type = doc.getElementById("type"), search = doc.getElementById("search");
  function visible(sel) {
    return Array.prototype.filter.call(doc.querySelectorAll(sel), function (el) {
      return el.getBoundingClientRect().height > 0; }).map(function (el) { return el.dataset.name; });
  }
  type.value = "TYPE_KEY"; type.dispatchEvent(new Event("change"));
  out.byType = visible("#cards figure"); out.rowsByType = visible("#card-table tbody tr");
  type.value = ""; search.value = "SEARCH_WORD"; search.dispatchEvent(new Event("input"));
  out.bySearch = visible("#cards figure");
  search.value = ""; search.dispatchEvent(new Event("input"));
  var sort = doc.getElementById("sort"); sort.value = "name"; sort.dispatchEvent(new Event("change"));
  out.byName = visible("#cards figure");
  sort.value = "damage"; sort.dispatchEvent(new Event("change"));
  out.byDamage = visible("#cards figure");
  out.all = visible("#cards figure");
  return out;
}
window.addEventListener("load", function () {
  try {
    document.getElementById("result").textContent = JSON.stringify(
      {phone: measure(document.getElementById("phone")), desk: measure(document.getElementById("desk"))});
  } catch (e) { document.getElementById("result").textContent = "error " + e; }
});
</script></body></html>"""


@pytest.mark.skipif(CHROMIUM is None, reason="no headless Chromium installed (.ci/run installs it)")
def test_gallery_in_headless_chromium_keeps_card_proportions_and_filters(gallery: Path) -> None:
    """At phone (390 px) and desktop (1280 px) widths: every image at the card's proportions, and the
    type filter, search and sorts show exactly the cards they should."""
    cs = load_set("lunch")
    layout = resolve_layout(PrintOptions(), bundled().face)
    want_ratio = layout.card.height / layout.card.width
    weapon = [c.name for c in cs.cards if c.type == "weapon"]
    assert weapon and len(weapon) < len(cs.cards)
    word = "choke"
    by_word = [c.name for c in cs.cards if word in (c.name + " " + rules_text(c, cs) + " " + (c.flavour or "")).lower()]
    assert by_word and len(by_word) < len(cs.cards)
    harness = gallery.parent / "harness.html"
    harness.write_text(_HARNESS.replace("TYPE_KEY", "weapon").replace("SEARCH_WORD", word), encoding="utf-8")
    assert CHROMIUM is not None
    profile = gallery.parent.parent / "chromium-profile"
    res = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                          "--disable-background-networking", "--disable-component-update", "--disable-sync",
                          "--allow-file-access-from-files", "--virtual-time-budget=20000",
                          f"--user-data-dir={profile}", "--window-size=1700,1000", "--dump-dom", harness.as_uri()],
                         check=True, capture_output=True, timeout=120, text=True)
    m = re.search(r'<pre id="result">(.*?)</pre>', res.stdout, re.S)
    assert m is not None, res.stdout[-2000:]
    result = json.loads(html.unescape(m.group(1)))
    order_by_number = [c.name for c in cs.cards]
    for view, width in (("phone", 390), ("desk", 1280)):
        got = result[view]
        assert got["width"] == width
        assert len(got["images"]) == len(cs.cards)
        for im in got["images"]:
            assert im["complete"], im
            assert im["w"] > 100, im  # legible even on a phone
            assert abs(im["h"] / im["w"] - want_ratio) < 0.02 * want_ratio, (view, im)
        assert got["byType"] == weapon
        assert got["rowsByType"] == weapon
        assert got["bySearch"] == by_word
        assert got["byName"] == sorted(order_by_number, key=lambda n: (n.lower(), order_by_number.index(n))) or \
            got["byName"] == sorted(order_by_number, key=str.lower)
        damages = [cs.card(n).total_damage for n in got["byDamage"]]
        assert damages == sorted(damages, reverse=True)
        assert sorted(got["all"]) == sorted(order_by_number)
