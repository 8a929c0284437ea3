"""Printed text is derived from the mechanics; hand-written text is checked against them."""

from __future__ import annotations

import dataclasses

import pytest

from cardgen.cardtext import (
    breakers_of,
    check_text,
    damage_label,
    defences_of,
    generated_text,
    opener_label,
    rules_text,
    summary,
)
from cardgen.checks import load_sets
from cardgen.model import CardSet


def test_damage_label_joins_strikes(classic: CardSet) -> None:
    assert damage_label(classic.card("Folding Chair")) == "4 + 3"
    assert damage_label(classic.card("Flurry")) == "3 + 2 + 1"
    assert damage_label(classic.card("Kick")) == "3"


def test_multi_strike_text_says_each_strike_is_defended(classic: CardSet) -> None:
    text = rules_text(classic.card("Folding Chair"), classic)
    assert "2 strikes: 4 + 3" in text and "each strike" in text and "DISARMED" in text


def test_undefendable_multi_strike_does_not_mention_defending_each(beer: CardSet) -> None:
    text = rules_text(beer.card("Pound of Flesh"), beer)
    assert "2 strikes: 2 + 2" in text and "Cannot be defended" in text and "each strike" not in text


def test_weapon_text_depends_on_the_drop_rule(beer: CardSet, classic: CardSet) -> None:
    assert "(or discard it)" in rules_text(beer.card("Beer Bottle"), beer)
    chair = rules_text(classic.card("Textbook"), classic)
    assert "Returns to your hand" in chair and "discard it" not in chair


def test_travel_text_uses_the_set_direction(classic: CardSet) -> None:
    assert "TRAVELS left" in rules_text(classic.card("Flying Kick"), classic)
    right = dataclasses.replace(classic, rules=dataclasses.replace(classic.rules, travel_direction="right"))
    assert "TRAVELS right" in rules_text(classic.card("Flying Kick"), right)


def test_counter_pair_text_names_both_halves(classic: CardSet) -> None:
    text = rules_text(classic.card("Block/Hold"), classic)
    assert text.startswith("Play as BLOCK or HOLD.")
    assert "BLOCK stops" in text and "wrestling moves" in text and "DISARM" not in text
    both = rules_text(classic.card("Dodge/Block"), classic)
    # one sentence per half, so each half of the split face carries its own rule
    assert "DODGE stops" in both and "BLOCK stops" in both and "HOLD on your turn" not in both


def test_wrestling_moves_follow_a_hold(classic: CardSet) -> None:
    ddt = classic.card("DDT")
    assert opener_label(ddt, classic) == "HOLD"
    assert defences_of(ddt, classic) == ()
    assert rules_text(ddt, classic).startswith("Only right after a successful HOLD.")


def test_stun_conditions_are_printed(classic: CardSet) -> None:
    assert "STUNS 2T" in rules_text(classic.card("Figure Four"), classic)
    assert "STUNNED 1T" in rules_text(classic.card("Haymaker"), classic)
    assert "STUNS 2T" in summary(classic.card("Wedgie"), classic)


def test_choke_names_the_cards_that_break_it(beer: CardSet) -> None:
    card = beer.card("Choke & Puke")
    # Horror of Horrors answers any card, a hold included, as the rulebook says
    assert breakers_of(card, beer) == ["FREEDOM", "THUNDER HEAD", "HORROR OF HORRORS"]
    text = rules_text(card, beer)
    assert "FREEDOM, THUNDER HEAD or HORROR OF HORRORS breaks it" in text
    assert "BREAK" not in text.replace("breaks", "")
    assert "vomits" in text and "Cannot be defended" not in text


def test_breakers_fall_back_to_the_defence_word(beer: CardSet) -> None:
    card = beer.card("Choke & Puke")
    without = dataclasses.replace(beer, cards=tuple(c for c in beer.cards if c.name != "Thunder Head"))
    assert breakers_of(card, without) == ["FREEDOM", "BREAK", "HORROR OF HORRORS"]


def test_grab_lists_its_follow_ups(beer: CardSet) -> None:
    text = rules_text(beer.card("Grab"), beer)
    for name in ("CHOKE & PUKE", "MANHANDLE", "PILEDRIVER", "POUND OF FLESH"):
        assert name in text
    assert "Basic Attack or Weapon card" in text and "after a BLOCK" in text


def test_summaries_of_events(classic: CardSet) -> None:
    assert summary(classic.card("Free Period"), classic) == "draw 2"
    assert "any time" in summary(classic.card("Sneak Attack"), classic)
    assert summary(classic.card("Food Fight"), classic).startswith("hits all 2 dmg")


def test_own_text_replaces_the_generated_one(beer: CardSet) -> None:
    card = dataclasses.replace(beer.card("Smack"), text="Deals 2, open-handed.")
    assert rules_text(card, beer) == "Deals 2, open-handed."
    assert check_text(card, beer) == []


@pytest.mark.parametrize(("text", "problem"), [
    ("Deals 5.", "text says 'DEALS 5' but the card's damage is 2"),
    ("Deals 2 and 5 more.", "text states 5"),
    ("Deals 2. STUNS 1T.", "text says 'STUNS 1T' but the card's stuns is none"),
    ("Deals 2, like a Coldcock.", "text mentions card 'Coldcock'"),
    ("Deals 2. May be DISARMED.", "text says DISARMED"),
])
def test_check_text_finds_contradictions(beer: CardSet, text: str, problem: str) -> None:
    card = dataclasses.replace(beer.card("Smack"), text=text)
    problems = check_text(card, beer)
    assert len(problems) == 1 and problem in problems[0]


def test_check_text_allows_related_cards_and_own_name(beer: CardSet) -> None:
    card = dataclasses.replace(beer.card("Manhandle"), text="After a GRAB, MANHANDLE deals 3 and STUNS 1T.")
    assert check_text(card, beer) == []
    kick = dataclasses.replace(beer.card("Kick⁴"), text="Kick⁴ deals 4.")
    assert check_text(kick, beer) == []


@pytest.mark.parametrize(("card", "text", "complaint"), [
    ("Wedgie", "Deals 1. STUNS 2T.", "'DEALS 1' but the card's damage is 2"),
    ("Wedgie", "Deals 2. STUNS 1T.", "'STUNS 1T' but the card's stuns is 2"),
    ("Wedgie", "Deals 2. STUNS 2T. Cannot be defended.", "cannot be defended but it may be dodge or block"),
    ("One-Two", "Deals 4.", "'DEALS 4' but the card's damage is 2+2"),
    ("Candy Bar", "Restore 4 life on your turn.", "'RESTORE 4' but the card's heal is 3"),
])
def test_stated_text_must_match_the_mechanic_it_names(classic: CardSet, card: str, text: str,
                                                      complaint: str) -> None:
    problems = check_text(dataclasses.replace(classic.card(card), text=text), classic)
    assert any(complaint in p for p in problems), problems


@pytest.mark.parametrize(("card", "text"), [
    ("Wedgie", "Deals 2. STUNS 2T. May be DODGED or BLOCKED."),
    ("One-Two", "Deals 2 + 2: two strikes, each dodged on its own."),
    ("Candy Bar", "Restore 3 life on your turn."),
])
def test_text_that_agrees_with_the_mechanics_passes(classic: CardSet, card: str, text: str) -> None:
    assert check_text(dataclasses.replace(classic.card(card), text=text), classic) == []


@pytest.mark.parametrize("sets", [["lunch"], ["beer"], ["classic"], ["lunch", "beer"]], ids="+".join)
def test_generated_text_passes_the_check_for_hand_written_text(sets: list[str]) -> None:
    """Text and mechanics agree by construction, so writing out the generated text by hand is never an error."""
    cs = load_sets(sets)
    for card in cs.cards:
        assert check_text(dataclasses.replace(card, text=generated_text(card, cs)), cs) == [], card.name


def test_a_lower_case_word_is_not_a_card_name(beer: CardSet) -> None:
    lower = dataclasses.replace(beer.card("Smack"), text="Deals 2, as hard as a coldcock.")
    assert check_text(lower, beer) == []
    named = dataclasses.replace(beer.card("Smack"), text="Deals 2, as hard as a Coldcock.")
    assert check_text(named, beer) == ["text mentions card 'Coldcock' but the mechanics do not refer to it"]
