"""Stage boundaries: the engine never imports rendering, rendering never imports the engine, no card names in rules."""

from __future__ import annotations

import ast
import dataclasses
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cardgen import model
from cardgen.checks import load_set
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
    return [".".join(("cardgen", package, *p.relative_to(folder).with_suffix("").parts))
            for p in sorted(folder.rglob("*.py")) if p.stem != "__init__"]


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


# Bots, trackers and the table read the typed observation (`engine/observation.py`), never the engine's frames.
_OBSERVERS = ["sim/greedy.py", "sim/search.py", "sim/agents.py", "sim/impact.py", "sim/evaluate.py", "sim/play.py",
              "engine/agents.py", "play/wording.py", "play/table.py"]


def _frame_classes() -> set[str]:
    from cardgen.engine import state

    return {name for name, c in vars(state).items() if isinstance(c, type) and issubclass(c, state.Frame)}


@pytest.mark.parametrize("module", _OBSERVERS)
def test_bots_trackers_and_the_table_read_no_engine_frame(module: str) -> None:
    tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
    frames = _frame_classes()
    assert len(frames) > 10
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
    assert not imported & frames, module
    # nor the stack of frames, nor a view's private state
    attrs = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    assert "stack" not in attrs and "_state" not in attrs, module


_MEMOISERS = ("cache", "functools.cache", "lru_cache", "functools.lru_cache")


def _module_level_mutables(path: Path) -> list[str]:
    """Names a module binds at its top level to an empty list, dict, set or bytearray (a cache or a 'last seen'
    record, by the look of it), and its functions memoised without bound (`functools.cache`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None and _empty(node.value):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            found += [ast.unparse(t) for t in targets]
        if isinstance(node, ast.FunctionDef):
            found += [node.name for d in node.decorator_list if ast.unparse(d).split("(")[0] in _MEMOISERS]
    return found


def _empty(value: ast.expr) -> bool:
    if isinstance(value, ast.List | ast.Set):
        return not value.elts
    if isinstance(value, ast.Dict):
        return not value.keys
    return (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
            and value.func.id in ("list", "dict", "set", "bytearray") and not value.args)


# The one module-level record allowed: a pool worker's task, set by the pool's initializer in each worker
# process. The engine has none: its memos of seatings and moves are each game's (`Game.askers`,
# `Game.shared_move`...), and what bots derive from a game's cards is the game's too (`Game.derived`).
_POOL_WORKER_TASKS = {"sim/runner.py": {"_WORKER"}}


@pytest.mark.parametrize("package", ["engine", "sim"])
def test_no_hidden_module_level_caches(package: str) -> None:
    """A cold build or a fresh game needs no cache clearing: the game owns what it derives (`Game.derived`)."""
    for path in sorted((ROOT / package).rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        assert set(_module_level_mutables(path)) <= _POOL_WORKER_TASKS.get(rel, set()), rel


def test_the_cache_finder_finds_what_it_looks_for(tmp_path: Path) -> None:
    sample = tmp_path / "m.py"
    sample.write_text("from functools import cache\n_LAST: list[int] = []\nSEEN = dict()\nKEEP = [1]\n"
                      "@cache\ndef f() -> int:\n    return 1\n@functools.lru_cache(maxsize=None)\ndef g() -> int:\n"
                      "    return 2\n", encoding="utf-8")
    assert _module_level_mutables(sample) == ["_LAST", "SEEN", "f", "g"]


def test_one_outcome() -> None:
    """`Outcome` is the engine's record of how a game ended, and nothing else: no other module binds the name
    (the balance lab's game records say what they are: `GameNote`)."""
    binders = []
    for path in sorted(ROOT.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
        names |= {ast.unparse(t) for n in tree.body if isinstance(n, ast.Assign) for t in n.targets}
        names |= {ast.unparse(n.target) for n in tree.body if isinstance(n, ast.AnnAssign)}
        if "Outcome" in names:
            binders.append(path.relative_to(ROOT).as_posix())
    assert binders == ["engine/outcome.py"]


def test_every_written_choice_is_a_move_choice() -> None:
    """A move's `Choice` has a member for every defence kind a card may play as, and for every `as:` and
    `direction:` a scenario may write (the loader's Literals, kept apart since the loader may not import the
    engine): each prints as the same word."""
    from typing import get_args

    from cardgen import scenario_spec
    from cardgen.engine.kinds import HOW, How
    from cardgen.engine.moves import Choice, defence_choice

    words = {str(c) for c in Choice}
    written = {*get_args(scenario_spec.PlayedAs), *get_args(scenario_spec.Direction), *get_args(model.DefenceKind)}
    assert written <= words
    for kind in get_args(model.DefenceKind):
        assert f"{defence_choice(kind)}" == kind and HOW[defence_choice(kind)] is How(kind)
    assert {*get_args(model.Humiliate), ""} <= {str(h) for h in How}


def test_each_game_owns_its_memos() -> None:
    """The rules' memos of seatings and moves are each game's own: two games of one set share none, and what one
    game memoised is what building it afresh gives."""
    from cardgen.engine.game import make_game
    from cardgen.engine.moves import HEAL, PLAY, Move

    cs = load_set("lunch")
    a, b = make_game(cs, ["A", "B", "C"]), make_game(cs, ["A", "B", "C"])
    memos = ("askers", "revivable", "rivals", "heals_at", "shared_move")
    assert all(getattr(a, m) is not getattr(b, m) for m in memos) and a.turn_plays is not b.turn_plays
    assert a.shared_move(PLAY, 2, 1) is a.shared_move(PLAY, 2, 1) == Move(PLAY, 2, 1)
    assert a.shared_move(PLAY, 2, 1) is not b.shared_move(PLAY, 2, 1)
    assert a.askers(1, 0, (False, False, True)) == (1,) and a.seats_from == ((0, 1, 2), (1, 2, 0), (2, 0, 1))
    assert a.revivable(0, (False, True, True), (False, False, True)) == (0, 1)
    assert a.rivals(1, (False, False, True)) == ((0,), 1)
    assert a.heals_at(3, (0, 2)) == (Move(HEAL, 3, 0), Move(HEAL, 3, 2))


MAX_ENGINE_COMPLEXITY = 25  # cyclomatic (radon); above it a function of the rules is split by what it decides


def test_no_engine_function_is_too_complex_to_read() -> None:
    from radon.complexity import cc_visit

    worst = [(block.complexity, f"{path.name}:{block.name}") for path in sorted((ROOT / "engine").rglob("*.py"))
             for block in cc_visit(path.read_text(encoding="utf-8"))]
    assert worst and max(worst)[0] > 10  # the tool reads the engine
    assert [w for w in worst if w[0] > MAX_ENGINE_COMPLEXITY] == []


# What rendering may keep a process long: data of the install, read once (a fixed set of files, the same for
# every set), the bundled faces registered once with reportlab, and pure memos whose keys hold all they depend
# on, bounded. Whatever depends on a set (its faces, its rules page, its parsed paragraphs) is the render
# session's (cardgen.render.session, cardgen.render.memory).
_RENDER_READ_ONCE = {
    "render/fonts.py": {"register_fonts"},
    "render/rules_layout.py": {"layout", "_register_bundled"},
    "render/face_layout.py": {"bundled", "_HINTS"},
    "render/type_icons.py": {"icon_data"},
    "render/sim_report.py": {"style"},
    "render/layout_data.py": {"_load"},
    "render/hyphenation.py": {"_dictionary"},
    "render/icons.py": {"_art_of", "find"},
    "export/shops.py": {"shops"},
}


@pytest.mark.parametrize("package", ["render", "sheets", "export"])
def test_rendering_keeps_no_state_of_a_set_in_its_modules(package: str) -> None:
    for path in sorted((ROOT / package).rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        assert set(_module_level_mutables(path)) <= _RENDER_READ_ONCE.get(rel, set()), rel


# --- the rooms (docs/architecture.md): every module in one, imports only downward --------------------------

_BASE = {"__init__", "errors", "paths", "suggest", "bounded_read", "yaml_lib", "yaml_doc", "output", "native",
         "native_modules", "_native_stamp", "model", "primitives", "mechanics", "numbering", "scenario_spec",
         "messages", "jinja_cache", "svgshapes", "font_file", "mechanic_registry", "bot_worth", "schema_parts",
         "library_compat"}
_TEXT = {"cardtext", "template_sandbox", "effect_text", "iconwords", "cardtable"}
_TOOLS = {"scaffold", "language_scaffold", "watch"}
_PACKAGES = {"loader": "loader", "engine": "engine", "sim": "simulation", "render": "rendering", "checks": "checks",
             "export": "export", "sheets": "sheets", "play": "play", "cli": "cli"}
_ROOMS = ("base", "loader", "text", "engine", "simulation", "rendering", "checks", "export", "sheets", "tools",
          "play", "cli")
MAY_IMPORT: dict[str, set[str]] = {
    "base": set(),
    "loader": {"base"},
    "text": {"base"},
    "engine": {"base"},
    "simulation": {"base", "engine"},
    "rendering": {"base", "loader", "text"},
    "checks": {"base", "loader", "text", "rendering", "engine", "simulation"},
    "export": {"base", "loader", "text", "rendering"},
    "sheets": {"base", "loader", "checks"},
    "tools": {"base", "loader", "checks"},
    "play": {"base", "loader", "text", "checks", "engine", "simulation", "rendering"},
    "cli": set(_ROOMS),
}


def _room(module: str) -> str | None:
    """The room of a dotted cardgen module name (`cardgen.loader.load`), or None when it is no room's."""
    parts = module.split(".")[1:] or ["__init__"]
    if len(parts) > 1:
        return _PACKAGES.get(parts[0])
    name = parts[0]
    return ("base" if name in _BASE else "text" if name in _TEXT else "tools" if name in _TOOLS
            else _PACKAGES.get(name))


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT.parent).with_suffix("")
    parts = list(rel.parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every cardgen import of a module: at the top, inside functions, under TYPE_CHECKING."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("cardgen"):
            names = [f"cardgen.{a.name}" for a in node.names] if node.module == "cardgen" else [node.module or ""]
            found += [(node.lineno, n) for n in names]
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "cardgen"]
        elif isinstance(node, ast.ImportFrom) and node.level:
            found.append((node.lineno, "relative import"))
    return found


def _climbs(path: Path, module: str) -> list[str]:
    """Every import of `path` (module `module`) that goes up a room or sideways into another room."""
    room = _room(module)
    out = []
    for line, target in _imports(path):
        if target == "relative import":
            out.append(f"{module}:{line}: a relative import (write the room: from cardgen.<room> import ...)")
            continue
        # `from cardgen import x` names a module or a package's attribute: the longest module it names
        while target != "cardgen" and not _is_module(target):
            target = target.rsplit(".", 1)[0]
        there = _room(target)
        if there is None or (there != room and there not in MAY_IMPORT[str(room)]):
            out.append(f"{module}:{line}: {room} imports {target} ({there})")
    return out


def _is_module(dotted: str) -> bool:
    rel = Path(*dotted.split(".")[1:])
    return (ROOT / rel).with_suffix(".py").is_file() or (ROOT / rel / "__init__.py").is_file()


def _sources() -> list[Path]:
    return sorted(ROOT.rglob("*.py"))


def test_every_module_is_in_a_room() -> None:
    homeless = [_module_name(p) for p in _sources() if _room(_module_name(p)) is None]
    assert not homeless, f"place these in a room (here and in docs/architecture.md): {homeless}"
    assert {_room(_module_name(p)) for p in _sources()} == set(_ROOMS)


def test_imports_never_climb_a_room() -> None:
    """Module level or inside a function, typing-only or not: a room imports only the rooms below it."""
    climbs = [c for p in _sources() for c in _climbs(p, _module_name(p))]
    assert not climbs, "\n".join(climbs)


def test_the_room_check_finds_what_it_looks_for(tmp_path: Path) -> None:
    """A loader module that imports rendering (inside a function) or checks, and a base module that imports the
    loader, are caught; a loader module importing the base is not."""
    (tmp_path / "cardgen" / "loader").mkdir(parents=True)
    lower = tmp_path / "cardgen" / "loader" / "m.py"
    lower.write_text("from cardgen import model\nfrom cardgen.errors import Diagnostic\n\ndef f() -> None:\n"
                     "    from cardgen.render.contrast import ratio\n    import cardgen.checks.run\n",
                     encoding="utf-8")
    climbs = _climbs(lower, "cardgen.loader.m")
    assert [c.split(": ", 1)[1] for c in climbs] == ["loader imports cardgen.render.contrast (rendering)",
                                                    "loader imports cardgen.checks.run (checks)"]
    base = tmp_path / "cardgen" / "messages.py"
    base.write_text("def g() -> None:\n    from cardgen.loader.yaml_doc import read_document\n", encoding="utf-8")
    assert len(_climbs(base, "cardgen.messages")) == 1


@pytest.mark.parametrize("package", ["loader", "checks"])
def test_no_module_level_state_in_loading_and_checking(package: str) -> None:
    """Loading a set twice reads it twice: no cache or record at the top of a loader or checks module."""
    for path in sorted((ROOT / package).rglob("*.py")):
        assert _module_level_mutables(path) == [], path.relative_to(ROOT).as_posix()


MAX_COMPLEXITY = 30  # cyclomatic (radon), any function of the package; above it, a function is split by what it decides


def _functions(source: str) -> list[Any]:
    """radon's blocks of every function and method of a module."""
    from radon.complexity import cc_visit

    blocks = cc_visit(source)
    return [f for b in blocks for f in (getattr(b, "methods", None) or [b]) if not hasattr(f, "methods")]


def test_no_function_of_the_package_is_too_complex() -> None:
    over = {f"{p.relative_to(ROOT).as_posix()}:{f.name}": f.complexity for p in _sources()
            for f in _functions(p.read_text(encoding="utf-8")) if f.complexity > MAX_COMPLEXITY}
    assert over == {}


def test_no_module_is_hard_to_maintain() -> None:
    """radon's maintainability index: rank C (below 10) marks a module to split."""
    from radon.metrics import mi_rank, mi_visit

    low = {p.relative_to(ROOT).as_posix() for p in _sources()
           if mi_rank(mi_visit(p.read_text(encoding="utf-8"), multi=True)) == "C"}
    assert not low, sorted(low)
