"""Typed events: cards by design (two same-named cards of a mix stay apart), names only in the JSON."""

from __future__ import annotations

from cardgen.checks import load_sets
from cardgen.engine.agents import RandomAgent
from cardgen.engine.events import Damage, Event, log_json
from cardgen.engine.rules import new_game, push
from cardgen.engine.views import observe


def test_events_name_cards_by_design_and_write_names_only_as_json() -> None:
    cs = load_sets(["lunch", "beer"])
    s = new_game(cs, 4, seed=3, record=True)
    agents = [RandomAgent(p) for p in range(4)]
    while s.result is None:
        push(s, agents[s.to_act].choose(observe(s, s.to_act)))
    log = s.log or []
    assert log and all(isinstance(e, Event) for e in log)
    damage = [e for e in log if isinstance(e, Damage)]
    assert damage and all(isinstance(e.why, int) and 0 <= e.why < len(cs.cards) for e in damage)
    data = log_json(s.game, log)
    assert [d["event"] for d in data] == [e.event for e in log]
    first = next(d for d, e in zip(data, log, strict=True) if isinstance(e, Damage))
    assert first["why"] == cs.cards[damage[0].why].name and first["player"] == s.game.names[damage[0].player]
    dodges = {d for d, c in enumerate(cs.cards) if c.name == "Dodge"}
    assert len(dodges) == 2  # Lunch Money's and Beer Money's: different designs, never counted together
