"""Images a set names (card art, backs, PNG icons): inside the set folder, a readable image, its size.

Pillow opens and verifies each image so a corrupt file is reported with what names
it, instead of failing half-way through a print run.
"""

from __future__ import annotations

import io
import warnings
from pathlib import Path
from typing import NamedTuple

from PIL import Image, UnidentifiedImageError

from cardgen.bounded_read import UnreadableFile, set_file, set_file_or_why
from cardgen.model import Card

MIN_DPI = 300  # what prints sharp
MAX_ART_PIXELS = 40_000_000  # a decompression bomb is refused, not decoded
MAX_IMAGE_BYTES = 64_000_000  # a 40-megapixel photo compresses far below this


def art_path(card: Card, set_folder: Path) -> Path | None:
    """The art file of `card` resolved inside its set folder, or None when it escapes the folder."""
    if card.art is None:
        return None
    try:
        return set_file(set_folder, card.art)
    except UnreadableFile:
        return None


class ImageFacts(NamedTuple):
    """What a readable image is: its format and size in pixels."""

    format: str
    width: int
    height: int


def read_image(folder: Path, rel: str | Path, shown: str | None = None) -> ImageFacts | str:
    """The format and size of the image the set folder's file `rel` holds, or why it cannot be used (the message
    names it as `shown`, by default `rel`).

    The one check of an image file, shared by card art, backs and PNG icons (and images an SVG icon embeds), so
    all have the same limits and the same words: inside the set folder, a regular file (a FIFO would block), at
    most MAX_IMAGE_BYTES, at most MAX_ART_PIXELS (refused from the header, before any decoding; Pillow's own
    bomb warning is not shown), decodable.
    """
    shown = str(rel) if shown is None else shown
    data = set_file_or_why(folder, rel, MAX_IMAGE_BYTES, "image", shown)
    if isinstance(data, str):
        return data
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # the limit below is ours
            with Image.open(io.BytesIO(data)) as img:
                fmt = img.format or "?"
                width, height = img.size
                if width * height > MAX_ART_PIXELS:
                    return f"image '{shown}' is {width}x{height} pixels, over the {MAX_ART_PIXELS:,}-pixel limit"
                img.verify()
            with Image.open(io.BytesIO(data)) as img:
                img.load()
    except Image.DecompressionBombError:
        return f"image '{shown}' declares more than {MAX_ART_PIXELS:,} pixels; refused"
    except UnidentifiedImageError:
        return f"image '{shown}' cannot be read as an image (PNG, JPEG, WEBP, GIF, TIFF); is it corrupt?"
    except (OSError, SyntaxError, ValueError) as exc:
        return f"image '{shown}' cannot be read ({exc}); is it corrupt?"
    return ImageFacts(fmt, width, height)
