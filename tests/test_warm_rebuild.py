"""A watch rebuild reuses what it can (the rules page when its words did not change) and still writes
the bytes a cold build writes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardgen.checks import load_set
from cardgen.paths import card_data_dir
from cardgen.render import rules_page
from cardgen.render.build import build
from cardgen.render.memory import RulesMemory
from cardgen.render.sheets import PrintOptions


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.rglob("*.pdf"))}


def test_warm_rebuilds_write_the_bytes_of_a_cold_build(tmp_path: Path) -> None:
    folder = tmp_path / "lunch"
    shutil.copytree(card_data_dir() / "lunch", folder)
    opts = PrintOptions(backs=True, proof=True)
    kept = RulesMemory()  # a watch's: every rebuild shares it
    build([load_set(folder)], opts, tmp_path / "warm", show_progress=False, rules=kept)
    target = next(p for p in sorted(folder.glob("*.yaml")) if "damage: " in p.read_text("utf-8"))
    text = target.read_text("utf-8")
    edits = [text.replace("damage: ", "damage: 1", 1),  # mechanics: card text and rules table change
             text + "\n# a comment only\n",  # nothing printed changes: the rules page is reused
             text]  # and back again
    for edited in edits:
        target.write_text(edited, "utf-8")
        warm = build([load_set(folder)], opts, tmp_path / "warm", show_progress=False, rules=kept)
        build([load_set(folder)], opts, tmp_path / "cold", show_progress=False)  # its own session: cold
        assert warm and _files(tmp_path / "warm") == _files(tmp_path / "cold")


def test_the_rules_page_is_laid_out_once_for_the_same_words(monkeypatch: pytest.MonkeyPatch) -> None:
    cs = load_set("beer")
    memory = RulesMemory()
    first = rules_page.rules_pdf(cs, "a4", memory)
    calls: list[float] = []
    real = rules_page.render

    def counting(*args: object, **kwargs: object) -> object:
        calls.append(1.0)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(rules_page, "render", counting)
    assert rules_page.rules_pdf(cs, "a4", memory) == first and not calls  # remembered
    assert rules_page.rules_pdf(cs, "a4") == first and 1 <= len(calls) <= 3  # a new memory: laid out, same bytes
