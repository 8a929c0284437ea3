"""Shared CLI plumbing: turning CardgenError into `error:` lines and exit code 1."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import click

from cardgen.errors import CardgenError, Diagnostic, SetError, error_text
from cardgen.loader import bundled_set_names, load_set_with_warnings, mix_sets
from cardgen.model import CardSet

P = ParamSpec("P")
R = TypeVar("R")

SET_OPTION = click.option("--set", "sets", multiple=True, metavar="SET",
                          help="A bundled set name or a path to a set folder; repeat to mix sets.")


def report(diags: list[Diagnostic]) -> None:
    for d in diags:
        click.echo(str(d), err=True)


def fails_cleanly(fn: Callable[P, R]) -> Callable[P, R]:
    """Run a command body; a CardgenError becomes its message on stderr and exit code 1."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except SetError as exc:
            report(exc.diagnostics)
            n = len(exc.errors)
            click.echo(f"{n} error{'s' if n != 1 else ''} found", err=True)
            sys.exit(1)
        except CardgenError as exc:
            click.echo(error_text(exc), err=True)
            sys.exit(1)

    return wrapper


def set_groups(sets: tuple[str, ...]) -> list[tuple[str, ...]]:
    """--set values to load: all given sets mixed into one deck, or each bundled set alone."""
    if sets:
        return [sets]
    return [(name,) for name in bundled_set_names()]


def load_group(group: tuple[str, ...], show_warnings: bool = True) -> CardSet:
    """Load (and mix) a group of sets, printing warnings to stderr."""
    loaded = []
    for ref in group:
        cs, warnings = load_set_with_warnings(ref)
        if show_warnings:
            report(warnings)
        loaded.append(cs)
    mix_warnings: list[Diagnostic] = []
    mixed = mix_sets(loaded, mix_warnings)
    if show_warnings:
        report(mix_warnings)
    return mixed
