"""The rules: legal moves for whoever must act, applying a move, and running everything automatic.

`new_game` deals and runs to the first decision; `legal_moves` lists what the
player to act may do (sorted, unique); `push` applies a move in place and runs
on to the next decision; `apply` does the same on a copy. Every effect comes
from a card's mechanic fields and the set's `rules`, never from a card name.
"""

from __future__ import annotations

from typing import Any

from cardgen.engine.cards import STRIKE_DEFENCES, CardInfo
from cardgen.engine.moves import (
    BONUS,
    DECLINE,
    DEFEND,
    DIRECTION,
    DISCARD,
    DONE,
    FOLLOW,
    HEAL,
    HUMILIATE,
    INTERFERE,
    INTERJECT,
    OPEN,
    PASS,
    PLAY,
    RELEASE,
    STOMP,
    VOMIT_HIT,
    Move,
)
from cardgen.engine.state import (
    AfterBlockF,
    AnswerF,
    BonusF,
    ComboF,
    DirectionF,
    DropF,
    Frame,
    GameState,
    Hold,
    OpenerF,
    Outcome,
    StrikeF,
    TickF,
    TurnF,
    Window,
    blank_state,
)
from cardgen.errors import CardgenError
from cardgen.model import CardSet

NO_DEFENCE: frozenset[str] = frozenset()
PASS_MOVE = Move(PASS)
DONE_MOVE = Move(DONE)
DECLINE_MOVE = Move(DECLINE)
_DISCARD_MOVES: list[Move] = []


def _discard_move(d: int) -> Move:
    """Discard moves are the commonest moves of all: make each one once."""
    while len(_DISCARD_MOVES) <= d:
        _DISCARD_MOVES.append(Move(DISCARD, len(_DISCARD_MOVES)))
    return _DISCARD_MOVES[d]


class IllegalMoveError(CardgenError):
    """A move that is not in `legal_moves(state)`."""


# --- public API ---------------------------------------------------------------------------------------------


def new_game(cs: CardSet, players: int | list[str], seed: int | None = None, turn_cap: int | None = None,
             record: bool = False, info: tuple[CardInfo, ...] | None = None) -> GameState:
    """Shuffle with `seed`, deal a hand to each player (seat 0 first) and run to the first decision."""
    names = [f"P{i + 1}" for i in range(players)] if isinstance(players, int) else list(players)
    if len(names) < 2:
        raise CardgenError("a game needs at least 2 players")
    s = blank_state(cs, names, seed, turn_cap, record, info)
    s.rng.shuffle(s.draw)
    for _ in range(cs.rules.hand_size):
        for p in range(len(names)):
            if s.draw:
                s.hands[p].append(s.draw.pop())
    start(s)
    return s


def start(s: GameState) -> None:
    """Run a freshly set-up state to its first decision."""
    _advance(s)


def legal_moves(s: GameState) -> list[Move]:
    """What `s.to_act` may do now (empty once the game is over)."""
    return list(s.moves)


def push(s: GameState, move: Move) -> None:
    """Apply `move` in place and run on to the next decision."""
    if s.result is not None:
        raise IllegalMoveError("the game is over")
    if move not in s.moves:
        raise IllegalMoveError(f"illegal move {describe(s, move)} for {s.names[s.to_act]}")
    _apply(s, move)
    _advance(s)


def apply(s: GameState, move: Move) -> GameState:
    """A new state: `s` with `move` applied (`s` is unchanged)."""
    t = s.copy()
    push(t, move)
    return t


def outcome(s: GameState) -> Outcome | None:
    """The result once the game is over (a winner, nobody, or a stalemate at the turn cap), else None."""
    return s.result


def describe(s: GameState, m: Move) -> str:
    """A move in words: 'play Kick at Bob', 'defend with Dodge/Block as dodge'."""
    parts = [m.kind]
    if m.card >= 0:
        parts.append(s.info[m.card].name)
    if m.target >= 0:
        parts.append(f"at {s.names[m.target]}")
    if m.choice:
        parts.append(f"({m.choice})")
    return " ".join(parts)


# --- helpers ------------------------------------------------------------------------------------------------


def _log(s: GameState, event: str, **kw: Any) -> None:
    if s.log is not None:
        s.log.append({"turn": s.turn, "event": event, **kw})


def _next_seat(s: GameState, p: int, step: int) -> int:
    n = len(s.life)
    q = p
    for _ in range(n):
        q = (q + step) % n
        if not s.down[q]:
            return q
    return p


def _clockwise(s: GameState, start: int, exclude: int) -> list[int]:
    n = len(s.life)
    return [q for q in ((start + i) % n for i in range(n)) if q != exclude and not s.down[q]]


def _can_act(s: GameState, p: int) -> bool:
    """Conscious, not stunned, not vomiting, not tied up holding someone."""
    return (not s.down[p] and s.stun_until[p] < s.turn and s.vomit_until[p] < s.turn
            and not (s.holds and s.restricted(p)))


def _decide(s: GameState, p: int, moves: list[Move]) -> bool:
    s.to_act = p
    s.moves = sorted(set(moves))
    return True


def _open(s: GameState, f: Window) -> None:
    # An attack redirected at its own player may be defended by them; a card hitting "all" may not.
    own = f.target == f.player and isinstance(f, StrikeF) and s.info[f.design].targets == "one"
    f.resp = _clockwise(s, f.target, -1 if own else f.player)
    f.pos = 0


def _draw_one(s: GameState, p: int) -> bool:
    if not s.draw:
        if not s.discard:
            return False
        s.draw = s.discard
        s.discard = []
        s.rng.shuffle(s.draw)
        _log(s, "reshuffle", cards=len(s.draw))
    s.hands[p].append(s.draw.pop())
    return True


def _put_in_play(s: GameState, p: int, d: int) -> CardInfo:
    """Take card `d` from `p`'s hand onto the table (weapons) or the discard pile (everything else)."""
    ci = s.info[d]
    s.hands[p].remove(d)
    if ci.weapon:
        s.table.append(d)
        s.weapons_used.add(d)
    else:
        s.discard.append(d)
    if ci.stunned:
        s.stun_until[p] = max(s.stun_until[p], s.turn + ci.stunned)
        _log(s, "stunned", player=s.names[p], until_turn=s.stun_until[p])
    return ci


def _damage(s: GameState, p: int, amount: int, why: str) -> None:
    if amount <= 0 or s.down[p]:
        return
    lost = amount if s.rules.negative_life else min(amount, s.life[p])
    s.life[p] -= lost
    s.pool += lost
    _log(s, "damage", player=s.names[p], amount=lost, life=s.life[p], why=why)
    if s.life[p] <= 0:
        s.stack.append(DropF(p))


def _heal(s: GameState, p: int, amount: int, by: int, card: str) -> None:
    gain = max(0, min(amount, s.start_life - s.life[p]))
    s.life[p] += gain
    s.pool -= gain
    _log(s, "heal", player=s.names[p], amount=gain, life=s.life[p], by=s.names[by], card=card)
    if s.down[p] and s.life[p] > 0:
        s.down[p] = False
        _log(s, "revived", player=s.names[p])


def _knockout(s: GameState, p: int) -> None:
    s.down[p] = True
    s.discard.extend(s.hands[p])
    s.hands[p] = []
    s.stun_until[p] = -1
    s.vomit_until[p] = -1
    _log(s, "unconscious", player=s.names[p], life=s.life[p])
    for h in [h for h in s.holds if p in (h.holder, h.victim)]:
        _break_hold(s, h, "holder out" if h.holder == p else "victim out")
    alive = s.conscious()
    if len(alive) <= 1:
        winner = alive[0] if alive else None
        s.result = Outcome(winner, "last standing" if alive else "nobody standing", s.turn)
        _log(s, "game over", winner=None if winner is None else s.names[winner], reason=s.result.reason)


def _break_hold(s: GameState, h: Hold, why: str) -> None:
    if h not in s.holds:
        return
    s.holds.remove(h)
    _log(s, "hold ends", holder=s.names[h.holder], victim=s.names[h.victim], why=why)
    if h.vomit and not s.down[h.victim]:
        s.vomit_until[h.victim] = s.turn + len(s.conscious()) - 1
        _log(s, "vomiting", player=s.names[h.victim], until_turn=s.vomit_until[h.victim])


def _variants(s: GameState, kind: str, ci: CardInfo, target: int) -> list[Move]:
    if ci.weapon and s.rules.weapons_may_drop:
        return [Move(kind, ci.d, target), Move(kind, ci.d, target, "drop")]
    return [Move(kind, ci.d, target)]


def _effect_targets(s: GameState, p: int, ci: CardInfo) -> list[int]:
    """Targets to offer for a turn play: each other conscious player, or -1 for cards that pick their own."""
    if ci.opener is not None or ((ci.damage or ci.ongoing) and ci.targets == "one"):
        return [q for q in range(len(s.life)) if q != p and not s.down[q]]
    return [-1]


# --- what may be done now -----------------------------------------------------------------------------------


def _heal_limit(s: GameState) -> int:
    r = s.rules
    if r.heals_per_turn:
        return r.heals_per_turn
    return 1_000_000 if r.heal_action else 1


def _heal_moves(s: GameState, p: int, hand: set[int]) -> list[Move]:
    targets = [p] if s.life[p] < s.start_life else []
    if s.rules.revive:
        targets += [q for q in range(len(s.life)) if s.down[q] and not s.stomped[q]]
    return [Move(HEAL, d, t) for d in hand if s.info[d].heal_turn for t in targets]


def _turn_moves(s: GameState, p: int) -> list[Move]:
    hand = set(s.hands[p])
    out = [PASS_MOVE]
    out += [_discard_move(d) for d in hand]
    out += [Move(RELEASE, -1, h.victim) for h in s.holds if h.holder == p]
    if s.holds and s.restricted(p):
        return out
    info = s.info
    vomiting = ([v for v in range(len(s.life)) if v != p and not s.down[v] and s.vomit_until[v] >= s.turn]
                if max(s.vomit_until) >= s.turn else [])
    for d in hand:
        ci = info[d]
        if ci.turn_play and not (ci.weapon and d in s.weapons_used):
            for t in _effect_targets(s, p, ci):
                out += _variants(s, PLAY, ci, t)
        if ci.hold_opener is not None:
            out += [Move(PLAY, d, t, "hold") for t in range(len(s.life)) if t != p and not s.down[t]]
        if ci.stomp and s.rules.revive:
            out += [Move(STOMP, d, t) for t in range(len(s.life)) if s.down[t] and not s.stomped[t]]
        if vomiting and not s.vomit_hit_used and ci.role == "attack" and ci.damage and ci.turn_play:
            out += [Move(VOMIT_HIT, d, v) for v in vomiting]
    out += _heal_moves(s, p, hand)
    return out


def _allowed(s: GameState, f: Frame) -> frozenset[str]:
    if isinstance(f, StrikeF):
        if f.no_def:
            return NO_DEFENCE
        if f.moved and s.info[f.design].travels and _next_seat(s, f.target, f.direction) == f.player:
            return f.allowed - STRIKE_DEFENCES  # the end of the line takes it
        return f.allowed
    if isinstance(f, OpenerF):
        return f.allowed
    if isinstance(f, TickF):
        return frozenset(f.hold.broken_by)
    return NO_DEFENCE


def _responses(s: GameState, f: Window, q: int) -> list[Move]:
    if not _can_act(s, q) or not s.hands[q]:
        return []
    out: list[Move] = []
    kind = f.kind
    allowed = _allowed(s, f) if q == f.target else NO_DEFENCE
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
            for t in _effect_targets(s, q, ci):
                out += _variants(s, INTERJECT, ci, t)
    return out


def _ask(s: GameState, f: Window) -> bool:
    while f.pos < len(f.resp):
        q = f.resp[f.pos]
        mv = _responses(s, f, q)
        if mv:
            mv.append(DECLINE_MOVE)
            return _decide(s, q, mv)
        f.pos += 1
    return False


# --- starting effects ---------------------------------------------------------------------------------------


def _start_effect(s: GameState, p: int, ci: CardInfo, target: int, drop: bool = False, free: bool = False,
                  mult: int = 1, in_combo: bool = False, no_def: bool = False) -> None:
    """Resolve a played card's draw, and put its damage (if any) in flight."""
    for _ in range(ci.draw):
        if not _draw_one(s, p):
            break
    if not ci.damage and ci.ongoing is None:
        return
    dmg = ci.damage if ci.damage else (ci.ongoing.damage,) if ci.ongoing is not None else ()
    if mult != 1:
        dmg = tuple(x * mult for x in dmg)
    if target >= 0:
        victims = [target]
    elif ci.targets == "others":
        victims = _clockwise(s, (p + 1) % len(s.life), p)
    elif ci.targets == "all":
        victims = [*_clockwise(s, (p + 1) % len(s.life), p), p]
    else:
        victims = [p]
    if not victims:
        return
    f = StrikeF(p, ci.d, victims[0], dmg, ci.defences - STRIKE_DEFENCES if free else ci.defences)
    f.victims = victims[1:]
    f.drop = drop
    f.in_combo = in_combo
    f.no_def = no_def
    s.stack.append(f)
    _open(s, f)


def _strike_defended(s: GameState, f: StrikeF, how: str, defender: int) -> None:
    ci = s.info[f.design]
    if how == "disarm" and ci.weapon:
        f.disarmed = True
        f.stage = "finish"
        return
    if how == "block" and f.blocked_by < 0:
        f.blocked_by = defender
    moves_on = (ci.travels and how in ("dodge", "block")) or (ci.passes_on is not None and how == "dodge")
    if not moves_on:
        f.stage = "next"
        return
    if f.direction == 0:
        if ci.travels:
            f.direction = 1 if s.rules.travel_direction == "left" else -1
        elif ci.passes_on == "left":
            f.direction = 1
        elif ci.passes_on == "right":
            f.direction = -1
        else:
            ways = [w for w in (1, -1) if _next_seat(s, f.target, w) not in (f.player, f.target)]
            if len(ways) == 2 and _next_seat(s, f.target, 1) != _next_seat(s, f.target, -1):
                if _can_act(s, f.player):
                    f.stage = "direction"
                    s.stack.append(DirectionF(f.player))
                    return
                ways = ways[:1]
            if not ways:
                f.stage = "next"
                return
            f.direction = ways[0]
    _move_on(s, f)


def _move_on(s: GameState, f: StrikeF) -> None:
    q = _next_seat(s, f.target, f.direction)
    if q in (f.player, f.target):
        f.stage = "next"
        return
    _log(s, "moves on", card=s.info[f.design].name, to=s.names[q])
    f.target = q
    f.moved = True
    f.stage = "window"
    _open(s, f)


# --- applying a move ----------------------------------------------------------------------------------------


def _apply(s: GameState, m: Move) -> None:
    f = s.stack[-1]
    p = s.to_act
    k = m.kind
    names = s.names
    if s.log is not None:
        _log(s, "move", move=k, player=names[p], **({"card": s.info[m.card].name} if m.card >= 0 else {}),
             **({"target": names[m.target]} if m.target >= 0 else {}), **({"choice": m.choice} if m.choice else {}))
    if k == DECLINE:
        if isinstance(f, Window):
            f.pos += 1
        elif isinstance(f, AfterBlockF):
            f.stage += 1
        elif isinstance(f, DropF):
            s.stack.pop()
            _knockout(s, p)
        else:
            s.stack.pop()  # a combo left unfinished, a bonus attack not taken
        return
    if k in (PASS, DONE):
        assert isinstance(f, TurnF)
        f.phase = "end"
        return
    if k == DISCARD:
        assert isinstance(f, TurnF)
        s.hands[p].remove(m.card)
        s.discard.append(m.card)
        f.phase = "discard"
        f.count += 1
        return
    if k == HEAL:
        s.hands[p].remove(m.card)
        s.discard.append(m.card)
        ci = s.info[m.card]
        if isinstance(f, DropF):
            _heal(s, p, ci.heal_drop, p, ci.name)
        else:
            assert isinstance(f, TurnF)
            f.phase = "heal"
            f.count += 1
            _heal(s, m.target, ci.heal_turn, p, ci.name)
        return
    if k == RELEASE:
        for h in [h for h in s.holds if h.holder == p and h.victim == m.target]:
            _break_hold(s, h, "released")
        return
    if k == DIRECTION:
        s.stack.pop()
        strike = s.stack[-1]
        assert isinstance(strike, StrikeF)
        strike.direction = 1 if m.choice == "left" else -1
        _move_on(s, strike)
        return
    if k in (DEFEND, HUMILIATE, INTERFERE):
        assert isinstance(f, Window)
        f.pos += 1
        ci = _put_in_play(s, p, m.card)
        what = {DEFEND: "defend", HUMILIATE: "humiliate", INTERFERE: "interfere"}[k]
        how = m.choice if k == DEFEND else (ci.humiliate or "") if k == HUMILIATE else ""
        a = AnswerF(p, m.card, what, how, f.player, m.target)
        s.stack.append(a)
        _open(s, a)
        return
    if k == INTERJECT:
        assert isinstance(f, Window)
        f.pos += 1
        ci = _put_in_play(s, p, m.card)
        _start_effect(s, p, ci, m.target, drop=m.choice == "drop")
        return
    if k == OPEN:
        assert isinstance(f, AfterBlockF)
        s.stack.pop()
        ci = _put_in_play(s, p, m.card)
        assert ci.opener is not None
        o = OpenerF(p, m.card, m.target, ci.opener, ci.defences - STRIKE_DEFENCES)
        s.stack.append(o)
        _open(s, o)
        return
    if k == FOLLOW:
        assert isinstance(f, ComboF)
        ci = _put_in_play(s, p, m.card)
        _start_effect(s, p, ci, f.victim, drop=m.choice == "drop", free=f.free, mult=f.multiplier, in_combo=True)
        return
    if k == BONUS:
        s.stack.pop()
        ci = _put_in_play(s, p, m.card)
        _start_effect(s, p, ci, m.target, drop=m.choice == "drop", no_def=True)
        return
    assert isinstance(f, TurnF)
    if k == VOMIT_HIT:
        s.vomit_hit_used = True
        ci = _put_in_play(s, p, m.card)
        _start_effect(s, p, ci, m.target, no_def=True)
        return
    f.phase = "end"
    ci = _put_in_play(s, p, m.card)
    if k == STOMP:
        st = StrikeF(p, m.card, m.target, ci.damage or (0,), NO_DEFENCE)
        s.stack.append(st)
        _open(s, st)
        return
    # PLAY
    if m.choice == "hold" and ci.hold_opener is not None:
        o = OpenerF(p, m.card, m.target, ci.hold_opener, ci.hold_defences)
    elif ci.opener is not None:
        o = OpenerF(p, m.card, m.target, ci.opener, ci.defences)
    else:
        _start_effect(s, p, ci, m.target, drop=m.choice == "drop")
        return
    s.stack.append(o)
    _open(s, o)


# --- running everything automatic ---------------------------------------------------------------------------


def _advance(s: GameState) -> None:
    stack = s.stack
    while True:
        if s.result is not None:
            s.to_act = -1
            s.moves = []
            return
        if not stack:
            _begin_turn(s)
            continue
        f = stack[-1]
        if _STEPS[f.kind](s, f):
            return


def _begin_turn(s: GameState) -> None:
    if s.turn >= s.turn_cap:
        s.result = Outcome(None, "turn cap", s.turn)
        _log(s, "game over", winner=None, reason="turn cap")
        return
    s.turn += 1
    p = _next_seat(s, s.current, 1)
    s.current = p
    s.weapons_used.clear()
    s.vomit_hit_used = False
    s.stack.append(TurnF(p))
    _log(s, "turn starts", player=s.names[p])


def _step_turn(s: GameState, f: Frame) -> bool:
    assert isinstance(f, TurnF)
    p = f.player
    phase = f.phase
    if phase == "start":
        f.phase = "check"
        for h in reversed([h for h in s.holds if h.holder == p]):
            t = TickF(h)
            s.stack.append(t)
            _open(s, t)
        return False
    if phase == "check":
        if s.down[p] or s.stun_until[p] >= s.turn or s.vomit_until[p] >= s.turn:
            _log(s, "turn lost", player=s.names[p],
                 why="stunned" if s.stun_until[p] >= s.turn else "vomiting" if not s.down[p] else "unconscious")
            f.phase = "end"
        else:
            f.phase = "action"
        return False
    if phase == "action":
        return _decide(s, p, _turn_moves(s, p))
    if phase == "discard":
        limit = s.rules.discard_limit or 1_000_000
        moves = [_discard_move(d) for d in set(s.hands[p])] if f.count < limit else []
        if moves:
            return _decide(s, p, [*moves, DONE_MOVE])
        f.phase = "end"
        return False
    if phase == "heal":
        moves = _heal_moves(s, p, set(s.hands[p])) if f.count < _heal_limit(s) else []
        if moves:
            return _decide(s, p, [*moves, DONE_MOVE])
        f.phase = "end"
        return False
    # end of turn: everyone conscious draws back up, starting with the player whose turn it was
    s.stack.pop()
    size = s.rules.hand_size
    n = len(s.life)
    for i in range(n):
        q = (p + i) % n
        hand = s.hands[q]
        need = size - len(hand)
        if need <= 0 or s.down[q]:
            continue
        if len(s.draw) >= need:  # the common case, in one slice: the top card (the list's end) comes first
            hand.extend(s.draw[:-need - 1:-1])
            del s.draw[-need:]
            got = need
        else:
            got = 0
            while len(hand) < size and _draw_one(s, q):
                got += 1
        if got:
            _log(s, "draws", player=s.names[q], cards=got)
    return False


def _step_strike(s: GameState, f: Frame) -> bool:
    assert isinstance(f, StrikeF)
    if f.stage == "window":
        ci = s.info[f.design]
        t = f.target
        if (s.down[t] != ci.stomp) or (ci.stomp and s.stomped[t]):
            f.stage = "next"  # the target is gone: the strike finds nobody
            return False
        if _ask(s, f):
            return True
        f.stage = "next"
        _hit(s, f, ci)
        return False
    if f.stage == "next":
        _next_strike(s, f)
        return False
    if f.stage == "finish":
        _finish_strike(s, f)
        return False
    raise AssertionError(f"strike stage {f.stage}")  # "direction": a DirectionF sits above it


def _hit(s: GameState, f: StrikeF, ci: CardInfo) -> None:
    t = f.target
    f.connected = True
    amount = f.dmg[f.si]
    _log(s, "hit", card=ci.name, player=s.names[t], strike=f.si + 1, of=len(f.dmg))
    if ci.stomp:
        s.stomped[t] = True
        _log(s, "stomped", player=s.names[t])
        return
    if ci.stuns:
        s.stun_until[t] = max(s.stun_until[t], s.turn + ci.stuns)
        _log(s, "stunned", player=s.names[t], until_turn=s.stun_until[t])
    if ci.ongoing is not None and f.si == 0:
        o = ci.ongoing
        s.holds.append(Hold(f.player, t, ci.d, o.damage, o.broken_by, o.vomit, o.holder_restricted))
        _log(s, "hold", holder=s.names[f.player], victim=s.names[t], card=ci.name)
    _damage(s, t, amount, ci.name)


def _next_strike(s: GameState, f: StrikeF) -> None:
    f.si += 1
    f.moved = False
    f.direction = 0
    if not f.disarmed and not f.cancelled:
        if f.si < len(f.dmg) and not s.down[f.origin]:
            f.target = f.origin
            f.stage = "window"
            _open(s, f)
            return
        while f.victims:
            v = f.victims.pop(0)
            if not s.down[v]:
                f.origin = f.target = v
                f.si = 0
                f.stage = "window"
                _open(s, f)
                return
    f.stage = "finish"


def _finish_strike(s: GameState, f: StrikeF) -> None:
    s.stack.pop()
    ci = s.info[f.design]
    if ci.weapon:
        s.table.remove(f.design)
        if f.disarmed or f.cancelled or f.drop or s.down[f.player]:
            s.discard.append(f.design)
            _log(s, "weapon discarded", card=ci.name, player=s.names[f.player])
        else:
            s.hands[f.player].append(f.design)
            _log(s, "weapon back to hand", card=ci.name, player=s.names[f.player])
    if f.in_combo:
        combo = s.stack[-1]
        assert isinstance(combo, ComboF)
        combo.steps += 1
        if not (combo.chain and f.connected and not f.cancelled and f.target == combo.victim):
            s.stack.pop()
    if f.blocked_by >= 0 and not f.cancelled and f.blocked_by != f.player:
        s.stack.append(AfterBlockF(f.blocked_by, f.player))


def _step_opener(s: GameState, f: Frame) -> bool:
    assert isinstance(f, OpenerF)
    if s.down[f.target] or s.down[f.player]:
        s.stack.pop()
        return False
    if _ask(s, f):
        return True
    s.stack.pop()
    _log(s, "combo", player=s.names[f.player], victim=s.names[f.target], combo=f.opener.combo)
    s.stack.append(ComboF(f.player, f.target, f.opener))
    return False


def _step_combo(s: GameState, f: Frame) -> bool:
    assert isinstance(f, ComboF)
    p, v = f.player, f.victim
    if s.down[p] or s.down[v] or not _can_act(s, p):
        s.stack.pop()
        return False
    moves: list[Move] = []
    for d in set(s.hands[p]):
        ci = s.info[d]
        if ci.weapon and d in s.weapons_used:
            continue
        if ci.follows == f.combo or (f.steps == 0 and ci.type in f.then and ci.turn_play and ci.opener is None
                                     and bool(ci.damage)):
            moves += _variants(s, FOLLOW, ci, v)
    if not moves:
        s.stack.pop()
        _log(s, "combo wasted" if f.steps == 0 else "combo ends", player=s.names[p])
        return False
    return _decide(s, p, [*moves, DECLINE_MOVE])


def _step_answer(s: GameState, f: Frame) -> bool:
    assert isinstance(f, AnswerF)
    if _ask(s, f):
        return True
    s.stack.pop()
    parent = s.stack[-1]
    ci = s.info[f.design]
    if f.what == "defend":
        _log(s, "defended", player=s.names[f.player], card=ci.name, how=f.how)
        if isinstance(parent, StrikeF):
            _strike_defended(s, parent, f.how, f.player)
        elif isinstance(parent, TickF):
            s.stack.pop()
            _break_hold(s, parent.hold, "broken")
        else:
            s.stack.pop()  # the opener fails
        if ci.retaliates:
            _damage(s, parent.player, ci.retaliates, ci.name)
    elif f.what == "interfere":
        assert isinstance(parent, StrikeF)
        parent.target = parent.origin = f.player
        parent.no_def = True
        parent.pos = len(parent.resp)
        _log(s, "interferes", player=s.names[f.player])
    elif f.how == "redirect":
        if isinstance(parent, TickF):
            s.stack.pop()
            _break_hold(s, parent.hold, "broken")
        elif isinstance(parent, OpenerF):
            s.stack.pop()
            _log(s, "stopped", card=s.info[parent.design].name, by=s.names[f.player])
        else:
            assert isinstance(parent, StrikeF)
            parent.target = parent.origin = f.redirect
            parent.moved = False
            parent.direction = 0
            _open(s, parent)
            _log(s, "redirected", to=s.names[f.redirect])
    else:  # cancel: the answered card's player is stunned for the rest of the turn; the humiliator strikes back
        victim = parent.player
        s.stun_until[victim] = max(s.stun_until[victim], s.turn)
        _log(s, "cancelled", player=s.names[victim], by=s.names[f.player])
        if isinstance(parent, StrikeF):
            parent.cancelled = True
            parent.stage = "finish"
        elif isinstance(parent, TickF):
            s.stack.pop()
            _break_hold(s, parent.hold, "broken")
        else:
            s.stack.pop()  # an opener, or an answer (its effect never happens)
        if not s.down[victim]:
            s.stack.append(BonusF(f.player, victim))
    return False


def _step_tick(s: GameState, f: Frame) -> bool:
    assert isinstance(f, TickF)
    h = f.hold
    if h not in s.holds or s.down[h.victim]:
        s.stack.pop()
        return False
    if _ask(s, f):
        return True
    s.stack.pop()
    _damage(s, h.victim, h.damage, s.info[h.design].name)
    return False


def _step_bonus(s: GameState, f: Frame) -> bool:
    assert isinstance(f, BonusF)
    p, v = f.player, f.victim
    moves: list[Move] = []
    if _can_act(s, p) and not s.down[v]:
        for d in set(s.hands[p]):
            ci = s.info[d]
            if (ci.role in ("attack", "weapon", "wrestling") and ci.damage and ci.opener is None
                    and not (ci.weapon and d in s.weapons_used)):
                moves += _variants(s, BONUS, ci, v)
    if not moves:
        s.stack.pop()
        return False
    return _decide(s, p, [*moves, DECLINE_MOVE])


def _step_after_block(s: GameState, f: Frame) -> bool:
    assert isinstance(f, AfterBlockF)
    while f.stage < 2:
        p, other = (f.player, f.attacker) if f.stage == 0 else (f.attacker, f.player)
        if _can_act(s, p) and not s.down[other]:
            moves = [Move(OPEN, d, other) for d in set(s.hands[p])
                     if (o := s.info[d].opener) is not None and o.after_block]
            if moves:
                return _decide(s, p, [*moves, DECLINE_MOVE])
        f.stage += 1
    s.stack.pop()
    return False


def _step_direction(s: GameState, f: Frame) -> bool:
    return _decide(s, f.player, [Move(DIRECTION, choice="left"), Move(DIRECTION, choice="right")])


def _step_drop(s: GameState, f: Frame) -> bool:
    p = f.player
    if s.down[p] or s.life[p] > 0:
        s.stack.pop()
        return False
    moves = [Move(HEAL, d, p) for d in set(s.hands[p]) if s.info[d].heal_drop] if _can_act(s, p) else []
    if not moves:
        s.stack.pop()
        _knockout(s, p)
        return False
    return _decide(s, p, [*moves, DECLINE_MOVE])


_STEPS = {
    "turn": _step_turn, "strike": _step_strike, "opener": _step_opener, "combo": _step_combo,
    "answer": _step_answer, "tick": _step_tick, "bonus": _step_bonus, "after-block": _step_after_block,
    "direction": _step_direction, "drop": _step_drop,
}
