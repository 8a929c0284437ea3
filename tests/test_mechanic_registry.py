"""Each card mechanic is declared once (`cardgen.mechanic_registry`) and has every part of its meaning: a card
field, a schema fragment, a spreadsheet column, engine facts, its printed sentence and summary in every bundled
language, its glossary entries on every rules page, its log sentences, `tune`'s numbers where declared, and what it
is worth to the greedy bot."""

from __future__ import annotations

import dataclasses
from functools import cache
from pathlib import Path

import jinja2
import pytest
from jinja2 import nodes

from cardgen import mechanic_registry as reg
from cardgen import messages
from cardgen.bot_worth import Part, Worth
from cardgen.engine.cards import CardInfo
from cardgen.engine.moves import MoveKind
from cardgen.loader import card_checks
from cardgen.loader.load import load_set
from cardgen.loader.schema import CARD_PROPERTIES, schema
from cardgen.mechanic_registry import MECHANICS, Mechanic
from cardgen.model import Card
from cardgen.paths import templates_dir
from cardgen.render.rules_content import SET_MECHANICS, used_mechanics
from cardgen.sheets.columns import COLUMNS
from cardgen.sim import greedy, tune_numbers

LANGUAGES = tuple(sorted(p.stem for p in (templates_dir() / "messages").glob("*.yaml")))


def _template(lang: str, name: str) -> Path:
    folder = messages.template_folder(lang)
    return (folder or templates_dir()) / name


@cache
def _names(lang: str, name: str) -> frozenset[str]:
    """The names a template writes with: its free names and every `card.<x>` / `used.<x>` it reads."""
    tree = jinja2.Environment().parse(_template(lang, name).read_text(encoding="utf-8"))
    names = {n.name for n in tree.find_all(nodes.Name)}
    names |= {f"{n.node.name}.{n.attr}" for n in tree.find_all(nodes.Getattr) if isinstance(n.node, nodes.Name)}
    return frozenset(names)


def _written(names: tuple[str, ...], lang: str, template: str) -> bool:
    found = _names(lang, template)
    return any(n in found or f"card.{n}" in found for n in names)


def missing_parts(m: Mechanic) -> list[str]:
    """What mechanic `m` lacks, each as '<part> (<language>)'."""
    out = []
    card_fields = {f.name for f in dataclasses.fields(Card)}
    out += [f"card field {f}" for f in m.fields if f not in card_fields]
    if m.key not in CARD_PROPERTIES or "description" not in m.schema:
        out.append("schema")
    if not any(c.path[0] == m.key for c in COLUMNS):
        out.append("spreadsheet column")
    info = {f.name for f in dataclasses.fields(CardInfo)}
    out += [f"engine fact {f}" for f in m.facts if f not in info] + ([] if m.facts else ["engine fact"])
    out += [f"bot worth {w.part}" for w in m.worth if not _worth_ok(w, m)] + ([] if m.worth else ["bot worth"])
    for lang in LANGUAGES:
        if not m.says or not _written(m.says, lang, "card_text.j2"):
            out.append(f"card text ({lang})")
        if not m.summary or not _written(m.summary, lang, "card_summary.j2"):
            out.append(f"summary ({lang})")
        glossary = _names(lang, "rules/glossary.j2")
        out += [f"glossary {k} ({lang})" for k in m.glossary if f"used.{k}" not in glossary]
        log = messages.catalogue(lang)["play"]["log"]
        out += [f"log {k} ({lang})" for k in m.log if k not in log] + ([] if m.log else [f"log ({lang})"])
    return out


def _worth_ok(w: Worth, m: Mechanic) -> bool:
    """A term reads one of its own mechanic's engine facts; a move term names kinds of move greedy has a rule
    for; a term of no worth says why."""
    if w.part is Part.MOVE:
        return bool(w.moves) and all(k in MoveKind.__members__.values() and MoveKind(k) in greedy.RULED
                                     for k in w.moves)
    if w.part is Part.NONE:
        return bool(w.why)
    return w.fact in m.facts and (w.part is Part.LOOK or w.per != 0)


@pytest.mark.parametrize("m", MECHANICS, ids=lambda m: m.key)
def test_every_mechanic_has_every_part_in_every_language(m: Mechanic) -> None:
    assert missing_parts(m) == []


def test_a_mechanic_without_a_wording_in_one_language_fails() -> None:
    """What adding a mechanic would look like with its German sentence left out: the check names just that."""
    stuns = reg.BY_KEY["stuns"]
    english_only = dataclasses.replace(stuns, says=("stuns", "card_only_english_writes"))
    assert missing_parts(english_only) == []  # the English template writes `card.stuns` already
    ghost = dataclasses.replace(stuns, key="stuns", says=("shoves",), summary=("shoves",),
                                glossary={"shove": stuns.glossary["stuns"]}, log=("shoved",))
    assert set(missing_parts(ghost)) == {f"{part} ({lang})" for lang in LANGUAGES
                                         for part in ("card text", "summary", "glossary shove", "log shoved")}
    assert "de" in LANGUAGES and "en" in LANGUAGES


def test_a_mechanic_without_its_worth_to_the_bot_fails() -> None:
    """A mechanic declared with no worth, with a term on another mechanic's fact, or with a move greedy has no
    rule for: the check names the part."""
    stuns = reg.BY_KEY["stuns"]
    assert missing_parts(dataclasses.replace(stuns, worth=())) == ["bot worth"]
    foreign = dataclasses.replace(stuns, worth=(Worth(Part.AFTER, "stunned", 1.5),))
    assert missing_parts(foreign) == ["bot worth after"]
    assert missing_parts(dataclasses.replace(stuns, worth=(Worth(Part.MOVE, moves=("shove",)),))) == ["bot worth move"]
    assert missing_parts(dataclasses.replace(stuns, worth=(Worth(Part.NONE),))) == ["bot worth none"]


def test_every_card_field_is_a_mechanic_a_card_key_or_the_loaders() -> None:
    owned = [f for m in MECHANICS for f in m.fields] + [*reg.CARD_KEYS, *reg.LOADER_FIELDS]
    assert sorted(owned) == sorted(f.name for f in dataclasses.fields(Card))  # each exactly once


def test_every_engine_fact_belongs_to_a_mechanic_or_is_shared() -> None:
    owned = {f for m in MECHANICS for f in m.facts} | set(reg.SHARED_FACTS)
    assert owned == {f.name for f in dataclasses.fields(CardInfo)}


def test_the_schema_and_the_spreadsheet_list_every_mechanic() -> None:
    card = schema()["properties"]["cards"]["items"]["properties"]
    assert [k for k in card if k in reg.BY_KEY] == [m.key for m in MECHANICS]
    assert set(card) == {*reg.BY_KEY, *reg.CARD_KEYS}
    for m in MECHANICS:
        assert card[m.key]["description"].endswith(f"Left out: {m.absent}.")
    assert {c.path[0] for c in COLUMNS} == set(card)


def test_tune_varies_the_numbers_of_exactly_the_mechanics_that_say_so() -> None:
    tuned = {path[0] for path in tune_numbers.PATHS.values()} | {tune_numbers.EFFECTS}
    assert {m.key for m in MECHANICS if m.tune} == tuned - {"count"}


def test_the_loaders_checks_read_the_registry() -> None:
    assert card_checks.ZERO_MEANS_NOTHING == {"stuns": "no stun", "stunned": "no stun on its player",
                                              "retaliates": "no damage back", "draw": "no cards drawn"}
    assert "effects" not in card_checks.NOT_WITH_EFFECTS and "damage" in card_checks.NOT_WITH_EFFECTS
    assert {"timing", "stunned", "defended_by"}.isdisjoint(card_checks.NOT_WITH_EFFECTS)


def test_every_glossary_entry_of_a_page_comes_from_the_registry() -> None:
    """No entry of a glossary template is orphaned: each is a mechanic's, a role's or a rule switch's."""
    declared = {*reg.GLOSSARY, *SET_MECHANICS}
    for lang in LANGUAGES:
        written = {n.removeprefix("used.") for n in _names(lang, "rules/glossary.j2") if n.startswith("used.")}
        assert written == declared, lang


def test_a_bundled_set_uses_the_glossary_its_cards_bring() -> None:
    cs = load_set("lunch")
    used = used_mechanics(cs)
    assert used["multi_strike"] == any(len(c.damage) > 1 for c in cs.cards)
    assert used["heal"] and used["weapons"]
    blank = {f.name: f.default for f in dataclasses.fields(Card) if f.name in reg.MECHANIC_FIELDS}
    for card in cs.cards:
        assert reg.has_mechanics(card) == any(getattr(card, f) != v for f, v in blank.items())
    plain = dataclasses.replace(cs.cards[0], **blank)
    assert not reg.has_mechanics(plain)
    assert all(reg.has_mechanics(dataclasses.replace(plain, **{f: getattr(c, f)}))
               for c in cs.cards for f in blank if getattr(c, f) != blank[f])
