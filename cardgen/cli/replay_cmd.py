"""`cardgen replay SCENARIO.yaml`: play a scenario's moves and print the log and final state as JSON, or step
through it in the browser (`--open`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from cardgen.cli.common import fails_cleanly, report
from cardgen.engine.events import log_json
from cardgen.engine.replay import Replay, final_state
from cardgen.loader.scenario import load_scenario
from cardgen.play.launch import DEFAULT_PORT, sets_note, view_replay
from cardgen.scenario_spec import ScenarioError, changed_since


def _dump(sc: Replay) -> None:
    out = {"scenario": sc.spec.path, "sets": sc.spec.cs.name, "players": sc.state.game.names,
           "log": log_json(sc.state.game, sc.state.log or []), "final": final_state(sc.state)}
    click.echo(json.dumps(out, indent=1, ensure_ascii=False))


@click.command("replay")
@click.argument("scenario", type=click.Path(path_type=Path))  # a folder or a missing file: the reader says so
@click.option("--open", "open_viewer", is_flag=True,
              help="Step through the game in the browser instead: move by move, from any seat's view or with "
                   "every hand open, the log beside it. Ctrl-C ends the viewer.")
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(0, 65535),
              help="With --open: the viewer's port (the next free one if taken; 0: any).")
@click.option("--no-browser", is_flag=True, help="With --open: print the link, do not open the browser.")
@click.option("--lang", default=None, metavar="CODE", help="With --open: the viewer's language (en, de).")
@fails_cleanly
def command(scenario: Path, open_viewer: bool, port: int, no_browser: bool, lang: str | None) -> None:
    """Replay SCENARIO (see docs/scenarios.md) and print its log and final state as JSON.

    An invalid scenario, an illegal move or an unmet expectation is reported as file:line with the
    reason, and exits with 1 (after an illegal move, the state reached so far is still printed). A game
    saved from `cardgen play` names the sets it was played with; a card changed since is warned about.
    """
    spec = load_scenario(scenario)
    changes = changed_since(spec)
    report(changes)
    click.echo(sets_note(spec, changes), err=True)
    if open_viewer:
        view_replay(scenario, spec, port=port, lang=lang, echo=click.echo, open_browser=not no_browser)
        return
    sc = Replay(spec)
    try:
        problems = sc.run()
    except ScenarioError:
        _dump(sc)
        raise
    _dump(sc)
    if problems:
        report(problems)
        click.echo(f"{len(problems)} expectation{'s' if len(problems) != 1 else ''} not met", err=True)
        sys.exit(1)
    click.echo(f"{sc.spec.path}: {len(sc.spec.steps)} steps replayed, every expectation met", err=True)
