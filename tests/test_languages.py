"""Decks in another language: German built for every bundled set and read back."""

from __future__ import annotations

import re
import shutil
import string
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from cardgen import messages
from cardgen.cardtext import rules_text, summary
from cardgen.checks import load_set
from cardgen.checks.language import in_language
from cardgen.cli.build_cmd import command as build_command
from cardgen.cli.export_cmd import command as export_command
from cardgen.cli.list_cmd import command as list_command
from cardgen.cli.validate_cmd import command as validate_command
from cardgen.errors import SetError
from cardgen.iconwords import icon_word
from cardgen.paths import templates_dir
from cardgen.render.card_face import badges_of, value_of
from cardgen.render.icons import icons_of
from cardgen.render.session import RenderSession
from tests.pdfops import text_runs

SETS = ("classic", "lunch", "beer")
OTHER_LANGUAGES = tuple(lang for lang in messages.languages() if lang != "en")

# English words cardgen generates (card text, value captions, badges, footers, sheets, rules page, assembly
# page): none may be left in a German deck once the card and set names, which stay as published, are taken out.
ENGLISH = ("DAMAGE", "EACH TURN", "EVERY OTHER", "EVERYONE", "HEAL", "DRAW", "TRAVELS", "PASSES ON", "STUNS",
           "STUNNED", "DODGED", "BLOCKED", "DISARMED", "Deals", "May be", "Cannot be defended", "Returns to your hand",
           "Restore", "strikes", "Play as", "play either half", "after", "page", "actual size", "Rules at a glance",
           "Goal", "Setup", "Your turn", "Out of turn", "Card types", "Glossary", "Effect", "Value", "designs",
           "Making the deck", "Printing", "Cutting", "Sleeves", "Before you play", "backs", "print-and-play",
           "Healing", "Attack", "Weapon", "Counter", "Wrestling Move", "Special Event", "Basic Attack", "Defense",
           "Specialty", "counters", "life", "long", "short", "slip", "the", "and", "or", "you", "your", "any", "card",
           "cards", "turn")
GERMAN = ("SCHADEN", "Abwehr", "Regeln auf einen Blick", "Glossar", "Seite 1 von", "tatsächliche Größe")


def _keys(node: Any, prefix: str = "") -> dict[str, Any]:
    """Every leaf of a catalogue by dotted key (`plural_forms` is one: its keys are each language's own words)."""
    if isinstance(node, dict) and prefix != "plural_forms.":
        out: dict[str, Any] = {}
        for k, v in node.items():
            out.update(_keys(v, f"{prefix}{k}."))
        return out
    return {prefix.rstrip("."): node}


def _fields(value: Any) -> set[str]:
    texts = value if isinstance(value, list) else [value]
    return {f for t in texts for _, f, _, _ in string.Formatter().parse(str(t)) if f}


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_every_english_key_is_in_the_catalogue_with_the_same_fields(lang: str) -> None:
    english, other = _keys(messages.catalogue("en")), _keys(messages.catalogue(lang))
    assert OTHER_LANGUAGES, "cardgen ships a second language"
    missing = sorted(set(english) - set(other))
    assert not missing, f"{lang}.yaml lacks {missing}"
    assert not sorted(set(other) - set(english)), "a key English does not have is never printed"
    for key, value in english.items():
        if key == "plural_forms":
            assert isinstance(other[key], dict), key
            continue
        assert _fields(other[key]) == _fields(value), key
        assert isinstance(other[key], list) == isinstance(value, list), key


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_every_language_has_its_templates(lang: str) -> None:
    folder = messages.template_folder(lang)
    assert folder is not None
    for name in ("card_text.j2", "card_summary.j2", "rules/page.j2", "rules/glossary.j2"):
        assert (folder / name).is_file(), name


def test_german_text_labels_and_badges_come_from_the_mechanics() -> None:
    cs = in_language(load_set("beer"), "de")
    assert cs.language == "de" and cs.types["defense"].label == "Abwehr" and cs.rules.life_word == "Marken"
    assert rules_text(cs.card("Smack"), cs) == "Verursacht 2 Schaden. Abwehr: AUSWEICHEN oder BLOCKEN."
    assert summary(cs.card("Manhandle"), cs) == "nach GRAB; 3 Schaden; BETÄUBT 1Z; unabwehrbar"
    assert [b for b, _ in badges_of(RenderSession.bundled(), cs.card("Manhandle"), cs)] == ["nach GRAB",
                                                                                             "BETÄUBT 1Z"]
    assert value_of(cs.card("Choke & Puke"), cs.language).caption == "JEDEN ZUG"  # type: ignore[union-attr]
    assert cs.card("Love Tap").flavour == "Der gute Wille zählt."
    assert load_set("beer").card("Love Tap").flavour == "It's the thought that counts."  # English untouched
    classic = in_language(load_set("classic"), "de")
    assert rules_text(classic.card("Dodge/Hold"), classic).startswith("Spiele als AUSWEICHEN oder GRIFF.")


def test_keyword_icons_stand_before_the_german_words() -> None:
    cs = in_language(load_set("lunch"), "de")
    icons = icons_of(cs)
    forms = {i.key: i.forms for i in icons}
    assert forms["dodge"] == ("AUSWEICHEN",) and forms["disarm"] == ("ENTWAFFNEN",)
    hit = icon_word("AUSWEICHEN,", tuple(forms), forms)
    assert hit is not None and hit.key == "dodge" and hit.text == "AUSWEICHEN,"
    assert icon_word("DODGE", tuple(forms), forms) is None  # the English word is no keyword of a German deck
    assert all(not i.forms for i in icons_of(load_set("lunch")))  # English keeps DODGE, DODGED, DODGES


Runs = list[tuple[int, str, float]]


def _visible_text(data: bytes | Runs) -> str:
    """The text a reader sees, from a PDF's bytes or its `text_runs` (decoding a PDF's text is the slow part)."""
    runs = text_runs(data) if isinstance(data, bytes) else data
    return " ".join(text for _page, text, _size in runs).replace("\u00a0", " ")


def _sizes(runs: Runs) -> list[float]:
    return [size for _page, text, size in runs if text.replace("\u00a0", " ").strip()]


def _without_names(text: str, names: list[str]) -> str:
    """`text` without the names (which may wrap onto a second line of a table cell)."""
    for name in sorted(names, key=len, reverse=True):
        for form in (name, name.upper()):
            text = re.sub(r"\s+".join(re.escape(w) for w in form.split()), " ", text)
    return text


@pytest.mark.parametrize("refs", [("classic",), ("lunch",), ("beer",), ("lunch", "beer")])
def test_every_bundled_set_builds_in_german_and_reads_back_german(refs: tuple[str, ...], tmp_path: Path) -> None:
    args = [a for r in refs for a in ("--set", r)]
    result = CliRunner().invoke(build_command, [*args, "--lang", "de", "--out", str(tmp_path), "--backs"])
    assert result.exit_code == 0, result.stderr
    name = "+".join(refs)
    folder = tmp_path / name
    assert len(PdfReader(folder / f"{name}-de-rules.pdf").pages) == 1
    sets = [load_set(r) for r in refs]
    names = [c.name for cs in sets for c in cs.cards] + [n for cs in sets for n in (cs.name, cs.title)] + [
        "Lunch Money", "Beer Money", "cardgen"]
    texts: dict[str, str] = {}
    for kind in ("rules", "cards", "print"):
        runs = text_runs((folder / f"{name}-de-{kind}.pdf").read_bytes())
        text = texts[kind] = _visible_text(runs)
        assert min(_sizes(runs)) >= RenderSession.bundled().face.min_text_pt - 1e-6 == 7.0 - 1e-6, kind
        rest = _without_names(text, names)
        left = sorted({w for w in ENGLISH if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", rest)})
        assert not left, f"{kind}: English left in the German deck: {left}"
        if kind != "cards":
            assert "Regeln auf einen Blick" in text and "Glossar" in text, kind
    cards = texts["cards"]
    assert all(word in cards for word in ("SCHADEN", "Abwehr", "Seite 1 von", "tatsächliche Größe")), cards[:400]
    assert "cardgen · zum Selbstdrucken" in cards  # the line under the title on every back
    assert "So entsteht das Deck" in texts["print"]  # assembly page


def test_the_english_build_is_english(tmp_path: Path) -> None:
    """The same reading of an English build finds the English words: the check above can fail."""
    assert CliRunner().invoke(build_command, ["--set", "lunch", "--out", str(tmp_path)]).exit_code == 0
    text = _without_names(_visible_text((tmp_path / "lunch" / "lunch-print.pdf").read_bytes()),
                          [c.name for c in load_set("lunch").cards])
    assert {"DAMAGE", "Rules at a glance", "Glossary", "page", "Making the deck"} <= {
        w for w in ENGLISH if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)}
    assert not [w for w in GERMAN if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)]


@pytest.mark.parametrize("name", SETS)
def test_german_decks_pass_validate(name: str) -> None:
    """Fitting at every card size, the 7 pt minimum, contrast and the rules page on every paper, in German."""
    result = CliRunner().invoke(validate_command, ["--set", name, "--lang", "de", "--no-sim", "--no-balance"])
    assert result.exit_code == 0, result.stderr + result.stdout


def test_list_in_german() -> None:
    result = CliRunner().invoke(list_command, ["--set", "lunch", "--lang", "de"])
    assert result.exit_code == 0 and "eröffnet GRAB, Folge ohne Antwort" in result.stdout


def _broken_templates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edit: str) -> Path:
    """A copy of templates/ whose German catalogue has the line `edit` taken out."""
    copy = tmp_path / "templates"
    shutil.copytree(templates_dir(), copy)
    path = copy / "messages" / "de.yaml"
    text = path.read_text(encoding="utf-8")
    assert edit in text
    path.write_text(text.replace(edit, ""), encoding="utf-8")
    monkeypatch.setattr(messages, "templates_dir", lambda: copy)
    messages.catalogue.cache_clear()
    return path


def test_a_missing_key_is_a_file_line_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _broken_templates(tmp_path, monkeypatch, "    damage: SCHADEN\n")
    try:
        result = CliRunner().invoke(build_command, ["--set", "lunch", "--lang", "de", "--out", str(tmp_path / "o")])
        value_line = next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                          if line.startswith("  value:"))
        en_line = next(i for i, line in enumerate(messages.catalogue_path("en").read_text(
            encoding="utf-8").splitlines(), 1) if line == "    damage: DAMAGE")
    finally:
        messages.catalogue.cache_clear()
    assert result.exit_code == 1
    assert f"{path}:{value_line}:1: error: message catalogue 'de' has no 'face.value.damage'" in result.stderr
    assert f"en.yaml:{en_line} has it" in result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "o" / "lunch").exists()


def test_an_unknown_language_is_a_clear_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(build_command, ["--set", "lunch", "--lang", "xx", "--out", str(tmp_path)])
    assert result.exit_code == 1
    assert result.stderr.startswith("error: no message catalogue for language 'xx' (cardgen has de, en")


def test_a_set_can_print_in_german_by_its_language_field(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "set.yaml").write_text("extends: lunch\nname: mine\ntitle: Mine\nlanguage: de\n", encoding="utf-8")
    cs = load_set(folder)
    assert cs.language == "de"
    assert rules_text(cs.card("Jab"), cs) == "Verursacht 1 Schaden. Abwehr: AUSWEICHEN oder BLOCKEN."
    (folder / "set.yaml").write_text("extends: lunch\nname: mine\ntitle: Mine\nlanguage: xx\n", encoding="utf-8")
    with pytest.raises(SetError) as err:
        load_set(folder)
    assert "set.yaml:4:11: error: language: cardgen has no message catalogue for 'xx'" in str(err.value)


def test_a_bad_translation_file_is_a_file_line_error(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    (folder / "lang").mkdir(parents=True)
    (folder / "set.yaml").write_text("extends: lunch\nname: mine\ntitle: Mine\n", encoding="utf-8")
    (folder / "lang" / "de.yaml").write_text("types:\n  basic: Grundangriff\n  magic: Zauber\ncards:\n"
                                             "  Jab: {name: Stoß}\n", encoding="utf-8")
    with pytest.raises(SetError) as err:
        in_language(load_set(folder), "de")
    text = str(err.value)
    assert "de.yaml:3:3: error: types.magic: the set has no such type" in text
    assert "de.yaml:5:9: error: cards.Jab.name: only flavour and text are words to translate" in text


def test_sets_in_two_languages_do_not_mix_without_lang(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "set.yaml").write_text("extends: beer\nname: mine\ntitle: Mine\nlanguage: de\n", encoding="utf-8")
    result = CliRunner().invoke(build_command, ["--set", "lunch", "--set", str(folder), "--out", str(tmp_path / "o")])
    assert result.exit_code == 1 and "print in different languages" in result.stderr and "--lang" in result.stderr


def test_print_shop_files_in_german(tmp_path: Path) -> None:
    result = CliRunner().invoke(export_command, ["print-shop", "--set", "lunch", "--lang", "de", "--dpi", "72",
                                                 "--out", str(tmp_path)])
    assert result.exit_code == 0, result.stderr
    text = _visible_text((tmp_path / "lunch" / "print-shop" / "lunch-print-shop.pdf").read_bytes())
    assert "SCHADEN" in text and "GRUNDANGRIFF" in text and "DAMAGE" not in text


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_every_glossary_entry_is_in_every_language(lang: str) -> None:
    def entries(path: Path) -> list[str]:
        return sorted(re.findall(r"\{% if used\.(\w+) %\}\n###", path.read_text(encoding="utf-8")))

    english = entries(templates_dir() / "rules" / "glossary.j2")
    folder = messages.template_folder(lang)
    assert folder is not None and len(english) > 20
    assert entries(folder / "rules" / "glossary.j2") == english
