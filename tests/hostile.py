"""Helpers of the hostile-input tests: run the real command bounded in time and memory (and measure both), make sets."""

from __future__ import annotations

import logging
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from pypdf import PdfReader

MEMORY_LIMIT = 2_000_000_000  # address space of one command; a runaway read or decode fails instead of swapping
TIME_LIMIT = 120.0

EXTENDING_SET = "name: {name}\ntitle: {title}\nextends: lunch\n"


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str
    seconds: float  # wall time
    cpu: float  # the command's processor time (user + system): what "refused at once" is judged by, as it does not
    # grow while the command waits for a core on a busy machine


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return float(used.ru_utime + used.ru_stime)


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def cardgen(*args: str, cwd: Path, timeout: float = TIME_LIMIT) -> Run:
    """The command through its real entry point, in a child limited to MEMORY_LIMIT and `timeout` seconds."""
    t0, cpu0 = time.perf_counter(), _children_cpu()
    res = subprocess.run([sys.executable, "-m", "cardgen.cli.main", *args], cwd=cwd, capture_output=True,
                         text=True, timeout=timeout, preexec_fn=_limit_memory)
    return Run(res.returncode, res.stdout, res.stderr, time.perf_counter() - t0, _children_cpu() - cpu0)


# Runs the command and writes its own peak resident memory (KiB, from wait4) to the file named first. A child's
# peak counts the memory of the process it was forked from until it calls exec, so the command is started from
# this small process rather than from the test's, whose own few hundred MB would otherwise be counted too.
_PEAK_OF_CHILD = """\
import os, resource, subprocess, sys
peak_file, limit = sys.argv[1], int(sys.argv[2])
child = subprocess.Popen([sys.executable, "-m", "cardgen.cli.main", *sys.argv[3:]],
                         preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit)))
_pid, status, usage = os.wait4(child.pid, 0)
with open(peak_file, "w", encoding="utf-8") as out:
    out.write(str(usage.ru_maxrss))
code = os.waitstatus_to_exitcode(status)
sys.exit(code if code >= 0 else 128 - code)
"""


def measured(*args: str, cwd: Path, timeout: float = TIME_LIMIT) -> tuple[Run, float]:
    """`cardgen(...)`, also giving the command's own peak resident memory in MB (its own alone: `_PEAK_OF_CHILD`)."""
    t0, cpu0 = time.perf_counter(), _children_cpu()
    with tempfile.TemporaryDirectory() as scratch:
        peak_file = Path(scratch) / "peak"
        proc = subprocess.Popen([sys.executable, "-c", _PEAK_OF_CHILD, str(peak_file), str(MEMORY_LIMIT), *args],
                                cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # the command too: it runs in the small process's group
            proc.communicate()
            raise
        peak = int(peak_file.read_text(encoding="utf-8"))  # always written once the command has ended
    return Run(proc.returncode, out, err, time.perf_counter() - t0, _children_cpu() - cpu0), peak / 1024


def clean_failure(run: Run) -> bool:
    """Exit code 1, no traceback, every stderr line an `error:`/`warning:` line or a count of them."""
    return run.code == 1 and "Traceback" not in run.err + run.out and "Error:" not in run.err


def extending_set(folder: Path, name: str = "hb", cards: str = "", extra: str = "") -> Path:
    """A set folder that extends lunch, with `cards` (YAML list items) and `extra` set.yaml lines."""
    folder.mkdir(parents=True, exist_ok=True)
    text = EXTENDING_SET.format(name=name, title=name.title()) + extra
    if cards:
        text += "cards:\n" + cards
    (folder / "set.yaml").write_text(text, encoding="utf-8")
    return folder


def inline_images(pdf: Path) -> set[tuple[int, int]]:
    """(width, height) of every image in the PDF, inline (`BI /W w /H h`) or as an image XObject."""
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    reader = PdfReader(pdf)
    found: set[tuple[int, int]] = set()
    for number in range(1, int(reader.trailer["/Size"])):
        try:
            obj = reader.get_object(number)
            data = obj.get_data() if hasattr(obj, "get_data") else b""
        except Exception:  # a free object number
            continue
        if hasattr(obj, "get") and obj.get("/Subtype") == "/Image":
            found.add((int(obj["/Width"]), int(obj["/Height"])))
        for m in re.finditer(rb"BI\s*/W\s*(\d+)\s*/H\s*(\d+)", data):
            found.add((int(m.group(1)), int(m.group(2))))
    return found


def png_header(width: int, height: int) -> bytes:
    """A PNG whose header declares `width` x `height` (no pixel data): what a decompression bomb shows first."""
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")
