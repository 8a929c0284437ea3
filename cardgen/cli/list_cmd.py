"""`cardgen list`: the card table of a set, as text or JSON."""

from __future__ import annotations

import json

import click

from cardgen.cardtext import summary
from cardgen.cli.common import SET_OPTION, fails_cleanly, load_group, set_groups
from cardgen.errors import CardgenError


@click.command("list")
@SET_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@fails_cleanly
def command(sets: tuple[str, ...], as_json: bool) -> None:
    """List the cards of a set: name, type, count, mechanics summary, source; totals."""
    if not sets:
        raise CardgenError("list needs --set")
    cs = load_group(set_groups(sets)[0])
    rows = [{"number": c.number, "name": c.name, "type": c.type, "count": c.count,
             "summary": summary(c, cs), "source": c.source, "origin": c.origin} for c in cs.cards]
    by_type: dict[str, int] = {}
    by_source: dict[str, int] = {}
    for c in cs.cards:
        by_type[c.type] = by_type.get(c.type, 0) + c.count
        by_source[c.source] = by_source.get(c.source, 0) + c.count
    if as_json:
        click.echo(json.dumps({"set": cs.name, "title": cs.title, "deck_size": cs.deck_size, "total": cs.total,
                               "by_type": by_type, "by_source": by_source, "cards": rows}, indent=2,
                              ensure_ascii=False))
        return
    width = max(len(c.name) for c in cs.cards) if cs.cards else 4
    click.echo(f"{'#':>3}  {'name':<{width}}  {'type':<10} {'n':>2}  {'source':<14} summary")
    for r in rows:
        click.echo(f"{r['number']:>3}  {r['name']:<{width}}  {r['type']:<10} {r['count']:>2}  {r['source']:<14} "
                   f"{r['summary']}")
    click.echo(f"total: {cs.total} cards in {len(rows)} designs (declared {cs.deck_size}); "
               + ", ".join(f"{k} {v}" for k, v in by_type.items()))
