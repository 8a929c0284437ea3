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

from cardgen.bounded_read import UnreadableFile, not_regular, read_set_file, set_file
from cardgen.errors import Diagnostic
from cardgen.loader.art import read_image
from cardgen.suggest import did_you_mean
from cardgen.svgshapes import read_svg, svglib_drawing
from cardgen.yaml_doc import Document

ICON_FORMATS = (".svg", ".png")
MAX_SVG_BYTES = 250_000  # a keyword icon is a few hundred bytes; megabytes of path data take long to check and draw
_CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]*)")
# Every number of a drawing within this (user units): a PDF writer cannot write 1e25, a viewer gives up far sooner,
# and an icon's coordinates are a few hundred at most. Its size (width, height, viewBox) at least MIN_SVG_SIZE,
# since the icon is scaled by one over it.
MAX_SVG_NUMBER = 1_000_000.0
MIN_SVG_SIZE = 0.001
MAX_SVG_DEPTH = 64  # nested elements; a keyword icon has a handful of levels
_SVG_NUMBER = re.compile(r"(?<![\w#.-])[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_HEX_COLOUR = re.compile(r"#[0-9A-Fa-f]+\b")
_NOT_NUMBERS = frozenset({"id", "class", "href", "font-family", "version", "xmlns"})


def svg_readable(path: Path) -> bool:
    """The plain-SVG reader or else svglib turns the file into a drawing with a size.

    svglib (a tenth of a second to import) is asked only about files the plain reader does not take;
    it logs and returns None on a broken file.
    """
    if read_svg(path) is not None:
        return True
    try:
        drawing = svglib_drawing(path)
    except Exception:  # svglib raises whatever lxml or its parser raise on bad input
        return False
    return drawing is not None and drawing.width > 0 and drawing.height > 0


def _problem(folder: Path, rel: str) -> str | None:
    try:
        path = set_file(folder, rel)
    except UnreadableFile as exc:
        return str(exc)
    base = folder.resolve()
    why = not_regular(path)
    if why == "not found":
        near = [str(p.relative_to(base)) for p in base.rglob("*") if p.suffix.lower() in ICON_FORMATS]
        return f"icon file '{rel}' not found{did_you_mean(rel, near)}"
    if why is not None:
        return f"icon file '{rel}' is {why}"
    if path.suffix.lower() == ".svg":
        return _svg_problem(base, path, rel)
    facts = read_image(folder, rel)
    if isinstance(facts, str):
        return facts
    return None if facts.format == "PNG" else f"'{rel}' is a {facts.format} file, not PNG"


def _svg_problem(base: Path, path: Path, rel: str) -> str | None:
    """Why an SVG icon cannot be used: too big, entity tricks, a reference outside the set, unreadable."""
    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import parse

    try:
        data = read_set_file(base, path, MAX_SVG_BYTES, "icon file")
    except UnreadableFile as exc:
        return f"'{rel}': {exc}"
    try:
        root = parse(io.BytesIO(data)).getroot()
    except DefusedXmlException as exc:
        return f"'{rel}' declares XML entities ({type(exc).__name__}); an icon needs none"
    except ParseError:
        return f"'{rel}' is not a readable SVG drawing"
    problem = _depth_problem(root, rel) or _number_problem(root, rel)
    if problem is not None:
        return problem
    for ref in _references(root):
        problem = _reference_problem(base, path.parent, rel, ref)
        if problem is not None:
            return problem
    return None if svg_readable(path) else f"'{rel}' is not a readable SVG drawing"


def _depth_problem(root: Any, rel: str) -> str | None:
    """Elements nested deeper than MAX_SVG_DEPTH (the drawing readers recurse once a level), walked iteratively."""
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_SVG_DEPTH:
            return f"'{rel}' nests its elements more than {MAX_SVG_DEPTH} levels deep; an icon needs a few"
        stack.extend((child, depth + 1) for child in node)
    return None


def _number_problem(root: Any, rel: str) -> str | None:
    """A number of the drawing (attributes, style) too large to draw, or a size too small to scale by."""
    for node in root.iter():
        texts = [(name, value) for name, value in node.attrib.items()
                 if name.rsplit("}", 1)[-1] not in _NOT_NUMBERS and not name.startswith("{http://www.w3.org/2000/xmlns")]
        if isinstance(node.tag, str) and node.tag.endswith("style") and node.text:
            texts.append(("style", node.text))
        for name, value in texts:
            for m in _SVG_NUMBER.finditer(_HEX_COLOUR.sub(" ", value)):
                number = float(m.group())
                if not abs(number) <= MAX_SVG_NUMBER:
                    return (f"'{rel}': {name}=\"{_short(value)}\" has the number {m.group()}, beyond the "
                            f"{MAX_SVG_NUMBER:,.0f} an icon's drawing may use")
    sizes = [("width", root.get("width")), ("height", root.get("height"))]
    box = (root.get("viewBox") or "").replace(",", " ").split()
    if len(box) == 4:
        sizes += [("viewBox width", box[2]), ("viewBox height", box[3])]
    for name, value in sizes:
        size = _SVG_NUMBER.match(value.strip()) if value else None
        if size is not None and 0 < abs(float(size.group())) < MIN_SVG_SIZE:
            return f"'{rel}': its {name} {size.group()} is too small to scale (at least {MIN_SVG_SIZE})"
    return None


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 40 else text[:37] + "..."


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
    try:
        target = set_file(base, here / unquote(parts.path))
    except UnreadableFile:
        return f"'{rel}' refers to '{shown}', outside the set folder; icons must live inside it"
    facts = read_image(base, target, str(target.relative_to(base)))
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
        out[key] = str(set_file(folder, rel))
    return out
