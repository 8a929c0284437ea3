"""Checks of a set's `icons:` mapping: each file inside the set folder, present, and a readable SVG or PNG.

A missing or unreadable icon is reported at its line in set.yaml, so a broken
icon never reaches a print run. A plain SVG is read by cardgen.svgshapes (which
draws it); any other SVG is parsed with svglib (the converter that then draws it),
PNG files are verified with Pillow.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from PIL import Image, UnidentifiedImageError

from cardgen.errors import Diagnostic
from cardgen.loader.yaml_doc import Document
from cardgen.suggest import did_you_mean
from cardgen.svgshapes import read_svg

ICON_FORMATS = (".svg", ".png")


def svg_readable(path: Path) -> bool:
    """The plain-SVG reader or else svglib turns the file into a drawing with a size.

    svglib (a tenth of a second to import) is asked only about files the plain reader does not take;
    it logs and returns None on a broken file.
    """
    if read_svg(path) is not None:
        return True
    from svglib.svglib import svg2rlg

    log = logging.getLogger("svglib.svglib")
    level = log.level
    log.setLevel(logging.CRITICAL)  # its own complaints would be noise next to our diagnostic
    try:
        drawing = svg2rlg(str(path))
    except Exception:  # svglib raises whatever lxml or its parser raise on bad input
        return False
    finally:
        log.setLevel(level)
    return drawing is not None and drawing.width > 0 and drawing.height > 0


def _problem(folder: Path, rel: str) -> str | None:
    base = folder.resolve()
    path = (base / rel).resolve()
    try:
        path.relative_to(base)
    except ValueError:
        return f"'{rel}' is outside the set folder; icons must live inside it"
    if not path.is_file():
        near = [str(p.relative_to(base)) for p in base.rglob("*") if p.suffix.lower() in ICON_FORMATS]
        return f"icon file '{rel}' not found{did_you_mean(rel, near)}"
    if path.suffix.lower() == ".svg":
        return None if svg_readable(path) else f"'{rel}' is not a readable SVG drawing"
    try:
        with Image.open(path) as img:
            img.verify()
            fmt = img.format
    except (UnidentifiedImageError, OSError, SyntaxError):
        return f"'{rel}' is not a readable PNG image"
    return None if fmt == "PNG" else f"'{rel}' is a {fmt} file, not PNG"


def check_icons(folder: Path, head: Document, raw: dict[str, Any], diags: list[Diagnostic]) -> dict[str, str]:
    """The usable icons as key -> absolute file path; each problem becomes an error at its line."""
    out: dict[str, str] = {}
    for key, rel in raw.items():
        problem = _problem(folder, rel)
        if problem is not None:
            line, col = head.where(("icons", key))
            diags.append(Diagnostic(head.path, line, col, f"icons: '{key}': {problem}"))
            continue
        out[key] = str((folder.resolve() / rel).resolve())
    return out
