"""Reading a user's file with a byte cap applied while reading, and only when it is a regular file.

`path.read_bytes()` on `/dev/zero` fills memory before any size check can run, and opening a FIFO
blocks until someone writes to it. Here the file is opened without blocking, refused unless it is a
regular file, and read at most one byte past the limit, so a hostile path costs neither time nor memory.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from cardgen.errors import CardgenError


class UnreadableFile(CardgenError):
    """A file that is not a regular file, cannot be opened, or is over its size limit (the message says which)."""


def not_regular(path: Path) -> str | None:
    """Why `path` is not a readable regular file ('not found', 'a FIFO', ...), or None when it is one."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return "not found"
    except OSError as exc:
        return "a symbolic link loop" if exc.errno == errno.ELOOP else (exc.strerror or str(exc))
    if stat.S_ISREG(mode):
        return None
    return _kind(mode)


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder, not a file"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe), not a regular file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device, not a regular file"
    if stat.S_ISSOCK(mode):
        return "a socket, not a regular file"
    return "not a regular file"


def read_capped(path: Path, limit: int, what: str = "file") -> bytes:
    """The bytes of a regular file of at most `limit` bytes; UnreadableFile (saying why) otherwise."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise UnreadableFile(f"{what} not found") from None
    except OSError as exc:
        why = "a symbolic link loop" if exc.errno == errno.ELOOP else (exc.strerror or str(exc))
        raise UnreadableFile(f"cannot read the {what}: {why}") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):  # before fdopen, which refuses a folder's descriptor with "3: Is a directory"
        os.close(fd)
        raise UnreadableFile(f"the {what} is {_kind(mode)}")
    with os.fdopen(fd, "rb") as fh:
        try:
            data = fh.read(limit + 1)
        except OSError as exc:
            raise UnreadableFile(f"cannot read the {what}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise UnreadableFile(f"the {what} is over the limit of {limit:,} bytes")
    return data
