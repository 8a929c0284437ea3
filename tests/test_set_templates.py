"""A set's own card-text templates: used when present, sandboxed, errors with file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.cardtext import rules_text
from cardgen.checks import load_set
from cardgen.errors import SetError


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


@pytest.mark.parametrize("template, words", [
    ("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
     "passed 100,000 to a function"),
    ("{% for i in range(3000) %}{% for j in range(3000) %}{% endfor %}{% endfor %}", "more than 10,000 operations"),
    ("{% set ns = namespace(s='x') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
     "made a value of 8,192 characters"),
    ("{% set s %}{% for i in range(5000) %}{{ 'x' * 4000 }}{% endfor %}{% endset %}{{ s|length }}",
     "more than 10,000 operations"),
    ("{% macro f(n) %}{% if n %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}{{ f(40) }}",
     "more than 10,000 operations"),
    ("{{ 'x'.ljust(10**9) }}", "passed 1,000,000,000 to a function"),
    ("{{ 'x'|center(10**9) }}", "passed 1,000,000,000 to a function"),
    ("{{ '%01000000000d' % 1 }}", "format string with a width"),
    ("{{ '{:>1000000000}'.format(1) }}", "format string with a width"),
    ("{{ ((10**64)**64)**64 }}", "more than 4,096 bits"),
    ("{{ ('x' * 4000) + ('y' * 4000) }}", "made a value of 8,000 characters"),
])
def test_runaway_template_is_stopped_at_its_file_and_line(tmp_path: Path, template: str, words: str) -> None:
    import time

    t0 = time.monotonic()
    with pytest.raises(SetError) as info:
        load_set(_set_with_template(tmp_path, "{{ card.name }}\n" + template + "\n"))
    assert time.monotonic() - t0 < 20  # the bound, not a benchmark: unbounded these run for minutes or hours
    [err] = info.value.errors
    assert err.path.endswith("templates/card_text.j2") and err.line == 2, err
    assert "template stopped" in err.message and words in err.message, err.message


def test_a_slow_template_is_stopped_by_the_clock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import cardgen.cardtext as cardtext

    monkeypatch.setattr(cardtext, "CARD_BUDGET", cardtext.CARD_BUDGET._replace(seconds=0.0))
    with pytest.raises(SetError) as info:
        load_set(_set_with_template(tmp_path, "{{ card.name }}\n{{ card.name|upper }}\n"))
    [err] = info.value.errors
    assert "template ran longer than 0 s" in err.message and err.line in (1, 2)


def test_the_bundled_templates_run_unchanged_inside_the_bounds(tmp_path: Path) -> None:
    from cardgen.cardtext import generated_text, summary
    from cardgen.paths import templates_dir

    for base in ("lunch", "beer", "classic"):
        folder = tmp_path / base
        (folder / "templates").mkdir(parents=True)
        (folder / "set.yaml").write_text(f"name: own-{base}\ntitle: Own\nextends: {base}\n", encoding="utf-8")
        for name in ("card_text.j2", "card_summary.j2"):
            (folder / "templates" / name).write_text((templates_dir() / name).read_text(encoding="utf-8"))
        own, bundled = load_set(folder), load_set(base)
        for mine, theirs in zip(own.cards, bundled.cards, strict=True):
            assert generated_text(mine, own) == generated_text(theirs, bundled)
            assert summary(mine, own, short=True) == summary(theirs, bundled, short=True)
