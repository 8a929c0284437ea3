"""A language cardgen does not ship, from a set folder or the user's folder, without touching the tool:
`cardgen new-language` scaffolds it from English, a French deck builds from its set folder alone with a
read-only copy of the tool, its accented keywords are bold, its rules page breaks names only at hyphenation
points, and what a brought catalogue or template gets wrong is an error at its place, never a traceback."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen import messages
from cardgen.checks import load_set
from cardgen.checks.language import in_language
from cardgen.cli.main import main
from cardgen.language_scaffold import LanguageScaffoldError, new_language
from cardgen.paths import data_root
from cardgen.render.card_face import draw_card
from cardgen.render.fonts import register_fonts
from cardgen.render.geometry import Rect
from cardgen.render.rules_content import RulesTemplateError, page_markup
from cardgen.render.session import RenderSession
from cardgen.render.textfit import is_keyword

FRENCH_KEYWORDS = {"  dodge: [DODGE, DODGED, DODGES]\n  block: [BLOCK, BLOCKED, BLOCKS]\n":
                   "  dodge: [ESQUIVE, ESQUIVÉE]\n  block: [PARADE, PARÉE]\n",
                   "  dodge: DODGED\n  block: BLOCKED\n": "  dodge: ESQUIVÉE\n  block: PARÉE\n",
                   "stuns: [STUNS]": "stuns: [ÉTOURDIT]"}


def _french_set(folder: Path) -> Path:
    """A set extending Lunch Money with a French language of its own: scaffolded, keywords translated."""
    folder.mkdir(parents=True)
    (folder / "set.yaml").write_text("name: dejeuner\ntitle: Argent de poche\nextends: lunch\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["new-language", "fr", "--set", str(folder)])
    assert result.exit_code == 0, result.output
    catalogue = folder / "lang" / "fr" / messages.CATALOGUE_FILE
    text = catalogue.read_text(encoding="utf-8")
    for english, french in FRENCH_KEYWORDS.items():
        assert english in text
        text = text.replace(english, french)
    catalogue.write_text(text, encoding="utf-8")
    (folder / "lang" / "fr.yaml").write_text("title: Argent de poche\ntypes: {basic: Attaque de base}\n",
                                             encoding="utf-8")
    return folder


@pytest.fixture
def no_user_languages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(messages.LANGUAGES_ENV, str(tmp_path / "no-user-languages"))
    yield


def _read_only_copy(target: Path) -> Path:
    """The tool as an installed copy nobody may write to: its package and data, every write bit off."""
    for name in ("cardgen", "templates", "card_data", "fonts"):
        shutil.copytree(data_root() / name, target / name, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    for path in [target, *target.rglob("*")]:
        mode = path.stat().st_mode
        path.chmod(mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    return target


def test_a_french_deck_builds_from_its_set_folder_with_a_read_only_tool(tmp_path: Path,
                                                                         no_user_languages: None) -> None:
    deck = _french_set(tmp_path / "dejeuner")
    tool = _read_only_copy(tmp_path / "tool")
    before = {p: p.stat().st_mtime_ns for p in tool.rglob("*")}
    env = {**os.environ, "PYTHONPATH": str(tool), "CARDGEN_PURE": "1", "HOME": str(tmp_path),
           messages.LANGUAGES_ENV: str(tmp_path / "none")}
    code = "from cardgen.cli.entry import run; run()"
    try:
        done = subprocess.run([sys.executable, "-c", code, "build", "--set", str(deck), "--lang", "fr", "--out",
                               str(tmp_path / "out")], capture_output=True, text=True, env=env, cwd=tmp_path,
                              timeout=600)
        assert done.returncode == 0, done.stderr
        found = subprocess.run([sys.executable, "-c", "import cardgen; print(cardgen.__file__)"],
                               capture_output=True, text=True, env=env, cwd=tmp_path, check=True)
        assert found.stdout.strip().startswith(str(tool))  # the read-only copy ran, not the checkout
    finally:
        for path in [tool, *tool.rglob("*")]:
            path.chmod(path.stat().st_mode | stat.S_IWUSR)
    assert {p.name for p in (tmp_path / "out" / "dejeuner").iterdir()} >= {"dejeuner-fr-cards.pdf",
                                                                             "dejeuner-fr-rules.pdf",
                                                                             "dejeuner-fr-print.pdf"}
    assert {p: p.stat().st_mtime_ns for p in tool.rglob("*")} == before  # nothing of the tool was touched


def test_accented_keywords_are_bold_on_the_faces(tmp_path: Path, no_user_languages: None) -> None:
    cs = in_language(load_set(_french_set(tmp_path / "dejeuner")), "fr")
    register_fonts()
    log: list[str] = []
    s = RenderSession.bundled()
    draw_card(s, s.pen(None, log), cs.card("Jab"), cs, Rect(0.0, 0.0, 63.5, 88.9), 0.0)
    drawn = [line for line in log if line.startswith("text ")]
    assert any("Sans-Bold" in line and "'ESQUIVÉE'" in line for line in drawn), drawn
    assert any("Sans-Bold" in line and "'PARÉE.'" in line for line in drawn), drawn


def test_keywords_are_bold_in_any_script() -> None:
    assert is_keyword("ÉTOURDIT") and is_keyword("«ESQUIVÉE»,") and is_keyword("УКЛОН")
    assert not is_keyword("Étourdit") and not is_keyword("x2")
    assert is_keyword("「回避」", frozenset({"回避"})) and not is_keyword("回避")  # no capitals: the catalogue's words
    assert is_keyword("2T") and is_keyword("2Z") and not is_keyword("3D") and is_keyword("3D", turns="D")


def test_the_french_rules_page_breaks_names_only_at_hyphenation_points(tmp_path: Path,
                                                                        no_user_languages: None) -> None:
    from tests.test_words import test_no_bundled_rules_page_breaks_a_word_without_a_hyphen as no_bad_breaks

    deck = _french_set(tmp_path / "dejeuner")
    for paper in ("a4", "letter"):
        no_bad_breaks(str(deck), "fr", paper)


def test_a_user_language_serves_every_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(messages.LANGUAGES_ENV, str(tmp_path / "langs"))
    result = CliRunner().invoke(main, ["new-language", "xh", "--user"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "langs" / "xh" / messages.CATALOGUE_FILE).is_file()
    assert "xh" in messages.languages()
    cs = in_language(load_set("beer"), "xh")
    assert cs.language == "xh" and "Rules at a glance" in page_markup(cs)


def test_the_scaffold_refuses_what_it_cannot_make(tmp_path: Path) -> None:
    with pytest.raises(LanguageScaffoldError, match="ships 'de' already"):
        new_language("de", tmp_path)
    with pytest.raises(LanguageScaffoldError, match="not a language code"):
        new_language("../evil", tmp_path)
    new_language("fr", tmp_path)
    with pytest.raises(LanguageScaffoldError, match="already exists"):
        new_language("fr", tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fr"]  # no half-written folder left beside it
    result = CliRunner().invoke(main, ["new-language", "fr"])
    assert result.exit_code == 1 and "give --set FOLDER or --user" in result.output


def test_a_brought_catalogue_missing_a_key_is_an_error_at_its_file(tmp_path: Path, no_user_languages: None) -> None:
    deck = _french_set(tmp_path / "dejeuner")
    catalogue = deck / "lang" / "fr" / messages.CATALOGUE_FILE
    catalogue.write_text(catalogue.read_text(encoding="utf-8").replace("  either_half:", "  either_half_x:"),
                         encoding="utf-8")
    messages.catalogue.cache_clear()
    result = CliRunner().invoke(main, ["build", "--set", str(deck), "--lang", "fr", "--out", str(tmp_path / "o")])
    assert result.exit_code == 1
    assert f"{catalogue}:" in result.output and "has no 'face.either_half'" in result.output
    assert "Traceback" not in result.output


def test_a_brought_rules_template_runs_in_the_sandbox(tmp_path: Path, no_user_languages: None) -> None:
    deck = _french_set(tmp_path / "dejeuner")
    page = deck / "lang" / "fr" / "rules" / "page.j2"
    page.write_text("{{ cycler.__init__.__globals__ }}\n", encoding="utf-8")
    cs = in_language(load_set(deck), "fr")
    with pytest.raises(RulesTemplateError, match=r"page\.j2:1:1: error: template tried to reach outside the sandbox"):
        page_markup(cs)


@pytest.mark.parametrize(("line", "stopped"), [
    ("{% for i in range(50000) %}{% for j in range(50000) %}{% endfor %}{% endfor %}",
     "template took more than 100,000 operations for one rules page"),
    ("{% for i in range(40000) %}xxxxxxxxxx{% endfor %}", "template produced more than 200000 characters for one "
                                                           "rules page"),
    ("{{ 'x' * 40000 ~ 'y' * 40000 }}", "template made a value of 80,000 characters (limit 50,000)"),
])
def test_a_hostile_brought_rules_template_is_stopped_at_its_line(tmp_path: Path, no_user_languages: None,
                                                                 line: str, stopped: str) -> None:
    deck = _french_set(tmp_path / "dejeuner")
    page = deck / "lang" / "fr" / "rules" / "page.j2"
    page.write_text("# Règles\n" + line + "\n", encoding="utf-8")
    out = tmp_path / "o"
    result = CliRunner().invoke(main, ["build", "--set", str(deck), "--lang", "fr", "--out", str(out)])
    assert result.exit_code == 1
    assert f"{page}:2:1: error: template stopped: {stopped}" in result.output, result.output
    assert "Traceback" not in result.output and not out.exists()


def test_a_brought_rules_template_within_its_budget_prints(tmp_path: Path, no_user_languages: None) -> None:
    deck = _french_set(tmp_path / "dejeuner")
    page = deck / "lang" / "fr" / "rules" / "page.j2"
    english = page.read_text(encoding="utf-8")
    cs = in_language(load_set(deck), "fr")
    before = page_markup(cs)
    page.write_text(english + "\n## Toutes les cartes\n{% for n in heal_names %}{{ n ~ ' ' }}{% endfor %}\n"
                    "{% for i in range(300) %}{{ loop.index ~ '<&' if loop.last }}{% endfor %}\n", encoding="utf-8")
    markup = page_markup(cs)
    assert markup.startswith(before.rstrip("\n"))  # the scaffolded page, unchanged by the metering
    assert "## Toutes les cartes\nFirst Aid" in markup
    assert "300&lt;&amp;" in markup  # escaped as the bundled pages' text is (the page is autoescaped)


def test_a_brought_catalogue_is_read_within_its_limit(tmp_path: Path, no_user_languages: None) -> None:
    deck = _french_set(tmp_path / "dejeuner")
    catalogue = deck / "lang" / "fr" / messages.CATALOGUE_FILE
    catalogue.write_text("# " + "x" * messages.MAX_CATALOGUE_BYTES + "\n", encoding="utf-8")
    messages.catalogue.cache_clear()
    result = CliRunner().invoke(main, ["build", "--set", str(deck), "--lang", "fr", "--out", str(tmp_path / "o")])
    assert result.exit_code == 1 and f"{catalogue}:1:1: error:" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "o").exists()
