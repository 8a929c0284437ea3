"""Reading a user's file with a byte cap applied while reading, and only when it is a regular file; and the one
way a set's own files are found and read (`set_file`, `read_set_file`).

`path.read_bytes()` on `/dev/zero` fills memory before any size check can run, and opening a FIFO
blocks until someone writes to it. Here the file is opened without blocking, refused unless it is a
regular file, and read at most one byte past the limit, so a hostile path costs neither time nor memory.

A set folder is shared, so it is untrusted input: a link in it (`templates/leak.j2 -> ../../secret.txt`,
`lang -> ../elsewhere`) must not carry a file from outside onto the cards. Every file a set names or holds
(set.yaml and card files, templates, layout files, translations, fonts, icons, art, backs) is resolved with
its links followed and refused unless it lies inside the resolved set folder.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from cardgen.errors import CardgenError


class UnreadableFile(CardgenError):
    """A file that is not a regular file, cannot be opened, or is over its size limit (the message says which)."""

    def __init__(self, message: str, why: str = "") -> None:
        super().__init__(message)
        self.why = why or message  # the reason alone ('a symbolic link loop'), for callers' own sentences


class TooLarge(UnreadableFile):
    """A file over its size limit (found while reading: only one byte past the limit is read)."""


class NotRegularFile(UnreadableFile):
    """A folder, FIFO, device or socket where a file was expected: never opened for reading."""


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


def read_capped(path: Path, limit: int, what: str = "file", follow: bool = True) -> bytes:
    """The bytes of a regular file of at most `limit` bytes; UnreadableFile (saying why) otherwise.

    `follow=False` refuses a path whose last part is a link (a file resolved a moment ago and swapped since)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise UnreadableFile(f"{what} not found", "not found") from None
    except OSError as exc:
        why = "a symbolic link loop" if exc.errno == errno.ELOOP else (exc.strerror or str(exc))
        raise UnreadableFile(f"cannot read the {what}: {why}", why) from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):  # before fdopen, which refuses a folder's descriptor with "3: Is a directory"
        os.close(fd)
        raise NotRegularFile(f"the {what} is {_kind(mode)}", _kind(mode))
    with os.fdopen(fd, "rb") as fh:
        try:
            data = fh.read(limit + 1)
        except OSError as exc:
            raise UnreadableFile(f"cannot read the {what}: {exc.strerror or exc}", str(exc.strerror or exc)) from None
    if len(data) > limit:
        raise TooLarge(f"the {what} is over the limit of {limit:,} bytes", f"over the limit of {limit:,} bytes")
    return data


class OutsideSetFolder(UnreadableFile):
    """A file a set names or holds that resolves (through `..` or a link) to a place outside the set folder."""


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # a link loop: RuntimeError up to Python 3.12, OSError after
        raise UnreadableFile(f"'{path}' is a symbolic link loop", "a symbolic link loop") from None


def set_file(folder: Path, rel: str | os.PathLike[str]) -> Path:
    """The file `rel` (relative to the set folder `folder`, or absolute) names, every link followed; OutsideSetFolder
    unless it lies inside the resolved set folder. The path need not exist (reading it says so). A path relative
    to the current folder (`sets/mine/set.yaml`) must be made absolute first."""
    base, named = _resolved(folder), Path(os.path.abspath(folder))
    written = Path(os.path.normpath(named / rel))
    target = _resolved(written)
    if target.is_relative_to(base):
        return target
    if written.is_relative_to(named):
        raise OutsideSetFolder(f"'{written.relative_to(named)}' is a link to a place outside the set folder; a "
                               "set's files must lie inside it")
    raise OutsideSetFolder(f"'{rel}' is outside the set folder; a set's files must lie inside it")


def read_set_file(folder: Path, rel: str | os.PathLike[str], limit: int, what: str = "file") -> bytes:
    """The bytes of the set's file `rel`: inside the set folder (`set_file`), a regular file, at most `limit` bytes."""
    return read_capped(set_file(folder, rel), limit, what, follow=False)


def set_file_or_why(folder: Path, rel: str | os.PathLike[str], limit: int, noun: str,
                    shown: str | None = None) -> bytes | str:
    """The bytes of the set's file `rel` (`read_set_file`), or why it cannot be used, as a sentence that names it
    ("image 'art/x.png' not found"): for the checks, which report a file's problem beside the others instead of
    stopping at it. `shown`: the name the sentence gives the file (default `rel`)."""
    shown = str(rel) if shown is None else shown
    try:
        return read_set_file(folder, rel, limit, noun)
    except NotRegularFile as exc:
        return f"{noun} '{shown}' is {exc.why}"
    except OutsideSetFolder as exc:
        return str(exc)
    except UnreadableFile as exc:
        return f"{noun} '{shown}' not found" if exc.why == "not found" else f"{noun} '{shown}': {exc.why}"
