"""The short simulation `cardgen validate` runs: problems only games can show, as card diagnostics.

A schema sees each card alone; games show a card nobody can ever play, a set
whose games do not end, a play that knocks out a fresh player, or a rule the
engine breaks. Greedy and random bots are rotated round the seats: the greedy
ones set up combos (so follow-ups become playable), the random ones try every
legal move (so anything playable gets played). Every invariant is checked after
every move.

The run is bounded whatever the set says: games stop at `SANITY_TURN_CAP`
turns even if the set's own cap is higher, and no new game starts once
`SANITY_TURNS` turns have been played in all (a count, so the same files give
the same report on a busy machine), nor, when a time budget is given, once it
is spent; the report says what was cut short. Cards that the
static analysis (`engine.playability`) proves can never be played are its
errors, not this simulation's warnings.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cardgen import messages
from cardgen.engine.cards import CardInfo, card_info
from cardgen.engine.playability import dead_cards
from cardgen.errors import Diagnostic, Severity
from cardgen.model import Card, CardSet
from cardgen.sim.balance import BalanceConfig, BalanceResult, KeptGames, Verdict, judge_set, verdict_sentence
from cardgen.sim.balance.words import PRACTICAL_GAMES, call_word, number, plural_form, say
from cardgen.sim.runner import Batch, SimConfig, SimResult, run_range

SANITY_GAMES = 200
SANITY_PLAYERS = 4
SANITY_SEED = 0
SANITY_AGENTS = ("greedy", "random")
STALEMATE_LIMIT = 0.01  # above this share of games stopped at the turn cap, warn
SANITY_TURNS = 50_000  # work budget: no new game starts once the games played so far took this many turns
SANITY_TURN_CAP = 1000  # validation games stop here even if the set allows more turns


@dataclass(frozen=True)
class SanityReport:
    """The diagnostics and the figures they came from (for a one-line summary)."""

    diagnostics: list[Diagnostic]
    games: int
    stalemates: int
    violations: int
    seconds: float
    planned: int = SANITY_GAMES  # the games it set out to play (more than `games` when a budget ran out)
    stopped_by: str = ""  # what cut the games short: "turns", "time" or "" (all were played)
    turn_budget: int = SANITY_TURNS  # the turns the games may take in all
    turn_cap: int = 0  # the turn cap games were played to
    set_turn_cap: int = 0  # the set's own turn cap (higher than `turn_cap` when games were cut short)

    def cut_short(self) -> list[str]:
        """What the bounds cut short, in words (empty when the run was whole)."""
        out = []
        if self.games < self.planned:
            budget = (f"the turn budget ({self.turn_budget:,} turns in all)" if self.stopped_by == "turns"
                      else "the time budget")
            out.append(f"played {self.games} of {self.planned} games before {budget} ran out")
        if self.turn_cap < self.set_turn_cap:
            out.append(f"games stopped at {self.turn_cap} turns (the set's turn cap is {self.set_turn_cap})")
        return out


def _card_diag(card: Card, message: str, severity: Severity) -> Diagnostic:
    return Diagnostic(card.file, card.line, card.column, f"card '{card.name}' {message}", severity)


def _set_file(cs: CardSet) -> str:
    return str(Path(cs.path) / "set.yaml") if cs.path else cs.name


def sanity_check(cs: CardSet, games: int = SANITY_GAMES, players: int = SANITY_PLAYERS,
                 seed: int = SANITY_SEED, budget: float | None = None,
                 progress: Callable[[int], None] | None = None, turns: int = SANITY_TURNS) -> SanityReport:
    """Play a short mixed-bot simulation of `cs` and report what it reveals.

    Games are played one by one in game order (so the first n games are the same whatever the budget), and no
    new one starts once `turns` turns were played in all, nor after `budget` seconds when one is given;
    `progress(1)` is called after each.
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
    stopped_by = ""
    for g in range(games):
        batch = run_range(played_cs, info, cfg, g, g + 1)
        if total is None:
            total = batch
        else:
            total.merge(batch)
        if progress is not None:
            progress(1)
        if total.stats.turns_total >= turns and g + 1 < games:
            stopped_by = "turns"
            break
        if budget is not None and time.perf_counter() - t0 > budget and g + 1 < games:
            stopped_by = "time"
            break
    assert total is not None
    res = SimResult(cfg, total, time.perf_counter() - t0)
    st = total.stats
    return SanityReport(_diagnostics(cs, info, res, cap), st.games, st.stalemates, st.violations, res.seconds,
                        planned=games, stopped_by=stopped_by, turn_budget=turns, turn_cap=cap,
                        set_turn_cap=cs.rules.turn_cap)


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
                     progress: Callable[[int], None] | None = None,
                     kept: KeptGames | None = None) -> tuple[list[Diagnostic], BalanceResult]:
    """The balance lint, by the shared procedure (`cardgen.sim.balance`): a set that extends another (`base`)
    is compared with it and only the designer's changed and new cards are judged; a set with no base has each
    card judged against its role's band. A warning per card called at some table size, unless its data marks
    it `intended`; in the set's language. `kept`: games sets judged alone leave for later comparisons
    (`judge_set`)."""
    result = judge_set(cs, base, cfg or BalanceConfig(), progress, kept)
    by_card: dict[str, list[Verdict]] = {}
    for v in result.flagged():
        by_card.setdefault(v.card, []).append(v)
    out: list[Diagnostic] = []
    lang = cs.language
    for name, verdicts in by_card.items():
        card = cs.card(name)
        if name in result.intended or card.words_only:  # words alone: its figures say nothing (NOT_SIMULATED)
            continue
        words = "; ".join(verdict_sentence(v, result, lang) for v in verdicts)
        out.append(_card_diag(card, say("lint.warning", lang, call=call_word(verdicts[0].call, lang),
                                        sentences=words), "warning"))
    return out, result


def balance_notes(result: BalanceResult, cs: CardSet) -> list[str]:
    """The summary lines of the balance lint of `cs`, in its language: games played, cards marked intended, the
    game under changed rules, what stayed unclear. A card only words describe (`effects: text`: the engine plays
    it as doing nothing) is never counted, called or left open here: `validate` names it "not simulated"."""
    lang = cs.language
    not_simulated = {c.name for c in cs.cards if c.words_only}
    what = say("lint.with_base", lang, base=result.a) if result.b is not None else say("lint.alone", lang)
    games = ", ".join(say("lint.games", lang, games=t.games, players=t.players) for t in result.tables)
    called = {v.card for v in result.flagged()} - set(result.intended) - not_simulated
    outcome = (plural_form(messages.message("balance.lint.stand_out", lang), len(called), lang) if called
               else say("table.quiet", lang))
    lines = [say("lint.summary", lang, what=what, games=games, outcome=outcome,
                 cached=say("lint.cached", lang) if result.cached else "")]
    for name in sorted({v.card for v in result.flagged()} & set(result.intended)):
        lines.append(say("lint.intended", lang, card=name, reason=result.intended[name]))
    for t in result.tables:
        lines += [say("lint.game", lang, sentence=verdict_sentence(v, result, lang))
                  for v in t.verdicts if v.family == "rules"]
        open_cards = [v for v in t.verdicts if v.family != "knock-on" and v.call == "undecided"
                      and v.card not in not_simulated]
        if open_cards and t.stopped == "max games":
            cards = ", ".join(say("lint.budget_card", lang, card=v.card, needed=_needed(v, lang))
                              for v in open_cards[:5])
            more = say("lint.more", lang, n=len(open_cards) - 5) if len(open_cards) > 5 else ""
            lines.append(say("lint.budget", lang, players=t.players, cards=cards, more=more))
    return lines


def _needed(v: Verdict, lang: str) -> str:
    if v.games_needed is None or v.games_needed > PRACTICAL_GAMES:
        return say("lint.needed_far", lang, limit=number(PRACTICAL_GAMES, ",", lang))
    return say("lint.needed_near", lang, needed=number(v.games_needed, ",", lang))
