"""Forwarding of a table's requests to its owner over the bus: for the seconds of a
takeover, or a socket that lands on a process of another machine with no sticky
proxy in front (docs/server.md, "Several processes").

What crosses the bus is the game's messages, never ASGI's:

* a WebSocket stays where it landed (the *edge*): the edge checks its origin and
  the connections per address, asks the owner to ``join`` it to the table with
  the seat cookie, and once the owner says ``joined`` accepts it; every frame the
  client sends is read at the edge by the session's own parser
  (``session.py:FrameReader``: text, size, rate, JSON object) and goes to the
  owner as an intent (``frame``: the parsed object, ``act``, ``hello``, ...);
  the owner runs it through the session's handlers (``session.py:dispatch``)
  for that seat, and sends back what the seat's outbox holds (``out``: the
  protocol's frames, ``state``, ``event``, ``error``...) and at the end
  ``close`` with its code;
* an HTTP request goes whole (``request``: method, path, query, headers, body of
  at most :data:`MAX_BODY` bytes) and comes back whole (``response``: status,
  headers, body).

Each side keeps at most :data:`MAX_RELAYED` messages for a reader that does not
read, and the edge of a socket at most ``max_queued_bytes`` of them (as a direct
socket's outbox: a message carries up to :data:`MAX_BATCH` frames): one more and
the forwarding ends (the other side hears ``end``; a client's
WebSocket closes).  A forwarding whose other process falls silent for
``lease_seconds`` ends: the client's WebSocket closes with 1012 and the page
reconnects (to the new owner), an HTTP request not answered yet gets 503.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import json
import logging
import secrets
from typing import TYPE_CHECKING, Any

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..base.httplimits import client_address
from ..base.security import cookie_name, origin_allowed
from ..tables.connections import Outbox
from ..tables.session import FrameReader, FrameRefused, Session, dispatch, error_frame, hello_late
from .peers import channel_of
from .tunnel import (
    _SOCKET_PATH,
    FORWARDED,
    MAX_BATCH,
    MAX_BODY,
    MAX_RESPONSE,
    MAX_TOKEN,
    OwnerGone,
    _answer,
    _Tunnel,
    table_of,
)

if TYPE_CHECKING:
    from ..tables.tables import GameTable
    from .cluster import Cluster

log = logging.getLogger("polignac.server")

class Relay:
    """This process's forwardings: to an owner (``outbound``, this process is the
    edge) and for another process (``inbound``, this process owns the table)."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.entry: ASGIApp | None = None
        """The app below the router (set by :class:`ClusterRouter`): forwarded requests."""
        self.app: Any = None
        """The Starlette app (``scope["app"]`` of forwarded requests)."""
        self.inbound: dict[str, _Tunnel] = {}
        self.outbound: dict[str, _Tunnel] = {}
        self.forwarded = 0
        """Sockets and requests this process sent to another (for /health and tests)."""
        self.served = 0
        """Sockets and requests another process forwarded to this one."""

    @property
    def hub(self) -> Any:
        return self.cluster.hub

    def end_all(self) -> None:
        """End every forwarding (this process stops)."""
        for tunnel in [*self.inbound.values(), *self.outbound.values()]:
            tunnel.end()

    def end_silent(self) -> None:
        """End the forwardings whose other process fell silent."""
        alive = self.cluster.peers.alive
        for tunnel in [*self.inbound.values(), *self.outbound.values()]:
            if not alive(tunnel.peer):
                tunnel.end()

    def edge_tunnel(self, owner: str) -> _Tunnel:
        """The tunnel of a socket served here for ``owner``: what waits for a client
        that does not read is bounded as on a direct socket (``max_queued_bytes``)."""
        return _Tunnel(owner, self.hub.config.max_queued_bytes)

    def on_message(self, kind: str, rid: str, msg: dict[str, Any], size: int = 0) -> bool:
        """Handle a forwarding's bus message (``size``: its length on the bus); False
        when ``kind`` is not one."""
        if kind in ("join", "request"):
            if isinstance(msg.get("o"), str) and isinstance(msg.get("p"), str):
                self.cluster.spawn(self._join(msg) if kind == "join" else self._serve(msg))
        elif kind == "frame":  # a client's intent, for a seat of ours
            tunnel = self.inbound.get(rid)
            data = msg.get("f")
            if tunnel is not None and isinstance(data, dict):
                tunnel.put(data, size)
        elif kind == "end":
            tunnel = self.inbound.get(rid)
            if tunnel is not None:
                tunnel.end()
        elif kind in ("joined", "refused", "moved", "out", "close", "response"):
            tunnel = self.outbound.get(rid)
            if tunnel is not None and not tunnel.put(msg, size):
                self.outbound.pop(rid, None)  # the client does not read: end it at the owner
                self.cluster.spawn(self._end(tunnel.peer, rid))
        else:
            return False
        return True

    async def _end(self, peer: str, rid: str) -> None:
        with contextlib.suppress(Exception):
            await self.cluster.publish(channel_of(peer), {"t": "end", "r": rid})

    # ------------------------------------------------------------ the edge: sockets

    async def forward_socket(self, scope: Scope, receive: Receive, send: Send,
                             owner: str, table_id: str) -> str:
        """Serve the client's WebSocket here as a seat of ``owner``'s table (see the
        module).  Returns ``done``, or ``moved`` when the owner no longer has the
        table (nothing was sent to the client then: route it again).

        Raises:
            OwnerGone: the owner did not answer (nothing was sent to the client).
        """
        websocket = WebSocket(scope, receive, send)
        config = self.hub.config
        if not origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host"),
                              config.allowed_origins):
            await websocket.close(code=4403)
            return "done"
        client = client_address(websocket.scope)
        if not self.hub.sockets.acquire(client):
            await websocket.send_denial_response(JSONResponse(
                {"error": f"too many open connections from your address (at most "
                          f"{config.max_connections_per_client})",
                 "rule": "too-many-connections"}, status_code=429))
            return "done"
        try:
            return await self._edge(websocket, owner, table_id)
        finally:
            self.hub.sockets.release(client)

    async def _edge(self, websocket: WebSocket, owner: str, table_id: str) -> str:
        rid = secrets.token_hex(8)
        tunnel = self.outbound[rid] = self.edge_tunnel(owner)
        target = channel_of(owner)
        reader: asyncio.Task[None] | None = None
        finished = False
        token = websocket.cookies.get(cookie_name(table_id))
        self.forwarded += 1
        try:
            await self.cluster.publish(target, {
                "t": "join", "r": rid, "o": self.cluster.channel, "p": self.cluster.id,
                "table": table_id, "k": token[:MAX_TOKEN] if token else None})
            msg = await tunnel.take()
            if msg is None:
                raise OwnerGone(owner)
            if msg["t"] in ("moved", "refused"):
                finished = True
                if msg["t"] == "moved":
                    return "moved"
                code = msg.get("c")
                await websocket.close(code=code if isinstance(code, int) else 4401)
                return "done"
            await websocket.accept()
            reader = asyncio.get_running_loop().create_task(
                self._read_frames(websocket, rid, target, tunnel))
            while (msg := await tunnel.take()) is not None:
                if msg["t"] == "close":
                    finished = msg.get("r") == rid  # the owner's (else: ours, it hears end)
                    code = msg.get("c")
                    await websocket.close(code=code if isinstance(code, int) else 1000)
                    return "done"
                for frame in msg.get("f") or ():
                    await websocket.send_text(json.dumps(frame, ensure_ascii=False))
            if tunnel.overflowed:
                log.warning("process %s: a forwarded client does not read; it is closed",
                            self.cluster.id)
            # the owner fell silent, or this process stops: the page reconnects
            with contextlib.suppress(Exception):
                await websocket.close(code=1012)
            return "done"
        except (WebSocketDisconnect, OSError, RuntimeError):  # the client went away
            return "done"
        finally:
            self.outbound.pop(rid, None)
            if reader is not None:
                reader.cancel()
            if not finished:
                await self._end(owner, rid)

    async def _read_frames(self, websocket: WebSocket, rid: str, target: str,
                           tunnel: _Tunnel) -> None:
        """The client's frames, read by the session's parser, to the owner as intents;
        a refused frame is answered here.  Ends the forwarding when the client goes."""
        reader = FrameReader(self.hub.config)
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                try:
                    data = reader.read(message)
                except FrameRefused as exc:
                    tunnel.put({"t": "out", "f": [error_frame(exc.rule, str(exc))]})
                    if exc.close:
                        tunnel.put({"t": "close", "c": 1000})
                        return
                    continue
                await self.cluster.publish(target, {"t": "frame", "r": rid, "f": data})
        except Exception:  # the client or the bus went away
            pass
        tunnel.end()

    # ------------------------------------------------------------ the owner: sockets

    async def _join(self, msg: dict[str, Any]) -> None:
        """Another process's client joins a table of ours: check its seat cookie, then
        run its session here on the intents that come (see the module)."""
        rid, reply, peer = msg["r"], msg["o"], msg["p"]
        table_id, token = msg.get("table"), msg.get("k")
        if not isinstance(table_id, str) or not _SOCKET_PATH.match(f"/tables/{table_id}/ws"):
            return
        self.served += 1
        tunnel = self.inbound[rid] = _Tunnel(peer)
        try:
            table = self.hub.tables.get(table_id) or await self.hub.find(table_id)
            if table is None:
                await self.cluster.publish(reply, {"t": "moved", "r": rid})
                return
            cookies = {cookie_name(table.id): token[:MAX_TOKEN]} \
                if isinstance(token, str) and token else {}
            seat = self.hub.seat_of(table, cookies)
            if seat is None and cookies and self.hub.pending_take(table, cookies) is None:
                await self.cluster.publish(reply, {"t": "refused", "r": rid, "c": 4401})
                return
            await self.cluster.publish(reply, {"t": "joined", "r": rid})
            await self._session(rid, reply, tunnel, table, seat)
        except Exception:
            log.exception("process %s: a socket forwarded by %s failed", self.cluster.id,
                          peer)
        finally:
            self.inbound.pop(rid, None)

    async def _session(self, rid: str, reply: str, tunnel: _Tunnel, table: GameTable,
                       seat: int | None) -> None:
        """The session of a socket on another process: its intents from ``tunnel``,
        its frames to ``reply``, as ``session.py:run_session`` does with a socket."""
        config = self.hub.config
        out = Outbox(config.max_queued_frames, config.max_queued_bytes, tunnel.end)
        session = Session(None, self.hub, table, seat, out)
        sender = asyncio.get_running_loop().create_task(
            self._send_frames(rid, reply, out, tunnel))
        loop = asyncio.get_running_loop()
        hello_by = loop.time() + config.hello_timeout
        try:
            while not out.closing:
                try:
                    if session.sub is None:  # hello must come in time
                        data = await asyncio.wait_for(tunnel.take(),
                                                      hello_by - loop.time())
                    else:
                        data = await tunnel.take()
                except TimeoutError:
                    out.put_nowait(hello_late(config))
                    break
                if data is None or not await dispatch(session, data):
                    break
        finally:
            if session.sub is not None:
                table.unsubscribe(session.sub)
            out.put_nowait(None)
            with contextlib.suppress(Exception):
                await sender

    async def _send_frames(self, rid: str, reply: str, out: Outbox, tunnel: _Tunnel
                           ) -> None:
        """What the seat's outbox holds, in batches of :data:`MAX_BATCH` frames, then
        ``close`` with its code (and the session ends: ``tunnel``'s reader wakes)."""
        head = f'{{"t":"out","r":{json.dumps(rid)},"f":['
        try:
            while True:
                texts: list[str | None] = [await out.get()]
                while texts[-1] is not None and len(texts) < MAX_BATCH and not out.empty():
                    texts.append(out.get_nowait())
                frames = [t for t in texts if t is not None]
                if frames:  # the frames are JSON already: put in as they are
                    await self.cluster.bus.publish(reply, head + ",".join(frames) + "]}")
                if texts[-1] is None:
                    await self.cluster.publish(reply, {"t": "close", "r": rid,
                                                       "c": out.close_code})
                    return
        except Exception:  # the bus: the edge ends it when this process falls silent
            log.warning("process %s: could not send a forwarded seat's frames", self.cluster.id)
        finally:
            tunnel.end()

    # ------------------------------------------------------------ HTTP

    async def forward_http(self, scope: Scope, receive: Receive, send: Send,
                           owner: str) -> str:
        """Send the request whole to ``owner`` and its answer whole to the client.
        Returns ``done``, or ``moved`` (nothing sent: route it again).

        Raises:
            OwnerGone: the owner did not answer.
        """
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return "done"
            body += message.get("body", b"")
            if len(body) > MAX_BODY:
                await _answer(send, 413, {"error": f"the request's body is too large: at "
                                                   f"most {MAX_BODY} bytes",
                                          "rule": "too-large"})
                return "done"
            if not message.get("more_body"):
                break
        rid = secrets.token_hex(8)
        tunnel = self.outbound[rid] = _Tunnel(owner)
        self.forwarded += 1
        finished = False
        try:
            await self.cluster.publish(channel_of(owner), {
                "t": "request", "r": rid, "o": self.cluster.channel, "p": self.cluster.id,
                "method": scope["method"], "path": scope["path"],
                "query": scope.get("query_string", b"").decode("latin-1"),
                "headers": [[k.decode("latin-1"), v.decode("latin-1")]
                            for k, v in scope.get("headers") or ()],
                "client": list(scope["client"]) if scope.get("client") else None,
                "server": list(scope["server"]) if scope.get("server") else None,
                "scheme": scope.get("scheme", "http"),
                "body": base64.b64encode(bytes(body)).decode("ascii")})
            msg = await tunnel.take()
            finished = msg is not None
            if msg is None:
                raise OwnerGone(owner)
            if msg["t"] == "moved":
                return "moved"
            try:
                content = base64.b64decode(msg["body"])
                headers = [(str(k).encode("latin-1"), str(v).encode("latin-1"))
                           for k, v in msg["headers"]]
                status = int(msg["status"])
            except (KeyError, TypeError, ValueError, binascii.Error):
                raise OwnerGone(owner) from None
            with contextlib.suppress(Exception):  # the client went away
                await send({"type": "http.response.start", "status": status,
                            "headers": headers})
                await send({"type": "http.response.body", "body": content})
            return "done"
        finally:
            self.outbound.pop(rid, None)
            if not finished:
                await self._end(owner, rid)

    async def _serve(self, msg: dict[str, Any]) -> None:
        """Run another process's request through this app, and send back its answer."""
        rid, reply, peer = msg["r"], msg["o"], msg["p"]
        tunnel = self.inbound[rid] = _Tunnel(peer)
        try:
            path = msg["path"]
            table_id = table_of(path)
            self.served += 1
            if table_id is None or (table_id not in self.hub.tables and
                                    await self.hub.find(table_id) is None):
                await self.cluster.publish(reply, {"t": "moved", "r": rid})
                return
            scope: dict[str, Any] = {
                "type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"},
                "http_version": "1.1", "method": str(msg["method"]), "scheme": msg["scheme"],
                "path": path, "raw_path": path.encode(), "root_path": "",
                "query_string": str(msg["query"]).encode("latin-1"),
                "headers": [(str(k).encode("latin-1").lower(), str(v).encode("latin-1"))
                            for k, v in msg["headers"]],
                "client": tuple(msg["client"]) if msg.get("client") else None,
                "server": tuple(msg["server"]) if msg.get("server") else None,
                FORWARDED: peer, "app": self.app}
            body = base64.b64decode(msg["body"])
            answer = await self._run(scope, body, tunnel)
            if answer is not None:
                await self.cluster.publish(reply, {"t": "response", "r": rid, **answer})
        except Exception:
            log.exception("process %s: a request forwarded by %s failed", self.cluster.id,
                          peer)
            error = json.dumps({"error": "the request failed on the table's server process",
                                "rule": "server-error"}).encode()
            with contextlib.suppress(Exception):
                await self.cluster.publish(reply, {
                    "t": "response", "r": rid, "status": 500,
                    "headers": [["content-type", "application/json"],
                                ["content-length", str(len(error))]],
                    "body": base64.b64encode(error).decode("ascii")})
        finally:
            self.inbound.pop(rid, None)

    async def _run(self, scope: Scope, body: bytes, tunnel: _Tunnel
                   ) -> dict[str, Any] | None:
        """The app's answer to the request (status, headers, body), or None when the
        edge gave up (``end``) first."""
        sent = False
        answer: dict[str, Any] = {"status": 500, "headers": []}
        chunks: list[bytes] = []
        size = 0

        async def receive() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            await tunnel.take()  # the edge gave up, or this process stops
            return {"type": "http.disconnect"}

        async def send(message: Message) -> None:
            nonlocal size
            if message["type"] == "http.response.start":
                answer["status"] = message["status"]
                answer["headers"] = [[k.decode("latin-1"), v.decode("latin-1")]
                                     for k, v in message.get("headers") or ()]
            elif message["type"] == "http.response.body":
                size += len(message.get("body", b""))
                if size > MAX_RESPONSE:
                    raise OSError(f"an answer over {MAX_RESPONSE} bytes is not forwarded")
                chunks.append(message.get("body", b""))

        assert self.entry is not None
        app: asyncio.Future[None] = asyncio.ensure_future(self.entry(scope, receive, send))
        ended = asyncio.get_running_loop().create_task(tunnel.take())
        try:
            await asyncio.wait({app, ended}, return_when=asyncio.FIRST_COMPLETED)
            if not app.done():
                app.cancel()
                return None
            app.result()
        finally:
            ended.cancel()
        answer["body"] = base64.b64encode(b"".join(chunks)).decode("ascii")
        return answer
