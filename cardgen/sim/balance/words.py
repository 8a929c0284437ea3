"""The verdicts in words a designer can act on (docs/simulation.md, "For designers").

Every sentence is derived from the same figures as the call: how big an effect is comes from the interval's
near end (what the games guarantee, not the point estimate a lucky early stop exaggerates), a band's edge is
named by the edge actually used, and a table-size difference is told in the card's own direction.
"""

from __future__ import annotations

from cardgen.sim.balance.model import CLEARED_CALLS, BalanceResult, Interaction, TableResult, Verdict
from cardgen.sim.balance.verdicts import GAME_LENGTH

CALL_WORDS: dict[str, str] = {"stronger": "Stronger than before", "weaker": "Weaker than before",
                              "too strong": "Too strong", "too weak": "Too weak",
                              "never played": "Never played: nobody would choose it"}
EDGE_WORDS: dict[str, str] = {"hi": "strongest", "lo": "weakest"}
PRACTICAL_GAMES = 100_000  # past this, "about N games would tell" is no help: say the effect is near the minimum


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 card', '2 cards' (`many`: the plural when it is not word + s)."""
    return f"{n} {word if n == 1 else many or word + 's'}"


def _pct(x: float | None) -> str:
    return "?" if x is None else f"{100 * x:.0f} %"


def at_least(v: Verdict) -> str:
    """What the interval guarantees, in games: 'at least one extra win in 30 games' from its near end."""
    assert v.low is not None and v.high is not None and v.change is not None
    near = v.low if v.change > 0 else v.high
    if near == 0 or (near > 0) != (v.change > 0):
        return "the size is not clear yet"
    return f"at least one {'extra win' if near > 0 else 'win fewer'} in {max(1, round(100 / abs(near)))} games"


def _interval(v: Verdict, unit: str = "points") -> str:
    return f"{v.change:+.1f} {unit} [{v.low:+.1f}, {v.high:+.1f}]"


def _open(v: Verdict) -> str:
    if v.games_needed is None or v.games_needed > PRACTICAL_GAMES:
        return f"not clear yet after {v.games} games (more than {PRACTICAL_GAMES:,} would tell)"
    return f"not clear yet after {v.games} games (about {v.games_needed:,} would tell)"


def _band_words(v: Verdict, result: BalanceResult) -> str:
    """The card's place against its band: the edge it is judged against, and its figure against the other."""
    of_base = " of the base set" if result.b is not None else ""
    other = "other " if v.family == "card" else ""
    role = f"{v.reference_role} " if v.reference_role else ""  # "": the role has no other card, the band is all
    words = (f"{_interval(v)} against {v.reference}, the {EDGE_WORDS.get(v.edge, '')} {other}{role}"
             f"card{of_base}")
    if v.other_reference is not None and v.other_change is not None and v.other_reference != v.reference:
        words += (f", and {v.other_change:+.1f} against {v.other_reference}, the "
                  f"{EDGE_WORDS.get('lo' if v.edge == 'hi' else 'hi', '')}")
    return words


def _game_sentence(v: Verdict, min_effect: float) -> str:
    head = f"the game, at {v.players} players"
    if v.change is None:
        return f"{head}: not tested"
    if v.card == GAME_LENGTH:
        before, after = v.a_rate or 0.0, v.b_rate or 0.0
        share = f" ({100 * (after - before) / before:+.0f} %)" if before else ""
        words = f"games last {after:.1f} turns instead of {before:.1f}: {_interval(v, 'turns')}{share}"
        tail = {"longer": "Longer games.", "shorter": "Shorter games."}.get(v.call, v.call)
    else:
        words = (f"the first player wins {_pct(v.b_rate)} of games instead of {_pct(v.a_rate)}: {_interval(v)}")
        tail = {"stronger": "The first player's edge grew.",
                "weaker": "The first player's edge shrank."}.get(v.call, v.call)
    if v.call == "undecided":
        return f"{head}: {words}: {_open(v)}"
    return f"{head}: {words}: {tail}"


def verdict_sentence(v: Verdict, result: BalanceResult) -> str:
    """A verdict in plain words: who wins how often, the figure and its interval, what the interval guarantees
    in games, and the call."""
    if v.family == "rules":
        return _game_sentence(v, result.config.min_effect)
    head = f"{v.card}, at {v.players} players"
    if v.call == "not tested" or v.change is None:
        return f"{head}: not tested (no player started with it, or nothing was played)"
    if v.call == "never played":
        return (f"{head}: the players who held it never played it ({v.games} games). "
                f"{CALL_WORDS['never played']}.")
    if v.family in ("new", "card"):
        words = (f"players who start with it win {_pct(v.b_rate)} of games, the others {_pct(v.others)}; that is "
                 f"{_band_words(v, result)}")
        head = f"new card {head}" if v.family == "new" else head
    else:
        words = (f"players who start with it win {_pct(v.b_rate)} of games, the others {_pct(v.others)} (before: "
                 f"{_pct(v.a_rate)} and {_pct(v.a_others)}): {_interval(v)}")
    if v.flagged:
        return f"{head}: {words}: {at_least(v)}. {CALL_WORDS[v.call]}."
    if v.call == "undecided":
        return f"{head}: {words}: {_open(v)}"
    return f"{head}: {words}: {v.call}"


def interaction_words(i: Interaction, result: BalanceResult) -> str:
    """'Kick (7.8 points stronger at 4 players than at 2 [+3.1, +12.5])', in the card's own direction."""
    called = [v for t in result.tables for v in t.verdicts if v.card == i.card and v.flagged]
    sign = -1.0 if called and called[0].call in ("weaker", "too weak") else 1.0
    direction = "weaker" if sign < 0 else "stronger"
    d, lo, hi = sign * i.change, sorted((sign * i.low, sign * i.high))[0], sorted((sign * i.low, sign * i.high))[1]
    small, big = i.tables
    if d < 0:
        d, lo, hi, small, big = -d, -hi, -lo, big, small
    return f"{i.card} ({d:.1f} points {direction} at {big} players than at {small} [{lo:+.1f}, {hi:+.1f}])"


def _changes_lines(result: BalanceResult) -> list[str]:
    edits = [c for c in result.changes if c.kind != "unchanged"]
    head = f"{result.a} -> {result.b}: " + (plural(len(edits), "card") + " changed" if edits else
                                             "no card's design or copies changed")
    if result.rules:
        head += "; rules changed: " + ", ".join(f"{r.rule} {r.before} -> {r.after}" for r in result.rules)
    lines = [head]
    for c in edits:
        what = {"mechanics": f"changed ({', '.join(c.fields)})", "copies": f"copies {c.copies[0]} -> "
                f"{c.copies[1]}", "new": f"new ({c.copies[1]} cop{'y' if c.copies[1] == 1 else 'ies'})",
                "removed": "removed"}[c.kind]
        if c.kind == "mechanics" and c.copies[0] != c.copies[1]:
            what += f", copies {c.copies[0]} -> {c.copies[1]}"
        lines.append(f"  {c.name}: {what}")
    return lines


STOP_WORDS: dict[str, str] = {"decided": "stopped when every verdict was clear",
                              "max games": "the game budget ran out (--max-games plays more)",
                              "games": "fixed game count"}


def _table_lines(t: TableResult, result: BalanceResult) -> list[str]:
    head = f"{t.players} players: {t.games} games"
    if t.stopped == "nothing to test":
        return [f"{head}: nothing to test (the versions play identical games)" if result.b is not None else
                f"{head}: nothing to test"]
    lines = [f"{head} ({STOP_WORDS[t.stopped]})"]
    game = [v for v in t.verdicts if v.family == "rules"]
    lines += ["  " + verdict_sentence(v, result) for v in game]
    primary = [v for v in t.verdicts if v.family not in ("knock-on", "rules")]
    flagged = [v for v in primary if v.flagged and v.card not in result.intended]
    lines += ["  " + verdict_sentence(v, result) for v in flagged]
    lines += [f"  {verdict_sentence(v, result)} (marked intended: {result.intended[v.card]})"
              for v in primary if v.flagged and v.card in result.intended]
    if not flagged and primary:
        lines.append("  no card stands out" + (" among the changed cards" if result.b is not None else ""))
    undecided = [v for v in primary if v.call == "undecided"]
    if result.b is not None:
        lines += ["  " + verdict_sentence(v, result) for v in primary if v.call in CLEARED_CALLS]
        lines += ["  " + verdict_sentence(v, result) for v in undecided]
        knock = [v for v in t.verdicts if v.family == "knock-on" and v.flagged]
        label = "cards that gain or lose under the new rules" if result.rules else "knock-on effects on the other cards"
        lines.append(f"  {label}: " + ("; ".join(f"{v.card} {v.change:+.1f} points" for v in knock) if knock
                                       else "none that matters"))
    elif undecided:
        lines.append(f"  not clear yet: {plural(len(undecided), 'card')} "
                     f"({', '.join(v.card for v in undecided[:6])}{', ...' if len(undecided) > 6 else ''})")
    return lines


def verdict_lines(result: BalanceResult) -> list[str]:
    """The terminal summary: what changed, then per table size the game under changed rules, the flagged cards
    in words (or "no card stands out"), the cleared and open ones; then cards whose strength depends on the
    table size."""
    cfg = result.config
    lines = _changes_lines(result) if result.b is not None else []
    for t in result.tables:
        lines += _table_lines(t, result)
    if result.depends_on_table:
        lines.append("strength depends on the table size: " + "; ".join(
            interaction_words(i, result) for i in result.interactions if i.depends))
    lines.append(f"(bots {','.join(cfg.agents)}; a change smaller than {cfg.min_effect:g} points does not count; "
                 f"error rate {cfg.alpha:g} per family; seed {cfg.seed}"
                 + ("; answered from the cache of an identical run" if result.cached else "") + ")")
    return lines

