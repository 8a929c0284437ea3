"""`cardgen play`: seat the table, start the pictures and the server, print each person's link, open the browser."""

from __future__ import annotations

import secrets
import socket
import sys
import webbrowser
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cardgen.errors import report_lines
from cardgen.play.art import TableArt
from cardgen.play.server import TableServer, bind, serve
from cardgen.play.table import Table
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


