"""Run many games, in one process or several, and produce the plain JSON dict of the results.

Game i is seeded from (seed, i) and its bots from (seed, i, seat), and batches
of consecutive games are folded in game order, so the same seed gives the same
results whatever `jobs` is. Statistics are streamed (`Stats`): memory does not
grow with the number of games.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar, cast

from cardgen.engine.cards import CardInfo, card_info
from cardgen.engine.game import make_game, seat_names
from cardgen.errors import CardgenError
from cardgen.model import CardSet
from cardgen.sim.agents import DEFAULT_BUDGET, Budget, agent_names, make_agent, parse_budget
from cardgen.sim.impact import rank_agreement
from cardgen.sim.play import Coverage, card_labels, play_one
from cardgen.sim.seeding import derive_seed
from cardgen.sim.stats import Stats

# Keys of the results that measure the machine, not the games: they differ between runs.
TIMING_KEYS: tuple[str, ...] = ("games_per_s", "decisions_per_s", "seconds", "jobs", "cluster")
MAX_PLAYERS = 8
MAX_BATCH = 250
T = TypeVar("T")


class SimulationError(CardgenError):
    """Options a simulation cannot run with (too few players, no games...)."""


@dataclass(frozen=True)
class SimConfig:
    """What to simulate. `agents` are rotated round the seats: seat s of game i gets agents[(s + i) % k]."""

    players: int = 4
    games: int = 1000
    seed: int = 0
    agents: tuple[str, ...] = ("random",)
    jobs: int = 1
    check_every_move: bool = False
    coverage: bool = False
    cluster: str | None = None  # a Dask scheduler address, or "local" (docs/simulation.md)
    budget: Budget = field(default_factory=lambda: parse_budget(DEFAULT_BUDGET))  # the search bot's

    def validate(self, cs: CardSet) -> None:
        if not 2 <= self.players <= MAX_PLAYERS:
            raise SimulationError(f"--players must be between 2 and {MAX_PLAYERS}, not {self.players}")
        if self.games < 1:
            raise SimulationError(f"--games must be at least 1, not {self.games}")
        if self.jobs < 1:
            raise SimulationError(f"--jobs must be at least 1, not {self.jobs}")
        if self.seed < 0:
            raise SimulationError(f"--seed must be 0 or more, not {self.seed}")
        agent_names(",".join(self.agents))
        if cs.rules.hand_size * self.players > cs.total:
            raise SimulationError(f"set {cs.name} has {cs.total} cards, too few to deal {self.players} hands of "
                                  f"{cs.rules.hand_size}")


@dataclass
class Batch:
    """What a run of consecutive games contributes."""

    stats: Stats
    coverage: Coverage | None

    def merge(self, other: Batch) -> None:
        self.stats.merge(other.stats)
        if self.coverage is not None and other.coverage is not None:
            self.coverage.merge(other.coverage)


@dataclass
class SimResult:
    config: SimConfig
    batch: Batch
    seconds: float


def seats_of(cfg: SimConfig, game: int) -> tuple[str, ...]:
    k = len(cfg.agents)
    return tuple(cfg.agents[(s + game) % k] for s in range(cfg.players))


def run_range(cs: CardSet, info: tuple[CardInfo, ...], cfg: SimConfig, first: int, stop: int) -> Batch:
    """Games first..stop-1, folded in order."""
    stats = Stats(seats=cfg.players, designs=len(info))
    cov = Coverage(len(info)) if cfg.coverage else None
    labels = card_labels(cs)
    table = make_game(cs, seat_names(cfg.players), info=info)  # every game of the range starts from it
    for g in range(first, stop):
        names = seats_of(cfg, g)
        agents = [make_agent(a, derive_seed(cfg.seed, g, s + 1), cfg.budget) for s, a in enumerate(names)]
        rec = play_one(cs, info, agents, names, derive_seed(cfg.seed, g), f"game {g}",
                       check_every_move=cfg.check_every_move, coverage=cov, names=labels, counts=stats.plays,
                       game=table)
        stats.add(rec)
    return Batch(stats, cov)


@dataclass
class RangeTask:
    """A picklable shard runner: games first..stop-1 of one simulation (sent once to each worker)."""

    cs: CardSet
    cfg: SimConfig
    info: tuple[CardInfo, ...] | None = None

    def __call__(self, first: int, stop: int) -> Batch:
        if self.info is None:
            self.info = card_info(self.cs)
        return run_range(self.cs, self.info, self.cfg, first, stop)


def usable_jobs(jobs: int, cluster: str | None = None) -> int:
    """Worker processes worth starting here: at most one a CPU (more only share the same cores, each with its
    own copy of the set). A remote cluster's workers are its own, so `jobs` is left to it."""
    if cluster is not None and cluster != "local":
        return jobs
    return max(1, min(jobs, os.cpu_count() or 1))


def spans_of(games: int, jobs: int) -> list[tuple[int, int]]:
    """Consecutive game ranges: about 8 per worker (so a slow shard does not hold the others up), at most
    MAX_BATCH games each. The split never changes the results, only how work is shared."""
    size = max(1, min(MAX_BATCH, -(-games // (jobs * 8))))
    return [(a, min(a + size, games)) for a in range(0, games, size)]


_WORKER: dict[str, Any] = {}


def _init_worker(task: Callable[[int, int], Any]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: no worker tracebacks
    _WORKER["task"] = task


def _work(span: tuple[int, int]) -> Any:
    return _WORKER["task"](span[0], span[1])


@contextlib.contextmanager
def sigint_held() -> Iterator[None]:
    """Hold Ctrl-C back while worker processes start, then raise it.

    The workers inherit the main thread's blocked signal and ignore it from their first line, so a Ctrl-C
    to the whole process group, as a terminal sends, never gives a traceback from a worker. Another thread
    (tqdm's monitor) may still receive it meanwhile: the handler then only notes it, and it is raised once
    the pool is up and can be shut down.
    """
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()  # started later, it would unblock Ctrl-C in the middle of the pool's start
    noted: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, _frame: noted.append(signum))
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        signal.signal(signal.SIGINT, previous)
    if noted:
        raise KeyboardInterrupt


def run_shards(task: Callable[[int, int], T], games: int, jobs: int = 1,
               cluster: str | None = None) -> Iterator[tuple[int, T]]:
    """(games in the shard, its result) for every shard, in game order: in this process, in `jobs` worker
    processes, or on a Dask cluster (`cluster`: a scheduler address, or "local")."""
    if cluster is not None:
        from cardgen.sim.cluster import run_on_cluster  # the optional extra: imported only when asked for

        yield from run_on_cluster(task, spans_of(games, max(jobs, 2)), cluster, jobs)
        return
    spans = spans_of(games, jobs)
    if jobs == 1 or len(spans) == 1:
        for a, b in spans:
            yield b - a, task(a, b)
        return
    # spawn, not fork: the parent may run threads (the progress bar's monitor), which fork can deadlock
    ctx = multiprocessing.get_context("spawn")
    pool = None
    try:
        with sigint_held():
            pool = ctx.Pool(min(jobs, len(spans)), initializer=_init_worker, initargs=(task,))
        for (a, b), result in zip(spans, pool.imap(_work, spans), strict=True):  # imap keeps game order
            yield b - a, result
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()


Spec = tuple[int, ...]


def _work_spec(spec: Spec) -> Any:
    return _WORKER["task"](*spec)


class ChunkPool(Generic[T]):
    """A task's chunks by spec (the task's arguments): played in `jobs` worker processes, started ahead of need
    (`ahead`), or with one job in this process when asked for (`take`). A chunk's result depends on its spec
    only, so what a caller folds never depends on `jobs` or on which chunks were started ahead."""

    def __init__(self, task: Callable[..., T], jobs: int, pool: Any = None) -> None:
        self.task, self.jobs, self.pool = task, jobs, pool
        self.flight: dict[Spec, Any] = {}  # spec -> its pending result in a worker

    @property
    def depth(self) -> int:
        """Chunks worth having under way at once: one more than the workers (so none waits for its next), or
        one in this process."""
        return self.jobs + 1 if self.pool is not None else 1

    def room(self) -> int:
        """How many more chunks may be started ahead now: the depth less the chunks still being played (0 in this
        process: nothing runs ahead there). A finished chunk nobody takes holds no worker."""
        if self.pool is None:
            return 0
        return self.depth - sum(1 for job in self.flight.values() if not job.ready())

    def ahead(self, spec: Spec) -> None:
        """Start `spec` in a worker unless it is under way (in this process: nothing, it plays when taken)."""
        if self.pool is not None and spec not in self.flight:
            self.flight[spec] = self.pool.apply_async(_work_spec, (spec,))

    def take(self, spec: Spec) -> T:
        """The result of `spec`: waited for if it is under way, else played now."""
        job = self.flight.pop(spec, None)
        if job is not None:
            return cast(T, job.get())
        if self.pool is not None:
            return cast(T, self.pool.apply(_work_spec, (spec,)))
        return self.task(*spec)


@contextlib.contextmanager
def chunk_pool(task: Callable[..., T], jobs: int) -> Iterator[ChunkPool[T]]:
    """A `ChunkPool` of `task`: in this process when `jobs` is 1, else in `jobs` worker processes that are ended
    on leaving (chunks still under way are dropped)."""
    if jobs <= 1:
        yield ChunkPool(task, 1)
        return
    ctx = multiprocessing.get_context("spawn")  # as `run_shards`: the parent may run threads
    pool = None
    try:
        with sigint_held():
            pool = ctx.Pool(jobs, initializer=_init_worker, initargs=(task,))
        yield ChunkPool(task, jobs, pool)
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()


def run_chunks(chunks: ChunkPool[T], next_spec: Callable[[], Spec | None],
               fold: Callable[[Spec, T], None]) -> None:
    """Play the chunks `next_spec()` hands out (None: no more for now) and give each result to `fold` in the
    order the specs were handed out, so what is folded does not depend on `jobs`; `next_spec` is asked again
    after every fold (it may stop early). With workers, up to `chunks.depth` chunks are under way at once
    (results past a stop are for `next_spec`'s caller to drop)."""
    flight: deque[Spec] = deque()
    while True:
        while len(flight) < chunks.depth and (spec := next_spec()) is not None:
            chunks.ahead(spec)
            flight.append(spec)
        if not flight:
            return
        spec = flight.popleft()
        fold(spec, chunks.take(spec))


def simulate(cs: CardSet, cfg: SimConfig, progress: Callable[[int], None] | None = None) -> SimResult:
    """Play `cfg.games` games; `progress(n)` is called as each batch of n games is done."""
    cfg.validate(cs)
    t0 = time.perf_counter()
    total: Batch | None = None
    for n, batch in run_shards(RangeTask(cs, cfg), cfg.games, cfg.jobs, cfg.cluster):
        if total is None:
            total = batch
        else:
            total.merge(batch)
        if progress is not None:
            progress(n)
    assert total is not None
    return SimResult(cfg, total, time.perf_counter() - t0)


def results_json(cs: CardSet, res: SimResult) -> dict[str, Any]:
    """The documented results dict (docs/simulation.md): statistics first, timings last."""
    cfg = res.config
    st = res.batch.stats
    out: dict[str, Any] = {
        "set": cs.name,
        "title": cs.title,
        "games": cfg.games,
        "players": cfg.players,
        "seed": cfg.seed,
        "agent": ",".join(cfg.agents),
        **({"budget": str(cfg.budget)} if "search" in cfg.agents else {}),
        "turn_cap": cs.rules.turn_cap,
        "invariant_checks": "every move" if cfg.check_every_move else "end of game",
    }
    out.update(st.summary(card_labels(cs)))
    secs = max(res.seconds, 1e-9)
    out["seconds"] = round(res.seconds, 3)
    out["jobs"] = cfg.jobs
    out["cluster"] = cfg.cluster
    out["games_per_s"] = round(cfg.games / secs, 1)
    out["decisions_per_s"] = round(st.decisions / secs, 1)
    return out


def add_rank_agreement(cs: CardSet, out: dict[str, Any], cfg: SimConfig, against: str,
                       progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Play the same games (same seed) with `against` in every seat and add `rank_agreement` to the results
    `out`: how alike the two bots rank the cards (a designer's check on whether the cheap bot can be trusted)."""
    other_cfg = replace(cfg, agents=agent_names(against))
    other = results_json(cs, simulate(cs, other_cfg, progress))
    agreement = rank_agreement(out["cards"], other["cards"], out["impact_measure"])
    out["rank_agreement"] = {"against": ",".join(other_cfg.agents), **agreement}
    for key in TIMING_KEYS:  # keep the timing keys last
        if key in out:
            out[key] = out.pop(key)
    return out
