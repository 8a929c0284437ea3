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

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from cardgen.checks import load_set_with_warnings
from cardgen.checks.language import in_language
from cardgen.engine import moves as mv
from cardgen.engine.agents import RandomAgent
from cardgen.engine.move_codec import MoveFormatError, from_wire, number
from cardgen.engine.moves import Move
from cardgen.engine.replay import Replay
from cardgen.engine.state import GameState
from cardgen.engine.views import Agent, observe
from cardgen.errors import CardgenError, Diagnostic
from cardgen.loader import mix_sets, resolve_set
from cardgen.loader.load import is_path_like
from cardgen.loader.scenario import load_scenario
from cardgen.model import CardSet
from cardgen.paths import card_data_dir
from cardgen.play.save import Opening, deal, start_state, verified_scenario
from cardgen.play.seat_view import seat_view
from cardgen.play.wording import LogLine, log_lines, say
from cardgen.scenario_spec import ScenarioError, changed_since
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


class ResumeError(CardgenError):
    """A file `play --resume` cannot continue."""


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
    game: int  # -1: not said (a page always says it)


def parse_decision(payload: object, lang: str = "en") -> Decision:
    """A page's JSON move ({kind, card, target, choice, version, game}) as a Decision, or MoveRefused (400) with
    the reason in `lang`."""
    if not isinstance(payload, dict):
        raise MoveRefused(say(lang, "refused.not_json"), 400)
    try:
        m = from_wire(payload, also=frozenset({"version", "game"}))
        version, game = number(payload, "version"), number(payload, "game")
    except MoveFormatError as exc:
        raise MoveRefused(say(lang, f"refused.{exc.reason}", **exc.fields), 400) from None
    return Decision(m.kind, m.card, m.target, m.choice, version, game)


def scenario_set_ref(ref: str) -> str:
    """A `--set` value as a saved scenario names it: a bundled set by its name, a set folder by its absolute
    path, even one named bare (`--set mine` for ./mine): a saved file is replayed from anywhere."""
    folder = resolve_set(ref)
    if folder.resolve().parent == card_data_dir().resolve() and not is_path_like(ref):
        return ref
    return str(folder.resolve())


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
    game: int = 1  # which game at this table (a rematch or a new deal starts the next)
    budget: Budget = field(default_factory=lambda: parse_budget(DEFAULT_BUDGET))
    agent_factory: AgentFactory | None = None
    sets: tuple[str, ...] = ()  # the sets the server was started with, as `--set` takes them (the lobby's offer)
    chosen_sets: tuple[str, ...] = ()  # this table's sets among them
    number: int = 1  # which table since the server started (the lobby starts the next)
    _lines: tuple[tuple[int, int], list[LogLine]] = ((0, -1), [])

    # --- set-up -----------------------------------------------------------------------------------------

    @classmethod
    def open(cls, sets: Sequence[str], players: int = 2, bots: str | None = None, seed: int = 0,
             budget: str | Budget | None = None, names: str | None = None,
             agent_factory: AgentFactory | None = None, lang: str | None = None,
             offered: Sequence[str] = ()) -> Table:
        """Load `sets` (in `lang`, else in their own language), deal with `seed`, seat a person at seat 1 and
        `bots` (or friends) at the others. `offered`: the sets the lobby offers (default: `sets`)."""
        kinds = seat_kinds(players, bots)
        seat_list = seat_names(players, names)
        warnings: list[Diagnostic] = []
        deck = load_deck(sets, lang, warnings)
        if deck.rules.hand_size * players > deck.total:
            raise SeatError(f"{deck.name} has {deck.total} cards, too few to deal {players} hands of "
                            f"{deck.rules.hand_size}")
        refs = tuple(scenario_set_ref(r) for r in sets)
        opening = deal(deck, refs, seat_list, seed)
        state = start_state(opening, deck)
        cs = deck
        b = budget if isinstance(budget, Budget) else parse_budget(budget or DEFAULT_BUDGET)
        seats = [Seat(name, kind, token=secrets.token_urlsafe(18) if kind == HUMAN else "")
                 for name, kind in zip(seat_list, kinds, strict=True)]
        table = cls(cs=cs, opening=opening, state=state, seats=seats, seed=seed, warnings=warnings, budget=b,
                    agent_factory=agent_factory, sets=tuple(offered) or refs, chosen_sets=refs)
        table.seat_bots()
        return table

    @classmethod
    def resume(cls, path: Path, bots: str | None = None, budget: str | Budget | None = None,
               agent_factory: AgentFactory | None = None, lang: str | None = None) -> Table:
        """The game saved in `path` (a save of `cardgen play`), replayed to its last move and seated again: the
        first player is the person who resumes it, `bots` the others. A set changed since is said (warnings),
        and a save that no longer replays is refused with its file and line."""
        spec = load_scenario(path)
        warnings = changed_since(spec)
        if spec.discard or spec.first != 0 or any(
                seat.life != spec.cs.rules.life or seat.stunned or seat.down for seat in spec.seats):
            raise ResumeError(f"{path}: only a game saved by `cardgen play` can be resumed (this scenario starts "
                              "from a table set by hand)")
        game = Replay(spec)
        unmet = game.run()
        if unmet:
            raise ScenarioError([*warnings, *unmet])
        names = list(spec.names)
        kinds = seat_kinds(len(names), bots)
        refs = [str((path.parent / r).resolve()) if is_path_like(r) else r for r in spec.sets]
        deck = load_deck(refs, lang, warnings) if lang is not None else spec.cs
        opening = Opening(sets=spec.sets, names=tuple(names), hands=tuple(seat.hand for seat in spec.seats),
                          draw=spec.draw, seed=spec.seed, turn_cap=game.state.game.turn_cap,
                          deck_shuffled=spec.deck_shuffled)
        b = budget if isinstance(budget, Budget) else parse_budget(budget or DEFAULT_BUDGET)
        seats = [Seat(name, kind, token=secrets.token_urlsafe(18) if kind == HUMAN else "")
                 for name, kind in zip(names, kinds, strict=True)]
        table = cls(cs=deck, opening=opening, state=game.state, seats=seats, seed=spec.seed, warnings=warnings,
                    budget=b, agent_factory=agent_factory, sets=tuple(refs), chosen_sets=tuple(refs))
        table.seat_bots()
        return table

    def seat_bots(self) -> None:
        """A fresh bot in every bot seat, seeded by the game's seed and the seat (the same deal, the same bots)."""
        make = self.agent_factory or make_agent
        for p, seat in enumerate(self.seats):
            if seat.bot:
                seat.agent = make(seat.kind, derive_seed(self.seed, 0, p + 1), self.budget)

    def restart(self, again: bool) -> None:
        """The next game at this table, with the same seats and links: the same deal again (`again`: a
        rematch), or a new one."""
        seed = self.seed if again else derive_seed(self.seed, self.game, 0) % 1_000_000
        opening = self.opening if again else deal(self.cs, self.opening.sets, self.opening.names, seed)
        self.state = start_state(opening, self.cs)
        self.opening, self.seed = opening, seed
        self.game += 1
        self.notes.clear()
        self.seat_bots()

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
    def stamp(self) -> tuple[int, int]:
        """Which game and how far: what a page has in front of it."""
        return self.game, self.version

    @property
    def over(self) -> bool:
        return self.state.result is not None

    # --- moves ------------------------------------------------------------------------------------------

    def play(self, seat: int, payload: object) -> None:
        """Apply the move a person's page sent for `seat`, or raise MoveRefused leaving the game unchanged."""
        d = parse_decision(payload, self.lang)
        s = self.state
        if s.result is not None:
            raise MoveRefused(say(self.lang, "refused.over"))
        if d.version != self.version or d.game not in (-1, self.game):
            raise MoveRefused(say(self.lang, "refused.stale"))
        if s.to_act != seat:
            raise MoveRefused(say(self.lang, "refused.not_yours", who=s.game.names[s.to_act],
                                  seat=s.game.names[seat]), 403)
        move = Move(d.kind, d.card, d.target, d.choice)
        if move not in s.moves:
            raise MoveRefused(say(self.lang, "refused.illegal"), 400)
        s.push(move)

    def next_game(self, seat: int, payload: object) -> None:
        """The next game, as the host's end screen asks it ({"what": "rematch" | "deal", "version": N})."""
        if not isinstance(payload, dict) or set(payload) - {"what", "version", "game"}:
            raise MoveRefused(say(self.lang, "refused.not_json"), 400)
        what = payload.get("what")
        if what not in ("rematch", "deal"):
            raise MoveRefused(say(self.lang, "refused.next_what"), 400)
        if seat != 0:
            raise MoveRefused(say(self.lang, "refused.next_host"), 403)
        if self.state.result is None:
            raise MoveRefused(say(self.lang, "refused.next_early"), 409)
        if payload.get("version") != self.version or payload.get("game", self.game) != self.game:
            raise MoveRefused(say(self.lang, "refused.stale"))
        self.restart(again=what == "rematch")

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
            s.push(move)

    # --- what a seat sees -------------------------------------------------------------------------------

    def lines(self) -> list[LogLine]:
        if self._lines[0] != self.stamp:
            lines = log_lines(self.state.game, self.state.log or [], lang=self.lang)
            self._lines = (self.stamp, lines)
        return self._lines[1]

    def view(self, seat: int) -> dict[str, object]:
        """Everything seat `seat` may know, as JSON-ready data (`seat_view.SeatView`)."""
        data = seat_view(observe(self.state, seat), self.version, self.cs.title, self.cs.rules.life_word,
                         [p.kind for p in self.seats], self.lines(), [text for _, text in self.notes],
                         self.lang).data()
        data["game"] = self.game
        data["table_no"] = self.number
        data["lang"] = self.lang
        data["can_restart"] = seat == 0
        return data

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
