"""What one seat's page shows, as typed records: built from that seat's `PlayerView` and said in the table's
language, then sent to the page as JSON (`SeatView.data`).

Each card in hand carries its own offers (the legal moves that play or discard it, with their buttons'
words) and, when no move plays it, why not (`why.why_not`). The card in flight (the last pending card) is
named with its strike count ("strike 2 of 3") and what is left to answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Final

from cardgen.engine.game import Game
from cardgen.engine.moves import Choice, Move
from cardgen.engine.observation import WINDOWS, Pending, StepKind
from cardgen.engine.views import PlayerView
from cardgen.play.why import plays_now, why_not
from cardgen.play.wording import LogLine, in_flight, move_label, reason, say


@dataclass(frozen=True)
class Offer:
    """A legal move as the page sends it back, with its button's words."""

    kind: str
    card: int
    target: int
    choice: str
    label: str


@dataclass(frozen=True)
class HandCard:
    card: int
    name: str
    offers: list[int]  # indices into SeatView.moves
    why: str  # why no move plays it now ("" when one does)


@dataclass(frozen=True)
class Panel:
    """A seat as everyone sees it."""

    name: str
    kind: str
    life: int
    cards: int
    down: bool
    stomped: bool
    stunned: bool
    vomiting: bool
    holding: list[str]
    held_by: list[str]


@dataclass(frozen=True)
class Flight:
    """The card whose answer is asked now: who played it at whom, and its strikes."""

    card: int
    name: str
    text: str  # "Bob's Kick at Ann"
    strike: int  # which strike comes next (1-based; 0: not a strike)
    strikes: int
    damage: int  # what it deals next if unanswered (0: none)
    said: str  # "strike 2 of 3: 4 now, 8 in all"


@dataclass(frozen=True)
class Card:
    card: int
    name: str


@dataclass(frozen=True)
class SeatView:
    version: int
    seat: int
    title: str
    turn: int
    life_word: str
    start_life: int
    current: int
    to_act: int
    players: list[Panel]
    hand: list[HandCard]
    discard: list[Card]
    discard_size: int
    table: list[Card]
    draw_size: int
    pool: int
    pending: list[str]
    flight: Flight | None
    said: str
    moves: list[Offer]
    log: list[dict[str, object]]
    notes: list[str]
    over: bool
    winner: str | None
    can_save: bool

    def data(self) -> dict[str, object]:
        return asdict(self)


def strike_of(damage: tuple[int, ...], step: Pending) -> tuple[int, int]:
    """(the next strike's number, how many strikes the card has) of a strike in flight; (0, n) if unknown."""
    n = len(damage)
    left = step.damage_left
    if step.kind is not StepKind.STRIKE or left is None or n == 0:
        return 0, n
    for k in range(n, 0, -1):  # the last k strikes, scaled as the next one is (a combo multiplies them)
        first = damage[n - k]
        scale = (step.damage or 0) / first if first else 1
        if abs(sum(damage[n - k:]) * scale - left) < 1e-9:
            return n - k + 1, n
    return 0, n


def _flight(g: Game, steps: Sequence[Pending], lang: str) -> Flight | None:
    for step in reversed(steps):
        if step.card is None or step.card < 0 or step.kind not in WINDOWS:
            continue
        info = g.info[step.card]
        text = in_flight(g, [step], lang)
        strike, strikes = strike_of(info.damage, step)
        parts = []
        if strikes > 1 and strike:
            parts.append(say(lang, "flight.strike", strike=strike, strikes=strikes))
        if step is steps[-1]:  # asked now (under a heal or a fall, its strike is already landing)
            if step.damage:
                parts.append(say(lang, "flight.damage", damage=step.damage))
            if step.damage_left and step.damage_left != step.damage:
                parts.append(say(lang, "flight.in_all", damage=step.damage_left))
        return Flight(step.card, info.name, text[0] if text else info.name, strike, strikes, step.damage or 0,
                      ", ".join(parts))
    return None


def _why(v: PlayerView, d: int, lang: str) -> str:
    key, fields = why_not(v, v.game.info[d])
    if "kinds" in fields:
        fields["kinds"] = ", ".join(say(lang, f"button.defend.{k.strip()}") for k in str(fields["kinds"]).split(","))
    return say(lang, f"why_not.{key}", **fields)


# What the one deciding is asked, by the kind of step (`play.status.<key>`).
_ASKED: Final[dict[StepKind, str]] = {
    StepKind.DROP: "heal_or_fall", StepKind.BRACE: "heal_or_fall", StepKind.COMBO: "follow_or_end",
    StepKind.BONUS: "free_attack", StepKind.AFTER_BLOCK: "open_or_not", StepKind.DIRECTION: "direction",
    StepKind.LET_GO: "let_go", StepKind.PICK: "pick"}


def _status(v: PlayerView, seat: int, kinds: Sequence[str], pending: Sequence[str], lang: str) -> str:
    r = v.result
    g = v.game
    if r is not None:
        why = reason(lang, r.reason)
        return (say(lang, "status.wins", winner=g.names[r.winner], reason=why) if r.winner is not None else
                say(lang, "status.nobody_wins", reason=why))
    step = v.step
    if v.to_act == seat:
        if step is not None and step.kind is StepKind.TURN:
            said = say(lang, "status.your_turn")
        elif step is not None and step.kind in WINDOWS and step.target == seat:
            said = say(lang, "status.answer_or_take")
        elif step is not None and step.kind in WINDOWS:
            said = say(lang, "status.answer_or_not")
        elif step is not None and step.kind in _ASKED:
            said = say(lang, f"status.{_ASKED[step.kind]}")
        else:
            said = say(lang, "status.yours")
    else:
        who, kind = g.names[v.to_act], kinds[v.to_act]
        said = (say(lang, "status.waiting", who=who) if kind == "human" else
                say(lang, "status.waiting_bot", who=who, kind=kind))
    return say(lang, "status.asked", pending=pending[-1], then=said) if pending else said


def seat_view(v: PlayerView, version: int, title: str, life_word: str, kinds: Sequence[str],
              lines: Sequence[LogLine], notes: Sequence[str], lang: str) -> SeatView:
    """Everything seat `v.seat` may know, said in `lang` (`kinds`: each seat's "human" or bot name)."""
    g, seat = v.game, v.seat
    info = g.info
    names = g.names
    players = [Panel(name, kinds[p], v.life[p], v.hand_sizes[p], v.down[p], v.stomped[p],
                     not v.down[p] and v.stunned(p), not v.down[p] and v.vomiting(p),
                     [names[h.victim] for h in v.holds if h.holder == p],
                     [names[h.holder] for h in v.holds if h.victim == p]) for p, name in enumerate(names)]
    legal: tuple[Move, ...] = v.moves
    offers = [Offer(str(m.kind), m.card, m.target, str(m.choice), move_label(g, seat, m, v.step, lang))
              for m in legal]
    hand = []
    for d in v.hand:
        mine = [i for i, m in enumerate(legal) if m.card == d and m.choice != Choice.TAKE]  # (a take: another's card)
        hand.append(HandCard(d, info[d].name, mine, "" if plays_now(v, d) else _why(v, d, lang)))
    pending = in_flight(g, v.steps, lang)
    r = v.result
    return SeatView(
        version=version, seat=seat, title=title, turn=v.turn, life_word=life_word, start_life=g.start_life,
        current=v.current, to_act=v.to_act, players=players, hand=hand,
        discard=[Card(d, info[d].name) for d in v.discard[-3:]], discard_size=len(v.discard),
        table=[Card(d, info[d].name) for d in v.table], draw_size=v.draw_size, pool=v.pool,
        pending=pending, flight=None if r is not None else _flight(g, v.steps, lang),
        said=_status(v, seat, kinds, pending, lang), moves=offers,
        log=[{"turn": ln.turn, "text": ln.text} for ln in lines[-60:]], notes=list(notes[-5:]),
        over=r is not None, winner=None if r is None or r.winner is None else names[r.winner],
        can_save=seat == 0 or r is not None)
