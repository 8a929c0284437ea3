"""The words cardgen writes: a count's plural form by the language's CLDR rules, the breaker of a hold named
as the language names it, the combo a card opens named as cards print it, and no word of a bundled rules
page broken without a hyphen (read back from the PDFs' text)."""

from __future__ import annotations

import dataclasses
import html
import io
import re

import pypdfium2 as pdfium
import pytest

from cardgen import messages
from cardgen.cardtext import rules_text, summary
from cardgen.checks import load_set
from cardgen.checks.language import in_language
from cardgen.model import CardSet, Heal
from cardgen.paths import bundled_set_names
from cardgen.render.hyphenation import narrowest, pieces
from cardgen.render.rules_content import page_blocks
from cardgen.render.rules_page import rules_pdf


def _with_heal(cs: CardSet, name: str, amount: int) -> CardSet:
    cards = tuple(dataclasses.replace(c, heal=Heal(amount, ("turn",))) if c.name == name else c for c in cs.cards)
    return dataclasses.replace(cs, cards=cards)


def _card(cs: CardSet, name: str) -> str:
    return rules_text(next(c for c in cs.cards if c.name == name), cs)


@pytest.mark.parametrize(("lang", "one", "two"), [
    ("en", "Restore 1 counter to yourself", "Restore 2 counters to yourself"),
    ("de", "Hol dir 1 Marke zurück", "Hol dir 2 Marken zurück"),
])
def test_a_count_of_one_takes_the_singular(lang: str, one: str, two: str) -> None:
    cs = in_language(load_set("lunch"), lang)
    assert _card(_with_heal(cs, "First Aid", 1), "First Aid").startswith(one)
    assert _card(_with_heal(cs, "First Aid", 2), "First Aid").startswith(two)


def test_plural_categories_come_from_cldr() -> None:
    # Polish has 'few' for 2-4 and 'many' for 5: rules no catalogue spells out, Babel's CLDR data has them
    assert [messages.plural_category(n, "pl") for n in (1, 2, 5, 22)] == ["one", "few", "many", "few"]
    assert [messages.plural_category(n, "fr") for n in (0, 1, 2)] == ["one", "one", "other"]
    assert messages.plural("counters", 1, "en") == "counter"
    assert messages.plural("life", 1, "en") == "life"  # a word without forms stays as the set writes it


def test_german_choke_names_its_breaker_as_headlock_does() -> None:
    de = in_language(load_set("lunch"), "de")
    assert "bis BEFREIUNG ihn löst" in _card(de, "Choke")
    assert "Nur BEFREIUNG stoppt sie" in _card(de, "Headlock")
    assert "FREEDOM" not in _card(de, "Choke")
    assert "until FREEDOM breaks it" in _card(load_set("lunch"), "Choke")


@pytest.mark.parametrize(("lang", "words"), [("en", "opens GRAB"), ("de", "eröffnet GRAB")])
def test_the_summary_names_the_combo_as_cards_print_it(lang: str, words: str) -> None:
    cs = in_language(load_set("lunch"), lang)
    grab = next(c for c in cs.cards if c.name == "Grab")
    assert summary(grab, cs).startswith(words)
    assert " grab" not in summary(grab, cs)


def test_a_word_breaks_only_at_its_hyphenation_points() -> None:
    assert pieces("Interference", "en") == ["In", "ter", "fer", "ence"]
    assert pieces("Wiederbelebung", "de") == ["Wie", "der", "be", "le", "bung"]
    assert narrowest("Roundhouse", "en", len) == len("Round-")  # the widest piece, with its hyphen
    assert pieces("Roundhouse", "xx") == ["Roundhouse"]  # no dictionary: no break points


_HYPHENS = "-\u00ad\ufffe\u2010"
_WORD = re.compile(r"\w+", re.UNICODE)


def _vocabulary(cs: CardSet) -> set[str]:
    """Every word the page's source text has, and each hyphenated compound also written without its hyphens."""
    text = " ".join(" ".join([b.text, b.heading, *b.cells]) for b in page_blocks(cs))
    text = html.unescape(re.sub(r"<[^>]*>", " ", text))
    words = set(_WORD.findall(text))
    words |= {c.replace("-", "") for c in re.findall(r"\w+(?:-\w+)+", text)}
    return words


def _page_lines(pdf: bytes) -> list[str]:
    doc = pdfium.PdfDocument(io.BytesIO(pdf))
    lines: list[str] = []
    for page in doc:
        lines += page.get_textpage().get_text_range().splitlines()
    return lines


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("name", bundled_set_names())
def test_no_bundled_rules_page_breaks_a_word_without_a_hyphen(name: str, lang: str, paper: str) -> None:
    cs = in_language(load_set(name), lang)
    known = _vocabulary(cs)
    text = "\n".join(_page_lines(rules_pdf(cs, paper)))
    broken = re.findall(r"(\w+)\n(\w+)", text)  # a line ending in a letter, the next starting with one
    # a hyphen at a line's end joins its word (pdfium reports one it finds there as U+FFFE, the newline dropped)
    joined = re.sub(rf"(\w)(?:[{_HYPHENS}]\n|\ufffe)(\w)", r"\1\2", text)
    strays = sorted({w for w in _WORD.findall(joined) if w not in known})
    assert not strays, f"words not in the page's text (broken without a hyphen?): {strays}; line ends {broken[:5]}"
