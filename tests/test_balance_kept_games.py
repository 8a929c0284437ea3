"""A comparison whose base was judged alone earlier in the same process (`validate`: classic, then recess against
classic) reads the base's games instead of playing them again, and gives the very same verdicts."""

from __future__ import annotations

from typing import Any

import pytest

from cardgen.loader import load_set
from cardgen.sim.balance import BalanceConfig, KeptGames, judge_set, result_json
from cardgen.sim.balance import games as balance_games
from cardgen.sim.balance.report import BALANCE_TIMING_KEYS


def _verdicts(result: Any) -> dict[str, Any]:
    return {k: v for k, v in result_json(result).items() if k not in BALANCE_TIMING_KEYS}


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_comparison_reads_the_games_its_base_played_alone(monkeypatch: pytest.MonkeyPatch, jobs: int) -> None:
    monkeypatch.setenv("CARDGEN_BALANCE_CACHE", "0")
    classic, recess = load_set("classic"), load_set("recess")
    cfg = BalanceConfig(games=120, tables=(2,), jobs=jobs)
    played: list[str] = []
    real = balance_games.play_one

    def counting(cs: Any, *args: Any, **kwargs: Any) -> Any:
        played.append(cs.name)
        return real(cs, *args, **kwargs)

    monkeypatch.setattr(balance_games, "play_one", counting)
    kept = KeptGames()
    fresh = judge_set(recess, classic, cfg, kept=kept)  # (nothing kept yet: classic's side is played)
    judge_set(classic, None, cfg, kept=kept)
    played.clear()
    reused = judge_set(recess, classic, cfg, kept=kept)
    assert _verdicts(reused) == _verdicts(fresh)
    if jobs == 1:  # (in this process, where the games are counted; with workers the verdicts tell alone)
        assert played and set(played) == {"recess"}
