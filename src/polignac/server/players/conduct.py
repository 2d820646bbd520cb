"""Leaving rated matches: each time an account leaves a rated match before its end (ran
out of time, or gone past the grace: ``tables/seat_clocks.py``) it is stored in
``abandons``; an account that does it again and again may not start or join rated play
for a while that doubles with each one (as lichess's temporary play bans do).

The rule: the abandons of the last :data:`WINDOW` seconds count; the first
:data:`FREE` cost nothing; the next ones ban rated play for :data:`FIRST_BAN` seconds,
doubled for each further one, at most :data:`LONGEST_BAN`, from the last abandon.
Blocking database work: call it in a thread.
"""

from __future__ import annotations

import time

from sqlalchemy import Connection, Engine, func, insert, select

from ..base.errors import ApiError
from ..store.schema import abandons_t
from .accounts import account_of_identities

WINDOW = 30 * 86_400.0
"""Abandons older than this (30 days) are forgiven."""
FREE = 1
"""Abandons in the window that cost nothing (anyone may lose a connection once)."""
FIRST_BAN = 15 * 60.0
"""The first ban: 15 minutes."""
LONGEST_BAN = 7 * 86_400.0
"""No ban is longer than a week."""


def ban_seconds(count: int) -> float:
    """How long rated play is closed after the ``count``-th abandon in the window."""
    if count <= FREE:
        return 0.0
    return min(LONGEST_BAN, FIRST_BAN * 2 ** (count - FREE - 1))


def record(conn: Connection, holder: str | None, table_id: str, at: float) -> int | None:
    """Store that the account of browser identity ``holder`` left rated table
    ``table_id`` at ``at`` (in ``conn``'s transaction); its account, or None for a guest
    (a guest plays no rated match, nothing is stored)."""
    if holder is None:
        return None
    account = account_of_identities(conn, [holder]).get(holder)
    if account is None:
        return None
    found = conn.execute(select(abandons_t.c.at).where(
        abandons_t.c.account_id == account, abandons_t.c.table_id == table_id)).first()
    if found is None:
        conn.execute(insert(abandons_t).values(account_id=account, table_id=table_id, at=at))
    return account


def banned_until(conn: Connection, account_id: int, now: float) -> float | None:
    """Until when ``account_id`` may not start or join rated play (epoch seconds), or
    None when it may."""
    rows = conn.execute(select(abandons_t.c.at).where(
        abandons_t.c.account_id == account_id, abandons_t.c.at > now - WINDOW)
        .order_by(abandons_t.c.at)).all()
    seconds = ban_seconds(len(rows))
    if not seconds:
        return None
    until = float(rows[-1].at) + seconds
    return until if until > now else None


def abandoned_count(conn: Connection, account_id: int) -> int:
    """Every rated match the account ever left before its end."""
    return int(conn.execute(select(func.count()).select_from(abandons_t)
                            .where(abandons_t.c.account_id == account_id)).scalar_one())


def ban_of_identity(engine: Engine, holder: str, now: float) -> float | None:
    """:func:`banned_until` for the account of browser identity ``holder`` (None for a
    guest)."""
    with engine.connect() as conn:
        account = account_of_identities(conn, [holder]).get(holder)
        return None if account is None else banned_until(conn, account, now)


def refusal(until: float) -> ApiError:
    """The refusal of rated play to an account banned until ``until`` (epoch seconds):
    403 ``play-ban`` with ``until`` and ``when`` (``YYYY-MM-DD HH:MM UTC``)."""
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(until))
    return ApiError(f"you left several rated matches before their end: rated play is "
                    f"closed to you until {when}", "play-ban", 403,
                    extra={"until": until, "when": when})
