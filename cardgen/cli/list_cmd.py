"""`cardgen list`: the card table of a set, as text or JSON."""

from __future__ import annotations

import json

import click

from cardgen.cardtable import card_rows, table_json, totals
from cardgen.cli.common import LANG_OPTION, SET_REQUIRED, fails_cleanly, load_group, set_groups
from cardgen.errors import CardgenError


@click.command("list")
@SET_REQUIRED
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@LANG_OPTION
@fails_cleanly
def command(sets: tuple[str, ...], as_json: bool, lang: str | None) -> None:
    """List the cards of a set: name, type, count, mechanics summary, source; totals."""
    if not sets:
        raise CardgenError("list needs --set")
    cs = load_group(set_groups(sets)[0], lang=lang)
    if as_json:
        click.echo(json.dumps(table_json(cs), indent=2, ensure_ascii=False))
        return
    rows = card_rows(cs)
    width = max((len(r.name) for r in rows), default=4)
    click.echo(f"{'#':>3}  {'name':<{width}}  {'type':<10} {'n':>2}  {'source':<14} summary")
    for r in rows:
        click.echo(f"{r.number:>3}  {r.name:<{width}}  {r.type:<10} {r.count:>2}  {r.source:<14} {r.summary}")
    t = totals(cs)
    click.echo(f"total: {t['total']} cards in {t['designs']} designs (declared {t['deck_size']}); "
               + ", ".join(f"{k} {v}" for k, v in t["by_type"].items()))
