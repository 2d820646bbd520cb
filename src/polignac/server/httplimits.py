"""Bounds on what an HTTP client may hold: concurrent requests per client address and
a write timeout on answers nobody reads (docs/server.md, "Security choices").

A client that sends requests and never reads the answers makes the server keep
each answer (and the request behind it) in memory for as long as the socket is
open.  Two bounds end that:

- :class:`ClientRequests`, an ASGI middleware: at most ``limit`` HTTP requests of
  one client address are in the app at once (from the request's start until its
  answer has been handed to the socket, the last byte included); one more is
  answered ``429 too-many-requests`` at once, with ``Retry-After: 1``.  The
  WebSockets of a client have their own limit (``connections.ClientSockets``).
- :class:`WriteDeadline`, a mixin for uvicorn's HTTP protocols
  (``connections.http_protocol``): when the socket's send buffer is full (the
  transport paused writing) and does not drain within ``write_timeout`` seconds,
  the connection is cut (aborted): the answer that waited is freed, the handler's
  next write returns at once and the request ends.

The client address is the one uvicorn gives: the socket's peer, or, behind a
proxy named in ``--forwarded-allow-ips``, the address in ``X-Forwarded-For``.
"""

from __future__ import annotations

import asyncio

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send


def client_address(scope: Scope) -> str:
    """The client's address as uvicorn gives it (``"?"`` when none)."""
    client = scope.get("client")
    return str(client[0]) if client else "?"


class RequestCounts:
    """HTTP requests in the app per client address, at most ``limit`` each (shared by
    :class:`ClientRequests` and ``GET /health``).

    ``counts`` maps each client with requests in the app to how many; a client
    leaves it when its last request ends, so it never grows past the clients that
    are being served.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.counts: dict[str, int] = {}
        self.refused = 0

    @property
    def in_flight(self) -> int:
        """Requests in the app now, every client together."""
        return sum(self.counts.values())

    def acquire(self, client: str) -> bool:
        """Count one more request of ``client``; False (nothing counted, one refusal
        more) at the limit."""
        n = self.counts.get(client, 0)
        if n >= self.limit:
            self.refused += 1
            return False
        self.counts[client] = n + 1
        return True

    def release(self, client: str) -> None:
        """One request of ``client`` ended."""
        left = self.counts.get(client, 1) - 1
        if left <= 0:
            self.counts.pop(client, None)
        else:
            self.counts[client] = left


UNCOUNTED = frozenset({"/health", "/ready"})
"""Paths not counted (small answers a load balancer asks for from one address)."""


class ClientRequests:
    """ASGI middleware: at most ``counts.limit`` HTTP requests of one client address
    in the app at once; one more gets 429 ``too-many-requests`` (``Retry-After: 1``)."""

    def __init__(self, app: ASGIApp, counts: RequestCounts) -> None:
        self.app = app
        self.counts = counts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("path") in UNCOUNTED:
            await self.app(scope, receive, send)
            return
        client = client_address(scope)
        if not self.counts.acquire(client):
            response = JSONResponse(
                {"error": f"too many requests at once from this address (at most "
                          f"{self.counts.limit}); wait for the answers, then try again",
                 "rule": "too-many-requests"}, status_code=429, headers={"Retry-After": "1"})
            await response(scope, receive, send)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.counts.release(client)


WRITE_CUTS = [0]
"""Connections of this process cut by :class:`WriteDeadline` (``GET /health``)."""


class WriteDeadline:
    """Mixin for a uvicorn HTTP protocol (before it in the bases): a connection whose
    writing stays paused (the client does not read, the send buffers are full) for
    ``write_timeout`` seconds is aborted.

    uvicorn calls ``pause_writing`` when the transport's buffer is over its high-water
    mark and ``resume_writing`` when it drained; a reader that is merely slow
    resumes it, and each resume starts the clock again.
    """

    write_timeout: float = 10.0
    transport: asyncio.Transport
    loop: asyncio.AbstractEventLoop

    _write_timer: asyncio.TimerHandle | None = None

    def pause_writing(self) -> None:
        """The send buffer is full: start the clock."""
        super().pause_writing()  # type: ignore[misc]
        if self._write_timer is None and self.write_timeout > 0:
            self._write_timer = self.loop.call_later(self.write_timeout, self._write_late)

    def resume_writing(self) -> None:
        """The send buffer drained: stop the clock."""
        self._stop_write_timer()
        super().resume_writing()  # type: ignore[misc]

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection ended: stop the clock."""
        self._stop_write_timer()
        super().connection_lost(exc)  # type: ignore[misc]

    def _stop_write_timer(self) -> None:
        if self._write_timer is not None:
            self._write_timer.cancel()
            self._write_timer = None

    def _write_late(self) -> None:
        self._write_timer = None
        if not self.transport.is_closing() or self.transport.get_write_buffer_size():
            WRITE_CUTS[0] += 1
            self.transport.abort()  # connection_lost follows: the handler's writes end


__all__ = ["WRITE_CUTS", "ClientRequests", "RequestCounts", "WriteDeadline", "client_address"]
