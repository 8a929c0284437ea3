"""Every use of a library's private name, in one module.

reportlab and Jinja offer no public way to do the few things below, and each is worth doing (a card's
drawing reused for its copies, an icon placed where a paragraph's text cursor stands, a PDF/X output
intent, a rules layout drawn on a canvas another part saves, an operation budget for a template). The
libraries are pinned below their next major version in pyproject.toml, and tests/test_library_compat.py
holds each name here to what this module expects of it, so a release that changes one fails a test instead
of a print run. reportlab is imported only when a function here is called: the engine and the simulations
import this module's Jinja part through the card text, never reportlab.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from jinja2 import nodes
from jinja2.sandbox import SandboxedEnvironment

# --- reportlab: a canvas's page stream -----------------------------------------------------------------

class CanvasMark(NamedTuple):
    """How far a canvas's page had been drawn: its operators and the forms (icons, images) they use."""
    code: int
    forms: int


def canvas_mark(canvas: Any) -> CanvasMark:
    """Where the canvas's current page stands (`Canvas._code`, `Canvas._formsinuse`)."""
    return CanvasMark(len(canvas._code), len(canvas._formsinuse))


def drawn_since(canvas: Any, mark: CanvasMark) -> tuple[list[str], list[str]]:
    """The operators and forms the canvas's page gained since `mark`."""
    return list(canvas._code[mark.code:]), list(canvas._formsinuse[mark.forms:])


def draw_again(canvas: Any, code: list[str], forms: list[str]) -> None:
    """Append operators and forms taken by `drawn_since` to the canvas's current page."""
    canvas._code.extend(code)
    canvas._formsinuse.extend(forms)


def text_cursor(canvas: Any) -> tuple[float, float]:
    """Where a paragraph's text stands while it calls an <onDraw> callback (`Canvas._curr_tx_info`, which
    reportlab's paragraph sets for its callbacks): x and the baseline's y."""
    info = canvas._curr_tx_info
    return float(info["cur_x"]), float(info["cur_y"])


# --- reportlab: the document behind a canvas -------------------------------------------------------------

def document_of(canvas: Any) -> Any:
    """The PDF document a canvas writes (`Canvas._doc`)."""
    return canvas._doc


def document_info(canvas: Any) -> dict[str, Any]:
    """A copy of the document information's fields (title, author...) of the canvas's document."""
    return dict(vars(document_of(canvas).info))


def restore_document_info(canvas: Any, fields: dict[str, Any]) -> None:
    """Put back fields taken by `document_info` (a layout drawn onto the canvas retitles its document)."""
    vars(document_of(canvas).info).update(fields)


def creation_stamp(document: Any) -> Any:
    """The document's time stamp, fixed for an `invariant` canvas (`PDFDocument._timeStamp`)."""
    return document._timeStamp


def date_formatter(info: Any) -> Any:
    """The date formatter a document information object writes its dates with (`PDFInfo._dateFormatter`)."""
    return info._dateFormatter


def replace_catalog(canvas: Any, catalog: Any) -> None:
    """Make `catalog` (a fresh instance of a PDFCatalog subclass) the document's catalogue, taking over every
    entry the document's own catalogue holds (its attributes are its entries)."""
    doc = document_of(canvas)
    vars(catalog).update(vars(doc.Catalog))
    doc.Catalog = catalog


def replace_info(canvas: Any, info: Any) -> None:
    """Make `info` (a fresh instance of a PDFInfo subclass) the document's information, taking over its fields."""
    doc = document_of(canvas)
    vars(info).update(vars(doc.info))
    doc.info = info


# --- reportlab: platypus ----------------------------------------------------------------------------------

def leave_canvas_unsaved(doc: Any) -> None:
    """A doc template's switch (`BaseDocTemplate._doSave`): its build draws on the canvas and does not save it,
    so the caller goes on drawing there."""
    doc._doSave = 0


def frame_cursor(frame: Any) -> float:
    """How far down a platypus frame is filled: the y of its next flowable's top (`Frame._y`)."""
    return float(frame._y)


# --- Jinja: the parsed template --------------------------------------------------------------------------

class TransformingSandbox(SandboxedEnvironment):
    """Jinja's sandbox handing every template's parsed tree to `transform_tree` before it is compiled
    (`Environment._parse`: Jinja has no public hook between parsing and compiling)."""

    def transform_tree(self, tree: nodes.Template) -> nodes.Template:
        return tree

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        return self.transform_tree(super()._parse(source, name, filename))
