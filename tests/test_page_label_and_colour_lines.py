"""Two faults of the look and sheets: a long set title's page label is shortened with an ellipsis,
never cut off (both languages); a faint ink of a set's own `layout/colours.yaml` is reported at its line there.

Read back from the written PDFs (the label's text run and where it is drawn) and from `validate`'s output.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.checks import load_set
from cardgen.cli.main import main
from cardgen.render.sheets import ELLIPSIS, fit_label
from tests.pdfops import pages, text_runs

LONG_EN = "The Extraordinarily Long Title of a Lunch Money Expansion!!"  # 59 characters: set.yaml allows 60
LONG_DE = "Das außerordentlich lange Titelblatt einer Lunch-Money-Erweiterung"


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output + (result.stderr if result.stderr_bytes else "")


def _long_set(tmp_path: Path) -> Path:
    folder = tmp_path / "longt"
    shutil.copytree(Path(load_set("lunch").path), folder)
    head = (folder / "set.yaml").read_text(encoding="utf-8")
    head = re.sub(r"(?m)^name: .*$", "name: longt", head, count=1)
    head = re.sub(r"(?m)^title: .*$", f'title: "{LONG_EN}"', head, count=1)
    (folder / "set.yaml").write_text(head, encoding="utf-8")
    de = (folder / "lang" / "de.yaml").read_text(encoding="utf-8")
    (folder / "lang" / "de.yaml").write_text(re.sub(r"(?m)^title: .*$", f'title: "{LONG_DE}"', de, count=1),
                                             encoding="utf-8")
    return folder


def test_fit_label_drops_the_set_then_shortens_the_title_and_keeps_the_page_whole() -> None:
    label = "set · A Long Title Here · page 3 of 12"
    assert fit_label(label, lambda t: True) == label
    assert fit_label(label, lambda t: len(t) <= 34) == "… A Long Title Here · page 3 of 12"
    assert fit_label(label, lambda t: len(t) <= 30) == "… A Long Title… · page 3 of 12"
    assert fit_label(label, lambda t: len(t) <= 16) == "… page 3 of 12"
    assert fit_label("x · Supercalifragilistic · page 1 of 2", lambda t: len(t) <= 24) == "… Superca… · page 1 of 2"
    assert fit_label("x · y", lambda t: False) == "… y"  # the page part is never shortened


@pytest.mark.parametrize(("lang", "title", "page"), [("en", LONG_EN, "page 1 of"), ("de", LONG_DE, "Seite 1 von")])
def test_a_long_title_is_shortened_with_an_ellipsis_on_the_sheet(tmp_path: Path, lang: str, title: str,
                                                                 page: str) -> None:
    folder = _long_set(tmp_path)
    code, said = _run("build", "--set", str(folder), "--lang", lang, "--proof", "--paper", "letter",
                      "--out", str(tmp_path / "out"))
    assert code == 0, said
    data = (tmp_path / "out" / "longt" / f"longt{'' if lang == 'en' else '-' + lang}-cards.pdf").read_bytes()
    label = next(t.strip() for p, t, _ in text_runs(data) if p == 0 and page in t)
    words = title.split()
    # the set's name went first, then the title's last words: what is left is the title's start, an ellipsis
    assert re.fullmatch(rf"{ELLIPSIS} (.+){ELLIPSIS} · {re.escape(page)} \d+", label), label
    kept = label.removeprefix(f"{ELLIPSIS} ").split(f"{ELLIPSIS} · ")[0]
    assert kept.split() == words[:len(kept.split())] and len(kept.split()) >= 2, label
    width = 215.9  # Letter, mm: the label is drawn whole inside the page's printable margin
    text = [e for e in pages(data)[0].events if e.kind == "text" and e.box[1] < 12.0 and e.box[0] > width / 2]
    assert text and all(e.box[0] >= 6.35 and e.box[2] <= width - 6.35 for e in text), [e.box for e in text]


def test_a_faint_ink_of_the_sets_colours_file_is_reported_at_its_line(tmp_path: Path) -> None:
    folder = tmp_path / "faint"
    (folder / "layout").mkdir(parents=True)
    (folder / "set.yaml").write_text("extends: lunch\nname: faint\ntitle: Faint\n", encoding="utf-8")
    (folder / "layout" / "colours.yaml").write_text('# a grey on the near-black value box\nvalue_text: "#555555"\n',
                                                     encoding="utf-8")
    code, said = _run("validate", "--set", str(folder), "--no-sim", "--no-balance")
    assert code == 1, said
    assert re.search(r"layout/colours\.yaml:2:13: error: text would be hard to read: value on its box: #555555 on "
                     r"#1F1F1F is \d\.\d\d:1, below 4\.5:1", said), said
    assert "set.yaml:1:1" not in said


def test_a_long_page_label_runs_left_under_the_cut_marks_before_it_is_shortened(tmp_path: Path) -> None:
    """The lunch + beer mix's label is longer than its slot (the last column's width): it is printed whole,
    along the free footer line to its left, crossing no cut mark, clear of the scale bar, inside the margin."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from cardgen.render.face_layout import bundled
    from cardgen.render.fonts import register_fonts
    from cardgen.render.sheets import PrintOptions, resolve_layout

    code, said = _run("build", "--set", "lunch", "--set", "beer", "--out", str(tmp_path))
    assert code == 0, said
    data = (tmp_path / "lunch+beer" / "lunch+beer-cards.pdf").read_bytes()
    layout = resolve_layout(PrintOptions(), bundled().face)
    sheet = bundled().face.sheet
    register_fonts()
    runs = [(p, t.strip()) for p, t, _ in text_runs(data) if " · page " in t]
    total = max(p for p, _ in runs) + 1
    assert [t for _, t in runs] == [f"lunch+beer · Lunch Money + Beer Money · page {n} of {total}"
                                    for n in range(1, total + 1)]
    width = stringWidth(runs[0][1], sheet.footer_font, sheet.footer_pt) * 25.4 / 72
    assert width > layout.footer.label.w  # longer than the slot: before, it lost the set's name and words
    for page in pages(data):
        label = next(e for e in page.events if e.kind == "text" and e.box[1] < layout.footer.label.top
                     and e.box[0] > layout.footer.bar.right)
        x0, x1 = label.box[0], label.box[0] + width
        y0, y1 = label.box[1] - 0.3 * label.width_mm, label.box[1] + label.width_mm
        assert layout.footer.bar.right < x0 and x1 <= layout.paper.width - 6.35 + 0.01
        marks = [e.outer() for e in page.events if e.kind == "stroke" and e.box[1] < layout.grid.y]
        assert marks, "the cut marks below the cards"
        assert not any(m[0] < x1 and x0 < m[2] and m[1] < y1 and y0 < m[3] for m in marks)
