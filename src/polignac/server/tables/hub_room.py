"""The hub's room: how many tables a process holds against ``max_tables``, and the
Find players tables nobody sat at yet, which do not count until someone does
(``lobby/limits.py``; docs/server.md, "Find players").  :class:`HubRoom` is a part of
``hub.py:Hub``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from ..base.clock import Clock
from ..base.config import ServerConfig
from ..base.errors import ApiError

if TYPE_CHECKING:
    from .tables import GameTable


class HubRoom:
    """The hub's count of its tables (see the module)."""

    config: ServerConfig
    clock: Clock
    tables: dict[str, GameTable]
    unsat: dict[str, float]
    unload: Callable[[GameTable, str], Awaitable[bool]]  # Hub.unload

    def counted(self) -> int:
        """Tables that count against ``max_tables``: all but those made for a Find
        players group that nobody has sat at yet (a table leaves :attr:`unsat` once
        one of its people connects, or once it left memory)."""
        for table_id in list(self.unsat):
            table = self.tables.get(table_id)
            if table is None or table.presence.connections:
                del self.unsat[table_id]
        return len(self.tables) - len(self.unsat)

    def _room(self, unsat: bool = False) -> None:
        """Raises ApiError (429 ``too-many-tables``) when :meth:`counted` (``unsat``:
        the tables nobody sat at yet) reaches ``max_tables``."""
        if (len(self.unsat) if unsat else self.counted()) >= self.config.max_tables:
            raise ApiError(f"the server has {len(self.tables)} tables open, its most; try "
                           "again later", "too-many-tables", 429)

    async def close_unsat(self, older: float) -> int:
        """Take out of memory the Find players tables nobody sat at within ``older``
        seconds (stored as closed: a person who comes later loads it again); how many.

        Raises:
            sqlalchemy.exc.SQLAlchemyError, WriterClosedError: not stored.
        """
        self.counted()
        due = self.clock.monotonic() - older
        gone = 0
        for table_id in [t for t, made in self.unsat.items() if made <= due]:
            table = self.tables.get(table_id)
            if table is not None and await self.unload(table, "closed"):
                self.unsat.pop(table_id, None)
                gone += 1
        return gone
