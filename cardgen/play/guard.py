"""Who may talk to a table: requests addressed to the table itself, from its own pages.

A table listens on this computer (or its network), and any web page open in the same browser can send
requests to it. Two checks keep such pages out, before any route runs:

- the `Host` a request names must be one the table answers to: an IP address (how the links are printed),
  `localhost`, or this computer's own name, at the port the table listens on. A DNS-rebinding page reaches
  the table under its own domain name, which is refused;
- a request that says where it comes from (`Origin`, which browsers send with every cross-site request
  and every POST) must come from the page's own address, `http://` and that `Host`; a browser's
  `Sec-Fetch-Site` header, where sent, must say `same-origin` or `none` (typed in).

What is refused gets 403 with the reason as JSON, and nothing else is read.
"""

from __future__ import annotations

import ipaddress
import json
import socket
from collections.abc import Awaitable, Callable, MutableMapping
from functools import cache
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


@cache
def own_names() -> frozenset[str]:
    """The names this computer answers to besides its addresses (lower case)."""
    names = {"localhost"}
    for name in (socket.gethostname(), socket.getfqdn()):
        if name:
            names |= {name.lower(), f"{name.lower()}.local"}
    return frozenset(names)


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name[1:-1] if name.startswith("[") and name.endswith("]") else name)
    except ValueError:
        return False
    return True


def split_host(value: str) -> tuple[str, int | None] | None:
    """A Host header's name and port (None: no port given), or None when it is not a host at all."""
    name, port = value.strip().lower(), None
    head, sep, tail = name.rpartition(":")
    if sep and not head.endswith(":") and (head.startswith("[") or "[" not in name) and "]" not in tail:
        if not tail.isascii() or not tail.isdigit() or len(tail) > 5:
            return None
        name, port = head, int(tail)
    if not name or len(name) > 253:
        return None
    return name, port


def host_refusal(host: str | None, listening_port: int | None) -> str | None:
    """Why a request's `Host` is not this table's (None: it is)."""
    if not host:
        return "a request must name the table's address (Host)"
    parts = split_host(host)
    if parts is None:
        return "the Host of the request is not an address"
    name, port = parts
    if not (_is_address(name) or name in own_names()):
        return "this table answers only to its own address, not to another name"
    if listening_port is not None and (port if port is not None else 80) != listening_port:
        return "this table listens on another port"
    return None


def origin_refusal(origin: str | None, fetch_site: str | None, host: str) -> str | None:
    """Why a request from a page is refused (None: it comes from the table's own pages, or from no page)."""
    if fetch_site is not None and fetch_site not in ("same-origin", "none"):
        return "requests from other web pages are refused"
    if origin is not None and origin.lower() != f"http://{host.strip().lower()}":
        return "requests from other web pages are refused"
    return None


class Guard:
    """ASGI middleware: refuse (403) any HTTP request whose Host or Origin is not the table's own."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers: dict[str, str] = {}
        for key, value in scope.get("headers", ()):
            k = key.decode("latin-1").lower()
            if k in ("host", "origin", "sec-fetch-site"):
                headers[k] = value.decode("latin-1")
        server = scope.get("server")
        port = int(server[1]) if server and server[1] is not None else None
        host = headers.get("host")
        why = host_refusal(host, port) or origin_refusal(headers.get("origin"), headers.get("sec-fetch-site"),
                                                          host or "")
        if why is None:
            await self.app(scope, receive, send)
            return
        body = json.dumps({"error": why}).encode()
        await send({"type": "http.response.start", "status": 403,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"cache-control", b"no-store")]})
        await send({"type": "http.response.body", "body": body})
