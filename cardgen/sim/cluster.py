"""Game shards on a Dask cluster (`--cluster ADDRESS`, or `local` for a cluster of worker processes here).

The shards are the same (first, stop) game ranges a local run plays, their
results come back in game order and are folded exactly as locally, so the
JSON is the same byte for byte apart from the timing keys. Dask (the
`distributed` package) is an optional extra: `pip install "cardgen[cluster]"`.
Every worker needs the same cardgen installed; the card set itself travels
with the task, so workers need no copy of the set's files.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from cardgen.errors import CardgenError

T = TypeVar("T")
CONNECT_TIMEOUT_S = 20


class ClusterError(CardgenError):
    """The cluster extra is missing, or the scheduler cannot be reached."""


def _run_shard(task: Callable[[int, int], T], first: int, stop: int) -> T:
    """What a worker runs (module level, so Dask pickles it by reference)."""
    return task(first, stop)


def run_on_cluster(task: Callable[[int, int], T], spans: list[tuple[int, int]], address: str,
                   workers: int = 2) -> Iterator[tuple[int, T]]:
    """(games, result) per shard in game order; `address` "local" starts `workers` worker processes here."""
    try:  # imported as Any: the same type check whether or not the extra is installed
        dist: Any = importlib.import_module("distributed")
    except ImportError as exc:
        raise ClusterError('--cluster needs the optional extra: pip install "cardgen[cluster]"') from exc
    cluster: Any = None
    try:
        if address == "local":
            cluster = dist.LocalCluster(n_workers=max(1, workers), threads_per_worker=1, processes=True,
                                   host="127.0.0.1", dashboard_address=None)
            client = dist.Client(cluster)
        else:
            client = dist.Client(address, timeout=CONNECT_TIMEOUT_S)
    except (OSError, TimeoutError) as exc:
        if cluster is not None:
            cluster.close()
        raise ClusterError(f"cannot reach the Dask scheduler at '{address}': {exc}") from exc
    try:
        [remote] = client.scatter([task], broadcast=True)  # the set travels once per worker, not once per shard
        futures = [client.submit(_run_shard, remote, a, b, pure=False) for a, b in spans]
        for (a, b), fut in zip(spans, futures, strict=True):
            yield b - a, fut.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
