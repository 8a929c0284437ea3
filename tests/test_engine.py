"""Engine behaviour that scenarios do not show well: the API contract, piles, RNG, caps, name-free code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardgen.checks import load_set, load_sets
from cardgen.engine import IllegalMoveError, Move, apply, legal_moves, new_game, outcome, push
from cardgen.engine.agents import RandomAgent, play_game
from cardgen.engine.cards import card_info
from cardgen.engine.events import Reshuffle
from cardgen.engine.invariants import check_state
from cardgen.engine.moves import DECLINE, DEFEND, DISCARD, DONE, HUMILIATE, PASS, PLAY, Choice
from cardgen.engine.state import GameState
from cardgen.model import CardSet
from cardgen.paths import bundled_set_names

ENGINE = Path(__file__).resolve().parent.parent / "cardgen" / "engine"


def _d(cs: CardSet, name: str) -> int:
    return next(i for i, c in enumerate(cs.cards) if c.name == name)


def _table(cs: CardSet, hands: list[list[str]], draw: list[str] | None = None, life: list[int] | None = None,
           seed: int = 0) -> GameState:
    """A fresh game with the given hands (draw: top first); everything else stays in the draw pile."""
    s = new_game(cs, len(hands), seed=seed, record=True)
    pile = s.draw + s.discard + [c for h in s.hands for c in h]
    s.discard = []
    s.stack.clear()
    for p, names in enumerate(hands):
        s.hands[p] = []
        for n in names:
            pile.remove(_d(cs, n))
            s.hands[p].append(_d(cs, n))
    top = []
    for n in draw or []:
        pile.remove(_d(cs, n))
        top.append(_d(cs, n))
    s.draw = pile + top[::-1]
    if life:
        s.life = list(life)
        s.pool = sum(cs.rules.life - x for x in life)
    s.turn = 0
    s.current = len(hands) - 1
    s.settle()
    return s


def test_legal_moves_are_sorted_unique_and_for_the_player_to_act(lunch: CardSet) -> None:
    s = new_game(lunch, 4, seed=3)
    moves = legal_moves(s)
    assert moves == sorted(set(moves))
    assert s.to_act == 0
    assert Move(PASS) in moves
    assert all(m.card in s.hands[0] for m in moves if m.card >= 0)


def test_apply_leaves_the_original_state_alone(lunch: CardSet) -> None:
    s = new_game(lunch, 3, seed=5)
    before = (list(s.life), [list(h) for h in s.hands], list(s.draw), s.turn)
    t = apply(s, Move(PASS))
    assert (s.life, s.hands, s.draw, s.turn) == before
    assert t.turn == s.turn + 1 and t.to_act == 1


def test_illegal_move_is_refused(lunch: CardSet) -> None:
    s = _table(lunch, [["Jab"], ["Dodge"]])
    with pytest.raises(IllegalMoveError, match="illegal move"):
        push(s, Move(PLAY, _d(lunch, "Dodge"), 1))  # not in Ann's hand, and a Dodge is no turn play
    with pytest.raises(IllegalMoveError):
        push(s, Move(PLAY, _d(lunch, "Jab"), 0))  # at herself


def test_out_of_turn_response_window(lunch: CardSet) -> None:
    s = _table(lunch, [["Jab"], ["Dodge"], ["Hook"]])
    push(s, Move(PLAY, _d(lunch, "Jab"), 1))
    assert s.to_act == 1
    assert legal_moves(s) == sorted([Move(DEFEND, _d(lunch, "Dodge"), -1, Choice.DODGE), Move(DECLINE)])


def test_same_seed_same_game(lunch: CardSet) -> None:
    def run(seed: int) -> tuple[int, tuple[int, ...], int | None]:
        s = play_game(lunch, [RandomAgent(seed + i) for i in range(4)], seed=seed)
        result = outcome(s)
        assert result is not None
        return s.turn, tuple(s.life), result.winner
    assert run(11) == run(11)
    assert len({run(i) for i in range(5)}) > 1


def test_discard_pile_is_reshuffled_with_the_state_rng(lunch: CardSet) -> None:
    results = []
    for _ in range(2):
        s = _table(lunch, [["Jab", "Jab", "Hook", "Hook", "Elbow"], ["Block"]])
        s.discard, s.draw = s.draw[:-2] + s.discard, s.draw[-2:]  # only two cards left to draw
        push(s, Move(DISCARD, _d(lunch, "Jab")))
        push(s, Move(DISCARD, _d(lunch, "Jab")))
        push(s, Move(DISCARD, _d(lunch, "Hook")))
        push(s, Move(DONE))
        assert len(s.hands[0]) == 5 and len(s.hands[1]) == 5
        assert check_state(s) == []
        assert s.log is not None and any(isinstance(e, Reshuffle) for e in s.log)
        results.append(list(s.draw))
    assert results[0] == results[1]


def test_draw_up_starts_with_the_player_whose_turn_it_was(lunch: CardSet) -> None:
    s = _table(lunch, [["Jab"], ["Block"], ["Hook"]], draw=["Pipe", "Knife", "Chain"])
    push(s, Move(PLAY, _d(lunch, "Jab"), 2))
    names = {lunch.cards[d].name for d in s.hands[0]}
    assert {"Pipe", "Knife", "Chain"} <= names  # Ann drew the top cards before the others drew


def test_stalemate_at_the_turn_cap(lunch: CardSet) -> None:
    s = new_game(lunch, 2, seed=1, turn_cap=6)
    while outcome(s) is None:
        push(s, Move(PASS))
    result = outcome(s)
    assert result is not None and result.winner is None and result.reason == "turn cap" and result.turns == 6
    assert legal_moves(s) == []
    with pytest.raises(IllegalMoveError):
        push(s, Move(PASS))


def test_unconscious_player_is_skipped_and_holds_no_cards(lunch: CardSet) -> None:
    s = _table(lunch, [["Hail Mary"], ["Jab"], ["Jab"]], life=[15, 7, 15])
    push(s, Move(PLAY, _d(lunch, "Hail Mary"), 1))
    assert s.down[1] and s.hands[1] == [] and s.to_act == 2


def test_classic_humiliation_can_deny_a_dodge(classic: CardSet) -> None:
    s = _table(classic, [["Kick", "Humiliation"], ["Dodge/Block"]])
    push(s, Move(PLAY, _d(classic, "Kick"), 1))
    push(s, Move(DEFEND, _d(classic, "Dodge/Block"), -1, Choice.DODGE))
    assert s.to_act == 0  # Ann may humiliate the Dodge
    push(s, Move(HUMILIATE, _d(classic, "Humiliation")))
    # Bob is stunned, his Dodge is cancelled; Ann has no card left for the free attack: the Kick lands
    assert s.life[1] == 17


def test_every_bundled_set_and_the_mix_can_be_set_up() -> None:
    for group in [[n] for n in bundled_set_names()] + [["lunch", "beer"]]:
        cs = load_sets(group)
        info = card_info(cs)
        assert len(info) == len(cs.cards)
        s = new_game(cs, 6, seed=0, info=info)
        assert check_state(s) == []


def test_engine_code_names_no_card() -> None:
    names: set[str] = set()
    for n in bundled_set_names():
        names |= {c.name for c in load_set(n).cards}
    code = "\n".join(p.read_text(encoding="utf-8") for p in ENGINE.glob("*.py"))
    words = set(re.findall(r'"([^"]+)"', code))
    assert not {n for n in names if n in words}, "engine code names a card"


def test_state_methods_python_chess_style(lunch: CardSet) -> None:
    s = new_game(lunch, 2, seed=4)
    t = s.copy()
    t.push(Move(PASS))
    assert t.turn == s.turn + 1 and t.legal_moves() == legal_moves(t) and s.to_act == 0
