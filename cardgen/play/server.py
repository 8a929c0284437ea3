"""The web table: a Starlette app served by uvicorn, one page per seat, updates pushed as server-sent events.

Routes (TOKEN is a seat's token; anything else under /api/ answers 404 and reveals nothing):

- `GET /t/TOKEN` the page; `GET /static/...` its script and style;
- `GET /api/TOKEN/state` that seat's view as JSON; `GET /api/TOKEN/events` the same view, pushed again
  after every change (server-sent events: the browser reconnects by itself after a dropped connection);
- `POST /api/TOKEN/move` a move, as JSON only ({kind, card, target, choice, version}); the answer is the
  new view, or an error with the reason and the game unchanged;
- `GET /api/TOKEN/save` the game so far as a scenario file (docs/scenarios.md);
- `POST /api/TOKEN/next` the host's rematch or new deal; `GET /lobby/TOKEN` the host's lobby page, and
  `GET|POST /api/TOKEN/lobby` its choices and the start of the next table (`lobby`);
- `GET /card/D.png`, `/back.png`, `/rules`, `/rules.pdf`, `/rules-N.png`: card faces by design, the back and
  the rules page, which are public at a real table too (`/favicon.ico` is the back).

Every request passes `guard.Guard` first (the table's own address, from its own pages). Every refusal is a
`MoveRefused` raised by the route and said as JSON by one handler; anything unforeseen is a 500 with a
message and one log line (`Shield`). Connections are bounded and timed out (`connections`).

Bots move from a task on the server's event loop, `pace` seconds apart, each thinking in a daemon thread;
a decision of a person stops them until that person answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any, Protocol

import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from cardgen.engine.moves import Move
from cardgen.errors import CardgenError
from cardgen.play.art import TableArt
from cardgen.play.connections import BACKLOG, TimedConnection, bound_logs, connection_cap, quiet_loop_errors
from cardgen.play.guard import ASGIApp, Guard, Message, Receive, Scope, Send
from cardgen.play.lobby import Choice, lobby_data, next_table, parse_choice, set_titles
from cardgen.play.lobby import links as lobby_links
from cardgen.play.page import STATIC, lobby_page, rules_page, table_page
from cardgen.play.save import SaveError
from cardgen.play.table import MoveRefused, Table
from cardgen.play.wording import say

MAX_BODY = 4096  # bytes a move may take; more is refused unread
KEEPALIVE_S = 15.0
MAX_INDEX_DIGITS = 6  # a picture's number in a path: more digits name no card (and are not read as a number)
log = logging.getLogger("uvicorn.error")


class Served(Protocol):
    """What `make_server` serves: an ASGI app (a table's, or the replay viewer's)."""

    app: ASGIApp


class NoSeat(MoveRefused):
    """A token that opens no seat (404, and no hint of what exists)."""

    def __init__(self) -> None:
        super().__init__("no such seat", 404)


class TableServer:
    """The table, the pictures, the bots' task and the pages listening for changes."""

    def __init__(self, table: Table, art: TableArt, pace: float = 0.8,
                 art_for: Callable[[Table], TableArt] | None = None) -> None:
        self.table = table
        self.art = art
        self.pace = pace
        self.art_for = art_for or rendered_art
        self._titles: list[str] | None = None
        self._starting = False
        self._listeners: set[asyncio.Event] = set()
        self._wake = asyncio.Event()
        self._bots: asyncio.Task[None] | None = None
        routes = Starlette(routes=[
            Route("/t/{token}", self.page),
            Route("/api/{token}/state", self.state),
            Route("/api/{token}/events", self.events),
            Route("/api/{token}/move", self.move, methods=["POST"]),
            Route("/api/{token}/save", self.save),
            Route("/api/{token}/next", self.next_game, methods=["POST"]),
            Route("/lobby/{token}", self.lobby_page),
            Route("/api/{token}/lobby", self.lobby, methods=["GET", "POST"]),
            Route("/card/{d}.png", self.card),
            Route("/back.png", self.back),
            Route("/favicon.ico", self.back),
            Route("/rules", self.rules),
            Route("/rules.pdf", self.rules_pdf),
            Route("/rules-{i}.png", self.rules_png),
            Mount("/static", app=StaticFiles(directory=str(STATIC))),
        ], lifespan=self._lifespan, exception_handlers={
            MoveRefused: self._refused, HTTPException: http_error, Exception: failed})
        self.app: ASGIApp = Guard(Shield(routes))

    @contextlib.asynccontextmanager
    async def _lifespan(self, app: Starlette) -> AsyncIterator[None]:
        quiet_loop_errors(asyncio.get_running_loop())
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
        while True:
            t = self.table  # the lobby may have started another
            seat = t.bot_to_act()
            if seat is None:
                self._wake.clear()
                await self._wake.wait()
                continue
            if self.pace > 0:
                await asyncio.sleep(self.pace)
            stamp = t.stamp
            try:
                move = await in_daemon_thread(t.bot_choose, seat)
                if t.stamp == stamp:
                    t.bot_play(seat, move)
            except Exception as exc:  # a bug here must not stop the bots for the rest of the game
                t.notes.append((t.version, say(t.lang, "note.table_failed", who=t.seats[seat].name,
                                               error=f"{type(exc).__name__}: {str(exc)[:80]}")))
                await asyncio.sleep(1.0)
            self.changed()

    # --- routes -----------------------------------------------------------------------------------------

    async def _refused(self, request: Request, exc: Exception) -> Response:
        """Every refusal of every route: its reason as JSON (and the seat's table as it is, for a move)."""
        assert isinstance(exc, MoveRefused)
        body: dict[str, object] = {"error": str(exc)}
        if isinstance(exc, Refusal):
            body["view"] = self.table.view(exc.seat)
        return JSONResponse(body, status_code=exc.status, headers=NO_STORE)

    def _seat(self, request: Request) -> int:
        seat = self.table.seat_of(str(request.path_params["token"]))
        if seat is None:
            raise NoSeat
        return seat

    async def page(self, request: Request) -> Response:
        self._seat(request)
        return HTMLResponse(table_page(self.table.lang), headers=NO_STORE)

    async def state(self, request: Request) -> Response:
        return JSONResponse(self.table.view(self._seat(request)), headers=NO_STORE)

    async def events(self, request: Request) -> Response:
        self._seat(request)
        token = str(request.path_params["token"])
        ev = asyncio.Event()
        ev.set()
        self._listeners.add(ev)

        async def stream() -> AsyncIterator[str]:
            sent = (0, 0, -1)
            try:
                while True:
                    t = self.table
                    if sent != (t.number, *t.stamp):
                        seat = t.seat_of(token)  # a table the lobby started seats a friend where it can
                        if seat is None:
                            return  # the new table has no seat for this link
                        sent = (t.number, *t.stamp)
                        yield f"data: {json.dumps(t.view(seat), ensure_ascii=False)}\n\n"
                    ev.clear()
                    try:
                        await asyncio.wait_for(ev.wait(), KEEPALIVE_S)
                    except TimeoutError:
                        yield ": keep-alive\n\n"
            finally:
                self._listeners.discard(ev)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={**NO_STORE, "X-Accel-Buffering": "no"})

    async def _json(self, request: Request, seat: int) -> Any:
        """The request's body as JSON: sent as JSON, small, and well formed (else Refusal)."""
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise Refusal(say(self.table.lang, "refused.not_json"), 415, seat)
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                raise Refusal(say(self.table.lang, "refused.too_big"), 413, seat)
        try:
            return json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise Refusal(say(self.table.lang, "refused.not_json"), 400, seat) from None

    async def next_game(self, request: Request) -> Response:
        """The host starts the next game from the end screen: {"what": "rematch" | "deal", "version": N}."""
        seat = self._seat(request)
        payload = await self._json(request, seat)
        try:
            self.table.next_game(seat, payload)
        except MoveRefused as exc:
            raise Refusal(str(exc), exc.status, seat) from None
        self.changed()
        return JSONResponse(self.table.view(seat), headers=NO_STORE)

    def _host(self, request: Request) -> int:
        seat = self._seat(request)
        if seat != 0:
            raise MoveRefused(say(self.table.lang, "refused.next_host"), 403)
        return seat

    async def lobby_page(self, request: Request) -> Response:
        self._host(request)
        return HTMLResponse(lobby_page(self.table.lang), headers=NO_STORE)

    async def lobby(self, request: Request) -> Response:
        """The lobby's choices (GET), or the next table started as chosen (POST: {sets, seats, lang})."""
        seat = self._host(request)
        base = f"http://{request.headers.get('host', '')}"
        if self._titles is None:
            self._titles = await asyncio.to_thread(set_titles, self.table.sets)
        if request.method == "GET":
            return JSONResponse(lobby_data(self.table, self._titles, base), headers=NO_STORE)
        old = self.table
        choice = parse_choice(await self._json(request, seat), old)
        if not old.over:
            raise MoveRefused(say(old.lang, "refused.next_early"), 409)
        if self._starting:
            raise MoveRefused(say(old.lang, "refused.stale"), 409)
        self._starting = True
        try:
            new, art = await asyncio.to_thread(self._next_table, old, choice)
        finally:
            self._starting = False
        if self.table is not old:
            raise MoveRefused(say(old.lang, "refused.stale"), 409)
        self.table, self.art = new, art
        self.changed()
        return JSONResponse({"table": f"{base}/t/{new.host.token}", "links": lobby_links(old, new, base)},
                            headers=NO_STORE)

    def _next_table(self, old: Table, choice: Choice) -> tuple[Table, TableArt]:
        """The next table and its pictures (what `build` refuses is refused here, with its message)."""
        try:
            new = next_table(old, choice)
            return new, self.art_for(new)
        except CardgenError as exc:
            raise MoveRefused(str(exc), 400) from None

    async def move(self, request: Request) -> Response:
        seat = self._seat(request)
        payload = await self._json(request, seat)
        try:
            self.table.play(seat, payload)
        except MoveRefused as exc:
            raise Refusal(str(exc), exc.status, seat) from None
        self.changed()
        return JSONResponse(self.table.view(seat), headers=NO_STORE)

    async def save(self, request: Request) -> Response:
        seat = self._seat(request)
        job = self.table.save_job(seat)  # a copy of the game now: moves made meanwhile do not touch it
        try:
            text = await asyncio.to_thread(job)
        except SaveError as exc:
            raise MoveRefused(str(exc), 500) from None
        name = self.table.save_name()
        return Response(text, media_type="application/x-yaml",
                        headers={"Content-Disposition": f'attachment; filename="{name}"', **NO_STORE})

    async def card(self, request: Request) -> Response:
        """A card face; `?size=large`: at print resolution (the zoom and the card in flight)."""
        d = picture_index(request.path_params["d"])
        face = self.art.face_large if request.query_params.get("size") == "large" else self.art.face
        return png_response(None if d is None else await asyncio.to_thread(face, d))

    async def back(self, request: Request) -> Response:
        return png_response(await asyncio.to_thread(self.art.back))

    async def rules(self, request: Request) -> Response:
        pages = await asyncio.to_thread(lambda: self.art.rules_pages)
        return HTMLResponse(rules_page(self.table.lang, pages))

    async def rules_pdf(self, request: Request) -> Response:
        pdf = await asyncio.to_thread(self.art.rules_pdf)
        return Response(pdf, media_type="application/pdf")

    async def rules_png(self, request: Request) -> Response:
        i = picture_index(request.path_params["i"])
        return png_response(None if i is None else await asyncio.to_thread(self.art.rules_page, i))


class Refusal(MoveRefused):
    """A refused move: its reason, and the seat whose page gets the table as it is with it."""

    def __init__(self, message: str, status: int, seat: int) -> None:
        super().__init__(message, status)
        self.seat = seat


NO_STORE = {"Cache-Control": "no-store"}


def rendered_art(table: Table) -> TableArt:
    """A table's pictures, rendered now (a set `build` refuses raises its CardgenError)."""
    art = TableArt(table.cs)
    art.render()
    return art


def picture_index(text: str) -> int | None:
    """A picture's number from its path (None: not a number a card or page could have)."""
    if not text.isascii() or not text.isdigit() or len(text) > MAX_INDEX_DIGITS:
        return None
    return int(text)


async def http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (no such route, a method not allowed) in the same JSON shape."""
    assert isinstance(exc, HTTPException)
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code, headers=NO_STORE)


async def failed(request: Request, exc: Exception) -> Response:
    """An unforeseen failure (a bug): a message, not a traceback (`Shield` writes its one log line)."""
    return JSONResponse({"error": "the table failed to answer this request"}, status_code=500)


def png_response(data: bytes | None) -> Response:
    if data is None:
        return JSONResponse({"error": "no such picture"}, status_code=404)
    return Response(data, media_type="image/png", headers={"Cache-Control": "max-age=3600"})


async def in_daemon_thread(fn: Callable[[int], Move], arg: int) -> Move:
    """`fn(arg)` in a thread of its own that the interpreter does not wait for at exit: a Ctrl-C while a bot
    thinks ends the table at once instead of after the bot's whole budget."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[Move] = loop.create_future()

    def settle(result: Move | None, exc: BaseException | None) -> None:
        if done.done():
            return
        if exc is not None:
            done.set_exception(exc)
        else:
            assert result is not None
            done.set_result(result)

    def run() -> None:
        try:
            result = fn(arg)
        except BaseException as exc:  # handed to the awaiting task, which says it in the log
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody is waiting
                loop.call_soon_threadsafe(settle, None, exc)
            return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(settle, result, None)

    threading.Thread(target=run, name="cardgen-play-bot", daemon=True).start()
    return await done


class Shield:
    """The outermost layer: whatever a route raises unforeseen is a 500 with a message and one log line, never
    a traceback in the server's log."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except Exception as exc:
            if scope["type"] != "http":
                raise
            log.error(f"{scope.get('method', '')} {str(scope.get('path', ''))[:80]}: "
                      f"{type(exc).__name__}: {str(exc)[:160]}")
            if not started:
                body = json.dumps({"error": "the table failed to answer this request"}).encode()
                await send({"type": "http.response.start", "status": 500,
                            "headers": [(b"content-type", b"application/json"),
                                        (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})


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
        sock.listen(BACKLOG)
        sock.set_inheritable(True)
        return sock
    raise OSError(f"no free port from {port} on {host}: {last}")


def make_server(server: Served, sock: socket.socket) -> uvicorn.Server:
    """A uvicorn server for the app on an already bound socket (quiet: the command prints the links)."""
    bound_logs()
    TimedConnection.cap = connection_cap()
    config = uvicorn.Config(server.app, log_level="warning", lifespan="on", access_log=False,
                            timeout_graceful_shutdown=1, http=TimedConnection, backlog=BACKLOG)
    srv = uvicorn.Server(config)
    return srv


def serve(server: Served, sock: socket.socket) -> None:
    """Serve until interrupted."""
    make_server(server, sock).run(sockets=[sock])


@contextlib.contextmanager
def serving_in_thread(server: Served, host: str = "127.0.0.1") -> Iterator[str]:
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
