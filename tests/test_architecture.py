"""Stage boundaries: the engine never imports rendering, rendering never imports the engine, no card names in rules."""

from __future__ import annotations

import ast
import dataclasses
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cardgen import model
from cardgen.loader import load_set
from cardgen.paths import bundled_set_names

ROOT = Path(__file__).resolve().parents[1] / "cardgen"


def _modules_loaded_by(modules: list[str]) -> set[str]:
    code = ("import importlib, sys\n"
            f"for m in {modules!r}: importlib.import_module(m)\n"
            "print('\\n'.join(sorted(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return set(out.split())


def _package_modules(package: str) -> list[str]:
    folder = ROOT / package
    return [f"cardgen.{package}.{p.stem}" for p in sorted(folder.glob("*.py")) if p.stem != "__init__"]


def test_engine_and_simulation_never_load_rendering() -> None:
    loaded = _modules_loaded_by(_package_modules("engine") + _package_modules("sim"))
    assert not {m for m in loaded if m.startswith(("cardgen.render", "cardgen.export", "reportlab", "pypdf"))}


def test_engine_never_loads_the_loader() -> None:
    """Scenarios are read by `cardgen.loader.scenario` into `cardgen.scenario_spec`; the engine only plays them."""
    loaded = _modules_loaded_by(_package_modules("engine"))
    assert "cardgen.engine.replay" in loaded
    assert not {m for m in loaded if m.startswith(("cardgen.loader", "jsonschema", "yaml"))}


def test_rendering_and_exports_never_load_the_engine() -> None:
    loaded = _modules_loaded_by(_package_modules("render") + _package_modules("export"))
    assert not {m for m in loaded if m.startswith(("cardgen.engine", "cardgen.sim"))}


def _code_words(path: Path) -> set[str]:
    """Lower-cased strings and identifiers a module's code uses (docstrings and comments left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and n.body
                  and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    words: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            words.add(node.value.lower())
        elif isinstance(node, ast.Name):
            words.add(node.id.lower())
        elif isinstance(node, ast.Attribute):
            words.add(node.attr.lower())
    return words


@pytest.mark.parametrize("package", ["engine", "sim"])
def test_no_card_name_appears_in_rules_code(package: str) -> None:
    names = {c.name.lower() for s in bundled_set_names() for c in load_set(s).cards}
    # card names that are also words of the mechanics vocabulary (Opener.chain, stomp, the defence kinds...)
    vocabulary = {f.name for cls in (model.Card, model.Opener, model.Ongoing, model.Heal, model.Rules)
                  for f in dataclasses.fields(cls)}
    vocabulary |= set(model.DEFENCE_KINDS) | set(model.PAIR_HALVES) | set(model.ROLES) | {"grab"}
    names -= vocabulary
    for path in sorted((ROOT / package).glob("*.py")):
        for word in _code_words(path):
            found = [n for n in names if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", word)]
            assert not found, f"card name(s) {found} in the code of {path.name}: {word!r}"
