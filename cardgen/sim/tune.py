"""A suggested fix: the smallest change of a flagged card's numbers that brings it back inside the band.

For a card the balance procedure (`cardgen.sim.balance`) calls too strong or too weak against a base set (or,
with no base, against the rest of its deck), `tune` tries edits of the card's own numbers, one number at a
time, smallest first: its damage (every strike), its copies, its heal, its hold's damage, the turns it stuns
for, the turns it stuns its own player for. Each candidate is the designer's set with that one edit, judged
by the same procedure on the same paired games as the verdict itself (`compare_versions` against the base:
per-card keyed deals, the same bot seeds, every table size). The search goes round the numbers one step at a
time (every number at 1 step, then at 2, ...), so the first fix found is the smallest; it stops a number when
it fixes the card, when it overshoots (the card is then flagged the other way), or at the number's bounds,
and the whole search stops at its time budget. Each candidate plays until its verdict is clear or at
`max_games` per table size, so its verdict is reproducible from the seed (whatever `jobs` is); the budget
only decides how many candidates are tried.

A candidate fixes the card when no table size flags it either way and, at every table size, the card is
cleared (`no change that matters`, `within the band`) or still open with an estimate inside the minimum
effect (`likely`: more games would confirm it).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from cardgen.errors import CardgenError
from cardgen.model import Card, CardSet
from cardgen.primitives import PRIMITIVES, Effect, Number, Who, make_effect, numbers_of
from cardgen.sim import balance_defaults as defaults
from cardgen.sim.balance import BalanceConfig, BalanceResult, Memo, Verdict, assess_set, compare_versions
from cardgen.suggest import did_you_mean

Direction = Literal["weaken", "strengthen"]
Status = Literal["fixed", "likely fixed", "still", "overshoot", "cut short"]
NUMBERS: tuple[str, ...] = ("damage", "copies", "heal", "hold damage", "stuns", "stunned", "effects")
# "effects": every number of a card's `effects:` (cardgen/primitives.py), each within its primitive's bounds; an
# edit names it `effects[i].param` (the i-th effect of the card, counted from 0).
# Tried by default: all but copies. A card's figure is the win rate of players who start with it, which does not
# depend on how many copies there are (docs/simulation.md, "Suggested fixes"): fewer copies make a strong card
# rarer, not weaker, so a copies "fix" would only be found by chance.
DEFAULT_NUMBERS: tuple[str, ...] = tuple(n for n in NUMBERS if n != "copies")
MAX_STEPS = 6  # the largest edit of one number tried
MAX_COPIES = 12
TUNE_MAX_GAMES = 4000  # per table size and candidate: the balance procedure's confidence sequence is tuned here
TUNE_SECONDS = 180.0
CLEARED = ("no change that matters", "within the band")
TOO_STRONG = ("stronger", "too strong")
TOO_WEAK = ("weaker", "too weak")


class TuneError(CardgenError):
    """A card that cannot be tuned: unknown, not flagged, or with no number to change."""


@dataclass(frozen=True)
class Edit:
    """One number of one card changed: `number` (see NUMBERS) from `before` to `after`, `steps` steps of 1."""

    card: str
    number: str
    before: tuple[int, ...]
    after: tuple[int, ...]
    steps: int

    def __str__(self) -> str:
        def show(v: tuple[int, ...]) -> str:
            return " + ".join(map(str, v))

        return f"{self.number} {show(self.before)} -> {show(self.after)}"

    def apply(self, card: Card) -> Card:
        """The card with this edit."""
        value = self.after
        if self.number.startswith("effects["):
            return _with_effect_number(card, self.number, value[0])
        if self.number == "damage":
            return dataclasses.replace(card, damage=value)
        if self.number == "copies":
            return dataclasses.replace(card, count=value[0])
        if self.number == "heal":
            assert card.heal is not None
            return dataclasses.replace(card, heal=dataclasses.replace(card.heal, amount=value[0]))
        if self.number == "hold damage":
            assert card.ongoing is not None
            return dataclasses.replace(card, ongoing=dataclasses.replace(card.ongoing, damage=value[0]))
        if self.number == "stuns":
            return dataclasses.replace(card, stuns=value[0])
        assert self.number == "stunned"
        return dataclasses.replace(card, stunned=value[0])


def _numbers(card: Card) -> dict[str, tuple[int, ...]]:
    """The numbers of `card` that may be tuned, with their values (only those the card has, and its copies)."""
    out: dict[str, tuple[int, ...]] = {}
    if card.damage:
        out["damage"] = card.damage
    out["copies"] = (card.count,)
    if card.heal is not None:
        out["heal"] = (card.heal.amount,)
    if card.ongoing is not None:
        out["hold damage"] = (card.ongoing.damage,)
    if card.stuns:
        out["stuns"] = (card.stuns,)
    if card.stunned:
        out["stunned"] = (card.stunned,)
    for i, name, _ in numbers_of(card.effects):
        out[f"effects[{i}].{name}"] = (card.effects[i].number(name),)
    return out


def _step(number: str, value: tuple[int, ...], steps: int, direction: Direction,
          card: Card | None = None) -> tuple[int, ...] | None:
    """`value` moved `steps` steps the way that weakens or strengthens the card; None past the number's bounds."""
    sign = -1 if direction == "weaken" else 1
    if number == "stunned":  # stunning its own player is a cost: more of it weakens
        sign = -sign
    low = 0 if number in ("stuns", "stunned") else 1
    high = MAX_COPIES if number == "copies" else 99
    if number.startswith("effects[") and card is not None:
        e, bounds = _effect_at(card, number)
        low, high = bounds.low, bounds.high
        if (e.op in COSTLY_EFFECTS and e.who == Who.SELF) or e.op == "give":  # more of it costs its own player more
            sign = -sign
    out = tuple(v + sign * steps for v in value)
    if any(not low <= v <= high for v in out):
        return None
    return out


def candidate_edits(card: Card, direction: Direction, max_steps: int = MAX_STEPS,
                    allowed: tuple[str, ...] = DEFAULT_NUMBERS) -> list[Edit]:
    """Every edit of one of `card`'s `allowed` numbers up to `max_steps` steps, smallest first (then in NUMBERS
    order)."""
    numbers = _numbers(card)
    out: list[Edit] = []
    for steps in range(1, max_steps + 1):
        for number in [*NUMBERS, *(n for n in numbers if n.startswith("effects["))]:
            family = "effects" if number.startswith("effects[") else number
            if number not in numbers or family not in allowed:
                continue
            after = _step(number, numbers[number], steps, direction, card)
            if after is not None:
                out.append(Edit(card.name, number, numbers[number], after, steps))
    return out


# Primitives whose number, aimed at the card's own player, is a cost to that player.
COSTLY_EFFECTS: frozenset[str] = frozenset({"damage", "lose", "discard", "skip_turns"})


def _effect_at(card: Card, number: str) -> tuple[Effect, Number]:
    """The effect and the bounds of the number named `effects[i].param` on `card`."""
    index, name = number.removeprefix("effects[").split("].")
    e = card.effects[int(index)]
    return e, next(n for n in PRIMITIVES[e.op].numbers if n.name == name)


def _with_effect_number(card: Card, number: str, value: int) -> Card:
    """`card` with the effect number `effects[i].param` set to `value`."""
    e, bounds = _effect_at(card, number)
    i = int(number.removeprefix("effects[").split("]")[0])
    changed = make_effect(e.op, {**dict(e.values), bounds.name: value})
    return dataclasses.replace(card, effects=(*card.effects[:i], changed, *card.effects[i + 1:]))


def edited_set(cs: CardSet, edit: Edit) -> CardSet:
    """`cs` with `edit` made to its card (the deck size follows a change of copies)."""
    cards = tuple(edit.apply(c) if c.name == edit.card else c for c in cs.cards)
    total = sum(c.count for c in cards)
    return dataclasses.replace(cs, cards=cards, deck_size=total)


@dataclass(frozen=True)
class TuneConfig:
    """The balance procedure's settings for each candidate (its `games`, if set, plays exactly that many games per
    table size; else each candidate stops when its verdict is clear or at `max_games`), and the search's own:
    the wall-time budget and the largest edit."""

    balance: BalanceConfig = field(default_factory=lambda: BalanceConfig(max_games=TUNE_MAX_GAMES))
    seconds: float = TUNE_SECONDS
    max_steps: int = MAX_STEPS
    numbers: tuple[str, ...] = DEFAULT_NUMBERS
    # the suggestion is confirmed by the default procedure (every table size, its game limit and time budget)
    confirm_seconds: float = defaults.SECONDS
    confirm_max_games: int = defaults.MAX_GAMES


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
    fixes: tuple[Trial, ...]  # the smallest fix of each number that has one, smallest first
    stopped: Literal["done", "budget"]
    seconds: float
    min_effect: float
    others: tuple[int, ...] = ()  # table sizes where the card was not flagged (candidates are not judged there)
    # the fix played again by the default procedure at every table size, on the same paired games (None: no fix)
    confirmed: Trial | None = None

    @property
    def fix(self) -> Trial | None:
        return self.fixes[0] if self.fixes else None


def _card_verdicts(result: BalanceResult, card: str) -> tuple[Verdict, ...]:
    return tuple(v for t in result.tables for v in t.verdicts if v.card == card)


def _status(verdicts: tuple[Verdict, ...], direction: Direction, min_effect: float,
            result: BalanceResult, budget_ends: bool = True) -> Status:
    """What a candidate's verdicts say; `budget_ends`: a run the budget cut short is `cut short` (for the
    search), else judged on the games it has (the confirmation says the budget ran out on its own)."""
    if budget_ends and any(t.stopped == "budget" for t in result.tables):
        return "cut short"
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
    return "likely fixed" if near else "still"


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
    if not any(n in _numbers(target) for n in numbers):
        raise TuneError(f"{target.name} has none of the numbers tune may change ({', '.join(numbers)})")
    return target


def tune(base: CardSet | None, cs: CardSet, card: str, cfg: TuneConfig = TuneConfig(),
         progress: Callable[[int], None] | None = None, trying: Callable[[str], None] | None = None,
         problem: BalanceResult | None = None) -> TuneResult:
    """Find the smallest edit of `card`'s numbers in `cs` that brings it back inside the band (against `base`, or
    against the rest of its deck when `base` is None). `problem` is the verdict on `cs` as it is, if already
    played (else it is played first, within the budget). Candidates are judged at the table sizes where the
    card was flagged; the fix found is then judged at the others. `progress(n)` after every n games;
    `trying(what)` as each candidate starts."""
    t0 = time.perf_counter()
    target = tunable(cs, card, cfg.numbers)

    base_games: dict[tuple[int, int], Any] = {}  # the base's outcomes: every candidate plays the same base games
    played: dict[str, dict[tuple[int, int], Any]] = {}  # each candidate's own, kept for the confirmation

    def judge(version: CardSet, tables: tuple[int, ...], key: str = "") -> BalanceResult:
        left = cfg.seconds - (time.perf_counter() - t0)
        return verdicts_of(base, version, dataclasses.replace(cfg.balance, tables=tables, seconds=max(left, 0.1)),
                           progress, (base_games, played.setdefault(key, {})))

    if problem is None:
        if trying is not None:
            trying(f"{target.name} as it is")
        problem = judge(cs, cfg.balance.tables)
    verdicts = _card_verdicts(problem, target.name)
    direction = direction_of(verdicts)
    if direction is None:
        calls = ", ".join(f"{v.call} at {v.players} players" for v in verdicts) or "not tested"
        raise TuneError(f"{target.name} is not too strong or too weak ({calls}): nothing to tune")
    wrong = TOO_STRONG if direction == "weaken" else TOO_WEAK
    flagged = tuple(v.players for v in verdicts if v.call in wrong)
    others = tuple(v.players for v in verdicts if v.players not in flagged)
    min_effect = cfg.balance.min_effect
    trials: list[Trial] = []
    fixes: dict[str, Trial] = {}
    closed: set[str] = set()
    stopped: Literal["done", "budget"] = "done"
    for edit in candidate_edits(target, direction, cfg.max_steps, cfg.numbers):
        if edit.number in closed:
            continue
        if time.perf_counter() - t0 >= cfg.seconds:
            stopped = "budget"
            break
        if trying is not None:
            trying(str(edit))
        s0 = time.perf_counter()
        result = judge(edited_set(cs, edit), flagged, str(edit))
        got = _card_verdicts(result, target.name)
        status = _status(got, direction, min_effect, result)
        trials.append(Trial(edit, status, got, round(time.perf_counter() - s0, 3)))
        if status == "cut short":
            stopped = "budget"
            break
        if status in ("fixed", "likely fixed"):
            fixes[edit.number] = trials[-1]
            closed.add(edit.number)
        elif status == "overshoot":
            closed.add(edit.number)
    ordered = sorted(fixes.values(), key=lambda t: (t.edit.steps if t.edit else 0, t.status != "fixed",
                                                    NUMBERS.index(t.edit.number) if t.edit else 0))
    confirmed: Trial | None = None
    if ordered:
        best = ordered[0].edit
        assert best is not None
        if trying is not None:
            trying(f"{best}, confirmed at {', '.join(map(str, cfg.balance.tables))} players")
        s0 = time.perf_counter()
        full = dataclasses.replace(cfg.balance, seconds=cfg.confirm_seconds,
                                   max_games=max(cfg.balance.max_games, cfg.confirm_max_games))
        result = verdicts_of(base, edited_set(cs, best), full, progress, (base_games, played.get(str(best), {})))
        got = _card_verdicts(result, target.name)
        confirmed = Trial(best, _status(got, direction, min_effect, result, budget_ends=False), got,
                          round(time.perf_counter() - s0, 3))
    return TuneResult(target.name, None if base is None else base.name, direction,
                      Trial(None, "still", verdicts, problem.seconds), tuple(trials), tuple(ordered), stopped,
                      round(time.perf_counter() - t0, 3), min_effect, others, confirmed)


# --- words and JSON -------------------------------------------------------------------------------------------


def _figure(v: Verdict) -> str:
    if v.change is None or v.low is None or v.high is None:
        return f"{v.players} players: {v.call}"
    return f"{v.players} players {v.change:+.1f} [{v.low:+.1f}, {v.high:+.1f}] ({v.call}, {v.games} games)"


def _needed(trial: Trial) -> int | None:
    needs = [v.games_needed for v in trial.verdicts if v.games_needed is not None]
    return max(needs) if needs else None


def tune_lines(res: TuneResult) -> list[str]:
    """The terminal summary: the problem, each candidate tried, and the fix in plain words."""
    against = f"against {res.base}" if res.base is not None else "against the rest of the deck"
    goal = "weaker" if res.direction == "weaken" else "stronger"
    lines = [f"{res.card} ({against}, points of win rate for players who start with it): "
             + "; ".join(_figure(v) for v in res.problem.verdicts), f"  trying to make it {goal}:"]
    for t in res.trials:
        lines.append(f"    {t.edit}: {t.status}: " + "; ".join(_figure(v) for v in t.verdicts))
    fix = res.fix
    if fix is None:
        why = ("the time budget ran out" if res.stopped == "budget" else
               "no edit of one of its numbers, within the steps tried, brings it inside")
        lines.append(f"  no fix found ({why})")
    else:
        tables = " and ".join(str(v.players) for v in fix.verdicts) + " players"
        sure = (f"cleared at {tables}" if fix.status == "fixed" else
                f"within {res.min_effect:g} points at {tables}, not yet confirmed"
                + (f": about {_needed(fix)} games a table size would tell" if _needed(fix) else ""))
        lines.append(f"  suggested fix: {fix.edit} ({sure})")
        c = res.confirmed
        if c is not None:
            word = {"fixed": "confirmed: inside the band at every table size",
                    "likely fixed": "not confirmed yet (within the minimum effect, the games ran out first)",
                    "still": "not confirmed: still out of the band", "overshoot": "not confirmed: it overshoots",
                    "cut short": "not confirmed (cut short)"}[c.status]
            lines.append(f"    by the default procedure on the same games, {word}: "
                         + "; ".join(_figure(v) for v in c.verdicts))
        for other in res.fixes[1:]:
            lines.append(f"  or: {other.edit} ({other.status})")
    if res.stopped == "budget":
        lines.append("  (the time budget ran out before every number was tried: --seconds gives it more)")
    lines.append(f"  ({len(res.trials)} candidates, {res.seconds:.0f} s)")
    return lines


def _verdict_json(v: Verdict) -> dict[str, Any]:
    return {"players": v.players, "call": v.call, "change": v.change, "low": v.low, "high": v.high,
            "games": v.games, "reference": v.reference}


def _trial_json(t: Trial) -> dict[str, Any]:
    edit = None if t.edit is None else {"number": t.edit.number, "before": list(t.edit.before),
                                        "after": list(t.edit.after), "steps": t.edit.steps, "text": str(t.edit)}
    return {"edit": edit, "status": t.status, "verdicts": [_verdict_json(v) for v in t.verdicts],
            "seconds": t.seconds}


def tune_json(results: list[TuneResult], cfg: TuneConfig) -> dict[str, Any]:
    """The documented JSON (docs/simulation.md, "Suggested fixes"); timing keys (`seconds`) per card."""
    bal = cfg.balance
    return {
        "config": {"tables": list(bal.tables), "agents": list(bal.agents), "seed": bal.seed,
                   "min_effect": bal.min_effect, "alpha": bal.alpha, "max_games": bal.max_games, "games": bal.games,
                   "seconds": cfg.seconds, "max_steps": cfg.max_steps, "numbers": list(cfg.numbers)},
        "cards": [{"card": r.card, "base": r.base, "direction": r.direction, "problem": _trial_json(r.problem),
                   "tried": [_trial_json(t) for t in r.trials],
                   "fix": None if r.fix is None else _trial_json(r.fix),
                   "fixes": [_trial_json(t) for t in r.fixes],
                   "fix_confirmed": None if r.confirmed is None else _trial_json(r.confirmed),
                   "stopped": r.stopped, "seconds": r.seconds}
                  for r in results],
    }
