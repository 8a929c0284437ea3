"""A set's own card-text templates: used when present, sandboxed, errors with file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.cardtext import rules_text
from cardgen.errors import SetError
from cardgen.loader import load_set


def _set_with_template(tmp_path: Path, template: str) -> Path:
    folder = tmp_path / "own"
    (folder / "templates").mkdir(parents=True)
    (folder / "set.yaml").write_text("name: own\ntitle: Own\nextends: lunch\n", encoding="utf-8")
    (folder / "templates" / "card_text.j2").write_text(template, encoding="utf-8")
    return folder


def test_set_template_replaces_the_bundled_one(tmp_path: Path) -> None:
    cs = load_set(_set_with_template(tmp_path, "{{ card.name|upper }} hits for {{ damage }}!\n"))
    assert rules_text(cs.card("Hook"), cs) == "HOOK hits for 3!"
    assert rules_text(load_set("lunch").card("Hook"), load_set("lunch")).startswith("Deals 3")


def test_template_reaching_outside_the_sandbox_is_refused_with_its_line(tmp_path: Path) -> None:
    folder = _set_with_template(tmp_path, "fine\n{{ card.__class__.__mro__[1].__subclasses__() }}\n")
    with pytest.raises(SetError) as info:
        load_set(folder)
    [err] = info.value.errors
    assert err.path.endswith("templates/card_text.j2") and err.line == 2
    assert "outside the sandbox" in err.message and "'Jab'" in err.message


def test_template_syntax_error_names_file_and_line(tmp_path: Path) -> None:
    folder = _set_with_template(tmp_path, "ok\nok\n{% if %}\n")
    with pytest.raises(SetError) as info:
        load_set(folder)
    [err] = info.value.errors
    assert err.line == 3 and "template syntax" in err.message


@pytest.mark.parametrize("template, words", [
    ("{{ 1 // 0 }}\n", "ZeroDivisionError"),
    ("{{ card.damage + 1 }}\n", "TypeError"),
    ("{{ 'a' * 10**9 }}\n", "outside the sandbox"),
    ("{% macro f(n) %}{{ f(n) }}{% endmacro %}{{ f(1) }}\n", "RecursionError"),
    ("{% for i in range(5000) %}xxxxxxxxxx{% endfor %}\n", "characters for one card"),
])
def test_any_template_failure_is_a_clear_error_not_a_crash(tmp_path: Path, template: str, words: str) -> None:
    with pytest.raises(SetError) as info:
        load_set(_set_with_template(tmp_path, template))
    [err] = info.value.errors
    assert err.path.endswith("card_text.j2") and words in err.message
