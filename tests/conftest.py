"""Shared fixtures. Other test modules may add fixtures here too: keep additions independent."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

from cardgen.checks import load_set
from cardgen.errors import Diagnostic, SetError
from cardgen.model import CardSet

FIXTURE_SETS = Path(__file__).parent / "fixtures" / "sets"


RULEBOOKS = Path(__file__).resolve().parents[2] / "shared" / "rulebooks"  # shared/ sits beside the checkout


CI_VARIABLES = ("CARDGEN_CI", "CI")  # .ci/run sets CARDGEN_CI=1; most CI services set CI=true


def in_ci(env: Mapping[str, str]) -> bool:
    return any(env.get(name, "").lower() not in ("", "0", "false", "no") for name in CI_VARIABLES)


def require_rulebooks(folder: Path, env: Mapping[str, str]) -> Path:
    """`folder` if it exists; else a skip on a developer's machine, a failure under CI."""
    if not folder.is_dir():
        if in_ci(env):
            pytest.fail(f"rulebooks not found at {folder}: CI must run with shared/ beside the checkout")
        pytest.skip(f"rulebooks not available at {folder} (shared/ is not beside this checkout)")
    return folder


@pytest.fixture(autouse=True, scope="session")
def balance_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The balance verdict cache of this test session: fresh (never a developer's own), shared by the tests
    (and the commands they start) that ask for the same run."""
    folder = tmp_path_factory.mktemp("balance-cache")
    os.environ["CARDGEN_BALANCE_CACHE"] = str(folder)
    return folder


@pytest.fixture(scope="session")
def rulebooks() -> Path:
    """The rulebooks folder. Missing: skipped on a developer's machine, a failure under CI."""
    return require_rulebooks(RULEBOOKS, os.environ)


@pytest.fixture(scope="session")
def lunch() -> CardSet:
    return load_set("lunch")


@pytest.fixture(scope="session")
def beer() -> CardSet:
    return load_set("beer")


@pytest.fixture(scope="session")
def classic() -> CardSet:
    return load_set("classic")

# A small valid set (2 + 2 + 1 + 1 = 6 cards); tests replace single lines of it to break it.
MINI_SET = FIXTURE_SETS / "good-mini"


SetMaker = Callable[..., Path]


@pytest.fixture
def mini_set_files() -> dict[str, str]:
    """The mini set's files by name (a fresh copy per test)."""
    return {name: (MINI_SET / name).read_text(encoding="utf-8") for name in ("set.yaml", "cards.yaml")}


@pytest.fixture
def make_set(tmp_path: Path) -> SetMaker:
    """Write a set folder under tmp_path: `make_set({"set.yaml": text, ...})` -> its folder.

    Values may be str (written as UTF-8) or bytes (written as they are).
    """
    counter = [0]

    def make(files: dict[str, str | bytes], name: str = "") -> Path:
        counter[0] += 1
        folder = tmp_path / (name or f"set{counter[0]}")
        folder.mkdir()
        for fname, content in files.items():
            data = content.encode("utf-8") if isinstance(content, str) else content
            (folder / fname).write_bytes(data)
        return folder

    return make


@pytest.fixture
def set_errors() -> Callable[[Path], list[Diagnostic]]:
    """Load a set folder that must fail; its diagnostics (errors and warnings)."""

    def errors(folder: Path) -> list[Diagnostic]:
        with pytest.raises(SetError) as info:
            load_set(folder)
        assert info.value.errors, "a SetError must carry at least one error"
        return info.value.diagnostics

    return errors
