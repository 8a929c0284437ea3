"""Shared CLI plumbing: turning CardgenError into `error:` lines and exit code 1."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import click

from cardgen.checks import load_set_with_warnings
from cardgen.checks.language import in_language
from cardgen.errors import CardgenError, Diagnostic, SetError, error_text, report_lines
from cardgen.loader import bundled_set_names, mix_sets
from cardgen.loader.same_name import namesakes
from cardgen.model import CardSet
from cardgen.paths import card_data_dir
from cardgen.render.layout_data import paper_names
from cardgen.suggest import did_you_mean

P = ParamSpec("P")
R = TypeVar("R")
F = TypeVar("F", bound=Callable[..., Any])

class Choice(click.Choice):  # type: ignore[type-arg]
    """click.Choice (choices shown as [a|b] in --help, checked the same way everywhere) with a did-you-mean."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter as exc:
            self.fail(exc.message + did_you_mean(str(value), [str(c) for c in self.choices]), param, ctx)


class OutPath(click.Path):
    """click.Path that refuses an empty value: `--out ""` would otherwise write into the current folder."""

    def __init__(self) -> None:
        super().__init__(path_type=Path)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.strip():
            self.fail("is empty; give a file or folder name", param, ctx)
        return super().convert(value, param, ctx)


SET_OPTION = click.option("--set", "sets", multiple=True, metavar="SET",
                          help="A bundled set name or a path to a set folder; repeat to mix sets. "
                               "Default: each bundled set in turn.")
LANG_OPTION = click.option("--lang", default=None, metavar="CODE",
                           help="Print in this language (en, de): card text, labels and rules page, with the set's "
                                "own words from its lang/<CODE>.yaml. Default: the set's `language:` (en).")
SET_REQUIRED = click.option("--set", "sets", multiple=True, metavar="SET",
                            help="Required: a bundled set name or a path to a set folder; repeat to mix sets.")
SIZE_OPTION = click.option("--size", default="", metavar="SIZE",
                           help="Card size: poker, bridge, slip (default) or WxH in mm, e.g. 62x87.")
PAPER_OPTION = click.option("--paper", default="a4", show_default=True,
                            type=Choice(paper_names(), case_sensitive=False), help="Paper size.")


def out_option(where: str = "") -> Callable[[F], F]:
    """--out, the same on every command: the output folder, in which each set gets a sub-folder."""
    return click.option("--out", "out", default="output", show_default=True, type=OutPath(),
                        help=f"Output folder; each set gets a sub-folder{where}.")


def report(diags: list[Diagnostic]) -> None:
    for line in report_lines(diags):
        click.echo(line, err=True)


def fails_cleanly(fn: Callable[P, R]) -> Callable[P, R]:
    """Run a command body; a CardgenError (or an OSError) becomes its message on stderr and exit code 1."""

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
        except OSError as exc:  # a path the system refuses (too long, no permission...): a message, never a traceback
            said = f"{exc.filename}: {exc.strerror}" if exc.filename is not None and exc.strerror else str(exc)
            click.echo(error_text(OSError(said)), err=True)
            sys.exit(1)

    return wrapper


def warn_namesakes(cs: CardSet) -> None:
    """A home-made set with a namesake folder beside it (a copy that kept its `name:`): both write the same
    output folder, and compare would show them under one name."""
    if not cs.path or Path(cs.path).resolve().parent == card_data_dir().resolve():
        return
    others = namesakes(Path(cs.path), cs.name)
    if others:
        shown = ", ".join(os.path.relpath(o) for o in others)
        click.echo(f"warning: {cs.path} and {shown} are both set '{cs.name}': their builds share <out>/{cs.name}/ "
                   "and overwrite each other; give the copy its own `name:` in set.yaml", err=True)


def set_groups(sets: tuple[str, ...]) -> list[tuple[str, ...]]:
    """--set values to load: all given sets mixed into one deck, or each bundled set alone."""
    if sets:
        return [sets]
    return [(name,) for name in bundled_set_names()]


def load_group(group: tuple[str, ...], show_warnings: bool = True, lang: str | None = None) -> CardSet:
    """Load (and mix) a group of sets, printing warnings to stderr; in `lang` when given (`--lang`)."""
    loaded = []
    for ref in group:
        cs, warnings = load_set_with_warnings(ref)
        if lang is not None:
            from cardgen.render.preflight import translation_glyphs  # the faces: only a translated set needs them

            cs = in_language(cs, lang, warnings)
            glyphs = translation_glyphs(cs)  # at the translation's line, not the card's in the set's language
            if glyphs:
                raise SetError(glyphs)
        if show_warnings:
            report(warnings)
            warn_namesakes(cs)
        loaded.append(cs)
    if len({cs.language for cs in loaded}) > 1:
        spoken = ", ".join(f"{cs.name} is '{cs.language}'" for cs in loaded)
        raise CardgenError(f"the sets to mix print in different languages ({spoken}); choose one with --lang")
    mix_warnings: list[Diagnostic] = []
    mixed = mix_sets(loaded, mix_warnings)
    if show_warnings:
        report(mix_warnings)
    return mixed
