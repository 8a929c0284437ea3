"""Atomic output: write to a temporary file beside the target, then rename into place."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from cardgen.errors import OutputError


def ensure_dir(folder: Path) -> None:
    """Create `folder` (and parents) or fail with an OutputError that says why."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create output folder {folder}: {exc.strerror or exc}") from exc
    if not os.access(folder, os.W_OK):
        raise OutputError(f"output folder {folder} is not writable")


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` so that `path` is either the old file or the complete new one."""
    ensure_dir(path.parent)
    tmp = ""
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; outputs are ordinary shareable files
        os.replace(tmp, path)
    except OSError as exc:
        if tmp:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from exc


def file_or_folder(out: Path, suffix: str, in_folder: str) -> Path:
    """Where an --out that may name a file or a folder writes: `out` itself when it ends in `suffix` (and is not
    a folder), otherwise `out / in_folder`, as `build` would lay the folder out."""
    if out.suffix.lower() == suffix and not out.is_dir():
        return out
    return out / in_folder


def check_writable(out: Path) -> None:
    """Fail before rendering when `out` cannot be created or written, without creating anything."""
    probe = out.resolve()
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        raise OutputError(f"output folder {out} cannot be created: {probe} is not a folder")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise OutputError(f"output folder {out} is not writable ({probe} does not allow writing)")
