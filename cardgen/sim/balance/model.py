"""The balance procedure's records: what changed, the settings, one verdict, one table size's games, the result."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from cardgen.errors import CardgenError
from cardgen.sim import balance_defaults as defaults
from cardgen.sim.agents import DEFAULT_BUDGET, Budget, parse_budget

ChangeKind = Literal["mechanics", "copies", "new", "removed", "unchanged"]
# "rules": a figure of the whole game (its length, the first player's edge) under a change of the rules
Family = Literal["changed", "new", "knock-on", "card", "rules"]
Call = Literal["stronger", "weaker", "too strong", "too weak", "never played", "longer", "shorter",
               "no change that matters", "within the band", "undecided", "not tested"]
FLAGGED_CALLS: tuple[str, ...] = ("stronger", "weaker", "too strong", "too weak", "never played")
CLEARED_CALLS: tuple[str, ...] = ("no change that matters", "within the band")
Edge = Literal["hi", "lo", ""]
Stopped = Literal["decided", "max games", "games", "nothing to test"]


class BalanceError(CardgenError):
    """Two versions that cannot be compared, or options the procedure cannot run with."""


@dataclass(frozen=True)
class CardChange:
    """One card of either version and what the designer did to it: `kind`, copies (A, B; 0 where absent), the
    design fields that differ (`fields`, for `mechanics`) and its role (attack, defence, ...)."""

    name: str
    kind: ChangeKind
    copies: tuple[int, int]
    fields: tuple[str, ...] = ()
    role: str = ""


@dataclass(frozen=True)
class RuleChange:
    """One rule of `rules:` that differs between the versions (life, hand size, limits...), as printed."""

    rule: str
    before: str
    after: str


@dataclass(frozen=True)
class BalanceConfig:
    """The shared defaults. The games stop when every primary verdict is clear or at `max_games` per table size;
    `games`, if set, plays exactly that many games per table size with no early stop. Either way the verdicts
    depend on the sets and `seed` only (not on `jobs`, the load or the clock)."""

    tables: tuple[int, ...] = defaults.TABLES
    agents: tuple[str, ...] = defaults.AGENTS
    seed: int = 0
    alpha: float = defaults.ALPHA  # family-wise error per family, shared between the table sizes
    min_effect: float = defaults.MIN_EFFECT  # points of win rate: smaller changes do not matter to a designer
    max_games: int = defaults.MAX_GAMES
    games: int | None = None
    jobs: int = 1
    budget: Budget = field(default_factory=lambda: parse_budget(DEFAULT_BUDGET))  # the search bot's, if used

    def level(self) -> float:
        """The error rate of one family at one table size (Bonferroni over the table sizes)."""
        return self.alpha / max(1, len(self.tables))

    def limit(self) -> int:
        """The games a table size may play at most."""
        return self.games if self.games is not None else self.max_games


@dataclass(frozen=True)
class Verdict:
    """One card (or, family "rules", one figure of the whole game) at one table size. `change` and `low`..`high`
    are points of win rate (turns, for the game length), the anytime-valid interval at the card's Holm level;
    `a_rate`/`b_rate` the win rate of players who start with the card (A, B) and `others`/`a_others` those of the
    rest (B, A); a removed card gets no verdict. For a new card (or a card of a set alone), `reference` names
    the base card it is measured against, the band's edge `edge` ("hi": the strongest, "lo": the weakest), and
    `other_change` its figure against the other edge; `played_when_held` the share of the players who held the
    card at some point that played it (B)."""

    card: str
    players: int
    family: Family
    kind: ChangeKind
    call: Call
    change: float | None
    low: float | None
    high: float | None
    p: float | None  # anytime-valid p-value of "no change", Holm-adjusted in its family, x the table sizes
    a_rate: float | None
    b_rate: float | None
    others: float | None
    a_others: float | None
    reference: str | None
    games: int
    games_needed: int | None  # for an undecided card: about how many games a verdict would take
    edge: Edge = ""
    reference_role: str = ""
    other_reference: str | None = None
    other_change: float | None = None
    played_when_held: float | None = None

    @property
    def flagged(self) -> bool:
        return self.call in FLAGGED_CALLS and self.family != "rules"


@dataclass(frozen=True)
class TableResult:
    """The games at one table size: how many deals were looked at and how many played, why they stopped, and
    the verdicts (primary family first)."""

    players: int
    games: int
    stopped: Stopped
    verdicts: tuple[Verdict, ...]
    length: dict[str, float] | None = None  # game length in turns, A and B and the paired change (impact.py)
    interaction_games: int = 0  # of `games`, those played after the verdicts were clear, for `Interaction`s
    played: int = 0  # of `games` (deals), those played (the others were counted: `informative`)


@dataclass(frozen=True)
class Interaction:
    """Whether a primary card's figure differs between two table sizes: `change` (points) is its figure at
    `tables[1]` minus at `tables[0]`, `low`..`high` the anytime-valid interval of that difference at the card's
    Holm level, `p` the Holm-adjusted p-value (family: the primary cards, at the run's `alpha`). `depends`: the
    card is called at one of the two sizes and not the same way at the other, and the difference is clear (the
    interval excludes 0) and at least the minimum effect."""

    card: str
    tables: tuple[int, int]
    change: float
    low: float
    high: float
    p: float
    depends: bool


@dataclass(frozen=True)
class BalanceResult:
    a: str
    b: str | None
    changes: tuple[CardChange, ...]
    tables: tuple[TableResult, ...]
    config: BalanceConfig
    seconds: float
    depends_on_table: tuple[str, ...] = ()  # cards whose figure clearly differs between table sizes
    intended: dict[str, str] = field(default_factory=dict)  # card -> its `intended:` note (set data)
    interactions: tuple[Interaction, ...] = ()
    rules: tuple[RuleChange, ...] = ()
    cached: bool = False  # read from the verdict cache (the same files, settings and engine), not played now

    def flagged(self, family: tuple[Family, ...] = ("changed", "new", "card")) -> list[Verdict]:
        return [v for t in self.tables for v in t.verdicts if v.flagged and v.family in family]
