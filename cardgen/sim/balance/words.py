"""The verdicts in words a designer can act on (docs/simulation.md, "For designers"), in any language cardgen
has a message catalogue for (the `balance:` entries of templates/messages/<lang>.yaml).

Every sentence is derived from the same figures as the call: how big an effect is comes from the interval's
near end (what the games guarantee, not the point estimate a lucky early stop exaggerates), a band's edge is
named by the edge actually used, and a table-size difference is told in the card's own direction. The figures
and the call do not depend on the language: only the words do.
"""

from __future__ import annotations

from cardgen import messages
from cardgen.messages import DEFAULT_LANGUAGE
from cardgen.sim.balance.model import CLEARED_CALLS, BalanceResult, Interaction, TableResult, Verdict
from cardgen.sim.balance.verdicts import GAME_LENGTH

PRACTICAL_GAMES = 100_000  # past this, "about N games would tell" is no help: say the effect is near the minimum


def say(key: str, lang: str, **fields: object) -> str:
    """The catalogue's `balance.<key>` with its fields filled in."""
    return messages.text(f"balance.{key}", lang, **fields)


def count(key: str, n: int, lang: str) -> str:
    """'1 card', '2 cards' ('1 Karte', '2 Karten'): the `balance.count.<key>` form for n's plural category."""
    forms = messages.message(f"balance.count.{key}", lang)
    return plural_form(forms, n, lang)


def plural_form(forms: dict[str, str], n: int, lang: str) -> str:
    """The entry of `forms` ({one: ..., other: "{n} ..."}) for n's CLDR plural category ('other' if absent)."""
    return str(forms.get(messages.plural_category(n, lang), forms["other"])).format(n=n)


def number(x: float, spec: str, lang: str) -> str:
    """`x` formatted by `spec` ('+.1f', ',') with the language's decimal and group marks."""
    marks = messages.message("balance.marks", lang)
    return format(x, spec).translate(str.maketrans({".": marks["decimal"], ",": marks["group"]}))


def call_word(call: str, lang: str, table: str = "calls") -> str:
    """A call ('too strong') in words: `balance.calls.too_strong` (`table` "flag": as a sentence ends)."""
    return say(f"{table}.{call.replace(' ', '_')}", lang)


def _pct(x: float | None, lang: str) -> str:
    return "?" if x is None else say("percent", lang, n=number(100 * x, ".0f", lang))


def at_least(v: Verdict, lang: str = DEFAULT_LANGUAGE) -> str:
    """What the interval guarantees, in games: 'at least one extra win in 30 games' from its near end."""
    assert v.low is not None and v.high is not None and v.change is not None
    near = v.low if v.change > 0 else v.high
    if near == 0 or (near > 0) != (v.change > 0):
        return say("at_least.unclear", lang)
    n = max(1, round(100 / abs(near)))
    return say("at_least.more" if near > 0 else "at_least.fewer", lang, n=number(n, ",", lang))


def _interval(v: Verdict, lang: str, unit: str = "points") -> str:
    assert v.change is not None and v.low is not None and v.high is not None
    return say("interval", lang, change=number(v.change, "+.1f", lang), unit=say(f"units.{unit}", lang),
               low=number(v.low, "+.1f", lang), high=number(v.high, "+.1f", lang))


def _open(v: Verdict, lang: str) -> str:
    if v.games_needed is None or v.games_needed > PRACTICAL_GAMES:
        return say("open.far", lang, games=v.games, limit=number(PRACTICAL_GAMES, ",", lang))
    return say("open.near", lang, games=v.games, needed=number(v.games_needed, ",", lang))


def _band_words(v: Verdict, result: BalanceResult, lang: str) -> str:
    """The card's place against its band: the edge it is judged against, and its figure against the other."""
    kind = "card" if v.family == "card" else "new"
    role = say(f"roles.{v.reference_role}", lang) if v.reference_role else ""  # "": the role's band is all
    which = say(f"band.{kind}_{'role' if role else 'any'}", lang, edge=say(f"edge.{v.edge or 'hi'}", lang),
                role=role)
    if result.b is not None:
        which += say("band.of_base", lang)
    words = say("band.against", lang, interval=_interval(v, lang), reference=v.reference, which=which)
    if v.other_reference is not None and v.other_change is not None and v.other_reference != v.reference:
        words += say("band.and_other", lang, change=number(v.other_change, "+.1f", lang),
                     reference=v.other_reference, edge=say(f"edge.{'lo' if v.edge == 'hi' else 'hi'}", lang))
    return words


def _game_sentence(v: Verdict, lang: str) -> str:
    head = say("game.head", lang, players=v.players)
    if v.change is None:
        return say("game.not_tested", lang, head=head)
    if v.card == GAME_LENGTH:
        before, after = v.a_rate or 0.0, v.b_rate or 0.0
        share = say("game.share", lang, n=number(100 * (after - before) / before, "+.0f", lang)) if before else ""
        words = say("game.length", lang, after=number(after, ".1f", lang), before=number(before, ".1f", lang),
                    interval=_interval(v, lang, "turns"), share=share)
        tail = {"longer": "game.longer", "shorter": "game.shorter"}.get(v.call)
    else:
        words = say("game.first_player", lang, after=_pct(v.b_rate, lang), before=_pct(v.a_rate, lang),
                    interval=_interval(v, lang))
        tail = {"stronger": "game.grew", "weaker": "game.shrank"}.get(v.call)
    if v.call == "undecided":
        return say("game.open", lang, head=head, words=words, open=_open(v, lang))
    return say("game.called", lang, head=head, words=words,
               call=say(tail, lang) if tail else call_word(v.call, lang))


def verdict_sentence(v: Verdict, result: BalanceResult, lang: str = DEFAULT_LANGUAGE) -> str:
    """A verdict in plain words: who wins how often, the figure and its interval, what the interval guarantees
    in games, and the call."""
    if v.family == "rules":
        return _game_sentence(v, lang)
    head = say("card.new_head" if v.family == "new" else "card.head", lang, card=v.card, players=v.players)
    if v.call == "not tested" or v.change is None:
        return say("card.not_tested", lang, head=head)
    if v.call == "never played":
        return say("card.never_played", lang, head=head, games=v.games, flag=call_word(v.call, lang, "flag"))
    if v.family in ("new", "card"):
        words = say("card.in_band", lang, rate=_pct(v.b_rate, lang), others=_pct(v.others, lang),
                    band=_band_words(v, result, lang))
    else:
        words = say("card.changed", lang, rate=_pct(v.b_rate, lang), others=_pct(v.others, lang),
                    a_rate=_pct(v.a_rate, lang), a_others=_pct(v.a_others, lang), interval=_interval(v, lang))
    if v.flagged:
        return say("card.flagged", lang, head=head, words=words, at_least=at_least(v, lang),
                   flag=call_word(v.call, lang, "flag"))
    if v.call == "undecided":
        return say("card.open", lang, head=head, words=words, open=_open(v, lang))
    return say("card.called", lang, head=head, words=words, call=call_word(v.call, lang))


def interaction_words(i: Interaction, result: BalanceResult, lang: str = DEFAULT_LANGUAGE) -> str:
    """'Kick (7.8 points stronger at 4 players than at 2 [+3.1, +12.5])', in the card's own direction."""
    called = [v for t in result.tables for v in t.verdicts if v.card == i.card and v.flagged]
    sign = -1.0 if called and called[0].call in ("weaker", "too weak") else 1.0
    direction = "weaker" if sign < 0 else "stronger"
    d, lo, hi = sign * i.change, min(sign * i.low, sign * i.high), max(sign * i.low, sign * i.high)
    small, big = i.tables
    if d < 0:
        d, lo, hi, small, big = -d, -hi, -lo, big, small
    return say("depends", lang, card=i.card, change=number(d, ".1f", lang),
               direction=say(f"direction.{direction}", lang), big=big, small=small,
               low=number(lo, "+.1f", lang), high=number(hi, "+.1f", lang))


def _changes_lines(result: BalanceResult, lang: str) -> list[str]:
    edits = [c for c in result.changes if c.kind != "unchanged"]
    head = (say("changes.head", lang, a=result.a, b=result.b, cards=count("cards", len(edits), lang)) if edits
            else say("changes.none", lang, a=result.a, b=result.b))
    if result.rules:
        head += say("changes.rules", lang, rules=", ".join(
            say("changes.rule", lang, rule=r.rule, before=r.before, after=r.after) for r in result.rules))
    lines = [head]
    for c in edits:
        before, after = c.copies
        what = {"mechanics": say("changes.mechanics", lang, fields=", ".join(c.fields)),
                "copies": say("changes.copies", lang, before=before, after=after),
                "new": say("changes.new", lang, copies=count("copies", after, lang)),
                "removed": say("changes.removed", lang)}[c.kind]
        if c.kind == "mechanics" and before != after:
            what += say("changes.also_copies", lang, before=before, after=after)
        lines.append(say("changes.card", lang, card=c.name, what=what))
    return lines


def _knock_on_line(t: TableResult, result: BalanceResult, lang: str) -> str:
    knock = [v for v in t.verdicts if v.family == "knock-on" and v.flagged]
    cards = "; ".join(say("table.knock_card", lang, card=v.card, change=number(v.change or 0.0, "+.1f", lang))
                      for v in knock) or say("table.knock_none", lang)
    return "  " + say("table.knock_rules" if result.rules else "table.knock", lang, cards=cards)


def _table_lines(t: TableResult, result: BalanceResult, lang: str) -> list[str]:
    head = (say("table.head", lang, players=t.players, games=t.games) if t.played in (0, t.games) else
            say("table.head_counted", lang, players=t.players, games=t.games, played=t.played))
    if t.stopped == "nothing to test":
        return [say("table.identical" if result.b is not None else "table.nothing", lang, head=head)]
    lines = [say("table.stopped", lang, head=head, why=say(f"table.stops.{t.stopped.replace(' ', '_')}", lang))]

    def sentence(v: Verdict) -> str:
        return "  " + verdict_sentence(v, result, lang)

    lines += [sentence(v) for v in t.verdicts if v.family == "rules"]
    primary = [v for v in t.verdicts if v.family not in ("knock-on", "rules")]
    flagged = [v for v in primary if v.flagged and v.card not in result.intended]
    lines += [sentence(v) for v in flagged]
    lines += [say("table.intended", lang, sentence=sentence(v), reason=result.intended[v.card])
              for v in primary if v.flagged and v.card in result.intended]
    if not flagged and primary:
        lines.append("  " + say("table.quiet_changed" if result.b is not None else "table.quiet", lang))
    undecided = [v for v in primary if v.call == "undecided"]
    if result.b is not None:
        lines += [sentence(v) for v in primary if v.call in CLEARED_CALLS]
        lines += [sentence(v) for v in undecided]
        lines.append(_knock_on_line(t, result, lang))
    elif undecided:
        names = ", ".join(v.card for v in undecided[:6]) + (", ..." if len(undecided) > 6 else "")
        lines.append("  " + say("table.open", lang, cards=count("cards", len(undecided), lang), names=names))
    return lines


def verdict_lines(result: BalanceResult, lang: str = DEFAULT_LANGUAGE) -> list[str]:
    """The terminal summary: what changed, then per table size the game under changed rules, the flagged cards
    in words (or "no card stands out"), the cleared and open ones; then cards whose strength depends on the
    table size."""
    cfg = result.config
    lines = _changes_lines(result, lang) if result.b is not None else []
    for t in result.tables:
        lines += _table_lines(t, result, lang)
    if result.depends_on_table:
        lines.append(say("depends_head", lang, cards="; ".join(
            interaction_words(i, result, lang) for i in result.interactions if i.depends)))
    lines.append(say("footer", lang, agents=",".join(cfg.agents), min_effect=number(cfg.min_effect, "g", lang),
                     alpha=number(cfg.alpha, "g", lang), seed=cfg.seed,
                     cached=say("cached", lang) if result.cached else ""))
    return lines
