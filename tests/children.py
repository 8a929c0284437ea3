"""Child processes a test signals and reads: their signal handlers set by the test, their output read with timeouts.

A test run from a background job (`(trap '' INT; pytest) &`, as some CI runners start it) hands its children
SIGINT ignored, and Python then installs no KeyboardInterrupt handler: a Ctrl-C the test sends would be lost and
the test would wait for ever. `as_from_a_terminal` gives the child the dispositions a terminal gives, and
`Lines` reads a pipe on a thread so every wait for a line has a deadline.
"""

from __future__ import annotations

import queue
import signal
import threading
import time
from typing import IO


def as_from_a_terminal() -> None:
    """`preexec_fn` of a child the test interrupts: SIGINT and SIGTERM at their defaults, whatever we inherited."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class Lines:
    """The lines of a child's text pipe, read on a daemon thread; `next` and `rest` wait at most their timeout."""

    def __init__(self, pipe: IO[str]) -> None:
        self._queue: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        self._thread = threading.Thread(target=self._pump, args=(pipe,), daemon=True)
        self._thread.start()

    def _pump(self, pipe: IO[str]) -> None:
        for line in pipe:
            self._queue.put(line)
        self._queue.put(None)

    def next(self, timeout: float) -> str | None:
        """The next line, or None at the end of the output; AssertionError after `timeout` seconds of silence."""
        try:
            line = self._queue.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no line within {timeout:g} s; seen so far: {self.seen}") from None
        if line is not None:
            self.seen.append(line)
        return line

    def wait_for(self, word: str, count: int = 1, timeout: float = 60.0) -> None:
        """Read until `count` lines seen so far hold `word`, within `timeout` seconds in all."""
        deadline = time.monotonic() + timeout
        while sum(word in s for s in self.seen) < count:
            left = deadline - time.monotonic()
            assert left > 0, f"{word!r} not seen {count} times within {timeout:g} s: {self.seen}"
            assert self.next(left) is not None, f"the output ended before {word!r}: {self.seen}"

    def rest(self, timeout: float) -> str:
        """Everything still to come, up to the end of the output, within `timeout` seconds."""
        start = len(self.seen)
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"the output did not end within {timeout:g} s: {self.seen[start:]}"
            if self.next(left) is None:
                return "".join(self.seen[start:])
