"""Loading valid sets: positions, order, defaults, set references and mixing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from cardgen.checks import load_set, load_sets
from cardgen.errors import Diagnostic, UnknownSetError
from cardgen.loader import mix_sets, resolve_set
from cardgen.model import Heal, Opener

SetMaker = Callable[..., Path]
MINI = Path(__file__).parent / "fixtures" / "sets" / "good-mini"


def test_mini_set_builds_the_model() -> None:
    cs = load_set(MINI)
    assert (cs.name, cs.title, cs.deck_size, cs.total) == ("mini", "Mini Set", 6, 6)
    assert cs.rules.life == 10 and cs.rules.hand_size == 3 and cs.rules.life_word == "life"
    assert [c.name for c in cs.cards] == ["Jab", "Block", "Grab", "Headlock"]
    grab = cs.card("Grab")
    assert grab.opens == Opener(combo="grab", then=("basic",), free=True)
    assert grab.defended_by == ("freedom",)
    assert cs.card("Jab").damage == (1,)
    assert cs.card("Headlock").defended_by is None  # the role's default applies


def test_cards_remember_where_they_were_written() -> None:
    cs = load_set(MINI)
    jab, grab = cs.card("Jab"), cs.card("Grab")
    assert Path(jab.file).name == "cards.yaml"
    assert (jab.line, jab.column) == (2, 5) and grab.line == 4
    assert {c.origin for c in cs.cards} == {"mini"}
    assert [c.number for c in cs.cards] == [1, 2, 3, 4]


def test_colours_are_normalised_to_upper_case(make_set: SetMaker, mini_set_files: dict[str, str]) -> None:
    files = dict(mini_set_files)
    files["set.yaml"] = files["set.yaml"].replace('"#F4C20D"', '"#f4c20d"')
    cs = load_set(make_set(files))
    assert cs.types["basic"].colour == "#F4C20D"


def test_heal_when_defaults_to_own_turn(make_set: SetMaker, mini_set_files: dict[str, str]) -> None:
    files = dict(mini_set_files)
    files["cards.yaml"] = files["cards.yaml"].replace("defence: block", "heal: {amount: 2}")
    cs = load_set(make_set(files))
    assert cs.card("Block").heal == Heal(2, ("turn",))


def test_cards_may_live_in_set_yaml_and_several_files(make_set: SetMaker, mini_set_files: dict[str, str]) -> None:
    cards = mini_set_files["cards.yaml"].splitlines(keepends=True)
    head = mini_set_files["set.yaml"] + "".join(cards[:3])  # cards: + Jab + Block
    rest = "cards:\n" + "".join(cards[3:])
    cs = load_set(make_set({"set.yaml": head, "2-rest.yaml": rest}))
    assert [c.name for c in cs.cards] == ["Jab", "Block", "Grab", "Headlock"]
    assert Path(cs.card("Grab").file).name == "2-rest.yaml"


def test_resolve_set_accepts_names_and_paths() -> None:
    assert resolve_set("lunch").name == "lunch"
    assert resolve_set(str(MINI)) == MINI
    with pytest.raises(UnknownSetError, match="did you mean 'classic'"):
        resolve_set("clasic")


def test_load_sets_mixes_in_order() -> None:
    mixed = load_sets(["beer", "lunch"])
    assert mixed.name == "beer+lunch" and mixed.cards[0].origin == "beer"
    assert mixed.cards[-1].origin == "lunch"
    assert mixed.rules.weapons_may_drop  # Beer Money's option carries into the mix
    assert [c.number for c in mixed.cards] == list(range(1, len(mixed.cards) + 1))


def test_mixing_drops_an_equivalence_between_different_cards_with_a_warning(
        make_set: SetMaker, mini_set_files: dict[str, str]) -> None:
    files = dict(mini_set_files)
    files["set.yaml"] = files["set.yaml"].replace("name: mini", "name: other") + "equivalences: {Block: Dodge}\n"
    other = load_set(make_set(files))
    warnings: list[Diagnostic] = []
    mixed = mix_sets([load_set("lunch"), other], warnings)
    assert "Block" not in mixed.equivalences
    [w] = warnings
    assert w.severity == "warning"
    assert "equivalence 'Block' = 'Dodge' ignored in this mix: lunch's Dodge does not play the same way" in w.message


def test_classic_and_beer_mix_keeps_only_equivalences_that_hold() -> None:
    warnings: list[Diagnostic] = []
    mixed = mix_sets([load_set("classic"), load_set("beer")], warnings)
    assert mixed.total == 214
    assert "Horror of Horrors" not in mixed.equivalences  # classic's Humiliation cancels, beer's redirects
    assert any("Horror of Horrors" in w.message for w in warnings)


def test_loading_twice_gives_equal_sets() -> None:
    assert load_set("beer") == load_set("beer")


def test_mix_switches_on_revival_whichever_set_comes_first() -> None:
    for order in (["lunch", "beer"], ["beer", "lunch"]):
        mixed = load_sets(order)
        assert mixed.rules.revive and mixed.rules.weapons_may_drop, order


@pytest.mark.parametrize(("text", "count"), [
    ("cards:\n- a\n- {b: 1}\n- [c]\n- &x d\n- *x\nother: [1, 2, 3, 4, 5, 6, 7]\n", 5),
    ("name: x\nnested: {cards: [1, 2, 3, 4, 5, 6, 7, 8]}\ncards: [{a: [1, 2, 3]}, 2]\n", 2),
    ("- cards\n- [1, 2, 3]\n", 0),
    ("cards: {a: 1, b: 2}\n", 0),
    ("cards: [1, 2\n", 0),  # broken: left to the full parse, which says where
])
def test_counting_cards_from_the_event_stream_matches_the_document(text: str, count: int) -> None:
    import yaml

    from cardgen.yaml_doc import cards_in, count_cards_until

    assert count_cards_until(text, 100) == count
    try:
        assert cards_in(yaml.compose(text, Loader=yaml.SafeLoader)) == count
    except yaml.YAMLError:
        assert count == 0
    assert count_cards_until("cards:\n" + "- x\n" * 50, 9) == 10  # stops as soon as the limit is passed
