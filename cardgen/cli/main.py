"""Entry point: the `cardgen` group and its commands, each in its own module."""

from __future__ import annotations

import gc
import importlib
import sys
from collections.abc import Sequence
from typing import Any

import click

from cardgen import BUILD, __version__
from cardgen.cli.entry import aborted
from cardgen.errors import shorten_values
from cardgen.suggest import did_you_mean

# Command name -> module defining `command`, a click.Command; this order is the help order. Modules are
# imported only when their command runs (or help lists them), so `build` never loads the simulator.
COMMAND_MODULES: dict[str, str] = {
    "build": "build_cmd", "validate": "validate_cmd", "list": "list_cmd", "schema": "schema_cmd",
    "rules": "rules_cmd", "preview": "preview_cmd", "replay": "replay_cmd", "simulate": "simulate_cmd",
    "compare": "compare_cmd", "tune": "tune_cmd", "play": "play_cmd", "export": "export_cmd",
    "import": "import_cmd", "new": "new_cmd", "new-language": "new_language_cmd",
}


class LazyGroup(click.Group):
    """A group that imports a command's module the first time the command is asked for, and whose every
    usage error ends as any bad input does (an `error:` line, exit code 1), also when called as click's
    standalone `main()` (tests call it so)."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            code = super().main(args, prog_name, complete_var, False, **extra)
        except (click.exceptions.Abort, KeyboardInterrupt):
            aborted()
        except click.ClickException as exc:
            usage_failed(exc)
        sys.exit(code if isinstance(code, int) else 0)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMAND_MODULES)

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None,
                                                                            list[str]]:
        """The command named first in `args`; an unknown name is a usage error with the closest command."""
        name = args[0] if args else ""
        if name and self.get_command(ctx, name) is None and not name.startswith("-"):
            hint = did_you_mean(name, list(COMMAND_MODULES))
            if not hint and name.lower() in ("help", "h", "?"):
                hint = ": the help is `cardgen --help`, and `cardgen COMMAND --help` for one command"
            ctx.fail(f"no such command '{name}'{hint or '; the commands are ' + ', '.join(COMMAND_MODULES)}")
        return super().resolve_command(ctx, args)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module = COMMAND_MODULES.get(cmd_name)
        if module is None:
            return None
        command: click.Command = importlib.import_module(f"cardgen.cli.{module}").command
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]}, invoke_without_command=True)
@click.version_option(__version__, prog_name="cardgen",
                      message=f"%(prog)s, version %(version)s\n{BUILD.line()}")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Card sheets, rules pages and simulated games for Lunch Money, Beer Money and home-made sets."""
    if ctx.invoked_subcommand is None:  # bare `cardgen`: the whole help, as --help prints it, not an error
        click.echo(ctx.get_help())


# Allocations between two young-generation garbage collections (Python's default: 700), and how many of those
# before an older generation is collected (default 10, 10). A command builds many objects and leaves little
# cyclic garbage (a build of beer: about 400 objects), so at the defaults it spends a noticeable share of its
# time in collections that find next to nothing.
# mypy tunes its process the same way.
GC_THRESHOLDS = (200_000, 30, 30)


def run() -> None:
    """Console entry point: like `main`, but a usage error exits with 1, as every other bad input does.

    Click's own convention is exit code 2 for usage errors; the project promises 1 for any bad input.
    On the way out every object is moved to the collector's permanent generation (`gc.freeze`), so the
    interpreter's last collection does not walk them all again (a tenth of a build's time); the files
    are written and closed by then, and nothing else happens at exit.
    """
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        _run()
    finally:
        gc.freeze()


def usage_failed(exc: click.ClickException) -> None:
    """The same `error: ...` line as every other problem (then, for a usage error, where to look); exit 1."""
    where = f" (see {exc.ctx.command_path} --help)" if isinstance(exc, click.UsageError) and exc.ctx else ""
    click.echo(f"error: {shorten_values(exc.format_message())}{where}", err=True)
    sys.exit(1)


def _run() -> None:
    try:
        main(standalone_mode=False)
    except (click.exceptions.Abort, KeyboardInterrupt):
        aborted()
    except click.ClickException as exc:
        usage_failed(exc)


if __name__ == "__main__":
    try:
        run()
    except KeyboardInterrupt:
        aborted()
