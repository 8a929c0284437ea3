"""Words of a translation that cannot print as written: characters no face has (CJK in a German flavour) and
right-to-left text (Hebrew), each refused at the translation's own line by the real command, nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile import clean_failure, extending_set, measured

CJK = "漢字のテキスト"
HEBREW = "שלום עולם"


def _translated(tmp_path: Path, flavour: str) -> Path:
    folder = extending_set(tmp_path / "ll", "ll")
    (folder / "lang").mkdir()
    (folder / "lang" / "de.yaml").write_text(f"title: LL auf Deutsch\ncards:\n  Jab:\n    flavour: {flavour}\n",
                                             encoding="utf-8")
    return folder


@pytest.mark.parametrize("args", [("validate", "--no-sim", "--set", "./ll"),
                                  ("validate", "--no-sim", "--set", "./ll", "--lang", "de"),
                                  ("build", "--set", "./ll", "--lang", "de", "--out", "out"),
                                  ("rules", "--set", "./ll", "--lang", "de", "--out", "out")])
def test_characters_no_face_has_are_refused_at_the_translations_line(tmp_path: Path, args: tuple[str, ...]) -> None:
    _translated(tmp_path, CJK)
    run, peak = measured(*args, cwd=tmp_path)
    assert clean_failure(run), (run.code, run.err)
    assert "ll/lang/de.yaml:4:14: error: cards.Jab.flavour: no face the cards print with has 'の' (U+306E)" in run.err
    assert "1-basic.yaml" not in run.err  # not at the card's line in the set's own language
    assert not (tmp_path / "out").exists()
    assert run.cpu < 5 and peak < 300


@pytest.mark.parametrize("args", [("validate", "--no-sim", "--set", "./ll"),
                                  ("build", "--set", "./ll", "--lang", "de", "--out", "out")])
def test_right_to_left_text_is_refused_plainly(tmp_path: Path, args: tuple[str, ...]) -> None:
    _translated(tmp_path, HEBREW)
    run, _peak = measured(*args, cwd=tmp_path)
    assert clean_failure(run), (run.code, run.err)
    assert ("ll/lang/de.yaml:4:14: error: cards.Jab.flavour: is written right to left (U+05E9 HEBREW LETTER SHIN); "
            "cardgen lays text out left to right only") in run.err
    assert not (tmp_path / "out").exists()


def test_a_translation_in_characters_the_faces_have_builds(tmp_path: Path) -> None:
    _translated(tmp_path, "Ein Pieks, ganz ohne Übermut.")
    run, _peak = measured("build", "--set", "./ll", "--lang", "de", "--out", "out", "--proof", cwd=tmp_path)
    assert run.code == 0, run.err
    assert (tmp_path / "out" / "ll" / "ll-de-cards.pdf").is_file()


def test_right_to_left_text_in_the_sets_own_card_is_refused_at_its_line(tmp_path: Path) -> None:
    extending_set(tmp_path / "rt", "rt", cards=f"  - {{name: Shalom, type: basic, count: 1, damage: 1, "
                                                f"flavour: '{HEBREW}', source: designed}}\n")
    run, _peak = measured("build", "--set", "./rt", "--out", "out", cwd=tmp_path)
    assert clean_failure(run), (run.code, run.err)
    assert ("rt/set.yaml:5:" in run.err and "card 'Shalom' field `flavour`: is written right to left "
            "(U+05E9 HEBREW LETTER SHIN)") in run.err, run.err
    assert not (tmp_path / "out").exists()
