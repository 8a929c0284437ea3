"""Legal moves: what the player to act may do on their turn, and the moves every pending step builds on.

What may answer a pending card is the card's own frame's to say (`frames.Window.answers`)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Final

from cardgen.engine import moves as mv
from cardgen.engine.cards import CardInfo
from cardgen.engine.moves import Move
from cardgen.model import DefenceKind

if TYPE_CHECKING:
    from cardgen.engine.frames import Frame
    from cardgen.engine.game import TurnPlays
    from cardgen.engine.state import GameState

NO_DEFENCE: Final[frozenset[DefenceKind]] = frozenset()
PASS_MOVE: Final = Move(mv.PASS)
DONE_MOVE: Final = Move(mv.DONE)
DECLINE_MOVE: Final = Move(mv.DECLINE)


def variants(s: GameState, kind: mv.MoveKind, ci: CardInfo, target: int) -> list[Move]:
    """A move, twice for a weapon that may be dropped after use (Beer Money's weapons)."""
    if ci.may_drop:
        return [s.game.shared_move(kind, ci.d, target), s.game.shared_move(kind, ci.d, target, mv.DROP)]
    return [s.game.shared_move(kind, ci.d, target)]


def effect_targets(s: GameState, p: int, ci: CardInfo) -> list[int]:
    """Targets to offer for a turn play: each other conscious player, or -1 for cards that pick their own."""
    if ci.aimed:
        return [q for q in range(len(s.life)) if q != p and not s.down[q]]
    return [-1]


def heal_moves(s: GameState, p: int, hand: Collection[int]) -> list[Move]:
    """Heal plays on yourself (if it restores something) or, for a card that `revives`, on an unstomped
    unconscious player.

    Targets come in seat order, so a sorted `hand` gives sorted moves.
    """
    info = s.game.info
    heals = [d for d in hand if info[d].heal_turn]  # usually none: then no need to look for targets
    if not heals:
        return []
    me = p if s.life[p] < s.game.start_life else -1  # yourself only if it restores something
    out: list[Move] = []
    targets: tuple[int, ...] | None = None  # of a heal that revives: the same for every such card
    for d in heals:
        if info[d].revives:
            if targets is None:
                targets = s.game.revivable(me, tuple(s.down), tuple(s.stomped))
            out += s.game.heals_at(d, targets)
        elif me >= 0:
            out.append(s.game.shared_move(mv.HEAL, d, me))
    return out


def barred(s: GameState, p: int, ci: CardInfo) -> bool:
    """Whether a card under its set's per-turn limits may not be played by `p` now: classic's weapon limits
    (`weapon_barred`) and its one attack card on your own turn (`one_per_own_turn`), for the action, a
    follow-up, a free attack and an any-time play alike (docs/rules-decisions.md, 13a and 13b)."""
    if ci.one_per_turn and p == s.current and ci.role in s.roles_played:
        return True
    return ci.weapon_limit and weapon_barred(s, p, ci)


def weapon_barred(s: GameState, p: int, ci: CardInfo) -> bool:
    """Classic's weapon limits, for a weapon from a set that has them: on your own turn one weapon card in
    all (the action and any follow-up); on anyone's turn never the same weapon twice (docs/rules-decisions.md)."""
    used = s.weapons_used
    if not ci.weapon_limit or not used:
        return False
    if p == s.current:
        return any(q == p for q, _ in used)
    return (p, ci.d) in used


def breaks(s: GameState, p: int) -> list[Move]:
    """On their own turn, a held player may break the hold with a card that breaks it (its `broken_by`)."""
    out: list[Move] = []
    info = s.game.info
    for h in s.holds:
        if h.victim == p:
            for d in set(s.hands[p]):
                out += [Move(mv.DEFEND, d, h.holder, m.choice) for k, m in info[d].defend_moves if k in h.broken_by]
    return out


def card_plays(table: dict[int, TurnPlays], ci: CardInfo, others: Sequence[int], key: int) -> TurnPlays:
    """A card's PLAY moves as a turn action when it may aim at `others`, sorted: all of them (its own play and
    its HOLD half's), and its HOLD half's alone (for a weapon already used this turn).

    Kept in the game's `table` of this card under `key` (`others` as a bit mask): the same few target sets
    recur turn after turn, and building these moves afresh each turn was the costliest part of listing the
    legal moves.
    """
    got = table.get(key)
    if got is None:
        d = ci.d
        own: list[Move] = []
        if ci.turn_play:
            for t in others if ci.aimed else (-1,):
                own.append(Move(mv.PLAY, d, t))
                if ci.may_drop:
                    own.append(Move(mv.PLAY, d, t, mv.DROP))
        hold = tuple(Move(mv.PLAY, d, t, mv.AS_HOLD) for t in others) if ci.hold_opener is not None else ()
        got = table[key] = (tuple(sorted(own + list(hold))), hold)
    return got


def turn_moves(s: GameState, p: int) -> list[Move]:
    """Everything `p` may do as the action of their turn, sorted and unique.

    Built in sorted order (defend < discard < heal < pass < play < release < stomp < vomit-hit; then by card,
    target and choice): sorting the list afresh every turn cost more than building it. The rare kinds (holds,
    stomps, vomit hits) are each one test in the loop, and built only when they occur.
    """
    hand = sorted(s.hands[p])  # (copies of a design are skipped in the loop: cheaper than a set, compiled or not)
    info = s.game.info
    tables = s.game.turn_plays
    out: list[Move] = []  # the discards first, made in the loop over the hand below
    extra: list[Move] = []  # the rare kinds that sort after the plays
    if s.holds:
        out, extra = held_moves(s, p)
        if s.restricted(p):
            out += [info[d].discard_move for d in sorted(set(hand))]
            out.append(PASS_MOVE)
            out += extra
            return out
    down = s.down
    others, seats = s.game.rivals(p, tuple(down))
    key = seats  # what the card's turn plays depend on
    vomiting = [v for v in others if s.vomit_until[v] >= s.turn] if s.anyone_vomiting() else []
    plays: list[Move] = []
    heals: list[int] = []
    last = -1
    for d in hand:
        if d == last:
            continue
        last = d
        ci = info[d]
        out.append(ci.discard_move)
        if not ci.on_turn:  # a defence, a follow-up...: nothing to do with it on a turn but discard it
            continue
        if ci.plays:
            table = tables[d]
            both, hold = table.get(key) or card_plays(table, ci, others, key)
            plays += hold if ci.limited and (s.weapons_used or s.roles_played) and barred(s, p, ci) else both
        if ci.heal_turn:
            heals.append(d)
        if ci.stomp:
            extra += [s.game.shared_move(mv.STOMP, d, t) for t in s.game.revivable(-1, tuple(down), tuple(s.stomped))]
        if vomiting and vomit_hit(s, p, ci):
            extra += [s.game.shared_move(mv.VOMIT_HIT, d, v) for v in vomiting]
    if heals:
        out += turn_heals(s, p, heals)
    out.append(PASS_MOVE)
    out += plays
    if extra:
        out += sorted(extra)
    return out


def held_moves(s: GameState, p: int) -> tuple[list[Move], list[Move]]:
    """With holds in play: `p`'s moves that break a hold on them (sorted: "defend" sorts before "discard"), and
    their RELEASE moves of holds they may let go (sorted; two holds on one victim are one move)."""
    release = sorted({Move(mv.RELEASE, -1, h.victim) for h in s.holds if h.holder == p and h.releasable})
    return sorted(breaks(s, p)), release


def vomit_hit(s: GameState, p: int, ci: CardInfo) -> bool:
    """Whether `p` may play `ci` as this turn's free basic attack on a vomiting player (once a turn)."""
    return not s.vomit_hit_used and ci.basic_attack and not (ci.limited and barred(s, p, ci))


def turn_heals(s: GameState, p: int, heals: list[int]) -> list[Move]:
    """The HEAL moves of turn heals `heals` (sorted designs) as `p`'s action."""
    if s.game.reviving:
        return heal_moves(s, p, heals)
    if s.life[p] < s.game.start_life:  # `heal_moves` when none revives: on yourself alone, if it restores
        return [s.game.shared_move(mv.HEAL, d, p) for d in heals]
    return []


def allowed_defences(s: GameState, f: Frame) -> frozenset[DefenceKind]:
    """Defence kinds the target of `f` may play now (the frame's own rule: `Frame.defences`)."""
    return f.defences(s)
