"""Ctrl-C (SIGINT to the whole process group, as a terminal sends it) ends any command with "aborted":
no traceback and no `Process SpawnPoolWorker` lines from the simulation's workers."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from children import as_from_a_terminal

from cardgen.cli.entry import ABORTED_EXIT_CODE

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").is_dir() or sys.platform == "win32",
                                reason="needs POSIX process groups and Linux /proc")

# The console script's own entry point (pyproject: cardgen = "cardgen.cli.entry:run"), run as the script runs it.
CARDGEN = [sys.executable, "-c", "import sys; from cardgen.cli.entry import run; sys.exit(run())"]


def _children(pid: int) -> list[int]:
    """Direct child processes (the pool's workers and multiprocessing's resource tracker)."""
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):  # a thread may end while we look
            out += [int(x) for x in (task / "children").read_text().split()]
    return out


# Worker processes: --jobs is capped at the CPU count (cardgen.sim.runner.usable_jobs), so ask for what runs.
JOBS = min(4, os.cpu_count() or 1)


def _interrupt_when(children: int, extra_wait: float) -> tuple[int | None, str]:
    proc = subprocess.Popen([*CARDGEN, "simulate", "--set", "lunch", "--games", "200000", "--jobs", str(JOBS)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=as_from_a_terminal)
    try:
        deadline = time.monotonic() + 60
        while len(_children(proc.pid)) < children and proc.poll() is None:
            assert time.monotonic() < deadline, "the workers never started"
            time.sleep(0.005)
        time.sleep(extra_wait)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return proc.returncode, err


@pytest.mark.skipif(JOBS < 2, reason="one CPU: --jobs is capped at 1, no worker processes to interrupt")
@pytest.mark.parametrize(("children", "extra_wait"), [(1, 0.0), (JOBS + 1, 0.0), (JOBS + 1, 0.8)],
                         ids=["workers-starting", "workers-started", "games-running"])
def test_ctrl_c_during_parallel_simulation_says_aborted_without_traceback(children: int, extra_wait: float) -> None:
    code, err = _interrupt_when(children, extra_wait)
    assert code == ABORTED_EXIT_CODE, err
    assert err.strip() == "aborted", err
    assert "Traceback" not in err and "SpawnPoolWorker" not in err and "KeyboardInterrupt" not in err


def test_the_console_script_uses_the_import_free_entry_point() -> None:
    pyproject = (Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8")
    assert 'cardgen = "cardgen.cli.entry:run"' in pyproject
