"""Legal moves: what the player to act may do on their turn, and how each player may answer a pending card."""

from __future__ import annotations

from collections.abc import Collection

from cardgen.engine import moves as mv
from cardgen.engine.cards import STRIKE_DEFENCES, CardInfo
from cardgen.engine.effects import can_act, next_seat
from cardgen.engine.moves import Move
from cardgen.engine.state import Frame, GameState, OpenerF, StrikeF, TickF, Window

NO_DEFENCE: frozenset[str] = frozenset()
PASS_MOVE = Move(mv.PASS)
DONE_MOVE = Move(mv.DONE)
DECLINE_MOVE = Move(mv.DECLINE)
DISCARD_MOVES: list[Move] = []


def discard_moves(hand: list[int]) -> list[Move]:
    """A discard move per distinct card of `hand`, sorted by card (so in legal-move order)."""
    return _discards(sorted(set(hand)))


def _discards(designs: list[int]) -> list[Move]:
    """Discard moves of sorted, distinct `designs`. They are the commonest moves of all: each is made once."""
    while designs and len(DISCARD_MOVES) <= designs[-1]:
        DISCARD_MOVES.append(Move(mv.DISCARD, len(DISCARD_MOVES)))
    return [DISCARD_MOVES[d] for d in designs]


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


def heal_moves(s: GameState, p: int, hand: Collection[int]) -> list[Move]:
    """Heal plays on yourself (if it restores something) or, with `revive`, on an unstomped unconscious player."""
    info = s.info
    heals = [d for d in hand if info[d].heal_turn]  # usually none: then no need to look for targets
    if not heals:
        return []
    targets = [p] if s.life[p] < s.start_life else []
    if s.rules.revive:
        targets += [q for q in range(len(s.life)) if s.down[q] and not s.stomped[q]]
    return [Move(mv.HEAL, d, t) for d in heals for t in targets]


def card_plays(ci: CardInfo, others: list[int], key: int, drop: bool) -> tuple[tuple[Move, ...], tuple[Move, ...]]:
    """A card's PLAY moves as a turn action when it may aim at `others`: its own play, and its HOLD half's.

    Memoised on the card under `key` (`others` as a bit mask, and `drop`): the same few target sets recur
    turn after turn, and building these moves afresh each turn was the costliest part of listing the legal
    moves. A memo per card, not per game, so that it outlives the game (the runner shares one `info`).
    """
    got = ci.memo.get(key)
    if got is None:
        d = ci.d
        own: list[Move] = []
        if ci.turn_play:
            for t in others if ci.aimed else (-1,):
                own.append(Move(mv.PLAY, d, t))
                if ci.weapon and drop:
                    own.append(Move(mv.PLAY, d, t, "drop"))
        hold = tuple(Move(mv.PLAY, d, t, "hold") for t in others) if ci.hold_opener is not None else ()
        got = ci.memo[key] = (tuple(own), hold)
    return got


def turn_moves(s: GameState, p: int) -> list[Move]:
    """Everything `p` may do as the action of their turn (unique, unsorted)."""
    hand = sorted(set(s.hands[p]))
    out = [PASS_MOVE, *_discards(hand)]
    if s.holds:
        out += {Move(mv.RELEASE, -1, h.victim) for h in s.holds if h.holder == p}  # two holds on one victim: one move
        if s.restricted(p):
            return out
    info = s.info
    down = s.down
    others: list[int] = []
    seats = 0  # `others` as a bit mask
    for q in range(len(down)):
        if q != p and not down[q]:
            others.append(q)
            seats |= 1 << q
    rules = s.rules
    drop = rules.weapons_may_drop
    key = seats << 1 | drop  # what the card's turn plays depend on
    used = s.weapons_used if rules.weapon_once_per_turn else ()
    vomiting = ([v for v in others if s.vomit_until[v] >= s.turn] if max(s.vomit_until) >= s.turn else [])
    for d in hand:
        ci = info[d]
        if ci.turn_play or ci.hold_opener is not None:
            own, hold = ci.memo.get(key) or card_plays(ci, others, key, drop)
            if own and not (ci.weapon and d in used):
                out += own
            out += hold
        if ci.stomp and rules.revive:
            out += [Move(mv.STOMP, d, t) for t in range(len(down)) if down[t] and not s.stomped[t]]
        if vomiting and not s.vomit_hit_used and ci.role == "attack" and ci.damage and ci.turn_play:
            out += [Move(mv.VOMIT_HIT, d, v) for v in vomiting]
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
    hand = s.hands[q]
    if not hand or not can_act(s, q):
        return []
    info = s.info
    allowed = allowed_defences(s, f) if q == f.target else NO_DEFENCE
    if not allowed:  # only a card that meddles could answer, and most hands hold none: say so quickly
        for d in hand:
            if info[d].meddles:
                break
        else:
            return []
    out: list[Move] = []
    kind = f.kind
    n = len(s.life)
    for d in set(hand):
        ci = info[d]
        for k in ci.defend_as:
            if k in allowed:
                out.append(Move(mv.DEFEND, d, -1, k))
        if ci.humiliate is not None:
            if ci.humiliate == "cancel" or kind in ("tick", "opener"):
                out.append(Move(mv.HUMILIATE, d))  # a redirect stops an opener or breaks a hold outright
            elif kind == "strike":
                out += [Move(mv.HUMILIATE, d, t) for t in range(n) if t not in (q, f.target) and not s.down[t]]
        if ci.interfere and kind == "strike" and q != f.target:
            out.append(Move(mv.INTERFERE, d))
        if ci.interject and kind != "answer":
            for t in effect_targets(s, q, ci):
                out += variants(s, mv.INTERJECT, ci, t)
    return out
