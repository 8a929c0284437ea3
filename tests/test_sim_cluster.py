"""`--cluster local`: a real Dask cluster (worker processes on this machine) plays the same shards as a local
run; the JSON is the same byte for byte once the timing keys are left out."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cardgen.checks import load_set
from cardgen.sim.runner import TIMING_KEYS, SimConfig, results_json, simulate


def _untimed(res: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in res.items() if k not in TIMING_KEYS}, indent=2, ensure_ascii=False)


def test_local_dask_cluster_gives_the_local_json() -> None:
    pytest.importorskip("distributed", reason="the cluster extra is not installed (pip install '.[cluster]')")
    cs = load_set("beer")
    cfg = SimConfig(players=3, games=60, seed=11, agents=("greedy", "random"), jobs=2)
    here = results_json(cs, simulate(cs, cfg))
    there = results_json(cs, simulate(cs, SimConfig(players=3, games=60, seed=11, agents=("greedy", "random"),
                                                    jobs=2, cluster="local")))
    assert there["cluster"] == "local" and here["cluster"] is None
    assert _untimed(there) == _untimed(here)


def test_unreachable_scheduler_is_a_clean_error(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed", reason="the cluster extra is not installed (pip install '.[cluster]')")
    from cardgen.sim import cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT_S", 1)  # Dask retries a refused connection until then
    cs = load_set("beer")
    with pytest.raises(cluster.ClusterError, match="cannot reach the Dask scheduler"):
        simulate(cs, SimConfig(games=2, cluster="tcp://127.0.0.1:9"))
