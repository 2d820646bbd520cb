"""The table's WebSocket (``WS /tables/{id}/ws``): one connection's session.

:func:`table_socket` checks the handshake (the table, the origin, the seat
cookie, connections per address) and runs a :class:`Session`: every frame the
client sends is read by one parser (:class:`FrameReader`: text, size, rate,
JSON object) and handed by its ``type`` to the handler :data:`HANDLERS` names
(``hello``, ``act``, ``cut``, ``say``, ``back``, ``ping``).  What the session sends goes through
a bounded outbox (``connections.py:Outbox``) that one sender task drains.  The
protocol is in docs/server.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, WebSocketRoute
from starlette.types import Message
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..base.config import ServerConfig
from ..base.httplimits import client_address
from ..base.requests import JsonInputError, parse_json
from ..base.security import RateLimit, cookie_name, origin_allowed
from .connections import Outbox
from .hub import hub_of
from .table_blocks import listener, refresh_apart, watcher_account
from .tables import GameTable, ProtocolError, Subscriber

if TYPE_CHECKING:
    from .hub import Hub

MAX_REFUSED = 100
"""Frames refused for the rate limit after which the connection is closed."""


def error_frame(rule: str, message: str, seq: int | None = None) -> dict[str, Any]:
    """An ``error`` frame (``seq``: the table's event number, when it matters)."""
    frame: dict[str, Any] = {"type": "error", "rule": rule, "message": message}
    if seq is not None:
        frame["seq"] = seq
    return frame


class FrameRefused(Exception):
    """A frame that is not read: ``rule`` and the message go back in an ``error``
    frame; ``close``: the connection is closed after it."""

    def __init__(self, message: str, rule: str, close: bool = False) -> None:
        super().__init__(message)
        self.rule = rule
        self.close = close


class FrameReader:
    """The one parser of what a client sends on the socket, within its bounds."""

    def __init__(self, config: ServerConfig) -> None:
        self.max_frame = config.max_frame
        self.limiter = RateLimit(config.rate_per_second, config.rate_burst)
        self.refused = 0

    def read(self, message: Message) -> dict[str, Any]:
        """The JSON object of the ``websocket.receive`` ``message``.

        Raises:
            FrameRefused: not a text frame (``bad-frame``), larger than
                ``max_frame`` bytes (``too-large``; closes), over the rate limit
                (``rate-limit``; closes after :data:`MAX_REFUSED`), JSON refused
                by ``parse_json`` (its rule), not an object (``bad-json``).
        """
        text = message.get("text")
        if text is None:
            raise FrameRefused("send JSON text frames", "bad-frame")
        if len(text) > self.max_frame or len(text.encode("utf-8", "replace")) > self.max_frame:
            raise FrameRefused(f"frames are at most {self.max_frame} bytes", "too-large",
                               close=True)
        if not self.limiter.allow():
            self.refused += 1
            raise FrameRefused("too many messages; slow down", "rate-limit",
                               close=self.refused > MAX_REFUSED)
        try:
            data = parse_json(text, "the frame")
        except JsonInputError as exc:
            raise FrameRefused(str(exc), exc.rule) from None
        if not isinstance(data, dict):
            raise FrameRefused("a frame must be a JSON object", "bad-json")
        return data


class Session:
    """One accepted connection to ``table`` for ``seat`` (None: a spectator);
    ``websocket`` None: the socket is on another process (``relay.py``)."""

    def __init__(self, websocket: WebSocket | None, hub: Hub, table: GameTable,
                 seat: int | None, out: Outbox) -> None:
        self.websocket = websocket
        self.hub = hub
        self.table = table
        self.seat = seat
        self.out = out
        self.sub: Subscriber | None = None

    def send(self, frame: dict[str, Any] | None) -> None:
        """Queue ``frame`` (None: close the connection after what waits)."""
        self.out.put_nowait(frame)

    def refuse(self, rule: str, message: str, with_seq: bool = True) -> None:
        """Send an ``error`` frame (with the table's event number)."""
        self.send(error_frame(rule, message, self.table.seq if with_seq else None))

    def seated(self, doing: str) -> int | None:
        """The session's seat when it may ``doing`` (act, cut); else an error is sent."""
        if self.sub is None:
            self.refuse("hello-first", "send hello first", with_seq=False)
            return None
        if self.seat is None:
            self.refuse("spectator", f"spectators cannot {doing}")
            return None
        return self.seat


FrameHandler = Callable[[Session, dict[str, Any]], Awaitable[bool]]
"""A frame type's handler: False ends the session."""


async def on_hello(s: Session, data: dict[str, Any]) -> bool:
    """``hello {last_seq}``: subscribe (first time) and catch up from ``last_seq``."""
    last = data.get("last_seq", 0)
    if last is None:
        last = 0
    if not isinstance(last, int) or isinstance(last, bool):
        s.refuse("bad-field", "last_seq must be a number", with_seq=False)
        return True
    first = s.sub is None
    if first and s.hub.tables.get(s.table.id) is not s.table:
        s.send(None)  # it left memory meanwhile: reconnect to reload it
        return False
    if first:
        watcher = None  # a spectator signed in: whom it may not hear (blocks)
        if s.seat is None and s.websocket is not None:
            watcher = await watcher_account(s.hub, dict(s.websocket.cookies))
            if s.hub.tables.get(s.table.id) is not s.table:
                s.send(None)
                return False
        s.sub = s.table.subscribe(s.seat, s.out)
        s.sub.account = watcher
    for frame in s.table.catch_up(s.seat, last):
        s.send(frame)
    if first:
        s.table.broadcast(s.table.presence_frame())  # a connection came
    return True


async def on_act(s: Session, data: dict[str, Any]) -> bool:
    """``act {action, seq}``: the seat's action (``tables.py:GameTable.act``)."""
    seat = s.seated("act")
    if seat is None:
        return True
    action, seq = data.get("action"), data.get("seq")
    if not isinstance(action, str) or len(action) > 40:
        s.refuse("bad-field", "action must be the text of an action")
        return True
    if seq is not None and (not isinstance(seq, int) or isinstance(seq, bool)):
        s.refuse("bad-field", "seq must be a number")
        return True
    try:
        await s.table.act(seat, action, seq)
    except ProtocolError as exc:
        s.refuse(exc.rule, str(exc))
    return True


async def on_cut(s: Session, data: dict[str, Any]) -> bool:
    """``cut {deal, value, commitment}``: the seat's cut of the next deal."""
    seat = s.seated("cut")
    if seat is None:
        return True
    try:
        s.table.cuts.cut(seat, data.get("deal"), data.get("value"), data.get("commitment"))
    except ProtocolError as exc:
        await s.table.cuts.refuse(seat, data.get("deal"), exc)  # public, and recorded
        s.refuse(exc.rule, str(exc))
        return True
    s.send({"type": "cut", "deal": data["deal"], "accepted": True})
    return True


async def on_say(s: Session, data: dict[str, Any]) -> bool:
    """``say {message}``: a seated player's quick message (``quick_messages.py``),
    broadcast to every connection as ``chat {seat, message}`` but those of the seats
    kept apart from it by a block (``table_blocks.py``)."""
    seat = s.seated("send messages")
    if seat is None:
        return True
    try:
        frame = s.table.quick.say(seat, data.get("message"))
    except ProtocolError as exc:
        s.refuse(exc.rule, str(exc), with_seq=False)
        return True
    await refresh_apart(s.hub, s.table)  # blocks: the accounts kept apart do not hear it
    table = s.table
    table.broadcast(frame, table.quick.deaf(table.seats[seat].account,
                                            lambda sub: listener(table, sub)))
    return True


async def on_back(s: Session, data: dict[str, Any]) -> bool:
    """``back``: the person of a seat that ran out of time takes it back, at a casual
    table (``seat_clocks.py:SeatClocks.back``); ``seat-left`` where they may not."""
    seat = s.seated("take your seat back")
    if seat is None:
        return True
    if not await s.table.seat_clocks.back(seat):
        s.refuse("seat-left", "you cannot take this seat back: you left a rated match, "
                 "or your seat is yours already", with_seq=False)
    return True


async def on_ping(s: Session, data: dict[str, Any]) -> bool:
    """``ping``: ``pong``."""
    s.send({"type": "pong"})
    return True


HANDLERS: dict[str, FrameHandler] = {
    "hello": on_hello,
    "act": on_act,
    "cut": on_cut,
    "say": on_say,
    "back": on_back,
    "ping": on_ping,
}
"""The handler of each frame type a client may send (docs/server.md)."""


async def dispatch(session: Session, data: dict[str, Any]) -> bool:
    """Hand ``data`` (a frame as :class:`FrameReader` read it, here or where the
    socket is: ``relay.py``) to its type's handler, or send ``unknown-type``;
    False ends the session."""
    kind = data.get("type")
    on_frame = HANDLERS.get(kind) if isinstance(kind, str) else None
    if on_frame is None:
        session.send(error_frame("unknown-type", f"unknown message type {str(kind)[:40]!r}: "
                                 f"expected {', '.join(list(HANDLERS)[:-1])} or "
                                 f"{list(HANDLERS)[-1]}"))
        return True
    return await on_frame(session, data)


def hello_late(config: ServerConfig) -> dict[str, Any]:
    """The ``error`` frame of a session whose ``hello`` did not come in time."""
    return error_frame("hello-timeout", f"send hello within {config.hello_timeout:g} seconds")


async def table_socket(websocket: WebSocket) -> None:
    """One connection to a table: see the protocol in docs/server.md."""
    hub = hub_of(websocket)
    config = hub.config
    table = await hub.find(websocket.path_params["table_id"])
    if table is None:
        await websocket.close(code=4404)
        return
    if not origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host"),
                          config.allowed_origins):
        await websocket.close(code=4403)
        return
    seat = hub.seat_of(table, websocket.cookies)
    if seat is None and websocket.cookies.get(cookie_name(table.id)) and \
            hub.pending_take(table, websocket.cookies) is None:
        await websocket.close(code=4401)  # a cookie, but not a valid one (nor a request)
        return
    client = client_address(websocket.scope)
    if not hub.sockets.acquire(client):
        await websocket.send_denial_response(JSONResponse(
            {"error": f"too many open connections from your address (at most "
                      f"{config.max_connections_per_client})", "rule": "too-many-connections"},
            status_code=429))
        return
    try:
        await run_session(websocket, hub, table, seat)
    finally:
        hub.sockets.release(client)


async def run_session(websocket: WebSocket, hub: Hub, table: GameTable,
                      seat: int | None) -> None:
    """The accepted connection of :func:`table_socket`, until it closes."""
    config = hub.config
    await websocket.accept()
    handler = asyncio.current_task()
    assert handler is not None
    receiving = False

    def drop() -> None:
        """A client that does not read: stop waiting for its frames (cancelled only
        while waiting for one, never in the middle of a table's operation; else the
        loop ends after the operation)."""
        if receiving:
            handler.cancel()

    out = Outbox(config.max_queued_frames, config.max_queued_bytes, drop)
    session = Session(websocket, hub, table, seat, out)
    sender = asyncio.create_task(_sender(websocket, out))
    reader = FrameReader(config)
    clock = config.clock
    hello_by = clock.monotonic() + config.hello_timeout
    try:
        while not out.closing:
            receiving = True
            if session.sub is None:  # hello must come in time; pings do not extend it
                try:
                    message = await clock.wait_for(
                        websocket.receive(), hello_by - clock.monotonic())
                except TimeoutError:
                    receiving = False
                    out.put_nowait(hello_late(config))
                    break
            else:
                message = await websocket.receive()
            receiving = False
            if message["type"] == "websocket.disconnect":
                break
            try:
                data = reader.read(message)
            except FrameRefused as exc:
                out.put_nowait(error_frame(exc.rule, str(exc)))
                if exc.close:
                    out.put_nowait(None)
                    break
                continue
            if not await dispatch(session, data):
                break
    except WebSocketDisconnect:
        pass
    except asyncio.CancelledError:
        if not out.overflowed:
            raise
        handler.uncancel()  # our own: return, and uvicorn closes the connection
    finally:
        if session.sub is not None:
            table.unsubscribe(session.sub)
        if out.overflowed:  # it does not read: drop what waits for it, do not wait for it
            sender.cancel()
        else:
            out.put_nowait(None)
            with contextlib.suppress(Exception):
                await sender


async def _sender(websocket: WebSocket, queue: Outbox) -> None:
    try:
        while (frame := await queue.get()) is not None:
            await websocket.send_text(frame if isinstance(frame, str)
                                      else json.dumps(frame, ensure_ascii=False))
        await websocket.close(code=queue.close_code)
    except Exception:  # the client went away
        return


def routes() -> list[BaseRoute]:
    """The table's socket."""
    return [WebSocketRoute("/tables/{table_id}/ws", table_socket)]
