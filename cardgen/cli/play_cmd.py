"""`cardgen play`: a rules-enforced table in the browser, against the bots or friends (docs/playing.md)."""

from __future__ import annotations

from pathlib import Path

import click

from cardgen.cli.bounds import Finite
from cardgen.cli.common import fails_cleanly
from cardgen.errors import CardgenError
from cardgen.play.launch import DEFAULT_PACE, DEFAULT_PORT, PlayOptions, play
from cardgen.sim.agents import DEFAULT_BUDGET, parse_budget


@click.command("play")
@click.option("--set", "sets", multiple=True, metavar="SET",
              help="A bundled set name or a path to a set folder; repeat to mix sets. Required unless --resume.")
@click.option("--players", default=2, show_default=True, type=int, help="Seats at the table (2 to 12).")
@click.option("--bots", default=None, metavar="LIST",
              help="Who sits in the other seats: random, greedy, search or human (a friend), one name for all "
                   "or a comma list, one per seat. [default: search]")
@click.option("--budget", default=DEFAULT_BUDGET, show_default=True, metavar="N|Nms",
              help="The search bot's budget a decision: N iterations, or N milliseconds ('50ms').")
@click.option("--pace", default=DEFAULT_PACE, show_default=True, type=Finite(0, 30),
              help="Seconds between two bot moves.")
@click.option("--seed", default=None, type=click.IntRange(0), help="The deal (default: a new one each game).")
@click.option("--names", default=None, metavar="A,B,...", help="The seats' names, yours first.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; 0.0.0.0 lets other devices on your network join.")
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(0, 65535),
              help="Port (the next free one if taken; 0: any).")
@click.option("--no-browser", is_flag=True, help="Do not open the browser; just print the links.")
@click.option("--lang", default=None, metavar="CODE",
              help="Play in this language (en, de): the log, the buttons and the page's words, and the cards and "
                   "rules page as `build --lang` prints them. Default: the set's `language:` (en).")
@click.option("--resume", default=None, metavar="SAVE", type=click.Path(path_type=Path),
              help="Continue a game saved from the table (its sets, seats and deal; you take the first seat, "
                   "--bots the others).")
@fails_cleanly
def command(sets: tuple[str, ...], players: int, bots: str | None, budget: str, pace: float, seed: int | None,
            names: str | None, host: str, port: int, no_browser: bool, lang: str | None,
            resume: Path | None) -> None:
    """Play SET in the browser, every rule enforced: your seat against bots or friends.

    Prints a link per person's seat (each with its own secret token) and serves the table until Ctrl-C.
    The page can save the game at any moment as a scenario file that `cardgen replay` plays back.
    """
    if resume is not None and (sets or seed is not None or names):
        raise CardgenError("--resume plays the saved game's sets, deal and names: give no --set, --seed or --names")
    if not sets and resume is None:
        raise CardgenError("--set is required (a bundled set name or a set folder), or --resume SAVE")
    parse_budget(budget)
    play(PlayOptions(sets=sets, players=players, bots=bots, seed=seed, budget=budget, pace=pace, host=host,
                     port=port, names=names, open_browser=not no_browser, lang=lang, resume=resume), echo=click.echo,
         warn=lambda line: click.echo(line, err=True))
