"""Editor lock and temp files beside the cards are skipped with a message; a symlink loop is a file error,
never a traceback; `build --watch` survives any error in a rebuild."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.checks import load_set, load_set_with_warnings
from cardgen.cli.main import main
from cardgen.errors import SetError
from cardgen.loader.load import is_editor_file
from cardgen.watch import Watcher, snapshot

SET_YAML = "name: w\ntitle: W\nextends: lunch\n"
CARD = "cards:\n  - {name: Wedgie, type: basic, count: 1, damage: 2, source: designed}\n"

needs_symlinks = pytest.mark.skipif(not hasattr(os, "symlink") or os.name == "nt", reason="needs POSIX symlinks")


def _set(tmp_path: Path) -> Path:
    folder = tmp_path / "w"
    folder.mkdir()
    (folder / "set.yaml").write_text(SET_YAML, encoding="utf-8")
    (folder / "cards.yaml").write_text(CARD, encoding="utf-8")
    return folder


@pytest.mark.parametrize(("name", "editor"), [
    (".#cards.yaml", True), ("cards.yaml~", True), (".cards.yaml.swp", True), (".cards.yaml.tmp", True),
    ("cards.yaml", False), ("tmp.yaml", False), ("swp.yaml", False)])
def test_editor_file_patterns(name: str, editor: bool) -> None:
    assert is_editor_file(name) is editor


@needs_symlinks
def test_emacs_lock_and_other_editor_files_are_skipped_with_a_warning(tmp_path: Path) -> None:
    folder = _set(tmp_path)
    os.symlink("user@host.1234:1700000000", folder / ".#cards.yaml")  # Emacs's lock: a dangling symlink
    (folder / "cards.yaml~").write_text("cards: [broken", encoding="utf-8")
    (folder / ".cards.yaml.swp").write_bytes(b"\x00binary vim swap")
    cs, warnings = load_set_with_warnings(folder)
    assert [c.name for c in cs.cards][-1] == "Wedgie"
    skipped = sorted(Path(w.path).name for w in warnings if "editor's lock or temporary file" in w.message)
    assert skipped == [".#cards.yaml", ".cards.yaml.swp", "cards.yaml~"]
    res = CliRunner().invoke(main, ["validate", "--no-sim", "--set", str(folder)])
    assert res.exit_code == 0, res.output
    assert f"{folder / '.#cards.yaml'}:1:1: warning: skipped" in res.stderr


@needs_symlinks
def test_symlink_loop_is_a_file_error_not_a_traceback(tmp_path: Path) -> None:
    folder = _set(tmp_path)
    os.symlink("loop-b.yaml", folder / "loop-a.yaml")
    os.symlink("loop-a.yaml", folder / "loop-b.yaml")
    with pytest.raises(SetError) as info:
        load_set(folder)
    assert [(Path(d.path).name, d.message) for d in info.value.errors] == [
        ("loop-a.yaml", "cannot read file: a symbolic link loop"),
        ("loop-b.yaml", "cannot read file: a symbolic link loop")]
    res = CliRunner().invoke(main, ["build", "--set", str(folder), "--out", str(tmp_path / "out")])
    assert res.exit_code == 1 and "loop-a.yaml:1:1: error: cannot read file: a symbolic link loop" in res.stderr
    assert snapshot([folder]).keys() == {folder / "set.yaml", folder / "cards.yaml"}


def test_watcher_survives_any_error_in_a_rebuild(tmp_path: Path) -> None:
    lines: list[str] = []
    failures = [RuntimeError("Symlink loop from 'x.yaml'"), ValueError("odd"), MemoryError()]

    def action() -> list[Path]:
        if failures:
            raise failures.pop(0)
        return [tmp_path / "ok.pdf"]

    w = Watcher([tmp_path], action, lines.append)
    assert [w.run_action() for _ in range(4)] == [False, False, False, True]
    assert lines[0] == "error: rebuild failed: RuntimeError: Symlink loop from 'x.yaml'"
    assert sum("waiting for the next save" in line for line in lines) == 3
    assert lines[-2:][0] == str(tmp_path / "ok.pdf") and w.rebuilds == 4


@needs_symlinks
def test_watch_snapshot_ignores_editor_files_and_loops(tmp_path: Path) -> None:
    folder = _set(tmp_path)
    os.symlink("nowhere", folder / ".#cards.yaml")
    os.symlink("me.yaml", folder / "me.yaml")
    assert set(snapshot([folder])) == {folder / "set.yaml", folder / "cards.yaml"}
