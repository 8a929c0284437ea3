"""The engine's own layers: its modules import one another one way only, at the top of the module.

The state (`GameState`) deals a new game from a `Game`, pushes moves, settles and determinizes itself, with
the run-to-a-decision loop (`flow`) below it; the rules functions, views and bots sit above.
No engine module imports another inside a function (a back-door past the layering), and the imports that
run when a module loads form no cycle (those under `TYPE_CHECKING` are for the type checker only).
"""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from cardgen.engine.game import make_game
from cardgen.engine.state import GameState
from cardgen.engine.views import observe
from cardgen.loader import load_set
from cardgen.paths import bundled_set_names

ENGINE = Path(__file__).resolve().parents[1] / "cardgen" / "engine"


def _modules() -> dict[str, Path]:
    return {".".join(p.relative_to(ENGINE).with_suffix("").parts).removesuffix(".__init__") or "engine": p
            for p in sorted(ENGINE.rglob("*.py"))}


def _runtime_imports(path: Path) -> tuple[set[str], list[str]]:
    """(engine modules imported when `path` loads, engine imports made inside a function)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    at_load: set[str] = set()
    inside: list[str] = []

    def engine_name(node: ast.ImportFrom | ast.Import) -> list[str]:
        if isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if mod == "cardgen.engine":
                return [a.name for a in node.names]
            return [mod.removeprefix("cardgen.engine.")] if mod.startswith("cardgen.engine.") else []
        return [a.name.removeprefix("cardgen.engine.") for a in node.names if a.name.startswith("cardgen.engine.")]

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.Import | ast.ImportFrom):
                names = engine_name(child)
                (inside.extend if in_function else at_load.update)(names)
            visit(child, in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda))

    visit(tree, False)
    return at_load, inside


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of `graph` (module -> modules it imports when it loads), or []."""
    state: dict[str, int] = {}
    path: list[str] = []

    def walk(m: str) -> list[str]:
        state[m] = 1
        path.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                return [*path[path.index(n):], n]
            if n not in state and (found := walk(n)):
                return found
        path.pop()
        state[m] = 2
        return []

    for m in sorted(graph):
        if m not in state and (found := walk(m)):
            return found
    return []


def test_no_engine_module_imports_another_inside_a_function() -> None:
    found = {name: inside for name, path in _modules().items() if (inside := _runtime_imports(path)[1])}
    assert found == {}


def test_the_engine_modules_import_one_another_without_a_cycle() -> None:
    modules = _modules()
    # A package imports its own families in order; a family's import of a sibling family is below its
    # definitions on purpose (docs/engine.md), so the frames package counts as one node.
    def node(name: str) -> str:
        return "frames" if name.startswith("frames") else name

    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        if name == "engine":
            continue
        graph.setdefault(node(name), set()).update(node(m) for m in _runtime_imports(path)[0] if node(m) != node(name))
    assert _cycle(graph) == []
    assert not {"rules", "views"} & (graph["state"] | graph["game"])  # the state and the game need no rules module


def test_the_cycle_finder_finds_what_it_looks_for() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("set_name", bundled_set_names())
def test_a_determinized_state_keeps_what_its_seat_sees_and_deals_the_rest(set_name: str) -> None:
    cs = load_set(set_name)
    s = GameState.deal(make_game(cs, ["A", "B", "C", "D"]), 5)
    rng = random.Random(1)
    for _ in range(40):
        if s.result is not None:
            break
        seat = s.to_act
        t = s.determinized(seat, rng)
        assert observe(t, seat).public() == observe(s, seat).public()
        assert sorted([c for p, h in enumerate(t.hands) if p != seat for c in h] + t.draw) == list(s.unseen(seat))
        s.push(s.moves[rng.randrange(len(s.moves))])
