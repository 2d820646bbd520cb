"""Blocks at a table (``players/blocks.py``): an account blocked by someone seated
here cannot take a seat (:func:`check_seat`), and two accounts that blocked one
another, seated or watching signed in, do not hear each other's quick messages
(:func:`refresh_apart`, :func:`listener`; a spectator's account is read from its
session cookie when it says hello: :func:`watcher_account`).

The pairs of accounts kept apart are cached on the table's ``QuickMessages``: read
from the database (in a thread) when a quick message is sent and the seats' or the
watchers' accounts changed since the last read, or the last read is
:data:`APART_FRESH` seconds old (a block made meanwhile counts from then on).  A table
with fewer than two accounts at it reads nothing.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from sqlalchemy.exc import SQLAlchemyError

from ..base.errors import ApiError
from ..base.seating import session_hash
from ..players.accounts import AccountStore
from ..players.blocks import blockers_among, ids_of_names, pairs_among

if TYPE_CHECKING:
    from .hub import Hub
    from .tables import GameTable, Subscriber

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


async def watcher_account(hub: Hub, cookies: dict[str, str]) -> str | None:
    """The username of the account signed in on a spectator's browser (its session
    cookie), or None: a guest, or no database.  A database that does not answer: None
    (the spectator then hears everyone, as a guest does)."""
    token_hash = session_hash(cookies)
    if token_hash is None or hub.store is None:
        return None
    try:
        account = await asyncio.to_thread(AccountStore(hub.store.engine).session, token_hash)
    except SQLAlchemyError as exc:
        log.warning("a spectator's account not read (%s)", exc)
        return None
    return None if account is None else account.username


def listener(table: GameTable, sub: Subscriber) -> str | None:
    """The account of connection ``sub``: its seat's holder, or the spectator's own."""
    return sub.account if sub.seat is None else table.seats[sub.seat].account


async def refresh_apart(hub: Hub, table: GameTable) -> None:
    """Bring ``table.quick.apart`` up to date (see the module); a database that does
    not answer keeps the last pairs."""
    quick = table.quick
    watchers = sorted({sub.account for sub in table.subscribers
                       if sub.seat is None and sub.account})
    key = (*(s.account for s in table.seats), *watchers)
    now = hub.clock.monotonic()
    if key == quick.apart_key and now - quick.apart_at < APART_FRESH:
        return
    names = sorted({a for a in key if a}, key=str.lower)
    if len({n.lower() for n in names}) < 2 or hub.store is None:
        quick.apart, quick.apart_key, quick.apart_at = set(), key, now
        return
    engine = hub.store.engine

    def read() -> set[frozenset[str]]:
        with engine.connect() as conn:
            ids = ids_of_names(conn, names)
            pairs = pairs_among(conn, ids.values())
        name_of = {i: n.lower() for n, i in ids.items()}
        return {frozenset(name_of[i] for i in pair) for pair in pairs
                if all(i in name_of for i in pair)}

    try:
        quick.apart = await asyncio.to_thread(read)
    except SQLAlchemyError as exc:
        log.warning("table %s: blocks not read (%s); the last ones stay", table.id, exc)
        return
    quick.apart_key, quick.apart_at = key, now
