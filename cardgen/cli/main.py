"""Entry point: the `cardgen` group and its commands, each in its own module."""

from __future__ import annotations

import importlib

import click

from cardgen import __version__

# Each module defines `command`, a click.Command; the order is the help order.
COMMAND_MODULES: tuple[str, ...] = (
    "cardgen.cli.build_cmd",
    "cardgen.cli.validate_cmd",
    "cardgen.cli.list_cmd",
    "cardgen.cli.schema_cmd",
    "cardgen.cli.rules_cmd",
    "cardgen.cli.preview_cmd",
    "cardgen.cli.replay_cmd",
    "cardgen.cli.simulate_cmd",
    "cardgen.cli.export_cmd",
    "cardgen.cli.new_cmd",
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="cardgen")
def main() -> None:
    """Card sheets, rules pages and simulated games for Lunch Money, Beer Money and home-made sets."""


for _name in COMMAND_MODULES:
    try:
        _module = importlib.import_module(_name)
    except ModuleNotFoundError as _exc:
        if _exc.name != _name:
            raise
        continue
    main.add_command(_module.command)


if __name__ == "__main__":
    main()
