"""Atomic output: a file is written to a temporary beside it and renamed into place; a set's folder of files is
staged beside it and swapped in whole (`publish_folder`)."""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import re
import shutil
import stat
import sys
import tempfile
from pathlib import Path

from cardgen.errors import OutputError


def ensure_dir(folder: Path) -> None:
    """Create `folder` (and parents) or fail with an OutputError that says why."""
    resolved(folder)  # a link loop would otherwise be "File exists"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create output folder {folder}: {exc.strerror or exc}") from exc
    if not os.access(folder, os.W_OK):
        raise OutputError(f"output folder {folder} is not writable")


def not_a_file_to_replace(path: Path) -> str | None:
    """Why `path` must not be replaced by an output file (None when it is absent, a regular file or a link).

    The rename of an atomic write replaces whatever is there: run as root, `--json /dev/null` would put a
    file where the device was, and a folder of the user's named like an output would be swapped away.
    """
    try:
        mode = path.lstat().st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode) or stat.S_ISLNK(mode):
        return None
    if stat.S_ISDIR(mode):
        return "it is a folder, not a file"
    if stat.S_ISFIFO(mode):
        return "it is a FIFO (named pipe), not a file"
    return "it is a device, not a file" + ("; use '-' for standard output" if str(path).startswith("/dev/") else "")


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` so that `path` is either the old file or the complete new one."""
    if (why := not_a_file_to_replace(path)) is not None:
        raise OutputError(f"cannot write {path}: {why}")
    ensure_dir(path.parent)
    tmp = ""
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}-", suffix=".tmp", dir=path.parent)
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


def resolved(path: Path) -> Path:
    """`path.resolve()`, with a symbolic link loop (a RuntimeError before Python 3.13) an OutputError."""
    try:
        return path.resolve()
    except (RuntimeError, OSError) as exc:
        raise OutputError(f"cannot write to {path}: it is a symbolic link loop") from exc


def check_writable(out: Path) -> None:
    """Fail before rendering when `out` cannot be created or written, without creating anything."""
    probe = resolved(out)
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        raise OutputError(f"output folder {out} cannot be created: {probe} is not a folder")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise OutputError(f"output folder {out} is not writable ({probe} does not allow writing)")


# --- whole output sets -------------------------------------------------------------------------------------
#
# A set's files (cards, rules and print PDFs; previews; exports) live in one folder, `<out>/<set>/`. They are
# written into a staging folder beside it, which then takes the set folder's place in one rename, so a reader
# (or a build killed at any moment) sees the old set or the new one, never a mix. Files of the set folder that
# this write does not replace (another command's previews, say) are carried over as hard links.

_STAGING = "staging"
_RETIRED = "retired"
_TEMP_NAME = re.compile(r"\.(?P<stem>.+)\.(?P<kind>staging|retired)-(?P<pid>\d+)-[^/]*")
_TEMP_FILE = re.compile(r"\..+\.(?:(?P<pid>\d+)-)?[^.]*\.tmp")


def publish_folder(out: Path, name: str, files: dict[str, bytes]) -> list[Path]:
    """Write `files` (paths relative to `out/name`) so that they all appear in `out/name` at once.

    Stale temporaries of earlier, killed writes are cleaned first. Returns the paths written.
    """
    ensure_dir(out)
    target = out / name
    if target.is_symlink():  # the set folder lives elsewhere: stage beside the real one
        real = resolved(target)
        return publish_folder(real.parent, real.name, files)
    clean_stale(out, name)
    if target.exists() and not target.is_dir():
        raise OutputError(f"cannot write {target}: it is a file, not a folder")
    for rel in files:  # a folder (or device) where an output file goes would be dropped by the swap: refuse
        if (why := not_a_file_to_replace(target / rel)) is not None:
            raise OutputError(f"cannot write {target / rel}: {why}; move it away or choose another --out")
    try:
        staging = Path(tempfile.mkdtemp(prefix=f".{name}.{_STAGING}-{os.getpid()}-", dir=out))
    except OSError as exc:
        raise OutputError(f"cannot write into {out}: {exc.strerror or exc}") from exc
    try:
        if target.is_dir():
            _carry_over(target, staging, {Path(rel) for rel in files})
        for rel, data in files.items():
            _write_synced(staging / rel, data)
        os.chmod(staging, 0o755)  # mkdtemp makes 0700; an output folder is an ordinary, shareable one
        _sync_dir(staging)
        _swap_in(staging, target)
        _sync_dir(out)
    except BaseException as exc:  # a full disk, or Ctrl-C: the staging folder goes, the set stays as it was
        shutil.rmtree(staging, ignore_errors=True)
        if isinstance(exc, OSError):
            raise OutputError(f"cannot write {target}: {exc.strerror or exc}") from exc
        raise
    return [target / rel for rel in files]


def publish_files(out: Path, files: dict[str, bytes]) -> list[Path]:
    """`files` relative to `out` as `<set>/...`: each set folder's files published together."""
    by_folder: dict[str, dict[str, bytes]] = {}
    for rel, data in files.items():
        folder, _, inner = rel.partition("/")
        if not inner:
            raise ValueError(f"{rel}: output files belong in a set's folder")
        by_folder.setdefault(folder, {})[inner] = data
    return [p for name, inner in by_folder.items() for p in publish_folder(out, name, inner)]


def clean_stale(out: Path, name: str) -> list[Path]:
    """Remove what killed writes left behind: staging folders and temporary files of processes that are gone.

    A retired set folder (a write killed between the two renames of a swap without an atomic exchange) is
    put back when the set folder is missing. Returns what was removed or restored.
    """
    done: list[Path] = []
    for entry in _entries(out):
        m = _TEMP_NAME.fullmatch(entry.name)
        if m is None or m["stem"] != name or _alive(int(m["pid"])):
            continue
        target = out / name
        if m["kind"] == _RETIRED and not target.exists():
            with contextlib.suppress(OSError):
                os.rename(entry, target)
                done.append(entry)
                continue
        shutil.rmtree(entry, ignore_errors=True)
        done.append(entry)
    for folder in (out, out / name):
        for entry in _entries(folder):
            m = _TEMP_FILE.fullmatch(entry.name)
            if m is not None and entry.is_file() and not (m["pid"] and _alive(int(m["pid"]))):
                with contextlib.suppress(OSError):
                    entry.unlink()
                    done.append(entry)
    return done


def _entries(folder: Path) -> list[Path]:
    try:
        return sorted(folder.iterdir())
    except OSError:
        return []


def _alive(pid: int) -> bool:
    """Whether process `pid` still runs (so its temporaries are in use); on Windows always assumed."""
    if pid == os.getpid():
        return False  # this process writes one set at a time: anything of ours found now is left over
    if os.name == "nt":
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, owned by someone else
    return True


def _carry_over(src: Path, dst: Path, replaced: set[Path]) -> None:
    """Hard-link (or copy) every file of `src` into `dst` except those about to be replaced and stale temps."""
    for root, dirs, names in os.walk(src):
        rel_root = Path(root).relative_to(src)
        dirs[:] = [d for d in dirs if (rel_root / d) not in replaced]
        (dst / rel_root).mkdir(parents=True, exist_ok=True)
        for fname in names:
            rel = rel_root / fname
            if rel in replaced or _TEMP_FILE.fullmatch(fname):
                continue
            try:
                os.link(src / rel, dst / rel, follow_symlinks=False)
            except OSError:
                shutil.copy2(src / rel, dst / rel, follow_symlinks=False)


def _write_synced(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.chmod(path, 0o644)


def _sync_dir(folder: Path) -> None:
    if os.name == "nt":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _swap_in(staging: Path, target: Path) -> None:
    """Put `staging` where `target` is: one atomic exchange where the system has it, else two renames."""
    if not target.exists():
        os.rename(staging, target)
        return
    if _exchange(staging, target):
        shutil.rmtree(staging, ignore_errors=True)  # it now holds the old set
        return
    retired = staging.with_name(staging.name.replace(f".{_STAGING}-", f".{_RETIRED}-", 1))
    os.rename(target, retired)
    os.rename(staging, target)
    shutil.rmtree(retired, ignore_errors=True)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically with Linux's renameat2(RENAME_EXCHANGE); False where that is not available."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(b))
