"""Card effects as data (cardgen/primitives.py): every registered primitive is complete in every room, the
designed `recess` events print, play and read back in English and German, hidden information stays hidden, and
a bad `effects:` gets an error a person can act on."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen import messages, primitives
from cardgen.cardtext import rules_text, summary
from cardgen.checks import load_set
from cardgen.checks.language import in_language
from cardgen.cli.main import main
from cardgen.effect_text import catalogue_gaps
from cardgen.engine.frames import PickF
from cardgen.engine.moves import PICK, PLAY, Move
from cardgen.engine.primitives import RUN, STRIKES
from cardgen.engine.replay import Replay
from cardgen.engine.rules import push, settle
from cardgen.engine.views import observe
from cardgen.loader.scenario import load_scenario
from cardgen.loader.schema import CARD_PROPERTIES
from cardgen.model import CardSet
from cardgen.sheets.columns import BY_HEADER

LANGUAGES = ("en", "de")


def test_every_primitive_has_its_schema_engine_words_and_column() -> None:
    """Adding a primitive means its registry entry, its engine function and its words in every catalogue: each
    of those is checked here for every registered primitive."""
    item = CARD_PROPERTIES["effects"]["items"]["properties"]
    assert set(item) == set(primitives.PRIMITIVES)
    for op, prim in primitives.PRIMITIVES.items():
        assert (op in RUN) != (op in STRIKES), op  # one way to play it
        assert set(item[op]["properties"]) == set(prim.params), op
        for lang in LANGUAGES:
            if not prim.own_log:  # else the events it causes say it (damage, a heal)
                assert messages.message(f"play.log.effect.{op}", lang), (op, lang)
    for lang in LANGUAGES:
        assert catalogue_gaps(lang) == [], lang
    assert BY_HEADER["effects"].kind == "effects"


def test_a_primitive_without_its_words_in_one_language_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    extra = primitives.Primitive("juggle", "juggles")
    monkeypatch.setitem(primitives.PRIMITIVES, "juggle", extra)
    assert catalogue_gaps("en") == ["effects.say.juggle", "effects.short.juggle"]
    assert catalogue_gaps("de") == ["effects.say.juggle", "effects.short.juggle"]


@pytest.fixture(scope="module")
def recess() -> CardSet:
    return load_set("recess")


# The printed text of each designed event, as a player reads it, in English and German.
PRINTED = {
    "Lunch Thief": ("Take a card at random from the hand of a player.",
                    "Nimm eine Karte zufällig aus der Hand von einem Spieler."),
    "Switcheroo": ("Swap hands with a player.", "Tausche deine Hand mit einem Spieler."),
    "Pass the Note": ("Every player passes a card of their choice to the left, all at once.",
                      "Jeder Spieler gibt eine Karte seiner Wahl nach links weiter, alle zugleich."),
    "Fire Drill": ("Every player passes 2 cards of their choice to the right, all at once.",
                   "Jeder Spieler gibt 2 Karten seiner Wahl nach rechts weiter, alle zugleich."),
    "Detention": ("The player on your left skips their next turn.", "Dein linker Nachbar setzt einen Zug aus."),
    "Dumpster Dive": ("Take a card from the top of the discard pile, under this card.",
                      "Nimm eine Karte oben vom Ablagestapel, unter dieser Karte."),
    "Recess Bell": ("Shuffle the discard pile, but this card, into the draw pile. Draw a card.",
                    "Mische den Ablagestapel ohne diese Karte in den Nachziehstapel. Zieh eine Karte."),
    "Show and Tell": ("Look at the hand of a player; nobody else sees it. Draw a card.",
                      "Sieh dir die Hand von einem Spieler an; sonst sieht sie niemand. Zieh eine Karte."),
    "Care Package": ("Restore 2 life to the player on your right.", "Gib deinem rechten Nachbarn 2 Leben zurück."),
    "Trade Lunch": ("Give a card of your choice to a player. Take a card at random from the hand of that player.",
                    "Gib einem Spieler eine Karte deiner Wahl. Nimm eine Karte zufällig aus der Hand von diesem "
                    "Spieler."),
    "Spilled Milk": ("A player discards a card at random.", "Ein Spieler wirft eine Karte zufällig ab."),
    "Bully Tax": ("Take 2 life from the player with the most life into the lost pool; nothing stops it.",
                  "Nimm dem Spieler mit den meisten Leben 2 Leben ab, in die Mitte; nichts hält das auf."),
    "Underdog": ("Restore 3 life to the player with the fewest life.",
                 "Gib dem Spieler mit den wenigsten Leben 3 Leben zurück."),
    "Cafeteria Chaos": ("Deal 1 to every other player. Draw a card. May be DODGED or BLOCKED.",
                        "Füge jedem anderen Spieler 1 Schaden zu. Zieh eine Karte. Abwehr: AUSWEICHEN oder "
                        "BLOCKEN."),
    "Copycat": ("Look at the hand of a player and take a card from it.",
                "Sieh dir die Hand von einem Spieler an und nimm eine Karte daraus."),
    "Book Report": ("Every other player discards a card of their choice.",
                    "Jeder andere Spieler wirft eine Karte nach Wahl ab."),
    "Sharing Is Caring": ("Give a card of your choice to the player on your left. Draw 2 cards.",
                          "Gib deinem linken Nachbarn eine Karte deiner Wahl. Zieh 2 Karten."),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_designed_events_print_what_they_do(recess: CardSet, lang: str) -> None:
    cs = in_language(recess, lang) if lang != "en" else recess
    own = [c for c in cs.cards if c.file.endswith("recess/events.yaml")]
    assert len(own) >= 15 and all(c.source == "designed" for c in own)
    for card in own:
        if card.words_only:
            assert rules_text(card, cs) == card.text
            assert summary(card, cs) == messages.text("effects.not_simulated", lang)
            continue
        assert rules_text(card, cs) == PRINTED[card.name][LANGUAGES.index(lang)], card.name


def test_the_printed_german_text_reads_back_from_the_pdf(tmp_path: Path) -> None:
    import pypdf

    result = CliRunner().invoke(main, ["build", "--set", "recess", "--lang", "de", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    text = " ".join(p.extract_text() for p in pypdf.PdfReader(tmp_path / "recess" / "recess-de-cards.pdf").pages)
    flat = " ".join(text.split())
    for name in ("Switcheroo", "Detention", "Copycat"):
        assert PRINTED[name][1] in flat, name


PEEK_SET = """\
name: peek
title: Peek (test set)
extends: classic
"""
PEEK_CARDS = """\
cards:
  - {name: Peek and Give, type: event, count: 1, effects: [{reveal_hand: {who: chosen}}, {give: {who: chosen}}],
     source: designed}
  - {name: Pass the Note, type: event, count: 1, effects: [{pass: {cards: 1}}], source: designed}
"""
PEEK_SCENARIO = """\
title: t
description: t
sets: [./peek]
players:
  - {name: Ann, hand: [Peek and Give, Punch, Kick]}
  - {name: Bob, hand: [Slap, Uppercut]}
  - {name: Carl, hand: [Band-Aid, Noogie]}
moves:
  - {who: Ann, play: Peek and Give, target: Bob}
expect:
  to_act: Ann
"""


def _peek(tmp_path: Path, moves: str = "") -> Replay:
    folder = tmp_path / "peek"
    folder.mkdir(exist_ok=True)
    (folder / "set.yaml").write_text(PEEK_SET, encoding="utf-8")
    (folder / "cards.yaml").write_text(PEEK_CARDS, encoding="utf-8")
    scenario = tmp_path / "s.yaml"
    text = PEEK_SCENARIO if not moves else PEEK_SCENARIO.replace("expect:\n  to_act: Ann\n", moves)
    scenario.write_text(text, encoding="utf-8")
    sc = Replay(load_scenario(scenario))
    assert sc.run() == []
    return sc


def test_a_revealed_hand_is_seen_by_the_cards_player_alone(tmp_path: Path) -> None:
    sc = _peek(tmp_path)
    s = sc.state
    bob = tuple(sorted(s.hands[1]))
    assert observe(s, 0).revealed == ((1, bob),)
    assert observe(s, 1).revealed == () and observe(s, 2).revealed == ()
    assert {m.kind for m in s.moves} == {PICK} and {m.target for m in s.moves} == {1}
    push(s, s.moves[0])  # the give: then the turn ends and the sight is forgotten
    assert s.turn == 2 and observe(s, 0).revealed == ()


def test_picks_survive_a_fresh_deal_for_search(tmp_path: Path) -> None:
    """Passing one card each: Ann has picked; in Bob's fresh deal of the hands he cannot see, Ann's pick is one
    of her dealt cards, and the game plays on from there."""
    sc = _peek(tmp_path, "  - {who: Ann, pick: Punch}\nexpect:\n  turn: 2\n")
    s = sc.state
    note = next(d for d, c in enumerate(sc.spec.cs.cards) if c.name == "Pass the Note")
    s.hands[1].append(note)
    settle(s)
    push(s, Move(PLAY, note, -1))
    while s.moves and s.moves[0].kind != PICK:
        push(s, next(m for m in s.moves if m.kind.value == "decline"))
    assert s.to_act == 1 and {m.kind for m in s.moves} == {PICK}
    push(s, s.moves[0])  # Bob's pick; Carl's next
    assert s.to_act == 2
    t = observe(s, 2).determinized(random.Random(7))
    held = t.stack[-1]
    assert isinstance(held, PickF)
    assert all(card in t.hands[owner] for owner, card, _ in held.held)
    before = sorted(c for h in t.hands for c in h)
    push(t, t.moves[0])
    assert sorted(c for h in t.hands for c in h) == before and t.to_act != 2


@pytest.mark.parametrize(("effects", "message"), [
    ("[{stael: {who: chosen}}]", "unknown key 'stael' (did you mean 'steal'?)"),
    ("[{steal: {who: everybody}}]", "expected one of chosen, left, right, most, fewest, others"),
    ("[{draw: {cards: 40}}]", "must be at most 10, got 40"),
    ("[{steal: {}, draw: {}}]", "one primitive per list entry"),
    ("txt", "'txt' is not 'text'"),
])
def test_a_bad_effect_is_reported_at_its_line_with_what_was_expected(
        tmp_path: Path, effects: str, message: str) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "set.yaml").write_text("name: mine\ntitle: Mine\nextends: classic\n", encoding="utf-8")
    (folder / "cards.yaml").write_text(
        f"cards:\n  - name: Oddity\n    type: event\n    count: 1\n    effects: {effects}\n    source: designed\n",
        encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", "--set", str(folder), "--no-sim", "--no-balance"])
    assert result.exit_code == 1
    assert "cards.yaml:5:" in result.output and message in result.output, result.output
    assert "Traceback" not in result.output


def test_effects_cannot_be_mixed_with_the_fixed_mechanics(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "set.yaml").write_text("name: mine\ntitle: Mine\nextends: classic\n", encoding="utf-8")
    (folder / "cards.yaml").write_text(
        "cards:\n  - {name: Oddity, type: event, count: 1, damage: 2, effects: [{draw: null}], source: designed}\n"
        "  - {name: Mute, type: event, count: 1, effects: text, source: designed}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", "--set", str(folder), "--no-sim", "--no-balance"])
    assert result.exit_code == 1
    assert "field `damage`: cannot be combined with `effects:`" in result.output
    assert "card 'Mute' field `effects`: `text` says the card's own `text`" in result.output


def test_an_effect_keeps_its_numbers_when_written_out_and_read_back() -> None:
    e = primitives.make_effect("steal", {"who": "left"})
    assert e.as_data() == {"steal": {"who": "left"}}
    assert primitives.make_effect("steal", e.as_data()["steal"]) == e
    assert dataclasses.asdict(e)["values"] == (("cards", 1), ("who", "left"), ("pick", "random"))


def test_the_designers_page_lists_every_primitive_with_its_parameters() -> None:
    page = (Path(__file__).parent.parent / "docs" / "effects.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip(" `"): line for line in page.splitlines() if line.startswith("| `")}
    for op, prim in primitives.PRIMITIVES.items():
        assert op in rows, op
        for name in prim.params:
            assert f"`{name}`" in rows[op], (op, name)


def test_tune_may_vary_every_number_of_a_cards_effects(recess: CardSet) -> None:
    from cardgen.sim.tune import DEFAULT_NUMBERS, candidate_edits

    assert "effects" in DEFAULT_NUMBERS
    for card in recess.cards:
        wanted = {f"effects[{i}].{name}" for i, name, _ in primitives.numbers_of(card.effects)}
        edits = candidate_edits(card, "weaken") + candidate_edits(card, "strengthen")
        assert {e.number for e in edits if e.number.startswith("effects")} == wanted, card.name
        for e in edits:
            if e.number.startswith("effects"):
                i, name = int(e.number[8]), e.number.split(".")[1]
                changed = e.apply(card).effects
                assert changed[i].number(name) == e.after[0]
                assert [x for j, x in enumerate(changed) if j != i] == [x for j, x in enumerate(card.effects) if j != i]
                bounds = next(n for n in primitives.PRIMITIVES[changed[i].op].numbers if n.name == name)
                assert bounds.low <= e.after[0] <= bounds.high


def test_a_number_alone_is_the_primitives_first_number(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "set.yaml").write_text("name: mine\ntitle: Mine\nextends: classic\n", encoding="utf-8")
    (folder / "cards.yaml").write_text(
        "cards:\n  - {name: Study Hall, type: event, count: 1, effects: [draw: 2, damage: 3], source: designed}\n",
        encoding="utf-8")
    card = load_set(folder).card("Study Hall")
    assert card.effects == (primitives.make_effect("draw", {"cards": 2}),
                            primitives.make_effect("damage", {"amount": 3}))


def test_the_designed_events_round_trip_through_a_spreadsheet_exactly(tmp_path: Path) -> None:
    runner = CliRunner()
    sheet = tmp_path / "recess.csv"
    assert runner.invoke(main, ["export", "sheet", "--set", "recess", "--out", str(sheet)]).exit_code == 0
    result = runner.invoke(main, ["import", "sheet", str(sheet), "--into", str(tmp_path / "back"), "--base", "classic"])
    assert result.exit_code == 0, result.output
    original = {c.name: c for c in load_set("recess").cards}
    back = load_set(tmp_path / "back").cards
    assert len(back) == 17
    for card in back:
        mine = original[card.name]
        assert (card.effects, card.words_only, card.text, card.count, card.flavour) == (
            mine.effects, mine.words_only, mine.text, mine.count, mine.flavour), card.name


def test_validate_names_a_card_only_words_describe_not_simulated() -> None:
    pranks = Path(__file__).parent / "scenarios" / "sets" / "pranks"
    result = CliRunner().invoke(main, ["validate", "--set", str(pranks), "--sim-seconds", "2", "--no-balance"])
    assert result.exit_code == 0, result.output
    said = [line for line in result.output.splitlines() if "Snow Day" in line]
    assert len(said) == 1 and "is not simulated" in said[0] and "set.yaml:" in said[0]
    cs = load_set(pranks)
    assert summary(cs.card("Snow Day"), cs) == "not simulated"
    assert rules_text(cs.card("Snow Day"), cs) == cs.card("Snow Day").text


def test_the_balance_lint_never_judges_or_waits_on_a_card_only_words_describe(tmp_path: Path) -> None:
    """A card with `effects: text` is named "not simulated" by `validate`, and none of the balance lint's lines
    (what stands out, what the budget left open) names it: its figures say nothing about what its text does."""
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "set.yaml").write_text("name: mine\ntitle: Mine\nextends: classic\n", encoding="utf-8")
    (folder / "cards.yaml").write_text(
        "cards:\n  - {name: Cafeteria Chaos, type: event, count: 2, effects: text, source: designed,\n"
        "     text: Everyone throws their lunch.}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", "--set", str(folder), "--max-games", "1000", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert any("'Cafeteria Chaos' is not simulated" in line for line in lines), result.output
    balance = [line for line in lines if line.startswith("mine: balance")]
    assert balance and not any("Cafeteria Chaos" in line for line in balance), balance
