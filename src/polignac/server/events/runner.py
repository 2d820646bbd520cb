"""The arena's runner: one process's task that seats the waiting players of every
running tournament and records the matches that finish (docs/events.md, "Running").

Every ``arena_tick`` seconds (the server's clock, ``hub.clock``) it, for each
tournament not finished or with matches still running:

1. records each tournament table whose match has finished (its places from
   ``players/results.py:places``, through ``scoring.record_of``; a table no longer in
   memory is read from its stored result), so its people are waiting again;
2. while the tournament runs, reads who waits (joined, not paused nor left, not at a
   table of it still playing), pairs them (``pairing.pair``) and creates each table
   through ``Hub.create`` with everyone seated (``claimed``, as Find players does),
   the tournament's preset, seats, time control and rated flag, bots
   (``fill_level``) in the seats the pairing leaves empty, then stores the match
   (``store.start_match``).  No table is made after the end.

Every process runs one; a tournament is paired by the process holding its lease, and
its seat tokens and changes reach every process (``processes.py``).  A seated
person's token is made again from the site's key whenever their browser asks
(``GET /api/tournaments/{id}``, :meth:`ArenaRunner.seat_for`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, select

from ..base.errors import ApiError
from ..base.security import hash_token
from ..players.blocks import pairs_among
from ..players.ratings import SCALE, START
from ..store.db import transact
from ..store.schema import (
    accounts_t,
    identities_t,
    match_seats_t,
    ratings_t,
    tournament_matches_t,
    tournaments_t,
)
from . import store
from .pairing import Waiting, pair
from .processes import ArenaBus, ArenaLeases, SeatKey, seat_token
from .scoring import MatchRecord, record_of
from .tournament import RUNNING

if TYPE_CHECKING:
    from ..tables.hub import Hub

log = logging.getLogger("polignac.server")


@dataclass(frozen=True)
class SeatTicket:
    """A seated player's way to their table: its id, their seat and its token."""

    table_id: str
    seat: int
    token: str


class ArenaRunner:
    """One process's arena task (see the module); ``listeners`` hear of every change of
    a tournament's standings or players (the live page's socket), on any process.
    ``owner``: the id its leases are held by (the process's)."""

    def __init__(self, hub: Hub, owner: str | None = None) -> None:
        self.hub = hub
        self.task: asyncio.Task[None] | None = None
        self.rng = random.Random()
        self.leases = ArenaLeases(self._engine, owner or hub.cluster.id,
                                  hub.config.lease_seconds)
        """The tournaments this process pairs (a lease each, ``processes.py``)."""
        self.key = SeatKey(self._engine)
        self.bus = ArenaBus(hub, self._heard)
        self.listeners: dict[str, set[asyncio.Queue[str]]] = {}
        self.created = 0
        self.live: set[str] = set()
        self.rounds = 0
        """Rounds begun (a round begun after a change reads it)."""
        """The tournaments the last round went over (one leaving it is over)."""

    # ------------------------------------------------------------- the loop

    def _engine(self) -> Any:
        assert self.hub.store is not None
        return self.hub.store.engine

    def start(self) -> None:
        """Start the loop (idempotent; none without a database)."""
        if self.task is None and self.hub.store is not None:
            self.task = asyncio.get_running_loop().create_task(self._loop())

    async def stop(self, release: bool = True) -> None:
        """Stop the loop (a tick in progress is cancelled) and, with ``release``, give
        up this process's arena leases (another process takes over at once)."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None
            if release:
                await self.leases.release_all()

    async def _loop(self) -> None:
        while True:
            try:
                await self.bus.start()
                await self.tick()
            except Exception:  # never let the loop die
                log.exception("arena: tick failed")
            await self.hub.clock.sleep(self.hub.config.arena_tick)

    async def db(self, fn: Callable[[Connection, float], Any]) -> Any:
        """``fn(conn, now)`` in one transaction, in a thread (``store/db.py:transact``)."""
        assert self.hub.store is not None
        return await transact(self.hub.store.engine, self.hub.clock, fn)

    # ------------------------------------------------------------- listeners

    def listen(self, tid: str) -> asyncio.Queue[str]:
        """A queue that hears ``"changed"`` whenever ``tid``'s standings or players
        change (bounded: a slow listener misses nothing but repeats)."""
        queue: asyncio.Queue[str] = asyncio.Queue(maxsize=4)
        self.listeners.setdefault(tid, set()).add(queue)
        return queue

    def unlisten(self, tid: str, queue: asyncio.Queue[str]) -> None:
        """Stop ``queue`` hearing of ``tid``."""
        found = self.listeners.get(tid)
        if found is not None:
            found.discard(queue)
            if not found:
                del self.listeners[tid]

    def changed(self, tid: str) -> None:
        """Tell ``tid``'s listeners, on every process, that it changed."""
        self._heard(tid)
        self.bus.publish(tid)

    def _heard(self, tid: str) -> None:
        """Tell this process's listeners of ``tid`` that it changed."""
        for queue in self.listeners.get(tid, ()):
            with contextlib.suppress(asyncio.QueueFull):
                queue.put_nowait("changed")

    # ------------------------------------------------------------- one round

    async def tick(self) -> None:
        """One round over every live tournament (see the module).

        Raises:
            sqlalchemy.exc.SQLAlchemyError: the database failed (the next tick retries).
        """
        self.rounds += 1
        live = await self.db(_live_ids)
        for tid in live:
            if not await self.leases.hold(tid):
                continue  # another process pairs it
            await self.record_finished(tid)
            await self.seat_waiting(tid)
        for tid in self.leases.held.difference(live):  # over: its page shows the podium
            await self.leases.release(tid)
            self.changed(tid)
        self.live = set(live)

    async def seat_for(self, tid: str, account: int) -> SeatTicket | None:
        """The seat ``account`` plays at now in ``tid``, with its token, or None.

        Raises:
            sqlalchemy.exc.SQLAlchemyError: the database cannot be reached.
        """
        found = await self.db(lambda conn, _now: store.seat_of(conn, tid, account))
        if found is None:
            return None
        table_id, seat = found
        return SeatTicket(table_id, seat, seat_token(await self.key.get(), table_id, seat,
                                                     account))

    async def record_finished(self, tid: str) -> int:
        """Record every match of ``tid`` that has ended; how many."""
        running = await self.db(lambda conn, _now: store.running_matches(conn, tid))
        records: list[MatchRecord] = []
        gone: list[tuple[str, tuple[int | None, ...]]] = []
        now = self.hub.clock.time()
        for table_id, players in running:
            table = self.hub.tables.get(table_id)
            if table is None:
                gone.append((table_id, players))
            elif table.match.finished:
                records.append(record_of(table_id, now, players, table.match,
                                         table.seat_clocks.abandoned()))

        def write(conn: Connection, now: float) -> int:
            for table_id, players in gone:  # out of memory: its stored result, if any
                places = _stored_places(conn, table_id, len(players))
                if places is not None:
                    records.append(MatchRecord(table_id, now, players, places))
            return sum(store.record_match(conn, tid, r) for r in records)

        done: int = await self.db(write)
        if done:
            self.changed(tid)
        return done

    async def seat_waiting(self, tid: str) -> int:
        """Pair the waiting players of ``tid`` while it runs and create their tables;
        how many tables."""
        plan = await self.db(lambda conn, now: _waiting(conn, tid, now))
        if plan is None:
            return 0
        found, waiting, names, holders = plan
        settings = found.settings
        if len(waiting) < 1:
            return 0
        pairing = pair(waiting, settings.seats, self.rng, settings.bot_wait)
        made = 0
        for seating in pairing.tables:
            if not await self.leases.hold(tid):  # lost while pairing (a stall): stop
                break
            if await self._create(tid, found, seating.seats, names, holders):
                made += 1
        if made:
            self.changed(tid)
        return made

    async def _create(self, tid: str, found: store.Tournament,
                      players: tuple[int | None, ...], names: dict[int, str],
                      holders: dict[int, str]) -> bool:
        settings = found.settings
        level = self.hub.config.fill_level
        seats: list[dict[str, Any]] = []
        claimed: dict[int, tuple[str, str, str, str | None]] = {}
        table_id = secrets.token_urlsafe(9)  # as the hub's own: the tokens are made of it
        key = await self.key.get()
        first = True
        for i, p in enumerate(players):
            if p is None:
                seats.append({"kind": "bot", "level": level})
                continue
            seats.append({"kind": "you" if first else "open"})
            first = False
            token = seat_token(key, table_id, i, p)
            claimed[i] = (hash_token(token), holders[p], names[p], names[p])  # accounts
        lead = next(p for p in players if p is not None)
        options = {"private": False, "hints": False, "rated": settings.rated,
                   "time_control": settings.time_control.to_json(), "tournament": tid}
        try:
            table, _creator, _invites = await self.hub.create(
                settings.preset, settings.seats, seats, {}, names[lead], holders[lead],
                options, table_id=table_id, claimed=claimed, account=names[lead])
        except ApiError as exc:  # the server is full: they wait for the next round
            log.warning("arena %s: no table for %s (%s)", tid, players, exc)
            return False
        await self.db(lambda conn, now: store.start_match(conn, tid, table.id, players, now))
        self.created += 1
        log.info("arena %s: table %s for %d people", tid, table.id,
                 sum(p is not None for p in players))
        return True


def _live_ids(conn: Connection, now: float) -> list[str]:
    """Tournaments running now, and finished ones with a match still playing."""
    t, m = tournaments_t, tournament_matches_t
    running = conn.execute(select(t.c.id).where(
        t.c.starts_at <= now, t.c.starts_at + t.c.minutes * 60 > now)).scalars().all()
    playing = conn.execute(select(m.c.tournament_id).where(m.c.finished_at.is_(None))
                           .distinct()).scalars().all()
    return sorted(set(running) | set(playing))


def _stored_places(conn: Connection, table_id: str, n: int) -> tuple[int, ...] | None:
    """The places stored with a table's result (``results.places``), or None."""
    rows = conn.execute(select(match_seats_t.c.seat, match_seats_t.c.place).where(
        match_seats_t.c.table_id == table_id)).all()
    if len(rows) != n:
        return None
    return tuple(int(r.place) for r in sorted(rows, key=lambda r: r.seat))


def _waiting(conn: Connection, tid: str, now: float
             ) -> tuple[store.Tournament, list[Waiting], dict[int, str], dict[int, str]] | None:
    """The players of ``tid`` waiting for a table now (with their rank, rating, wait
    and last table), their names and browser identities; None when it is not running."""
    found = store.load(conn, tid)
    if found is None or found.settings.state(now) != RUNNING:
        return None
    busy = {p for _t, players in store.running_matches(conn, tid) for p in players
            if p is not None}
    ready = [e for e in store.entrants(conn, tid)
             if e.state == store.JOINED and e.account_id not in busy]
    if not ready:
        return found, [], {}, {}
    ids = [e.account_id for e in ready]
    lines = store.standings_of(conn, tid)
    rank = {line.player: line.rank for line in lines}
    last_table: dict[int, tuple[float, frozenset[int]]] = {}
    for record in store.finished_matches(conn, tid):
        people = frozenset(p for p in record.players if p is not None)
        for p in people:
            last_table[p] = (record.finished_at, people)
    pool = _pool(found.settings.preset)
    ratings = {r.account_id: r.mu * SCALE for r in conn.execute(
        select(ratings_t).where(ratings_t.c.account_id.in_(ids), ratings_t.c.pool == pool))}
    names = {r.id: r.username for r in conn.execute(
        select(accounts_t.c.id, accounts_t.c.username).where(accounts_t.c.id.in_(ids)))}
    holders: dict[int, str] = {}
    for r in conn.execute(select(identities_t).where(identities_t.c.account_id.in_(ids))
                          .order_by(identities_t.c.linked_at)):
        holders[r.account_id] = r.identity_hash  # the latest linked
    kept_apart: dict[int, set[int]] = {}  # blocks: kept apart as a rematch is
    for apart in pairs_among(conn, ids):
        one, other = tuple(apart)
        kept_apart.setdefault(one, set()).add(other)
        kept_apart.setdefault(other, set()).add(one)
    waiting = []
    for e in ready:
        if e.account_id not in holders or e.account_id not in names:
            continue  # an account without a browser (or deleted): never seated
        since, last = last_table.get(e.account_id, (0.0, frozenset()))
        last |= kept_apart.get(e.account_id, set())
        waiting.append(Waiting(e.account_id, rank.get(e.account_id, len(lines) + 1),
                               ratings.get(e.account_id, START.mu * SCALE),
                               max(0.0, now - max(e.changed_at, since, found.settings.starts_at)),
                               last))
    return found, waiting, names, holders


def _pool(preset: str) -> str:
    """The rating pool of ``preset`` (its family's)."""
    from ...core import PRESETS

    return PRESETS[preset].family.name


__all__ = ["ArenaRunner", "SeatTicket"]
