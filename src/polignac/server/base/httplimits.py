"""Bounds on what an HTTP client may hold: concurrent requests per client address and
a write timeout on answers nobody reads (docs/server.md, "Security choices").

A client that sends requests and never reads the answers makes the server keep
each answer (and the request behind it) in memory for as long as the socket is
open.  Two bounds end that:

- :class:`ClientRequests`, an ASGI middleware: at most ``limit`` HTTP requests of
  one client address are in the app at once (from the request's start until its
  answer has been handed to the socket, the last byte included); a few more wait
  for a place (``queue``, at most ``wait`` seconds: a page's burst of module
  scripts, several browsers behind one address); one more is answered
  ``429 too-many-requests`` at once, with ``Retry-After: 1``.  The
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
import contextlib
import ipaddress
from collections import deque

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send


def client_address(scope: Scope) -> str:
    """The client's address as uvicorn gives it (``"?"`` when none)."""
    client = scope.get("client")
    return str(client[0]) if client else "?"


def client_network(address: str) -> str:
    """The network a client address counts in: its /24 for IPv4, its /64 for IPv6 (an
    IPv4 address mapped into IPv6 counts as IPv4), the text itself when it is no
    address.  One household, office or phone gets a /64 of IPv6 addresses, and often a
    few IPv4 addresses of one /24: a limit per address would let it change address."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    bits = 24 if ip.version == 4 else 64
    return str(ipaddress.ip_network(f"{ip}/{bits}", strict=False))


class RequestCounts:
    """HTTP requests in the app per client address, at most ``limit`` each, and a
    short line of those that wait for a place (shared by :class:`ClientRequests` and
    ``GET /health``).

    ``counts`` maps each client with requests in the app to how many; a client
    leaves it when its last request ends, so it never grows past the clients that
    are being served.  A request past the limit waits in its client's line (at most
    ``queue`` long) for at most ``wait`` seconds, and takes the place of the first
    request of that client to end; a browser that asks for its page's thirty
    scripts at once, or a household behind one address, is served a moment later
    instead of being refused.  One more than the line holds, or one that waited
    ``wait`` seconds, is refused.
    """

    def __init__(self, limit: int, queue: int = 0, wait: float = 10.0) -> None:
        self.limit = limit
        self.queue = queue
        self.wait = wait
        self.counts: dict[str, int] = {}
        self.lines: dict[str, deque[asyncio.Future[None]]] = {}
        self.refused = 0
        self.waited = 0

    @property
    def in_flight(self) -> int:
        """Requests in the app now, every client together."""
        return sum(self.counts.values())

    @property
    def waiting(self) -> int:
        """Requests waiting for a place now, every client together."""
        return sum(len(line) for line in self.lines.values())

    def _take(self, client: str) -> bool:
        n = self.counts.get(client, 0)
        if n >= self.limit or client in self.lines:  # no overtaking the line
            return False
        self.counts[client] = n + 1
        return True

    async def enter(self, client: str) -> bool:
        """Count one more request of ``client``, after a wait in its line at the
        limit; False (nothing counted, one refusal more) when the line is full or the
        wait is over."""
        if self._take(client):
            return True
        line = self.lines.get(client)
        if (line is not None and len(line) >= self.queue) or self.queue <= 0:
            self.refused += 1
            return False
        if line is None:
            line = self.lines[client] = deque()
        place: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        line.append(place)
        self.waited += 1
        try:
            await asyncio.wait((place,), timeout=self.wait)
        except BaseException:  # the request is cancelled while it waits
            if place.done() and not place.cancelled():
                self.release(client)  # a place it was handed and will not use
            else:
                self._leave(client, place)
            raise
        if place.done():
            return True  # release() handed it its place (counted already)
        self._leave(client, place)
        self.refused += 1
        return False

    def _leave(self, client: str, place: asyncio.Future[None]) -> None:
        place.cancel()
        line = self.lines.get(client)
        if line is not None:
            with contextlib.suppress(ValueError):
                line.remove(place)
            if not line:
                del self.lines[client]

    def release(self, client: str) -> None:
        """One request of ``client`` ended: its place goes to the first of the line,
        if any."""
        line = self.lines.get(client)
        while line:
            place = line.popleft()
            if not line:
                del self.lines[client]
            if not place.done():
                place.set_result(None)  # the count stays: the place changes hands
                return
        left = self.counts.get(client, 1) - 1
        if left <= 0:
            self.counts.pop(client, None)
        else:
            self.counts[client] = left


UNCOUNTED = frozenset({"/health", "/ready"})
"""Paths not counted (small answers a load balancer asks for from one address)."""


class ClientRequests:
    """ASGI middleware: at most ``counts.limit`` HTTP requests of one client address
    in the app at once, a few more waiting for a place (``counts.queue``, at most
    ``counts.wait`` seconds); one more gets 429 ``too-many-requests``
    (``Retry-After: 1``)."""

    def __init__(self, app: ASGIApp, counts: RequestCounts) -> None:
        self.app = app
        self.counts = counts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("path") in UNCOUNTED:
            await self.app(scope, receive, send)
            return
        client = client_address(scope)
        if not await self.counts.enter(client):
            response = JSONResponse(
                {"error": f"too many requests at once from this address (at most "
                          f"{self.counts.limit}, and {self.counts.queue} waiting); wait "
                          f"for the answers, then try again",
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
