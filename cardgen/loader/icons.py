"""Checks of a set's `icons:` mapping: each file inside the set folder, present, and a readable SVG or PNG.

A missing or unreadable icon is reported at its line in set.yaml, so a broken
icon never reaches a print run. A plain SVG is read by cardgen.svgshapes (which
draws it); any other SVG is parsed with svglib (the converter that then draws it).
A PNG icon, and any image an SVG icon embeds, gets the same check, limits and
words as card art (`cardgen.loader.art.read_image`). An SVG is read at most
MAX_SVG_BYTES, parsed first with defusedxml (no entity declarations, no external
entities), and every file it refers to (`href`, `xlink:href`, CSS `url(...)`)
must lie inside the set folder: svglib would otherwise embed any file it can reach.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit
from xml.etree.ElementTree import ParseError

from cardgen.bounded_read import UnreadableFile, not_regular, read_capped
from cardgen.errors import Diagnostic
from cardgen.loader.art import read_image
from cardgen.loader.yaml_doc import Document
from cardgen.suggest import did_you_mean
from cardgen.svgshapes import read_svg

ICON_FORMATS = (".svg", ".png")
MAX_SVG_BYTES = 250_000  # a keyword icon is a few hundred bytes; 1 MB of path data takes 5 s to check and draw
_CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]*)")


def svg_readable(path: Path) -> bool:
    """The plain-SVG reader or else svglib turns the file into a drawing with a size.

    svglib (a tenth of a second to import) is asked only about files the plain reader does not take;
    it logs and returns None on a broken file.
    """
    if read_svg(path) is not None:
        return True
    import logging  # only this fallback needs logging and svglib

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
    why = not_regular(path)
    if why == "not found":
        near = [str(p.relative_to(base)) for p in base.rglob("*") if p.suffix.lower() in ICON_FORMATS]
        return f"icon file '{rel}' not found{did_you_mean(rel, near)}"
    if why is not None:
        return f"icon file '{rel}' is {why}"
    if path.suffix.lower() == ".svg":
        return _svg_problem(base, path, rel)
    facts = read_image(path, rel)
    if isinstance(facts, str):
        return facts
    return None if facts.format == "PNG" else f"'{rel}' is a {facts.format} file, not PNG"


def _svg_problem(base: Path, path: Path, rel: str) -> str | None:
    """Why an SVG icon cannot be used: too big, entity tricks, a reference outside the set, unreadable."""
    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import parse

    try:
        data = read_capped(path, MAX_SVG_BYTES, "icon file")
    except UnreadableFile as exc:
        return f"'{rel}': {exc}"
    try:
        root = parse(io.BytesIO(data)).getroot()
    except DefusedXmlException as exc:
        return f"'{rel}' declares XML entities ({type(exc).__name__}); an icon needs none"
    except ParseError:
        return f"'{rel}' is not a readable SVG drawing"
    for ref in _references(root):
        problem = _reference_problem(base, path.parent, rel, ref)
        if problem is not None:
            return problem
    return None if svg_readable(path) else f"'{rel}' is not a readable SVG drawing"


def _references(root: Any) -> list[str]:
    """Every file or URL the SVG names: href attributes (any namespace) and CSS url(...) values."""
    out: list[str] = []
    for node in root.iter():
        for name, value in node.attrib.items():
            if name == "href" or name.endswith("}href"):
                out.append(value.strip())
            elif name == "style":
                out.extend(_CSS_URL.findall(value))
        if isinstance(node.tag, str) and node.tag.endswith("style") and node.text:
            out.extend(_CSS_URL.findall(node.text))
    return out


def _reference_problem(base: Path, here: Path, rel: str, ref: str) -> str | None:
    """A reference inside the drawing (#id), inline data, or an image inside the set folder: fine."""
    if not ref or ref.startswith("#") or ref.lower().startswith("data:"):
        return None
    shown = ref if len(ref) <= 80 else ref[:77] + "..."
    parts = urlsplit(ref)
    if parts.scheme and len(parts.scheme) > 1:  # http:, file:, ... (one letter is a Windows drive)
        return f"'{rel}' refers to '{shown}' by URL; an icon may only use files inside the set folder"
    target = (here / unquote(parts.path)).resolve()
    if not target.is_relative_to(base):
        return f"'{rel}' refers to '{shown}', outside the set folder; icons must live inside it"
    facts = read_image(target, str(target.relative_to(base)))
    return f"'{rel}' embeds an unusable image: {facts}" if isinstance(facts, str) else None


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
