"""`cardgen preview`: PNG images of cards, rasterised from the printable PDF, and a contact sheet."""

from __future__ import annotations

from pathlib import Path

import click

from cardgen.cli.bounds import PREVIEW_DPI
from cardgen.cli.common import (
    LANG_OPTION,
    PAPER_OPTION,
    SET_OPTION,
    SIZE_OPTION,
    fails_cleanly,
    load_group,
    out_option,
    set_groups,
)
from cardgen.errors import CardgenError
from cardgen.output import check_writable
from cardgen.render.face_layout import bundled
from cardgen.render.preview import preview_files, write_previews
from cardgen.render.sheets import PrintOptions, resolve_layout
from cardgen.render.size_check import check_card_size, check_preview_pixels


@click.command("preview")
@SET_OPTION
@click.option("--card", default=None, metavar="NAME", help="Only this card.")
@click.option("--dpi", default=150, show_default=True, type=PREVIEW_DPI, help="Image resolution.")
@out_option(" (images in <out>/<set>/preview/)")
@PAPER_OPTION
@SIZE_OPTION
@LANG_OPTION
@fails_cleanly
def command(sets: tuple[str, ...], card: str | None, dpi: int, out: Path, paper: str, size: str,
            lang: str | None) -> None:
    """Render card previews (what prints) and one contact sheet per set."""
    opts = PrintOptions(paper=paper, size=size)
    resolve_layout(opts, bundled().face)
    groups = set_groups(sets)
    if card is not None and len(groups) != 1:
        raise CardgenError("--card needs --set")
    check_writable(out)
    files: dict[str, bytes] = {}
    for group in groups:
        cs = load_group(group, lang=lang)
        check_card_size(cs, size)
        check_preview_pixels(cs, opts, dpi, card is not None)
        files.update(preview_files(cs, opts, dpi, card))
    for path in write_previews(out, files):
        click.echo(str(path))
