"""A set's own layout data (`layout/face.yaml`, `layout/colours.yaml`) merged over the bundled layout: typed,
carried by the render session, and refused at its file's line when a key or value is wrong."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfReader

from cardgen.checks import load_set
from cardgen.errors import CardgenError
from cardgen.render.face_layout import LayoutFileError, as_dict, bundled, set_layout
from cardgen.render.preflight import print_problems
from cardgen.render.session import RenderSession
from cardgen.render.sheets import PrintOptions, cards_pdf


def _set(tmp_path: Path, face: str | None = None, colours: str | None = None) -> Path:
    folder = tmp_path / "own"
    (folder / "layout").mkdir(parents=True)
    (folder / "set.yaml").write_text("name: own\ntitle: Own\nextends: lunch\n", encoding="utf-8")
    if face is not None:
        (folder / "layout" / "face.yaml").write_text(face, encoding="utf-8")
    if colours is not None:
        (folder / "layout" / "colours.yaml").write_text(colours, encoding="utf-8")
    return folder


def test_own_layout_applies_only_to_its_own_session(tmp_path: Path) -> None:
    folder = _set(tmp_path, face="band: {height: 20.0}\n", colours='value_box: "#AA0000"\n')
    own = set_layout(str(folder))
    assert own.face.band.height == 20.0
    assert own.face.band.name_max_pt == 17  # untouched keys keep the bundled value
    assert own.colours.value_box == "#AA0000"
    assert bundled().face.band.height == 15.0 and RenderSession.for_set("").face.band.height == 15.0
    own_pdf = cards_pdf(load_set(folder), PrintOptions(proof=True)).data
    plain = cards_pdf(load_set("lunch"), PrintOptions(proof=True)).data
    assert own_pdf != plain
    content = PdfReader(io.BytesIO(own_pdf)).pages[0].get_contents()
    assert content is not None
    assert b".666667 0 0 rg" in content.get_data()  # the #AA0000 value box is drawn


def test_a_session_draws_with_its_own_layout_whatever_else_is_drawn(tmp_path: Path) -> None:
    """No ambient layout: the set's file drawn with the bundled session differs from its own session's."""
    folder = _set(tmp_path, colours='value_box: "#AA0000"\n')
    cs = load_set(folder)
    bundled_pdf = cards_pdf(cs, PrintOptions(proof=True), session=RenderSession.bundled()).data
    own_pdf = cards_pdf(cs, PrintOptions(proof=True)).data
    assert b".666667 0 0 rg" not in PdfReader(io.BytesIO(bundled_pdf)).pages[0].get_contents().get_data()  # type: ignore[union-attr]
    assert b".666667 0 0 rg" in PdfReader(io.BytesIO(own_pdf)).pages[0].get_contents().get_data()  # type: ignore[union-attr]


def test_unknown_layout_key_is_an_error_at_its_line_with_did_you_mean(tmp_path: Path) -> None:
    folder = _set(tmp_path, face="# my layout\nband:\n  height: 20\n  nmae_font: Sans\n")
    path = folder / "layout" / "face.yaml"
    with pytest.raises(LayoutFileError) as info:
        cards_pdf(load_set(folder), PrintOptions(proof=True))
    assert str(info.value) == (f"{path}:4:3: error: unknown layout key 'band.nmae_font' "
                               "(did you mean 'name_font'?)")
    top = _set(tmp_path / "b", face="bannd: {height: 20}\n")
    with pytest.raises(CardgenError, match=r":1:1: error: unknown layout key 'bannd' \(did you mean 'band'\?\)"):
        set_layout(str(top))


def test_wrong_kind_of_value_is_an_error_at_its_line(tmp_path: Path) -> None:
    folder = _set(tmp_path, face="band:\n  height: tall\n", colours="back:\n  fill: 12\n")
    with pytest.raises(LayoutFileError, match=r"face.yaml:2:11: error: 'band.height' must be a number"):
        set_layout(str(folder))
    (folder / "layout" / "face.yaml").unlink()
    with pytest.raises(LayoutFileError, match=r"colours.yaml:2:9: error: 'back.fill' must be text"):
        set_layout(str(folder))


def test_validate_reports_a_layout_problem_at_its_file_and_line(tmp_path: Path) -> None:
    folder = _set(tmp_path, face="text:\n  min_pt: 7\n  max_pt: 6\n")
    found = print_problems(load_set(folder))
    assert [(Path(d.path).name, d.line, d.column, d.message) for d in found] == [
        ("face.yaml", 3, 11, "'text.max_pt' is below 'text.min_pt'")]


def test_the_minimum_text_size_cannot_be_lowered(tmp_path: Path) -> None:
    folder = _set(tmp_path, face="min_text_pt: 5\nfooter: {pt: 5}\n")
    with pytest.raises(LayoutFileError, match=r"face.yaml:1:14: error: 'min_text_pt' cannot go below the bundled 7 pt"):
        set_layout(str(folder))


def test_an_edited_layout_file_is_read_again(tmp_path: Path) -> None:
    folder = _set(tmp_path, face="band: {height: 20.0}\n")
    assert RenderSession.for_set(str(folder)).face.band.height == 20.0
    (folder / "layout" / "face.yaml").write_text("band: {height: 25.0}\n", encoding="utf-8")
    assert RenderSession.for_set(str(folder)).face.band.height == 25.0  # a new session (watch mode) sees the edit


def test_every_key_of_the_bundled_files_is_a_field() -> None:
    """The bundled files give every field (a missing one fails at load) and no other: the typed layout is them."""

    from cardgen.paths import templates_dir
    from cardgen.yaml_doc import read_plain

    def keys(data: object, prefix: str = "") -> set[str]:
        if isinstance(data, dict):
            return {k for key, v in data.items() for k in keys(v, f"{prefix}{key}.")}
        return {prefix.rstrip(".")}

    folder = templates_dir() / "layout"
    layout = bundled()
    assert keys(read_plain((folder / "face.yaml").read_text(encoding="utf-8"))) == keys(as_dict(layout.face))
    assert keys(read_plain((folder / "colours.yaml").read_text(encoding="utf-8"))) == keys(as_dict(layout.colours))
