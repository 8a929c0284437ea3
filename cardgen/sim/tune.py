"""A suggested fix: the smallest change of a flagged card's numbers that the balance procedure confirms.

For a card the balance procedure (`cardgen.sim.balance`) calls too strong or too weak against a base set (or,
with no base, against the rest of its deck), `tune` tries edits of the card's own numbers (`tune_numbers`:
every integer of its design), smallest first, each judged by the same procedure on the same paired games as
the verdict itself, at the table sizes where the card was flagged:

1. one number at a time, every number at 1 step, then at 2, ...; against a base, a number never goes past the
   base card's value (where the designer started) in the fixing direction;
2. each fix found is confirmed at once by the default procedure (every table size, the default game budget, on
   the same paired games); the first that the confirmation confirms is the suggestion, and since the edits
   come smallest first it is the smallest confirmed fix. A number is dropped when it overshoots (the card is
   then called the other way, by the search or the confirmation) or reaches its bounds; a fix the confirmation
   does not confirm leaves its number to be tried a step further;
3. what moves the card: each number's effect on the card's figure per step, from its one-step candidate, so
   the words name the mechanic that drives it;
4. if no single number's fix is confirmed, two numbers at once, fewest steps in all first, confirmed the same
   way.

The search stops after `max_candidates` candidates; every candidate plays until its verdict is clear or at
`max_games` per table size, so the whole search depends on the files and the seed only.
"""

from __future__ import annotations

import dataclasses
import itertools
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from cardgen.errors import CardgenError
from cardgen.model import Card, CardSet
from cardgen.sim import balance_defaults as defaults
from cardgen.sim.balance import (
    BalanceConfig,
    BalanceResult,
    Memo,
    Verdict,
    assess_set,
    card_changes,
    compare_versions,
)
from cardgen.sim.tune_numbers import NUMBERS, Direction, Edit, family, numbers_of, past, step
from cardgen.suggest import did_you_mean

Status = Literal["fixed", "likely fixed", "unclear", "still", "overshoot"]
# Tried by default: every number but copies. A card's figure is the win rate of players who start with it, which
# does not depend on how many copies there are: fewer copies make a strong card rarer, not weaker.
DEFAULT_NUMBERS: tuple[str, ...] = tuple(n for n in NUMBERS if n != "copies")
MAX_STEPS = 6  # the largest edit of one number tried
MAX_CANDIDATES = 40  # candidates tried per card at most
MAX_CONFIRMATIONS = 6  # fixes played by the default procedure at most, smallest first
TUNE_MAX_GAMES = 4000  # per table size and candidate
CLEARED = ("no change that matters", "within the band")
TOO_STRONG = ("stronger", "too strong")
TOO_WEAK = ("weaker", "too weak", "never played")
FIXES: tuple[str, ...] = ("fixed", "likely fixed")


class TuneError(CardgenError):
    """A card that cannot be tuned: unknown, not flagged, or with no number to change."""


def candidate_edits(card: Card, direction: Direction, max_steps: int = MAX_STEPS,
                    allowed: tuple[str, ...] = DEFAULT_NUMBERS,
                    start: dict[str, tuple[int, ...]] | None = None) -> list[Edit]:
    """Every edit of one of `card`'s `allowed` numbers up to `max_steps` steps, smallest first (then in NUMBERS
    order); `start`: the base card's numbers, which no edit goes past in the fixing direction."""
    numbers = numbers_of(card)
    order = sorted(numbers, key=lambda n: NUMBERS.index(family(n)))  # NUMBERS order, a card's effects in theirs
    out: list[Edit] = []
    for steps in range(1, max_steps + 1):
        for number in order:
            if family(number) not in allowed:
                continue
            after = step(card, number, numbers[number], steps, direction)
            if after is None or (start is not None and number in start
                                 and past(card, number, after, start[number], direction)):
                continue
            out.append(Edit(card.name, number, numbers[number], after, steps))
    return out


def pair_edits(singles: list[Edit], max_steps: int) -> Iterator[Edit]:
    """Two numbers at once from the one-number edits, fewest steps in all first."""
    by_number: dict[str, list[Edit]] = {}
    for e in singles:
        by_number.setdefault(e.number, []).append(e)
    for total in range(2, max_steps + 1):
        for n1, n2 in itertools.combinations(by_number, 2):
            for e1 in by_number[n1]:
                for e2 in by_number[n2]:
                    if e1.steps + e2.steps == total:
                        yield dataclasses.replace(e1, more=(e2,))


def edited_set(cs: CardSet, edit: Edit) -> CardSet:
    """`cs` with `edit` made to its card (the deck size follows a change of copies)."""
    cards = tuple(edit.apply(c) if c.name == edit.card else c for c in cs.cards)
    total = sum(c.count for c in cards)
    return dataclasses.replace(cs, cards=cards, deck_size=total)


@dataclass(frozen=True)
class TuneConfig:
    """The balance procedure's settings for each candidate (its `games`, if set, plays exactly that many games per
    table size; else each candidate stops when its verdict is clear or at `max_games`), and the search's own."""

    balance: BalanceConfig = field(default_factory=lambda: BalanceConfig(max_games=TUNE_MAX_GAMES))
    max_candidates: int = MAX_CANDIDATES
    max_steps: int = MAX_STEPS
    numbers: tuple[str, ...] = DEFAULT_NUMBERS
    confirm_max_games: int = defaults.MAX_GAMES  # the confirmation's game budget: the default procedure's


@dataclass(frozen=True)
class Trial:
    """One candidate and what the balance procedure said of the card with it, per table size."""

    edit: Edit | None  # None: the designer's set as it is
    status: Status
    verdicts: tuple[Verdict, ...]
    seconds: float


@dataclass(frozen=True)
class TuneResult:
    card: str
    base: str | None
    direction: Direction
    problem: Trial  # the card as the designer made it
    trials: tuple[Trial, ...]
    fixes: tuple[Trial, ...]  # the fixes the search found, smallest first
    stopped: Literal["done", "candidates"]
    seconds: float
    min_effect: float
    effects: dict[str, float] = field(default_factory=dict)  # number -> points a step (its one-step candidate)
    confirmations: tuple[Trial, ...] = ()  # fixes played by the default procedure at every table size, in turn

    @property
    def confirmed(self) -> Trial | None:
        """The first confirmation that confirms its fix, else the last one tried (None: no fix to confirm)."""
        good = [t for t in self.confirmations if t.status in FIXES]
        return good[0] if good else (self.confirmations[-1] if self.confirmations else None)

    @property
    def fix(self) -> Trial | None:
        """The suggestion: the search's trial of the fix its confirmation confirms."""
        c = self.confirmed
        if c is None or c.status not in FIXES:
            return None
        return next(t for t in self.fixes if t.edit == c.edit)


def _card_verdicts(result: BalanceResult, card: str) -> tuple[Verdict, ...]:
    return tuple(v for t in result.tables for v in t.verdicts if v.card == card)


def status_of(verdicts: tuple[Verdict, ...], direction: Direction, min_effect: float) -> Status:
    """What a candidate's verdicts say: still called the wrong way, called the other way (overshoot), cleared
    everywhere (fixed), called nowhere with every estimate within the minimum effect (likely fixed), or called
    nowhere but not clear (unclear)."""
    wrong = TOO_STRONG if direction == "weaken" else TOO_WEAK
    other = TOO_WEAK if direction == "weaken" else TOO_STRONG
    if any(v.call in wrong for v in verdicts):
        return "still"
    if any(v.call in other for v in verdicts):
        return "overshoot"
    if verdicts and all(v.call in CLEARED or v.call == "not tested" for v in verdicts):
        return "fixed"
    near = all(v.call in CLEARED or v.call == "not tested" or (v.change is not None and abs(v.change) < min_effect)
               for v in verdicts)
    return "likely fixed" if near else "unclear"


def direction_of(verdicts: tuple[Verdict, ...]) -> Direction | None:
    """`weaken` for a card called too strong (or stronger) at some table size, `strengthen` for too weak."""
    if any(v.call in TOO_STRONG for v in verdicts):
        return "weaken"
    if any(v.call in TOO_WEAK for v in verdicts):
        return "strengthen"
    return None


def verdicts_of(base: CardSet | None, cs: CardSet, bal: BalanceConfig,
                progress: Callable[[int], None] | None = None, memo: Memo | None = None) -> BalanceResult:
    """The balance procedure's verdicts on `cs`: against `base`, or with no base against the rest of its deck.
    `memo`: games already played (`compare_versions`), the base's shared by every candidate."""
    return assess_set(cs, bal, progress) if base is None else compare_versions(base, cs, bal, progress, memo)


def flagged_cards(result: BalanceResult) -> list[str]:
    """The cards `result` calls too strong or too weak (the designer's changes, or with no base every card), not
    marked intended: what `cardgen tune` tunes when no card is named."""
    return list(dict.fromkeys(v.card for v in result.flagged() if v.card not in result.intended))


def tunable(cs: CardSet, card: str, numbers: tuple[str, ...]) -> Card:
    """The card of `cs` named `card` (any case) when it has one of `numbers`; TuneError saying why not, so the
    command refuses a misspelt name before any game is played."""
    target = next((c for c in cs.cards if c.name.casefold() == card.casefold()), None)
    if target is None:
        raise TuneError(f"set {cs.name} has no card '{card}'{did_you_mean(card, [c.name for c in cs.cards])}")
    if not any(family(n) in numbers for n in numbers_of(target)):
        raise TuneError(f"{target.name} has none of the numbers tune may change ({', '.join(numbers)})")
    return target


def back_to_base(base: CardSet, cs: CardSet, card: str) -> bool:
    """Whether `card` in `cs` plays exactly as in `base` (the designer's edit undone): judged by the design
    diff the balance procedure uses, so no games are needed."""
    return any(c.name == card and c.kind == "unchanged" for c in card_changes(base, cs))


def _effects(problem: tuple[Verdict, ...], trials: list[Trial], sizes: tuple[int, ...]) -> dict[str, float]:
    """Each number's change of the card's figure per step at the first flagged table size, from its one-step
    candidate, largest first: what drives the card."""
    before = {v.players: v.change for v in problem}
    size = sizes[0]
    out: dict[str, float] = {}
    for t in trials:
        if t.edit is None or t.edit.more or t.edit.steps != 1:
            continue
        v = next((x for x in t.verdicts if x.players == size), None)
        if v is not None and v.change is not None and before.get(size) is not None:
            out[t.edit.number] = round(v.change - (before[size] or 0.0), 2)
    return dict(sorted(out.items(), key=lambda kv: -abs(kv[1])))


@dataclass
class _Search:
    """One card's search: the candidates played so far and the games they share."""

    base: CardSet | None
    cs: CardSet
    card: Card
    cfg: TuneConfig
    direction: Direction
    flagged: tuple[int, ...]
    progress: Callable[[int], None] | None
    trying: Callable[[str], None] | None
    trials: list[Trial] = field(default_factory=list)
    confirmations: list[Trial] = field(default_factory=list)
    base_games: dict[tuple[int, int], Any] = field(default_factory=dict)  # every candidate plays these base games
    played: dict[str, dict[tuple[int, int], Any]] = field(default_factory=dict)  # each candidate's own games

    def _say(self, what: str) -> None:
        if self.trying is not None:
            self.trying(what)

    def judge(self, edit: Edit, tables: tuple[int, ...], bal: BalanceConfig) -> Trial:
        s0 = time.perf_counter()
        edited = edited_set(self.cs, edit)
        if self.base is not None and back_to_base(self.base, edited, self.card.name):
            return Trial(edit, "fixed", (), 0.0)  # the base card itself: nothing to play, nothing to call
        result = verdicts_of(self.base, edited, dataclasses.replace(bal, tables=tables),
                             self.progress, (self.base_games, self.played.setdefault(str(edit), {})))
        got = _card_verdicts(result, self.card.name)
        return Trial(edit, status_of(got, self.direction, self.cfg.balance.min_effect), got,
                     round(time.perf_counter() - s0, 3))

    def full(self) -> bool:
        return len(self.trials) >= self.cfg.max_candidates

    def try_edits(self, edits: list[Edit] | Iterator[Edit]) -> list[Trial]:
        """Play the edits in turn, confirming each fix at once, until one is confirmed; the fixes found. A number
        is dropped once it overshoots; a fix that is not confirmed leaves its number to go a step further."""
        closed: set[tuple[str, ...]] = set()
        fixes: list[Trial] = []
        for edit in edits:
            if edit.numbers in closed or self.full() or self.found() or self.spent():
                continue
            self._say(str(edit))
            trial = self.judge(edit, self.flagged, self.cfg.balance)
            self.trials.append(trial)
            if trial.status in FIXES:
                fixes.append(trial)
                if self.confirm(trial) == "overshoot":
                    closed.add(edit.numbers)
            elif trial.status == "overshoot":
                closed.add(edit.numbers)
        return fixes

    def found(self) -> bool:
        return any(t.status in FIXES for t in self.confirmations)

    def spent(self) -> bool:
        return len(self.confirmations) >= MAX_CONFIRMATIONS

    def confirm(self, fix: Trial) -> Status:
        """Play a fix by the default procedure (every table size, its game budget, going on from the search's
        games for that candidate); what the confirmation says."""
        assert fix.edit is not None
        full = dataclasses.replace(self.cfg.balance, max_games=max(self.cfg.balance.max_games,
                                                                    self.cfg.confirm_max_games))
        self._say(f"{fix.edit}, confirmed at {', '.join(map(str, full.tables))} players")
        trial = self.judge(fix.edit, full.tables, full)
        self.confirmations.append(trial)
        return trial.status


def tune(base: CardSet | None, cs: CardSet, card: str, cfg: TuneConfig = TuneConfig(),
         progress: Callable[[int], None] | None = None, trying: Callable[[str], None] | None = None,
         problem: BalanceResult | None = None) -> TuneResult:
    """Find the smallest edit of `card`'s numbers in `cs` that the default procedure confirms brings it back
    inside the band (against `base`, or against the rest of its deck when `base` is None). `problem` is the
    verdict on `cs` as it is, if already played. `progress(n)` after every n games; `trying(what)` as each
    candidate starts."""
    t0 = time.perf_counter()
    target = tunable(cs, card, cfg.numbers)
    if problem is None:
        if trying is not None:
            trying(f"{target.name} as it is")
        problem = verdicts_of(base, cs, cfg.balance, progress)
    verdicts = _card_verdicts(problem, target.name)
    direction = direction_of(verdicts)
    if direction is None:
        calls = ", ".join(f"{v.call} at {v.players} players" for v in verdicts) or "not tested"
        raise TuneError(f"{target.name} is not too strong or too weak ({calls}): nothing to tune")
    wrong = TOO_STRONG if direction == "weaken" else TOO_WEAK
    flagged = tuple(v.players for v in verdicts if v.call in wrong)
    start = None
    if base is not None:
        before = next((c for c in base.cards if c.name.casefold() == target.name.casefold()), None)
        start = numbers_of(before) if before is not None else None
    search = _Search(base, cs, target, cfg, direction, flagged, progress, trying)
    singles = candidate_edits(target, direction, cfg.max_steps, cfg.numbers, start)
    if not singles:
        raise TuneError(f"{target.name}: no number can move the way that fixes it (within --max-steps, and not "
                        f"past {base.name if base is not None else 'the base'}'s values, where the design started)")
    fixes = search.try_edits(singles)
    if not search.found():
        fixes += search.try_edits(pair_edits(singles, cfg.max_steps))
    ordered = sorted(fixes, key=lambda t: (t.edit.size if t.edit else 0, t.status != "fixed"))
    return TuneResult(target.name, None if base is None else base.name, direction,
                      Trial(None, "still", verdicts, problem.seconds), tuple(search.trials), tuple(ordered),
                      "candidates" if search.full() else "done", round(time.perf_counter() - t0, 3),
                      cfg.balance.min_effect, _effects(verdicts, search.trials, flagged),
                      tuple(search.confirmations))


# --- words and JSON -------------------------------------------------------------------------------------------


def _figure(v: Verdict) -> str:
    if v.change is None or v.low is None or v.high is None:
        return f"{v.players} players: {v.call}"
    return f"{v.players} players {v.change:+.1f} [{v.low:+.1f}, {v.high:+.1f}] ({v.call}, {v.games} games)"


CONFIRM_WORDS: dict[str, str] = {
    "fixed": "confirmed: inside the band at every table size",
    "likely fixed": "confirmed: called at no table size, every estimate within the minimum effect",
    "unclear": "not confirmed: called at no table size, but an estimate is still past the minimum effect",
    "still": "not confirmed: still out of the band", "overshoot": "not confirmed: it overshoots"}


BACK_TO_BASE = "the base card's own design again (the designer's edit undone: no games needed)"


def _distance(t: Trial) -> float:
    """How far a confirmation left the card from where it should be: its largest estimate, in points."""
    return max((abs(v.change) for v in t.verdicts if v.change is not None), default=float("inf"))


def tune_lines(res: TuneResult) -> list[str]:
    """The terminal summary: the problem, what drives the card, each candidate tried, and the confirmed fix."""
    against = f"against {res.base}" if res.base is not None else "against the rest of the deck"
    goal = "weaker" if res.direction == "weaken" else "stronger"
    lines = [f"{res.card} ({against}, points of win rate for players who start with it): "
             + "; ".join(_figure(v) for v in res.problem.verdicts)]
    if res.effects:
        lines.append("  what moves it (one step, at the first flagged table size): " + ", ".join(
            f"{n} {x:+.1f} points" for n, x in res.effects.items())
            + f"; {next(iter(res.effects))} drives it most")
    lines.append(f"  trying to make it {goal}:")
    for t in res.trials:
        lines.append(f"    {t.edit}: {t.status}: " + ("; ".join(_figure(v) for v in t.verdicts) or BACK_TO_BASE))
    for c in res.confirmations:
        lines.append(f"    {c.edit}, by the default procedure at every table size: {CONFIRM_WORDS[c.status]}: "
                     + ("; ".join(_figure(v) for v in c.verdicts) or BACK_TO_BASE))
    fix = res.fix
    if fix is not None:
        lines.append(f"  suggested fix: {fix.edit} (confirmed by the default procedure on the same games)")
    elif res.confirmations:
        near = min(res.confirmations, key=_distance)
        lines.append(f"  no confirmed fix: {near.edit} came closest ({CONFIRM_WORDS[near.status]})")
    else:
        why = (f"the {len(res.trials)} candidates allowed were tried" if res.stopped == "candidates" else
               "no edit of its numbers, within the steps tried, brings it inside")
        lines.append(f"  no fix found ({why})")
    if res.stopped == "candidates":
        lines.append("  (the candidates allowed ran out before every number was tried: --max-candidates gives more)")
    lines.append(f"  ({len(res.trials)} candidates, {len(res.confirmations)} confirmations)")
    return lines


def _verdict_json(v: Verdict) -> dict[str, Any]:
    return {"players": v.players, "call": v.call, "change": v.change, "low": v.low, "high": v.high,
            "games": v.games, "reference": v.reference}


def _trial_json(t: Trial) -> dict[str, Any]:
    edit = None if t.edit is None else {
        "number": t.edit.number, "before": list(t.edit.before), "after": list(t.edit.after), "steps": t.edit.size,
        "text": str(t.edit), "parts": [{"number": e.number, "before": list(e.before), "after": list(e.after),
                                        "steps": e.steps} for e in t.edit.parts()]}
    return {"edit": edit, "status": t.status, "verdicts": [_verdict_json(v) for v in t.verdicts],
            "seconds": t.seconds}


def tune_json(results: list[TuneResult], cfg: TuneConfig) -> dict[str, Any]:
    """The documented JSON (docs/simulation.md, "Suggested fixes"); timing keys (`seconds`) per card."""
    bal = cfg.balance
    return {
        "config": {"tables": list(bal.tables), "agents": list(bal.agents), "seed": bal.seed,
                   "min_effect": bal.min_effect, "alpha": bal.alpha, "max_games": bal.max_games, "games": bal.games,
                   "max_candidates": cfg.max_candidates, "max_steps": cfg.max_steps, "numbers": list(cfg.numbers)},
        "cards": [{"card": r.card, "base": r.base, "direction": r.direction, "problem": _trial_json(r.problem),
                   "effects": r.effects, "tried": [_trial_json(t) for t in r.trials],
                   "fix": None if r.fix is None else _trial_json(r.fix),
                   "fixes": [_trial_json(t) for t in r.fixes],
                   "confirmations": [_trial_json(t) for t in r.confirmations],
                   "fix_confirmed": None if r.fix is None or r.confirmed is None else _trial_json(r.confirmed),
                   "stopped": r.stopped, "seconds": r.seconds}
                  for r in results],
    }
