"""The balance lab: which cards a designer's change made too strong or too weak, and how sure we are.

`procedure` runs it (docs/simulation.md, "Balance verdicts"); `changes` says what changed, `games` plays the
paired games, `tally` folds them, `intervals` holds the statistics, `verdicts` makes the calls, `interaction`
the table-size question, `words` and `report` say the result, `cache` keeps it.
"""

from __future__ import annotations

from cardgen.sim.balance.changes import CHANGE_TAGS, card_changes, design_of, plays_alike, rule_changes
from cardgen.sim.balance.games import Memo
from cardgen.sim.balance.model import (
    BalanceConfig,
    BalanceError,
    BalanceResult,
    CardChange,
    Interaction,
    RuleChange,
    TableResult,
    Verdict,
)
from cardgen.sim.balance.procedure import KeptGames, assess_set, compare_versions, judge_set
from cardgen.sim.balance.report import BALANCE_TIMING_KEYS, result_json
from cardgen.sim.balance.words import verdict_lines, verdict_sentence

__all__ = ["BALANCE_TIMING_KEYS", "CHANGE_TAGS", "BalanceConfig", "BalanceError", "BalanceResult", "CardChange",
           "Interaction", "KeptGames", "Memo", "RuleChange", "TableResult", "Verdict", "assess_set", "card_changes",
           "compare_versions", "design_of", "judge_set", "plays_alike", "result_json", "rule_changes",
           "verdict_lines", "verdict_sentence"]
