"""Bounds on the connections a table keeps open, and on what its log says about them.

uvicorn closes a kept-alive connection after a response, but waits for ever on a connection that sends
nothing, or half a request. Enough of those (a few hundred idle sockets from one careless or hostile
client) used up the process's file limit, after which the table could accept nobody and the event loop
logged a traceback per refused accept. Here:

- `TimedConnection` wraps uvicorn's HTTP protocol (h11) and closes a connection that says nothing for
  `IDLE_S` in either direction (a page's event stream writes a keep-alive line more often than that), and
  one whose request has been arriving for `ANSWER_S` with no byte answered (a half-sent request);
- at most `connection_cap()` connections are open at once, well under the file limit; one more is closed
  as soon as it is accepted;
- `BoundedLog` keeps the server's log to one line a message, without tracebacks, and says each repeated
  message at most once every `REPEAT_S`, with how many were left out.
"""

from __future__ import annotations

import asyncio
import logging
import resource
import time
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

IDLE_S = 30.0  # longer than the event stream's keep-alive line (server.KEEPALIVE_S)
ANSWER_S = 10.0  # a request must have arrived whole, and been answered, this long after its first byte
RESERVE_FILES = 64  # files kept for everything but connections (the sets, fonts, pictures, the log)
BACKLOG = 16  # connections the event loop accepts in one go (and the listen queue)
# Accepted connections reach the cap's check a few loop turns after their accept, while the loop may accept a
# batch each turn: the cap keeps room for this many batches in flight.
BATCHES_IN_FLIGHT = 4
REPEAT_S = 10.0


def connection_cap() -> int:
    """How many connections may be open at once: the file limit (raised to its hard maximum) less a reserve."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY:
        return 4096
    return max(8, min(4096, soft - RESERVE_FILES - BATCHES_IN_FLIGHT * BACKLOG))


class _Transport:
    """The transport handed to uvicorn's protocol: the real one, telling the connection of every write."""

    def __init__(self, transport: asyncio.Transport, wrote: Any) -> None:
        self._transport = transport
        self._wrote = wrote

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self._wrote()
        self._transport.write(data)

    def writelines(self, lines: Any) -> None:
        self._wrote()
        self._transport.writelines(lines)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class TimedConnection(asyncio.Protocol):
    """One HTTP connection: uvicorn's h11 protocol, closed when idle or half-sent, and only so many at once."""

    open_now = 0
    cap = 1024
    idle_s = IDLE_S
    answer_s = ANSWER_S

    def __init__(self, **kwargs: Any) -> None:
        self.inner = H11Protocol(**kwargs)
        self.transport: asyncio.Transport | None = None
        self.last = time.monotonic()
        self.asked_at: float | None = None  # the first byte received since the last byte sent
        self.timer: asyncio.TimerHandle | None = None
        self.counted = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        if TimedConnection.open_now >= TimedConnection.cap:
            refused_connection()
            transport.abort()
            return
        TimedConnection.open_now += 1
        self.counted = True
        self.inner.connection_made(_Transport(transport, self._wrote))  # type: ignore[arg-type]
        self._arm()

    def _arm(self) -> None:
        if self.timer is None:
            self.timer = asyncio.get_running_loop().call_later(min(self.idle_s, self.answer_s) / 2, self._check)

    def _check(self) -> None:
        self.timer = None
        if self.transport is None or self.transport.is_closing():
            return
        now = time.monotonic()
        if now - self.last >= self.idle_s or (self.asked_at is not None and now - self.asked_at >= self.answer_s):
            self.transport.abort()
            return
        self._arm()

    def _wrote(self) -> None:
        self.last = time.monotonic()
        self.asked_at = None

    def data_received(self, data: bytes) -> None:
        self.last = time.monotonic()
        if self.asked_at is None:
            self.asked_at = self.last
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        self.inner.eof_received()
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.counted:
            TimedConnection.open_now -= 1
            self.counted = False
            self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()


def refused_connection() -> None:
    logging.getLogger("uvicorn.error").warning("too many open connections: a new one was closed")


class BoundedLog(logging.Filter):
    """One line a record (no traceback), and a repeated message at most once every REPEAT_S seconds."""

    def __init__(self) -> None:
        super().__init__()
        self.said: dict[str, tuple[float, int]] = {}  # message -> (when last said, how many left out since)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage().splitlines()[0][:200] if record.getMessage() else ""
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            message = f"{message}: {type(exc).__name__}: {str(exc).splitlines()[0][:160] if str(exc) else ''}"
        record.exc_info = None
        record.exc_text = None
        record.stack_info = None
        now = time.monotonic()
        when, left_out = self.said.get(message, (-REPEAT_S, 0))
        if now - when < REPEAT_S:
            self.said[message] = (when, left_out + 1)
            return False
        if len(self.said) > 1000:
            self.said.clear()
        self.said[message] = (now, 0)
        record.msg = message + (f" ({left_out} more like it left out)" if left_out else "")
        record.args = None
        return True


def quiet_loop_errors(loop: asyncio.AbstractEventLoop) -> None:
    """The event loop's own errors (an accept refused by the file limit...) through the bounded log."""
    log = logging.getLogger("uvicorn.error")

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        said = str(context.get("message", "event loop error"))
        log.warning(f"{said}: {type(exc).__name__}: {exc}" if exc is not None else said)

    loop.set_exception_handler(handler)


def bound_logs() -> None:
    """Install the bounded log on the loggers a table's server writes to (once)."""
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "asyncio"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, BoundedLog) for f in logger.filters):
            logger.addFilter(BoundedLog())
