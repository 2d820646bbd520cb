"""Connections that strangers cannot hold: the Host check, a bounded outbox per
WebSocket, a limit on WebSockets per client, and uvicorn's protocols with a
header timeout (see docs/server.md, "Security choices").
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterable
from typing import Any

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from ..base.clock import SYSTEM, Clock, Timer
from ..base.config import ServerConfig
from ..base.httplimits import WriteDeadline
from ..base.inputs import ascii_int

# ------------------------------------------------------------------ Host check

LOOPBACK_NAMES: tuple[str, ...] = ("localhost", "127.0.0.1", "[::1]")


def default_allowed_hosts(host: str, port: int) -> tuple[str, ...]:
    """The Host values ``polignac serve --host HOST --port PORT`` accepts by default:
    the bound host and the loopback names, each with the port (an IPv6 address
    in brackets)."""
    bound = f"[{host}]" if ":" in host and not host.startswith("[") else host
    names = [bound] + [n for n in LOOPBACK_NAMES if n != bound]
    if bound in ("0.0.0.0", "[::]"):  # "every address" is no name a browser sends
        names.remove(bound)
    return tuple(f"{name.lower()}:{port}" for name in names)


def _split_host(value: str) -> tuple[str, str | None]:
    """``name[:port]`` -> (name, port or None); an IPv6 address keeps its brackets."""
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return value, None
        rest = value[end + 1:]
        return value[:end + 1], (rest[1:] if rest.startswith(":") else None)
    name, sep, port = value.rpartition(":")
    return (name, port) if sep else (value, None)


def host_allowed(host: str | None, allowed: Iterable[str], default_port: str = "80") -> bool:
    """True when the ``Host`` header ``host`` matches an entry of ``allowed``.

    An entry is ``name:port`` (exactly that; a Host without a port has
    ``default_port``, the scheme's), ``name`` (any port), ``*.domain`` (any name
    under ``domain``, any port) or ``*`` (anything).  Names compare without case;
    a missing or malformed Host matches nothing but ``*``.
    """
    entries = list(allowed)
    if "*" in entries:
        return True
    if not host or len(host) > 300 or any(c in host for c in " /\\@?#\t\r\n"):
        return False
    name, port = _split_host(host.lower())
    if port is None:
        port = default_port
    elif ascii_int(port, 0, 65535) is None:
        return False
    for entry in entries:
        e_name, e_port = _split_host(entry.lower())
        if e_name.startswith("*."):
            if not name.endswith(e_name[1:]) or len(name) <= len(e_name) - 1:
                continue
        elif e_name != name:
            continue
        if e_port is None or e_port == port:
            return True
    return False


class HostCheck:
    """Answers 400 ``bad-host`` to an HTTP request or WebSocket whose ``Host`` header
    is not one of the served names (DNS rebinding: a page of a stranger's name that
    resolves to this server).  The same job as Starlette's ``TrustedHostMiddleware``,
    but ports count and IPv6 addresses work."""

    def __init__(self, app: ASGIApp, allowed_hosts: tuple[str, ...]) -> None:
        self.app = app
        self.allowed_hosts = allowed_hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        secure = scope.get("scheme") in ("https", "wss")
        if scope["type"] not in ("http", "websocket") or host_allowed(
                Headers(scope=scope).get("host"), self.allowed_hosts,
                "443" if secure else "80"):
            await self.app(scope, receive, send)
            return
        response = JSONResponse({"error": "this server does not serve that host name "
                                          "(Host header)", "rule": "bad-host"},
                                status_code=400)
        await response(scope, receive, send)  # a WebSocket gets it as its denial response


# ------------------------------------------------------------------ outbox


class Outbox(asyncio.Queue[Any]):
    """A WebSocket's queue of frames to send, bounded in frames and in bytes.

    Frames are encoded when queued (a dict is encoded once, here, instead of by
    the sender).  A client that does not read fills it: the frame that would go
    over ``max_frames`` or ``max_bytes`` is replaced by ``None`` (close the
    connection), what waits is dropped, ``overflowed`` is set, ``on_overflow`` is
    called and every later frame is dropped too.  Every
    frame counts, the answers to ``hello`` (the catch-up) and errors included.
    """

    def __init__(self, max_frames: int, max_bytes: int,
                 on_overflow: Callable[[], Any] | None = None) -> None:
        super().__init__()
        self.max_frames = max_frames
        self.max_bytes = max_bytes
        self.on_overflow = on_overflow
        self.queued_bytes = 0
        self.overflowed = False
        self.closing = False
        self.close_code = 1000
        """The WebSocket close code once closing (1012: the table moved, reconnect)."""

    def put_nowait(self, item: Any) -> None:
        """Queue ``item`` (a frame, encoded JSON text, or None to close)."""
        if self.closing:
            return
        if item is None:
            self.closing = True
            super().put_nowait(None)
            return
        text = item if isinstance(item, str) else json.dumps(item, ensure_ascii=False)
        if self.qsize() >= self.max_frames or self.queued_bytes + len(text) > self.max_bytes:
            self.overflowed = True
            self.closing = True
            while not self.empty():  # free what waits: the connection is dropped
                self.get_nowait()
            super().put_nowait(None)
            if self.on_overflow is not None:
                self.on_overflow()
            return
        self.queued_bytes += len(text)
        super().put_nowait(text)

    def _get(self) -> Any:
        item = super()._get()  # type: ignore[misc]
        if isinstance(item, str):
            self.queued_bytes -= len(item)
        return item


# ------------------------------------------------------------------ per client


class ClientSockets:
    """Open WebSockets per client address, at most ``limit`` each."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open: dict[str, int] = {}

    def acquire(self, client: str) -> bool:
        """Count one more socket for ``client``; False (nothing counted) at the limit."""
        n = self.open.get(client, 0)
        if n >= self.limit:
            return False
        self.open[client] = n + 1
        return True

    def release(self, client: str) -> None:
        """Forget one socket of ``client``."""
        n = self.open.get(client, 0) - 1
        if n <= 0:
            self.open.pop(client, None)
        else:
            self.open[client] = n


# ------------------------------------------------------------------ uvicorn


_TIMEOUT_BODY = b"the request's headers did not arrive in time"
_TOO_LARGE_BODY = b"the request's headers are too large"


def _answer_and_close(transport: asyncio.Transport, status: bytes, body: bytes) -> None:
    transport.write(b"HTTP/1.1 " + status + b"\r\ncontent-type: text/plain; charset=utf-8\r\n"
                    b"content-length: " + str(len(body)).encode() + b"\r\n"
                    b"connection: close\r\n\r\n" + body)
    transport.close()


class _HeaderDeadline:
    """Mixin for uvicorn's HTTP protocols: a request's line and headers must arrive
    within ``header_timeout`` seconds of the connection (or of the first byte of
    the next request on a kept-alive connection) and weigh at most
    ``max_header_bytes``; else 408 or 431 and the connection is closed.  The
    deadline is on ``clock`` (the server's, ``ServerConfig.clock``)."""

    header_timeout: float = 10.0
    max_header_bytes: int = 64 * 1024
    clock: Clock = SYSTEM
    transport: asyncio.Transport
    loop: asyncio.AbstractEventLoop
    cycle: Any

    _header_timer: Timer | None = None
    _header_bytes: int = 0

    def _start_header_timer(self) -> None:
        if self._header_timer is None and not self.transport.is_closing():
            self._header_bytes = 0
            self._header_timer = self.clock.call_later(self.header_timeout, self._header_late)

    def _headers_done(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _header_late(self) -> None:
        self._header_timer = None
        if self.transport.is_closing():
            return
        if self.cycle is not None and not self.cycle.response_complete:
            self.transport.close()  # a response is on its way: no room for a 408
            return
        _answer_and_close(self.transport, b"408 Request Timeout", _TIMEOUT_BODY)

    def _count_header_bytes(self, n: int) -> bool:
        """Count ``n`` bytes received while headers are awaited; False (and a 431 sent)
        when they are over ``max_header_bytes``."""
        if self._header_timer is None:
            return True
        self._header_bytes += n
        if self._header_bytes <= self.max_header_bytes:
            return True
        self._headers_done()
        _answer_and_close(self.transport, b"431 Request Header Fields Too Large",
                          _TOO_LARGE_BODY)
        return False


def http_protocol(header_timeout: float, max_header_bytes: int, base: str = "auto",
                  write_timeout: float = 10.0, clock: Clock = SYSTEM) -> type:
    """uvicorn's HTTP protocol class (``base``: ``auto``, ``httptools`` or ``h11``, as
    uvicorn's ``http=`` option) with a header timeout (on ``clock``), a header size
    limit and a write timeout (``httplimits.WriteDeadline``); pass it as
    ``uvicorn.run(..., http=...)``.

    Raises:
        ImportError: ``base`` names a protocol whose library is not installed.
    """
    if base == "auto":
        try:
            import httptools  # noqa: F401
            base = "httptools"
        except ImportError:
            base = "h11"
    settings = {"header_timeout": header_timeout, "max_header_bytes": max_header_bytes,
                "write_timeout": write_timeout, "clock": clock}
    if base == "httptools":
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

        class HttpTools(_HeaderDeadline, WriteDeadline, HttpToolsProtocol):
            def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
                super().connection_made(transport)
                self._start_header_timer()

            def connection_lost(self, exc: Exception | None) -> None:
                self._headers_done()
                super().connection_lost(exc)

            def data_received(self, data: bytes) -> None:
                super().data_received(data)
                if self._header_timer is not None and not self.transport.is_closing():
                    self._count_header_bytes(len(data))

            def on_message_begin(self) -> None:
                super().on_message_begin()
                self._start_header_timer()

            def on_headers_complete(self) -> None:
                self._headers_done()
                super().on_headers_complete()

        return type("PolignacHttpTools", (HttpTools,), settings)
    if base == "h11":
        import h11
        from uvicorn.protocols.http.h11_impl import H11Protocol

        class H11(_HeaderDeadline, WriteDeadline, H11Protocol):
            def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
                super().connection_made(transport)
                self._start_header_timer()

            def connection_lost(self, exc: Exception | None) -> None:
                self._headers_done()
                super().connection_lost(exc)

            def data_received(self, data: bytes) -> None:
                if self.conn.their_state is h11.IDLE:
                    self._start_header_timer()
                super().data_received(data)
                if self.conn.their_state is not h11.IDLE:
                    self._headers_done()
                elif not self.transport.is_closing():
                    self._count_header_bytes(len(data))

            def handle_websocket_upgrade(self, event: Any) -> None:
                self._headers_done()
                super().handle_websocket_upgrade(event)

        return type("PolignacH11", (H11,), settings)
    raise ImportError(f"no HTTP protocol {base!r}: choose auto, httptools or h11")


def ws_protocol(linger: float) -> type | str:
    """uvicorn's WebSocket protocol (``websockets-sansio``, uvicorn's choice when
    ``websockets`` is installed) that cuts (aborts) a connection it has closed
    when what it still had to send is not delivered within ``linger`` seconds: a
    client that does not read would otherwise hold the socket, and the buffers
    behind it, for ever.  ``"auto"`` when that protocol is not installed."""
    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import (
            WebSocketsSansIOProtocol,
        )
    except ImportError:
        return "auto"

    class Linger(WebSocketsSansIOProtocol):
        def _cut_later(self) -> None:
            if not self.disconnected:
                self.loop.call_later(linger, self._cut)

        def _cut(self) -> None:
            if not self.disconnected:
                self.transport.abort()

        async def run_asgi(self) -> None:
            await super().run_asgi()  # it closes the transport
            self._cut_later()

        def keepalive_timeout(self) -> None:
            super().keepalive_timeout()
            self._cut_later()

    return Linger


def uvicorn_options(config: ServerConfig, http: str = "auto") -> dict[str, Any]:
    """The connection settings of ``config`` as ``uvicorn.run``/``uvicorn.Config``
    keyword arguments: the HTTP protocol with the header and write timeouts, the
    WebSocket protocol that cuts what it closed, ping/pong, the frame size, and the
    proxies whose ``X-Forwarded-For`` is trusted (none unless
    ``config.forwarded_allow_ips`` names them: uvicorn's own default trusts
    127.0.0.1, so that a local client could forge its address).

    Raises:
        ImportError: as :func:`http_protocol`.
    """
    return {
        "http": http_protocol(config.header_timeout, config.max_header_bytes, http,
                              config.write_timeout, config.clock),
        "ws": ws_protocol(config.close_linger),
        "ws_max_size": config.max_frame,
        "ws_ping_interval": config.ws_ping_interval,
        "ws_ping_timeout": config.ws_ping_timeout,
        "timeout_keep_alive": config.keep_alive_timeout,
        "proxy_headers": bool(config.forwarded_allow_ips),
        "forwarded_allow_ips": ",".join(config.forwarded_allow_ips) or None,
    }
