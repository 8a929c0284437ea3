"""Paired deals at any deck size: per-card keys, and copies one version gains borrowing the
keys of copies it lost, so a copy-count change moves only the cards it changes."""

from __future__ import annotations

from pathlib import Path

from cardgen.checks import load_set
from cardgen.model import CardSet
from cardgen.sim.deal import SharedKeys, card_key, key_plan, keyed_deck, keyed_decks

PLANTS = Path(__file__).parent / "fixtures" / "balance_plants"


def _names(cs: CardSet, deck: list[int]) -> list[str]:
    return [cs.cards[d].name for d in deck]


def test_a_copy_count_change_moves_only_the_copies_it_changes() -> None:
    b = load_set(PLANTS / "copies-only")  # Smack 5 -> 3, Kick² 5 -> 7: same deck size
    a = load_set(Path(b.base))
    plan_a, plan_b = key_plan(a), key_plan(b, a)
    borrowed = [(a_name, j) for d, a_name, j in plan_b.ids if b.cards[d].name != a_name]
    assert sorted(borrowed) == [("Smack", 3), ("Smack", 4)]  # Kick²'s two new copies take Smack's lost keys
    for game in range(20):
        da, db = _names(a, keyed_deck(a, 7, game, plan_a)), _names(b, keyed_deck(b, 7, game, plan_b))
        differ = [i for i, (x, y) in enumerate(zip(da, db, strict=True)) if x != y]
        assert len(differ) == 2 and all(da[i] == "Smack" and db[i] == "Kick²" for i in differ)
    # without borrowing the new copies get keys of their own and everything after them shifts
    own = [_names(b, keyed_deck(b, 7, g, key_plan(b))) for g in range(20)]
    shifted = [sum(x != y for x, y in zip(_names(a, keyed_deck(a, 7, g, plan_a)), o, strict=True)) for g, o in
               enumerate(own)]
    assert max(shifted) > 2


def test_a_new_card_slips_in_and_the_shared_cards_keep_their_order() -> None:
    b = load_set(PLANTS / "new-card")  # four copies of a new card: the deck grows from 110 to 114
    a = load_set(Path(b.base))
    assert key_plan(b, a) == key_plan(b)  # nothing was lost, so nothing is borrowed
    for game in range(20):
        da = _names(a, keyed_deck(a, 3, game, key_plan(a)))
        db = _names(b, keyed_deck(b, 3, game, key_plan(b, a)))
        assert len(db) == len(da) + 4
        assert [n for n in db if n != "Bar Brawl"] == da


def test_keyed_decks_are_shuffled_and_reproducible() -> None:
    a = load_set("beer")
    decks = [keyed_deck(a, 0, g) for g in range(3)]
    assert decks[0] == keyed_deck(a, 0, 0)
    assert len({tuple(d) for d in decks}) == 3
    assert sorted(decks[0]) == sorted(d for d, c in enumerate(a.cards) for _ in range(c.count))


def test_a_keyed_deck_is_its_cards_sorted_by_card_key() -> None:
    """The deck is defined by `card_key` (a hash of the run seed, the game, the card's name and copy number);
    the fast path that hashes from a copied hash state must lay the cards down exactly so."""
    a, b = load_set("beer"), load_set(PLANTS / "new-card")
    for cs, plan in ((a, key_plan(a)), (b, key_plan(b, a))):
        for seed, game in ((0, 0), (7, 3), (2**40, 99)):
            want = sorted((card_key(seed, game, name, j), d) for d, name, j in plan.ids)
            assert keyed_deck(cs, seed, game, plan) == [d for _, d in want]


def test_the_decks_of_both_versions_at_once_are_each_versions_own_keyed_deck() -> None:
    """`keyed_decks` hashes and sorts the identities the versions share once: the same decks as `keyed_deck` of
    each version, for a mechanics change, a copy-count change (borrowed keys), a new card and a set alone."""
    for fixture in ("nerf", "copies-only", "new-card"):
        b = load_set(PLANTS / fixture)
        a = load_set(Path(b.base))
        plan_a, plan_b = key_plan(a), key_plan(b, a)
        keys = SharedKeys.of([plan_a, plan_b])
        for seed, game in ((0, 0), (7, 3), (2**40, 99)):
            assert keyed_decks(seed, game, keys) == [keyed_deck(a, seed, game, plan_a),
                                                     keyed_deck(b, seed, game, plan_b)]
    assert keyed_decks(5, 1, SharedKeys.of([key_plan(a)])) == [keyed_deck(a, 5, 1)]
