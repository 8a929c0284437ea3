"""Files of the static gallery: preview PNGs plus `index.html`, relative to the output folder."""

from __future__ import annotations

from cardgen.model import CardSet
from cardgen.numbering import card_file_stem
from cardgen.render.gallery import PreviewImage, gallery_html
from cardgen.render.preview import card_images, png_bytes
from cardgen.render.sheets import PrintOptions

GALLERY_DPI = 110.0


def gallery_files(cs: CardSet, opts: PrintOptions | None = None, dpi: float = GALLERY_DPI) -> dict[str, bytes]:
    """`<set>/index.html` and the `<set>/gallery/*.png` it shows (readable offline, no external files)."""
    images = card_images(cs, opts or PrintOptions(), dpi)
    files: dict[str, bytes] = {}
    refs: dict[str, PreviewImage] = {}
    for im in images:
        rel = f"gallery/{card_file_stem(im.card, cs)}.png"
        files[f"{cs.name}/{rel}"] = png_bytes(im.image, dpi)
        refs[im.card.name] = PreviewImage(rel, im.image.width, im.image.height)
    files[f"{cs.name}/index.html"] = gallery_html(cs, refs).encode("utf-8")
    return files
