"""`cardgen build`: card sheets, rules page and print file for each set (or one mixed deck)."""

from __future__ import annotations

from pathlib import Path

import click

from cardgen.cli.bounds import BLEED_MM, GAP_MM
from cardgen.cli.common import (
    LANG_OPTION,
    PAPER_OPTION,
    SET_OPTION,
    SIZE_OPTION,
    Choice,
    fails_cleanly,
    load_group,
    out_option,
    report,
    set_groups,
)
from cardgen.loader import resolve_set
from cardgen.model import CardSet
from cardgen.render.build import build
from cardgen.render.face_layout import bundled
from cardgen.render.layout_data import parse_offset
from cardgen.render.sheets import PrintOptions, layout_note, resolve_layout
from cardgen.render.size_check import check_card_size


@click.command("build")
@SET_OPTION
@out_option()
@PAPER_OPTION
@SIZE_OPTION
@click.option("--bleed", default=0.0, show_default=True, type=BLEED_MM, metavar="MM",
              help="Colour beyond the cut line on every side, in mm.")
@click.option("--gap", default=None, type=GAP_MM, metavar="MM",
              help="Gutter between neighbouring cards' cut lines, in mm (default: twice the bleed).")
@click.option("--layout", "layout", default="grid", show_default=True, type=Choice(["grid", "gutterfold"]),
              help="grid: fronts only (backs on their own pages with --backs); gutterfold: fronts and backs "
                   "side by side, to fold, glue and cut.")
@click.option("--backs", is_flag=True, help="Add a page of card backs after each page of fronts.")
@click.option("--duplex", default="long", show_default=True, type=Choice(["long", "short"]),
              help="How the printer turns the sheet for the backs.")
@click.option("--offset", default="0,0", show_default=True, metavar="X,Y",
              help="Shift of the back pages in mm, to correct a printer's duplex misalignment.")
@click.option("--proof", is_flag=True, help="One copy of each card instead of the full deck.")
@click.option("--watch", is_flag=True, help="Rebuild on every save of the set files; errors do not stop it.")
@LANG_OPTION
@fails_cleanly
def command(sets: tuple[str, ...], out: Path, paper: str, size: str, bleed: float, gap: float | None, layout: str,
            backs: bool, duplex: str, offset: str, proof: bool, watch: bool, lang: str | None) -> None:
    """Write <out>/<set>/<set>-cards.pdf and <set>-print.pdf (rules page + cards), ready to print at 100 %."""
    opts = PrintOptions(paper=paper, size=size, bleed=bleed, backs=backs or layout == "gutterfold", duplex=duplex,
                        offset=parse_offset(offset), proof=proof, gap=gap, layout=layout)
    note = layout_note(resolve_layout(opts, bundled().face))
    if note:
        click.echo(f"note: {note}", err=True)
    groups = set_groups(sets)
    if watch:
        from cardgen.render.memory import RulesMemory
        from cardgen.watch import Watcher  # only a watching build needs it

        folders = [resolve_set(ref) for group in groups for ref in group]
        kept = RulesMemory()  # every rebuild's: a rules page whose words did not change is reused
        watcher = Watcher(folders, lambda: build([load_group(g, lang=lang) for g in groups], opts, out,
                                                 show_progress=False, rules=kept),
                          lambda line: click.echo(line, err=True))
        click.echo(f"watching {', '.join(str(f) for f in folders)}", err=True)
        watcher.run()  # until Ctrl-C, which ends it with "aborted" and exit code 130 like any command
        return
    loaded = [load_group(group, lang=lang) for group in groups]
    for cs in loaded:
        check_card_size(cs, size)
        warn_unplayable(cs)
    for path in build(loaded, opts, out):
        click.echo(str(path))


def warn_unplayable(cs: CardSet) -> None:
    """What `validate` refuses for play (cards nobody can play, games that can never end), as warnings: the deck
    still prints, but the designer hears about it from the command they ran."""
    from cardgen.checks.before_build import unplayable_warnings

    found = unplayable_warnings(cs)
    report(found)
    if found:
        click.echo(f"warning: {cs.name}: built, but `cardgen validate` refuses it for the "
                   f"{'problem' if len(found) == 1 else f'{len(found)} problems'} above", err=True)
