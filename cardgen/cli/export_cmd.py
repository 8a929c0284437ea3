"""`cardgen export`: digital versions of a deck (Tabletop Simulator, an offline HTML gallery)."""

from __future__ import annotations

from pathlib import Path

import click

from cardgen.cli.bounds import BLEED_MM, SHOP_DPI, TTS_DPI
from cardgen.cli.common import (
    LANG_OPTION,
    SET_OPTION,
    SET_REQUIRED,
    OutPath,
    fails_cleanly,
    load_group,
    out_option,
    set_groups,
)
from cardgen.errors import OutputError
from cardgen.export.gallery_files import gallery_files
from cardgen.export.print_shop import DEFAULT_BLEED_MM, export_print_shop
from cardgen.export.print_shop import DEFAULT_DPI as DEFAULT_SHOP_DPI
from cardgen.export.shops import PAGE_MODES, SHOP_NAMES
from cardgen.export.tts import DEFAULT_DPI, LOCAL_ONLY, MAX_SHEET_PX, check_url_base, export_tts
from cardgen.output import publish_files, resolved, write_atomic
from cardgen.sheets import export_sheet
from cardgen.sheets.export import sheet_rows

OUT_OPTION = out_option()


@click.group("export")
def command() -> None:
    """Export a deck for online play or for the web."""


@command.command("tts")
@SET_OPTION
@OUT_OPTION
@click.option("--dpi", default=DEFAULT_DPI, show_default=True, type=TTS_DPI,
              help="Resolution of the card images.")
@click.option("--url-base", default=None,
              help="URL prefix (http, https or file) for the images in the JSON: where you upload them; default: "
                   "the local file URLs, which work on this machine only.")
@click.option("--large-sheets", is_flag=True,
              help=f"Keep the card images at --dpi even if a sheet gets over {MAX_SHEET_PX} px (with a warning).")
@LANG_OPTION
@fails_cleanly
def tts(sets: tuple[str, ...], out: Path, dpi: float, url_base: str | None, large_sheets: bool,
        lang: str | None) -> None:
    """Tabletop Simulator face sheets (one slot per design), a back image and a saved-object JSON."""
    if url_base is not None:
        check_url_base(url_base)  # before any work
    for group in set_groups(sets):
        cs = load_group(group, lang=lang)
        folder = out / cs.name / "tts"
        base = check_url_base(url_base) if url_base is not None else resolved(folder).as_uri() + "/"
        result = export_tts(cs, dpi=dpi, url_base=base, max_sheet_px=None if large_sheets else MAX_SHEET_PX)
        for path in publish_files(out, {f"{cs.name}/tts/{name}": data for name, data in result.files.items()}):
            click.echo(str(path))
        for warning in result.warnings:
            click.echo(f"warning: {warning}", err=True)
        if base.lower().startswith("file:"):
            click.echo(f"warning: {LOCAL_ONLY}", err=True)
        click.echo(f"{cs.name}: {result.cards} cards in {result.designs} designs on {result.sheets} sheet(s) "
                   f"of up to {result.sheet_px[0]}x{result.sheet_px[1]} px, "
                   f"{result.card_px[0]}x{result.card_px[1]} px a card")


@command.command("sheet")
@SET_REQUIRED
@click.option("--out", "out", required=True, type=OutPath(), metavar="FILE.csv|FILE.xlsx",
              help="The spreadsheet to write; its extension picks the format.")
@fails_cleanly
def sheet(sets: tuple[str, ...], out: Path) -> None:
    """The cards as a spreadsheet: one row a card, a column per field, headed as in the YAML."""
    groups = set_groups(sets)
    if len(groups) != 1:
        raise OutputError("give the set to export with --set")
    cs = load_group(groups[0])
    own_only = len(groups[0]) == 1  # a set's own cards and overrides; a mixed deck has no single folder
    written = sheet_rows(cs, own_only)[1:]
    write_atomic(out, export_sheet(cs, out, own_only))
    inherited = len(cs.cards) - len(written)
    click.echo(f"{out}: {len(written)} designs, {sum(int(r[2] or 0) for r in written)} cards"
               + (f" (the set's own and overridden cards; {inherited} inherited unchanged are not in the sheet)"
                  if inherited else ""))


@command.command("print-shop")
@SET_OPTION
@OUT_OPTION
@click.option("--size", default=None, metavar="SIZE",
              help="Card size: poker (default), bridge, slip or WxH in mm. A --shop fixes it.")
@click.option("--bleed", default=None, type=BLEED_MM, metavar="MM",
              help=f"Bleed on every side, in mm (default {DEFAULT_BLEED_MM:g}, 1/8 in). A --shop fixes it.")
@click.option("--dpi", default=None, type=SHOP_DPI,
              help=f"Resolution of the PNGs (default {DEFAULT_SHOP_DPI:g}); with --shop one it takes (mpc: 300, "
                   "600 or 900).")
@click.option("--cmyk", is_flag=True, help="Write the PDF's inks as device CMYK, as a PDF/X-1a:2003 file.")
@click.option("--shop", type=click.Choice(SHOP_NAMES), default=None,
              help="Take size, bleed, dpi, safe zone, page order and inks from this shop's spec.")
@click.option("--pages", type=click.Choice(PAGE_MODES), default=None,
              help="A file and page per design (default), per copy, or per copy as a back/front pair.")
@LANG_OPTION
@fails_cleanly
def print_shop(sets: tuple[str, ...], out: Path, size: str | None, bleed: float | None, dpi: float | None, cmyk: bool,
               shop: str | None, pages: str | None, lang: str | None) -> None:
    """A PNG per card design at the shop's pixel size, a one-card-a-page PDF (TrimBox, BleedBox) and the
    copies of each (docs/printing.md lists the shops' specs)."""
    for group in set_groups(sets):
        cs = load_group(group, lang=lang)
        result = export_print_shop(cs, size, bleed, dpi, cmyk, shop, pages)
        folder = out / cs.name / "print-shop"
        publish_files(out, {f"{cs.name}/print-shop/{name}": data for name, data in result.files.items()})
        backs = "a back" if result.backs == 1 else f"{result.backs} backs"
        click.echo(f"{folder}: {result.designs} designs and {backs}, {result.card_px[0]} x {result.card_px[1]} px "
                   f"({result.page_mm[0]:g} x {result.page_mm[1]:g} mm at {result.dpi:g} dpi)")


@command.command("gallery")
@SET_OPTION
@OUT_OPTION
@LANG_OPTION
@fails_cleanly
def gallery(sets: tuple[str, ...], out: Path, lang: str | None) -> None:
    """`<out>/<set>/index.html`: card previews and the card table, readable offline."""
    for group in set_groups(sets):
        cs = load_group(group, lang=lang)
        publish_files(out, gallery_files(cs))
        click.echo(str(out / cs.name / "index.html"))
