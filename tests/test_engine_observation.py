"""The typed observation: every pending step reads as a `Pending` made of plain values (no engine frame), and
what it says agrees with the game as it goes on."""

from __future__ import annotations

import enum
from functools import cache

import pytest

import cardgen
from cardgen.checks import load_sets
from cardgen.engine import state as st
from cardgen.engine.agents import RandomAgent
from cardgen.engine.cards import CardInfo, card_info
from cardgen.engine.observation import FIELDS, WINDOWS, Pending, StepKind, pending_of
from cardgen.engine.rules import new_game, push
from cardgen.engine.state import Answer
from cardgen.engine.views import observe
from cardgen.model import CardSet
from cardgen.sim.greedy import GreedyAgent

GROUPS = [("classic",), ("lunch",), ("beer",), ("lunch", "beer"), ("recess",)]


@cache
def _loaded(group: tuple[str, ...]) -> tuple[CardSet, tuple[CardInfo, ...]]:
    cs = load_sets(list(group))
    return cs, card_info(cs)


def _plain(value: object) -> bool:
    """An int, a string, an enum, None or a tuple / frozenset of them: nothing the engine could change."""
    if value is None or isinstance(value, int | str | enum.Enum):
        return True
    return isinstance(value, tuple | frozenset) and all(_plain(v) for v in value)


def test_every_frame_class_has_a_step_kind() -> None:
    frames = {c for c in vars(st).values() if isinstance(c, type) and issubclass(c, st.Frame)}
    frames -= {st.Frame, st.Window}
    assert len(frames) == len(StepKind) == 15


@pytest.mark.parametrize("group", GROUPS, ids=["+".join(g) for g in GROUPS])
def test_pending_steps_agree_with_the_game(group: tuple[str, ...]) -> None:
    cs, info = _loaded(group)
    seen: set[StepKind] = set()
    for seed in range(12):
        s = new_game(cs, 4, seed=seed, turn_cap=80, info=info)
        agents = [GreedyAgent(seed * 4 + p) if p % 2 else RandomAgent(seed * 4 + p) for p in range(4)]
        while s.result is None:
            view = observe(s, s.to_act)
            steps, step = view.steps, view.step
            assert step is not None and steps[-1] == step and len(steps) == len(s.stack)
            assert steps[0].kind is StepKind.TURN and steps[0].player == s.current
            for p in steps:
                assert all(_plain(v) for v in p.values()), p
                seen.add(p.kind)
            if step.kind in WINDOWS:  # the seat asked now is the first the window still asks
                assert step.asking[0] == s.to_act and step.target is not None
                assert step.card is not None or step.kind is StepKind.ANSWER
            if step.kind is StepKind.STRIKE:
                assert step.damage is not None and step.damage_left is not None and step.damage <= step.damage_left
                assert step.sealed or Answer.HUMILIATE in step.answers
                assert (Answer.DEFEND in step.answers) == (bool(step.defences) and not step.sealed)
            if step.kind is StepKind.TURN:
                assert step.phase is not None and step.player == s.to_act
            if step.kind in (StepKind.COMBO, StepKind.BONUS):
                assert step.player == s.to_act and step.target is not None
            before = list(s.life)
            m = agents[s.to_act].choose(view)
            if step.kind is StepKind.TICK and m.kind == "decline":  # an unanswered tick deals what it said
                push(s, m)
                assert step.target is not None
                if s.life[step.target] != before[step.target]:  # (unless a heal or a drop intervenes)
                    assert before[step.target] - s.life[step.target] <= (step.damage or 0)
                continue
            push(s, m)
    # the common kinds all came up
    assert {StepKind.TURN, StepKind.STRIKE, StepKind.COMBO} <= seen


def test_a_pending_step_is_frozen_and_made_by_its_frame() -> None:
    cs, info = _loaded(("beer",))
    s = new_game(cs, 3, seed=4, info=info)
    p = pending_of(s, s.stack[-1])
    assert isinstance(p, Pending) and p == observe(s, s.to_act).step
    assert p == Pending(*p.values()) and hash(p) == hash(Pending(*p.values()))  # type: ignore[arg-type]
    assert all(getattr(p, name) == value for name, value in zip(FIELDS, p.values(), strict=True))
    assert repr(p).startswith("Pending(kind=")
    if cardgen.BUILD.compiled:  # its fields are Final: read-only compiled (and to mypy in either build)
        with pytest.raises(AttributeError):
            p.player = 2  # type: ignore[misc]
    with pytest.raises(NotImplementedError, match="Frame"):  # a new kind of step must say what it is
        pending_of(s, st.Frame(0))
