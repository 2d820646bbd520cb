"""Several server processes: this process's part in a cluster (:class:`Cluster`),
or the one-process stand-in (``tables/solo.py:Solo``).

Used when the bus is not ``memory://`` (``polignac serve --workers N``, or
``--bus redis://...``); ``polignac serve`` alone never loads this module's
machinery.  docs/server.md, "Several processes", tells the whole story; the jobs
are split by module:

* ``leases.py``: a table is owned by the process holding its lease, renewed in
  one statement every third of ``lease_seconds``; a process that loses a lease
  drops the table and closes its sockets with 1012 (clients reconnect); every
  process sweeps for tables whose lease lapsed about every second and takes
  them over from the event log (bots, timers and grace periods resume as after
  a restart);
* ``peers.py``: each process has an id (``NAME-PID-RANDOM``) and a channel of its
  own on the bus, says it is alive every second, and answers the lobby's list;
* ``handoff.py``: a connection for another process's table of this machine is
  handed to it as it arrives;
* ``relay.py``: a request that still reaches a process which does not own its
  table is forwarded to the owner over the bus;
* here: the bus's messages, routing (who serves a table now) and the sticky
  proxy's claims (a table's lease follows the machine the proxy sends it to).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import time
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from . import handoff, leases
from .bus import Bus
from .peers import ALIVE, EVERYONE, Peers, channel_of, process_id
from .relay import Relay
from .router import ClusterRouter
from .tunnel import STICKY, OwnerGone, table_of

if TYPE_CHECKING:
    from ..tables.hub import Hub

__all__ = ["STICKY", "Cluster", "OwnerGone", "channel_of", "process_id", "table_of"]

log = logging.getLogger("polignac.server")

MACHINE_ENV = "POLIGNAC_MACHINE"
"""Processes whose ``$POLIGNAC_MACHINE`` differ never hand connections to each other,
as if on two machines (tests play several machines on one)."""
GIVE_AFTER = 10.0
"""Seconds a process keeps a table it was given before it gives it away again."""


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
        self.peers = Peers(self.id, self.channel, self.seconds, self.publish,
                           lambda beat: self.bus.publish(ALIVE, beat))
        """The other processes: heartbeats, the lobby's list (peers.py)."""
        self.relay = Relay(self)
        """Requests forwarded to an owner, and from another process (relay.py)."""
        self.tasks: list[asyncio.Task[None]] = []
        self._jobs: set[asyncio.Task[None]] = set()
        self.leases = leases.LeaseKeeper(hub, self.id, self.seconds, lambda: self.engine)
        """This process's leases (leases.py): the tables it owns."""
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
        self.peers.started_at = time.monotonic()
        await self.bus.connect()
        await self.bus.subscribe(self.channel, self._on_message)
        await self.bus.subscribe(ALIVE, self.peers.on_alive)
        await self.bus.subscribe(EVERYONE, self._on_message)
        loop = asyncio.get_running_loop()
        for job in (self.peers.heartbeat, self._watch):
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
        self.relay.end_all()

    async def close(self) -> None:
        """Give up every lease (others take the tables over at once) and disconnect.
        Call after the writer has written everything."""
        self.halt()
        await self.leases.release_all()
        await self.bus.close()

    def alive(self, process: str) -> bool:
        """Whether ``process`` said it was alive within ``lease_seconds`` (peers.py)."""
        return self.peers.alive(process)

    async def ready(self) -> bool:
        """Whether the bus carries a message to this process and back within 2 s."""
        return await self.peers.ready()

    async def gather(self, mine: list[dict[str, Any]], wait: float = 0.5
                     ) -> list[dict[str, Any]]:
        """``mine`` and every other live process's entries of the lobby's list."""
        return await self.peers.gather(mine, wait)

    def serve(self, app: Any, lister: Callable[[], list[dict[str, Any]]]) -> None:
        """Route ``app``'s requests for another process's table (:class:`ClusterRouter`)
        and answer the lobby's question with ``lister()``."""
        self.relay.app = app
        self.peers.lister = lister
        app.add_middleware(ClusterRouter, cluster=self)

    def stats(self) -> dict[str, int]:
        """What crossed between processes (``GET /health``'s ``cluster``): requests
        forwarded to another process and from one, connections handed over to one and
        from one, connections kept though another process owned their table, bus
        messages refused (not signed with the secret), sent and received, sweeps for
        lapsed leases done."""
        return {"forwarded": self.relay.forwarded, "served_forwarded": self.relay.served,
                "handed_over": self.handoff.sent, "handed_in": self.handoff.received,
                "kept": self.handoff.kept, "waited": self.handoff.waited, "gave": self.gave,
                "bus_refused": self.bus.refused, "bus_sent": self.bus.sent,
                "bus_received": self.bus.received, "sweeps": self.leases.sweeps}

    async def _watch(self) -> None:
        """End the forwardings whose other process fell silent; forget processes silent
        for ten minutes."""
        while True:
            await asyncio.sleep(0.5)
            self.peers.forget_silent()
            self.relay.end_silent()

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

    async def publish(self, channel: str, obj: dict[str, Any]) -> None:
        """Publish ``obj`` as JSON on ``channel`` (signed by the bus).

        Raises:
            RuntimeError: not connected.
            OSError, redis.RedisError, asyncpg.PostgresError: the bus refused it.
        """
        await self.bus.publish(channel, json.dumps(obj, separators=(",", ":"),
                                                   ensure_ascii=False))

    def spawn(self, job: Coroutine[Any, Any, None]) -> None:
        """Run ``job`` on the loop, kept until it ends."""
        task = asyncio.get_running_loop().create_task(job)
        self._jobs.add(task)
        task.add_done_callback(self._jobs.discard)

    def _on_message(self, text: str) -> None:
        try:
            msg = json.loads(text)
            kind, rid = msg["t"], msg["r"]
            if not isinstance(kind, str) or not isinstance(rid, str):
                raise TypeError(kind)
        except (ValueError, KeyError, TypeError):
            log.warning("process %s: a malformed bus message", self.id)
            return
        if self.relay.on_message(kind, rid, msg, len(text)):
            return
        if kind == "give":
            self.spawn(self._give(msg))
        elif kind == "list":
            self.spawn(self.peers.answer_list(msg))
        elif kind == "ping":
            self.spawn(self.peers.answer_ping(msg))
        elif kind in ("pong", "listed"):
            self.peers.deliver(msg)

    # ------------------------------------------------------------ the sticky proxy

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
            await self.publish(channel_of(owner), {"t": "give", "r": "", "p": self.id,
                                                    "table": table_id})
        deadline = time.monotonic() + min(2.0, self.seconds)
        while time.monotonic() < deadline:
            await asyncio.sleep(0.05)
            lease = await self.leases.read(table_id)
            if lease is None or lease.owner != owner or lease.lapsed:
                self.given[table_id] = time.monotonic()
                self._owners.pop(table_id, None)
                return

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


def _safe_url(url: str) -> str:
    """``url`` without its password."""
    return re.sub(r"//([^:/@]*):[^@/]*@", r"//\1:***@", url)
