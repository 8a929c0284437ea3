"""Bad set files: each problem is reported with a clear message at the right line and column."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from cardgen.checks import load_set, load_set_with_warnings
from cardgen.errors import Diagnostic, SetError, UnknownSetError
from cardgen.loader.load import MAX_CARD_FILES
from cardgen.yaml_doc import MAX_FILE_BYTES, PRESCAN_CHARS

MINI = Path(__file__).parent / "fixtures" / "sets" / "good-mini"
MINI_SET_YAML = (MINI / "set.yaml").read_text(encoding="utf-8")
MINI_CARDS_YAML = (MINI / "cards.yaml").read_text(encoding="utf-8")
SetMaker = Callable[..., Path]

Errors = Callable[[Path], list[Diagnostic]]


def line_of(text: str, needle: str) -> int:
    """1-based line of the first occurrence of `needle` in `text`."""
    index = text.index(needle)
    return text[:index].count("\n") + 1


def col_of(text: str, needle: str) -> int:
    """1-based column of the first occurrence of `needle` in `text`."""
    index = text.index(needle)
    return index - (text.rfind("\n", 0, index) + 1) + 1


def only(diags: list[Diagnostic], fragment: str) -> Diagnostic:
    """The single diagnostic whose message contains `fragment`."""
    found = [d for d in diags if fragment in d.message]
    assert len(found) == 1, f"expected one diagnostic with {fragment!r}, got: " + "\n".join(map(str, diags))
    return found[0]


def cards_with(old: str, new: str) -> str:
    assert old in MINI_CARDS_YAML
    return MINI_CARDS_YAML.replace(old, new, 1)


def set_with(old: str, new: str) -> str:
    assert old in MINI_SET_YAML
    return MINI_SET_YAML.replace(old, new, 1)


def broken_cards(make_set: SetMaker, set_errors: Errors, cards: str) -> list[Diagnostic]:
    return set_errors(make_set({"set.yaml": MINI_SET_YAML, "cards.yaml": cards}))


# --- files that are not YAML, or not there ---------------------------------------------------


def test_unclosed_flow_mapping_is_not_yaml(make_set: SetMaker, set_errors: Errors) -> None:
    cards = cards_with("damage: 1, source: rulebook}", "damage: 1, source: rulebook")
    d = only(broken_cards(make_set, set_errors, cards), "not valid YAML")
    assert d.path.endswith("cards.yaml")
    assert d.line == line_of(cards, "  - {name: Block")
    assert d.column >= 1


def test_colon_in_plain_value_is_not_yaml(make_set: SetMaker, set_errors: Errors) -> None:
    text = "cards:\n  - name: Jab\n    type: basic: oops\n"
    d = only(broken_cards(make_set, set_errors, text), "not valid YAML")
    assert "a value holding ': ' needs quotes" in d.message  # plain words, not PyYAML's
    assert (d.line, d.column) == (3, 16)


def test_tab_indentation_is_reported_at_its_line(make_set: SetMaker, set_errors: Errors) -> None:
    text = "cards:\n\t- {name: Jab}\n"
    d = only(broken_cards(make_set, set_errors, text), "not valid YAML")
    assert "'\\t'" in d.message
    assert (d.line, d.column) == (2, 1)


def test_two_documents_in_one_file(make_set: SetMaker, set_errors: Errors) -> None:
    text = MINI_CARDS_YAML + "---\ncards: []\n"
    d = only(broken_cards(make_set, set_errors, text), "not valid YAML")
    assert "single document" in d.message
    assert d.line == line_of(text, "---")


def test_empty_card_file(make_set: SetMaker, set_errors: Errors) -> None:
    diags = set_errors(make_set({"set.yaml": MINI_SET_YAML, "cards.yaml": MINI_CARDS_YAML, "more.yaml": ""}))
    d = only(diags, "file is empty")
    assert d.path.endswith("more.yaml")
    assert (d.line, d.column) == (1, 1)


def test_comment_only_set_yaml_is_empty(make_set: SetMaker, set_errors: Errors) -> None:
    d = only(set_errors(make_set({"set.yaml": "# nothing yet\n\n"})), "file is empty")
    assert d.path.endswith("set.yaml") and d.line == 1


def test_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(UnknownSetError, match=r"set folder '.*no-such-set' does not exist"):
        load_set(tmp_path / "no-such-set")


def test_file_given_instead_of_folder(tmp_path: Path, set_errors: Errors) -> None:
    f = tmp_path / "set.yaml"
    f.write_text(MINI_SET_YAML)
    d = only(set_errors(f), "expected a set folder")
    assert d.line == 1


def test_missing_set_yaml_suggests_the_misspelt_file(make_set: SetMaker, set_errors: Errors) -> None:
    d = only(set_errors(make_set({"sett.yaml": MINI_SET_YAML})), "missing set.yaml")
    assert "did you mean 'sett.yaml'?" in d.message
    assert d.path.endswith("set.yaml")


def test_folder_named_like_a_card_file(make_set: SetMaker, set_errors: Errors) -> None:
    folder = make_set({"set.yaml": MINI_SET_YAML, "cards.yaml": MINI_CARDS_YAML})
    (folder / "more.yaml").mkdir()
    d = only(set_errors(folder), "not a regular file")
    assert d.path.endswith("more.yaml") and d.line == 1


def test_too_many_files(make_set: SetMaker, set_errors: Errors) -> None:
    files: dict[str, str | bytes] = {f"{i:02}.yaml": "cards: []\n" for i in range(MAX_CARD_FILES)}
    d = only(set_errors(make_set({"set.yaml": MINI_SET_YAML, **files})), "YAML files, over the limit")
    assert d.message.startswith(f"{MAX_CARD_FILES + 1} YAML files") and d.line == 1


def test_binary_garbage_with_nul_bytes(make_set: SetMaker, set_errors: Errors) -> None:
    garbage = b"cards:\n  - x\n\x89PNG\x00\x00\x1a\xff\xfe"
    d = only(set_errors(make_set({"set.yaml": MINI_SET_YAML, "cards.yaml": garbage})), "binary")
    assert "expected YAML text" in d.message
    assert d.line == 3


def test_invalid_utf8_names_the_line(make_set: SetMaker, set_errors: Errors) -> None:
    data = b"cards:\n  - {name: Caf\xe9, type: basic}\n"
    d = only(set_errors(make_set({"set.yaml": MINI_SET_YAML, "cards.yaml": data})), "not UTF-8")
    assert d.line == 2


def test_utf16_file_is_told_to_be_utf8(make_set: SetMaker, set_errors: Errors) -> None:
    data = MINI_CARDS_YAML.encode("utf-16")
    d = only(set_errors(make_set({"set.yaml": MINI_SET_YAML, "cards.yaml": data})), "UTF-16")
    assert "save it as UTF-8" in d.message and d.line == 1


def test_control_character_position(make_set: SetMaker, set_errors: Errors) -> None:
    text = "cards:\n  - {name: Ja\x07b}\n"
    d = only(broken_cards(make_set, set_errors, text), "control character U+0007")
    assert (d.line, d.column) == (2, col_of(text, "\x07"))


# --- schema: wrong types, unknown and missing keys ------------------------------------------


def test_count_as_words_is_a_wrong_type(make_set: SetMaker, set_errors: Errors) -> None:
    cards = cards_with("count: 2, damage: 1", "count: three, damage: 1")
    d = only(broken_cards(make_set, set_errors, cards), "field `count`")
    assert "card 'Jab'" in d.message and "expected a whole number, got text 'three'" in d.message
    assert (d.line, d.column) == (line_of(cards, "three"), col_of(cards, "three"))


def test_damage_as_mapping_is_a_wrong_type(make_set: SetMaker, set_errors: Errors) -> None:
    cards = cards_with("    damage: 3\n", "    damage: {low: 3}\n")
    d = only(broken_cards(make_set, set_errors, cards), "field `damage`")
    assert "card 'Headlock'" in d.message
    assert "expected a whole number or a list of strikes" in d.message
    assert d.line == line_of(cards, "{low: 3}")


def test_boolean_field_given_text(make_set: SetMaker, set_errors: Errors) -> None:
    cards = cards_with("damage: 1, source", "damage: 1, travels: sometimes, source")
    d = only(broken_cards(make_set, set_errors, cards), "field `travels`")
    assert "expected true or false, got text 'sometimes'" in d.message
    assert (d.line, d.column) == (2, col_of(cards, "sometimes"))


def test_float_count_is_a_wrong_type(make_set: SetMaker, set_errors: Errors) -> None:
    cards = cards_with("count: 2, defence", "count: 2.5, defence")
    d = only(broken_cards(make_set, set_errors, cards), "field `count`")
    assert "card 'Block'" in d.message and "got 2.5" in d.message
    assert d.line == 3


def test_card_file_that_is_a_list(make_set: SetMaker, set_errors: Errors) -> None:
    diags = broken_cards(make_set, set_errors, "- {name: Jab}\n- {name: Hook}\n")
    d = only(diags, "expected a mapping of set keys")
    assert "got a list" in d.message and d.line == 1


def test_unknown_card_key_with_did_you_mean(make_set: SetMaker, set_errors: Errors) -> None:
    cards = cards_with("    damage: 3\n", "    damge: 3\n")
    diags = broken_cards(make_set, set_errors, cards)
    d = only(diags, "unknown key 'damge'")
    assert "did you mean 'damage'?" in d.message and "card 'Headlock'" in d.message
    assert (d.line, d.column) == (line_of(cards, "damge"), 5)


def test_unknown_set_key_with_did_you_mean(make_set: SetMaker, set_errors: Errors) -> None:
    text = set_with("deck_size: 6", "deck_sise: 6")
    diags = set_errors(make_set({"set.yaml": text, "cards.yaml": MINI_CARDS_YAML}))
    d = only(diags, "unknown key 'deck_sise'")
    assert "did you mean 'deck_size'?" in d.message
    assert (d.line, d.column) == (3, 1)


def test_unknown_rules_key_with_did_you_mean(make_set: SetMaker, set_errors: Errors) -> None:
    text = set_with("  hand_size: 3", "  hand_sizes: 3")
    diags = set_errors(make_set({"set.yaml": text, "cards.yaml": MINI_CARDS_YAML}))
    d = only(diags, "unknown key 'hand_sizes'")
    assert "field `rules`" in d.message and "did you mean 'hand_size'?" in d.message
    assert (d.line, d.column) == (line_of(text, "hand_sizes"), 3)


def test_missing_required_card_key(make_set: SetMaker, set_errors: Errors) -> None:
    cards = cards_with("count: 2, damage: 1, source: rulebook}", "count: 2, damage: 1}")
    d = only(broken_cards(make_set, set_errors, cards), "missing required key 'source'")
    assert "card 'Jab'" in d.message
    assert (d.line, d.column) == (2, 5)


def test_missing_required_set_keys_are_all_listed(make_set: SetMaker, set_errors: Errors) -> None:
    text = set_with("title: Mini Set\n", "")
    diags = set_errors(make_set({"set.yaml": text.replace("deck_size: 6\n", ""), "cards.yaml": MINI_CARDS_YAML}))
    assert only(diags, "missing required key 'title'").line == 1
    assert only(diags, "missing required key 'deck_size'").line == 1


def test_set_key_in_a_card_file(make_set: SetMaker, set_errors: Errors) -> None:
    cards = "deck_size: 6\n" + MINI_CARDS_YAML
    d = only(broken_cards(make_set, set_errors, cards), "belongs in set.yaml")
    assert "'deck_size'" in d.message and (d.line, d.column) == (1, 1)


def test_duplicate_yaml_key(make_set: SetMaker, set_errors: Errors) -> None:
    text = MINI_SET_YAML + "title: Again\n"
    d = only(set_errors(make_set({"set.yaml": text, "cards.yaml": MINI_CARDS_YAML})), "duplicate key 'title'")
    assert (d.line, d.column) == (line_of(text, "title: Again"), 1)


def test_bad_colour_says_the_expected_form(make_set: SetMaker, set_errors: Errors) -> None:
    text = set_with('colour: "#2F6FD6"', "colour: blue")
    d = only(set_errors(make_set({"set.yaml": text, "cards.yaml": MINI_CARDS_YAML})), "types.defense.colour")
    assert "'#RRGGBB'" in d.message and "text 'blue'" in d.message
    assert (d.line, d.column) == (line_of(text, "blue"), col_of(text, "blue"))


# --- counts and damage -------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["0", "-3"])
def test_count_below_one(make_set: SetMaker, set_errors: Errors, value: str) -> None:
    cards = cards_with("count: 2, defence", f"count: {value}, defence")
    d = only(broken_cards(make_set, set_errors, cards), "field `count`")
    assert f"must be at least 1, got {value}" in d.message and "card 'Block'" in d.message
    assert (d.line, d.column) == (3, col_of(cards, f"{value}, defence"))


def test_zero_damage(make_set: SetMaker, set_errors: Errors) -> None:
    cards = cards_with("    damage: 3\n", "    damage: 0\n")
    d = only(broken_cards(make_set, set_errors, cards), "field `damage`")
    assert "must be from 1 to 99, got 0" in d.message
    assert (d.line, d.column) == (line_of(cards, "damage: 0"), 13)


def test_negative_strike_in_a_multi_strike(make_set: SetMaker, set_errors: Errors) -> None:
    cards = cards_with("damage: 1, source", "damage: [4, -3], source")
    d = only(broken_cards(make_set, set_errors, cards), "field `damage`")
    assert "every strike must be a whole number from 1 to 99, got -3" in d.message
    assert d.line == 2


def test_integral_float_is_not_a_whole_number(make_set: SetMaker, set_errors: Errors) -> None:
    cards = cards_with("count: 2, damage: 1,", "count: 2.0, damage: 1.0,")
    diags = broken_cards(make_set, set_errors, cards)
    assert only(diags, "field `count`").message.endswith("expected a whole number, got 2.0")
    d = only(diags, "field `damage`")
    assert "got 1.0" in d.message and (d.line, d.column) == (2, col_of(cards, "1.0"))


@pytest.mark.parametrize(("old", "new", "field"), [
    ("count: 2, damage", "count: 1000, damage", "`count`: must be at most 99, got 1000"),
    ("damage: 1,", "damage: 500,", "`damage`: must be from 1 to 99, got 500"),
])
def test_absurdly_large_numbers(make_set: SetMaker, set_errors: Errors, old: str, new: str, field: str) -> None:
    cards = cards_with(old, new)
    d = only(broken_cards(make_set, set_errors, cards), field)
    assert d.line == 2


def test_heal_that_can_never_be_played(make_set: SetMaker, set_errors: Errors) -> None:
    cards = cards_with("defence: block", "heal: {amount: 2, when: []}")
    d = only(broken_cards(make_set, set_errors, cards), "field `heal.when`")
    assert d.message.endswith("field `heal.when`: must not be empty")
    assert (d.line, d.column) == (3, col_of(cards, "[]"))


def test_zero_deck_size(make_set: SetMaker, set_errors: Errors) -> None:
    text = set_with("deck_size: 6", "deck_size: 0")
    d = only(set_errors(make_set({"set.yaml": text, "cards.yaml": MINI_CARDS_YAML})), "field `deck_size`")
    assert "must be at least 1, got 0" in d.message and (d.line, d.column) == (3, 12)


# --- cross-card checks ---------------------------------------------------------------------


def test_duplicate_card_name_points_at_both(make_set: SetMaker, set_errors: Errors) -> None:
    cards = MINI_CARDS_YAML + "  - {name: jab, type: basic, count: 1, damage: 2, source: designed}\n"
    d = only(broken_cards(make_set, set_errors, cards), "duplicate card name 'jab'")
    assert f"first defined at {d.path}:2" in d.message and "raise `count`" in d.message
    assert (d.line, d.column) == (line_of(cards, "name: jab"), col_of(cards, "jab"))


def test_duplicate_card_name_across_files(make_set: SetMaker, set_errors: Errors) -> None:
    extra = "cards:\n  - {name: Block, type: defense, count: 1, defence: block, source: designed}\n"
    diags = set_errors(make_set({"set.yaml": MINI_SET_YAML, "a.yaml": MINI_CARDS_YAML, "b.yaml": extra}))
    d = only(diags, "duplicate card name 'Block'")
    assert d.path.endswith("b.yaml") and "a.yaml:3" in d.message
    assert (d.line, d.column) == (2, 12)


def test_unknown_card_type_with_did_you_mean(make_set: SetMaker, set_errors: Errors) -> None:
    cards = cards_with("type: basic, count: 2", "type: basik, count: 2")
    d = only(broken_cards(make_set, set_errors, cards), "unknown card type 'basik'")
    assert "did you mean 'basic'?" in d.message and "expected one of basic, defense, specialty" in d.message
    assert (d.line, d.column) == (2, col_of(cards, "basik"))


def test_unknown_half_of_a_counter_pair(make_set: SetMaker, set_errors: Errors) -> None:
    cards = cards_with("defence: block", "pair: [block, hodl]")
    d = only(broken_cards(make_set, set_errors, cards), "field `pair.1`")
    assert "expected one of dodge, block, hold, disarm" in d.message and "did you mean 'hold'?" in d.message
    assert (d.line, d.column) == (3, col_of(cards, "hodl"))


def test_counter_pair_with_the_same_half_twice(make_set: SetMaker, set_errors: Errors) -> None:
    cards = cards_with("defence: block", "pair: [block, block]")
    d = only(broken_cards(make_set, set_errors, cards), "both halves are 'block'")
    assert (d.line, d.column) == (3, col_of(cards, "[block, block]"))


def test_follow_up_whose_opener_is_missing(make_set: SetMaker, set_errors: Errors) -> None:
    cards = cards_with("    follows: grab\n", "    follows: grapple\n")
    d = only(broken_cards(make_set, set_errors, cards), "no card in the set opens 'grapple'")
    assert "card 'Headlock' field `follows`" in d.message and "known openers: grab" in d.message
    assert (d.line, d.column) == (line_of(cards, "grapple"), 14)


def test_follow_up_misspelt_opener_gets_did_you_mean(make_set: SetMaker, set_errors: Errors) -> None:
    cards = cards_with("    follows: grab\n", "    follows: grabb\n")
    d = only(broken_cards(make_set, set_errors, cards), "no card in the set opens 'grabb'")
    assert "did you mean 'grab'?" in d.message


def test_opener_then_names_an_unknown_type(make_set: SetMaker, set_errors: Errors) -> None:
    cards = cards_with("then: [basic]", "then: [basics]")
    d = only(broken_cards(make_set, set_errors, cards), "field `opens.then`")
    assert "unknown card type 'basics'" in d.message and "did you mean 'basic'?" in d.message
    assert d.line == line_of(cards, "opens:")


def test_attack_without_damage(make_set: SetMaker, set_errors: Errors) -> None:
    cards = cards_with("count: 2, damage: 1, source", "count: 2, source")
    d = only(broken_cards(make_set, set_errors, cards), "needs `damage`")
    assert "card 'Jab'" in d.message and "Basic Attack" in d.message
    assert (d.line, d.column) == (2, col_of(cards, "basic"))


def test_travels_and_passes_on_together(make_set: SetMaker, set_errors: Errors) -> None:
    cards = cards_with("damage: 1, source", "damage: 1, travels: true, passes_on: left, source")
    d = only(broken_cards(make_set, set_errors, cards), "cannot both travel and pass on")
    assert (d.line, d.column) == (2, col_of(cards, "left"))


def test_equivalence_to_a_missing_card(make_set: SetMaker, set_errors: Errors) -> None:
    text = MINI_SET_YAML + "equivalences:\n  Jabb: Jab\n"
    d = only(set_errors(make_set({"set.yaml": text, "cards.yaml": MINI_CARDS_YAML})), "equivalences: 'Jabb'")
    assert "is not a card of this set" in d.message and "did you mean 'Jab'?" in d.message
    assert (d.line, d.column) == (line_of(text, "Jabb"), 3)


# --- stated text against the mechanics ------------------------------------------------------


def test_text_stating_a_wrong_number(make_set: SetMaker, set_errors: Errors) -> None:
    cards = cards_with("damage: 1, source", "damage: 1, text: 'Deals 3.', source")
    d = only(broken_cards(make_set, set_errors, cards), "field `text`")
    assert "text says 'DEALS 3' but the card's damage is 1" in d.message
    assert (d.line, d.column) == (2, col_of(cards, "'Deals 3.'"))


def test_text_using_a_keyword_the_card_lacks(make_set: SetMaker, set_errors: Errors) -> None:
    cards = cards_with("damage: 1, source", "damage: 1, text: 'Deals 1. TRAVELS.', source")
    d = only(broken_cards(make_set, set_errors, cards), "field `text`")
    assert "text says TRAVELS but the mechanics do not have it" in d.message and d.line == 2


def test_text_naming_an_unrelated_card(make_set: SetMaker, set_errors: Errors) -> None:
    cards = cards_with("damage: 1, source", "damage: 1, text: 'Deals 1, then play a Headlock.', source")
    d = only(broken_cards(make_set, set_errors, cards), "field `text`")
    assert "text mentions card 'Headlock' but the mechanics do not refer to it" in d.message and d.line == 2


def test_text_that_agrees_with_the_mechanics_loads(make_set: SetMaker) -> None:
    cards = cards_with("    damage: 3\n", "    damage: 3\n    text: After a GRAB, the victim loses 3.\n")
    cs = load_set(make_set({"set.yaml": MINI_SET_YAML, "cards.yaml": cards}))
    assert cs.card("Headlock").text == "After a GRAB, the victim loses 3."


# --- deck size -------------------------------------------------------------------------------


@pytest.mark.parametrize(("declared", "delta"), [(5, "+1"), (9, "-3")])
def test_deck_total_differs_from_declared_size(make_set: SetMaker, set_errors: Errors, declared: int,
                                               delta: str) -> None:
    text = set_with("deck_size: 6", f"deck_size: {declared}")
    d = only(set_errors(make_set({"set.yaml": text, "cards.yaml": MINI_CARDS_YAML})), "deck_size: declared")
    assert f"declared {declared} cards but the card counts add up to 6 ({delta})" in d.message
    assert (d.line, d.column) == (3, 12)


# --- hostile files ---------------------------------------------------------------------------


def test_alias_bomb_is_refused_quickly(make_set: SetMaker, set_errors: Errors) -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 10):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    bomb = "\n".join(lines) + "\n"  # 10**10 values if expanded
    folder = make_set({"set.yaml": MINI_SET_YAML, "cards.yaml": bomb})
    start = time.perf_counter()
    diags = set_errors(folder)
    assert time.perf_counter() - start < 20.0  # a bound against expanding 10**10 values, not a speed figure
    d = only(diags, "alias bomb")
    assert "refused" in d.message and d.path.endswith("cards.yaml") and d.line == 1


def test_file_over_the_size_limit_is_not_parsed(make_set: SetMaker, set_errors: Errors) -> None:
    big = "cards:\n" + "# padding padding padding padding padding\n" * (MAX_FILE_BYTES // 40 + 10)
    d = only(set_errors(make_set({"set.yaml": MINI_SET_YAML, "cards.yaml": big})), "over the")
    assert f"{MAX_FILE_BYTES}-byte limit" in d.message and d.line == 1


def test_python_object_tag_is_reported_and_never_executed(make_set: SetMaker, set_errors: Errors,
                                                          tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    cards = MINI_CARDS_YAML + f"  - !!python/object/apply:os.system ['touch {marker}']\n"
    diags = broken_cards(make_set, set_errors, cards)
    d = only(diags, "unsupported YAML tag")
    assert "python/object/apply:os.system" in d.message and "only plain data" in d.message
    assert (d.line, d.column) == (line_of(cards, "!!python"), 5)
    assert not marker.exists()


def test_python_name_tag_on_a_scalar(make_set: SetMaker, set_errors: Errors) -> None:
    cards = cards_with("name: Jab", "name: !!python/name:os.system Jab")
    d = only(broken_cards(make_set, set_errors, cards), "unsupported YAML tag")
    assert "python/name:os.system" in d.message and (d.line, d.column) == (2, col_of(cards, "!!python"))


def test_merge_keys_are_refused_clearly(make_set: SetMaker, set_errors: Errors) -> None:
    cards = cards_with("  - {name: Jab, type: basic,", "  - {<<: {x: 1}, name: Jab, type: basic,")
    d = only(broken_cards(make_set, set_errors, cards), "merge keys")
    assert (d.line, d.column) == (2, 6)


# --- many problems at once, and warnings -----------------------------------------------------


def test_every_problem_is_reported_at_once(make_set: SetMaker, set_errors: Errors) -> None:
    cards = (cards_with("count: 2, damage: 1", "count: 0, damage: 1")
             .replace("type: defense, count: 2", "type: defence, count: 2")
             + "  - {name: Headlock, type: specialty, count: 1, damage: 2, source: designed}\n")
    broken = "cards:\n  - {name: Hook\n"
    diags = set_errors(make_set({"set.yaml": MINI_SET_YAML, "a.yaml": cards, "b.yaml": broken}))
    errors = [d for d in diags if d.severity == "error"]
    assert only(errors, "must be at least 1, got 0").line == 2
    assert only(errors, "unknown card type 'defence'").line == 3
    assert only(errors, "duplicate card name 'Headlock'").line == line_of(cards, "{name: Headlock")
    assert only(errors, "not valid YAML").path.endswith("b.yaml")
    # a total is meaningless while cards are missing, so it is not reported as well
    assert not [d for d in errors if "deck_size" in d.message]
    assert len(errors) == 4


def test_set_error_message_lists_every_problem(make_set: SetMaker) -> None:
    cards = cards_with("count: 2, damage: 1", "count: -1, damage: 1").replace("damage: 3", "damage: 0")
    with pytest.raises(SetError) as info:
        load_set(make_set({"set.yaml": MINI_SET_YAML, "cards.yaml": cards}))
    lines = str(info.value).splitlines()
    assert len(lines) == 2 and all(": error: " in line for line in lines)


def test_warnings_do_not_fail_the_load(make_set: SetMaker) -> None:
    folder = make_set({"set.yaml": MINI_SET_YAML, "cards.yaml": MINI_CARDS_YAML, "extra.yml": "cards: []\n"})
    cs, warnings = load_set_with_warnings(folder)
    assert cs.total == 6
    yml = only(warnings, "must end in .yaml")
    assert yml.path.endswith("extra.yml") and yml.severity == "warning"
    assert str(yml).split(": ")[1] == "warning"
    assert str(yml).split(": ")[1] == "warning"


# --- cards that would print blank or say what they do not do ----------------------------


def test_card_without_any_mechanic(make_set: SetMaker, set_errors: Errors) -> None:
    cards = MINI_CARDS_YAML + "  - {name: Prop, type: specialty, count: 1, source: designed}\n"
    d = only(broken_cards(make_set, set_errors, cards), "has no mechanics at all")
    assert "card 'Prop'" in d.message and "blank face" in d.message
    assert (d.line, d.column) == (line_of(cards, "{name: Prop"), col_of(cards, "Prop"))


@pytest.mark.parametrize(("field", "meaning"), [("stuns", "no stun"), ("stunned", "no stun on its player"),
                                                ("retaliates", "no damage back"), ("draw", "no cards drawn")])
def test_zero_that_means_nothing(make_set: SetMaker, set_errors: Errors, field: str, meaning: str) -> None:
    cards = cards_with("count: 2, damage: 1, source", f"count: 2, damage: 1, {field}: 0, source")
    d = only(broken_cards(make_set, set_errors, cards), f"field `{field}`: 0 means {meaning}")
    assert "card 'Jab'" in d.message and "remove it" in d.message
    assert (d.line, d.column) == (2, col_of(cards, f"{field}: 0") + len(field) + 2)


def test_override_to_zero_takes_a_mechanic_away_but_a_zero_on_nothing_is_refused(make_set: SetMaker,
                                                                                  set_errors: Errors) -> None:
    base = make_set({"set.yaml": MINI_SET_YAML, "cards.yaml": cards_with("damage: 1, source",
                                                                         "damage: 1, stuns: 2, source")}, "base")
    fine = make_set({"set.yaml": "name: mine\ntitle: Mine\nextends: ../base\n"
                                 "override:\n  - {name: Jab, stuns: 0}\n"}, "fine")
    assert load_set(fine).card("Jab").stuns == 0
    text = "name: mine\ntitle: Mine\nextends: ../base\noverride:\n  - {name: Headlock, stunned: 0}\n"
    d = only(set_errors(make_set({"set.yaml": text}, "broken")), "field `stunned`: 0 means")
    assert "override 'Headlock'" in d.message and "the base card has none either" in d.message
    assert (d.line, d.column) == (5, col_of(text, "stunned: 0") + len("stunned: "))
    assert base.is_dir()


@pytest.mark.parametrize(("text", "stated"), [("Takes three counters.", "TAKES THREE"),
                                              ("Deals five.", "DEALS FIVE")])
def test_text_stating_a_wrong_number_in_words(make_set: SetMaker, set_errors: Errors, text: str,
                                              stated: str) -> None:
    cards = cards_with("    damage: 3\n", f"    damage: 4\n    text: {text}\n")
    d = only(broken_cards(make_set, set_errors, cards), f"text says '{stated}'")
    assert "card 'Headlock'" in d.message and "damage is 4" in d.message
    assert (d.line, d.column) == (line_of(cards, "    text:"), col_of(cards, text))


def test_number_word_the_mechanics_do_not_have(make_set: SetMaker, set_errors: Errors) -> None:
    cards = cards_with("    damage: 3\n", "    damage: 3\n    text: Deals 3. Draw two.\n")
    d = only(broken_cards(make_set, set_errors, cards), "text states two (2)")
    assert (d.line, d.column) == (line_of(cards, "    text:"), col_of(cards, "Deals 3"))


def test_number_words_that_agree_load(make_set: SetMaker) -> None:
    cards = cards_with("    damage: 3\n", "    damage: 3\n    text: Only right after a successful GRAB. "
                                          "Takes three counters, one of them for good.\n")
    assert load_set(make_set({"set.yaml": MINI_SET_YAML, "cards.yaml": cards})).card("Headlock").text


# --- names and text that cannot be printed or only look unique --------------------------


def test_name_of_only_spaces(make_set: SetMaker, set_errors: Errors) -> None:
    cards = cards_with("{name: Jab,", "{name: '   ',")
    d = only(broken_cards(make_set, set_errors, cards), "is only spaces")
    assert (d.line, d.column) == (2, col_of(cards, "'   '"))


@pytest.mark.parametrize(("escape", "code", "words"), [
    ("\\u202E", "U+202E", "invisible formatting character U+202E (RIGHT-TO-LEFT OVERRIDE)"),
    ("\\u200B", "U+200B", "invisible formatting character U+200B (ZERO WIDTH SPACE)"),
    ("\\a", "U+0007", "control character U+0007"),
])
def test_hidden_characters_in_a_name(make_set: SetMaker, set_errors: Errors, escape: str, code: str,
                                     words: str) -> None:
    cards = cards_with("{name: Jab,", f'{{name: "Ja{escape}b",')
    d = only(broken_cards(make_set, set_errors, cards), code)
    assert "card 'Ja" in d.message and "field `name`" in d.message and words in d.message
    assert (d.line, d.column) == (2, col_of(cards, '"Ja'))


def test_control_character_in_text(make_set: SetMaker, set_errors: Errors) -> None:
    cards = cards_with("    damage: 3\n", '    damage: 3\n    text: "Deals 3.\\e[31m"\n')
    d = only(broken_cards(make_set, set_errors, cards), "field `text`: has a control character U+001B")
    assert d.line == line_of(cards, "    text:")


@pytest.mark.parametrize("lookalike", ["'Jab\\u200b'", "'Ｊab'", "'jab  '"])
def test_name_that_only_looks_different_is_a_duplicate(make_set: SetMaker, set_errors: Errors,
                                                       lookalike: str) -> None:
    quoted = lookalike.replace("'", '"')
    cards = MINI_CARDS_YAML + f"  - {{name: {quoted}, type: basic, count: 1, damage: 2, source: designed}}\n"
    d = only(broken_cards(make_set, set_errors, cards), "looks the same as 'Jab'")
    assert f"first defined at {d.path}:2" in d.message
    assert (d.line, d.column) == (line_of(cards, quoted), col_of(cards, quoted))


# --- limits after extends and mixing; refusing big files early --------------------------


def test_extends_cannot_pass_the_1000_card_maximum(make_set: SetMaker, set_errors: Errors) -> None:
    names = [c.name for c in load_set("lunch").cards][:11]
    overrides = "".join(f"  - {{name: \"{n}\", count: 99}}\n" for n in names)
    text = "name: huge\ntitle: Huge\nextends: lunch\noverride:\n" + overrides
    d = only(set_errors(make_set({"set.yaml": text})), "over the maximum of 1000")
    assert "the deck has 1" in d.message and "`extends:` included" in d.message
    assert (d.line, d.column) == (3, col_of(text, "lunch"))


def test_mixing_cannot_pass_the_1000_card_maximum(make_set: SetMaker) -> None:
    from cardgen.loader import mix_sets

    big = MINI_SET_YAML.replace("deck_size: 6", "deck_size: 600").replace("life: 10", "life: 10")
    cards = "cards:\n" + "".join(f"  - {{name: C{i}, type: basic, count: 10, damage: 1, source: designed}}\n"
                                 for i in range(60))
    a = load_set(make_set({"set.yaml": big, "cards.yaml": cards}, "a"))
    b = load_set(make_set({"set.yaml": big.replace("name: mini", "name: other"), "cards.yaml": cards}, "b"))
    with pytest.raises(SetError) as info:
        mix_sets([a, b])
    [d] = info.value.diagnostics
    assert d.path.endswith("b/set.yaml") and (d.line, d.column) == (1, 1)
    assert "mixing mini (600) + other (600) makes a deck of 1200 cards, over the maximum of 1000" in d.message


def test_a_file_of_thousands_of_cards_is_refused_before_checking(make_set: SetMaker, set_errors: Errors) -> None:
    cards = "cards:\n" + "".join(f"  - {{name: C{i}, type: basic, count: 1, damage: 1, sorce: x}}\n"
                                 for i in range(2000))
    folder = make_set({"set.yaml": MINI_SET_YAML, "1-many.yaml": cards, "2-more.yaml": "cards: [oops\n"})
    diags = set_errors(folder)
    assert len(cards) > PRESCAN_CHARS  # counted from the event stream, stopping after 1001 entries
    d = only(diags, "more than 1000 cards in this file, more than the 1000 card designs the set may still have; "
                    "refused after reading its first 1001")
    assert d.path.endswith("1-many.yaml") and (d.line, d.column) == (1, 1)
    assert not any("sorce" in x.message for x in diags)  # no card of it was checked
    assert not any(x.path.endswith("2-more.yaml") for x in diags)  # and the files after it were not read


def test_designs_are_counted_across_files(make_set: SetMaker, set_errors: Errors) -> None:
    def block(start: int) -> str:
        return "cards:\n" + "".join(f"  - {{name: C{i}, type: basic, count: 1, damage: 1, source: designed}}\n"
                                    for i in range(start, start + 600))

    diags = set_errors(make_set({"set.yaml": MINI_SET_YAML, "1-a.yaml": block(0), "2-b.yaml": block(600)}))
    d = only(diags, "600 cards in this file, more than the 400 card designs the set may still have; refused before")
    assert d.path.endswith("2-b.yaml") and (d.line, d.column) == (1, 1)


def test_set_files_over_the_total_size_limit(make_set: SetMaker, set_errors: Errors,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from cardgen.loader import load as load_module

    monkeypatch.setattr(load_module, "MAX_SET_BYTES", len(MINI_SET_YAML) + 10)
    d = only(set_errors(make_set({"set.yaml": MINI_SET_YAML, "cards.yaml": MINI_CARDS_YAML})), "add up to more than")
    assert d.path.endswith("cards.yaml") and "were not read" in d.message


def test_hidden_character_in_the_title_or_a_type_label(make_set: SetMaker, set_errors: Errors) -> None:
    text = set_with("title: Mini Set", 'title: "Mini\\u202ESet"').replace("label: Defense,", 'label: "De\\tfense",')
    diags = set_errors(make_set({"set.yaml": text, "cards.yaml": MINI_CARDS_YAML}))
    d = only(diags, "title: has an invisible formatting character U+202E")
    assert (d.line, d.column) == (line_of(text, "title:"), col_of(text, '"Mini'))
    assert not any("label" in x.message for x in diags)  # a tab is whitespace, not hidden
