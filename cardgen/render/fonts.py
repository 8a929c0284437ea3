"""Bundled fonts: registered once with reportlab so every PDF embeds (subsets of) them.

Only the bundled TrueType files are used, never system fonts, so a build is the
same on every machine. `missing_glyphs` lets callers fail with the card and the
character instead of printing a blank box.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from cardgen.paths import fonts_dir

# Logical face -> bundled file. Kept as data so a set could swap faces later.
FONT_FILES: dict[str, str] = {
    "Sans": "DejaVuSans.ttf",
    "Sans-Bold": "DejaVuSans-Bold.ttf",
    "Sans-Oblique": "DejaVuSans-Oblique.ttf",
    "Cond": "DejaVuSansCondensed.ttf",
    "Cond-Bold": "DejaVuSansCondensed-Bold.ttf",
}


@cache
def register_fonts() -> tuple[str, ...]:
    """Register the bundled faces with reportlab; returns their names."""
    for name, filename in FONT_FILES.items():
        pdfmetrics.registerFont(TTFont(name, str(fonts_dir() / filename)))
    pdfmetrics.registerFontFamily("Sans", normal="Sans", bold="Sans-Bold", italic="Sans-Oblique",
                                  boldItalic="Sans-Bold")
    return tuple(FONT_FILES)


def _charset(face: str) -> Mapping[int, object]:
    """The face's code points (its width table, whose keys they are: no copy needed to look one up; reportlab
    keeps its registered fonts, so this is a lookup)."""
    register_fonts()
    widths: Mapping[int, object] = pdfmetrics.getFont(face).face.charWidths
    return widths


def register_set_fonts(fonts: Mapping[str, str]) -> dict[str, str]:
    """Register a set's own TrueType files (logical face -> file, as `model.Look.fonts`) with reportlab (whose
    registry of fonts is the process's); returns logical face -> registered name. The name is the file's content
    digest, so registering again costs a lookup."""
    from cardgen.errors import CardgenError
    from cardgen.font_file import read_font, truetype

    out: dict[str, str] = {}
    for face, path in fonts.items():
        found = read_font(Path(path).parent, Path(path).name)  # the loader resolved it inside its set
        if isinstance(found, str):  # the loader checked it; changed since (watch mode, a test's tmp folder)
            raise CardgenError(f"{face}: {found}")
        if found.name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(truetype(found.data))
        out[face] = found.name
    return out


def missing_glyphs(text: str, face: str = "Sans") -> list[str]:
    """Characters of `text` that the bundled face cannot draw (whitespace ignored)."""
    chars = _charset(face)
    return sorted({ch for ch in text if not ch.isspace() and ord(ch) not in chars})
