"""Several server processes: table leases, the bus between processes, forwarding
of a table's requests to its owner, failover.

Used when the bus is not ``memory://`` (``polignac serve --workers N``, or
``--bus redis://...``); ``polignac serve`` alone never loads this module's
machinery.  docs/server.md, "Several processes", tells the whole story:

* each process has an id (``NAME-PID-RANDOM``) and a channel of its own on the bus;
* a table is owned by the process holding its lease (``leases.py``), renewed in
  one statement every third of ``lease_seconds``; a process that loses a lease
  drops the table and closes its sockets with 1012 (clients reconnect);
* a request for ``/tables/{id}/...`` that reaches a process which does not own
  the table goes through an ASGI tunnel: the request's ASGI messages go over the
  bus to the owner, which runs them through its own app (marked forwarded, so
  that it never forwards again) and sends back the ASGI messages of its answer;
* every process says it is alive on the bus every second; a tunnel whose other
  end falls silent for ``lease_seconds`` is ended (a WebSocket with 1012);
* every process sweeps for tables whose lease lapsed about every second and
  takes them over from the event log (bots, timers and grace periods resume as
  after a restart).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import json
import logging
import os
import re
import secrets
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import SQLAlchemyError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import handoff, leases
from .bus import Bus

if TYPE_CHECKING:
    from .app import Hub

log = logging.getLogger("polignac.server")

FORWARDED = "polignac.forwarded"
"""Scope key of a request run for another process (its id): never forwarded again."""
ALIVE = "polignac_alive"
"""The channel every process says it is alive on."""
EVERYONE = "polignac_all"
"""The channel every process listens to for questions to all (the lobby's list)."""
STICKY = b"x-polignac-sticky"
"""Request header of a reverse proxy that sends every request of a table to one
machine (deploy/nginx.conf: a consistent hash of the table id): the table's lease
then follows it to that machine (:meth:`Cluster.claim`)."""
MACHINE_ENV = "POLIGNAC_MACHINE"
"""Processes whose ``$POLIGNAC_MACHINE`` differ never hand connections to each other,
as if on two machines (tests play several machines on one)."""
GIVE_AFTER = 10.0
"""Seconds a process keeps a table it was given before it gives it away again."""
_TABLE_PATH = re.compile(r"^/tables/([A-Za-z0-9_\-]{1,32})(?:/|$)")
_SCOPE_KEYS = ("type", "asgi", "http_version", "method", "scheme", "path", "raw_path",
               "root_path", "query_string", "headers", "client", "server", "subprotocols")
MAX_RELAYED = 256
"""Messages a tunnel keeps for a client whose send is blocked, at most: one more and
the tunnel ends (its owner hears ``end``; what waits is dropped)."""


def process_id(name: str | None) -> str:
    """A new process id: ``NAME-PID-RANDOM`` (NAME: the host name by default); unique
    at each start, so that a restarted process never takes its old leases for its own."""
    base = re.sub(r"[^A-Za-z0-9_.\-]", "", name or socket.gethostname())[:64] or "polignac"
    return f"{base}-{os.getpid()}-{secrets.token_hex(3)}"


def channel_of(process: str) -> str:
    """The bus channel of process ``process`` (an identifier PostgreSQL takes)."""
    return "polignac_" + hashlib.sha256(process.encode()).hexdigest()[:24]


def table_of(path: str) -> str | None:
    """The table id of a ``/tables/{id}[/...]`` path, or None."""
    found = _TABLE_PATH.match(path)
    return found.group(1) if found else None


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


class OwnerGone(Exception):
    """The table's owner fell silent (or nobody could take the table) in time."""


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


class Solo:
    """The one-process stand-in for :class:`Cluster` (``memory://``): the hub calls it
    as it calls a cluster, and nothing happens: no bus, no lease, nothing forwarded,
    every table this process's."""

    loads_all = True
    """The hub loads every table in play at start (nobody else could)."""

    def __init__(self) -> None:
        self.id = f"{socket.gethostname()}-{os.getpid()}"

    async def start(self) -> None:
        """Nothing to join."""

    def halt(self) -> None:
        """Nothing to stop."""

    async def close(self) -> None:
        """Nothing to give up."""

    def serve(self, app: Any, lister: Callable[[], list[dict[str, Any]]]) -> None:
        """Nothing to route: every table is here."""

    def claim_new(self, conn: Any, table_id: str) -> None:
        """No lease to write."""

    async def acquire(self, table_id: str) -> bool:
        """Every table is this process's."""
        return True

    async def release(self, table_id: str) -> None:
        """No lease to give up."""

    async def gather(self, mine: list[dict[str, Any]], wait: float = 0.5
                     ) -> list[dict[str, Any]]:
        """The lobby's list: this process's entries are all of them."""
        return mine

    async def ready(self) -> bool:
        """No bus to wait for."""
        return True

    def stats(self) -> None:
        """Nothing crosses between processes (``GET /health``'s ``cluster``: null)."""
        return None


class Cluster:
    """This process's part in a cluster of server processes (see the module)."""

    loads_all = False
    """Tables come by request, or are taken over when their lease lapses."""

    def __init__(self, hub: Hub) -> None:
        config = hub.config
        self.hub = hub
        self.id = process_id(config.process_name)
        self.channel = channel_of(self.id)
        self.seconds = config.lease_seconds
        self.bus = Bus(config.bus_url, secret=config.bus_secret)
        self.entry: ASGIApp | None = None
        """The app below the router (set by :class:`ClusterRouter`): forwarded requests."""
        self.app: Any = None
        """The Starlette app (``scope["app"]`` of forwarded requests)."""
        self.seen: dict[str, float] = {}
        self.inbound: dict[str, _Tunnel] = {}
        self.outbound: dict[str, _Tunnel] = {}
        self.tasks: list[asyncio.Task[None]] = []
        self.started_at = time.monotonic()
        self.leases = leases.LeaseKeeper(hub, self.id, self.seconds, lambda: self.engine)
        """This process's leases (leases.py): the tables it owns."""
        self.forwarded = 0
        """Requests this process sent to another (for /health and tests)."""
        self.served = 0
        """Requests another process forwarded to this one."""
        self.lister: Callable[[], list[dict[str, Any]]] = list
        """This process's entries of the lobby's list (set by the app)."""
        self.handoff = handoff.Handoff(
            f"{config.url()}\n{config.bus_secret}\n{os.environ.get(MACHINE_ENV, '')}",
            self.id, self.owner_of, table_of, timeout=config.header_timeout)
        """Connections for another process's table, handed over (handoff.py)."""
        self._owners: dict[str, tuple[str | None, float]] = {}
        self.given: dict[str, float] = {}
        """When this process last took a table another process gave it (by table)."""
        self.gave = 0
        """Tables this process gave to the process a sticky proxy sends them to."""
        self.asked: dict[str, float] = {}
        """When this process last asked for a table (by table)."""

    # ------------------------------------------------------------ life

    @property
    def engine(self) -> Any:
        """The hub's database engine."""
        assert self.hub.store is not None
        return self.hub.store.engine

    async def start(self) -> None:
        """Connect to the bus, subscribe, start the heartbeat, renewal and sweep.

        Raises:
            OSError, redis.RedisError, asyncpg.PostgresError: the bus cannot be reached.
        """
        self.started_at = time.monotonic()
        await self.bus.connect()
        await self.bus.subscribe(self.channel, self._on_message)
        await self.bus.subscribe(ALIVE, self._on_alive)
        await self.bus.subscribe(EVERYONE, self._on_message)
        loop = asyncio.get_running_loop()
        for job in (self._heartbeat, self._watch):
            self.tasks.append(loop.create_task(job()))
        self.leases.start()
        handoff.install(self.handoff)  # the server listens for it once it serves
        log.info("process %s: serving tables on the bus %s (leases of %g s)", self.id,
                 _safe_url(self.bus.url), self.seconds)

    def halt(self) -> None:
        """Stop taking tables over and renewing (the first step of stopping)."""
        if handoff.current() is self.handoff:
            handoff.install(None)
        self.handoff.close()
        self.leases.halt()
        for task in self.tasks:
            task.cancel()
        self.tasks.clear()
        for tunnel in list(self.inbound.values()):
            tunnel.queue.put_nowait(_disconnect(tunnel.websocket))
        for tunnel in list(self.outbound.values()):
            tunnel.queue.put_nowait(None)

    async def close(self) -> None:
        """Give up every lease (others take the tables over at once) and disconnect.
        Call after the writer has written everything."""
        self.halt()
        await self.leases.release_all()
        await self.bus.close()

    def alive(self, process: str) -> bool:
        """Whether ``process`` said it was alive within ``lease_seconds`` (a process
        never heard of counts as alive for ``lease_seconds`` after this one started)."""
        if process == self.id:
            return True
        return self.seen.get(process, self.started_at) > time.monotonic() - self.seconds

    async def ready(self) -> bool:
        """Whether the bus carries a message to this process and back within 2 s."""
        rid = secrets.token_hex(8)
        tunnel = self.outbound[rid] = _Tunnel(self.id)
        try:
            await self._publish(self.channel, {"t": "ping", "r": rid, "o": self.channel})
            msg = await asyncio.wait_for(tunnel.queue.get(), 2.0)
            return isinstance(msg, dict) and msg.get("t") == "pong"
        except (TimeoutError, OSError, RuntimeError, ConnectionError):
            return False
        except Exception:  # the bus library's own errors (redis, asyncpg)
            log.exception("process %s: the bus does not answer", self.id)
            return False
        finally:
            self.outbound.pop(rid, None)

    def serve(self, app: Any, lister: Callable[[], list[dict[str, Any]]]) -> None:
        """Route ``app``'s requests for another process's table (:class:`ClusterRouter`)
        and answer the lobby's question with ``lister()``."""
        self.app = app
        self.lister = lister
        app.add_middleware(ClusterRouter, cluster=self)

    def stats(self) -> dict[str, int]:
        """What crossed between processes (``GET /health``'s ``cluster``): requests
        forwarded to another process and from one, connections handed over to one and
        from one, connections kept though another process owned their table, bus
        messages refused (not signed with the secret)."""
        return {"forwarded": self.forwarded, "served_forwarded": self.served,
                "handed_over": self.handoff.sent, "handed_in": self.handoff.received,
                "kept": self.handoff.kept, "gave": self.gave,
                "bus_refused": self.bus.refused}

    # ------------------------------------------------------------ leases

    def claim_new(self, conn: Any, table_id: str) -> None:
        """The lease of a table this process creates, in the transaction that stores it."""
        self.leases.claim_new(conn, table_id)

    async def acquire(self, table_id: str) -> bool:
        """Take the lease of ``table_id`` (free, lapsed or ours).

        Raises:
            sqlalchemy.exc.SQLAlchemyError: the database cannot be reached.
        """
        return await self.leases.acquire(table_id)

    async def release(self, table_id: str) -> None:
        """Give up the lease of ``table_id`` (a table that left memory)."""
        await self.leases.release(table_id)

    # ------------------------------------------------------------ the bus

    async def _publish(self, channel: str, obj: dict[str, Any]) -> None:
        await self.bus.publish(channel, json.dumps(obj, separators=(",", ":"),
                                                   ensure_ascii=False))

    async def _heartbeat(self) -> None:
        beat = json.dumps({"p": self.id})
        while True:
            with contextlib.suppress(Exception):
                await self.bus.publish(ALIVE, beat)
            await asyncio.sleep(min(1.0, self.seconds / 4))

    def _on_alive(self, text: str) -> None:
        try:
            process = json.loads(text)["p"]
        except (ValueError, KeyError, TypeError):
            return
        if isinstance(process, str):
            self.seen[process] = time.monotonic()

    def _on_message(self, text: str) -> None:
        try:
            msg = json.loads(text)
            kind, rid = msg["t"], msg["r"]
        except (ValueError, KeyError, TypeError):
            log.warning("process %s: a malformed bus message", self.id)
            return
        if kind == "open":
            asyncio.get_running_loop().create_task(self._serve(msg))
        elif kind == "in":
            tunnel = self.inbound.get(rid)
            if tunnel is not None and not tunnel.put(decode(msg["m"])):
                tunnel.queue.put_nowait(_disconnect(tunnel.websocket))
        elif kind == "end":
            tunnel = self.inbound.get(rid)
            if tunnel is not None:
                tunnel.queue.put_nowait(_disconnect(tunnel.websocket))
        elif kind == "give":
            asyncio.get_running_loop().create_task(self._give(msg))
        elif kind == "list":
            if msg.get("p") != self.id:
                asyncio.get_running_loop().create_task(self._answer_list(msg))
        elif kind == "ping":
            asyncio.get_running_loop().create_task(
                self._publish(msg["o"], {"t": "pong", "r": rid}))
        else:  # go, out, done, moved, pong, listed: for a tunnel (or a question) of ours
            tunnel = self.outbound.get(rid)
            if tunnel is not None and not tunnel.put(msg) and msg.get("t") == "out":
                self.outbound.pop(rid, None)  # the client does not read: end it at the owner
                asyncio.get_running_loop().create_task(self._end(tunnel.peer, rid))

    async def _give(self, msg: dict[str, Any]) -> None:
        """Another process asks for a table of ours, because the proxy sends the
        table's requests to it: let it go (its sockets close with 1012 and reconnect
        through the proxy), unless this process was given it a moment ago."""
        table_id, to = msg.get("table"), msg.get("p")
        table = self.hub.tables.get(table_id) if isinstance(table_id, str) else None
        if table is None or not isinstance(to, str) or \
                time.monotonic() - self.given.get(table.id, -GIVE_AFTER) < GIVE_AFTER:
            return
        self.gave += 1
        await self.hub.drop(table, f"given to process {to}, where the proxy sends it")
        await self.release(table.id)

    def may_claim(self, table_id: str, owner: str) -> bool:
        """Whether to ask ``owner`` for ``table_id`` (:meth:`claim`): it is on another
        machine, and this process did not ask for the table a moment ago."""
        now = time.monotonic()
        if now - self.asked.get(table_id, -GIVE_AFTER) < GIVE_AFTER or \
                self.handoff.local(owner):
            return False
        if len(self.asked) > 10_000:
            self.asked = {k: t for k, t in self.asked.items() if now - t < GIVE_AFTER}
        self.asked[table_id] = now
        return True

    async def claim(self, table_id: str, owner: str) -> None:
        """Ask ``owner`` (alive, on another machine) to give ``table_id`` to this
        process, and wait until its lease is free (2 s at most: it may keep it).

        Raises:
            sqlalchemy.exc.SQLAlchemyError: the database cannot be reached.
        """
        with contextlib.suppress(Exception):
            await self._publish(channel_of(owner), {"t": "give", "r": "", "p": self.id,
                                                    "table": table_id})
        deadline = time.monotonic() + min(2.0, self.seconds)
        while time.monotonic() < deadline:
            await asyncio.sleep(0.05)
            lease = await self.leases.read(table_id)
            if lease is None or lease.owner != owner or lease.lapsed:
                self.given[table_id] = time.monotonic()
                self._owners.pop(table_id, None)
                return

    async def _answer_list(self, msg: dict[str, Any]) -> None:
        with contextlib.suppress(Exception):
            await self._publish(msg["o"], {"t": "listed", "r": msg["r"], "p": self.id,
                                           "e": self.lister()})

    async def gather(self, mine: list[dict[str, Any]], wait: float = 0.5
                     ) -> list[dict[str, Any]]:
        """``mine`` and every other live process's entries of the lobby's list, as
        many as answer within ``wait`` seconds (each table once: its owner's)."""
        rid = secrets.token_hex(8)
        tunnel = self.outbound[rid] = _Tunnel(self.id)
        expected = {p for p in self.seen if p != self.id and self.alive(p)}
        out = {e["id"]: e for e in mine}
        try:
            await self._publish(EVERYONE, {"t": "list", "r": rid, "o": self.channel,
                                           "p": self.id})
            deadline = time.monotonic() + wait
            while expected and (left := deadline - time.monotonic()) > 0:
                try:
                    msg = await asyncio.wait_for(tunnel.queue.get(), left)
                except TimeoutError:
                    break
                if isinstance(msg, dict) and msg.get("t") == "listed":
                    expected.discard(msg.get("p"))
                    for entry in msg.get("e") or []:
                        out.setdefault(entry["id"], entry)
        except Exception:  # the bus: this process's own tables only
            log.exception("process %s: could not gather the lobby's list", self.id)
        finally:
            self.outbound.pop(rid, None)
        return list(out.values())

    async def _watch(self) -> None:
        """End the tunnels whose other process fell silent; forget processes silent
        for ten minutes."""
        while True:
            await asyncio.sleep(0.5)
            old = time.monotonic() - 600
            for process in [p for p, at in self.seen.items() if at < old]:
                del self.seen[process]
            for tunnel in list(self.inbound.values()):
                if not self.alive(tunnel.peer):
                    tunnel.queue.put_nowait(_disconnect(tunnel.websocket))
            for tunnel in list(self.outbound.values()):
                if not self.alive(tunnel.peer):
                    tunnel.queue.put_nowait(None)

    # ------------------------------------------------------------ routing

    async def route(self, table_id: str) -> str | None:
        """Where a request for ``table_id`` is served: None here (the table is ours
        now, or there is no such table), else the owner's process id.  A table with
        no lease, or a lapsed one, is taken here; a silent owner's lease is waited
        for until it lapses.

        Raises:
            OwnerGone: nobody could take the table within two leases.
            sqlalchemy.exc.SQLAlchemyError: the database cannot be reached.
        """
        deadline = time.monotonic() + 2 * self.seconds + 1
        while True:
            if table_id in self.hub.tables:
                return None
            lease = await self.leases.read(table_id)
            if lease is not None and lease.owner != self.id and not lease.lapsed:
                if self.alive(lease.owner):
                    return lease.owner
            elif await self.hub.find(table_id) is not None:
                return None
            elif await self.leases.read(table_id) is None:
                return None  # no such table: the app answers 404
            if time.monotonic() > deadline:
                raise OwnerGone(table_id)
            await asyncio.sleep(0.2)

    async def owner_of(self, table_id: str) -> str | None:
        """The live process that owns ``table_id`` by its lease, when it is not this
        one (None: this one, nobody, or a lapsed lease); known for a second.

        Raises:
            sqlalchemy.exc.SQLAlchemyError: the database cannot be reached.
        """
        if table_id in self.hub.tables:
            return None
        now = time.monotonic()
        known = self._owners.get(table_id)
        if known is not None and known[1] > now:
            return known[0]
        lease = await self.leases.read(table_id)
        owner = lease.owner if lease is not None and not lease.lapsed and \
            lease.owner != self.id and self.alive(lease.owner) else None
        if len(self._owners) > 10_000:
            self._owners = {k: v for k, v in self._owners.items() if v[1] > now}
        self._owners[table_id] = (owner, now + 1.0)
        return owner

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
            await self._publish(target, {"t": "open", "r": rid, "o": self.channel,
                                         "p": self.id, "s": encode(sent)})
            while True:
                msg = await tunnel.queue.get()
                if msg is None:
                    if tunnel.overflowed:  # the owner heard "end" already
                        finished = True
                        log.warning("process %s: a forwarded client does not read; its "
                                    "tunnel ends", self.id)
                    elif not started:
                        raise OwnerGone(owner)
                    else:
                        log.warning("process %s: the owner %s of a forwarded request "
                                    "fell silent", self.id, owner)
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
                    await self._publish(target, {"t": "end", "r": rid})

    async def _end(self, peer: str, rid: str) -> None:
        with contextlib.suppress(Exception):
            await self._publish(channel_of(peer), {"t": "end", "r": rid})

    async def _pump(self, rid: str, target: str, receive: Receive) -> None:
        """The client's ASGI messages to the owner, until it disconnects."""
        with contextlib.suppress(Exception):
            while True:
                message = await receive()
                await self._publish(target, {"t": "in", "r": rid, "m": encode(message)})
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
            await self._publish(reply, {"t": "out", "r": rid, "m": encode(message)})

        try:
            table_id = table_of(scope.get("path", ""))
            if table_id is not None and table_id not in self.hub.tables and \
                    await self.hub.find(table_id) is None:
                await self._publish(reply, {"t": "moved", "r": rid})
                return
            await self._publish(reply, {"t": "go", "r": rid})
            assert self.entry is not None
            await self.entry(scope, receive, send)
        except Exception:
            log.exception("process %s: a request forwarded by %s failed", self.id, peer)
        finally:
            self.inbound.pop(rid, None)
            with contextlib.suppress(Exception):
                await self._publish(reply, {"t": "done", "r": rid})


def _disconnect(websocket: bool) -> Message:
    if websocket:
        return {"type": "websocket.disconnect", "code": 1006}
    return {"type": "http.disconnect"}


def _safe_url(url: str) -> str:
    """``url`` without its password."""
    return re.sub(r"//([^:/@]*):[^@/]*@", r"//\1:***@", url)


class ClusterRouter:
    """ASGI middleware: a request for a table another process owns goes to that
    process (:meth:`Cluster.forward`); everything else, and every forwarded
    request, is served here."""

    def __init__(self, app: ASGIApp, cluster: Cluster) -> None:
        self.app = app
        self.cluster = cluster
        cluster.entry = app

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
                if await self.cluster.forward(scope, receive, send, owner) == "done":
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
