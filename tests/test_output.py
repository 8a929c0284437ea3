"""Atomic writes: complete file or the old one, readable permissions, clear errors."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cardgen.errors import OutputError
from cardgen.output import write_atomic


def test_write_atomic_replaces_whole_file_and_leaves_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "a.pdf"
    write_atomic(target, b"one")
    write_atomic(target, b"two two")
    assert target.read_bytes() == b"two two"
    assert sorted(p.name for p in target.parent.iterdir()) == ["a.pdf"]
    assert (target.stat().st_mode & 0o777) == 0o644


def test_unwritable_target_is_an_output_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(OutputError, match="cannot create output folder"):
        write_atomic(blocker / "inside" / "a.pdf", b"data")


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="needs /proc")
def test_target_in_a_pseudo_filesystem_is_an_output_error() -> None:
    with pytest.raises(OutputError):
        write_atomic(Path("/proc/cardgen-test.pdf"), b"data")
    assert not os.path.exists("/proc/cardgen-test.pdf")
