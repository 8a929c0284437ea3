"""Playing a scenario (docs/scenarios.md): set its table, play its moves, check its expectations.

The public entry point is `Replay(spec).run(checks)`: the spec comes from `cardgen.loader.scenario`, which
has checked names and shapes; here each move is checked against the legal moves when it comes, and
every `expect:` / `expect_moves:` against the state then. A `MoveHook` sees every engine move (the
invariant checks of the tests are one: `InvariantHook`); what it finds is reported at the move's line.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Protocol

from cardgen.engine import moves as mv
from cardgen.engine.game import make_game
from cardgen.engine.invariants import Snapshot, check_state, check_step, snapshot
from cardgen.engine.move_codec import ACTION_KINDS
from cardgen.engine.moves import Move
from cardgen.engine.randomness import shuffle
from cardgen.engine.state import GameState, Phase, TurnF, blank_state
from cardgen.errors import CardgenError, Diagnostic
from cardgen.scenario_spec import (
    NO_ACTIONS,
    ExpectSpec,
    MovesCheck,
    MoveSpec,
    Pos,
    ScenarioError,
    ScenarioSpec,
    SeatExpect,
    Want,
)


class MoveHook(Protocol):
    """Extra checks around every engine move a scenario makes: problems are reported at the move's line."""

    def before(self, s: GameState) -> None: ...

    def after(self, s: GameState, move: Move) -> list[str]: ...


class InvariantHook:
    """The engine's invariants after every single move (`cardgen.engine.invariants`)."""

    def __init__(self) -> None:
        self._before: Snapshot | None = None

    def before(self, s: GameState) -> None:
        self._before = snapshot(s)

    def after(self, s: GameState, move: Move) -> list[str]:
        assert self._before is not None
        return [str(p) for p in check_state(s) + check_step(self._before, s)]


def table(spec: ScenarioSpec) -> GameState:
    """The hand-set table of `spec`, started: hands, life, stuns, piles (the rest of the deck shuffled with the
    seed under the scripted top of the draw pile), the first player's turn begun."""
    cs = spec.cs
    s = blank_state(make_game(cs, list(spec.names), spec.turn_cap), spec.seed, record=True)
    if spec.deck_shuffled:  # the generator goes on from the shuffle that dealt the whole deck (as `new_game`)
        shuffle(s.generator(), list(s.game.deck))
    left = list(s.game.deck)
    for p, seat in enumerate(spec.seats):
        s.hands[p] = list(seat.hand)
        s.life[p] = seat.life
        s.pool += cs.rules.life - seat.life
        s.down[p] = seat.down
        s.stun_until[p] = seat.stunned if seat.stunned else -1
    s.discard = list(spec.discard)
    for d in [*(d for seat in spec.seats for d in seat.hand), *spec.draw, *spec.discard]:
        left.remove(d)
    random.Random(spec.seed).shuffle(left)
    s.draw = left + list(reversed(spec.draw))
    s.current = (spec.first - 1) % len(spec.seats)
    s.settle()
    return s


class _Miss(Exception):
    """A scripted move that names no legal move now (`pos`: where to point, `message`: why)."""

    def __init__(self, pos: Pos, message: str) -> None:
        super().__init__(message)
        self.pos, self.message = pos, message


class Replay:
    """A scenario being played: its table (`state`), as far as `run` got (after an error too)."""

    def __init__(self, spec: ScenarioSpec) -> None:
        self.spec = spec
        self.state = table(spec)

    def run(self, checks: MoveHook | None = None) -> list[Diagnostic]:
        """Play every step in order.

        Returns the unmet expectations (of the `expect:` items met along the way, and the final `expect:`)
        and whatever `checks` found, in the order met. At the first move that is not legal it raises
        ScenarioError carrying every unmet expectation found before that move, then the move's own error:
        a scenario wrong in several places says so at once.
        """
        out: list[Diagnostic] = []
        for step in self.spec.steps:
            if isinstance(step, ExpectSpec):
                out += self.check_expect(step)
            elif isinstance(step, MovesCheck):
                out += self.check_moves(step)
            else:
                try:
                    self._play(step, checks, out)
                except ScenarioError as exc:
                    raise ScenarioError(out + exc.diagnostics) from exc
        return out + (self.check_expect(self.spec.expect) if self.spec.expect is not None else [])

    def _play(self, m: MoveSpec, checks: MoveHook | None, out: list[Diagnostic]) -> None:
        """Push the moves `m` stands for, adding what `checks` finds to `out` as it goes."""
        s = self.state
        for move in self.steps(m):
            said = ""
            if checks is not None:
                checks.before(s)
                said = s.describe(move)
            try:
                s.push(move)
            except CardgenError as exc:  # not expected after `steps` checked it: still never without a line
                raise self.spec.error(m.pos, str(exc)) from exc
            if checks is not None:
                out += [self.spec.diagnostic(m.pos, f"after {said}: {p}") for p in checks.after(s, move)]

    def _situation(self) -> str:
        s = self.state
        if s.result is not None:
            return "the game is over"
        return (f"it is {s.game.names[s.to_act]}'s decision; legal: "
                + "; ".join(s.describe(m) for m in s.moves[:12]) + ("; ..." if len(s.moves) > 12 else ""))

    def steps(self, m: MoveSpec) -> Iterator[Move]:
        """The engine moves scripted move `m` stands for, each checked against the state when it is due: the
        caller pushes each one before asking for the next (a list of discards is several moves, each checked
        after the ones before it, and the `done` after them only comes if the discards left the turn open:
        the set's `discard_limit`, or an emptied hand, ends the turn by itself). Raises ScenarioError at the
        move's `file:line:col` for anything that is not legal."""
        s, spec = self.state, self.spec
        if s.result is not None:
            raise spec.error(m.pos, "move after the end of the game")
        if s.to_act != m.who:
            raise spec.error(m.who_pos, f"{spec.names[m.who]} cannot act now: {self._situation()}")
        if m.action == "discard":
            yield from self._discards(m)
            return
        try:
            found = self.select(m, m.who, s.moves)
        except _Miss as miss:
            raise spec.error(miss.pos, miss.message) from None
        if len(found) > 1:
            raise spec.error(m.pos, "ambiguous move, say which: " + "; ".join(s.describe(x) for x in found))
        yield found[0]

    def _discards(self, m: MoveSpec) -> Iterator[Move]:
        """`discard: [...]`: one DISCARD a card, each legal when it comes, then DONE while the turn is still open
        (`more: true`: no DONE, the player discards on)."""
        s, p = self.state, m.who
        for ref in m.cards:
            move = Move(mv.DISCARD, ref.design)
            if s.result is not None or s.to_act != p or move not in s.moves:
                why = self._situation() if s.to_act == p or s.result is not None else (
                    f"the discards before it ended the turn; {self._situation()}")
                raise self.spec.error(ref.pos, f"{self.spec.names[p]} cannot discard '{ref.written}' now: {why}")
            yield move
        f = s.stack[-1] if s.stack and s.result is None else None
        if (not m.more and isinstance(f, TurnF) and f.player == p and f.phase == Phase.DISCARD
                and Move(mv.DONE) in s.moves):
            yield Move(mv.DONE)

    def select(self, m: MoveSpec, p: int, legal: list[Move]) -> list[Move]:
        """The moves among `legal` (the moves `p` may make now) that `m` names; `_Miss` if none."""
        names = self.spec.names
        if m.action in NO_ACTIONS:
            found = [x for x in legal if x.kind in ACTION_KINDS[m.action]]
            if not found:
                raise _Miss(m.key_pos, f"{names[p]} cannot {m.action} now: {self._situation()}")
            return found[:1]
        if m.action == "release":
            found = [x for x in legal if x.kind == mv.RELEASE and x.target == m.player]
            if not found:
                raise _Miss(m.value_pos, f"{names[p]} cannot let go of {names[m.player]} now: {self._situation()}")
            return found
        if m.action == "direction":
            way = mv.Choice(m.direction)
            found = [x for x in legal if x.kind == mv.DIRECTION and x.choice == way]
            if not found:
                raise _Miss(m.value_pos, f"no direction choice '{m.direction}' now: {self._situation()}")
            return found
        if m.action == "discard":
            return self._discard_list(m, p, legal)
        if m.action == "pick":
            return self._pick(m, p, legal)
        return self._card_play(m, p, legal)

    def _pick(self, m: MoveSpec, p: int, legal: list[Move]) -> list[Move]:
        """A card an effect asks `p` to pick, from their own hand or (looking at it) another's."""
        cs = self.spec.cs
        name = cs.cards[m.cards[0].design].name.casefold()
        found = [x for x in legal if x.kind == mv.PICK and cs.cards[x.card].name.casefold() == name]
        if not found:
            raise _Miss(m.value_pos, f"{self.spec.names[p]} cannot pick '{m.cards[0].written}' now: "
                                     f"{self._situation()}")
        return found[:1]

    def _discard_list(self, m: MoveSpec, p: int, legal: list[Move]) -> list[Move]:
        """A discard list as one check (`expect_moves`; `steps` plays a list one card at a time)."""
        s = self.state
        f = s.stack[-1] if s.stack else None
        done = f.count if isinstance(f, TurnF) and f.phase == Phase.DISCARD else 0
        limit = s.game.rules.discard_limit
        out: list[Move] = []
        who = self.spec.names[p]
        for j, ref in enumerate(m.cards):
            d = ref.design
            if Move(mv.DISCARD, d) not in legal or s.hands[p].count(d) <= sum(y.card == d for y in out):
                raise _Miss(ref.pos, f"{who} cannot discard '{ref.written}' now: {self._situation()}")
            if limit and done + j >= limit:
                raise _Miss(ref.pos, f"{who} cannot discard '{ref.written}' now: at most {limit} discards in a turn")
            out.append(Move(mv.DISCARD, d))
        return out

    def _held(self, m: MoveSpec, p: int) -> int:
        """The design `m` plays from `p`'s hand: the one named, or another of the same name (a mixed deck)."""
        cs, hand = self.spec.cs, self.state.hands[p]
        d = m.cards[0].design
        if d in hand:
            return d
        name = cs.cards[d].name.casefold()
        held = [x for x, c in enumerate(cs.cards) if c.name.casefold() == name and x in hand]
        if not held:
            shown = ", ".join(sorted(cs.cards[x].name for x in hand)) or "empty"
            raise _Miss(m.value_pos, f"{self.spec.names[p]} has no '{m.cards[0].written}' in hand (hand: {shown})")
        return held[0]

    def _card_play(self, m: MoveSpec, p: int, legal: list[Move]) -> list[Move]:
        names, cs = self.spec.names, self.spec.cs
        d = self._held(m, p)
        kinds = ACTION_KINDS[m.action]
        found = [x for x in legal if x.card == d and x.kind in kinds]
        if not found:
            raise _Miss(m.value_pos, f"{names[p]} cannot play '{cs.cards[d].name}' now: {self._situation()}")
        if m.target >= 0:
            found = [x for x in found if x.target == m.target]
            if not found:
                raise _Miss(m.target_pos, f"'{cs.cards[d].name}' cannot target {names[m.target]} now: "
                                          f"{self._situation()}")
        choice = mv.Choice(m.choice)
        if choice or any(not x.choice for x in found):
            found = [x for x in found if x.choice == choice]
        if not found:
            raise _Miss(m.pos, f"'{cs.cards[d].name}' cannot be played as '{m.choice}' now: {self._situation()}")
        return found

    def check_moves(self, check: MovesCheck) -> list[Diagnostic]:
        """Unmet `can` / `cannot` entries of an `expect_moves` item: each is met when some legal move of `who`
        matches it (`cannot`: when none does)."""
        s, who = self.state, self.spec.names[check.who]
        legal = s.moves if s.to_act == check.who and s.result is None else []
        out: list[Diagnostic] = []
        for word, entries in (("can", check.can), ("cannot", check.cannot)):
            for m in entries:
                try:
                    found, why = bool(self.select(m, check.who, legal)), ""
                except _Miss as miss:
                    found, why = False, miss.message
                if found != (word == "can"):
                    out.append(self.spec.diagnostic(m.pos, f"expected {who} {word} {{{m.written}}} now, "
                                                    + (f"but {why}" if why else
                                                       f"but it is legal: {self._situation()}")))
        return out

    def check_expect(self, e: ExpectSpec) -> list[Diagnostic]:
        """Differences between the state now and an `expect:` block (the final one, or one among the moves)."""
        s = self.state
        names = s.game.names
        r = s.result
        found: list[tuple[Want[object] | None, str, object]] = [
            (e.pool, "lost pool", s.pool),
            (e.to_act, "to act", names[s.to_act] if s.to_act >= 0 else None),
            (e.turn, "turn", s.turn),
            (e.draw_pile, "cards in the draw pile", len(s.draw)),
        ]
        out = [self._differ(w, what, got) for w, what, got in found if w is not None and w.value != got]
        if e.winner is not None:
            got = None if r is None or r.winner is None else names[r.winner]
            if e.winner.value != got or r is None:
                out.append(self._differ(e.winner, "winner", got))
        if e.discard_top is not None:
            want_top = list(e.discard_top.value)
            got_top = [s.game.info[d].name for d in s.discard[-len(want_top):]] if want_top else []
            if want_top != got_top:
                out.append(self._differ(Want(want_top, e.discard_top.pos), "top of the discard pile", got_top))
        for seat in e.seats:
            out += self._seat(seat)
        out.sort(key=lambda d: (d.line, d.column))
        return out

    def _differ(self, want: Want[object], what: str, got: object) -> Diagnostic:
        return self.spec.diagnostic(want.pos, f"expected {what} {want.value!r}, got {got!r}")

    def _seat(self, e: SeatExpect) -> list[Diagnostic]:
        s, p = self.state, e.seat
        key = s.game.names[p]
        hand = sorted(s.game.info[d].name for d in s.hands[p])
        out: list[Diagnostic] = []
        if e.life is not None and e.life.value != s.life[p]:
            out.append(self._differ(e.life, f"{key}'s life", s.life[p]))
        if e.hand is not None and list(e.hand.value) != hand:
            out.append(self._differ(Want(list(e.hand.value), e.hand.pos), f"{key}'s hand", hand))
        for wants, present in ((e.has, True), (e.lacks, False)):
            out += [self._differ(w, f"{key}'s hand to {'hold' if present else 'lack'}", hand)
                    for w in wants if (w.value in hand) != present]
        if e.cards is not None and e.cards.value != len(hand):
            out.append(self._differ(e.cards, f"{key}'s number of cards", len(hand)))
        if e.status is not None:
            statuses = status(s, p)
            wrong = [w for w in e.status.value if ((w[4:] in statuses) if w.startswith("not ") else
                                                   (w not in statuses))]
            if wrong:
                out.append(self._differ(Want(wrong, e.status.pos), f"{key}'s status to agree with", statuses))
        return out


def status(s: GameState, p: int) -> list[str]:
    """A player's status words, as a scenario's `status:` checks them and `final_state` lists them."""
    out = ["unconscious", "stomped"] if s.stomped[p] else ["unconscious" if s.down[p] else "conscious"]
    if not s.down[p] and s.stunned(p):
        out.append("stunned")
    if not s.down[p] and s.vomiting(p):
        out.append("vomiting")
    out += [f"holding {s.game.names[h.victim]}" for h in s.holds if h.holder == p]
    out += [f"held by {s.game.names[h.holder]}" for h in s.holds if h.victim == p]
    return out


def final_state(s: GameState) -> dict[str, object]:
    """The end state as JSON-ready data: players, piles, whose decision it is."""
    name = s.game.info
    return {
        "turn": s.turn,
        "players": [{"name": s.game.names[p], "life": s.life[p], "hand": sorted(name[d].name for d in s.hands[p]),
                     "status": status(s, p)} for p in range(s.n)],
        "lost_pool": s.pool,
        "draw_pile": len(s.draw),
        "discard_pile": [name[d].name for d in s.discard],
        "to_act": s.game.names[s.to_act] if s.to_act >= 0 else None,
        "legal_moves": [s.describe(m) for m in s.moves],
        "outcome": None if s.result is None else {
            "winner": None if s.result.winner is None else s.game.names[s.result.winner],
            "reason": s.result.reason, "turns": s.result.turns},
    }


__all__ = ["InvariantHook", "MoveHook", "Replay", "ScenarioError", "final_state", "status", "table"]
