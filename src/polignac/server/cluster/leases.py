"""Table leases in the database: one owner process per table at a time.

A lease row says which process owns a table and until when (``expires``, in
epoch seconds of the **database's** clock, so that machines' clocks do not
matter).  The owner renews all its leases in one statement every third of the
lease; a lease that has lapsed may be taken over by any process, by a
compare-and-set on its ``term``.  Leases decide who *should* write; the events'
primary key ``(table_id, seq)`` is what stops a stale owner that still writes
(its insert fails and it drops the table).

Blocking functions: call them from a thread, with a connection in a transaction.
:class:`LeaseKeeper` is one process's side of them, on its event loop: acquire,
release, renew every third of the lease (dropping the tables whose lease was lost)
and sweep for lapsed leases to take over; it knows nothing of the bus
(``cluster.py`` is the transport between processes).
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import (
    Connection,
    Engine,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from ..store.db import now_sql, writing
from ..store.schema import leases_t, tables_t


@dataclass(frozen=True)
class Lease:
    """A lease as read: its owner, when it lapses and the database's time then."""

    table_id: str
    owner: str
    expires: float
    term: int
    now: float

    @property
    def lapsed(self) -> bool:
        """True once the owner has not renewed it in time."""
        return self.expires <= self.now


def read(conn: Connection, table_id: str) -> Lease | None:
    """The lease of ``table_id``, or None when it has none."""
    row = conn.execute(select(leases_t.c.owner, leases_t.c.expires, leases_t.c.term,
                              now_sql(conn).label("now"))
                       .where(leases_t.c.table_id == table_id)).first()
    if row is None:
        return None
    return Lease(table_id, row.owner, float(row.expires), int(row.term), float(row.now))


def acquire(conn: Connection, table_id: str, owner: str, seconds: float
            ) -> tuple[bool, str | None]:
    """Take or extend the lease of ``table_id`` for ``owner``: held by nobody, lapsed,
    or already ``owner``'s.  Returns (acquired, previous owner: None when there was
    no lease or it was already ``owner``'s).  Run it in a transaction of its own: a
    lost race on the insert raises.

    Raises:
        sqlalchemy.exc.IntegrityError: another process inserted the lease first.
    """
    now = now_sql(conn)
    lease = read(conn, table_id)
    if lease is None:
        conn.execute(insert(leases_t).values(table_id=table_id, owner=owner,
                                             expires=now + seconds, term=1))
        return True, None
    if lease.owner == owner:
        done = conn.execute(update(leases_t).where(leases_t.c.table_id == table_id,
                                                   leases_t.c.owner == owner)
                            .values(expires=now + seconds)).rowcount
        return done == 1, None
    if not lease.lapsed:
        return False, lease.owner
    done = conn.execute(update(leases_t).where(
        leases_t.c.table_id == table_id, leases_t.c.term == lease.term,
        leases_t.c.expires <= now).values(owner=owner, expires=now + seconds,
                                          term=lease.term + 1)).rowcount
    return done == 1, lease.owner


def try_acquire(engine: Engine, table_id: str, owner: str, seconds: float
                ) -> tuple[bool, str | None]:
    """:func:`acquire` in a write transaction of its own (``db.writing``); a lost race
    is (False, None).

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the database cannot be reached.
    """
    try:
        with writing(engine) as conn:
            result: tuple[bool, str | None] = acquire(conn, table_id, owner, seconds)
            return result
    except IntegrityError:
        return False, None


def renew(conn: Connection, owner: str, seconds: float) -> set[str]:
    """Extend every lease ``owner`` still holds, in one statement; the tables' ids.

    A lease that lapsed but that nobody took over is extended too.
    """
    rows = conn.execute(update(leases_t).where(leases_t.c.owner == owner)
                        .values(expires=now_sql(conn) + seconds)
                        .returning(leases_t.c.table_id))
    return {r.table_id for r in rows}


def release(conn: Connection, table_id: str, owner: str) -> None:
    """Give up ``owner``'s lease of ``table_id`` (nothing if it is not ``owner``'s)."""
    conn.execute(delete(leases_t).where(leases_t.c.table_id == table_id,
                                        leases_t.c.owner == owner))


def release_all(conn: Connection, owner: str) -> None:
    """Give up every lease ``owner`` holds."""
    conn.execute(delete(leases_t).where(leases_t.c.owner == owner))


def orphans(conn: Connection, limit: int = 50) -> list[str]:
    """Tables still in play (neither closed nor finished) whose lease lapsed or that
    have none, oldest lapse first, at most ``limit``."""
    j = tables_t.outerjoin(leases_t, leases_t.c.table_id == tables_t.c.id)
    rows = conn.execute(select(tables_t.c.id).select_from(j).where(
        tables_t.c.closed_at.is_(None), tables_t.c.finished_at.is_(None),
        leases_t.c.table_id.is_(None) | (leases_t.c.expires <= now_sql(conn)))
        .order_by(leases_t.c.expires).limit(limit))
    return [r.id for r in rows]


def owners(conn: Connection, table_ids: list[str]) -> dict[str, Lease]:
    """The leases of ``table_ids`` that exist."""
    if not table_ids:
        return {}
    now = now_sql(conn)
    rows = conn.execute(select(leases_t.c.table_id, leases_t.c.owner, leases_t.c.expires,
                               leases_t.c.term, now.label("now"))
                        .where(leases_t.c.table_id.in_(table_ids)))
    return {r.table_id: Lease(r.table_id, r.owner, float(r.expires), int(r.term),
                              float(r.now)) for r in rows}


log = logging.getLogger("polignac.server")


class Tables(Protocol):
    """What the lease keeper needs of the hub: its tables, and dropping or taking one."""

    config: Any
    tables: dict[str, Any]
    loading: dict[str, Any]

    async def drop(self, table: Any, why: str) -> None:
        """Take ``table`` out of memory at once (its lease is lost)."""

    async def adopt(self, table_id: str) -> str:
        """Take over ``table_id``, whose lease lapsed, from its event log."""


class LeaseKeeper:
    """One process's leases: ``owner`` holds them for ``seconds`` at a time, for the
    tables of ``hub`` (see the module).  ``engine``: the database engine, asked for
    when needed (the hub opens it at start)."""

    def __init__(self, hub: Tables, owner: str, seconds: float,
                 engine: Callable[[], Any]) -> None:
        self.hub = hub
        self.owner = owner
        self.seconds = seconds
        self.engine = engine
        self.last_renewed = time.monotonic()
        self.tasks: list[asyncio.Task[None]] = []
        self.sweeps = 0
        """Sweeps done (``GET /health``'s ``cluster.sweeps``: a watcher's clock)."""

    def start(self) -> None:
        """Renew every third of the lease, and sweep for lapsed leases, from now on."""
        self.last_renewed = time.monotonic()
        loop = asyncio.get_running_loop()
        self.tasks += [loop.create_task(self._renewal()), loop.create_task(self._sweep())]

    def halt(self) -> None:
        """Stop renewing and sweeping."""
        for task in self.tasks:
            task.cancel()
        self.tasks.clear()

    async def release_all(self) -> None:
        """Give up every lease (others take the tables over at once)."""
        def run() -> None:
            with writing(self.engine()) as conn:
                release_all(conn, self.owner)
        try:
            await asyncio.to_thread(run)
        except SQLAlchemyError:
            log.exception("process %s: could not give up its leases", self.owner)

    def claim_new(self, conn: Connection, table_id: str) -> None:
        """The lease of a table this process creates, in the transaction that stores it."""
        conn.execute(insert(leases_t).values(
            table_id=table_id, owner=self.owner,
            expires=now_sql(conn) + self.seconds, term=1))

    async def acquire(self, table_id: str) -> bool:
        """Take the lease of ``table_id`` (free, lapsed or ours); log a change of owner.

        Raises:
            sqlalchemy.exc.SQLAlchemyError: the database cannot be reached.
        """
        got, previous = await asyncio.to_thread(
            try_acquire, self.engine(), table_id, self.owner, self.seconds)
        if got and table_id not in self.hub.tables:
            if previous:
                log.info("table %s: owned by process %s (took over from %s)", table_id,
                         self.owner, previous)
            else:
                log.info("table %s: owned by process %s", table_id, self.owner)
        return got

    async def release(self, table_id: str) -> None:
        """Give up the lease of ``table_id`` (a table that left memory)."""
        def run() -> None:
            with writing(self.engine()) as conn:
                release(conn, table_id, self.owner)
        try:
            await asyncio.to_thread(run)
        except SQLAlchemyError:  # it lapses by itself
            log.exception("table %s: could not give up its lease", table_id)

    async def read(self, table_id: str) -> Lease | None:
        """The lease of ``table_id`` now, or None.

        Raises:
            sqlalchemy.exc.SQLAlchemyError: the database cannot be reached.
        """
        def run() -> Lease | None:
            with self.engine().connect() as conn:
                return read(conn, table_id)
        return await asyncio.to_thread(run)

    async def _renewal(self) -> None:
        """Renew every lease every third of ``seconds``; drop the tables whose lease
        was lost (or every table, once the database has not answered for a whole
        lease)."""
        while True:
            await asyncio.sleep(self.seconds / 3)
            snapshot = dict(self.hub.tables)
            began = time.monotonic()
            try:
                held = await asyncio.to_thread(self._renew)
            except SQLAlchemyError as exc:
                if time.monotonic() - self.last_renewed > self.seconds:
                    log.error("process %s: the database has not answered for %g s (%s): "
                              "dropping its tables", self.owner, self.seconds, exc)
                    for table in list(self.hub.tables.values()):
                        await self.hub.drop(table, "its lease could not be renewed")
                continue
            self.last_renewed = began
            for table_id, table in snapshot.items():
                if table_id not in held and self.hub.tables.get(table_id) is table:
                    await self.hub.drop(table, "its lease was lost")

    def _renew(self) -> set[str]:
        with writing(self.engine()) as conn:
            return renew(conn, self.owner, self.seconds)

    async def _sweep(self) -> None:
        """About every second (with jitter), take over tables in play whose lease lapsed."""
        while True:
            await asyncio.sleep(random.uniform(0.7, 1.3))
            if len(self.hub.tables) >= self.hub.config.max_tables:
                continue
            try:
                ids = await asyncio.to_thread(self._orphans)
            except SQLAlchemyError:
                continue
            for table_id in ids:
                if table_id in self.hub.tables or table_id in self.hub.loading:
                    continue
                try:
                    await self.hub.adopt(table_id)
                except Exception:
                    log.exception("table %s: could not take it over", table_id)
            self.sweeps += 1

    def _orphans(self) -> list[str]:
        with self.engine().connect() as conn:
            return orphans(conn)
