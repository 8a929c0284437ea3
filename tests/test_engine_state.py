"""`GameState.copy` copies every field (the mutable ones into fresh containers), and the fixed `Game` is shared."""

from __future__ import annotations

import dataclasses
import random

from cardgen.engine.agents import RandomAgent
from cardgen.engine.randomness import shuffle_bytes
from cardgen.engine.rules import new_game, push
from cardgen.engine.state import GameState
from cardgen.engine.views import observe
from cardgen.loader import load_set
from cardgen.model import CardSet

IMMUTABLE = (int, bool, str, tuple, frozenset, type(None))


def _mid_game(cs: CardSet) -> GameState:
    s = new_game(cs, 4, seed=8, record=True)
    agents = [RandomAgent(p) for p in range(4)]
    for _ in range(60):
        push(s, agents[s.to_act].choose(observe(s, s.to_act)))
    return s


def test_copy_carries_every_field_and_shares_no_mutable_one(beer: CardSet) -> None:
    s = _mid_game(beer)
    t = s.copy()
    for f in dataclasses.fields(GameState):
        a, b = getattr(s, f.name), getattr(t, f.name)
        if f.name == "game":
            assert a is b  # fixed: shared
        elif isinstance(a, random.Random):
            assert a.getstate() == b.getstate()  # shared until either shuffles (copy-on-write, below)
        elif isinstance(a, IMMUTABLE) or dataclasses.is_dataclass(a):
            assert a == b, f.name
        else:
            assert a is not b, f"copy() shares the mutable field {f.name!r}"
            assert a == b or f.name == "stack", f.name
            if isinstance(a, list) and a and isinstance(a[0], list):
                assert all(x is not y for x, y in zip(a, b, strict=True)), f.name
    assert [type(f) for f in t.stack] == [type(f) for f in s.stack]
    assert all(x is not y for x, y in zip(s.stack, t.stack, strict=True))


def test_a_copy_and_its_original_shuffle_alike_and_apart(beer: CardSet) -> None:
    s = _mid_game(beer)
    t = s.copy()
    u = t.copy()
    first = [s.generator().random() for _ in range(5)]  # the original draws first: the copies must not move
    assert [t.generator().random() for _ in range(5)] == first
    assert [u.generator().random() for _ in range(5)] == first
    assert len({id(s.rng), id(t.rng), id(u.rng)}) == 3 and not (s.rng_shared or t.rng_shared or u.rng_shared)


def test_a_determinized_deal_and_its_copies_shuffle_as_a_generator_from_its_seed(beer: CardSet) -> None:
    """A deal's generator is made from the seed drawn for it at its first use, by it or by any copy, and a copy
    made after the deal drew clones where the deal stands."""
    s = _mid_game(beer)
    seed_of = random.Random(3)
    d = s.determinized(1, random.Random(3))
    shuffle_bytes(seed_of, list(s.unseen(1)))  # the deal's shuffle
    fresh = random.Random(seed_of.getrandbits(64))  # what the deal's generator must be: the next 64 bits drawn
    want = [fresh.random() for _ in range(6)]
    c = d.copy()
    assert [c.generator().random() for _ in range(3)] == want[:3]  # the copy first
    assert [d.generator().random() for _ in range(3)] == want[:3]  # the deal itself: not moved by its copy
    late = d.copy()
    assert [late.generator().random() for _ in range(3)] == want[3:]  # cloned where the deal stood
    assert [d.generator().random() for _ in range(3)] == want[3:]


def test_a_look_ahead_copy_draws_from_the_generator_it_is_given(beer: CardSet) -> None:
    """`copy_drawing_from`: the copy's shuffles draw from the caller's generator where it stands (nothing seeded
    or cloned), and the state copied keeps its own numbers."""
    s = _mid_game(beer)
    d = s.determinized(1, random.Random(3))
    own = d.copy()
    given, ref = random.Random(9), random.Random(9)
    given.random()
    ref.random()
    c = d.copy_drawing_from(given)
    assert c.generator() is given
    assert [c.generator().random() for _ in range(3)] == [ref.random() for _ in range(3)]
    assert [d.generator().random() for _ in range(3)] == [own.generator().random() for _ in range(3)]
    assert c.hands == d.hands and c.draw == d.draw and c.hands is not d.hands


def _fields_but_moves(s: GameState) -> dict[str, object]:
    return {f.name: getattr(s, f.name) for f in dataclasses.fields(GameState)
            if f.name not in ("moves", "horizon", "stack", "rng", "rng_shared", "rng_seed")}


def test_a_look_ahead_past_its_horizon_lists_no_moves_and_is_otherwise_the_same(beer: CardSet) -> None:
    """`horizon`: a look-ahead played into the next turn stops where it would have, in the same position, with the
    next player's moves not listed (nobody reads them); before it, nothing changes."""
    reached = 0
    for seed in range(30):
        s = new_game(beer, 4, seed=seed)
        for _ in range(40 + seed):
            if s.result is not None:
                break
            push(s, s.moves[seed % len(s.moves)])
        if s.result is not None:
            continue
        plain, short = s.copy(), s.copy()
        short.horizon = s.turn
        while plain.result is None and plain.turn == s.turn:
            m = plain.moves[-1]  # (the last move: a pass or done ends a turn soon)
            plain.push(m)
            short.push(m)
            if plain.turn == s.turn:
                assert short.moves == plain.moves
        assert short.to_act == plain.to_act and short.turn == plain.turn
        assert _fields_but_moves(short) == _fields_but_moves(plain)
        assert [type(f) for f in short.stack] == [type(f) for f in plain.stack]
        if plain.result is None and plain.moves and plain.stack[-1].__class__.__name__ == "TurnF":
            assert short.moves == []
            reached += 1
    assert reached >= 10


def test_a_copy_plays_on_exactly_like_the_original(lunch: CardSet) -> None:
    s = _mid_game(lunch)
    t = s.copy()
    a, b = RandomAgent(5), RandomAgent(5)
    while s.result is None:
        push(s, a.choose(observe(s, s.to_act)))
        push(t, b.choose(observe(t, t.to_act)))
    assert t.result == s.result and t.life == s.life and t.hands == s.hands and t.log == s.log



def _copies_checked(cs: CardSet, games: int, checked: dict[str, int]) -> None:
    """Copy every frame on the stack at every decision of `games` random games of `cs`, and compare the copy with
    the frame attribute by attribute (`checked`: how many frames of each kind were compared)."""
    for seed in range(games):
        s = new_game(cs, 4, seed=seed)
        agents = [RandomAgent(seed * 10 + p) for p in range(4)]
        while s.result is None:
            for f in s.stack:
                c = f.copy()
                assert type(c) is type(f) and c is not f
                for name in type(f)._fields:
                    assert getattr(c, name) == getattr(f, name), (type(f).__name__, name)
                checked[type(f).__name__] = checked.get(type(f).__name__, 0) + 1
            push(s, agents[s.to_act].choose(observe(s, s.to_act)))


def test_every_frame_copy_carries_every_attribute(beer: CardSet, lunch: CardSet, classic: CardSet) -> None:
    """A frame's `copy` (the generic one, or a kind's own, written out for speed) carries every attribute over."""
    checked: dict[str, int] = {}
    for cs in (beer, lunch, classic, load_set("recess")):
        _copies_checked(cs, 6, checked)
    assert {"TurnF", "EffectsF", "PickF", "StrikeF"} <= set(checked), checked  # the kinds with a `copy` of their own
