"""The hub and the people away from their tables: Web Push notices (``players/push.py``)
to those who are not at the table, and the sweep that loads, in time for their clock,
the correspondence tables that wait in the database only (docs/server.md, "Games
across days").  :class:`HubAway` is a part of ``hub.py:Hub``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from ..base.clock import Clock
from ..base.config import ServerConfig
from ..players.push import Notice, PushSender
from ..store.db import Store

if TYPE_CHECKING:
    from .tables import GameTable

log = logging.getLogger("polignac.server")


class HubAway:
    """The hub's methods for people away (see the module)."""

    config: ServerConfig
    clock: Clock
    store: Store | None
    push: PushSender | None
    tables: dict[str, GameTable]
    broken: set[str]
    sweeping: bool = False
    """True while a sweep runs (between two, it sleeps on the hub's clock)."""
    find: Callable[[str], Awaitable[GameTable | None]]  # Hub.find

    def _notice(self, table: GameTable, kind: str, seats: list[int]) -> None:
        """Web Push to the accounts of ``seats`` that are away from ``table`` (a page
        open at the table hears it there: its title and sound)."""
        if self.push is None:
            return
        here = {sub.seat for sub in table.subscribers}
        for seat in seats:
            row = table.seats[seat]
            if row.kind == "human" and row.holder_hash is not None and seat not in here:
                self.push.notify(row.holder_hash, Notice(kind, table.id, table.preset,
                                                         self.clock.time()))

    async def _sweep(self) -> None:
        """Every ``sweep_seconds``: load the stored tables whose running clock ends
        within ``load_ahead_seconds`` (correspondence tables wait in the database
        only), so that each clock is kept: loaded, a table sets its own timer."""
        assert self.store is not None
        store, config = self.store, self.config
        while True:
            self.sweeping = True
            try:
                due = await asyncio.to_thread(store.due_by,
                                              self.clock.time() + config.load_ahead_seconds)
                for table_id in due:
                    if table_id not in self.tables and table_id not in self.broken:
                        await self.find(table_id)
            except Exception:  # the next sweep tries again
                log.exception("the sweep of the stored tables' clocks failed")
            finally:
                self.sweeping = False
            await self.clock.sleep(config.sweep_seconds)
