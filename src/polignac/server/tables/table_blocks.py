"""Blocks at a table (``players/blocks.py``): an account blocked by someone seated
here cannot take a seat (:func:`check_seat`), and two seats whose accounts blocked one
another do not hear each other's quick messages (:func:`refresh_apart`).

The pairs of seats kept apart are cached on the table's ``QuickMessages``: read from
the database (in a thread) when a quick message is sent and the seats' accounts
changed since the last read, or the last read is :data:`APART_FRESH` seconds old (a
block made meanwhile counts from then on).  A table where fewer than two seats are
held by accounts reads nothing.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from sqlalchemy.exc import SQLAlchemyError

from ..base.errors import ApiError
from ..players.blocks import blockers_among, ids_of_names, pairs_among

if TYPE_CHECKING:
    from .hub import Hub
    from .tables import GameTable

log = logging.getLogger("polignac.server")

APART_FRESH = 60.0
"""Seconds a table's cached pairs kept apart are used before they are read again."""


async def check_seat(hub: Hub, table: GameTable, account: str | None) -> None:
    """Refuse a seat at ``table`` to the account named ``account`` (None: a guest,
    never refused) when an account seated there blocked it.

    Raises:
        ApiError: 403 ``blocked`` (nothing changes).
    """
    if account is None or hub.store is None:
        return
    seated = [s.account for s in table.seats
              if s.account and s.account.lower() != account.lower()]
    if not seated:
        return
    engine = hub.store.engine

    def read() -> list[str]:
        with engine.connect() as conn:
            me = ids_of_names(conn, [account]).get(account)
            return [] if me is None else blockers_among(conn, me, seated)

    if await asyncio.to_thread(read):
        raise ApiError("you cannot sit at this table: a player seated there has blocked "
                       "you", "blocked", 403)


async def refresh_apart(hub: Hub, table: GameTable) -> None:
    """Bring ``table.quick.apart`` up to date (see the module); a database that does
    not answer keeps the last pairs."""
    quick = table.quick
    key = tuple(s.account for s in table.seats)
    now = hub.clock.monotonic()
    if key == quick.apart_key and now - quick.apart_at < APART_FRESH:
        return
    names = [a for a in key if a]
    if len(set(n.lower() for n in names)) < 2 or hub.store is None:
        quick.apart, quick.apart_key, quick.apart_at = set(), key, now
        return
    engine = hub.store.engine

    def read() -> set[frozenset[int]]:
        with engine.connect() as conn:
            ids = ids_of_names(conn, names)
            pairs = pairs_among(conn, ids.values())
        seat_ids = [(i, ids.get(a)) for i, a in enumerate(key) if a]
        return {frozenset((i, j)) for i, a in seat_ids for j, b in seat_ids
                if i < j and a is not None and b is not None and frozenset((a, b)) in pairs}

    try:
        quick.apart = await asyncio.to_thread(read)
    except SQLAlchemyError as exc:
        log.warning("table %s: blocks not read (%s); the last ones stay", table.id, exc)
        return
    quick.apart_key, quick.apart_at = key, now
