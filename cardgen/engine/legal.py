"""Legal moves: what the player to act may do on their turn, and how each player may answer a pending card."""

from __future__ import annotations

from cardgen.engine.cards import STRIKE_DEFENCES, CardInfo
from cardgen.engine.effects import can_act, next_seat
from cardgen.engine.moves import (
    DECLINE,
    DEFEND,
    DISCARD,
    DONE,
    HEAL,
    HUMILIATE,
    INTERFERE,
    INTERJECT,
    PASS,
    PLAY,
    RELEASE,
    STOMP,
    VOMIT_HIT,
    Move,
)
from cardgen.engine.state import Frame, GameState, OpenerF, StrikeF, TickF, Window

NO_DEFENCE: frozenset[str] = frozenset()
PASS_MOVE = Move(PASS)
DONE_MOVE = Move(DONE)
DECLINE_MOVE = Move(DECLINE)
DISCARD_MOVES: list[Move] = []


def discard_move(d: int) -> Move:
    """Discard moves are the commonest moves of all: make each one once."""
    while len(DISCARD_MOVES) <= d:
        DISCARD_MOVES.append(Move(DISCARD, len(DISCARD_MOVES)))
    return DISCARD_MOVES[d]


def variants(s: GameState, kind: str, ci: CardInfo, target: int) -> list[Move]:
    """A move, twice for a weapon that may be dropped after use (Beer Money)."""
    if ci.weapon and s.rules.weapons_may_drop:
        return [Move(kind, ci.d, target), Move(kind, ci.d, target, "drop")]
    return [Move(kind, ci.d, target)]


def effect_targets(s: GameState, p: int, ci: CardInfo) -> list[int]:
    """Targets to offer for a turn play: each other conscious player, or -1 for cards that pick their own."""
    if ci.aimed:
        return [q for q in range(len(s.life)) if q != p and not s.down[q]]
    return [-1]


def heal_limit(s: GameState) -> int:
    """Heal cards allowed in one heal action."""
    r = s.rules
    if r.heals_per_turn:
        return r.heals_per_turn
    return 1_000_000 if r.heal_action else 1


def heal_moves(s: GameState, p: int, hand: set[int]) -> list[Move]:
    """Heal plays on yourself (if it restores something) or, with `revive`, on an unstomped unconscious player."""
    targets = [p] if s.life[p] < s.start_life else []
    if s.rules.revive:
        targets += [q for q in range(len(s.life)) if s.down[q] and not s.stomped[q]]
    return [Move(HEAL, d, t) for d in hand if s.info[d].heal_turn for t in targets]


def turn_moves(s: GameState, p: int) -> list[Move]:
    """Everything `p` may do as the action of their turn."""
    hand = set(s.hands[p])
    out = [PASS_MOVE]
    out += [discard_move(d) for d in hand]
    out += [Move(RELEASE, -1, h.victim) for h in s.holds if h.holder == p]
    if s.holds and s.restricted(p):
        return out
    info = s.info
    others = [q for q in range(len(s.life)) if q != p and not s.down[q]]
    drop = s.rules.weapons_may_drop
    vomiting = ([v for v in others if s.vomit_until[v] >= s.turn] if max(s.vomit_until) >= s.turn else [])
    for d in hand:
        ci = info[d]
        if ci.turn_play:
            if ci.weapon:
                if d not in s.weapons_used:
                    for t in others if ci.aimed else (-1,):
                        out.append(Move(PLAY, d, t))
                        if drop:
                            out.append(Move(PLAY, d, t, "drop"))
            elif ci.aimed:
                out += [Move(PLAY, d, t) for t in others]
            else:
                out.append(Move(PLAY, d))
        if ci.hold_opener is not None:
            out += [Move(PLAY, d, t, "hold") for t in others]
        if ci.stomp and s.rules.revive:
            out += [Move(STOMP, d, t) for t in range(len(s.life)) if s.down[t] and not s.stomped[t]]
        if vomiting and not s.vomit_hit_used and ci.role == "attack" and ci.damage and ci.turn_play:
            out += [Move(VOMIT_HIT, d, v) for v in vomiting]
    out += heal_moves(s, p, hand)
    return out


def allowed_defences(s: GameState, f: Frame) -> frozenset[str]:
    """Defence kinds the target of `f` may play now."""
    if isinstance(f, StrikeF):
        if f.no_def:
            return NO_DEFENCE
        if f.moved and s.info[f.design].travels and next_seat(s, f.target, f.direction) == f.player:
            return f.allowed - STRIKE_DEFENCES  # the end of the line takes it
        return f.allowed
    if isinstance(f, OpenerF):
        return f.allowed
    if isinstance(f, TickF):
        return frozenset(f.hold.broken_by)
    return NO_DEFENCE


def responses(s: GameState, f: Window, q: int) -> list[Move]:
    """What `q` may answer to the pending card `f` (empty: `q` is not asked)."""
    if not can_act(s, q) or not s.hands[q]:
        return []
    out: list[Move] = []
    kind = f.kind
    allowed = allowed_defences(s, f) if q == f.target else NO_DEFENCE
    n = len(s.life)
    for d in set(s.hands[q]):
        ci = s.info[d]
        for k in ci.defend_as:
            if k in allowed:
                out.append(Move(DEFEND, d, -1, k))
        if ci.humiliate is not None:
            if ci.humiliate == "cancel" or kind in ("tick", "opener"):
                out.append(Move(HUMILIATE, d))  # a redirect stops an opener or breaks a hold outright
            elif kind == "strike":
                out += [Move(HUMILIATE, d, t) for t in range(n) if t not in (q, f.target) and not s.down[t]]
        if ci.interfere and kind == "strike" and q != f.target:
            out.append(Move(INTERFERE, d))
        if ci.interject and kind != "answer":
            for t in effect_targets(s, q, ci):
                out += variants(s, INTERJECT, ci, t)
    return out
