"""Find players' matchmaker: one process's side of matchmaking (the requests' storage
and the pure parts are ``seeks.py``).  Every process runs one; whichever wins a due group's
claim seats it, and a live process takes over a claim whose process is gone."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection
from sqlalchemy.exc import SQLAlchemyError

from ..base.errors import ApiError
from ..players import places
from ..store.db import transact
from .seek_rows import control_of, seek_account, touch_online
from .seeks import (
    CREATING_STUCK,
    RaceLost,
    back_to_waiting,
    due_groups,
    expire,
    form_groups,
    lapsed_claims,
    mark_seated,
    release_claim,
    seek_overrides,
    seen_now,
    take_group,
    take_over,
)

if TYPE_CHECKING:
    from ..tables.hub import Hub

log = logging.getLogger("polignac.server")

class Matchmaker:
    """One process's side of matchmaking: every ``seek_tick`` seconds (with jitter) it
    expires requests, forms groups, creates the tables of the groups whose countdown
    is over, and writes who is connected to this process's tables (``online``) and
    where the accounts seen are (``presence``: ``players/places.py``)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.task: asyncio.Task[None] | None = None
        self.rng = random.SystemRandom()
        self.created = 0
        """Tables this process created for groups (``GET /health`` could show it)."""
        self.seen: set[str] = set()
        """Requests whose page asked since the last round (written by the next one)."""
        self.online: set[str] = set()
        """Browser identities seen in the lobby since the last round (likewise)."""
        self.places = places.Places()
        """Where the accounts seen are (``players/places.py``): each round writes them."""
        self.seating: set[str] = set()
        """The groups this process claimed and is seating now."""
        self.written: dict[str, float] = {}
        """When (``time.monotonic``) each identity's ``online`` row was last written by
        this process: a row is written again only once a third of ``online_window``
        has passed, not at every round (2,000 people at tables were 2,000 upserts a
        second, each round holding SQLite's one writer)."""

    def mark(self, seek_id: str | None, identity: str) -> None:
        """A lobby's poll: its request (if any) is alive and its browser online; the
        next round writes them all in its one transaction (a poll writes nothing)."""
        if len(self.online) > 100_000:  # a bound, should the rounds not run
            self.seen.clear()
            self.online.clear()
        if seek_id is not None:
            self.seen.add(seek_id)
        self.online.add(identity)

    def start(self) -> None:
        """Start the loop (idempotent)."""
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._loop())

    async def stop(self) -> None:
        """Stop the loop (a tick in progress is cancelled: its transaction rolls back)."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None

    async def _loop(self) -> None:
        tick = self.hub.config.seek_tick
        while True:
            try:
                await self.tick()
            except (SQLAlchemyError, RaceLost) as exc:  # another process, or the database
                log.info("matchmaker: tick skipped (%s)", exc)
            except Exception:  # never let the loop die
                log.exception("matchmaker: tick failed")
            await self.hub.clock.sleep(tick * self.rng.uniform(0.75, 1.25))

    async def db(self, fn: Any) -> Any:
        """``fn(conn, now)`` in one transaction, in a thread (``store/db.py:transact``)."""
        assert self.hub.store is not None
        return await transact(self.hub.store.engine, self.hub.clock, fn)

    def abandoned(self, claimant: str | None, group_id: str, lapsed: float,
                  now: float) -> bool:
        """Whether a lapsed claim may be taken over: no claimant; this process's own
        that it is not seating (its seating failed); another process's that is gone
        (not heard for a lease; with one process, every other id is an earlier
        run's); or any claim lapsed :data:`CREATING_STUCK` seconds ago."""
        cluster = self.hub.cluster
        if claimant is None or lapsed < now - CREATING_STUCK:
            return True
        if claimant == cluster.id:
            return group_id not in self.seating
        if cluster.loads_all:  # Solo: the only process
            return True
        return not cluster.alive(claimant)  # type: ignore[union-attr]

    async def tick(self) -> None:
        """One round: expire, form groups, claim the due ones, take over the lapsed
        claims of processes gone, create the tables, write who is online, and close
        the groups' tables nobody sat at within ``seek_stale``.

        Raises:
            sqlalchemy.exc.SQLAlchemyError, RaceLost: a step failed (nothing of it kept).
        """
        config = self.hub.config
        me = self.hub.cluster.id
        seen, self.seen = self.seen, set()
        online, self.online = self.online, set()
        seated: list[tuple[str, places.Place]] = []
        for t in list(self.hub.tables.values()):
            for s in t.seats:
                if s.kind == "human" and t.presence.connections.get(s.seat, 0) > 0:
                    if s.holder_hash:
                        online.add(s.holder_hash)
                    if s.account:
                        seated.append((s.account, places.Place(places.TABLE, t.id,
                                                               not t.private)))
        mono = self.hub.clock.monotonic()
        located = self.places.due(mono, config.online_window / 3, seated)
        again = mono - config.online_window / 3
        written = self.written
        for identity in [i for i, at in written.items() if at <= again]:
            del written[identity]  # due again (and the dict stays bounded by the window)
        due = {i for i in online if i not in written}

        def round_(conn: Connection, now: float) -> list[list[Any]]:  # one transaction
            seen_now(conn, seen, now)
            touch_online(conn, due, now)
            places.write(conn, located, now)
            expire(conn, now, config.seek_stale, config.seek_lifetime, 4 * config.online_window)
            form_groups(conn, now, config.seek_countdown, config.seek_stale)
            groups = [take_group(conn, g, now, config.seek_countdown, me,
                                 config.lease_seconds, self.rng) for g in due_groups(conn, now)]
            for group_id, claimant, lapsed in lapsed_claims(conn, now):
                if self.abandoned(claimant, group_id, lapsed, now):
                    rows, seated = take_over(conn, group_id, claimant, me, now,
                                             config.lease_seconds)
                    groups.append(rows)
                    if rows or seated:
                        log.info("matchmaker: took over group %s from %s (%d seated at "
                                 "its stored table)", group_id, claimant, seated)
            return [rows for rows in groups if rows]

        try:
            groups = await self.db(round_)
        except BaseException:  # nothing written: the next round writes these marks
            self.seen |= seen
            self.online |= online
            self.places.failed(located)
            raise
        written.update(dict.fromkeys(due, mono))
        self.places.wrote(located, mono)
        self.seating.update(rows[0].group_id for rows in groups)
        try:
            seated: dict[str, tuple[str, int]] = {}
            for done in await asyncio.gather(*(self.seat(rows) for rows in groups)):
                seated.update(done)
            if seated:
                await self.db(lambda conn, _now: mark_seated(conn, seated))
        finally:  # a group left creating is taken over once its claim lapses
            self.seating.difference_update(rows[0].group_id for rows in groups)
        await self.hub.close_unsat(config.seek_stale)

    async def seat(self, rows: list[Any]) -> dict[str, tuple[str, int]]:
        """Create the table of a group claimed by :meth:`tick` (the hub's own path:
        ``Hub.create`` checks the rules and seats and stores the table with every
        person seated, under the id and at the seats chosen with the claim); each
        request's table and seat.  A table that cannot be created (the server is
        full) puts the group back to waiting; any other failure (the database; the
        table stored already) gives the claim up, for the next round to take over."""
        first = rows[0]
        n = first.players
        me = self.hub.cluster.id
        seats: list[dict[str, Any]] = [{"kind": "bot", "level": first.level} for _ in range(n)]
        for row in rows:
            seats[row.seat] = {"kind": "you" if row is first else "open"}
        claimed = {r.seat: (r.token_hash, r.identity_hash, r.name, seek_account(r))
                   for r in rows}
        ids = [r.id for r in rows]
        try:
            overrides = seek_overrides(first.preset, first.deals)
            table, _creator, _invites = await self.hub.create(
                first.preset, n, seats, overrides, first.name, first.identity_hash,
                {"private": False, "hints": False, "rated": bool(first.rated),
                 "time_control": control_of(first)},
                table_id=first.table_id, claimed=claimed, unsat=True,
                account=seek_account(first))
        except ApiError as exc:
            log.warning("matchmaker: no table for %d request(s): %s", len(rows), exc)
            await self.db(lambda conn, _now: back_to_waiting(conn, ids, me))
            return {}
        except Exception as exc:  # the next round takes it over (the table stored or not)
            log.warning("matchmaker: table %s for %d request(s) not created here (%s)",
                        first.table_id, len(rows), exc)
            with contextlib.suppress(Exception):
                await self.db(lambda conn, now: release_claim(conn, ids, me, now))
            return {}
        self.created += 1
        log.info("matchmaker: table %s for %d people and %d bots", table.id, len(rows),
                 n - len(rows))
        return {r.id: (table.id, r.seat) for r in rows}
