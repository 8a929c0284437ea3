"""`extends:` sets and `cardgen new`: inherit, remove, override, add; cycles and missing bases."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.checks import load_set
from cardgen.cli.main import main
from cardgen.errors import SetError
from cardgen.loader.schema import schema_json


def _write(folder: Path, set_yaml: str, cards: str | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "set.yaml").write_text(set_yaml, encoding="utf-8")
    if cards is not None:
        (folder / "cards.yaml").write_text(cards, encoding="utf-8")
    return folder


def _errors(folder: Path) -> list[str]:
    with pytest.raises(SetError) as info:
        load_set(folder)
    return [str(d) for d in info.value.errors]


def test_extension_removes_overrides_and_adds_and_deck_size_follows(tmp_path: Path) -> None:
    base = load_set("lunch")
    folder = _write(tmp_path / "mine", "name: mine\ntitle: Mine\nextends: lunch\nremove: [Hail Mary]\n"
                    "override:\n  - {name: Jab, count: 6, damage: 2}\n",
                    "cards:\n  - {name: Wedgie, type: basic, count: 3, damage: 2, stuns: 1, source: designed}\n")
    cs = load_set(folder)
    assert cs.total == base.total - 1 + 2 + 3
    assert cs.deck_size == cs.total
    jab = cs.card("Jab")
    assert (jab.count, jab.damage) == (6, (2,))
    assert jab.file.endswith("set.yaml") and jab.line == 6
    assert "Hail Mary" not in [c.name for c in cs.cards]
    assert cs.cards[-1].name == "Wedgie" and cs.cards[-1].number == len(cs.cards)
    assert cs.rules == base.rules and cs.types == base.types
    assert {c.origin for c in cs.cards} == {"mine"}


def test_extension_may_change_rules_partially(tmp_path: Path) -> None:
    folder = _write(tmp_path / "tough", "name: tough\ntitle: Tough\nextends: beer\nrules: {life: 25}\n")
    cs = load_set(folder)
    assert cs.rules.life == 25 and cs.rules.hand_size == load_set("beer").rules.hand_size


def test_extension_of_a_relative_folder(tmp_path: Path) -> None:
    _write(tmp_path / "a", "name: a\ntitle: A\nextends: lunch\nremove: [Jab]\n")
    b = load_set(_write(tmp_path / "b", "name: b\ntitle: B\nextends: ../a\nremove: [Hook]\n"))
    assert "Jab" not in [c.name for c in b.cards] and "Hook" not in [c.name for c in b.cards]


def test_extends_cycle_is_an_error(tmp_path: Path) -> None:
    _write(tmp_path / "a", "name: a\ntitle: A\nextends: ../b\n")
    _write(tmp_path / "b", "name: b\ntitle: B\nextends: ../a\n")
    errors = _errors(tmp_path / "a")
    assert any("extends: cycle of sets (a -> b -> a)" in e for e in errors), errors


def test_missing_base_is_an_error_with_did_you_mean(tmp_path: Path) -> None:
    errors = _errors(_write(tmp_path / "x", "name: x\ntitle: X\nextends: luncj\n"))
    assert errors == [f"{tmp_path / 'x' / 'set.yaml'}:3:10: error: extends: no set 'luncj': not a bundled set "
                      "(beer, classic, lunch, recess); write ../luncj for a folder next to this set "
                      "(did you mean 'lunch'?)"]


def test_a_local_folder_never_shadows_a_bundled_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "beer", "name: beer\ntitle: Fake\nextends: lunch\n")
    assert load_set("beer").title == "Beer Money"
    assert load_set("./beer").title == "Fake"


def test_new_refuses_a_bundled_set_name(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["new", str(tmp_path / "lunch")])
    assert res.exit_code == 1 and "name of a bundled set" in res.output
    assert not (tmp_path / "lunch").exists()


def test_remove_and_override_of_unknown_cards_are_errors(tmp_path: Path) -> None:
    errors = _errors(_write(tmp_path / "x", "name: x\ntitle: X\nextends: lunch\nremove: [Jabb]\n"
                            "override:\n  - {name: Hok, count: 2}\n"))
    assert any(":4:10: error: remove: base set 'lunch' has no card 'Jabb' (did you mean 'Jab'?)" in e
               for e in errors), errors
    assert any(":6:5: error: override: base set 'lunch' has no card 'Hok' (did you mean 'Hook'?)" in e
               for e in errors), errors


def test_new_card_with_a_base_name_is_a_duplicate(tmp_path: Path) -> None:
    errors = _errors(_write(tmp_path / "x", "name: x\ntitle: X\nextends: lunch\n",
                            "cards:\n  - {name: Jab, type: basic, count: 1, damage: 1, source: designed}\n"))
    assert any("duplicate card name 'Jab'" in e for e in errors), errors


def test_declared_deck_size_is_still_checked(tmp_path: Path) -> None:
    errors = _errors(_write(tmp_path / "x", "name: x\ntitle: X\nextends: lunch\ndeck_size: 100\n"))
    assert any("declared 100 cards but the card counts add up to 110" in e for e in errors), errors


@pytest.mark.parametrize("base", ["classic", "lunch", "beer"])
def test_new_set_validates_and_builds_at_once(tmp_path: Path, base: str) -> None:
    runner = CliRunner()
    folder = tmp_path / "my set"
    res = runner.invoke(main, ["new", str(folder), "--base", base])
    assert res.exit_code == 0, res.output
    for name in ("set.yaml", "my-cards.yaml"):  # a schema path that travels with the folder, never file://
        first = (folder / name).read_text(encoding="utf-8").splitlines()[0]
        assert first == "# yaml-language-server: $schema=card-set.schema.json"
    assert (folder / "card-set.schema.json").read_text(encoding="utf-8") == schema_json()
    assert "file://" not in "".join(p.read_text(encoding="utf-8") for p in folder.iterdir())
    assert (folder / "README.md").is_file()
    cs = load_set(folder)
    assert cs.name == "my-set" and cs.total == load_set(base).total + 1
    res = runner.invoke(main, ["build", "--set", str(folder), "--out", str(tmp_path / "out"), "--proof"])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "out" / "my-set" / "my-set-cards.pdf").stat().st_size > 1000


def test_new_refuses_a_non_empty_folder(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("mine")
    res = CliRunner().invoke(main, ["new", str(tmp_path)])
    assert res.exit_code == 1
    assert "already exists and is not an empty folder" in res.output
    assert (tmp_path / "keep.txt").read_text() == "mine"
