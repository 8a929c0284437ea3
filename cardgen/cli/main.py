"""Entry point: the `cardgen` group and its commands, each in its own module."""

from __future__ import annotations

import sys

import click

from cardgen import __version__
from cardgen.cli import (
    build_cmd,
    compare_cmd,
    export_cmd,
    list_cmd,
    new_cmd,
    preview_cmd,
    replay_cmd,
    rules_cmd,
    schema_cmd,
    simulate_cmd,
    validate_cmd,
)
from cardgen.cli.entry import aborted
from cardgen.errors import shorten_values

# Each module defines `command`, a click.Command; this order is the help order.
COMMANDS: tuple[click.Command, ...] = (
    build_cmd.command, validate_cmd.command, list_cmd.command, schema_cmd.command, rules_cmd.command,
    preview_cmd.command, replay_cmd.command, simulate_cmd.command, compare_cmd.command, export_cmd.command,
    new_cmd.command)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="cardgen")
def main() -> None:
    """Card sheets, rules pages and simulated games for Lunch Money, Beer Money and home-made sets."""


for _command in COMMANDS:
    main.add_command(_command)


def run() -> None:
    """Console entry point: like `main`, but a usage error exits with 1, as every other bad input does.

    Click's own convention is exit code 2 for usage errors; the project promises 1 for any bad input.
    """
    try:
        main(standalone_mode=False)
    except (click.exceptions.Abort, KeyboardInterrupt):
        aborted()
    except click.UsageError as exc:  # the same `error: ...` line as every other problem, then where to look
        where = f" (see {exc.ctx.command_path} --help)" if exc.ctx is not None else ""
        click.echo(f"error: {shorten_values(exc.format_message())}{where}", err=True)
        sys.exit(1)
    except click.ClickException as exc:
        click.echo(f"error: {shorten_values(exc.format_message())}", err=True)
        sys.exit(1)


if __name__ == "__main__":
    try:
        run()
    except KeyboardInterrupt:
        aborted()
