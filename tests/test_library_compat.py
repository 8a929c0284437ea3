"""Each private name of a library that cardgen uses (all in cardgen.library_compat) still means what cardgen
takes it to mean: a release of reportlab or Jinja that renames or changes one fails here, not in a print run.
And nothing outside that module reaches into a library's private names."""

from __future__ import annotations

import ast
import io
import re
import tomllib
from importlib.metadata import version
from pathlib import Path
from typing import ClassVar

import jinja2
from jinja2 import nodes
from packaging.requirements import Requirement
from pypdf import PdfReader
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfdoc import PDFCatalog, PDFDate, PDFInfo
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate, Paragraph, Spacer

from cardgen import library_compat as compat

ROOT = Path(__file__).resolve().parent.parent


def _canvas() -> Canvas:
    return Canvas(io.BytesIO(), pagesize=(200, 200), invariant=1)


def test_canvas_code_holds_the_page_operators_and_takes_them_again() -> None:
    c = _canvas()
    mark = compat.canvas_mark(c)
    c.rect(10, 20, 30, 40)
    code, forms = compat.drawn_since(c, mark)
    assert any(" re" in op for op in code) and forms == []
    compat.draw_again(c, code, forms)
    assert compat.drawn_since(c, mark)[0] == code + code


def test_canvas_formsinuse_lists_the_forms_a_page_places() -> None:
    c = _canvas()
    c.beginForm("dot")
    c.circle(5, 5, 2)
    c.endForm()
    mark = compat.canvas_mark(c)
    c.doForm("dot")
    code, forms = compat.drawn_since(c, mark)
    assert forms == ["dot"] and code and code[-1].endswith(" Do")
    compat.draw_again(c, code, forms)
    c.showPage()
    c.save()  # the page lists the form among its resources: the file is whole


def test_curr_tx_info_gives_an_ondraw_callback_the_text_cursor() -> None:
    c = _canvas()
    seen: list[tuple[float, float]] = []
    c.setNamedCB("probe", lambda canv, _kind, _label: seen.append(compat.text_cursor(canv)))
    style = ParagraphStyle("p", fontName="Helvetica", fontSize=10, leading=12)
    para = Paragraph('AAAA<onDraw name="probe" label="x"/>B', style)
    para.wrapOn(c, 180, 100)
    para.drawOn(c, 10, 50)
    from reportlab.pdfbase.pdfmetrics import stringWidth

    assert len(seen) == 1
    x, y = seen[0]  # in the paragraph's own coordinates (drawOn moved the origin to its corner)
    assert abs(x - stringWidth("AAAA", "Helvetica", 10)) < 0.01
    assert 0 <= y <= 12  # on the single line's baseline


def test_canvas_doc_is_the_document_with_its_information() -> None:
    c = _canvas()
    c.setTitle("first")
    fields = compat.document_info(c)
    assert fields["title"] == "first"
    c.setTitle("second")
    compat.restore_document_info(c, fields)
    c.save()
    assert "/Title (first)" in c.getpdfdata().decode("latin-1")


def test_the_documents_time_stamp_is_fixed_when_invariant() -> None:
    docs = [compat.document_of(_canvas()) for _ in range(2)]
    stamps = [compat.creation_stamp(d) for d in docs]
    assert stamps[0].t == stamps[1].t  # the invariant date of reportlab
    info = PDFInfo()
    date = PDFDate(ts=stamps[0], dateFormatter=compat.date_formatter(info))
    assert re.fullmatch(rb"\(D:\d{14}.*\)", date.format(docs[0]))


def test_a_catalogue_and_information_taken_over_keep_every_entry() -> None:
    class Catalog(PDFCatalog):  # type: ignore[misc]
        __NoDefault__: ClassVar[list[str]] = [*PDFCatalog.__NoDefault__, "Extra"]

    class Info(PDFInfo):  # type: ignore[misc]
        pass

    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(100, 100), invariant=1)
    c.setTitle("kept")
    catalog, info = Catalog(), Info()
    compat.replace_catalog(c, catalog)
    compat.replace_info(c, info)
    from reportlab.pdfbase.pdfdoc import PDFName

    catalog.Extra = PDFName("Here")
    c.drawString(10, 10, "x")
    c.save()
    reader = PdfReader(io.BytesIO(buf.getvalue()), strict=True)
    assert reader.trailer["/Root"]["/Extra"] == "/Here" and len(reader.pages) == 1
    assert reader.metadata is not None and reader.metadata.title == "kept"


def test_dosave_leaves_the_canvas_to_the_caller() -> None:
    saved: list[int] = []

    class Counting(Canvas):  # type: ignore[misc]
        def save(self) -> None:
            saved.append(1)

    canvas = Counting(io.BytesIO(), pagesize=(200, 200))
    doc = BaseDocTemplate(io.BytesIO(), pagesize=(200, 200))
    doc.addPageTemplates([PageTemplate(frames=[Frame(10, 10, 180, 180)])])
    compat.leave_canvas_unsaved(doc)
    doc.build([Spacer(10, 10)], canvasmaker=lambda *_a, **_k: canvas)
    assert not saved
    plain = BaseDocTemplate(io.BytesIO(), pagesize=(200, 200))
    plain.addPageTemplates([PageTemplate(frames=[Frame(10, 10, 180, 180)])])
    plain.build([Spacer(10, 10)], canvasmaker=Counting)
    assert saved == [1]  # without the switch the build saves its canvas


def test_a_frames_y_is_where_its_next_flowable_starts_and_add_places_every_one() -> None:
    frame = Frame(0, 0, 100, 100, leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
    assert Frame.add is Frame._add  # rules_layout overrides `add`: platypus must call nothing else
    canvas = _canvas()
    top = compat.frame_cursor(frame)
    assert frame.add(Spacer(10, 30), canvas)
    assert abs(top - compat.frame_cursor(frame) - 30) < 1e-9


def test_the_transforming_sandbox_sees_every_parsed_template() -> None:
    seen: list[str] = []

    class Seeing(compat.TransformingSandbox):
        def transform_tree(self, tree: nodes.Template) -> nodes.Template:
            seen.append(type(tree).__name__)
            return tree

    env = Seeing(loader=jinja2.DictLoader({"t.j2": "{{ 1 + 1 }}"}))
    assert env.get_template("t.j2").render() == "2" and env.from_string("{{ 'a' }}").render() == "a"
    assert seen == ["Template", "Template"]


def _bounds(name: str) -> Requirement:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    return next(Requirement(d) for d in deps if Requirement(d).name.lower() == name)


def test_the_libraries_whose_privates_are_used_are_pinned_below_their_next_major_version() -> None:
    for name in ("reportlab", "jinja2"):
        req = _bounds(name)
        assert any(s.operator == "<" for s in req.specifier), req
        assert req.specifier.contains(version(name)), (req, version(name))


_ALLOWED_SELF = {"self", "cls", "s", "st", "plan", "part", "m", "memory", "exc", "node"}


def _private_attributes(path: Path) -> list[str]:
    """`x._name` reads of an object not of cardgen's own making (not self, not a NamedTuple's _replace)."""
    found = []
    for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(n, ast.Attribute) and n.attr.startswith("_") and not n.attr.startswith("__"):
            owner = ast.unparse(n.value)
            if n.attr in ("_replace", "_asdict", "_fields", "_make") or owner.split(".")[0] in _ALLOWED_SELF:
                continue
            found.append(f"{path.name}:{n.lineno}: {owner}.{n.attr}")
    return found


def test_no_module_of_the_rendering_reaches_into_a_librarys_private_names() -> None:
    found = []
    for folder in ("render", "sheets", "export"):
        for path in sorted((ROOT / "cardgen" / folder).glob("*.py")):
            found += _private_attributes(path)
    found += _private_attributes(ROOT / "cardgen" / "cardtext.py")
    found += _private_attributes(ROOT / "cardgen" / "template_sandbox.py")
    assert not found, found


def test_the_private_name_finder_finds_them(tmp_path: Path) -> None:
    sample = tmp_path / "m.py"
    sample.write_text("def f(c: object) -> None:\n    c._code.append(1)\n    self._ok = 1\n", encoding="utf-8")
    assert _private_attributes(sample) == ["m.py:2: c._code"]
