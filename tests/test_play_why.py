"""What a seat's page says of each card in hand: its own actions, and why a card has no play now; the strike
count of the card in flight."""

from __future__ import annotations

import random

import pytest

from cardgen import messages
from cardgen.engine import moves as mv
from cardgen.engine.kinds import Phase
from cardgen.engine.observation import Pending, StepKind
from cardgen.engine.state import TurnF
from cardgen.paths import bundled_set_names
from cardgen.play.seat_view import strike_of
from cardgen.play.table import Table


def _decide(table: Table, rng: random.Random) -> None:
    p = table.state.to_act
    if table.seats[p].bot:
        table.bot_play(p, table.bot_choose(p))
    else:
        m = rng.choice(table.state.moves)
        table.play(p, {"kind": str(m.kind), "card": m.card, "target": m.target, "choice": str(m.choice),
                       "version": table.version})


def _reasons(lang: str) -> dict[str, str]:
    words = messages.message("play.why_not", lang)
    assert isinstance(words, dict)
    return {str(k): str(v) for k, v in words.items()}


@pytest.mark.parametrize("set_name", bundled_set_names())
@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_card_offers_its_moves_or_says_why_not(set_name: str, lang: str) -> None:
    """Whole games: at each of the person's decisions every card in hand carries exactly its legal moves, and
    a card no move plays says why, in the table's language; the general reason stays rare."""
    table = Table.open([set_name], players=3, bots="greedy", seed=21, lang=lang)
    rng = random.Random(3)
    english = set(_reasons("en").values())
    said: dict[str, int] = {}
    while table.state.result is None:
        if table.state.to_act == 0:
            view = table.view(0)
            moves = view["moves"]
            assert isinstance(moves, list)
            hand = view["hand"]
            assert isinstance(hand, list)
            for c in hand:
                offered = [moves[i] for i in c["offers"]]
                assert offered == [m for m in moves if m["card"] == c["card"]]
                plays = [m for m in offered if m["kind"] != str(mv.DISCARD)]
                assert bool(plays) != bool(c["why"]), c
                if c["why"]:
                    said[c["why"]] = said.get(c["why"], 0) + 1
                    if lang != "en":
                        assert c["why"] not in english, c["why"]
        _decide(table, rng)
    general = _reasons(lang)["none"]
    assert said and said.get(general, 0) <= sum(said.values()) // 4, said


def test_a_heal_at_full_life_says_so_and_plays_once_hurt() -> None:
    full = _reasons("en")["full_life"]
    seen_full = seen_hurt = False
    for seed in range(20):
        table = Table.open(["lunch"], players=2, bots="greedy", seed=seed)
        rng = random.Random(seed)
        start = table.state.game.start_life
        while table.state.result is None and not (seen_full and seen_hurt):
            step = table.state.stack[-1] if table.state.stack else None
            if table.state.to_act == 0 and isinstance(step, TurnF) and step.phase == Phase.ACTION:
                info = table.state.game.info
                for c in table.view(0)["hand"]:  # type: ignore[union-attr]
                    if not info[c["card"]].heal_turn or any(table.state.down):
                        continue
                    if table.state.life[0] == start:
                        assert c["why"] == full
                        seen_full = True
                    else:
                        assert not c["why"]
                        seen_hurt = True
            _decide(table, rng)
        if seen_full and seen_hurt:
            break
    assert seen_full and seen_hurt


def test_a_defence_on_your_turn_says_when_it_is_played() -> None:
    table = Table.open(["lunch"], players=2, bots="greedy", seed=5)
    view = table.view(0)
    defences = [c for c in view["hand"] if table.state.game.info[c["card"]].defend_as]  # type: ignore[union-attr]
    assert defences
    for c in defences:
        assert c["why"].startswith("a defence (") and c["why"].endswith("played when an attack is aimed at you")


def test_the_strike_count_of_a_card_in_flight() -> None:
    def strike(damage: int, left: int) -> Pending:
        return Pending(StepKind.STRIKE, 1, 0, 0, (0,), damage, left)

    assert strike_of((2, 3, 4), strike(2, 9)) == (1, 3)
    assert strike_of((2, 3, 4), strike(3, 7)) == (2, 3)
    assert strike_of((2, 3, 4), strike(4, 4)) == (3, 3)
    assert strike_of((2, 2), strike(4, 8)) == (1, 2)  # a combo doubles every strike
    assert strike_of((2, 2), strike(4, 4)) == (2, 2)
    assert strike_of((3,), strike(3, 3)) == (1, 1)
    assert strike_of((2, 3), Pending(StepKind.OPENER, 1, 0, 0)) == (0, 2)


def test_a_follow_up_held_while_answering_says_it_follows_an_opener() -> None:
    """Asked to answer a card in play, a follow-up in hand (Headlock, Choke...) is dimmed as a follow-up, not
    with the general reason."""
    follow_up = _reasons("en")["follow_up"].replace("{combo}", "grab")
    general = _reasons("en")["none"]
    seen = 0
    for seed in range(30):
        table = Table.open(["lunch"], players=3, bots="greedy", seed=seed)
        rng = random.Random(seed)
        while table.state.result is None and seen < 3:
            view = table.view(0)
            step = table.state.stack[-1] if table.state.stack else None
            if table.state.to_act == 0 and not isinstance(step, TurnF):
                info = table.state.game.info
                for c in view["hand"]:  # type: ignore[union-attr]
                    if info[c["card"]].follows is not None and c["why"]:
                        assert c["why"] == follow_up != general, c
                        seen += 1
            _decide(table, rng)
        if seen >= 3:
            return
    raise AssertionError(f"only {seen} follow-ups held while answering in 30 games")
