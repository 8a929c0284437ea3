"""Which cards the rules could ever let anyone play, proved from the card data alone (no games played).

The simulation only shows what random games happened to do; this reads each
card's rules facts (`card_info`, the same facts the engine acts on) and the
set's rules, and grows the set of cards that can be played to a fixed point:
a turn play can always be played; a defence once some playable card can be
answered by it; a follow-up once an opener of its combo can be played as an
opener; a heal, a stomp (on a knocked-out player) or an interference once something
can deal damage;
a humiliation or a response-only card once some card opens a response window.
Whatever is left can never be played, whatever the players do. The analysis
over-approximates what is playable (player counts, stuns and hand contents are
ignored), so a card it calls dead is dead in every game; a card it calls
playable may still go unplayed in a short simulation (that stays a warning).

It also checks combos both ways: an opener nothing can follow, and a follow-up
whose openers can never open.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from cardgen import mechanics as mech
from cardgen.engine.cards import HOLD_COMBO, CardInfo, card_info
from cardgen.errors import Diagnostic, Severity
from cardgen.model import CardSet


@dataclass
class Reach:
    """What can happen in some game of the set: the fixed point the analysis grows."""

    playable: set[int] = field(default_factory=set)  # designs that can be put in play
    damage: bool = False  # some playable card takes life from a player
    windows: bool = False  # some playable card opens a response window (a strike, an opener, a hold tick)
    strikes: bool = False  # some playable card strikes (a hit that can be defended, redirected, stepped into)
    defences: set[str] = field(default_factory=set)  # defence kinds some playable card can be answered with
    open_combos: set[str] = field(default_factory=set)  # combos some playable card opens
    blocks: bool = False  # a BLOCK can be played (BM GRAB after a block)


def follows_opener(ci: CardInfo, combo: str, then: tuple[str, ...]) -> bool:
    """`ci` may be played as a follow-up of `combo` (by `follows`, or as a damage card of a `then` type).

    The same condition as the engine's combo step.
    """
    return ci.follows == combo or (ci.typed_follow_up and ci.type in then)


def _opens_as_opener(ci: CardInfo, reach: Reach) -> set[str]:
    """Combos `ci` opens when played as an opener: on a turn, after a block, or as the HOLD half of a pair."""
    out: set[str] = set()
    if ci.hold_opener is not None:
        out.add(ci.hold_opener.combo)
    o = ci.opener
    if o is not None and (ci.turn_play or (o.after_block and reach.blocks)):
        out.add(o.combo)
    return out


def _can_play(ci: CardInfo, reach: Reach) -> bool:
    if ci.turn_play or ci.hold_opener is not None:
        return True
    if ci.follows is not None and ci.follows in reach.open_combos:
        return True
    if ci.opener is not None and ci.opener.after_block and reach.blocks:
        return True
    if reach.damage and (ci.heal_turn or ci.heal_drop or ci.stomp or (ci.interfere and reach.strikes)):
        return True
    if reach.windows and (ci.humiliate is not None or ci.interject):
        return True
    return any(k in reach.defences for k in ci.defend_as)


def _add(ci: CardInfo, reach: Reach) -> None:
    """What playing `ci` makes possible."""
    reach.playable.add(ci.d)
    hits = bool(ci.damage) or ci.ongoing is not None
    if hits or ci.retaliates:
        reach.damage = True
    opens = _opens_as_opener(ci, reach)
    reach.open_combos |= opens
    if hits or opens:
        reach.windows = True
        reach.defences |= ci.defences
    if ci.damage:
        reach.strikes = True
    if ci.hold_opener is not None:
        reach.defences |= ci.hold_defences
    if ci.humiliate is not None or ci.defend_as:
        reach.windows = True  # an answer can itself be answered (humiliation chains)
    if "block" in ci.defend_as and "block" in reach.defences:
        reach.blocks = True


def reach_of(cs: CardSet, info: tuple[CardInfo, ...] | None = None) -> Reach:
    """The fixed point: every card that can be played, and what they make possible."""
    info = card_info(cs) if info is None else info
    reach = Reach()
    changed = True
    while changed:
        changed = False
        for ci in info:
            before = (len(reach.playable), reach.damage, reach.windows, reach.strikes, len(reach.defences),
                      len(reach.open_combos), reach.blocks)
            if _can_play(ci, reach):
                _add(ci, reach)
            after = (len(reach.playable), reach.damage, reach.windows, reach.strikes, len(reach.defences),
                     len(reach.open_combos), reach.blocks)
            changed = changed or after != before
    return reach


def _why_dead(ci: CardInfo, info: tuple[CardInfo, ...]) -> str:
    """Why `ci` can never be played, in the words of what it would need."""
    if ci.follows is not None:
        openers = [o.name for o in info if o.opener is not None and o.opener.combo == ci.follows]
        if ci.follows == HOLD_COMBO:
            openers += [o.name for o in info if o.hold_opener is not None]
        named = ", ".join(f"'{n}'" for n in openers) or "no card"
        return f"it follows '{ci.follows}', and {named} can never be played as an opener of it"
    needs: list[str] = []
    if ci.defend_as:
        needs.append(f"it defends as {' or '.join(ci.defend_as)}, and no playable card can be answered that way")
    if ci.heal_turn or ci.heal_drop or ci.stomp or ci.interfere:
        needs.append("it answers damage, and no playable card deals any")
    if ci.humiliate is not None or ci.interject:
        needs.append("it answers a card in play, and no playable card can be answered")
    if ci.opener is not None and not ci.turn_play:
        needs.append("its opener is only played after a BLOCK, and no BLOCK can be played" if ci.opener.after_block
                     else "an opener on a card that answers (a defence) is never played as an opener")
    if mech.response_only(ci.card) and not ci.interject:
        needs.append("`timing: response` is only for cards that deal damage or draw")
    return "; ".join(needs) or "it has no effect the rules can play (no damage, defence, heal or combo)"


def _set_file(cs: CardSet) -> str:
    return str(Path(cs.path) / "set.yaml") if cs.path else cs.name


def _diag(ci: CardInfo, message: str, severity: Severity = "error") -> Diagnostic:
    c = ci.card
    return Diagnostic(c.file, c.line, c.column, f"card '{c.name}' {message}", severity)


def combo_problems(info: tuple[CardInfo, ...]) -> list[Diagnostic]:
    """Openers that nothing in the set can follow (the HOLD half of a pair: a warning, the other half works)."""
    out: list[Diagnostic] = []
    for ci in info:
        o = ci.opener
        if o is not None and not any(follows_opener(f, o.combo, o.then) for f in info if f.d != ci.d):
            then = f" and no damage card of type {', '.join(o.then)} can follow it" if o.then else ""
            out.append(_diag(ci, f"field `opens`: nothing in the set can follow it: no card says "
                                 f"`follows: {o.combo}`{then}"))
        h = ci.hold_opener
        if h is not None and not any(follows_opener(f, h.combo, h.then) for f in info):
            out.append(_diag(ci, f"field `pair`: its HOLD half opens nothing: no card in the set says "
                                 f"`follows: {HOLD_COMBO}` (the other half still plays)", "warning"))
    return out


def playability_problems(cs: CardSet, info: tuple[CardInfo, ...] | None = None) -> list[Diagnostic]:
    """Cards no rule could ever let anyone play (errors), openers nothing follows, and a set without damage."""
    info = card_info(cs) if info is None else info
    reach = reach_of(cs, info)
    out: list[Diagnostic] = []
    if not reach.damage:
        out.append(Diagnostic(_set_file(cs), 1, 1, "no card of the set can ever take life from a player: games "
                              "could never end (add cards with `damage` or `ongoing`)"))
    out += combo_problems(info)
    for ci in info:
        if ci.d not in reach.playable:
            why = _why_dead(ci, info)
            out.append(_diag(ci, f"can never be played under the set's rules: {why}"))
    return out


def dead_cards(cs: CardSet, info: tuple[CardInfo, ...] | None = None) -> set[int]:
    """The designs (indexes) no rule could ever let anyone play."""
    info = card_info(cs) if info is None else info
    return {ci.d for ci in info} - reach_of(cs, info).playable


def games_can_end(cs: CardSet) -> bool:
    """Some playable card can take life from a player (else a game only stops at the turn cap)."""
    return reach_of(cs).damage
