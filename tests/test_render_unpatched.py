"""Rendering without patched libraries, checked from what is written and what is imported:
no module swaps `re.compile`, the print file is one document drawn by one canvas (nothing joined), the bundled
templates come through Jinja's own loader and cache, and the layout is typed data refused at its line."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from cardgen.cli.build_cmd import command as build_command
from cardgen.paths import templates_dir
from cardgen.render.face_layout import LayoutFileError, bundled, read_colours, read_face

PROBE = """
import re, sys
real = re.compile
import cardgen, cardgen.cli.main, cardgen.render.build, cardgen.render.rules_layout, cardgen.yaml_lib
from cardgen.cli.main import main
try:
    main(["build", "--set", "beer", "--out", sys.argv[1]])
except SystemExit as exc:
    assert exc.code == 0, exc.code
import reportlab.platypus.paragraph as paragraph, reportlab.lib.textsplit as textsplit, yaml.reader as reader
assert re.compile is real and re.compile.__module__ == "re", re.compile
for module in (paragraph, textsplit, reader, reader.Reader):
    for name, value in vars(module).items():
        kind = type(value).__name__
        assert "Pattern" not in kind or isinstance(value, re.Pattern), (module, name, kind)
assert isinstance(reader.Reader.NON_PRINTABLE, re.Pattern)
assert not [m for m in sys.modules if m.startswith(("cardgen.lazy_patterns", "cardgen.precompiled",
                                                     "cardgen.compiled_templates", "cardgen.render.pdfjoin"))]
print("stdlib re.compile")
"""


def test_importing_cardgen_and_building_leaves_re_compile_the_stdlibs(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("stdlib re.compile")
    assert (tmp_path / "beer" / "beer-print.pdf").is_file()


def _objects(data: bytes) -> list[bytes]:
    return re.findall(rb"\d+ 0 obj\b(.*?)endobj", data, re.S)


@pytest.fixture(scope="module")
def beer_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("unpatched")
    from click.testing import CliRunner

    result = CliRunner().invoke(build_command, ["--set", "beer", "--out", str(out), "--backs"])
    assert result.exit_code == 0, result.output
    return out / "beer"


def test_the_print_file_is_one_document_written_by_one_canvas(beer_build: Path) -> None:
    data = (beer_build / "beer-print.pdf").read_bytes()
    assert data.count(b"\nxref\n") == 1 and data.count(b"trailer") == 1 and data.count(b"startxref") == 1
    objects = _objects(data)
    trees = [o for o in objects if re.search(rb"/Type /Pages\b", o)]
    assert len(trees) == 1  # one flat page tree, as one canvas writes it
    printed = PdfReader(beer_build / "beer-print.pdf")
    cards = PdfReader(beer_build / "beer-cards.pdf")
    assert int(re.search(rb"/Count (\d+)", trees[0]).group(1)) == len(printed.pages)  # type: ignore[union-attr]
    # each face embedded once for the whole file: a joined file carries one subset a face for every part
    faces = re.findall(rb"/BaseFont /(\w+\+[\w-]+)", data)
    embedded = [o for o in objects if b"/Length1" in o]
    assert len(set(faces)) == len(embedded) == 5
    assert len(set(re.sub(rb"^\w+\+", b"", f) for f in faces)) == 5  # Sans, bold, oblique, condensed and its bold
    # rules, the assembly page on its reverse, then the very card pages of the cards file, in order
    assert len(printed.pages) == 2 + len(cards.pages)
    assert "Rules at a glance" in printed.pages[0].extract_text()
    assert "Making the deck" in printed.pages[1].extract_text()
    for i, page in enumerate(cards.pages):  # the same but for the label: each counts its own file's pages
        assert printed.pages[2 + i].extract_text().replace(f"page {i + 3} of {len(printed.pages)}", "") == \
            page.extract_text().replace(f"page {i + 1} of {len(cards.pages)}", ""), i
        assert printed.pages[2 + i].mediabox == page.mediabox
    assert printed.metadata is not None and printed.metadata.producer == cards.metadata.producer  # type: ignore[union-attr]
    assert printed.metadata.title == "Beer Money: print-and-play"


def test_the_rules_part_of_the_print_file_is_the_rules_file_drawn_again(beer_build: Path) -> None:
    rules = PdfReader(beer_build / "beer-rules.pdf")
    printed = PdfReader(beer_build / "beer-print.pdf")
    assert len(rules.pages) == 1
    assert printed.pages[0].extract_text() == rules.pages[0].extract_text()
    assert printed.pages[0].mediabox == rules.pages[0].mediabox


def test_the_template_cache_changes_no_byte(tmp_path: Path) -> None:
    """Jinja's bytecode cache (cardgen.jinja_cache) only spares compiling: a build without it writes the same."""
    for name, cache in (("with", "1"), ("without", "0")):
        env = {**os.environ, "CARDGEN_TEMPLATE_CACHE": cache}
        subprocess.run([sys.executable, "-m", "cardgen.cli.main", "build", "--set", "lunch", "--out",
                        str(tmp_path / name)], check=True, capture_output=True, env=env)
    for path in sorted((tmp_path / "with" / "lunch").iterdir()):
        assert path.read_bytes() == (tmp_path / "without" / "lunch" / path.name).read_bytes(), path.name


def test_a_layout_file_missing_a_key_or_misspelling_one_fails_at_load_with_its_line(tmp_path: Path) -> None:
    bundled_face = templates_dir() / "layout" / "face.yaml"
    text = bundled_face.read_text(encoding="utf-8")
    broken = tmp_path / "face.yaml"
    broken.write_text(text.replace("  scale_bar_mm: 50\n", "  scale_bar_nm: 50\n"), encoding="utf-8")
    line = text[:text.index("  scale_bar_mm: 50\n")].count("\n") + 1
    with pytest.raises(LayoutFileError) as info:
        read_face(broken)
    assert str(info.value) == (f"{broken}:{line}:3: error: unknown layout key 'sheet.scale_bar_nm' "
                               "(did you mean 'scale_bar_mm'?)")
    broken.write_text(text.replace("  fold_gutter: 6.0", "  # fold_gutter: 6.0"), encoding="utf-8")
    with pytest.raises(LayoutFileError, match=r"face.yaml:\d+:3: error: 'sheet' lacks 'fold_gutter'"):
        read_face(broken)
    colours = tmp_path / "colours.yaml"
    colours.write_text('badges:\n  stun: "#C62828"\n', encoding="utf-8")
    with pytest.raises(LayoutFileError, match=r"colours.yaml:2:3: error: unknown layout key 'badges.stun' "
                                              r"\(did you mean 'stuns'\?\)"):
        read_colours(colours, bundled().colours)


def test_the_print_file_draws_the_rules_pages_again_without_laying_them_out(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The rules file's drawn layout is drawn again on the print canvas (platypus's drawOn): no new layout, and
    the same page text as the rules file, whether the plan was just made or remembered."""
    from cardgen.checks import load_set
    from cardgen.render import rules_page
    from cardgen.render.build import print_pdf
    from cardgen.render.session import RenderSession
    from cardgen.render.sheets import PrintOptions, cards_pdf

    cs, opts = load_set("lunch"), PrintOptions(proof=True)
    session = RenderSession.for_set(cs.path)
    sheets = cards_pdf(cs, opts, session=session)
    plan = rules_page.rules_plan(cs, opts.paper)
    calls: list[object] = []
    monkeypatch.setattr(rules_page, "render", lambda *a, **k: calls.append(a))
    first = print_pdf(session, cs, opts, sheets.layout, plan)
    again = print_pdf(RenderSession.for_set(cs.path), cs, opts, sheets.layout, plan)
    assert not calls and first == again
    (tmp_path / "print.pdf").write_bytes(first)
    (tmp_path / "rules.pdf").write_bytes(plan.pdf)
    assert (PdfReader(tmp_path / "print.pdf").pages[0].extract_text()
            == PdfReader(tmp_path / "rules.pdf").pages[0].extract_text())
