"""The clubs' schedules' task: every process runs one, which every ``schedule_tick``
seconds (the server's clock, ``hub.clock``) creates each schedule's occurrences that
start within a day as tournaments (``schedule_store.create_due``), so that they are in
the lobby's list of coming arenas a day ahead.  Several processes may do it at once:
the unique index on (schedule, start) leaves one tournament per occurrence.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from ..store.db import transact
from . import schedule_store

if TYPE_CHECKING:
    from ..tables.hub import Hub

log = logging.getLogger("polignac.server")


class Planner:
    """One process's schedule task (see the module); ``created`` counts the tournaments
    it made."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.task: asyncio.Task[None] | None = None
        self.created = 0
        self.rounds = 0

    def start(self) -> None:
        """Start the loop (idempotent; nothing without a database)."""
        if self.task is None and self.hub.store is not None:
            self.task = asyncio.get_running_loop().create_task(self._loop())

    async def stop(self) -> None:
        """Stop the loop (a round in progress is cancelled: its transaction rolls back)."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None

    async def _loop(self) -> None:
        while True:
            try:
                await self.tick()
            except Exception:  # never let the loop die
                log.exception("schedules: round failed")
            await self.hub.clock.sleep(self.hub.config.schedule_tick)

    async def tick(self) -> list[str]:
        """One round: the tournaments created (their ids).

        Raises:
            sqlalchemy.exc.SQLAlchemyError: the database failed (the next round retries).
        """
        self.rounds += 1
        assert self.hub.store is not None
        made: list[str] = await transact(self.hub.store.engine, self.hub.clock,
                                         schedule_store.create_due)
        self.created += len(made)
        if made:
            log.info("schedules: %d arena(s) created a day ahead", len(made))
        return made
