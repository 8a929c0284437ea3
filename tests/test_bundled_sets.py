"""The bundled sets load, add up, and carry every card and condition their rulebooks describe."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardgen.cardtext import rules_text, summary
from cardgen.checks import load_set, load_set_with_warnings, load_sets
from cardgen.loader.mix import same_function
from cardgen.model import CardSet
from cardgen.paths import card_data_dir

MAX_TEXT = 320  # characters of generated rules text that still fit a slip at a readable size





@pytest.mark.parametrize(("name", "size"), [("lunch", 110), ("beer", 110), ("classic", 104)])
def test_set_loads_without_warnings_and_adds_up(name: str, size: int) -> None:
    cs, warnings = load_set_with_warnings(name)
    assert warnings == []
    assert cs.deck_size == size == cs.total


@pytest.mark.parametrize("name", ["lunch", "beer", "classic"])
def test_every_card_has_short_generated_text_and_a_summary(name: str) -> None:
    cs = load_set(name)
    for card in cs.cards:
        text = rules_text(card, cs)
        assert text and len(text) <= MAX_TEXT, (card.name, len(text))
        assert summary(card, cs), card.name
        assert card.text is None, f"{card.name}: bundled cards use generated text"


@pytest.mark.parametrize("name", ["lunch", "beer", "classic"])
def test_card_order_follows_numbered_files(name: str) -> None:
    cs = load_set(name)
    files = [Path(c.file).name for c in cs.cards]
    assert files == sorted(files, key=lambda f: (f != "set.yaml", f))
    assert [c.number for c in cs.cards] == list(range(1, len(cs.cards) + 1))


def _names(cs: CardSet) -> set[str]:
    return {c.name.upper() for c in cs.cards}


def test_beer_has_every_card_the_rulebook_names(beer: CardSet, rulebooks: Path) -> None:
    named = {"COLDCOCK", "DEATH FROM ABOVE", "KICK²", "KICK⁴", "KNUCKLE SAMMITCH", "LOVE TAP", "SMACK", "SMITE",
             "SUCKER PUNCH", "BEER BOTTLE", "LITTLE HELPER", "HARDWARE", "TEQUILA BOTTLE", "BLOCK", "DODGE",
             "DISARMAMENT", "FREEDOM", "REDEMPTION", "SELF HELP", "CHOKE & PUKE", "DISTRACTION", "FISTS OF FURY",
             "GRAB", "MANHANDLE", "PILEDRIVER", "POUND OF FLESH", "THUNDER HEAD", "HORROR OF HORRORS"}
    assert named == _names(beer)
    text = (rulebooks / "beer-money.txt").read_text(encoding="utf-8").upper()
    for name in named:
        assert name in text, name


def test_beer_rulebook_values(beer: CardSet) -> None:
    weapons = {c.name: c.damage for c in beer.cards if beer.role(c) == "weapon"}
    assert weapons == {"Beer Bottle": (3,), "Little Helper": (2,), "Hardware": (3,), "Tequila Bottle": (4,)}
    assert beer.card("Kick²").damage == (2,) and beer.card("Kick⁴").damage == (4,)
    assert beer.card("Fists of Fury").damage == (2, 2, 2)
    heal = {c.name: c.heal.amount for c in beer.cards if c.heal}
    assert heal == {"Self Help": 2, "Redemption": 4}
    assert all(set(c.heal.when) == {"turn", "dropping"} for c in beer.cards if c.heal)
    r = beer.rules
    assert (r.life, r.hand_size, r.negative_life, r.heal_action, r.weapons_may_drop) == (15, 5, True, True, True)


def test_beer_grab_combos(beer: CardSet) -> None:
    grab = beer.card("Grab")
    assert grab.opens is not None and grab.opens.free and grab.opens.after_block
    assert set(grab.opens.then) == {"basic", "weapon"}
    assert set(grab.defended_by or ()) == {"dodge", "freedom"}
    followers = {c.name for c in beer.cards if c.follows == "grab"}
    assert followers == {"Choke & Puke", "Manhandle", "Piledriver", "Pound of Flesh"}
    choke = beer.card("Choke & Puke").ongoing
    assert choke is not None and choke.damage == 1 and choke.vomit and choke.holder_restricted
    breakers = {c.name for c in beer.cards if c.defence in choke.broken_by}
    assert breakers == {"Freedom", "Thunder Head"}
    distraction = beer.card("Distraction")
    assert distraction.opens is not None and distraction.opens.free and distraction.defended_by == ()


def test_beer_sources_mark_what_is_designed(beer: CardSet) -> None:
    designed = {c.name for c in beer.cards if c.source == "designed"}
    assert designed == {"Love Tap", "Smack", "Knuckle Sammitch", "Sucker Punch", "Coldcock", "Smite",
                        "Death From Above", "Manhandle", "Piledriver", "Pound of Flesh", "Thunder Head"}


def test_beer_equivalences_hold_when_mixed_with_lunch(lunch: CardSet, beer: CardSet) -> None:
    assert beer.equivalences == {"Horror of Horrors": "Humiliation", "Disarmament": "Disarm",
                                 "Self Help": "First Aid"}
    for mine, theirs in beer.equivalences.items():
        assert same_function(beer.card(mine), lunch.card(theirs)), mine
    mixed = load_sets(["lunch", "beer"])
    assert mixed.total == 220 and mixed.deck_size == 220
    assert len(_names(mixed)) == len(mixed.cards) - len(_names(lunch) & _names(beer))
    # each card keeps its own set's colours: beer weapons are red, lunch weapons magenta
    assert mixed.type_of(mixed.cards[-1]).colour == beer.type_of(beer.cards[-1]).colour
    knife = next(c for c in mixed.cards if c.name == "Knife")
    bottle = next(c for c in mixed.cards if c.name == "Beer Bottle")
    assert mixed.type_of(knife).colour != mixed.type_of(bottle).colour


def test_classic_has_all_six_counter_pairs(classic: CardSet) -> None:
    pairs = {frozenset(c.pair) for c in classic.cards if c.pair}
    halves = ("dodge", "block", "hold", "disarm")
    assert pairs == {frozenset((a, b)) for i, a in enumerate(halves) for b in halves[i + 1:]}
    assert all(classic.role(c) == "counter" for c in classic.cards if c.pair)


def test_classic_types_and_rules(classic: CardSet) -> None:
    roles = {t.role for t in classic.types.values()}
    assert roles == {"heal", "attack", "weapon", "counter", "wrestling", "event", "humiliation"}
    colours = [t.colour for t in classic.types.values()]
    assert len(set(colours)) == len(colours)
    r = classic.rules
    assert (r.life, r.hand_size, r.heals_per_turn, r.discard_limit, r.travel_direction) == (20, 5, 1, 5, "left")


def test_classic_conditions_all_appear(classic: CardSet) -> None:
    cards = classic.cards
    wrestling = [c for c in cards if classic.role(c) == "wrestling"]
    assert wrestling and all(c.follows == "hold" for c in wrestling)
    assert "DDT" in {c.name for c in wrestling}
    assert any(c.stuns for c in wrestling)
    assert any(c.stuns for c in cards if classic.role(c) == "attack")
    assert any(c.stunned for c in cards)
    assert any(c.travels for c in cards if classic.role(c) == "attack")
    assert any(c.travels for c in cards if classic.role(c) == "weapon")
    assert any(len(c.damage) == 2 for c in cards if classic.role(c) == "attack")
    assert any(len(c.damage) == 3 for c in cards), "two '+' on one card"
    assert any(c.damage == (4, 3) for c in cards if classic.role(c) == "weapon"), "the rulebook's 4 + 3 weapon"
    heals = [c for c in cards if classic.role(c) == "heal"]
    assert heals and all(c.heal is not None and c.heal.when == ("turn",) for c in heals)
    events = [c for c in cards if classic.role(c) == "event"]
    assert any(c.targets == "others" for c in events)
    assert any(c.draw for c in events)
    assert any(c.timing == "any" for c in events)
    humiliation = [c for c in cards if classic.role(c) == "humiliation"]
    assert humiliation and all(c.humiliate == "cancel" and c.timing == "any" for c in humiliation)


def test_lunch_rulebook_facts(lunch: CardSet) -> None:
    assert lunch.card("Hook").damage == (3,) and lunch.card("Uppercut").damage == (4,)
    assert {lunch.card(n).passes_on for n in ("Roundhouse", "Spinning Backfist")} == {"either"}
    choke = lunch.card("Choke").ongoing
    assert choke is not None and choke.damage == 4


@pytest.mark.parametrize("name", ["lunch", "beer", "classic"])
def test_no_long_runs_of_rulebook_words_in_generated_text(name: str, rulebooks: Path) -> None:
    words = re.findall(r"[a-z0-9]+", " ".join(p.read_text(encoding="utf-8").lower()
                                              for p in rulebooks.glob("*.txt")))
    grams = {tuple(words[i:i + 12]) for i in range(len(words) - 11)}
    cs = load_set(name)
    for card in cs.cards:
        ours = re.findall(r"[a-z0-9]+", (rules_text(card, cs) + " " + (card.flavour or "")).lower())
        for i in range(len(ours) - 11):
            assert tuple(ours[i:i + 12]) not in grams, card.name


def test_bundled_folders_hold_only_set_files() -> None:
    """YAML files, an icons/ folder holding exactly the icons the set maps, and a lang/ folder holding one
    translation a language cardgen prints in."""
    from cardgen.messages import languages

    for name in ("lunch", "beer", "classic"):
        folder = card_data_dir() / name
        assert all(p.suffix == ".yaml" for p in folder.iterdir() if p.name not in ("icons", "lang")), folder
        assert {p.stem for p in (folder / "lang").iterdir()} == set(languages()) - {"en"}, folder
        used = {Path(p) for p in load_set(name).icons.values()}
        assert set((folder / "icons").resolve().iterdir()) == used, folder
