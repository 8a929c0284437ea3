"""The rules: legal moves for whoever must act, applying a move, and running everything automatic.

`new_game` deals and runs to the first decision; `legal_moves` lists what the
player to act may do (sorted, unique); `push` applies a move in place and runs
on to the next decision; `apply` does the same on a copy. Every effect comes
from a card's mechanic fields and the set's `rules`, never from a card name.
"""

from __future__ import annotations

from functools import cache

from cardgen.engine.cards import STRIKE_DEFENCES, CardInfo
from cardgen.engine.effects import (
    can_act,
    can_brace,
    clockwise,
    deal_damage,
    draw_one,
    end_hold,
    knock_out,
    lose,
    next_seat,
    open_window,
    put_in_play,
    restore,
)
from cardgen.engine.events import (
    Cancelled,
    Combo,
    ComboEnds,
    ComboWasted,
    Defended,
    Draws,
    GameOver,
    Hit,
    HoldStarts,
    Interferes,
    Moved,
    MovesOn,
    Redirected,
    Stomped,
    Stopped,
    Stunned,
    TurnLost,
    TurnStarts,
    WeaponBack,
    WeaponDiscarded,
)
from cardgen.engine.game import Game, make_game, seat_names
from cardgen.engine.legal import (
    DECLINE_MOVE,
    DONE_MOVE,
    NO_DEFENCE,
    barred,
    heal_limit,
    heal_moves,
    responses,
    shared_move,
    turn_moves,
    variants,
)
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
from cardgen.engine.randomness import shuffle
from cardgen.engine.state import (
    AfterBlockF,
    Answer,
    AnswerF,
    BonusF,
    BraceF,
    ComboF,
    DirectionF,
    DropF,
    Frame,
    GameState,
    HealF,
    Hold,
    LetGoF,
    OpenerF,
    Outcome,
    Phase,
    Reason,
    Stage,
    StrikeF,
    TickF,
    TurnF,
    Window,
    blank_state,
)
from cardgen.errors import CardgenError
from cardgen.model import CardSet

# Enum members as module constants: an attribute of an Enum class costs a slow lookup on every use (measured
# 0.35 us in Python 3.11), and these are read at every step.
_PHASE_START, _PHASE_CHECK, _PHASE_ACTION, _PHASE_DISCARD, _PHASE_HEAL, _PHASE_END = Phase
_STAGE_WINDOW, _STAGE_NEXT, _STAGE_DIRECTION, _STAGE_FINISH = Stage
_ANSWER_DEFEND, _ANSWER_HUMILIATE, _ANSWER_INTERFERE = Answer


_LEFT, _RIGHT = Move(DIRECTION, choice="left"), Move(DIRECTION, choice="right")  # sorted


class IllegalMoveError(CardgenError):
    """A move that is not in `legal_moves(state)`."""


# --- public API ---------------------------------------------------------------------------------------------


def new_game(cs: CardSet, players: int | list[str], seed: int | None = None, turn_cap: int | None = None,
             record: bool = False, info: tuple[CardInfo, ...] | None = None, tally: bool = False,
             game: Game | None = None) -> GameState:
    """Shuffle with `seed`, deal a hand to each player (seat 0 first) and run to the first decision.
    `record`: keep the full log; `tally`: only the damage per design (`GameState.dealt`); `game`: the fixed
    game of `cs` at this table, made once by a caller that starts many games (its tables serve them all)."""
    names = list(seat_names(players)) if isinstance(players, int) else list(players)
    if len(names) < 2:
        raise CardgenError("a game needs at least 2 players")
    g = game if game is not None else make_game(cs, names, turn_cap, info)
    s = blank_state(g, seed, record, tally)
    shuffle(s.generator(), s.draw)
    for _ in range(cs.rules.hand_size):
        for p in range(len(names)):
            if s.draw:
                s.hands[p].append(s.draw.pop())
    start(s)
    return s


def start(s: GameState) -> None:
    """Run a freshly set-up state to its first decision."""
    _advance(s)


def settle(s: GameState) -> None:
    """Work out again who decides now and their legal moves (after the hidden cards of a state were dealt
    afresh: `views.determinize`). Re-running the pending frame only repeats the question it asked."""
    _advance(s)


def legal_moves(s: GameState) -> list[Move]:
    """What `s.to_act` may do now (empty once the game is over)."""
    return list(s.moves)


def push(s: GameState, move: Move, check: bool = True) -> None:
    """Apply `move` in place and run on to the next decision.

    `check=False` skips validating the move, for a hot loop whose moves come straight from `s.moves`
    (an illegal move then corrupts the state instead of raising).
    """
    if check:
        if s.result is not None:
            raise IllegalMoveError("the game is over")
        if move not in s.moves:
            raise IllegalMoveError(f"illegal move {describe(s, move)} for {s.game.names[s.to_act]}")
    p = s.to_act
    if s.log is not None:
        s.log.append(Moved(s.turn, p, move))
    f = s.stack[-1]
    if type(f) is TurnF:  # the commonest frame to move on: a call less (see `_apply`)
        _apply_on_turn(s, f, p, move)
    else:
        _apply(s, f, p, move)
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
    parts: list[str] = [m.kind]
    if m.card >= 0:
        parts.append(s.game.info[m.card].name)
    if m.target >= 0:
        parts.append(f"at {s.game.names[m.target]}")
    if m.choice:
        parts.append(f"({m.choice})")
    return " ".join(parts)


# --- helpers ------------------------------------------------------------------------------------------------


def _decide(s: GameState, p: int, moves: list[Move]) -> bool:
    """`p` must choose one of `moves` (in any order, no repeats: every caller makes each move from a different
    card, kind or target), offered sorted. Not hashed into a set: hashing every move cost more than the sort."""
    moves.sort()
    s.to_act = p
    s.moves = moves
    return True


def _offer(s: GameState, p: int, moves: list[Move]) -> bool:
    """`_decide` for a list its caller made sorted and unique already (hashing the moves into a set costs more
    than sorting them)."""
    s.to_act = p
    s.moves = moves
    return True


def _ask(s: GameState, f: Window) -> bool:
    resp = f.resp
    target = f.target
    hands = s.hands
    meddling, answering = s.game.meddling, s.game.answering
    while f.pos < len(resp):
        q = resp[f.pos]
        # Nobody answers without a card that can answer (anyone but the target: a card that meddles), and most
        # hands hold none: skip those without a call.
        if not (answering if q == target else meddling).isdisjoint(hands[q]):
            mv = responses(s, f, q)
            if mv:
                mv.append(DECLINE_MOVE)
                return _decide(s, q, mv)
        f.pos += 1
    return False


# --- starting effects ---------------------------------------------------------------------------------------


def _start_effect(s: GameState, p: int, ci: CardInfo, target: int, drop: bool = False, free: bool = False,
                  mult: int = 1, in_combo: bool = False, no_def: bool = False, sealed: bool = False) -> None:
    """Resolve a played card's draw, and put its damage (if any) in flight."""
    for _ in range(ci.draw):
        if not draw_one(s, p):
            break
    if not ci.damage and ci.ongoing is None:
        return
    dmg = ci.damage if ci.damage else (ci.ongoing.damage,) if ci.ongoing is not None else ()
    if mult != 1:
        dmg = tuple(x * mult for x in dmg)
    if target >= 0:
        victims = [target]
    elif ci.targets == "others":
        victims = clockwise(s, (p + 1) % len(s.life), p)
    elif ci.targets == "all":
        victims = [*clockwise(s, (p + 1) % len(s.life), p), p]
    else:
        victims = [p]
    if not victims:
        return
    f = StrikeF(p, ci.d, victims[0], dmg, ci.defences - STRIKE_DEFENCES if free else ci.defences)
    f.victims = victims[1:]
    f.drop = drop
    f.in_combo = in_combo
    f.no_def = no_def
    f.sealed = sealed
    s.stack.append(f)
    open_window(s, f)


def _strike_defended(s: GameState, f: StrikeF, how: str, defender: int) -> None:
    ci = s.game.info[f.design]
    if how == "disarm" and ci.weapon:
        f.disarmed = True
        f.stage = _STAGE_FINISH
        return
    if how == "block" and f.blocked_by < 0:
        f.blocked_by = defender
    moves_on = (ci.travels and how in ("dodge", "block")) or (ci.passes_on is not None and how == "dodge")
    if not moves_on:
        f.stage = _STAGE_NEXT
        return
    if f.direction == 0:
        if ci.travels:
            f.direction = ci.travel_step
        elif ci.passes_on == "left":
            f.direction = 1
        elif ci.passes_on == "right":
            f.direction = -1
        else:
            ways = [w for w in (1, -1) if next_seat(s, f.target, w) not in (f.player, f.target)]
            if len(ways) == 2 and next_seat(s, f.target, 1) != next_seat(s, f.target, -1):
                if can_act(s, f.player):
                    f.stage = _STAGE_DIRECTION
                    s.stack.append(DirectionF(f.player))
                    return
                ways = ways[:1]
            if not ways:
                f.stage = _STAGE_NEXT
                return
            f.direction = ways[0]
    _move_on(s, f)


def _move_on(s: GameState, f: StrikeF) -> None:
    q = next_seat(s, f.target, f.direction)
    if q in (f.player, f.target):
        f.stage = _STAGE_NEXT
        return
    if s.log is not None:
        s.log.append(MovesOn(s.turn, f.design, q))
    f.target = q
    f.moved = True
    f.stage = _STAGE_WINDOW
    open_window(s, f)


# --- applying a move ----------------------------------------------------------------------------------------




def _apply(s: GameState, f: Frame, p: int, m: Move) -> None:
    """How a move changes the state: by the frame that offered it (the top one), then by the move's kind.

    Chains of tests, the commonest first, rather than `match`: a value pattern reads its enum member from
    the class each time (measured: four cases cost 3.3 us, such a chain 0.4 us), and `type(f) is TurnF`
    narrows `f` for mypy with no call.
    """
    if type(f) is TurnF:
        _apply_on_turn(s, f, p, m)
        return
    k = m.kind
    if k == DECLINE:
        _apply_decline(s, f, p)
    elif k in (DEFEND, HUMILIATE, INTERFERE):
        assert isinstance(f, Window)
        _apply_answer(s, f, p, m)
    elif k == FOLLOW:
        assert isinstance(f, ComboF)
        ci = put_in_play(s, p, m.card)
        _start_effect(s, p, ci, f.victim, drop=m.choice == "drop", free=f.free, mult=f.multiplier,
                      in_combo=True, sealed=f.sealed and ci.follows is None)  # the free attack, not a hold
    elif k == HEAL:
        _apply_heal(s, f, p, m)
    elif k == BONUS:
        assert isinstance(f, BonusF)
        s.stack.pop()
        ci = put_in_play(s, p, m.card)
        _start_effect(s, p, ci, m.target, drop=m.choice == "drop", no_def=True)
    elif k == INTERJECT:
        assert isinstance(f, Window)
        f.pos += 1
        ci = put_in_play(s, p, m.card)
        _start_effect(s, p, ci, m.target, drop=m.choice == "drop")
    elif k == OPEN:
        assert isinstance(f, AfterBlockF)
        s.stack.pop()
        ci = put_in_play(s, p, m.card)
        assert ci.opener is not None
        o = OpenerF(p, m.card, m.target, ci.opener, ci.defences - STRIKE_DEFENCES)
        s.stack.append(o)
        open_window(s, o)
    elif k == RELEASE:
        assert isinstance(f, LetGoF)
        _release(s, p, m.target)
        s.stack.pop()
    elif k == DIRECTION:
        assert isinstance(f, DirectionF)
        s.stack.pop()
        strike = s.stack[-1]
        assert isinstance(strike, StrikeF)
        strike.direction = 1 if m.choice == "left" else -1
        _move_on(s, strike)
    else:
        raise AssertionError(f"{k} offered by {type(f).__name__}")


def _apply_on_turn(s: GameState, f: TurnF, p: int, m: Move) -> None:
    """A move of the player whose turn it is, as (or before) their action."""
    k = m.kind
    if k == DISCARD:
        s.hands[p].remove(m.card)
        s.discard.append(m.card)
        f.phase = _PHASE_DISCARD
        f.count += 1
    elif k in (DONE, PASS):
        f.phase = _PHASE_END
        _end_turn(s, f.player)  # what the turn's next step would do at once: spare the trip round `push`'s loop
    elif k == PLAY:
        _apply_play(s, f, p, m)
    elif k == HEAL:
        _apply_heal(s, f, p, m)
    elif k == DEFEND:
        _break_own_hold(s, p, m)
    elif k == VOMIT_HIT:
        s.vomit_hit_used = True
        ci = put_in_play(s, p, m.card)
        _start_effect(s, p, ci, m.target, no_def=True)
    elif k == STOMP:
        f.phase = _PHASE_END
        ci = put_in_play(s, p, m.card)
        st = StrikeF(p, m.card, m.target, ci.damage or (0,), NO_DEFENCE)
        s.stack.append(st)
        open_window(s, st)
    elif k == RELEASE:
        _release(s, p, m.target)
    else:
        raise AssertionError(f"{k} offered on a turn")


def _release(s: GameState, p: int, victim: int) -> None:
    for h in [h for h in s.holds if h.holder == p and h.victim == victim and h.releasable]:
        end_hold(s, h, "released")


def _apply_decline(s: GameState, f: Frame, p: int) -> None:
    if isinstance(f, Window):
        f.pos += 1
    elif isinstance(f, AfterBlockF):
        f.stage += 1
    elif isinstance(f, DropF):
        s.stack.pop()
        if s.life[p] <= 0:
            knock_out(s, p)  # (above 0 again: they only stop healing)
    elif isinstance(f, BraceF):
        s.stack.pop()
        lose(s, p, f.amount, f.why)  # no more heals first: the damage lands in full
    else:
        s.stack.pop()  # a combo left unfinished, a bonus attack not taken, a hold kept


def _apply_heal(s: GameState, f: Frame, p: int, m: Move) -> None:
    """A heal card: on the table, where a cancelling humiliation may still stop it (`HealF`)."""
    s.hands[p].remove(m.card)
    s.discard.append(m.card)
    ci = s.game.info[m.card]
    if isinstance(f, TurnF):
        f.phase = _PHASE_HEAL
        f.count += 1
        amount = ci.heal_turn
    else:
        assert isinstance(f, DropF | BraceF)
        amount = ci.heal_drop
    cancelling = s.game.cancelling
    if not cancelling or all(cancelling.isdisjoint(s.hands[q]) for q in range(len(s.hands)) if q != p):
        restore(s, m.target, amount, p, m.card)  # nobody holds a card that could cancel it: no window
        return
    h = HealF(p, m.card, m.target, amount)
    s.stack.append(h)
    open_window(s, h)


def _break_own_hold(s: GameState, p: int, m: Move) -> None:
    """On their own turn, a held player plays a card that breaks the hold (it is not their action)."""
    ci = put_in_play(s, p, m.card)
    if s.log is not None:
        s.log.append(Defended(s.turn, p, ci.d, m.choice))
    for h in [h for h in s.holds if h.victim == p and h.holder == m.target and m.choice in h.broken_by]:
        end_hold(s, h, "broken")
    if ci.retaliates:
        deal_damage(s, m.target, ci.retaliates, ci.d)


def _apply_answer(s: GameState, f: Window, p: int, m: Move) -> None:
    """A defence, humiliation or interference: itself a card the others may answer."""
    f.pos += 1
    k = m.kind
    ci = put_in_play(s, p, m.card)
    if k == DEFEND:
        a = AnswerF(p, m.card, _ANSWER_DEFEND, m.choice, f.player, m.target)
    elif k == HUMILIATE:
        a = AnswerF(p, m.card, _ANSWER_HUMILIATE, ci.humiliate or "", f.player, m.target)
        if isinstance(f, AnswerF):
            f.humiliated = True  # whatever becomes of this humiliation, `f`'s player is no longer the last
    else:
        a = AnswerF(p, m.card, _ANSWER_INTERFERE, "", f.player, m.target)
    s.stack.append(a)
    open_window(s, a)


def _apply_play(s: GameState, f: TurnF, p: int, m: Move) -> None:
    f.phase = _PHASE_END
    ci = put_in_play(s, p, m.card)
    if m.choice == "hold" and ci.hold_opener is not None:
        o = OpenerF(p, m.card, m.target, ci.hold_opener, ci.hold_defences)
    elif ci.opener is not None:
        o = OpenerF(p, m.card, m.target, ci.opener, ci.defences)
    else:
        _start_effect(s, p, ci, m.target, drop=m.choice == "drop")
        return
    s.stack.append(o)
    open_window(s, o)


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
        # the two commonest frames by exact type, at once (a call less per step: see `_step`)
        if type(f) is TurnF:
            if _step_turn(s, f):
                return
        elif type(f) is StrikeF:
            if _step_strike(s, f):
                return
        elif _step(s, f):
            return


def _begin_turn(s: GameState) -> None:
    if s.turn >= s.game.turn_cap:
        s.result = Outcome(None, Reason.TURN_CAP, s.turn)
        if s.log is not None:
            s.log.append(GameOver(s.turn, -1, Reason.TURN_CAP))
        return
    s.turn += 1
    down = s.down
    p = s.current + 1
    if p == len(down):
        p = 0
    if down[p]:  # the next seat is the common case
        p = next_seat(s, s.current, 1)
    s.current = p
    if s.weapons_used:
        s.weapons_used.clear()
    if s.roles_played:
        s.roles_played.clear()
    s.vomit_hit_used = False
    s.stack.append(TurnF(p))
    if s.log is not None:
        s.log.append(TurnStarts(s.turn, p))
    if s.holds:  # a holder who may let go at any time is asked at the start of every turn
        n = len(down)
        for q in sorted({h.holder for h in s.holds if h.releasable}, key=lambda q: (q - p) % n, reverse=True):
            s.stack.append(LetGoF(q))


def _lost(s: GameState, p: int) -> bool:
    """Unconscious, stunned or vomiting: `p` cannot take (or go on with) their turn."""
    turn = s.turn
    return s.down[p] or s.stun_until[p] >= turn or s.vomit_until[p] >= turn


def _step_turn(s: GameState, f: TurnF) -> bool:
    p = f.player
    phase = f.phase
    if phase is _PHASE_DISCARD:  # the commonest step of all (a random player discards often): tested first
        turn = s.turn
        if s.down[p] or s.stun_until[p] >= turn or s.vomit_until[p] >= turn:  # `_lost`, inline
            f.phase = _PHASE_END  # knocked out, stunned or vomiting in the middle of their own turn: it is over
            return False
        hand = s.hands[p]
        if hand and f.count < (s.game.rules.discard_limit or 1_000_000):
            info = s.game.info
            moves = [info[d].discard_move for d in sorted(set(hand))]
            moves.append(DONE_MOVE)  # discards sort before "done"
            s.to_act = p  # `_offer`, inline
            s.moves = moves
            return True
        f.phase = _PHASE_END
        return False
    if phase is _PHASE_START or phase is _PHASE_CHECK:
        if phase is _PHASE_START:
            f.phase = _PHASE_CHECK
            if s.holds:
                ticking = [h for h in s.holds if h.holder == p]
                if ticking:
                    for h in reversed(ticking):
                        t = TickF(h)
                        s.stack.append(t)
                        open_window(s, t)
                    return False
        turn = s.turn
        if s.down[p] or s.stun_until[p] >= turn or s.vomit_until[p] >= turn:  # `_lost`, inline
            why = "stunned" if s.stun_until[p] >= s.turn else "vomiting" if not s.down[p] else "unconscious"
            if s.log is not None:
                s.log.append(TurnLost(s.turn, p, why))
            f.phase = _PHASE_END
            return False
        f.phase = _PHASE_ACTION  # just checked: the player can act
        s.to_act = p  # `_offer`, inline
        s.moves = turn_moves(s, p)
        return True
    if phase is _PHASE_END:
        _end_turn(s, p)
        return False
    if _lost(s, p):
        f.phase = _PHASE_END  # knocked out, stunned or vomiting in the middle of their own turn: it is over
        return False
    if phase is _PHASE_ACTION:
        return _offer(s, p, turn_moves(s, p))
    if phase is _PHASE_HEAL:
        moves = heal_moves(s, p, set(s.hands[p])) if f.count < heal_limit(s) else []
        if moves:
            return _decide(s, p, [*moves, DONE_MOVE])
        f.phase = _PHASE_END
        return False
    raise AssertionError(f"turn phase {phase}")


@cache
def _seats_from(p: int, n: int) -> tuple[int, ...]:
    """Every seat clockwise from `p` (included)."""
    return tuple((p + i) % n for i in range(n))


def _end_turn(s: GameState, p: int) -> None:
    """The end of `p`'s turn: everyone conscious draws back up, starting with `p`."""
    s.stack.pop()
    size = s.game.rules.hand_size
    hands, down, draw = s.hands, s.down, s.draw
    for q in _seats_from(p, len(down)):
        hand = hands[q]
        if len(hand) >= size or down[q]:
            continue
        need = size - len(hand)
        if len(draw) >= need:  # the common case, in one slice: the top card (the list's end) comes first
            hand.extend(draw[:-need - 1:-1])
            del draw[-need:]
            got = need
        else:
            got = 0
            while len(hand) < size and draw_one(s, q):
                got += 1
            draw = s.draw  # a reshuffle replaces the draw pile
        if got:
            s.drew |= 1 << q
            if s.log is not None:
                s.log.append(Draws(s.turn, q, got))


def _step_strike(s: GameState, f: StrikeF) -> bool:
    """Runs the stages of a strike on from one to the next while nothing else lands on the stack above it
    (a drop to 0, a new window): each is what `_advance` would run next anyway, minus a trip round its loop."""
    if f.stage is _STAGE_WINDOW:
        ci = s.game.info[f.design]
        t = f.target
        if (s.down[t] != ci.stomp) or (ci.stomp and s.stomped[t]):
            f.stage = _STAGE_NEXT  # the target is gone: the strike finds nobody
        elif _ask(s, f):
            return True
        else:
            f.stage = _STAGE_NEXT
            _hit(s, f, ci)
            if s.stack[-1] is not f:
                return False  # the target dropped to 0: that comes first
    if f.stage is _STAGE_NEXT:
        _next_strike(s, f)
    if f.stage is _STAGE_FINISH:
        _finish_strike(s, f)
        return False
    if f.stage is _STAGE_WINDOW:
        return False  # the next strike, or the next victim: a new window
    raise AssertionError(f"strike stage {f.stage}")  # "direction": a DirectionF sits above it


def _hit(s: GameState, f: StrikeF, ci: CardInfo) -> None:
    t = f.target
    f.connected = True
    amount = f.dmg[f.si]
    if s.log is not None:  # a hot spot: do not even build the event unlogged
        s.log.append(Hit(s.turn, ci.d, t, f.si + 1, len(f.dmg)))
    if ci.stomp:
        s.stomped[t] = True
        if s.log is not None:
            s.log.append(Stomped(s.turn, t))
        return
    if ci.stuns:
        s.stun_until[t] = max(s.stun_until[t], s.turn + ci.stuns)
        if s.log is not None:
            s.log.append(Stunned(s.turn, t, s.stun_until[t]))
    if ci.ongoing is not None and f.si == 0 and t != f.player:  # a choke redirected at its player holds nobody
        o = ci.ongoing
        s.holds.append(Hold(f.player, t, ci.d, o.damage, o.broken_by, o.vomit, o.holder_restricted,
                            releasable=o.holder_restricted, humiliation_breaks=o.humiliation_breaks))
        if s.log is not None:
            s.log.append(HoldStarts(s.turn, f.player, t, ci.d))
    deal_damage(s, t, amount, ci.d)


def _next_strike(s: GameState, f: StrikeF) -> None:
    f.si += 1
    f.moved = False
    f.direction = 0
    if not f.disarmed and not f.cancelled:
        if f.si < len(f.dmg) and not s.down[f.origin]:
            f.target = f.origin
            f.stage = _STAGE_WINDOW
            open_window(s, f)
            return
        while f.victims:
            v = f.victims.pop(0)
            if not s.down[v]:
                f.origin = f.target = v
                f.si = 0
                f.stage = _STAGE_WINDOW
                open_window(s, f)
                return
    f.stage = _STAGE_FINISH


def _finish_strike(s: GameState, f: StrikeF) -> None:
    s.stack.pop()
    ci = s.game.info[f.design]
    if ci.weapon:
        s.table.remove(f.design)
        if f.disarmed or f.cancelled or f.drop or s.down[f.player]:
            s.discard.append(f.design)
            if s.log is not None:
                s.log.append(WeaponDiscarded(s.turn, ci.d, f.player))
        else:
            s.hands[f.player].append(f.design)
            if s.log is not None:
                s.log.append(WeaponBack(s.turn, ci.d, f.player))
    if f.in_combo:
        combo = s.stack[-1]
        assert isinstance(combo, ComboF)
        combo.steps += 1
        if (not (combo.chain and f.connected and not f.cancelled and f.target == combo.victim)
                or combo.steps == combo.most):  # (classic: at most four wrestling moves after a HOLD)
            s.stack.pop()
    if f.blocked_by >= 0 and not f.cancelled and f.blocked_by != f.player and s.game.after_block:
        s.stack.append(AfterBlockF(f.blocked_by, f.player))  # (only if some card of the game opens after a block)


def _step_opener(s: GameState, f: OpenerF) -> bool:
    if s.down[f.target] or s.down[f.player]:
        s.stack.pop()
        return False
    if _ask(s, f):
        return True
    s.stack.pop()
    if s.log is not None:
        s.log.append(Combo(s.turn, f.player, f.target, f.opener.combo))
    s.stack.append(ComboF(f.player, f.target, f.opener))
    return False


def _step_combo(s: GameState, f: ComboF) -> bool:
    p, v = f.player, f.victim
    if s.down[p] or s.down[v] or not can_act(s, p):
        s.stack.pop()
        return False
    moves: list[Move] = []
    for d in set(s.hands[p]):
        ci = s.game.info[d]
        if ci.limited and barred(s, p, ci):
            continue
        if ci.follows == f.combo or (f.steps == 0 and ci.type in f.then and ci.turn_play and ci.opener is None
                                     and bool(ci.damage)):
            moves += variants(s, FOLLOW, ci, v)
    if not moves:
        s.stack.pop()
        if s.log is not None:
            s.log.append((ComboWasted if f.steps == 0 else ComboEnds)(s.turn, p))
        return False
    return _decide(s, p, [*moves, DECLINE_MOVE])


def _step_answer(s: GameState, f: AnswerF) -> bool:
    if _ask(s, f):
        return True
    s.stack.pop()
    parent = s.stack[-1]
    ci = s.game.info[f.design]
    if f.what is _ANSWER_DEFEND:
        if s.log is not None:  # a hot spot: do not even build the event unlogged
            s.log.append(Defended(s.turn, f.player, ci.d, f.how))
        if isinstance(parent, StrikeF):
            _strike_defended(s, parent, f.how, f.player)
        elif isinstance(parent, TickF):
            s.stack.pop()
            end_hold(s, parent.hold, "broken")
        else:
            s.stack.pop()  # the opener fails
        if ci.retaliates:
            deal_damage(s, parent.player, ci.retaliates, ci.d)
    elif f.what is _ANSWER_INTERFERE:
        assert isinstance(parent, StrikeF)
        parent.target = parent.origin = f.player
        parent.no_def = True
        parent.pos = len(parent.resp)
        if s.log is not None:
            s.log.append(Interferes(s.turn, f.player))
    elif f.how == "redirect":
        if isinstance(parent, TickF):
            s.stack.pop()
            end_hold(s, parent.hold, "broken")
        elif isinstance(parent, OpenerF):
            s.stack.pop()
            if s.log is not None:
                s.log.append(Stopped(s.turn, parent.design, f.player))
        else:
            assert isinstance(parent, StrikeF)
            parent.target = parent.origin = f.redirect
            parent.moved = False
            parent.direction = 0
            open_window(s, parent)
            if s.log is not None:
                s.log.append(Redirected(s.turn, f.redirect))
    else:
        # Cancel: the answered card does nothing. Only the last humiliation of a chain (one nobody humiliated)
        # stuns the answered card's player for the rest of the turn and earns its player the free attack; an
        # earlier one whose humiliator was cancelled in turn only cancels the card it answered.
        last = not f.humiliated
        victim = parent.player
        answered = parent.hold.design if isinstance(parent, TickF) else parent.design if isinstance(
            parent, StrikeF | OpenerF | AnswerF | HealF) else f.design
        if s.log is not None:
            s.log.append(Cancelled(s.turn, answered, victim, f.player))
        if last:
            s.stun_until[victim] = max(s.stun_until[victim], s.turn)
            if s.log is not None:
                s.log.append(Stunned(s.turn, victim, s.stun_until[victim]))
        if isinstance(parent, StrikeF):
            parent.cancelled = True
            parent.stage = _STAGE_FINISH
        elif isinstance(parent, TickF):
            s.stack.pop()
            end_hold(s, parent.hold, "broken")
        else:
            s.stack.pop()  # an opener, a heal, or an answer (its effect never happens)
        if last and not s.down[victim]:
            s.stack.append(BonusF(f.player, victim))
    return False


def _step_tick(s: GameState, f: TickF) -> bool:
    h = f.hold
    if h not in s.holds or s.down[h.victim]:
        s.stack.pop()
        return False
    if _ask(s, f):
        return True
    s.stack.pop()
    deal_damage(s, h.victim, h.damage, h.design)
    return False


def _step_bonus(s: GameState, f: BonusF) -> bool:
    p, v = f.player, f.victim
    moves: list[Move] = []
    if can_act(s, p) and not s.down[v]:
        for d in set(s.hands[p]):
            ci = s.game.info[d]
            if (ci.role in ("attack", "weapon", "wrestling") and ci.damage and ci.opener is None
                    and not (ci.limited and barred(s, p, ci))):
                moves += variants(s, BONUS, ci, v)
    if not moves:
        s.stack.pop()
        return False
    return _decide(s, p, [*moves, DECLINE_MOVE])


def _step_after_block(s: GameState, f: AfterBlockF) -> bool:
    after_block = s.game.after_block
    while f.stage < 2:
        p, other = (f.player, f.attacker) if f.stage == 0 else (f.attacker, f.player)
        if not after_block.isdisjoint(s.hands[p]) and can_act(s, p) and not s.down[other]:
            moves = [shared_move(OPEN, d, other) for d in set(s.hands[p])
                     if (o := s.game.info[d].opener) is not None and o.after_block]
            if moves:
                return _decide(s, p, [*moves, DECLINE_MOVE])
        f.stage += 1
    s.stack.pop()
    return False


def _step_drop(s: GameState, f: Frame) -> bool:
    """Heals after the damage (Beer Money): as many as the player holds, once back above 0 too, while they
    restore something; declining at 0 or below knocks the player out, above 0 it only ends the healing."""
    p = f.player
    life = s.life[p]
    if s.down[p] or life >= s.game.start_life:
        s.stack.pop()
        return False
    info = s.game.info
    moves = [shared_move(HEAL, d, p) for d in set(s.hands[p]) if info[d].heal_drop and not info[d].heal_first
             ] if can_act(s, p) else []
    if not moves:
        s.stack.pop()
        if life <= 0:
            knock_out(s, p)
        return False
    return _decide(s, p, [*moves, DECLINE_MOVE])


def _step_brace(s: GameState, f: BraceF) -> bool:
    p = f.player
    if s.down[p] or s.life[p] > f.amount or not can_brace(s, p):
        s.stack.pop()
        lose(s, p, f.amount, f.why)
        return False
    info = s.game.info
    return _decide(s, p, [*[shared_move(HEAL, d, p) for d in set(s.hands[p]) if info[d].heal_first], DECLINE_MOVE])


def _step_heal(s: GameState, f: HealF) -> bool:
    if _ask(s, f):
        return True
    s.stack.pop()
    restore(s, f.target, f.amount, f.player, f.design)
    return False


def _step_let_go(s: GameState, f: LetGoF) -> bool:
    p = f.player
    moves = sorted({Move(RELEASE, -1, h.victim) for h in s.holds if h.holder == p and h.releasable})
    if not moves or _lost(s, p):  # a stunned or vomiting holder plays nothing, letting go included
        s.stack.pop()
        return False
    return _decide(s, p, [*moves, DECLINE_MOVE])


def _step(s: GameState, f: Frame) -> bool:
    """Run the top frame on: True once someone must decide (`s.to_act`, `s.moves` set).

    By the frame's exact class (every frame class is a leaf; `type(f) is C` narrows `f` for mypy), the
    commonest first (`_advance` tests the turn and the strike itself before calling this); a `match` on class
    patterns cost 0.3 us more a step (measured), 5 % of a random game's decision.
    """
    if type(f) is TurnF:
        return _step_turn(s, f)
    if type(f) is StrikeF:
        return _step_strike(s, f)
    if type(f) is AnswerF:
        return _step_answer(s, f)
    if type(f) is OpenerF:
        return _step_opener(s, f)
    if type(f) is ComboF:
        return _step_combo(s, f)
    if type(f) is DropF:
        return _step_drop(s, f)
    if type(f) is BraceF:
        return _step_brace(s, f)
    if type(f) is HealF:
        return _step_heal(s, f)
    if type(f) is TickF:
        return _step_tick(s, f)
    if type(f) is BonusF:
        return _step_bonus(s, f)
    if type(f) is AfterBlockF:
        return _step_after_block(s, f)
    if type(f) is DirectionF:
        return _offer(s, f.player, [_LEFT, _RIGHT])
    if type(f) is LetGoF:
        return _step_let_go(s, f)
    raise AssertionError(f"no step for {type(f).__name__}")
