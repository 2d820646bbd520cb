"""A :class:`GameTable` on a fresh SQLite store, outside any hub, for the tests of
its collaborators (presence, seat requests, the cut window, the bot driver, idle)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

from polignac.server import ServerConfig
from polignac.server.store.db import SeatRow, Store, TableRow, insert_table, make_engine, migrate
from polignac.server.store.writer import Writer
from polignac.server.tables.tables import Frame, GameTable


def person(seat: int, name: str = "", token_hash: str | None = "t", holder: str | None = None
           ) -> SeatRow:
    """A person's seat (claimed when ``token_hash`` is given)."""
    return SeatRow(seat, "human", None, name or f"P{seat}", token_hash, None,
                   holder_hash=holder or f"holder-{seat}")


def bot(seat: int, level: str = "random") -> SeatRow:
    """A bot's seat."""
    return SeatRow(seat, "bot", level, f"Bot {seat}", None, None)


@contextlib.asynccontextmanager
async def stored_table(config: ServerConfig, seats: list[SeatRow], preset: str = "polignac",
                       options: dict[str, Any] | None = None, first_dealer: int = 0,
                       overrides: dict[str, Any] | None = None, table_id: str = "table1"
                       ) -> AsyncIterator[GameTable]:
    """A table of ``seats`` stored in a fresh database, stopped (with its writer) after."""
    engine = make_engine(config.url())
    await asyncio.to_thread(migrate, engine)
    writer = Writer(Store(engine))
    writer.start()
    row = TableRow(table_id, preset, overrides or {}, len(seats), first_dealer, seats, [],
                   creator_seat=0, options=options or {})
    await writer.run(lambda conn: insert_table(conn, row))
    table = GameTable(row, writer, config)
    try:
        yield table
    finally:
        await table.stop()
        await writer.stop()
        engine.dispose()


def frames_of(queue: asyncio.Queue[Frame]) -> list[dict[str, Any]]:
    """Every frame waiting in ``queue`` (decoded), without waiting."""
    out = []
    while not queue.empty():
        item = queue.get_nowait()
        if isinstance(item, str):
            out.append(json.loads(item))
        elif item is not None:
            out.append(item)
    return out
