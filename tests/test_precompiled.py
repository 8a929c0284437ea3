"""Precompiled bundled templates: the stored code is what Jinja generates from today's source, renders the
same text, and a template edited since is compiled from its source instead.

The modules are generated with one Jinja release; a fresh install may get another. Then they must simply not
be used (every template compiled from source, same text), so these tests check that instead of failing."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import jinja2
import pytest

from cardgen import cardtext, precompiled
from cardgen.loader import load_set
from cardgen.paths import bundled_set_names, templates_dir
from cardgen.render import rules_content


def _stored() -> dict[str, str]:
    folder = precompiled.package_dir()
    return {p.stem: p.read_text(encoding="utf-8") for p in folder.glob("*.py") if p.stem != "__init__"}


def _header(text: str, field: str) -> str:
    found = re.search(rf"^{field} = '([^']*)'$", text, re.M)
    assert found, field
    return found.group(1)


SAME_JINJA = {_header(t, "JINJA_VERSION") for t in _stored().values()} == {jinja2.__version__}


def test_stored_modules_are_what_jinja_generates_from_the_templates_today() -> None:
    fresh, stored = precompiled.generate(precompiled.bundled()), _stored()
    assert len(stored) == 4 and stored.keys() == fresh.keys()
    # Made from today's sources (whatever Jinja is installed): a template edited since must be regenerated.
    stale = sorted(k for k in fresh if _header(stored[k], "SOURCE_SHA256") != _header(fresh[k], "SOURCE_SHA256"))
    assert not stale, f"cardgen/compiled_templates is stale for {stale}: run `python -m cardgen.precompiled`"
    if SAME_JINJA:  # and with the Jinja they were made by, exactly the code it generates
        assert [k for k in fresh if stored[k] != fresh[k]] == []


def _compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Names Jinja compiles from source from now on (a precompiled template is not among them)."""
    names: list[str] = []
    real = jinja2.Environment.compile

    def counting(self: jinja2.Environment, source: str, name: str | None = None, *args: object,
                 **kwargs: object) -> object:
        names.append(str(name))
        return real(self, source, name, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    return names


def test_bundled_templates_load_precompiled_and_render_what_a_compiled_template_renders(
        monkeypatch: pytest.MonkeyPatch) -> None:
    compiled = _compiles(monkeypatch)
    cardtext.bundled_env.cache_clear()
    rules_content.rules_env.cache_clear()
    try:
        for name in bundled_set_names():
            cardtext.bundled_env.cache_clear()
            rules_content.rules_env.cache_clear()
            cs = load_set(name)
            texts = [cardtext.rules_text(c, cs) for c in cs.cards]
            page = rules_content.page_markup(cs)
            if SAME_JINJA:
                assert compiled == [], compiled  # nothing compiled: every template came precompiled
            else:  # another Jinja release: the stored modules are not used
                assert {"card_text.j2", "page.j2", "glossary.j2"} <= set(compiled), compiled
            compiled.clear()
            plain_text = jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates_dir())),
                                            **cardtext._ENV_OPTIONS)
            plain_rules = jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates_dir() / "rules")),
                                             **{k: getattr(rules_content.rules_env(), k) for k in
                                                ("autoescape", "trim_blocks", "lstrip_blocks", "undefined",
                                                 "keep_trailing_newline")})
            plain_rules.filters.update(rules_content.rules_env().filters)
            monkeypatch.setattr(cardtext, "bundled_env", lambda lang="en", e=plain_text: e)
            monkeypatch.setattr(rules_content, "rules_env", lambda lang="en", e=plain_rules: e)
            assert [cardtext.rules_text(c, cs) for c in cs.cards] == texts
            assert rules_content.page_markup(cs) == page
            assert compiled  # and these were compiled from source
            monkeypatch.undo()
            compiled = _compiles(monkeypatch)
    finally:
        cardtext.bundled_env.cache_clear()
        rules_content.rules_env.cache_clear()


def test_an_edited_template_is_compiled_from_its_source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "templates"
    shutil.copytree(templates_dir(), copy)
    page = copy / "rules" / "page.j2"
    page.write_text(page.read_text(encoding="utf-8").replace("Rules at a glance", "Rules, edited"), encoding="utf-8")
    monkeypatch.setattr(precompiled, "templates_dir", lambda: copy)  # the shipped modules, now stale for page.j2
    compiled = _compiles(monkeypatch)
    env = jinja2.Environment(loader=precompiled.PrecompiledLoader(copy / "rules"), autoescape=True,
                             trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
    env.filters.update(rules_content.rules_env().filters)  # what compiling the glossary from source needs
    assert env.get_template("glossary.j2") and compiled == ([] if SAME_JINJA else ["glossary.j2"])  # unchanged
    compiled.clear()
    env.get_template("page.j2")
    assert compiled == ["page.j2"]  # edited: compiled from the file
    assert precompiled.stored_module(env, copy / "rules", "page.j2", page.read_text(encoding="utf-8")) is None
    other = jinja2.Environment(loader=precompiled.PrecompiledLoader(copy / "rules"), autoescape=False,
                               trim_blocks=True, lstrip_blocks=True)
    source = (copy / "rules" / "glossary.j2").read_text(encoding="utf-8")
    assert precompiled.stored_module(other, copy / "rules", "glossary.j2", source) is None  # other options
