"""The short simulation `cardgen validate` runs: problems only games can show, as card diagnostics.

A schema sees each card alone; games show a card nobody can ever play, a set
whose games do not end, a play that knocks out a fresh player, or a rule the
engine breaks. Greedy and random bots are rotated round the seats: the greedy
ones set up combos (so follow-ups become playable), the random ones try every
legal move (so anything playable gets played). Every invariant is checked after
every move.

The run is bounded whatever the set says: games stop at `SANITY_TURN_CAP`
turns even if the set's own cap is higher, and no new game starts once the
time budget is spent; the report says what was cut short. Cards that the
static analysis (`engine.playability`) proves can never be played are its
errors, not this simulation's warnings.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cardgen.engine.cards import CardInfo, card_info
from cardgen.engine.playability import dead_cards
from cardgen.errors import Diagnostic, Severity
from cardgen.model import Card, CardSet
from cardgen.sim.balance import BalanceConfig, BalanceResult, Verdict, judge_set, verdict_sentence
from cardgen.sim.balance.words import PRACTICAL_GAMES, plural
from cardgen.sim.runner import Batch, SimConfig, SimResult, run_range

SANITY_GAMES = 200
SANITY_PLAYERS = 4
SANITY_SEED = 0
SANITY_AGENTS = ("greedy", "random")
STALEMATE_LIMIT = 0.01  # above this share of games stopped at the turn cap, warn
SANITY_SECONDS = 20.0  # time budget: no new game starts after this
SANITY_TURN_CAP = 1000  # validation games stop here even if the set allows more turns


@dataclass(frozen=True)
class SanityReport:
    """The diagnostics and the figures they came from (for a one-line summary)."""

    diagnostics: list[Diagnostic]
    games: int
    stalemates: int
    violations: int
    seconds: float
    planned: int = SANITY_GAMES  # the games it set out to play (more than `games` when the budget ran out)
    turn_cap: int = 0  # the turn cap games were played to
    set_turn_cap: int = 0  # the set's own turn cap (higher than `turn_cap` when games were cut short)

    def cut_short(self) -> list[str]:
        """What the bounds cut short, in words (empty when the run was whole)."""
        out = []
        if self.games < self.planned:
            out.append(f"played {self.games} of {self.planned} games before the time budget ran out")
        if self.turn_cap < self.set_turn_cap:
            out.append(f"games stopped at {self.turn_cap} turns (the set's turn cap is {self.set_turn_cap})")
        return out


def _card_diag(card: Card, message: str, severity: Severity) -> Diagnostic:
    return Diagnostic(card.file, card.line, card.column, f"card '{card.name}' {message}", severity)


def _set_file(cs: CardSet) -> str:
    return str(Path(cs.path) / "set.yaml") if cs.path else cs.name


def sanity_check(cs: CardSet, games: int = SANITY_GAMES, players: int = SANITY_PLAYERS,
                 seed: int = SANITY_SEED, budget: float | None = SANITY_SECONDS,
                 progress: Callable[[int], None] | None = None) -> SanityReport:
    """Play a short mixed-bot simulation of `cs` and report what it reveals.

    Games are played one by one in game order (so the first n games are the same whatever the budget), and no
    new one starts after `budget` seconds; `progress(1)` is called after each.
    """
    info = card_info(cs)
    players = max(2, min(players, cs.total // max(cs.rules.hand_size, 1)))
    cfg = SimConfig(players=players, games=games, seed=seed, agents=SANITY_AGENTS, check_every_move=True,
                    coverage=True)
    cap = min(cs.rules.turn_cap, SANITY_TURN_CAP)
    played_cs = cs if cap == cs.rules.turn_cap else dataclasses.replace(
        cs, rules=dataclasses.replace(cs.rules, turn_cap=cap))
    cfg.validate(played_cs)
    t0 = time.perf_counter()
    total: Batch | None = None
    for g in range(games):
        batch = run_range(played_cs, info, cfg, g, g + 1)
        if total is None:
            total = batch
        else:
            total.merge(batch)
        if progress is not None:
            progress(1)
        if budget is not None and time.perf_counter() - t0 > budget:
            break
    assert total is not None
    res = SimResult(cfg, total, time.perf_counter() - t0)
    st = total.stats
    return SanityReport(_diagnostics(cs, info, res, cap), st.games, st.stalemates, st.violations, res.seconds,
                        planned=games, turn_cap=cap, set_turn_cap=cs.rules.turn_cap)


NOT_SIMULATED = ("is not simulated: written `effects: text`, the engine plays it as doing nothing, so neither "
                 "the simulation nor the balance verdicts judge what its text does")


def _diagnostics(cs: CardSet, info: tuple[CardInfo, ...], res: SimResult, cap: int) -> list[Diagnostic]:
    st = res.batch.stats
    cov = res.batch.coverage
    assert cov is not None
    games = st.games
    out: list[Diagnostic] = []
    if st.violations:
        examples = "; ".join(st.violation_examples[:3])
        out.append(Diagnostic(_set_file(cs), 1, 1, f"{st.violations} rule invariant violation"
                              f"{'s' if st.violations != 1 else ''} in {games} simulated games (e.g. {examples})"))
    if games and st.stalemates / games > STALEMATE_LIMIT:
        out.append(Diagnostic(_set_file(cs), 1, 1, f"{st.stalemates} of {games} simulated games "
                              f"({100 * st.stalemates / games:.1f} %) reached the {cap}-turn cap "
                              "without a winner; games may not end", "warning"))
    dead = dead_cards(cs, info)  # the static analysis reports these as errors
    life = cs.rules.life
    for d, ci in enumerate(info):
        card = ci.card
        if ci.words_only:
            out.append(_card_diag(card, NOT_SIMULATED, "warning"))
        if d not in dead and cov.legal[d] == 0:
            out.append(_card_diag(card, f"was never playable in {games} simulated games (held at {cov.held[d]} "
                                  "decisions); check what it needs, or raise its count or its opener's", "warning"))
        elif d not in dead and cov.played[d] == 0:
            out.append(_card_diag(card, f"was playable {cov.legal[d]} times but never played in {games} simulated "
                                  "games", "warning"))
        heal = max(ci.heal_turn, ci.heal_drop)
        if heal > life:
            out.append(_card_diag(card, f"heals {heal}, more than the starting {life} {cs.rules.life_word}: every "
                                  "copy is a full heal", "warning"))
        shots = cov.one_shot.get(ci.name, 0)
        if shots:
            out.append(_card_diag(card, f"took a player from full {cs.rules.life_word} ({life}) to 0 in one play "
                                  f"{shots} time{'s' if shots != 1 else ''} in {games} simulated games", "warning"))
    return out


def balance_findings(cs: CardSet, base: CardSet | None, cfg: BalanceConfig | None = None,
                     progress: Callable[[int], None] | None = None) -> tuple[list[Diagnostic], BalanceResult]:
    """The balance lint, by the shared procedure (`cardgen.sim.balance`): a set that extends another (`base`)
    is compared with it and only the designer's changed and new cards are judged; a set with no base has each
    card judged against its role's band. A warning per card called at some table size, unless its data marks
    it `intended`."""
    result = judge_set(cs, base, cfg or BalanceConfig(), progress)
    by_card: dict[str, list[Verdict]] = {}
    for v in result.flagged():
        by_card.setdefault(v.card, []).append(v)
    out: list[Diagnostic] = []
    for name, verdicts in by_card.items():
        card = cs.card(name)
        if name in result.intended or card.words_only:  # words alone: its figures say nothing (NOT_SIMULATED)
            continue
        words = "; ".join(verdict_sentence(v, result) for v in verdicts)
        out.append(_card_diag(card, f"is {verdicts[0].call} ({words})", "warning"))
    return out, result


def balance_notes(result: BalanceResult) -> list[str]:
    """The summary lines of the balance lint: games played, cards marked intended, the game under changed
    rules, what stayed unclear."""
    what = f"compared with its base {result.a}" if result.b is not None else "each card against the rest"
    games = ", ".join(f"{t.games} games at {t.players} players" for t in result.tables)
    called = {v.card for v in result.flagged()} - set(result.intended)
    lines = [f"balance ({what}): {games}; " + (f"{plural(len(called), 'card')} "
                                                f"stand{'s' if len(called) == 1 else ''} out" if called
                                                else "no card stands out")
             + (" (answered from the cache of an identical run)" if result.cached else "")]
    for name in sorted({v.card for v in result.flagged()} & set(result.intended)):
        lines.append(f"balance: {name} stands out as its data says is intended ({result.intended[name]})")
    for t in result.tables:
        lines += [f"balance: {verdict_sentence(v, result)}" for v in t.verdicts if v.family == "rules"]
        open_cards = [v for v in t.verdicts if v.family != "knock-on" and v.call == "undecided"]
        if open_cards and t.stopped == "max games":
            lines.append(f"balance: at {t.players} players the game budget ran out before a verdict on "
                         + ", ".join(f"{v.card} ({_needed(v)})" for v in open_cards[:5])
                         + (f" and {len(open_cards) - 5} more" if len(open_cards) > 5 else ""))
    return lines


def _needed(v: Verdict) -> str:
    if v.games_needed is None or v.games_needed > PRACTICAL_GAMES:
        return f"more than {PRACTICAL_GAMES:,} games"
    return f"about {v.games_needed:,} games"
