"""A static, offline HTML gallery of card previews with the card table."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass

import jinja2

from cardgen.cardtable import card_rows
from cardgen.model import CardSet
from cardgen.paths import templates_dir

GALLERY_TEMPLATE = "gallery.html.j2"


@dataclass(frozen=True)
class PreviewImage:
    """A card preview file, relative to the gallery page, and its pixel size."""

    path: str
    width: int
    height: int


def gallery_html(cs: CardSet, images: Mapping[str, PreviewImage]) -> str:
    """The gallery page; `images` maps card names to their preview files (relative paths)."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates_dir())),
                             autoescape=jinja2.select_autoescape(["html", "j2"]), undefined=jinja2.StrictUndefined)
    rows = []
    for row in card_rows(cs):
        img = images.get(row.name)
        rows.append({**asdict(row), "image": img.path if img else "", "width": img.width if img else 0,
                     "height": img.height if img else 0})
    return env.get_template(GALLERY_TEMPLATE).render(title=cs.title, set_name=cs.name, total=cs.total, cards=rows)
