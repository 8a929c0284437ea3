"""The replay viewer's server (`cardgen replay SAVE --open`): one page that steps through a saved game.

Routes: `GET /` the page (`templates/replay.html`, in the game's language), `GET /replay.json` every frame
of the game (`replay_view.ReplayData`), and the card pictures as at a table (`/card/D.png`, `/back.png`).
The same guard as a table's (its own address, from its own pages) and the same one-line errors.
"""

from __future__ import annotations

import asyncio

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from cardgen.play.art import TableArt
from cardgen.play.guard import ASGIApp, Guard
from cardgen.play.page import STATIC, replay_page
from cardgen.play.replay_view import ReplayData
from cardgen.play.server import NO_STORE, Shield, failed, http_error, picture_index, png_response


class ReplayServer:
    """A saved game's frames and its card pictures, served to the viewer page."""

    def __init__(self, data: ReplayData, art: TableArt, lang: str) -> None:
        self.data = data.data()
        self.art = art
        self.lang = lang
        routes = Starlette(routes=[
            Route("/", self.page),
            Route("/replay.json", self.frames),
            Route("/card/{d}.png", self.card),
            Route("/back.png", self.back),
            Route("/favicon.ico", self.back),
            Mount("/static", app=StaticFiles(directory=str(STATIC))),
        ], exception_handlers={HTTPException: http_error, Exception: failed})
        self.app: ASGIApp = Guard(Shield(routes))

    async def page(self, request: Request) -> Response:
        return HTMLResponse(replay_page(self.lang), headers=NO_STORE)

    async def frames(self, request: Request) -> Response:
        return JSONResponse(self.data, headers=NO_STORE)

    async def card(self, request: Request) -> Response:
        d = picture_index(request.path_params["d"])
        face = self.art.face_large if request.query_params.get("size") == "large" else self.art.face
        return png_response(None if d is None else await asyncio.to_thread(face, d))

    async def back(self, request: Request) -> Response:
        return png_response(await asyncio.to_thread(self.art.back))
