"""One codec for a `Move`: the web table's wire form reads back every move the engine offers, refuses what a
page may not send with the reason's catalogue key, and the named form (saves, scenarios) names each move by an
action word that stands for its kind."""

from __future__ import annotations

import json

import pytest

from cardgen import messages
from cardgen.engine import moves as mv
from cardgen.engine.agents import RandomAgent
from cardgen.engine.move_codec import ACTION_KINDS, MoveFormatError, from_wire, to_named, to_wire
from cardgen.engine.moves import Choice, Move
from cardgen.engine.rules import new_game, push
from cardgen.engine.views import observe
from cardgen.loader import load_set
from cardgen.scenario_spec import ACTIONS


def _offered(set_name: str, games: int) -> list[tuple[object, int, Move]]:
    """(card set, seat, move) for every move offered in a few random games."""
    cs = load_set(set_name)
    out: list[tuple[object, int, Move]] = []
    for seed in range(games):
        s = new_game(cs, 2 + seed % 3, seed=seed)
        agent = RandomAgent(seed)
        while s.result is None:
            out += [(cs, s.to_act, m) for m in s.moves]
            push(s, agent.choose(observe(s, s.to_act)))
    return out


@pytest.mark.parametrize("set_name", ["classic", "lunch", "beer", "recess"])
def test_every_offered_move_reads_back_from_the_wire_and_from_its_name(set_name: str) -> None:
    seen_kinds = set()
    for cs, p, m in _offered(set_name, 6):
        wire = json.loads(json.dumps(to_wire(m)))
        assert from_wire(wire) == m
        named = to_named(cs, ["Ann", "Bob", "Cy", "Di"], p, m)  # type: ignore[arg-type]
        actions = [a for a in ACTIONS if a in named]
        assert len(actions) == 1 and m.kind in ACTION_KINDS[actions[0]], named
        seen_kinds.add(m.kind)
    assert {mv.PLAY, mv.DISCARD, mv.DONE} <= seen_kinds


def test_every_kind_has_an_action_word_and_every_word_a_kind() -> None:
    assert set(ACTION_KINDS) == set(ACTIONS)
    assert set().union(*ACTION_KINDS.values()) == set(mv.KINDS)


@pytest.mark.parametrize(("sent", "reason"), [
    ({"kind": "play", "card": 1, "colour": "red"}, "unknown_field"),
    ({"kind": "teleport"}, "unknown_kind"),
    ({"kind": 3}, "unknown_kind"),
    ({"kind": "play", "card": True}, "not_number"),
    ({"kind": "play", "card": 2**31}, "not_number"),
    ({"kind": "play", "target": -2}, "not_number"),
    ({"kind": "play", "card": "1"}, "not_number"),
    ({"kind": "defend", "card": 1, "choice": "parry"}, "unknown_choice"),
])
def test_a_page_cannot_send_what_is_not_a_move(sent: dict[str, object], reason: str) -> None:
    with pytest.raises(MoveFormatError) as caught:
        from_wire(sent)
    assert caught.value.reason == reason
    for lang in ("en", "de"):  # the reason is said in every shipped language, its fields filled
        assert messages.text(f"play.refused.{reason}", lang, **caught.value.fields)


def test_the_wire_form_leaves_out_nothing_and_defaults_what_a_page_omits() -> None:
    m = Move(mv.DEFEND, 4, -1, Choice.DODGE)
    assert to_wire(m) == {"kind": "defend", "card": 4, "target": -1, "choice": "dodge"}
    assert from_wire({"kind": "pass"}) == Move(mv.PASS)
    assert from_wire({"kind": "pass", "version": 3}, also=frozenset({"version"})) == Move(mv.PASS)
