"""Forwarding of a table's requests to its owner over the bus, for the seconds of a
takeover (or a socket that lands on a process of another machine with no sticky
proxy in front): see docs/server.md, "Several processes".

A request for ``/tables/{id}/...`` that reaches a process which does not own the
table goes through an ASGI tunnel: the request's ASGI messages go over the bus to
the owner, which runs them through its own app (marked forwarded, so that it never
forwards again) and sends back the ASGI messages of its answer.  A tunnel whose
other end falls silent for ``lease_seconds`` is ended (a WebSocket with 1012).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import re
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import SQLAlchemyError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .peers import channel_of

if TYPE_CHECKING:
    from .cluster import Cluster

log = logging.getLogger("polignac.server")

FORWARDED = "polignac.forwarded"
"""Scope key of a request run for another process (its id): never forwarded again."""
STICKY = b"x-polignac-sticky"
"""Request header of a reverse proxy that sends every request of a table to one
machine (deploy/nginx.conf: a consistent hash of the table id): the table's lease
then follows it to that machine (``cluster.py:Cluster.claim``)."""
_SCOPE_KEYS = ("type", "asgi", "http_version", "method", "scheme", "path", "raw_path",
               "root_path", "query_string", "headers", "client", "server", "subprotocols")
_TABLE_PATH = re.compile(r"^/tables/([A-Za-z0-9_\-]{1,32})(?:/|$)")
MAX_RELAYED = 256
"""Messages a tunnel keeps for a client whose send is blocked, at most: one more and
the tunnel ends (its owner hears ``end``; what waits is dropped)."""


def table_of(path: str) -> str | None:
    """The table id of a ``/tables/{id}[/...]`` path, or None."""
    found = _TABLE_PATH.match(path)
    return found.group(1) if found else None


class OwnerGone(Exception):
    """The table's owner fell silent (or nobody could take the table) in time."""


def encode(value: Any) -> Any:
    """An ASGI message or scope as JSON-ready data (bytes as ``{"$b": base64}``)."""
    if isinstance(value, bytes | bytearray | memoryview):
        return {"$b": base64.b64encode(bytes(value)).decode("ascii")}
    if isinstance(value, dict):
        return {str(k): encode(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [encode(v) for v in value]
    return value


def decode(value: Any) -> Any:
    """The inverse of :func:`encode` (tuples come back as lists).

    Raises:
        binascii.Error: a malformed base64 text.
    """
    if isinstance(value, dict):
        if len(value) == 1 and "$b" in value:
            return base64.b64decode(value["$b"])
        return {k: decode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [decode(v) for v in value]
    return value


@dataclass(eq=False)
class _Tunnel:
    """One forwarded request's messages, waiting for their reader, at most
    :data:`MAX_RELAYED` of them."""

    peer: str
    queue: asyncio.Queue[Any] = field(default_factory=asyncio.Queue)
    websocket: bool = False
    overflowed: bool = False
    """More came than the reader took: what waited was dropped, the tunnel ends."""

    def put(self, item: Any) -> bool:
        """Queue ``item``; False (and the queue emptied but for a final ``None``) when
        the reader has :data:`MAX_RELAYED` waiting already, or overflowed before."""
        if self.overflowed:
            return False
        if self.queue.qsize() >= MAX_RELAYED:
            self.overflowed = True
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(None)
            return False
        self.queue.put_nowait(item)
        return True



class Relay:
    """This process's tunnels: requests it forwards to an owner (``outbound``) and
    requests it runs for another process (``inbound``)."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.entry: ASGIApp | None = None
        """The app below the router (set by :class:`ClusterRouter`): forwarded requests."""
        self.app: Any = None
        """The Starlette app (``scope["app"]`` of forwarded requests)."""
        self.inbound: dict[str, _Tunnel] = {}
        self.outbound: dict[str, _Tunnel] = {}
        self.forwarded = 0
        """Requests this process sent to another (for /health and tests)."""
        self.served = 0
        """Requests another process forwarded to this one."""

    def end_all(self) -> None:
        """End every tunnel (this process stops)."""
        for tunnel in list(self.inbound.values()):
            tunnel.queue.put_nowait(_disconnect(tunnel.websocket))
        for tunnel in list(self.outbound.values()):
            tunnel.queue.put_nowait(None)

    def end_silent(self) -> None:
        """End the tunnels whose other process fell silent."""
        alive = self.cluster.peers.alive
        for tunnel in list(self.inbound.values()):
            if not alive(tunnel.peer):
                tunnel.queue.put_nowait(_disconnect(tunnel.websocket))
        for tunnel in list(self.outbound.values()):
            if not alive(tunnel.peer):
                tunnel.queue.put_nowait(None)

    def on_message(self, kind: str, rid: str, msg: dict[str, Any]) -> bool:
        """Handle a tunnel's bus message; False when ``kind`` is not one."""
        if kind == "open":
            self.cluster.spawn(self._serve(msg))
        elif kind == "in":
            tunnel = self.inbound.get(rid)
            if tunnel is not None and not tunnel.put(decode(msg["m"])):
                tunnel.queue.put_nowait(_disconnect(tunnel.websocket))
        elif kind == "end":
            tunnel = self.inbound.get(rid)
            if tunnel is not None:
                tunnel.queue.put_nowait(_disconnect(tunnel.websocket))
        elif kind in ("go", "out", "done", "moved"):
            tunnel = self.outbound.get(rid)
            if tunnel is not None and not tunnel.put(msg) and kind == "out":
                self.outbound.pop(rid, None)  # the client does not read: end it at the owner
                self.cluster.spawn(self._end(tunnel.peer, rid))
        else:
            return False
        return True

    async def forward(self, scope: Scope, receive: Receive, send: Send, owner: str) -> str:
        """Run the request through ``owner``'s app over the bus and relay its answer.
        Returns ``done``, or ``moved`` when the owner no longer has the table (nothing
        was sent to the client then: route it again).

        Raises:
            OwnerGone: the owner fell silent.
        """
        rid = secrets.token_hex(8)
        websocket = scope["type"] == "websocket"
        tunnel = self.outbound[rid] = _Tunnel(owner, websocket=websocket)
        sent = {k: scope[k] for k in _SCOPE_KEYS if k in scope}
        if "websocket.http.response" in (scope.get("extensions") or {}):
            sent["extensions"] = {"websocket.http.response": {}}
        target = channel_of(owner)
        pump: asyncio.Task[None] | None = None
        finished = started = False
        self.forwarded += 1
        try:
            await self.cluster.publish(target, {"t": "open", "r": rid, "o": self.cluster.channel,
                                         "p": self.cluster.id, "s": encode(sent)})
            while True:
                msg = await tunnel.queue.get()
                if msg is None:
                    if tunnel.overflowed:  # the owner heard "end" already
                        finished = True
                        log.warning("process %s: a forwarded client does not read; its "
                                    "tunnel ends", self.cluster.id)
                    elif not started:
                        raise OwnerGone(owner)
                    else:
                        log.warning("process %s: the owner %s of a forwarded request "
                                    "fell silent", self.cluster.id, owner)
                    if websocket:  # the page reconnects, and reaches the next owner
                        with contextlib.suppress(Exception):
                            await send({"type": "websocket.close", "code": 1012})
                    return "done"
                kind = msg["t"]
                if kind == "moved":
                    finished = True
                    return "moved"
                if kind == "go":
                    pump = asyncio.get_running_loop().create_task(
                        self._pump(rid, target, receive))
                elif kind == "done":
                    finished = True
                    return "done"
                elif kind == "out":
                    started = True
                    try:
                        await send(decode(msg["m"]))
                    except Exception:  # the client went away: the owner hears "end"
                        return "done"
        finally:
            self.outbound.pop(rid, None)
            if pump is not None:
                pump.cancel()
            if not finished:
                with contextlib.suppress(Exception):
                    await self.cluster.publish(target, {"t": "end", "r": rid})

    async def _end(self, peer: str, rid: str) -> None:
        with contextlib.suppress(Exception):
            await self.cluster.publish(channel_of(peer), {"t": "end", "r": rid})

    async def _pump(self, rid: str, target: str, receive: Receive) -> None:
        """The client's ASGI messages to the owner, until it disconnects."""
        with contextlib.suppress(Exception):
            while True:
                message = await receive()
                await self.cluster.publish(target, {"t": "in", "r": rid, "m": encode(message)})
                if message["type"] in ("http.disconnect", "websocket.disconnect"):
                    return

    async def _serve(self, msg: dict[str, Any]) -> None:
        """Run another process's request through this app (see :meth:`forward`)."""
        rid, reply, peer = msg["r"], msg["o"], msg["p"]
        self.served += 1
        scope = decode(msg["s"])
        scope[FORWARDED] = peer
        scope["app"] = self.app
        tunnel = self.inbound[rid] = _Tunnel(peer, websocket=scope.get("type") == "websocket")

        async def receive() -> Message:
            message: Message = await tunnel.queue.get()
            return message

        async def send(message: Message) -> None:
            await self.cluster.publish(reply, {"t": "out", "r": rid, "m": encode(message)})

        try:
            table_id = table_of(scope.get("path", ""))
            if table_id is not None and table_id not in self.cluster.hub.tables and \
                    await self.cluster.hub.find(table_id) is None:
                await self.cluster.publish(reply, {"t": "moved", "r": rid})
                return
            await self.cluster.publish(reply, {"t": "go", "r": rid})
            assert self.entry is not None
            await self.entry(scope, receive, send)
        except Exception:
            log.exception("process %s: a request forwarded by %s failed", self.cluster.id, peer)
        finally:
            self.inbound.pop(rid, None)
            with contextlib.suppress(Exception):
                await self.cluster.publish(reply, {"t": "done", "r": rid})


def _disconnect(websocket: bool) -> Message:
    if websocket:
        return {"type": "websocket.disconnect", "code": 1006}
    return {"type": "http.disconnect"}


class ClusterRouter:
    """ASGI middleware: a request for a table another process owns goes to that
    process (:meth:`Cluster.forward`); everything else, and every forwarded
    request, is served here."""

    def __init__(self, app: ASGIApp, cluster: Cluster) -> None:
        self.app = app
        self.cluster = cluster
        cluster.relay.entry = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or scope.get(FORWARDED) is not None:
            await self.app(scope, receive, send)
            return
        table_id = table_of(scope.get("path", ""))
        if table_id is None:
            await self.app(scope, receive, send)
            return
        sticky = any(k == STICKY for k, _ in scope.get("headers") or ())
        for attempt in range(3):
            try:
                owner = await self.cluster.route(table_id)
                if owner is None:
                    await self.app(scope, receive, send)
                    return
                if sticky and attempt == 0 and self.cluster.may_claim(table_id, owner):
                    # the proxy sends this table to this machine: its lease follows
                    await self.cluster.claim(table_id, owner)
                    continue
                if await self.cluster.relay.forward(scope, receive, send, owner) == "done":
                    return
            except (OwnerGone, SQLAlchemyError) as exc:
                log.warning("table %s: its owner cannot be reached (%s)", table_id, exc)
                break
        await _unavailable(scope, receive, send)


async def _unavailable(scope: Scope, receive: Receive, send: Send) -> None:
    """503 (HTTP), or a WebSocket closed with 1012: the client tries again."""
    if scope["type"] == "websocket":
        with contextlib.suppress(Exception):
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": 1012})
        return
    body = json.dumps({"error": "the table's server process is not reachable now; try "
                                "again in a moment", "rule": "owner-gone"}).encode()
    with contextlib.suppress(Exception):
        await send({"type": "http.response.start", "status": 503, "headers": [
            (b"content-type", b"application/json"), (b"retry-after", b"1"),
            (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
