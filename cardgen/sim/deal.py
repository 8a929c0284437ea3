"""Deals that line two versions of a set up card for card (common random numbers for `cardgen compare`).

The engine shuffles the deck in print order. Two versions of a set deal the
same hands from the same seed only if each physical card sits at the same
place before the shuffle: `aligned_orders` gives every copy of a card that
both versions have (matched by name and copy number) the same place, and lets
the copies that differ take the places left over. With equal deck sizes the
shuffle then moves both decks alike, so games differ only where the changed
cards turn up. Decks of different sizes shuffle differently: they share the
seeds but not the deals.

`keyed_deck` pairs decks of any size: every physical card gets a per-game random key (a hash of the run seed,
the game, the card's name and its copy number) and the deck is the cards sorted by key, dealt as it lies
(`deal(..., shuffled=True)`). Two versions then share the order of the cards they share, so adding, removing
or re-counting a card keeps the deals of everything else (the balance procedure, `cardgen.sim.balance`);
copies one version gains take the keys of copies it lost (`key_plan`), so a copy-count change or a swap of one
card for another moves nothing else.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from cardgen.engine.cards import CardInfo
from cardgen.engine.frozen import init_args
from cardgen.engine.game import Game, deck_of, make_game, seat_names
from cardgen.engine.state import GameState
from cardgen.model import CardSet


def _keys(cs: CardSet) -> list[tuple[str, int]]:
    """(card name, copy number) of every physical card, in print order."""
    out: list[tuple[str, int]] = []
    for c in cs.cards:
        out += [(c.name, j) for j in range(c.count)]
    return out


def aligned_orders(a: CardSet, b: CardSet) -> tuple[list[int], list[int]]:
    """Pre-shuffle decks (design indices) of `a` and `b`: `a` in print order, `b` with every shared copy at the
    place it has in `a`, its other copies in the places left free (then at the end)."""
    order_a = list(deck_of(a))
    keys_a = _keys(a)
    design_b = {c.name: d for d, c in enumerate(b.cards)}
    keys_b = _keys(b)
    shared = set(keys_a) & set(keys_b)
    extra = [k for k in keys_b if k not in shared]
    slots: list[int | None] = []
    for k in keys_a:
        if k in shared:
            slots.append(design_b[k[0]])
        elif extra:
            slots.append(design_b[extra.pop(0)[0]])
        else:
            slots.append(None)
    slots += [design_b[k[0]] for k in extra]
    return order_a, [d for d in slots if d is not None]


def card_key(seed: int, game: int, name: str, copy: int) -> int:
    """The random sort key of copy `copy` of card `name` in game `game` of run `seed` (64 bits, BLAKE2b)."""
    text = f"{seed}:{game}:{name}:{copy}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


@dataclass(frozen=True, slots=True)
class KeyPlan:
    """Every physical card of a set with the identity its key is drawn for: `ids` holds (design index in its own
    set, card name, copy number); `tags` the bytes `card_key` hashes after the seed and game (`:name:copy`),
    made once per plan rather than once per card per game."""

    ids: tuple[tuple[int, str, int], ...]
    tags: tuple[tuple[bytes, int], ...]

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return KeyPlan, init_args(self)  # (cardgen/engine/frozen.py)

    @classmethod
    def of(cls, ids: list[tuple[int, str, int]]) -> KeyPlan:
        return cls(tuple(ids), tuple((f":{name}:{j}".encode(), d) for d, name, j in ids))


def key_plan(cs: CardSet, base: CardSet | None = None) -> KeyPlan:
    """Every physical card of `cs` with the identity its key is drawn for: its own (name, copy number), except
    that, against `base`, copies `cs` has and the base lacks borrow the keys of copies the base has and `cs` lacks
    (in print order): a copy-count change or a card swapped for another keeps its places in the deck."""
    own = [(d, c.name, j) for d, c in enumerate(cs.cards) for j in range(c.count)]
    if base is None:
        return KeyPlan.of(own)
    theirs = {(c.name, j) for c in base.cards for j in range(c.count)}
    mine = {(name, j) for _, name, j in own}
    freed = [(c.name, j) for c in base.cards for j in range(c.count) if (c.name, j) not in mine]
    plan: list[tuple[int, str, int]] = []
    for d, name, j in own:
        if (name, j) not in theirs and freed:
            plan.append((d, *freed.pop(0)))
        else:
            plan.append((d, name, j))
    return KeyPlan.of(plan)


def keyed_deck(cs: CardSet, seed: int, game: int, plan: KeyPlan | None = None) -> list[int]:
    """The deck of game `game` as design indices, already in random order: every physical card sorted by its
    `card_key` (of the identities in `plan`, default `key_plan(cs)`), so cards two versions share lie in the same
    order in both (the top card is the last).

    Each key is `card_key`'s, hashed from a copy of the seed-and-game hash state and sorted as its 8 digest
    bytes (big-endian bytes sort as the numbers do): the same deck, without formatting every card's text."""
    return keyed_decks(seed, game, SharedKeys.of([plan if plan is not None else key_plan(cs)]))[0]


@dataclass(frozen=True, slots=True)
class SharedKeys:
    """The key plans of the versions of a paired game, merged: each card identity once (`tags`, as in `KeyPlan`),
    and per version the design each identity is in it (-1: that version has no such card)."""

    tags: tuple[bytes, ...]
    designs: tuple[tuple[int, ...], ...]
    # Each identity's index as big-endian bytes of one width, put after its key's digest: the keyed cards then
    # sort as plain byte strings, in the order of (digest, index) pairs, without a pair made for each card.
    suffixes: tuple[bytes, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        width = max(1, (len(self.tags).bit_length() + 7) // 8)
        object.__setattr__(self, "suffixes", tuple(i.to_bytes(width, "big") for i in range(len(self.tags))))

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return SharedKeys, init_args(self)  # (cardgen/engine/frozen.py)

    @classmethod
    def of(cls, plans: Sequence[KeyPlan]) -> SharedKeys:
        index: dict[bytes, int] = {}
        for plan in plans:
            for tag, _ in plan.tags:
                index.setdefault(tag, len(index))
        designs: list[tuple[int, ...]] = []
        for plan in plans:
            row = [-1] * len(index)
            for tag, d in plan.tags:
                row[index[tag]] = d
            designs.append(tuple(row))
        return cls(tuple(index), tuple(designs))


def keyed_decks(seed: int, game: int, keys: SharedKeys) -> list[list[int]]:
    """`keyed_deck` of game `game` for each version of `keys` (the same decks): each card identity is hashed once
    and the identities sorted once for all the versions."""
    head = hashlib.blake2b(f"{seed}:{game}".encode(), digest_size=8)
    suffixes = keys.suffixes
    keyed: list[bytes] = []
    for i, tag in enumerate(keys.tags):
        h = head.copy()
        h.update(tag)
        keyed.append(h.digest() + suffixes[i])  # (8 digest bytes, then the index: sorts as (digest, index))
    keyed.sort()
    order: list[int] = []
    for k in keyed:
        i = 0
        for b in k[8:]:
            i = i << 8 | b
        order.append(i)
    decks: list[list[int]] = []
    for designs in keys.designs:
        deck: list[int] = []
        for i in order:
            d = designs[i]
            if d >= 0:
                deck.append(d)
        decks.append(deck)
    return decks


def deal(cs: CardSet, info: tuple[CardInfo, ...], players: int, seed: int, order: Sequence[int],
         record: bool = True, tally: bool = False, shuffled: bool = False, game: Game | None = None) -> GameState:
    """`new_game` from a given pre-shuffle deck order: the same shuffle, deal and start (with the print order,
    the same game as `new_game`). `shuffled`: the order is already random (`keyed_deck`): deal it as it lies;
    the game's generator (`seed`) then serves only the game's own later shuffles; `game`: as `new_game`'s."""
    g = game if game is not None else make_game(cs, seat_names(players), info=info)
    return GameState.deal(g, seed, record, tally, order, shuffled)
