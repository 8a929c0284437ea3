"""The short simulation `cardgen validate` runs: problems only games can show, as card diagnostics.

A schema sees each card alone; games show a card nobody can ever play, a set
whose games do not end, a play that knocks out a fresh player, or a rule the
engine breaks. Greedy and random bots are rotated round the seats: the greedy
ones set up combos (so follow-ups become playable), the random ones try every
legal move (so anything playable gets played). Every invariant is checked after
every move.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cardgen.engine.cards import CardInfo, card_info
from cardgen.errors import Diagnostic, Severity
from cardgen.model import Card, CardSet
from cardgen.sim.runner import SimConfig, SimResult, simulate

SANITY_GAMES = 200
SANITY_PLAYERS = 4
SANITY_SEED = 0
SANITY_AGENTS = ("greedy", "random")
STALEMATE_LIMIT = 0.01  # above this share of games stopped at the turn cap, warn


@dataclass(frozen=True)
class SanityReport:
    """The diagnostics and the figures they came from (for a one-line summary)."""

    diagnostics: list[Diagnostic]
    games: int
    stalemates: int
    violations: int
    seconds: float


def _card_diag(card: Card, message: str, severity: Severity) -> Diagnostic:
    return Diagnostic(card.file, card.line, card.column, f"card '{card.name}' {message}", severity)


def _set_file(cs: CardSet) -> str:
    return str(Path(cs.path) / "set.yaml") if cs.path else cs.name


def unopenable_combos(info: tuple[CardInfo, ...]) -> dict[str, list[str]]:
    """Combos whose every opener can never be played as one: combo -> names of its would-be openers.

    An opener starts its combo when it can be played on a turn, after a block
    (`after_block`), or as the HOLD half of a counter pair.
    """
    blocks = any("block" in ci.defend_as for ci in info)
    can: dict[str, bool] = {}
    names: dict[str, list[str]] = {}
    for ci in info:
        if ci.hold_opener is not None:
            can[ci.hold_opener.combo] = True
        o = ci.opener
        if o is None:
            continue
        names.setdefault(o.combo, []).append(ci.name)
        ok = ci.turn_play or ci.interject or (o.after_block and blocks)
        can[o.combo] = can.get(o.combo, False) or ok
    return {combo: names.get(combo, []) for combo, ok in can.items() if not ok}


def sanity_check(cs: CardSet, games: int = SANITY_GAMES, players: int = SANITY_PLAYERS,
                 seed: int = SANITY_SEED) -> SanityReport:
    """Play a short mixed-bot simulation of `cs` and report what it reveals."""
    info = card_info(cs)
    players = max(2, min(players, cs.total // max(cs.rules.hand_size, 1)))
    cfg = SimConfig(players=players, games=games, seed=seed, agents=SANITY_AGENTS, check_every_move=True,
                    coverage=True)
    res = simulate(cs, cfg)
    return SanityReport(_diagnostics(cs, info, res), games, res.batch.stats.stalemates,
                        res.batch.stats.violations, res.seconds)


def _diagnostics(cs: CardSet, info: tuple[CardInfo, ...], res: SimResult) -> list[Diagnostic]:
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
                              f"({100 * st.stalemates / games:.1f} %) reached the {cs.rules.turn_cap}-turn cap "
                              "without a winner; games may not end", "warning"))
    dead_combos = unopenable_combos(info)
    life = cs.rules.life
    for d, ci in enumerate(info):
        card = ci.card
        if ci.follows is not None and ci.follows in dead_combos:
            openers = ", ".join(f"'{n}'" for n in dead_combos[ci.follows]) or "no card"
            out.append(_card_diag(card, f"can never be played: it follows '{ci.follows}', and {openers} can never "
                                  f"be played as an opener (never legal in {games} simulated games)", "error"))
        elif cov.legal[d] == 0:
            out.append(_card_diag(card, f"was never playable in {games} simulated games (held at {cov.held[d]} "
                                  "decisions); check what it needs, or raise its count or its opener's", "warning"))
        elif cov.played[d] == 0:
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
