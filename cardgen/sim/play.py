"""One simulated game, played on the engine and boiled down to a `GameRecord`.

The loop is the simulation's hot path: it counts card plays in flat lists
indexed by design (no dicts per move) and only builds names at the end. With
`coverage`, it also notes for the sanity check which cards were held, legal and
played, and which play took a player from full life to 0 (that needs the game
log, so it is off for plain simulations).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from cardgen.engine.agents import Agent
from cardgen.engine.cards import CardInfo
from cardgen.engine.events import Damage, Event, Moved, TurnStarts
from cardgen.engine.game import Game
from cardgen.engine.invariants import Checker, Snapshot, check_state, snapshot
from cardgen.engine.moves import CARD_PLAYS, DEFEND, EFFECT_KINDS, HEAL, HUMILIATE
from cardgen.engine.observation import Pending, StepKind
from cardgen.engine.outcome import Reason
from cardgen.engine.rules import new_game
from cardgen.engine.state import GameState
from cardgen.engine.views import observe
from cardgen.model import CardSet
from cardgen.sim.deal import deal
from cardgen.sim.impact import PlayCounts, Tracker
from cardgen.sim.stats import GameRecord

# A game that asks this many decisions has stopped making progress (the turn cap should end it first).
DECISION_LIMIT: Final = 200_000


@dataclass
class Coverage:
    """Per design: decisions in which a player held it, could play it, did play it; full-life-to-0 plays."""

    designs: int
    held: list[int] = field(default_factory=list)
    legal: list[int] = field(default_factory=list)
    played: list[int] = field(default_factory=list)
    one_shot: dict[str, int] = field(default_factory=dict)  # card name -> plays that took full life to 0

    def __post_init__(self) -> None:
        for name in ("held", "legal", "played"):
            if not getattr(self, name):
                setattr(self, name, [0] * self.designs)

    def merge(self, other: Coverage) -> None:
        for i in range(self.designs):
            self.held[i] += other.held[i]
            self.legal[i] += other.legal[i]
            self.played[i] += other.played[i]
        for name, n in other.one_shot.items():
            self.one_shot[name] = self.one_shot.get(name, 0) + n


def _one_shots(log: list[Event], info: tuple[CardInfo, ...], start_life: int, into: dict[str, int]) -> None:
    """Count plays whose damage took a player from full life to 0 or below (holds tick per turn, so reset)."""
    before: dict[tuple[int, int], int] = {}
    for e in log:
        if isinstance(e, TurnStarts):
            before.clear()
        elif isinstance(e, Moved) and e.move.kind in EFFECT_KINDS and e.move.card >= 0:
            card = e.move.card
            for key in [k for k in before if k[1] == card]:
                del before[key]
        elif isinstance(e, Damage):
            key = (e.player, e.why)
            first = before.setdefault(key, e.life + e.amount)
            if first >= start_life and e.life <= 0:
                name = info[e.why].name
                into[name] = into.get(name, 0) + 1
                before[key] = -10**9  # count it once per play


def card_labels(cs: CardSet) -> list[str]:
    """A unique label per design: its name, or "name (set)" when a mixed deck has two cards of that name."""
    seen: dict[str, int] = {}
    for c in cs.cards:
        seen[c.name] = seen.get(c.name, 0) + 1
    return [c.name if seen[c.name] == 1 else f"{c.name} ({c.origin})" for c in cs.cards]


def _off_turn(step: Pending | None) -> bool:
    """A heal played now is played when dropping (not as a turn's action)."""
    return step is None or step.kind is not StepKind.TURN


def play_one(cs: CardSet, info: tuple[CardInfo, ...], agents: Sequence[Agent], agent_names: tuple[str, ...],
             seed: int, label: str, check_every_move: bool = False, coverage: Coverage | None = None,
             names: Sequence[str] | None = None, deck: Sequence[int] | None = None,
             shuffled: bool = False, counts: PlayCounts | None = None, game: Game | None = None,
             state: GameState | None = None, check_end: bool = True) -> GameRecord:
    """Play one game to its end; invariant problems become the record's `violations` (prefixed by `label`).

    The engine's `check_state` runs at the end (unless `check_end` is False: for a caller that reads no
    violations, like the balance lab), and with `check_every_move` its `Checker` after every move
    (at a cost that does not grow with the deck; when the game is logged for `coverage`, its step check too:
    life changes match the cards played).

    `names` are the card labels the record uses (default: the card names); `deck` a pre-shuffle deck order
    (`cardgen.sim.deal`; default: print order), `shuffled` if it is already in random order (`keyed_deck`);
    `counts` the plays by kind of move, added to in place (a simulation batch's, shared by its games; default:
    this game's own, not returned); `game` the fixed game of `cs` at this table (`make_game`), made once by a
    caller that plays many games (default: one made for this game); `state` the game already dealt and not yet
    played (`deal(..., record=coverage is not None, tally=True)`), for a caller that read its opening hands first
    (default: dealt here).
    """
    # Logged only for `coverage` (its one-shot count and step check read the log); the damage each card deals
    # comes from the engine's tally, far cheaper than logging every event.
    record = coverage is not None
    s: GameState
    if state is not None:
        s = state
    elif deck is None:
        s = new_game(cs, len(agents), seed=seed, record=record, info=info, tally=True, game=game)
    else:
        s = deal(cs, info, len(agents), seed, deck, record=record, tally=True, shuffled=shuffled, game=game)
    designs = len(info)
    played = [0] * designs
    track = Tracker(s, counts)
    problems: list[str] = []
    decisions = 0
    choose = [a.choose for a in agents]  # bound once: this loop is the hot path
    views = [observe(s, q) for q in range(len(agents))]  # live views: made once a game
    watch = check_every_move or coverage is not None  # one test per decision for both extras
    card_plays = CARD_PLAYS
    answers = (DEFEND, HUMILIATE)  # card plays that stop damage (`Tracker.blocked`)
    how, dropping, by_seat = track.counts.how, track.counts.dropping, track.played  # how cards are played, by whom
    before: Snapshot | None = None
    checker: Checker | None = None
    while s.result is None:
        if decisions >= DECISION_LIMIT:
            problems.append(f"no result after {DECISION_LIMIT} decisions (turn {s.turn})")
            break
        p = s.to_act
        if watch and coverage is not None:
            _note_coverage(s, p, coverage)
        m = choose[p](views[p])
        card = m.card
        if card >= 0:
            kind = m.kind
            if kind in card_plays:
                played[card] += 1
                by_seat[p][card] = 1
                if kind is HEAL and _off_turn(views[p].step):
                    dropping[card] += 1
                else:
                    how[kind][card] += 1
                if kind in answers:
                    track.blocked(views[p].step, card)
        if watch:
            before = snapshot(s) if check_every_move and coverage is not None else None
        s.push(m, False)  # check=False: the agents pick from `s.moves` (positional: a hot call)
        if s.drew:  # someone drew: look at their hands
            track.drew(s)
        decisions += 1
        if watch and check_every_move and not problems:
            if checker is None:
                checker = Checker(s.game)
            problems = checker.state(s)
            if before is not None:
                problems += checker.step(before, s)
    return _record(s, info, played, track, problems, coverage, names, label, agent_names, decisions, check_end)


def _record(s: GameState, info: tuple[CardInfo, ...], played: list[int], track: Tracker, problems: list[str],
            coverage: Coverage | None, names: Sequence[str] | None, label: str, agent_names: tuple[str, ...],
            decisions: int, check_end: bool) -> GameRecord:
    """A finished game's record: the end-of-game checks, the coverage it adds, what each card did."""
    designs = len(info)
    if not problems and check_end:
        problems = check_state(s)
    result = s.result
    winner = result.winner if result is not None else None
    if winner is not None and s.down[winner]:
        problems.append(f"the winner {s.game.names[winner]} is unconscious")
    if coverage is not None:
        for d in range(designs):
            coverage.played[d] += played[d]
        if s.log is not None:
            _one_shots(s.log, s.game.info, s.game.start_life, coverage.one_shot)
    if names is None:
        names = [ci.name for ci in info]
    cards = {names[d]: played[d] for d in range(designs) if played[d]}
    return GameRecord(
        winner_seat=winner, turns=result.turns if result is not None else s.turn, decisions=decisions,
        cards_played=cards, violations=tuple(f"{label}: {p}" for p in problems[:3]),
        capped=result is None or result.reason == Reason.TURN_CAP, agents=agent_names,
        opening=tuple(track.opening), drawn=tuple(track.masks()), dealt=tuple(s.dealt or [0] * designs),
        prevented=tuple(track.prevented), played_by=tuple(track.played_masks()),
    )


def _note_coverage(s: GameState, p: int, cov: Coverage) -> None:
    for d in set(s.hands[p]):
        cov.held[d] += 1
    for d in {m.card for m in s.moves if m.card >= 0 and m.kind in CARD_PLAYS}:
        cov.legal[d] += 1
