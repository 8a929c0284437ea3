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
import socket
from collections.abc import Callable, Iterator
from typing import Any, TypeVar
from urllib.parse import urlsplit

from cardgen.errors import CardgenError

T = TypeVar("T")
CONNECT_TIMEOUT_S = 20
REACH_TIMEOUT_S = 3.0  # a plain TCP connection to the scheduler first: a refusal or silence is said at once
SCHEMES = ("tcp", "tls", "ws", "wss")  # Dask's network transports
ADDRESS_FORMS = "tcp://HOST:PORT (or tls://, ws://, wss://), HOST:PORT, or local"


class ClusterError(CardgenError):
    """The cluster extra is missing, or the scheduler cannot be reached."""


def scheduler_host(address: str) -> tuple[str, int]:
    """The host and port of a scheduler address (`tcp://10.0.0.5:8786`, `[::1]:8786`); ClusterError naming the
    accepted forms when it is none, so a typo never reaches Dask (which raises ValueError tracebacks)."""
    written = address if "://" in address else f"tcp://{address}"
    try:
        parts = urlsplit(written)
        host, port = parts.hostname, parts.port
    except ValueError:  # '[::1' (an unclosed IPv6 bracket), a port that is no number or out of range
        host, port = None, None
    plain = parts.scheme in SCHEMES and parts.path in ("", "/") and not parts.query and not parts.fragment \
        if host else False
    if not (plain and host and port and not any(c.isspace() for c in host)):
        raise ClusterError(f"{address!r} is not a scheduler address; expected {ADDRESS_FORMS}")
    assert host is not None and port is not None
    return host, port


def check_address(address: str) -> str:
    """`address` when it is `local` or a well-formed scheduler address (nothing is contacted); else ClusterError."""
    if address != "local":
        scheduler_host(address)
    return address


def _reachable(address: str) -> None:
    """A TCP connection to the scheduler's port, within REACH_TIMEOUT_S; ClusterError saying why not."""
    host, port = scheduler_host(address)
    try:
        with socket.create_connection((host, port), timeout=REACH_TIMEOUT_S):
            pass
    except ConnectionRefusedError:
        raise ClusterError(f"cannot reach the Dask scheduler at '{address}': connection refused (is the scheduler "
                           "running, on that port?)") from None
    except TimeoutError:
        raise ClusterError(f"cannot reach the Dask scheduler at '{address}': no answer within "
                           f"{REACH_TIMEOUT_S:g} s") from None
    except OSError as exc:  # an unknown host name, no route...
        raise ClusterError(f"cannot reach the Dask scheduler at '{address}': {exc.strerror or exc}") from None


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
            _reachable(address)
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
