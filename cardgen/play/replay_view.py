"""A saved game (any scenario) as the frames the replay viewer steps through: the table after each decision.

The scenario is played by the scenario runner itself (`Replay.run`), one engine move at a time; after each
move the whole table is recorded (every hand, since a saved file names them all anyway), with who decided
what in the table's words and how far the log had got. The page (`static/replay.html`) shows one frame at a
time, from one seat's view or with every hand open, and the log up to that frame beside it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from cardgen.engine.moves import Move
from cardgen.engine.observation import Pending
from cardgen.engine.replay import Replay
from cardgen.engine.state import GameState
from cardgen.engine.views import observe
from cardgen.errors import CardgenError
from cardgen.model import CardSet
from cardgen.play.wording import in_flight, log_lines, move_label, reason, say
from cardgen.scenario_spec import ScenarioSpec


@dataclass(frozen=True)
class SeatAt:
    name: str
    life: int
    hand: list[int]
    down: bool
    stomped: bool
    stunned: bool
    vomiting: bool


@dataclass(frozen=True)
class Frame:
    """The table after `step` decisions."""

    step: int
    turn: int
    to_act: int  # -1: the game is over
    players: list[SeatAt]
    discard_top: int  # -1: an empty pile
    discard_size: int
    draw_size: int
    pool: int
    pending: list[str]
    decided: str  # the decision that led here ("Ann: Play on Bob"; "" before the first)
    choices: int  # how many legal moves the one deciding next has
    lines: int  # log lines up to here (the last as `last`)
    last: str
    said: str  # the game's end, once over


@dataclass(frozen=True)
class ReplayData:
    title: str
    names: list[str]
    life_word: str
    frames: list[Frame]
    log: list[str]  # the whole game's log lines (a frame shows its first `lines`, the last as its `last`)
    cards: dict[int, str]  # design -> name, of every card that appears
    error: str  # where the replay stopped early ("" if it played to the end)

    def data(self) -> dict[str, object]:
        return asdict(self)


def _frame(s: GameState, step: int, decided: str, lang: str) -> Frame:
    g = s.game
    lines = log_lines(g, s.log or [], lang=lang)
    over = s.result is not None
    said = ""
    if s.result is not None:
        why = reason(lang, s.result.reason)
        said = (say(lang, "status.wins", winner=g.names[s.result.winner], reason=why)
                if s.result.winner is not None else say(lang, "status.nobody_wins", reason=why))
    v = observe(s, s.to_act)
    return Frame(
        step=step, turn=s.turn, to_act=-1 if over else s.to_act,
        players=[SeatAt(n, s.life[p], list(s.hands[p]), s.down[p], s.stomped[p],
                        not s.down[p] and s.stunned(p), not s.down[p] and s.vomiting(p))
                 for p, n in enumerate(g.names)],
        discard_top=s.discard[-1] if s.discard else -1, discard_size=len(s.discard), draw_size=len(s.draw),
        pool=s.pool, pending=[] if over else in_flight(g, v.steps, lang), decided=decided,
        choices=0 if over else len(s.moves), lines=len(lines), last=lines[-1].text if lines else "", said=said)


class _Recorder:
    """A scenario runner hook that records the table after every engine move."""

    def __init__(self, lang: str, first: GameState) -> None:
        self.lang = lang
        self.frames = [_frame(first, 0, "", lang)]
        self._who = -1
        self._step: Pending | None = None

    def before(self, s: GameState) -> None:
        self._who = s.to_act
        self._step = observe(s, s.to_act).step

    def after(self, s: GameState, move: Move) -> list[str]:
        label = move_label(s.game, self._who, move, self._step, self.lang)
        self.frames.append(_frame(s, len(self.frames), f"{s.game.names[self._who]}: {label}", self.lang))
        return []


def replay_data(spec: ScenarioSpec, lang: str, shown: CardSet | None = None) -> ReplayData:
    """Every frame of `spec`'s game, said in `lang`, its deck's words from `shown` (the deck in `lang`; default:
    the scenario's own); a move that does not replay ends it early (`error`)."""
    game = Replay(spec)
    rec = _Recorder(lang, game.state)
    error = ""
    try:
        game.run(rec)
    except CardgenError as exc:
        error = str(exc)
    s = game.state
    cards = {d: s.game.info[d].name for d in range(len(s.game.info))}
    deck = shown or spec.cs
    return ReplayData(title=spec.title or deck.title, names=list(s.game.names), life_word=deck.rules.life_word,
                      frames=rec.frames, log=[ln.text for ln in log_lines(s.game, s.log or [], lang=lang)],
                      cards=cards, error=error)
