"""`cardgen replay SCENARIO.yaml`: play a scenario's moves and print the log and final state as JSON."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from cardgen.cli.common import fails_cleanly, report
from cardgen.engine.events import log_json
from cardgen.engine.replay import Replay, final_state
from cardgen.loader.scenario import load_scenario
from cardgen.scenario_spec import ScenarioError


def _dump(sc: Replay) -> None:
    out = {"scenario": sc.spec.path, "sets": sc.spec.cs.name, "players": sc.state.game.names,
           "log": log_json(sc.state.game, sc.state.log or []), "final": final_state(sc.state)}
    click.echo(json.dumps(out, indent=1, ensure_ascii=False))


@click.command("replay")
@click.argument("scenario", type=click.Path(path_type=Path))  # a folder or a missing file: the reader says so
@fails_cleanly
def command(scenario: Path) -> None:
    """Replay SCENARIO (see docs/scenarios.md) and print its log and final state as JSON.

    An invalid scenario, an illegal move or an unmet expectation is reported as file:line with the
    reason, and exits with 1 (after an illegal move, the state reached so far is still printed).
    """
    sc = Replay(load_scenario(scenario))
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
