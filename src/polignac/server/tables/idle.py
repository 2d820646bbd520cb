"""Tables nobody plays: paused (no bot plays for nobody), then closed; finished
tables leave memory too, and correspondence tables that wait for a person's move.

One :class:`Idle` per table (``tables.py:GameTable.idle``).  Its ``on_idle(table,
why)`` is the hub's (``hub.py:Hub.unload``): it takes the table out of memory and
answers True, or False while connections remain (the timer tries again).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from ..store.db import update_table

if TYPE_CHECKING:
    from .tables import GameTable

log = logging.getLogger("polignac.server")


class Idle:
    """Pause and idle timers of ``table``; use from the event loop only."""

    def __init__(self, table: GameTable, closed_at: float | None) -> None:
        self.table = table
        self.paused = False
        """No bot plays and no card is dealt until a person connects."""
        self.closed_at = closed_at
        """When the table was closed (epoch seconds), None while it is open."""
        self.on_idle: Callable[[GameTable, str], Awaitable[bool]] | None = None
        self.idle_task: asyncio.Task[None] | None = None
        self.reopen_task: asyncio.Task[None] | None = None

    def pause(self) -> None:
        """Nobody is at the table: no bot plays and no card is dealt until a person
        connects (:meth:`resume`); after ``close_seconds`` the hub closes it."""
        table = self.table
        if self.paused or table.match.finished:
            return
        self.paused = True
        table.broadcast(table.presence_frame())
        self._schedule(table.config.close_seconds, "closed")

    def resume(self) -> None:
        """A person connected to a paused table: absent people get their grace period
        again, the bots play again (a closed table is open again)."""
        if not self.paused:
            return
        self.paused = False
        self.cancel()
        self.table.presence.grace_all()
        if self.closed_at is not None:
            self.closed_at = None
            self.reopen_task = asyncio.get_running_loop().create_task(self._store_reopened())
        self.table.wake()

    async def _store_reopened(self) -> None:
        table = self.table
        try:
            await table.writer.run(lambda conn: update_table(conn, table.id, closed_at=None))
        except Exception:  # the table plays on; it would be closed again at a restart
            log.exception("table %s: could not store that it is open again", table.id)

    def settle(self) -> None:
        """Start the right idle timer: a finished table leaves memory after
        ``finished_keep_seconds``; a paused one is closed after ``close_seconds``; a
        correspondence table waiting for a person's move leaves memory after
        ``waiting_keep_seconds`` (:meth:`waiting`)."""
        config = self.table.config
        if self.table.match.finished:
            self._schedule(config.finished_keep_seconds, "finished")
        elif self.paused:
            self._schedule(config.close_seconds, "closed")
        elif self.waiting():
            self._schedule(config.waiting_keep_seconds, "waiting")

    def waiting(self) -> bool:
        """A correspondence table whose running clock is a person's and ends later than
        ``load_ahead_seconds`` from now, with nothing for its bots or dealer to do: it
        may wait in the database only (the hub's sweep loads it again in time)."""
        table = self.table
        clocks = table.seat_clocks
        if clocks.control is None or not clocks.control.correspondence or \
                clocks.clocks is None or table.match.finished:
            return False
        deadline = clocks.clocks.deadline()
        return (clocks.clocks.running is not None and deadline is not None
                and deadline - table.clock.time() > table.config.load_ahead_seconds
                and table.bot_driver.due() is None)

    def _schedule(self, delay: float, why: str) -> None:
        self.cancel()
        self.idle_task = asyncio.get_running_loop().create_task(self._timer(delay, why))

    def cancel(self) -> None:
        """Cancel the idle timer (unless it is the caller)."""
        if self.idle_task is not None and self.idle_task is not asyncio.current_task():
            self.idle_task.cancel()
        self.idle_task = None

    async def _timer(self, delay: float, why: str) -> None:
        while True:
            await self.table.clock.sleep(delay)
            if (why == "closed" and not self.paused) or self.on_idle is None or \
                    (why == "waiting" and not self.waiting()):
                return
            try:
                if await self.on_idle(self.table, why):
                    return
            except Exception:  # try again later
                log.exception("table %s: could not unload", self.table.id)
