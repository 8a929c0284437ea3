"""A designer's own events (tests/fixtures/snackbar, classic plus twelve cards written as `effects:`): what they
print says what the engine does, a hand-written text for them is checked against their effects, and a mistake
gets a message that says how to get out of it."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen import messages
from cardgen.cardtext import check_text, generated_text, rules_text, summary
from cardgen.checks import load_set
from cardgen.checks.language import in_language
from cardgen.cli.main import main
from cardgen.model import CardSet
from cardgen.render.rules_content import page_markup

SNACKBAR = Path(__file__).parent / "fixtures" / "snackbar"


@pytest.fixture(scope="module")
def snackbar() -> CardSet:
    return load_set(SNACKBAR)


def test_a_stun_effect_says_how_long_in_words_a_player_reads(snackbar: CardSet) -> None:
    """`count.turns.one` is "turn" ("skips their next turn"): "Stun a player for turn." was printed. A stun
    lasts the rest of this turn and the next n turns of anyone (STUNS nT, rules-decisions 14)."""
    assert rules_text(snackbar.card("Brain Freeze"), snackbar) == (
        "Stun a player for the rest of this turn and the next turn.")
    german = in_language(snackbar, "de")
    assert rules_text(german.card("Brain Freeze"), german) == (
        "Betäube einen Spieler für den Rest dieses Zuges und noch einen Zug.")


def test_the_log_says_a_skip_and_a_stun_in_whole_sentences() -> None:
    log = messages.message("play.log.effect", "en")
    assert "their next {turns}" in log["skip_turns"]  # not "Bob will skip turn."
    assert "the next {turns}" in log["stun"]  # not "Bob is stunned for turn."


def test_an_answer_only_card_says_so_on_its_face_its_line_and_the_rules_page(snackbar: CardSet) -> None:
    """`timing: response` keeps a card out of its player's turn; nothing printed said so, and the rules page
    listed it among the cards that may be played "at any moment"."""
    card = snackbar.card("Tattletale")
    assert rules_text(card, snackbar).endswith("Play only in answer to a card.")
    assert summary(card, snackbar).endswith("in answer only")
    german = in_language(snackbar, "de")
    assert rules_text(german.card("Tattletale"), german).endswith("Nur als Antwort auf eine Karte spielbar.")
    page = page_markup(snackbar)
    assert "Answer-only cards" in page
    assert "Tattletale may be played at any moment" not in page


def test_the_generated_text_of_every_effects_card_passes_as_its_own_text(snackbar: CardSet) -> None:
    """A designer who copies a card's printed text into `text:` and rewords it must not be told the numbers are
    wrong: "Deal 3 to a player" on a `damage: 3` effect gave "the mechanics have no such number (they have
    none)"."""
    recess = load_set("recess")
    for cs in (snackbar, recess, in_language(snackbar, "de"), in_language(recess, "de")):
        for card in cs.cards:
            if card.effects:
                own = generated_text(card, cs)
                written = type(card)(**{**card.__dict__, "text": own})
                assert check_text(written, cs) == [], (card.name, own)


def _validate(tmp_path: Path, cards: str) -> str:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "set.yaml").write_text("name: mine\ntitle: Mine\nextends: classic\n", encoding="utf-8")
    (folder / "cards.yaml").write_text("cards:\n" + cards, encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", "--set", str(folder), "--no-sim", "--no-balance"])
    assert "Traceback" not in result.output
    assert result.exit_code == (1 if "error" in result.output else 0), result.output
    return result.output


def test_a_wrong_number_in_an_effects_cards_own_text_is_still_caught(tmp_path: Path) -> None:
    out = _validate(tmp_path, "  - name: Grabby\n    type: event\n    count: 1\n    effects: [{steal: {who: left}}]\n"
                              "    text: Take 2 cards at random from the hand of the player on your left.\n"
                              "    source: designed\n"
                              "  - {name: Zap, type: event, count: 1, effects: [damage: 3], source: designed,\n"
                              "     text: Deal 3 to a player. May be DODGED or BLOCKED.}\n")
    assert "cards.yaml:6:11: error: card 'Grabby' field `text`: text says 'TAKE 2' but the card's effects say 1" \
        in out, out
    assert "Zap" not in out


def test_the_wrong_side_in_an_effects_cards_own_text_is_caught(tmp_path: Path) -> None:
    """ "the player on your right" on a card whose effects act on the left, or on a chosen player, contradicts
    what the engine does; "cards left" (what remains) names no side, and the right side passes."""
    out = _validate(tmp_path, "  - {name: Grabby, type: event, count: 1, effects: [{steal: {who: left}}], source: "
                              "designed,\n     text: Take a card from the player on your right.}\n"
                              "  - {name: Nabby, type: event, count: 1, effects: [{steal: {who: chosen}}], source: "
                              "designed,\n     text: Take a card from the player to the left.}\n"
                              "  - {name: Fine, type: event, count: 1, effects: [{steal: {who: left}}], source: "
                              "designed,\n     text: Take a card from the player on your left while they have cards "
                              "left.}\n"
                              "  - {name: Drift, type: event, count: 1, effects: [{pass: {way: right}}], source: "
                              "designed,\n     text: Every player passes a card to the right.}\n")
    assert "card 'Grabby' field `text`: text says 'on your right' but the card's effects go left" in out, out
    assert "card 'Nabby' field `text`: text says 'to the left' but none of the card's effects goes left or right" \
        in out, out
    assert "'Fine'" not in out and "'Drift'" not in out, out


def test_an_effects_card_of_an_attack_or_healing_type_is_told_to_change_its_type(tmp_path: Path) -> None:
    """An attack needs `damage`, and `damage` cannot stand beside `effects:`: the old message ("a Attack card
    needs `damage`") sent the designer round in a circle."""
    out = _validate(tmp_path, "  - {name: Jabby, type: attack, count: 1, effects: [damage: 2, draw: 1], "
                              "source: designed}\n"
                              "  - {name: Soup, type: healing, count: 1, effects: [heal: 2], source: designed}\n")
    assert ("card 'Jabby' field `type`: an Attack card needs `damage`, which a card written as `effects:` cannot "
            "have; give it an event or special type such as `type: event`") in out, out
    assert "card 'Soup' field `type`: a Healing card needs `heal`" in out


def test_a_primitive_written_without_its_colon_is_told_how_to_write_it(tmp_path: Path) -> None:
    """`- shuffle_discard` (no colon) is a word to YAML: "expected a mapping, got text" alone left the designer to
    guess; a misspelt bare word gets its did-you-mean."""
    out = _validate(tmp_path, "  - name: Tidy Up\n    type: event\n    count: 1\n    effects:\n"
                              "      - shuffle_discard\n      - draw: 1\n    source: designed\n"
                              "  - {name: Trade, type: event, count: 1, effects: [swap_hand], source: designed}\n")
    assert ("cards.yaml:6:9: error: card 'Tidy Up' field `effects.0`: expected a mapping, got text "
            "'shuffle_discard'; write `- shuffle_discard:` with a colon") in out, out
    assert "got text 'swap_hand' (did you mean 'swap_hands'?)" in out


def test_one_primitive_where_the_list_belongs_is_told_how_to_write_the_list(tmp_path: Path) -> None:
    """`effects: steal` and `effects: {steal: {...}}` are one primitive where a list of them belongs: the error says
    how to write the list; a word that is no primitive gets no such hint."""
    out = _validate(tmp_path, "  - {name: Grab, type: event, count: 1, effects: steal, source: designed}\n"
                              "  - {name: Grab Two, type: event, count: 1, effects: {steal: {cards: 2}},\n"
                              "     source: designed}\n"
                              "  - {name: Odd, type: event, count: 1, effects: nonsense, source: designed}\n")
    assert ("card 'Grab' field `effects`: text 'steal' is not 'text' (the card's own text says what it does) or a "
            "list of effects; `effects:` is a list, one primitive an entry: `effects: [{steal: ...}]`") in out, out
    assert ("card 'Grab Two' field `effects`: expected a list or text, got a mapping; `effects:` is a list, one "
            "primitive an entry: `effects: [{steal: ...}]`") in out, out
    odd = next(line for line in out.splitlines() if "'Odd'" in line)
    assert "is a list" not in odd, odd


def test_defences_on_an_effects_card_that_deals_no_damage_draw_a_warning(tmp_path: Path) -> None:
    """`defended_by: [dodge]` on a steal reads as "may be DODGED", yet the engine asks nobody: the steal happens
    (defences answer hits). It was accepted without a word."""
    out = _validate(tmp_path, "  - {name: Grabby, type: event, count: 1, effects: [{steal: {who: chosen}}],\n"
                              "     defended_by: [dodge], source: designed}\n"
                              "  - {name: Zap, type: event, count: 1, effects: [damage: 1], defended_by: [dodge],\n"
                              "     source: designed}\n")
    assert ("cards.yaml:3:19: warning: card 'Grabby' field `defended_by`: does nothing: defences answer a card's "
            "hits, and none of its effects is a `damage`") in out, out
    assert "Zap" not in out
