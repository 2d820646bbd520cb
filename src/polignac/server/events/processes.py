"""Arenas on several server processes (docs/events.md, "Several processes"): what lets
any process run a tournament's pairing, one at a time, and any process serve its page.

* **The lease** (:class:`ArenaLeases`): one process pairs a tournament at a time, the
  one holding its lease.  It is a row of the tables' lease table
  (``cluster/leases.py``) keyed ``arena:TID`` (a table id never holds a ``:``), taken
  with the same compare-and-set on its term, on the database's clock.  The runner
  takes or extends it at every round; on several processes the cluster's renewal
  (every third of ``lease_seconds``) extends it too, as every lease of the process.
  When the holder dies its lease lapses and the next round of another process takes
  it over.  The table sweep never sees it (``leases.orphans`` lists tables only).
* **The seat tokens** (:func:`seat_token`): a seated person's token is an HMAC of
  the table, the seat and the account under the site's key ``arena-seats``
  (``store/keys.py``), so any process can hand it to the signed-in account seated
  there (the tournament's stored match says which seat) and the database keeps only
  its hash, as for every seat.
* **The bus** (:class:`ArenaBus`): each change of a tournament is published on the
  cluster's bus (channel ``arena``), so that the standings sockets of every process
  hear it; one process: nothing is sent.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import json
import logging
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import SQLAlchemyError

from ..cluster import leases
from ..cluster.cluster import Cluster
from ..store.db import writing
from ..store.keys import server_key

if TYPE_CHECKING:
    from ..tables.hub import Hub

log = logging.getLogger("polignac.server")

PREFIX = "arena:"
"""The lease key of tournament TID is ``arena:TID``."""
CHANNEL = "arena"
"""The bus channel of the tournaments' changes."""
SEAT_KEY = "arena-seats"
"""The site key the seat tokens are made with (``server_keys``)."""
_TID_OK = re.compile(r"[A-Za-z0-9_\-]{8,24}")


def lease_key(tid: str) -> str:
    """The lease row's key of tournament ``tid``."""
    return PREFIX + tid


def seat_token(key: bytes, table_id: str, seat: int, account: int) -> str:
    """The seat token of ``account`` at ``seat`` of the arena table ``table_id``
    (URL-safe, 43 characters, as ``security.new_token``'s)."""
    mac = hmac.new(key, f"{table_id}\n{seat}\n{account}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).rstrip(b"=").decode("ascii")


class ArenaLeases:
    """The arena leases ``owner`` holds, ``seconds`` at a time (see the module);
    ``engine()`` gives the database engine."""

    def __init__(self, engine: Callable[[], Any], owner: str, seconds: float) -> None:
        self.engine = engine
        self.owner = owner
        self.seconds = seconds
        self.held: set[str] = set()
        """The tournaments whose lease this process took at its last try."""
        self.taken_over = 0
        """Leases taken from another process whose lease lapsed."""

    async def hold(self, tid: str) -> bool:
        """Take or extend the lease of ``tid``: True when this process holds it now.

        Raises:
            sqlalchemy.exc.SQLAlchemyError: the database cannot be reached.
        """
        got, previous = await asyncio.to_thread(
            leases.try_acquire, self.engine(), lease_key(tid), self.owner, self.seconds)
        if got and tid not in self.held:
            if previous:
                self.taken_over += 1
                log.info("arena %s: paired by process %s (took over from %s)", tid,
                         self.owner, previous)
            else:
                log.info("arena %s: paired by process %s", tid, self.owner)
        if got:
            self.held.add(tid)
        else:
            self.held.discard(tid)
        return got

    async def release(self, tid: str) -> None:
        """Give up the lease of ``tid`` (its arena is over); it lapses if this fails."""
        self.held.discard(tid)

        def run() -> None:
            with writing(self.engine()) as conn:
                leases.release(conn, lease_key(tid), self.owner)
        try:
            await asyncio.to_thread(run)
        except SQLAlchemyError:
            log.exception("arena %s: could not give up its lease", tid)

    async def release_all(self) -> None:
        """Give up every arena lease held (the process stops: another takes over)."""
        for tid in list(self.held):
            await self.release(tid)


class SeatKey:
    """The site's key of the arena seats' tokens, read once (``store/keys.py``)."""

    def __init__(self, engine: Callable[[], Any]) -> None:
        self.engine = engine
        self.key: bytes | None = None

    async def get(self) -> bytes:
        """The key (made by the first process that asks).

        Raises:
            sqlalchemy.exc.SQLAlchemyError: the database cannot be reached.
        """
        if self.key is None:
            self.key = await asyncio.to_thread(server_key, self.engine(), SEAT_KEY)
        return self.key


class ArenaBus:
    """The tournaments' changes between processes (see the module): :meth:`publish`
    sends one, and ``heard(tid)`` is called for each one another process sent."""

    def __init__(self, hub: Hub, heard: Callable[[str], None]) -> None:
        self.cluster = hub.cluster if isinstance(hub.cluster, Cluster) else None
        self.heard = heard
        self.subscribed = False
        self.received = 0

    async def start(self) -> None:
        """Listen to the channel (once; nothing on one process).

        Raises:
            RuntimeError, OSError, redis.RedisError, asyncpg.PostgresError: the bus
                refused (the runner tries again at its next round).
        """
        if self.cluster is None or self.subscribed:
            return
        await self.cluster.bus.subscribe(CHANNEL, self._on_message)
        self.subscribed = True

    def publish(self, tid: str) -> None:
        """Tell the other processes that ``tid`` changed (at most once, in the
        background; a message lost only delays their sockets to the next change)."""
        cluster = self.cluster
        if cluster is None:
            return

        async def send() -> None:
            with contextlib.suppress(Exception):
                await cluster.publish(CHANNEL, {"t": "arena", "p": cluster.id, "tid": tid})
        cluster.spawn(send())

    def _on_message(self, text: str) -> None:
        try:
            msg = json.loads(text)
            tid, sender = msg["tid"], msg["p"]
        except (ValueError, KeyError, TypeError):
            log.warning("arena: a malformed bus message")
            return
        if not isinstance(tid, str) or not _TID_OK.fullmatch(tid) or \
                self.cluster is None or sender == self.cluster.id:
            return
        self.received += 1
        self.heard(tid)


__all__ = ["ArenaBus", "ArenaLeases", "SeatKey", "lease_key", "seat_token"]
