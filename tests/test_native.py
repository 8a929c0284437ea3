"""The compiled build (setup.py, cardgen/native.py): the same results as pure Python, never a stale module.

The tests that need the compiled modules skip when this install is pure (no C compiler, or
CARDGEN_PURE=1): CI runs the suite on a compiled install first, so they run there.
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import cardgen
from cardgen import native
from cardgen.engine.agents import RandomAgent
from cardgen.engine.cards import card_info
from cardgen.engine.rules import new_game, push
from cardgen.engine.state import GameState, Hold, Outcome, Reason
from cardgen.engine.views import observe
from cardgen.model import CardSet
from cardgen.native_modules import MODULES, PATHS, module_of
from cardgen.sim.runner import TIMING_KEYS
from cardgen.sim.stats import GameRecord, Stats

PACKAGE = Path(cardgen.__file__).resolve().parent
compiled_only = pytest.mark.skipif(not cardgen.BUILD.compiled, reason=f"this install runs {cardgen.BUILD.line()}")


def _python(code: str, root: Path | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    """`code` in a fresh interpreter (importing cardgen from `root`, default this install)."""
    full = {k: v for k, v in os.environ.items() if k != native.PURE_ENV} | env
    if root is not None:
        full["PYTHONPATH"] = str(root)
    return subprocess.run([sys.executable, "-c", code], env=full, capture_output=True, text=True, check=True,
                          cwd=root or PACKAGE.parent)


def _mid_game(cs: CardSet) -> GameState:
    s = new_game(cs, 4, seed=3, info=card_info(cs))
    for _ in range(40):
        push(s, RandomAgent(1).choose(observe(s, s.to_act)))
    return s


def test_the_module_list_names_real_sources_of_the_engine_and_simulation() -> None:
    for path in PATHS:
        assert (PACKAGE.parent / path).is_file(), path
        assert path.startswith(("cardgen/engine/", "cardgen/sim/")), path
    assert module_of("cardgen/engine/rules.py") == "cardgen.engine.rules"
    assert "cardgen.engine.rules" in MODULES and "cardgen.sim.greedy" in MODULES


def test_what_crosses_a_process_pickles_and_comes_back_equal(beer: CardSet) -> None:
    s = _mid_game(beer)
    for obj in (s.game.info[0], s.game, GameRecord(1, 20, 300, {"Dodge": 2}, ("x",)), Hold(0, 1, 2, 3, ("dodge",),
                False, False, True, False), Outcome(1, Reason.TURN_CAP, 9)):
        assert pickle.loads(pickle.dumps(obj)) == obj, type(obj).__name__
    stats = Stats(4, designs=len(beer.cards))
    assert pickle.loads(pickle.dumps(stats)).seat_wins == stats.seat_wins
    t = pickle.loads(pickle.dumps(s))
    assert (t.life, t.hands, t.draw, t.to_act, t.moves) == (s.life, s.hands, s.draw, s.to_act, s.moves)
    assert [f._fields for f in t.stack] == [f._fields for f in s.stack]


def test_a_frame_copy_carries_every_attribute(beer: CardSet) -> None:
    s = _mid_game(beer)
    for f in s.stack:
        c = f.copy()
        assert type(c) is type(f) and c is not f and "player" in f._fields
        for name in f._fields:
            assert getattr(c, name) == getattr(f, name), name


def test_pure_is_forced_by_the_environment() -> None:
    out = _python("import cardgen, cardgen.engine.rules as r; print(cardgen.BUILD.compiled, r.__file__)",
                  **{native.PURE_ENV: "1"})
    compiled, path = out.stdout.split()
    assert compiled == "False" and path.endswith("rules.py")


@compiled_only
def test_the_compiled_build_runs_compiled_modules() -> None:
    out = _python("import cardgen, cardgen.engine.rules as r, cardgen.sim.greedy as g; print(r.__file__, g.__file__)")
    assert all(not p.endswith(".py") for p in out.stdout.split())
    assert out.stderr == ""


@compiled_only
@pytest.mark.parametrize("agents", ["random,greedy", "search"])
def test_compiled_and_pure_simulations_give_identical_json(tmp_path: Path, agents: str) -> None:
    outs = []
    for pure in ("0", "1"):
        out = tmp_path / f"pure{pure}.json"
        games = "16" if agents == "search" else "150"
        argv = ["simulate", "--set", "beer", "--games", games, "--seed", "5", "--agent", agents, "--check", "moves",
                "--budget", "6", "--json", str(out)]
        subprocess.run([sys.executable, "-c", "from cardgen.cli.entry import run; run()", *argv],
                       env={**os.environ, native.PURE_ENV: pure}, check=True, capture_output=True)
        data = json.loads(out.read_text())
        outs.append({k: v for k, v in data.items() if k not in TIMING_KEYS})
    assert outs[0] == outs[1]
    assert outs[0]["games"] == int(games) and outs[0]["decisions"] > 0


def _copy_install(tmp_path: Path) -> Path:
    """This install's package (sources and compiled modules) copied under `tmp_path`, importable from there."""
    shutil.copytree(PACKAGE, tmp_path / "cardgen", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


@compiled_only
def test_an_edited_source_runs_as_edited_and_says_so_once(tmp_path: Path) -> None:
    root = _copy_install(tmp_path)
    rules = root / "cardgen" / "engine" / "rules.py"
    rules.write_text(rules.read_text() + "\nEDITED = 'yes'\n")
    out = _python("import cardgen, cardgen.engine.rules as r, cardgen.sim.greedy as g\n"
                  "print(cardgen.BUILD.compiled, r.EDITED, r.__file__.endswith('.py'), g.__file__.endswith('.py'))",
                  root=root, **{native.NOTICE_ENV: "1"})  # (said on a terminal; stderr here is a pipe)
    assert out.stdout.split() == ["False", "yes", "True", "True"]  # the whole group pure, not just rules
    [line] = out.stderr.splitlines()
    assert "source changed since compiled: engine.rules" in line and "pip install -e ." in line


@compiled_only
def test_an_incomplete_compiled_group_runs_pure(tmp_path: Path) -> None:
    root = _copy_install(tmp_path)
    for p in (root / "cardgen" / "sim").glob("greedy.*"):
        if p.suffix != ".py":
            p.unlink()
    out = _python("import cardgen, cardgen.engine.rules as r; print(cardgen.BUILD.compiled, r.__file__)", root=root)
    assert out.stdout.split()[0] == "False" and out.stdout.split()[1].endswith("rules.py")
    assert out.stderr == ""  # not a terminal: the line is left out of a captured stream
    version = _python("from cardgen.cli.main import main; main(['--version'])", root=root)
    assert "pure Python (compiled build incomplete" in version.stdout


def test_a_leftover_compiled_module_outside_the_group_never_shadows_its_source(tmp_path: Path) -> None:
    root = _copy_install(tmp_path)
    # A module that is not in the compiled group, with an extension module beside it that cannot even load.
    junk = root / "cardgen" / "engine" / f"replay{native.importlib.machinery.EXTENSION_SUFFIXES[0]}"
    junk.write_bytes(b"not a shared library")
    out = _python("import cardgen.engine.replay as s; print(s.__file__)", root=root)
    assert out.stdout.strip().endswith("replay.py")
