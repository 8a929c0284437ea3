"""A table's game as a scenario file (docs/scenarios.md) that `cardgen replay` plays back to the same state.

A table does not start from `new_game`: its opening deal (every hand and the whole draw pile, in order) is
written as a scenario with no moves and set up by the scenario loader itself (`start_state`), so the saved
file's table is the one the game was played on, shuffling generator included (a reshuffle later in the game
draws the same order on replay). A save is that opening plus every decision in the engine's log, written as
scenario moves, plus an `expect:` block pinning the state reached: the file is a regression test as it is.
Each save is replayed before it is handed out (`verified_scenario`), so a file that would not replay to
the same state is never written.
"""

from __future__ import annotations

import random
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

from cardgen.engine.events import Moved, log_json
from cardgen.engine.game import deck_of
from cardgen.engine.move_codec import card_ref, to_named
from cardgen.engine.moves import Move
from cardgen.engine.randomness import shuffle
from cardgen.engine.replay import Replay, status, table
from cardgen.engine.state import GameState
from cardgen.engine.views import observe
from cardgen.errors import CardgenError
from cardgen.loader.scenario import load_scenario
from cardgen.model import CardSet
from cardgen.scenario_spec import ScenarioError, ScenarioSpec, Seat, made_with


class SaveError(CardgenError):
    """A game that could not be written as a scenario replaying to the same state (a bug: say so plainly)."""


@dataclass(frozen=True)
class Opening:
    """The deal a table starts from: the scenario's `sets`, seats, hands, draw pile (top first) and seed."""

    sets: tuple[str, ...]  # bundled set names, or absolute set folders
    names: tuple[str, ...]
    hands: tuple[tuple[int, ...], ...]  # design indices, as dealt
    draw: tuple[int, ...]  # top card first
    seed: int  # the game's shuffling generator (reshuffles)
    turn_cap: int
    deck_shuffled: bool = False  # dealt by `new_game` (a simulated game): the generator goes on from that shuffle


def deal(cs: CardSet, sets: Sequence[str], names: Sequence[str], seed: int) -> Opening:
    """Shuffle the deck with `seed` and deal each seat a hand, one card at a time from seat 0 (as `new_game`)."""
    draw = list(deck_of(cs))
    shuffle(random.Random(seed), draw)
    hands: list[list[int]] = [[] for _ in names]
    for _ in range(cs.rules.hand_size):
        for hand in hands:
            if draw:
                hand.append(draw.pop())  # the top of the pile is the end of the list
    return Opening(sets=tuple(sets), names=tuple(names), hands=tuple(tuple(h) for h in hands),
                   draw=tuple(reversed(draw)), seed=seed, turn_cap=cs.rules.turn_cap)


def decisions(s: GameState) -> list[tuple[int, Move]]:
    """Every decision taken so far, from the engine's log: (seat, move)."""
    return [(e.player, e.move) for e in s.log or () if isinstance(e, Moved)]


def _expect(s: GameState) -> dict[str, object]:
    info, names = s.game.info, s.game.names
    out: dict[str, object] = {}
    for p, name in enumerate(names):
        out[name] = {"life": s.life[p], "hand": sorted(info[d].name for d in s.hands[p]), "status": status(s, p)}
    out["pool"] = s.pool
    out["turn"] = s.turn
    out["draw_pile"] = len(s.draw)
    if s.result is not None:
        out["winner"] = None if s.result.winner is None else names[s.result.winner]
    else:
        out["to_act"] = names[s.to_act]
    return out


def scenario_data(opening: Opening, cs: CardSet, s: GameState | None = None, title: str = "",
                  description: str = "") -> dict[str, object]:
    """The scenario of `opening` and the decisions of `s` so far (none: the opening alone), with `expect:`."""
    names = opening.names
    ref = card_ref
    data: dict[str, object] = {
        "title": title or f"{cs.title}: a game from cardgen play",
        "description": description
        or "Saved by `cardgen play`: the opening deal, every decision since, and the state reached.",
        "sets": list(opening.sets),
        "seed": opening.seed,
        "turn_cap": opening.turn_cap,
        "players": [{"name": n, "hand": [ref(cs, d) for d in h]} for n, h in zip(names, opening.hands, strict=True)],
        "draw": [ref(cs, d) for d in opening.draw],
        **({"deck_shuffled": True} if opening.deck_shuffled else {}),
        "moves": [to_named(cs, names, p, m) for p, m in decisions(s)] if s is not None else [],
    }
    if s is not None:
        data["expect"] = _expect(s)
    data["made_with"] = made_with(cs)
    return data


def scenario_text(data: dict[str, object]) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110, default_flow_style=None)


def _load(text: str) -> Replay:
    with tempfile.TemporaryDirectory(prefix="cardgen-play-") as tmp:
        path = Path(tmp) / "game.yaml"
        path.write_text(text, encoding="utf-8")
        return Replay(load_scenario(path, "saved game"))


def opening_spec(opening: Opening, cs: CardSet) -> ScenarioSpec:
    """The opening as the scenario a save of it starts with (no moves), built in memory: the scenario
    runner's own `table` sets it up, so the state is the one a saved file replays from."""
    seats = tuple(Seat(name=n, life=cs.rules.life, hand=tuple(h), stunned=0, down=False)
                  for n, h in zip(opening.names, opening.hands, strict=True))
    return ScenarioSpec(path="", title="", description="", sets=opening.sets, cs=cs, seed=opening.seed,
                        turn_cap=opening.turn_cap, seats=seats, draw=opening.draw, discard=(), first=0, steps=(),
                        expect=None, deck_shuffled=opening.deck_shuffled)


def start_state(opening: Opening, cs: CardSet) -> GameState:
    """The table's first state, dealt as `opening`."""
    return table(opening_spec(opening, cs))


def fingerprint(s: GameState) -> tuple[object, ...]:
    """Everything a state holds that play can tell apart: every seat's view, the whole draw pile, every hand,
    the shuffling generator and the log."""
    return (tuple(observe(s, p).public() for p in range(s.n)), tuple(s.draw), tuple(tuple(h) for h in s.hands),
            s.rng.getstate(), log_json(s.game, s.log or []))


def verified_scenario(opening: Opening, cs: CardSet, s: GameState, title: str = "", description: str = "") -> str:
    """The scenario text of the game so far, after checking that the scenario runner replays it to `s`."""
    text = scenario_text(scenario_data(opening, cs, s, title, description))
    try:
        sc = _load(text)
        unmet = sc.run()
    except ScenarioError as exc:
        raise SaveError(f"the saved game does not replay: {exc.diagnostics[0].message if exc.diagnostics else exc}"
                        ) from exc
    if unmet:
        raise SaveError(f"the saved game replays to another state: {unmet[0].message}")
    if fingerprint(sc.state) != fingerprint(s):
        raise SaveError("the saved game replays to another state")
    return text
