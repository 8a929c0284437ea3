"""Checks of card art named by `art:`: inside the set folder, a readable image, enough pixels.

Pillow opens and verifies each image so a corrupt file is reported with the card
that names it, instead of failing half-way through a print run.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import NamedTuple

from PIL import Image, UnidentifiedImageError

from cardgen.bounded_read import not_regular
from cardgen.errors import Diagnostic
from cardgen.model import Card

ART_FORMATS: frozenset[str] = frozenset({"PNG", "JPEG", "WEBP", "GIF", "TIFF"})
MIN_DPI = 300
# The art box on a poker card with the bundled face layout (mm); used to judge resolution at validation.
NOMINAL_ART_BOX_MM = (57.5, 22.6)
MAX_ART_PIXELS = 40_000_000  # a decompression bomb is refused, not decoded


def art_path(card: Card, set_folder: Path) -> Path | None:
    """The art file of `card` resolved inside its set folder, or None when it escapes the folder."""
    if card.art is None:
        return None
    base = set_folder.resolve()
    target = (base / card.art).resolve()
    try:
        target.relative_to(base)
    except ValueError:
        return None
    return target


def check_art(card: Card, set_folder: Path, box_mm: tuple[float, float]) -> list[Diagnostic]:
    """Problems with the card's art: errors for unusable files, a warning below MIN_DPI at `box_mm`."""
    if card.art is None:
        return []

    def diag(msg: str, severity: str = "error") -> Diagnostic:
        return Diagnostic(card.file, card.line, card.column, f"card '{card.name}' field `art`: {msg}",
                          "warning" if severity == "warning" else "error")

    path = art_path(card, set_folder)
    if path is None:
        return [diag(f"'{card.art}' is outside the set folder; art must live inside it")]
    facts = read_image(path, card.art)
    if isinstance(facts, str):
        return [diag(facts)]
    if facts.format not in ART_FORMATS:
        return [diag(f"image '{card.art}' is {facts.format}; expected one of {', '.join(sorted(ART_FORMATS))}")]
    dpi = min(facts.width / (box_mm[0] / 25.4), facts.height / (box_mm[1] / 25.4))
    if dpi < MIN_DPI:
        return [diag(f"image '{card.art}' gives {dpi:.0f} dpi at {box_mm[0]:.1f} x {box_mm[1]:.1f} mm; "
                     f"{MIN_DPI} dpi or more prints sharp", "warning")]
    return []


class ImageFacts(NamedTuple):
    """What a readable image is: its format and size in pixels."""

    format: str
    width: int
    height: int


def read_image(path: Path, shown: str) -> ImageFacts | str:
    """The image's format and size, or why it cannot be used (the message names it as `shown`).

    The one check of an image file, shared by card art and PNG icons (and images an SVG icon embeds), so all
    have the same limits and the same words: a regular file (a FIFO would block), at most MAX_ART_PIXELS
    (refused from the header, before any decoding; Pillow's own bomb warning is not shown), decodable.
    """
    why = not_regular(path)
    if why == "not found":
        return f"image '{shown}' not found"
    if why is not None:
        return f"image '{shown}' is {why}"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # the limit below is ours
            with Image.open(path) as img:
                fmt = img.format or "?"
                width, height = img.size
                if width * height > MAX_ART_PIXELS:
                    return f"image '{shown}' is {width}x{height} pixels, over the {MAX_ART_PIXELS:,}-pixel limit"
                img.verify()
            with Image.open(path) as img:
                img.load()
    except Image.DecompressionBombError:
        return f"image '{shown}' declares more than {MAX_ART_PIXELS:,} pixels; refused"
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        return f"image '{shown}' cannot be read ({type(exc).__name__}: {exc}); is it corrupt?"
    return ImageFacts(fmt, width, height)
