"""One game at a table: the engine's state, the seats (people with their tokens, bots), and the moves they send.

A person's seat is reached only through its token (`secrets.token_urlsafe`): a token gives that seat's
`PlayerView` as JSON (`view`) and that seat's moves (`play`), nothing else. Every move sent is checked again
here against the engine's legal moves, against whose decision it is and against the version of the table
the page was showing (a double click never plays twice); anything else is refused with a reason and the
game is left exactly as it was. A bot that fails or answers an illegal move is replaced by a random legal
move for that decision, and the log says so. The table is not thread-safe: the server calls it from its
one event loop (a bot thinks in a worker thread on its own view, while nobody else may move).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from cardgen.engine import moves as mv
from cardgen.engine.agents import RandomAgent
from cardgen.engine.moves import Move
from cardgen.engine.rules import push
from cardgen.engine.state import GameState
from cardgen.engine.views import Agent, observe
from cardgen.errors import CardgenError, Diagnostic
from cardgen.loader import load_set_with_warnings, mix_sets
from cardgen.loader.language import in_language
from cardgen.model import CardSet
from cardgen.play.save import Opening, deal, start_state, verified_scenario
from cardgen.play.wording import LogLine, in_flight, log_lines, move_label, reason, say
from cardgen.sim.agents import AGENTS, DEFAULT_BUDGET, Budget, make_agent, parse_budget
from cardgen.sim.seeding import derive_seed
from cardgen.suggest import did_you_mean

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou")
HUMAN = "human"
DEFAULT_BOT = "search"
MAX_PLAYERS = 12


class SeatError(CardgenError):
    """--players, --bots or --names that do not make a table."""


class MixedLanguages(CardgenError):
    """Sets to mix at one table that print in different languages, and no --lang to choose one."""


class MoveRefused(CardgenError):
    """A move that is not this seat's to make now, or not a legal move: the game is unchanged."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class Seat:
    name: str
    kind: str  # "human" or a bot name
    token: str = ""  # people only
    agent: Agent | None = None

    @property
    def bot(self) -> bool:
        return self.kind != HUMAN


def seat_kinds(players: int, bots: str | None) -> list[str]:
    """Seat 1 is the person who started the table; `bots` fills the others: one name for all of them, or a
    comma list with one entry per other seat (`human` for a friend's seat)."""
    if not 2 <= players <= MAX_PLAYERS:
        raise SeatError(f"--players must be 2 to {MAX_PLAYERS}, not {players}")
    names = [b.strip().lower() for b in (bots or DEFAULT_BOT).split(",")]
    choices = [*AGENTS, HUMAN]
    for b in names:
        if b not in choices:
            raise SeatError(f"unknown bot '{b or '(empty)'}'{did_you_mean(b, choices)}; choose from "
                            f"{', '.join(choices)}")
    if len(names) == 1:
        names *= players - 1
    if len(names) != players - 1:
        raise SeatError(f"--bots names {len(names)} seats, but {players} players leave {players - 1} beside yours "
                        "(give one name for all of them, or one per seat)")
    return [HUMAN, *names]


def seat_names(players: int, names: str | None) -> list[str]:
    if not names:
        return list(NAMES[:players])
    out = [n.strip() for n in names.split(",")]
    if len(out) != players or any(not n for n in out) or len(set(out)) != len(out):
        raise SeatError(f"--names needs {players} different names, comma separated")
    return out


@dataclass
class Decision:
    """A move sent by a page: checked field by field before it is compared with the legal moves."""

    kind: mv.MoveKind
    card: int
    target: int
    choice: mv.Choice
    version: int


def parse_decision(payload: object) -> Decision:
    """A page's JSON move ({kind, card, target, choice, version}) as a Decision, or MoveRefused (400)."""
    if not isinstance(payload, dict):
        raise MoveRefused("a move is a JSON object", 400)
    allowed = {"kind", "card", "target", "choice", "version"}
    extra = set(payload) - allowed
    if extra:
        raise MoveRefused(f"unknown field '{sorted(map(str, extra))[0]}' in a move", 400)
    kind = payload.get("kind")
    if not isinstance(kind, str) or kind not in {str(k) for k in mv.KINDS}:
        raise MoveRefused(f"unknown move kind {str(kind)[:40]!r}", 400)
    numbers = {}
    for key in ("card", "target", "version"):
        v = payload.get(key, -1)
        if not isinstance(v, int) or isinstance(v, bool) or not -1 <= v < 1 << 31:
            raise MoveRefused(f"'{key}' must be a whole number", 400)
        numbers[key] = v
    choice = payload.get("choice", "")
    if not isinstance(choice, str) or choice not in {str(c) for c in mv.Choice}:
        raise MoveRefused(f"unknown choice {str(choice)[:40]!r}", 400)
    return Decision(mv.MoveKind(kind), numbers["card"], numbers["target"], mv.Choice(choice), numbers["version"])


def scenario_set_ref(ref: str) -> str:
    """A `--set` value as a saved scenario names it: a bundled set by its name, a set folder by its absolute
    path (a scenario reads a relative path from its own folder, and a saved file may be moved)."""
    if "/" in ref or ref.startswith(".") or os.sep in ref:
        return str(Path(ref).resolve())
    return ref


def load_deck(sets: Sequence[str], lang: str | None, warnings: list[Diagnostic]) -> CardSet:
    """The sets mixed into one deck, each in `lang` (its translation file) or, without `lang`, in its own
    `language:`, as `cardgen build` prints them; MixedLanguages if those differ."""
    loaded = []
    for ref in sets:
        cs, said = load_set_with_warnings(ref)
        loaded.append(in_language(cs, lang, said) if lang is not None else cs)
        warnings.extend(said)
    if len({cs.language for cs in loaded}) > 1:
        spoken = ", ".join(f"{cs.name} is '{cs.language}'" for cs in loaded)
        raise MixedLanguages(f"the sets to mix print in different languages ({spoken}); choose one with --lang")
    return mix_sets(loaded, warnings)


AgentFactory = Callable[[str, int, Budget], Agent]


@dataclass
class Table:
    """A game in progress and its seats. `version` counts the decisions taken (a page sends it back)."""

    cs: CardSet
    opening: Opening
    state: GameState
    seats: list[Seat]
    seed: int
    notes: list[tuple[int, str]] = field(default_factory=list)  # (log position, text): bot failures and such
    warnings: list[Diagnostic] = field(default_factory=list)  # loading the sets (a translation file missing...)
    _lines: tuple[int, list[LogLine]] = (-1, [])

    # --- set-up -----------------------------------------------------------------------------------------

    @classmethod
    def open(cls, sets: Sequence[str], players: int = 2, bots: str | None = None, seed: int = 0,
             budget: str | Budget | None = None, names: str | None = None,
             agent_factory: AgentFactory | None = None, lang: str | None = None) -> Table:
        """Load `sets` (in `lang`, else in their own language), deal with `seed`, seat a person at seat 1 and
        `bots` (or friends) at the others."""
        kinds = seat_kinds(players, bots)
        seat_list = seat_names(players, names)
        warnings: list[Diagnostic] = []
        deck = load_deck(sets, lang, warnings)
        opening = deal(deck, [scenario_set_ref(r) for r in sets], seat_list, seed)
        state, cs = start_state(opening, deck)
        if lang is not None and lang != cs.language:
            # The game is the scenario loader's (it reads the sets in their own words); the table shows the deck
            # in `lang`, which has the same cards in the same order (a translation renames none).
            assert [c.name for c in deck.cards] == [c.name for c in cs.cards]
            cs = deck
        b = budget if isinstance(budget, Budget) else parse_budget(budget or DEFAULT_BUDGET)
        make = agent_factory or make_agent
        seats: list[Seat] = []
        for p, (name, kind) in enumerate(zip(seat_list, kinds, strict=True)):
            if kind == HUMAN:
                seats.append(Seat(name, kind, token=secrets.token_urlsafe(18)))
            else:
                seats.append(Seat(name, kind, agent=make(kind, derive_seed(seed, 0, p + 1), b)))
        return cls(cs=cs, opening=opening, state=state, seats=seats, seed=seed, warnings=warnings)

    @property
    def host(self) -> Seat:
        return self.seats[0]

    def seat_of(self, token: str) -> int | None:
        """The seat a token opens (compared in constant time), or None."""
        found = None
        for p, seat in enumerate(self.seats):
            if seat.token and secrets.compare_digest(seat.token.encode(), token.encode("utf-8", "replace")):
                found = p
        return found

    @property
    def lang(self) -> str:
        """The language the table speaks: its deck's."""
        return self.cs.language

    @property
    def version(self) -> int:
        return len(self.state.log or ())

    @property
    def over(self) -> bool:
        return self.state.result is not None

    # --- moves ------------------------------------------------------------------------------------------

    def play(self, seat: int, payload: object) -> None:
        """Apply the move a person's page sent for `seat`, or raise MoveRefused leaving the game unchanged."""
        d = parse_decision(payload)
        s = self.state
        if s.result is not None:
            raise MoveRefused(say(self.lang, "refused.over"))
        if d.version != self.version:
            raise MoveRefused(say(self.lang, "refused.stale"))
        if s.to_act != seat:
            raise MoveRefused(say(self.lang, "refused.not_yours", who=s.game.names[s.to_act],
                                  seat=s.game.names[seat]), 403)
        move = Move(d.kind, d.card, d.target, d.choice)
        if move not in s.moves:
            raise MoveRefused(say(self.lang, "refused.illegal"), 400)
        push(s, move)

    def bot_to_act(self) -> int | None:
        """The seat of the bot whose decision it is, or None (a person decides, or the game is over)."""
        s = self.state
        if s.result is None and self.seats[s.to_act].bot:
            return s.to_act
        return None

    def bot_choose(self, seat: int) -> Move:
        """What the bot at `seat` plays now: its own choice if it is legal, else a random legal move (logged)."""
        agent = self.seats[seat].agent
        assert agent is not None
        view = observe(self.state, seat)
        try:
            move = agent.choose(view)
            if move in self.state.moves:
                return move
            said = say(self.lang, "note.bot_illegal", who=self.seats[seat].name, move=f"{move!r:.60}")
        except Exception as exc:
            said = say(self.lang, "note.bot_failed", who=self.seats[seat].name,
                       error=f"{type(exc).__name__}: {str(exc)[:80]}")
        self.notes.append((self.version, said))
        return RandomAgent(derive_seed(self.seed, self.version, seat)).choose(view)

    def bot_play(self, seat: int, move: Move) -> None:
        s = self.state
        if s.result is None and s.to_act == seat and move in s.moves:
            push(s, move)

    # --- what a seat sees -------------------------------------------------------------------------------

    def lines(self) -> list[LogLine]:
        if self._lines[0] != self.version:
            lines = log_lines(self.state.game, self.state.log or [], lang=self.lang)
            self._lines = (self.version, lines)
        return self._lines[1]

    def view(self, seat: int) -> dict[str, object]:
        """Everything seat `seat` may know, as JSON-ready data: its `PlayerView` and the words for it."""
        v = observe(self.state, seat)
        g = v.game
        info = g.info
        r = v.result
        moves = v.moves
        lang = self.lang
        players = []
        for p, name in enumerate(g.names):
            players.append({
                "name": name, "kind": self.seats[p].kind, "life": v.life[p], "cards": v.hand_sizes[p],
                "down": v.down[p], "stomped": v.stomped[p], "stunned": not v.down[p] and v.stunned(p),
                "vomiting": not v.down[p] and v.vomiting(p),
                "holding": [g.names[h.victim] for h in v.holds if h.holder == p],
                "held_by": [g.names[h.holder] for h in v.holds if h.victim == p],
            })
        pending = in_flight(g, v.steps, lang)
        if r is not None:
            why = reason(lang, r.reason)
            said = (say(lang, "status.wins", winner=g.names[r.winner], reason=why) if r.winner is not None else
                    say(lang, "status.nobody_wins", reason=why))
        else:
            who = self.seats[v.to_act]
            said = (say(lang, "status.yours") if v.to_act == seat else
                    say(lang, "status.waiting_bot", who=who.name, kind=who.kind) if who.bot else
                    say(lang, "status.waiting", who=who.name))
            if pending:
                said = say(lang, "status.asked", pending=pending[-1], then=said)
        notes = [text for _, text in self.notes]
        return {
            "version": self.version, "seat": seat, "title": self.cs.title, "turn": v.turn, "turn_cap": g.turn_cap,
            "life_word": self.cs.rules.life_word, "start_life": g.start_life, "current": v.current, "to_act": v.to_act,
            "players": players,
            "hand": [{"card": d, "name": info[d].name} for d in v.hand],
            "discard": [{"card": d, "name": info[d].name} for d in v.discard[-3:]], "discard_size": len(v.discard),
            "table": [{"card": d, "name": info[d].name} for d in v.table], "draw_size": v.draw_size, "pool": v.pool,
            "pending": pending, "said": said,
            "moves": [{"kind": str(m.kind), "card": m.card, "target": m.target, "choice": str(m.choice),
                       "label": move_label(g, seat, m, v.step, lang)} for m in moves],
            "log": [{"turn": ln.turn, "text": ln.text} for ln in self.lines()[-60:]], "notes": notes[-5:],
            "over": r is not None,
            "winner": None if r is None or r.winner is None else g.names[r.winner],
            "can_save": seat == 0 or r is not None,
        }

    def save(self, seat: int) -> str:
        """The game so far as a scenario file. It names every hand, so only the seat that started the table
        may save before the end; anyone may once the game is over."""
        return self.save_job(seat)()

    def save_job(self, seat: int) -> Callable[[], str]:
        """`save`, on a copy of the game taken now: the returned call may run in another thread while moves
        are made here (MoveRefused at once if this seat may not save yet)."""
        if seat != 0 and self.state.result is None:
            raise MoveRefused(say(self.lang, "refused.save_early"), 403)
        opening, cs, state = self.opening, self.cs, self.state.copy()
        return lambda: verified_scenario(opening, cs, state)

    def save_name(self) -> str:
        stem = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in self.cs.name)
        return f"{stem}-seed{self.seed}-turn{self.state.turn}-move{self.version}.yaml"
