"""`cardgen export`: digital versions of a deck (Tabletop Simulator, an offline HTML gallery)."""

from __future__ import annotations

from pathlib import Path

import click

from cardgen.cli.common import SET_OPTION, fails_cleanly, load_group, out_option, set_groups
from cardgen.export.gallery_files import gallery_files
from cardgen.export.tts import DEFAULT_DPI, export_tts
from cardgen.output import publish_files

OUT_OPTION = out_option()


@click.group("export")
def command() -> None:
    """Export a deck for online play or for the web."""


@command.command("tts")
@SET_OPTION
@OUT_OPTION
@click.option("--dpi", default=DEFAULT_DPI, show_default=True, type=click.FloatRange(30, 400),
              help="Resolution of the card images.")
@click.option("--url-base", default=None,
              help="URL prefix for the images in the JSON (where you upload them); default: the local file URLs.")
@fails_cleanly
def tts(sets: tuple[str, ...], out: Path, dpi: float, url_base: str | None) -> None:
    """Tabletop Simulator face sheets (10 x 7), a back image and a saved-object JSON."""
    for group in set_groups(sets):
        cs = load_group(group)
        folder = out / cs.name / "tts"
        base = url_base if url_base is not None else folder.resolve().as_uri() + "/"
        result = export_tts(cs, dpi=dpi, url_base=base)
        for path in publish_files(out, {f"{cs.name}/tts/{name}": data for name, data in result.files.items()}):
            click.echo(str(path))
        click.echo(f"{cs.name}: {result.cards} cards on {result.sheets} sheet(s), "
                   f"{result.card_px[0]}x{result.card_px[1]} px each")


@command.command("gallery")
@SET_OPTION
@OUT_OPTION
@fails_cleanly
def gallery(sets: tuple[str, ...], out: Path) -> None:
    """`<out>/<set>/index.html`: card previews and the card table, readable offline."""
    for group in set_groups(sets):
        cs = load_group(group)
        publish_files(out, gallery_files(cs))
        click.echo(str(out / cs.name / "index.html"))
