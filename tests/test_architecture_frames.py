"""The engine's shape: each kind of pending step is one frame class that owns its rules (its step, its moves,
its answers), and small shared functions are called, not pasted."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cardgen.engine import frames

ROOT = Path(__file__).resolve().parents[1] / "cardgen"
FRAME_NAMES = {name for name, obj in vars(frames).items() if isinstance(obj, type) and issubclass(obj, frames.Frame)}
CONCRETE = [obj for obj in vars(frames).values() if isinstance(obj, type) and issubclass(obj, frames.Frame)
            and obj not in (frames.Frame, frames.Window)]


def test_every_frame_kind_says_how_it_runs_and_what_its_moves_do() -> None:
    assert len(CONCRETE) >= 13
    for cls in CONCRETE:
        assert cls.step is not frames.Frame.step, f"{cls.__name__} has no step of its own"
        assert cls.apply is not frames.Frame.apply, f"{cls.__name__} applies no move"
        if issubclass(cls, frames.Window):
            assert cls.card is not frames.Window.card, f"{cls.__name__} does not say which card waits"


def _class_tests(path: Path) -> list[str]:
    """Every `isinstance(x, <frame class>)` and `type(x) is <frame class>` in a module, as text."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance":
            names = {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)}
        elif (isinstance(node, ast.Compare) and isinstance(node.left, ast.Call)
              and isinstance(node.left.func, ast.Name) and node.left.func.id == "type"):
            names = {n.id for c in node.comparators for n in ast.walk(c) if isinstance(n, ast.Name)}
        else:
            continue
        if names & FRAME_NAMES:
            found.append(ast.unparse(node))
    return found


@pytest.mark.parametrize("module", ["flow.py", "rules.py", "legal.py", "effects.py", "state.py"])
def test_the_rules_loop_and_the_move_lists_never_test_a_frame_class(module: str) -> None:
    # What a step does is its class's own method: a chain of class tests outside the frames would be a second
    # place to change for a new kind of step.
    assert _class_tests(ROOT / "engine" / module) == []


def test_frames_test_classes_only_to_narrow_a_neighbour() -> None:
    # Inside the frames, a class test only narrows the frame below (an answer's window, a strike's combo, a
    # direction's strike) or a copy: never a dispatch chain.
    found = [t for path in sorted((ROOT / "engine" / "frames").glob("*.py")) for t in _class_tests(path)]
    assert all(t.startswith("isinstance(") for t in found), found
    assert len(found) <= 4, found


class _Anonymous(ast.NodeTransformer):
    """Every variable name the same, so that a paste with its variables renamed still matches."""

    def visit_Name(self, node: ast.Name) -> ast.Name:
        return ast.Name(id="_", ctx=ast.Load())


def _shape(node: ast.AST) -> str:
    return ast.dump(_Anonymous().visit(ast.parse(ast.unparse(node))))


def _body_shapes(module: str, function: str) -> list[str]:
    """The shapes of a small function's working parts (read from its source: a compiled function has none to
    inspect): its returned condition, and its loops."""
    tree = ast.parse((ROOT / "engine" / module).read_text(encoding="utf-8"))
    (fn,) = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == function]
    parts: list[ast.AST] = [n.value for n in ast.walk(fn)
                            if isinstance(n, ast.Return) and isinstance(n.value, ast.BoolOp)]
    parts += [n for n in ast.walk(fn) if isinstance(n, ast.While)]
    return [_shape(p) for p in parts]


def _pastes(shapes: list[str], skip: str) -> list[str]:
    """Conditions and loops of the engine and the simulation shaped like one of `shapes`, outside `skip`."""
    found = []
    for path in sorted([*(ROOT / "engine").glob("*.py"), *(ROOT / "sim").glob("*.py")]):
        if path.name == skip:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.BoolOp | ast.While) and _shape(node) in shapes:
                found.append(f"{path.name}:{getattr(node, 'lineno', 0)}: {ast.unparse(node)[:80]}")
    return found


def test_small_shared_functions_are_called_not_pasted() -> None:
    # `lost` and `can_act` (can this player act?) are written once, in effects.py.
    conditions = _body_shapes("effects.py", "lost") + _body_shapes("effects.py", "can_act")
    assert len(conditions) == 2
    assert _pastes(conditions, "effects.py") == []
    # The rejection loop of `randomness.below` (a uniform number from the generator) lives in randomness.py.
    loops = _body_shapes("randomness.py", "below")
    assert len(loops) == 1
    assert _pastes(loops, "randomness.py") == []


def test_the_paste_finder_finds_a_paste(tmp_path: Path) -> None:
    # The old `_step_turn` had `lost`'s condition pasted in (renamed variables match too).
    pasted = ast.parse("def f(t, q):\n    if t.down[q] or t.stun_until[q] >= now or t.vomit_until[q] >= now:\n"
                       "        pass\n")
    shapes = _body_shapes("effects.py", "lost")
    assert any(_shape(n) in shapes for n in ast.walk(pasted) if isinstance(n, ast.BoolOp))
