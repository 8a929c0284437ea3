"""A set's own layout data (`layout/face.yaml`, `layout/colours.yaml`) merged over the bundled layout."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from pypdf import PdfReader

from cardgen.errors import CardgenError
from cardgen.loader import load_set
from cardgen.render import layout_data as L
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


def test_own_layout_applies_only_inside_its_set(tmp_path: Path) -> None:
    folder = _set(tmp_path, face="band: {height: 20.0}\n", colours='value_box: "#AA0000"\n')
    with L.set_layout(str(folder)):
        assert L.num("band.height") == 20.0
        assert L.num("band.name_max_pt") == 17  # untouched keys keep the bundled value
        assert L.colour("value_box") == "#AA0000"
    assert L.num("band.height") == 15.0
    own = cards_pdf(load_set(folder), PrintOptions(proof=True)).data
    plain = cards_pdf(load_set("lunch"), PrintOptions(proof=True)).data
    assert own != plain
    content = PdfReader(io.BytesIO(own)).pages[0].get_contents()
    assert content is not None
    assert b".666667 0 0 rg" in content.get_data()  # the #AA0000 value box is drawn


def test_unknown_layout_key_is_an_error_with_did_you_mean(tmp_path: Path) -> None:
    folder = _set(tmp_path, face="bannd: {height: 20}\n")
    with pytest.raises(CardgenError, match=r"unknown layout key 'bannd' \(did you mean 'band'\?\)"):
        cards_pdf(load_set(folder), PrintOptions(proof=True))


def test_wrong_kind_of_value_is_an_error(tmp_path: Path) -> None:
    folder = _set(tmp_path, face="band: {height: tall}\n")
    with pytest.raises(CardgenError, match="'height' must be a number"):
        cards_pdf(load_set(folder), PrintOptions(proof=True))


def test_an_edited_layout_file_is_read_again(tmp_path: Path) -> None:
    folder = _set(tmp_path, face="band: {height: 20.0}\n")
    with L.set_layout(str(folder)):
        assert L.num("band.height") == 20.0
    face = folder / "layout" / "face.yaml"
    face.write_text("band: {height: 25.0}\n", encoding="utf-8")
    stamp = face.stat().st_mtime_ns + 1_000_000
    os.utime(face, ns=(stamp, stamp))
    with L.set_layout(str(folder)):
        assert L.num("band.height") == 25.0  # watch mode sees the edit
