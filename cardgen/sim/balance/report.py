"""The balance result as the documented JSON (docs/simulation.md, "Balance verdicts: the JSON"), and back."""

from __future__ import annotations

import dataclasses
from typing import Any

from cardgen.sim.balance.model import (
    BalanceConfig,
    BalanceResult,
    CardChange,
    Interaction,
    RuleChange,
    TableResult,
    Verdict,
)

# Keys that measure the machine, not the games: they differ between runs of the same command.
BALANCE_TIMING_KEYS: tuple[str, ...] = ("seconds", "jobs", "cached")


def result_json(result: BalanceResult) -> dict[str, Any]:
    """The documented JSON; timing keys last."""
    cfg = result.config
    return {
        "a": result.a, "b": result.b,
        "config": {"tables": list(cfg.tables), "agents": list(cfg.agents), "seed": cfg.seed, "alpha": cfg.alpha,
                   "min_effect": cfg.min_effect, "max_games": cfg.max_games, "games": cfg.games},
        "changes": [{"card": c.name, "kind": c.kind, "copies": list(c.copies), "fields": list(c.fields),
                     "role": c.role} for c in result.changes],
        "rules": [dataclasses.asdict(r) for r in result.rules],
        "tables": [{"players": t.players, "games": t.games, "played": t.played, "stopped": t.stopped,
                    "interaction_games": t.interaction_games, "length": t.length,
                    "verdicts": [{k: v for k, v in dataclasses.asdict(x).items() if k != "players"}
                                 for x in t.verdicts]} for t in result.tables],
        "flagged": sorted({v.card for v in result.flagged() if v.card not in result.intended}),
        "knock_on_flagged": sorted({v.card for v in result.flagged(("knock-on",))}),
        "depends_on_table": list(result.depends_on_table),
        "table_interaction": [{**dataclasses.asdict(i), "tables": list(i.tables)} for i in result.interactions],
        "intended": result.intended,
        "seconds": result.seconds, "jobs": cfg.jobs, "cached": result.cached,
    }


def result_from_json(data: dict[str, Any], cfg: BalanceConfig) -> BalanceResult:
    """The result `result_json` wrote, for the run made with `cfg` (raises KeyError/TypeError on other data)."""
    tables = tuple(TableResult(t["players"], t["games"], t["stopped"],
                               tuple(Verdict(players=t["players"], **v) for v in t["verdicts"]),
                               t["length"], t["interaction_games"], t["played"]) for t in data["tables"])
    return BalanceResult(
        data["a"], data["b"],
        tuple(CardChange(c["card"], c["kind"], tuple(c["copies"]), tuple(c["fields"]), c["role"])
              for c in data["changes"]),
        tables, cfg, data["seconds"], tuple(data["depends_on_table"]), dict(data["intended"]),
        tuple(Interaction(**{**i, "tables": tuple(i["tables"])}) for i in data["table_interaction"]),
        tuple(RuleChange(**r) for r in data["rules"]))
