"""Whole output sets: a set's files appear together or not at all, whatever kills the writer and when;
what a killed write leaves behind is cleaned by the next one."""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import random
import shutil
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from cardgen.checks import load_set
from cardgen.model import CardSet
from cardgen.output import clean_stale, publish_folder, write_atomic
from cardgen.render.build import BuildOutput, build, render_set
from cardgen.render.sheets import PrintOptions

MINI = Path(__file__).parent / "fixtures" / "sets" / "good-mini"
GONE_PID = 4_194_305  # above Linux's largest pid: no such process
OPTS = PrintOptions(proof=True)


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_publish_replaces_its_files_together_and_keeps_the_others(tmp_path: Path) -> None:
    publish_folder(tmp_path, "s", {"a.pdf": b"a1", "b.pdf": b"b1"})
    write_atomic(tmp_path / "s" / "preview" / "x.png", b"png")  # another command's file
    written = publish_folder(tmp_path, "s", {"a.pdf": b"a2", "b.pdf": b"b2"})
    assert written == [tmp_path / "s" / "a.pdf", tmp_path / "s" / "b.pdf"]
    assert _tree(tmp_path / "s") == {"a.pdf": b"a2", "b.pdf": b"b2", "preview/x.png": b"png"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s"]  # no staging folder left
    assert (tmp_path / "s" / "a.pdf").stat().st_mode & 0o777 == 0o644
    assert (tmp_path / "s").stat().st_mode & 0o777 == 0o755


def test_stale_temporaries_of_dead_writers_are_cleaned(tmp_path: Path) -> None:
    publish_folder(tmp_path, "s", {"a.pdf": b"a1"})
    stale = [tmp_path / f".s.staging-{GONE_PID}-x1", tmp_path / "s" / f".a.pdf.{GONE_PID}-k2j3.tmp",
             tmp_path / "s" / ".beer-rules.pdf.q8w7e6r5.tmp"]  # the old, pid-less name
    stale[0].mkdir()
    (stale[0] / "a.pdf").write_bytes(b"half")
    for f in stale[1:]:
        f.write_bytes(b"half")
        f.chmod(0o600)
    live = tmp_path / f".s.staging-{os.getppid()}-x2"  # a running process's: left alone
    live.mkdir()
    assert sorted(clean_stale(tmp_path, "s")) == sorted(stale)
    assert live.exists() and _tree(tmp_path / "s") == {"a.pdf": b"a1"}


def test_a_retired_set_comes_back_when_the_swap_was_cut_short(tmp_path: Path) -> None:
    retired = tmp_path / f".s.retired-{GONE_PID}-x1"  # killed between the two renames
    retired.mkdir()
    (retired / "a.pdf").write_bytes(b"old")
    publish_folder(tmp_path, "s", {"b.pdf": b"new"})
    assert _tree(tmp_path / "s") == {"a.pdf": b"old", "b.pdf": b"new"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s"]


def test_a_failed_write_leaves_the_old_set_and_no_staging(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardgen import output
    from cardgen.errors import OutputError

    publish_folder(tmp_path, "s", {"a.pdf": b"a1", "b.pdf": b"b1"})
    calls = {"n": 0}
    real = output._write_synced

    def disk_full_on_second(path: Path, data: bytes) -> None:
        calls["n"] += 1
        if calls["n"] == 2:
            raise OSError(28, "No space left on device")
        real(path, data)

    monkeypatch.setattr(output, "_write_synced", disk_full_on_second)
    with pytest.raises(OutputError, match="No space left"):
        publish_folder(tmp_path, "s", {"a.pdf": b"a2", "b.pdf": b"b2"})
    assert _tree(tmp_path / "s") == {"a.pdf": b"a1", "b.pdf": b"b1"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s"]


# --- fault injection: SIGKILL at random points of real builds ---------------------------------------------

def _build_forever(sets: list[CardSet], rendered: dict[str, BuildOutput], out: Path, ready: Any) -> None:
    """Child process: build variant A, B, A, ... into `out` until killed. The parent rendered both once
    (render_set is swapped for that cache), so every kill lands somewhere in the build's write step."""
    import threading

    from tqdm import tqdm

    import cardgen.render.build as build_module

    # tqdm's default write lock is a process-shared semaphore inherited through fork: a child killed while
    # holding it would block every later tqdm in the parent for ever, so the child gets a lock of its own.
    tqdm.set_lock(threading.RLock())
    build_module.render_set = lambda cs, opts, progress=None, rules=None: rendered[cs.title]  # type: ignore[assignment]
    for i in range(100_000):
        build([sets[i % 2]], OPTS, out, show_progress=False)
        if i == 1:
            ready.set()


def _variant(tmp_path: Path, label: str) -> Path:
    folder = tmp_path / label
    shutil.copytree(MINI, folder)
    text = (folder / "set.yaml").read_text(encoding="utf-8")
    (folder / "set.yaml").write_text(text.replace("title: Mini Set", f"title: Mini Set {label}"), encoding="utf-8")
    return folder


def _digest(files: dict[str, bytes]) -> dict[str, str]:
    return {Path(k).name: hashlib.sha256(v).hexdigest() for k, v in files.items()}


@pytest.mark.skipif(sys.platform == "win32" or sys.platform == "darwin",
                    reason="SIGKILL and fork: Linux (fork is unsafe on macOS)")
def test_builds_killed_at_random_points_leave_every_set_whole(tmp_path: Path) -> None:
    folders = [_variant(tmp_path, "A"), _variant(tmp_path, "B")]
    sets = [load_set(f) for f in folders]
    rendered = {cs.title: render_set(cs, OPTS) for cs in sets}
    expected = [_digest(rendered[cs.title].files) for cs in sets]
    assert expected[0] != expected[1] and all(len(e) == 3 for e in expected)
    out = tmp_path / "out"
    (out / "mini" / "preview").mkdir(parents=True)
    (out / "mini" / "preview" / "keep.png").write_bytes(b"another command's file")
    rng = random.Random(13)
    seen: set[int] = set()
    ctx = multiprocessing.get_context("fork")  # the child shares this process's imports: no start-up cost
    for _ in range(12):
        ready = ctx.Event()
        child = ctx.Process(target=_build_forever, args=(sets, rendered, out, ready))
        child.start()
        assert ready.wait(60), "the child never built"
        time.sleep(rng.uniform(0.0, 0.05))  # a few builds' worth: anywhere in one
        assert child.pid is not None
        os.kill(child.pid, signal.SIGKILL)
        child.join()
        pdfs = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in (out / "mini").glob("*.pdf")}
        assert pdfs in expected, f"a mixed or partial set after a kill: {sorted(pdfs)}"
        seen.add(expected.index(pdfs))
        assert (out / "mini" / "preview" / "keep.png").read_bytes() == b"another command's file"
    assert seen == {0, 1}  # the kills caught both kinds of set, so the swaps did happen in between
    # the next build cleans whatever the kills left
    build([load_set(folders[0])], OPTS, out, show_progress=False)
    assert sorted(p.name for p in out.iterdir()) == ["mini"]
    assert not [p for p in (out / "mini").rglob("*") if p.name.startswith(".")]
    assert {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in (out / "mini").glob("*.pdf")} == expected[0]


def test_ctrl_c_while_publishing_leaves_the_old_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardgen import output

    publish_folder(tmp_path, "s", {"a.pdf": b"a1", "b.pdf": b"b1"})

    def interrupted(staging: Path, target: Path) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(output, "_swap_in", interrupted)
    with pytest.raises(KeyboardInterrupt):
        publish_folder(tmp_path, "s", {"a.pdf": b"a2", "b.pdf": b"b2"})
    assert _tree(tmp_path / "s") == {"a.pdf": b"a1", "b.pdf": b"b1"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s"]
