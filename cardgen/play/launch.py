"""What `cardgen play` and `cardgen replay --open` run: seat the table (or load the saved game), render the pictures,
start the server, print the links, open the browser."""

from __future__ import annotations

import secrets
import socket
import sys
import webbrowser
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cardgen.errors import Diagnostic, report_lines
from cardgen.loader.load import is_path_like
from cardgen.play.art import TableArt
from cardgen.play.replay_server import ReplayServer
from cardgen.play.replay_view import replay_data
from cardgen.play.server import TableServer, bind, serve
from cardgen.play.table import Table, load_deck
from cardgen.scenario_spec import ScenarioSpec
from cardgen.sim.agents import DEFAULT_BUDGET

DEFAULT_PACE = 0.8  # seconds between two bot moves: slow enough to read the log line by line
DEFAULT_PORT = 8765


@dataclass(frozen=True)
class PlayOptions:
    sets: tuple[str, ...]
    players: int = 2
    bots: str | None = None
    seed: int | None = None
    budget: str = DEFAULT_BUDGET
    pace: float = DEFAULT_PACE
    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    names: str | None = None
    open_browser: bool = True
    lang: str | None = None  # None: the sets' own `language:`
    resume: Path | None = None  # a saved game to continue (its sets, seats and deal)


def lan_address() -> str:
    """This machine's address on its network (what a phone on the same Wi-Fi types), else 127.0.0.1."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))  # no packet is sent: this only picks the outgoing interface
            addr: str = s.getsockname()[0]
            return addr
        except OSError:
            return "127.0.0.1"


def links(table: Table, base: str) -> list[tuple[str, str]]:
    """(seat name, link) of every person's seat, the host's first."""
    return [(seat.name, f"{base}/t/{seat.token}") for seat in table.seats if not seat.bot]


def _stderr(text: str) -> None:
    print(text, file=sys.stderr)


def play(opts: PlayOptions, echo: Callable[[str], None] = print,
         opener: Callable[[str], object] = webbrowser.open, warn: Callable[[str], None] = _stderr) -> None:
    """Serve a table until interrupted."""
    if opts.resume is not None:
        table = Table.resume(opts.resume, bots=opts.bots, budget=opts.budget, lang=opts.lang)
        seed = table.seed
    else:
        seed = opts.seed if opts.seed is not None else secrets.randbelow(1_000_000)
        table = Table.open(opts.sets, players=opts.players, bots=opts.bots, seed=seed, budget=opts.budget,
                           names=opts.names, lang=opts.lang)
    for line in report_lines(table.warnings):
        warn(line)
    art = TableArt(table.cs)
    art.render()  # what `cardgen build` refuses (a name too wide for its band...) is refused here the same way
    sock = bind(opts.host, opts.port)
    port = sock.getsockname()[1]
    shown = lan_address() if opts.host in ("0.0.0.0", "::", "") else opts.host
    base = f"http://{shown}:{port}"
    echo(f"{table.cs.title}: {len(table.seats)} players, seed {seed} "
         f"({', '.join(f'{s.name}: {s.kind}' for s in table.seats)})")
    if opts.resume is not None:
        echo(f"  resumed from {opts.resume} at turn {table.state.turn}, move {table.version}")
    seats = links(table, base)
    for i, (name, link) in enumerate(seats):
        echo(f"  {name}{' (you)' if i == 0 else ''}: {link}")
    if len(seats) > 1 and opts.host == "127.0.0.1":
        echo("  (other devices cannot reach 127.0.0.1: start with --host 0.0.0.0 to play across the network)")
    echo("Ctrl-C ends the table.")
    if opts.open_browser:
        opener(seats[0][1])
    serve(TableServer(table, art, opts.pace), sock)




def sets_note(spec: ScenarioSpec, changes: list[Diagnostic]) -> str:
    """What `cardgen replay` says of the sets a scenario plays: which, and whether they are as when saved."""
    sets = ", ".join(spec.sets)
    if not spec.made_with:
        return f"sets: {sets} (the file does not say what their cards were when it was written)"
    if changes:
        n = len(changes)
        return f"sets: {sets}; changed since the game was saved ({n} warning{'s' if n != 1 else ''} above)"
    return f"sets: {sets}; every card as when the game was saved"


def view_replay(path: Path, spec: ScenarioSpec, port: int = DEFAULT_PORT, host: str = "127.0.0.1",
                lang: str | None = None, echo: Callable[[str], None] = print,
                opener: Callable[[str], object] = webbrowser.open, open_browser: bool = True) -> None:
    """Serve the replay viewer of scenario `spec` (read from `path`) until interrupted."""
    cs = spec.cs
    if lang is not None and lang != cs.language:
        cs = load_deck([_ref(path, r) for r in spec.sets], lang, [])
    data = replay_data(spec, cs.language, cs)
    art = TableArt(cs)
    art.render()
    sock = bind(host, port)
    link = f"http://{host}:{sock.getsockname()[1]}/"
    echo(f"{data.title}: {len(data.frames) - 1} decisions, replayed at {link}")
    echo("Ctrl-C ends the viewer.")
    if open_browser:
        opener(link)
    serve(ReplayServer(data, art, cs.language), sock)


def _ref(path: Path, ref: str) -> str:
    """A scenario's set reference as `--set` takes it: a folder relative to the file made absolute."""
    return str((path.parent / ref).resolve()) if is_path_like(ref) else ref
