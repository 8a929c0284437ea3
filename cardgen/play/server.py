"""The web table: a Starlette app served by uvicorn, one page per seat, updates pushed as server-sent events.

Routes (TOKEN is a seat's token; anything else under /api/ answers 404 and reveals nothing):

- `GET /t/TOKEN` the page; `GET /static/...` its script and style;
- `GET /api/TOKEN/state` that seat's view as JSON; `GET /api/TOKEN/events` the same view, pushed again
  after every change (server-sent events: the browser reconnects by itself after a dropped connection);
- `POST /api/TOKEN/move` a move ({kind, card, target, choice, version}); the answer is the new view, or
  an error with the reason and the game unchanged;
- `GET /api/TOKEN/save` the game so far as a scenario file (docs/scenarios.md);
- `GET /card/D.png`, `/back.png`, `/rules`, `/rules.pdf`, `/rules-N.png`: card faces by design, the back and
  the rules page, which are public at a real table too.

Bots move from a task on the server's event loop, `pace` seconds apart, each thinking in a worker thread;
a decision of a person stops them until that person answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from cardgen.play.art import TableArt
from cardgen.play.page import STATIC, rules_page, table_page
from cardgen.play.save import SaveError
from cardgen.play.table import MoveRefused, Table
from cardgen.play.wording import say

MAX_BODY = 4096  # bytes a move may take; more is refused unread
KEEPALIVE_S = 15.0


class TableServer:
    """The table, the pictures, the bots' task and the pages listening for changes."""

    def __init__(self, table: Table, art: TableArt, pace: float = 0.8) -> None:
        self.table = table
        self.art = art
        self.pace = pace
        self._listeners: set[asyncio.Event] = set()
        self._wake = asyncio.Event()
        self._bots: asyncio.Task[None] | None = None
        self.app = Starlette(routes=[
            Route("/t/{token}", self.page),
            Route("/api/{token}/state", self.state),
            Route("/api/{token}/events", self.events),
            Route("/api/{token}/move", self.move, methods=["POST"]),
            Route("/api/{token}/save", self.save),
            Route("/card/{d:int}.png", self.card),
            Route("/back.png", self.back),
            Route("/rules", self.rules),
            Route("/rules.pdf", self.rules_pdf),
            Route("/rules-{i:int}.png", self.rules_png),
            Mount("/static", app=StaticFiles(directory=str(STATIC))),
        ], lifespan=self._lifespan)

    @contextlib.asynccontextmanager
    async def _lifespan(self, app: Starlette) -> AsyncIterator[None]:
        self._wake = asyncio.Event()
        self._bots = asyncio.create_task(self._bot_loop())
        try:
            yield
        finally:
            self._bots.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._bots

    # --- changes ----------------------------------------------------------------------------------------

    def changed(self) -> None:
        for ev in self._listeners:
            ev.set()
        self._wake.set()

    async def _bot_loop(self) -> None:
        t = self.table
        while True:
            seat = t.bot_to_act()
            if seat is None:
                self._wake.clear()
                await self._wake.wait()
                continue
            if self.pace > 0:
                await asyncio.sleep(self.pace)
            version = t.version
            try:
                move = await asyncio.to_thread(t.bot_choose, seat)
                if t.version == version:
                    t.bot_play(seat, move)
            except Exception as exc:  # a bug here must not stop the bots for the rest of the game
                t.notes.append((t.version, say(t.lang, "note.table_failed", who=t.seats[seat].name,
                                               error=f"{type(exc).__name__}: {str(exc)[:80]}")))
                await asyncio.sleep(1.0)
            self.changed()

    # --- routes -----------------------------------------------------------------------------------------

    def _seat(self, request: Request) -> int:
        seat = self.table.seat_of(str(request.path_params["token"]))
        if seat is None:
            raise _NotFound
        return seat

    async def page(self, request: Request) -> Response:
        try:
            self._seat(request)
        except _NotFound:
            return _not_found()
        return HTMLResponse(table_page(self.table.lang), headers=_NO_STORE)

    async def state(self, request: Request) -> Response:
        try:
            seat = self._seat(request)
        except _NotFound:
            return _not_found()
        return JSONResponse(self.table.view(seat), headers=_NO_STORE)

    async def events(self, request: Request) -> Response:
        try:
            seat = self._seat(request)
        except _NotFound:
            return _not_found()
        ev = asyncio.Event()
        ev.set()
        self._listeners.add(ev)

        async def stream() -> AsyncIterator[str]:
            sent = -1
            try:
                while True:
                    if sent != self.table.version:
                        sent = self.table.version
                        yield f"data: {json.dumps(self.table.view(seat), ensure_ascii=False)}\n\n"
                    ev.clear()
                    try:
                        await asyncio.wait_for(ev.wait(), KEEPALIVE_S)
                    except TimeoutError:
                        yield ": keep-alive\n\n"
            finally:
                self._listeners.discard(ev)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={**_NO_STORE, "X-Accel-Buffering": "no"})

    async def move(self, request: Request) -> Response:
        try:
            seat = self._seat(request)
        except _NotFound:
            return _not_found()
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                return _refused(MoveRefused("a move is a small JSON object", 413), self.table, seat)
        try:
            payload: Any = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            return _refused(MoveRefused("a move is a JSON object", 400), self.table, seat)
        try:
            self.table.play(seat, payload)
        except MoveRefused as exc:
            return _refused(exc, self.table, seat)
        self.changed()
        return JSONResponse(self.table.view(seat), headers=_NO_STORE)

    async def save(self, request: Request) -> Response:
        try:
            seat = self._seat(request)
        except _NotFound:
            return _not_found()
        try:
            text = await asyncio.to_thread(self.table.save, seat)
        except MoveRefused as exc:
            return JSONResponse({"error": str(exc)}, status_code=exc.status)
        except SaveError as exc:
            return JSONResponse({"error": str(exc)}, status_code=500)
        name = self.table.save_name()
        return Response(text, media_type="application/x-yaml",
                        headers={"Content-Disposition": f'attachment; filename="{name}"', **_NO_STORE})

    async def card(self, request: Request) -> Response:
        png = await asyncio.to_thread(self.art.face, int(request.path_params["d"]))
        return _png(png)

    async def back(self, request: Request) -> Response:
        return _png(await asyncio.to_thread(self.art.back))

    async def rules(self, request: Request) -> Response:
        pages = await asyncio.to_thread(lambda: self.art.rules_pages)
        return HTMLResponse(rules_page(self.table.lang, pages))

    async def rules_pdf(self, request: Request) -> Response:
        pdf = await asyncio.to_thread(self.art.rules_pdf)
        return Response(pdf, media_type="application/pdf")

    async def rules_png(self, request: Request) -> Response:
        return _png(await asyncio.to_thread(self.art.rules_page, int(request.path_params["i"])))


class _NotFound(Exception):
    pass


_NO_STORE = {"Cache-Control": "no-store"}


def _not_found() -> Response:
    return JSONResponse({"error": "no such seat"}, status_code=404)


def _refused(exc: MoveRefused, table: Table, seat: int) -> Response:
    return JSONResponse({"error": str(exc), "view": table.view(seat)}, status_code=exc.status, headers=_NO_STORE)


def _png(data: bytes | None) -> Response:
    if data is None:
        return JSONResponse({"error": "no such picture"}, status_code=404)
    return Response(data, media_type="image/png", headers={"Cache-Control": "max-age=3600"})


def bind(host: str, port: int, tries: int = 20) -> socket.socket:
    """A listening socket on `host`, at `port` or the next free one (0: any free port)."""
    last: OSError | None = None
    for p in ([0] if port == 0 else range(port, port + tries)):
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, p))
        except OSError as exc:
            sock.close()
            last = exc
            continue
        sock.listen(64)
        sock.set_inheritable(True)
        return sock
    raise OSError(f"no free port from {port} on {host}: {last}")


def make_server(server: TableServer, sock: socket.socket) -> uvicorn.Server:
    """A uvicorn server for the app on an already bound socket (quiet: the command prints the links)."""
    config = uvicorn.Config(server.app, log_level="warning", lifespan="on", access_log=False,
                            timeout_graceful_shutdown=1)
    srv = uvicorn.Server(config)
    return srv


def serve(server: TableServer, sock: socket.socket) -> None:
    """Serve until interrupted."""
    make_server(server, sock).run(sockets=[sock])


@contextlib.contextmanager
def serving_in_thread(server: TableServer, host: str = "127.0.0.1") -> Iterator[str]:
    """Serve on a free port from a background thread while the block runs (tests and benchmarks); yields the
    base address."""
    sock = bind(host, 0)
    srv = make_server(server, sock)
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, name="cardgen-play-server", daemon=True)
    thread.start()
    try:
        while not srv.started:
            if not thread.is_alive():
                raise RuntimeError("the table server did not start")
            time.sleep(0.01)
        yield f"http://{host}:{sock.getsockname()[1]}"
    finally:
        srv.should_exit = True
        thread.join(10)
        sock.close()
