"""The rest of a deck's words in its language: the PDFs' document information and the print
file's bookmarks, the offline gallery page, and `check_text` reading a hand-written text in the set's language.

Each test reads the written files back (PDF /Info and /Outlines through pypdf, the gallery's HTML).
"""

from __future__ import annotations

import html.parser
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from cardgen.cardtext import check_text, reading
from cardgen.checks import load_set
from cardgen.checks.language import in_language
from cardgen.cli.main import main
from cardgen.errors import SetError


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output + (result.stderr if result.stderr_bytes else "")


def _info(path: Path) -> dict[str, str]:
    meta = PdfReader(path).metadata
    assert meta is not None
    return {k: str(v) for k, v in meta.items()}


def _outline(path: Path) -> list[str]:
    out: list[str] = []

    def walk(items: list[object]) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                out.append(str(getattr(item, "title", "")))

    walk(PdfReader(path).outline)
    return out


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = {}
    for lang in ("en", "de"):
        folder = tmp_path_factory.mktemp(f"build-{lang}")
        code, said = _run("build", "--set", "beer", "--lang", lang, "--out", str(folder))
        assert code == 0, said
        out[lang] = folder / "beer"
    return out


def _file(builds: dict[str, Path], lang: str, kind: str) -> Path:
    """A build's file: `beer-print.pdf` in English, `beer-de-print.pdf` in German (beside the English one)."""
    return builds[lang] / f"beer{'' if lang == 'en' else '-' + lang}-{kind}.pdf"


def test_pdf_titles_subjects_and_keywords_follow_the_language(builds: dict[str, Path]) -> None:
    assert _info(_file(builds, "de", "cards"))["/Title"] == "Beer Money: Kartenbögen"
    assert _info(_file(builds, "de", "cards"))["/Subject"] == "110 Karten aus beer, Zettel auf A4"
    assert _info(_file(builds, "de", "print"))["/Title"] == "Beer Money: zum Selbstdrucken"
    assert _info(_file(builds, "de", "print"))["/Subject"] == "beer: Regelseite und Kartenbögen"
    assert _info(_file(builds, "de", "rules"))["/Title"] == "Beer Money – Regeln"
    assert _info(_file(builds, "de", "cards"))["/Keywords"] == "Print and Play, Karten, Kartenspiel"
    # English as it always was (the same bytes as before this change)
    assert _info(_file(builds, "en", "cards"))["/Title"] == "Beer Money: card sheets"
    assert _info(_file(builds, "en", "cards"))["/Subject"] == "110 cards of beer, slip on A4"
    assert _info(_file(builds, "en", "print"))["/Title"] == "Beer Money: print-and-play"
    assert _info(_file(builds, "en", "rules"))["/Title"] == "Beer Money – rules"
    assert _info(_file(builds, "en", "cards"))["/Keywords"] == "print and play, cards"


def test_the_print_files_bookmarks_follow_the_language(builds: dict[str, Path]) -> None:
    de = _outline(_file(builds, "de", "print"))
    en = _outline(_file(builds, "en", "print"))
    assert de[:3] == ["Regeln", "So entsteht das Deck", "Karten"]
    assert en[:3] == ["Rules", "Making the deck", "Cards"]
    labels = load_set("beer").types
    german = in_language(load_set("beer"), "de").types
    assert sorted(t.label for t in labels.values()) == sorted(en[3:])  # each type where its cards start
    assert sorted(t.label for t in german.values()) == sorted(de[3:]) != sorted(en[3:])


class _Page(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.lang = ""
        self.texts: list[str] = []
        self.attrs: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "html":
            self.lang = a.get("lang", "")
        if "id" in a:
            self.attrs.update({f"{a['id']}.{k}": v for k, v in a.items()})

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.texts.append(data.strip())


def test_the_gallery_page_follows_the_language(tmp_path: Path) -> None:
    pages = {}
    for lang in ("de", "en"):
        code, said = _run("export", "gallery", "--set", "classic", "--lang", lang, "--out", str(tmp_path / lang))
        assert code == 0, said
        page = _Page()
        page.feed((tmp_path / lang / "classic" / "index.html").read_text(encoding="utf-8"))
        pages[lang] = page
    de, en = pages["de"], pages["en"]
    assert de.lang == "de" and en.lang == "en"
    words = " | ".join(de.texts)
    for german in ("Kartengalerie", "Suche", "alle Arten", "nach Nummer", "Nr.", "Wirkung", "Quelle", "gesamt",
                   "von cardgen erzeugt aus"):
        assert german in words, german
    assert de.attrs["search.placeholder"] == "Name oder Text"
    assert "40 von 40 Motiven" in de.texts and "104 Karten in 40 Motiven · von cardgen erzeugt aus" in de.texts
    assert de.attrs["shown.data-words"] == "{shown} von {all} Motiven"  # what the page's script fills in
    english = " | ".join(en.texts)
    assert "card gallery" in english and "Search" in english and not {"Suche", "Quelle"} & set(en.texts)
    assert en.attrs["shown.data-words"] == "{shown} of {all} designs"


def test_check_text_reads_german_phrases_numbers_and_keywords() -> None:
    cs = in_language(load_set("lunch"), "de")
    jab = cs.card("Jab")  # 1 damage, may be dodged or blocked
    from dataclasses import replace

    def problems(text: str) -> list[str]:
        return check_text(replace(jab, text=text), cs)

    assert problems("Verursacht 1 Schaden. Abwehr: AUSWEICHEN oder BLOCKEN.") == []
    assert problems("Verursacht drei Schaden.") == ["text says 'VERURSACHT DREI' but the card's damage is 1"]
    assert problems("Hol dir 2 Marken zurück.") == ["text says 'HOL DIR 2' but the card's heal is none"]
    assert problems("Verursacht 1 Schaden, dann noch 5.") == [
        "text states 5 but the mechanics have no such number (they have 1)"]
    assert problems("Verursacht 1 Schaden. BETÄUBT 2Z.")[0] == "text says 'BETÄUBT 2Z' but the card's stuns is none"
    assert problems("Verursacht 1 Schaden. ENTWAFFNEN.") == ["text says ENTWAFFNEN but the mechanics do not have it"]
    assert problems("Verursacht 1 Schaden. Kann nicht abgewehrt werden.")[0].startswith(
        "text says it cannot be defended but it may be")
    assert problems("Ein Spieler verliert 1.") == []  # "ein" is an article, not the number one
    # the same card read in English does not see the German words, and English words are not German ones
    english = load_set("lunch")
    assert check_text(replace(jab, text="Verursacht drei Schaden."), english) == []
    assert problems("Deals 3.") == ["text states 3 but the mechanics have no such number (they have 1)"]  # digits
    assert problems("Stuns two turns.") == []  # English words mean nothing to the German reading
    assert set(reading("de").keywords.values()) == set(reading("en").keywords.values())


def test_a_translated_text_is_checked_at_its_line(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    (folder / "lang").mkdir(parents=True)
    (folder / "set.yaml").write_text("extends: lunch\nname: mine\ntitle: Mine\n", encoding="utf-8")
    (folder / "lang" / "de.yaml").write_text("cards:\n  Jab:\n    text: Verursacht 4 Schaden.\n", encoding="utf-8")
    with pytest.raises(SetError) as err:
        in_language(load_set(folder), "de")
    assert "de.yaml:3:11: error: cards.Jab.text: text says 'VERURSACHT 4' but the card's damage is 1" in str(err.value)
    code, said = _run("build", "--set", str(folder), "--lang", "de", "--out", str(tmp_path / "out"))
    assert code == 1 and "cards.Jab.text: text says 'VERURSACHT 4'" in said, said
    assert not list((tmp_path / "out").rglob("*.pdf"))


def test_a_german_set_is_checked_in_german(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    shutil.copytree(Path(load_set("lunch").path), folder)
    text = (folder / "set.yaml").read_text(encoding="utf-8")
    (folder / "set.yaml").write_text(re.sub(r"(?m)^name: .*$", "name: mine\nlanguage: de", text, count=1),
                                     encoding="utf-8")
    cards = folder / "1-basic.yaml"
    written = cards.read_text(encoding="utf-8")
    assert "{name: Jab, type: basic," in written
    cards.write_text(written.replace("{name: Jab, type: basic,", "{name: Jab, text: Verursacht zwei Schaden., "
                                     "type: basic,", 1), encoding="utf-8")
    code, said = _run("validate", "--set", str(folder), "--no-sim", "--no-balance")
    assert code == 1 and re.search(rf"{cards.name}:\d+:\d+: error: .*text says 'VERURSACHT ZWEI' but the card's "
                                   r"damage is 1", said), said
