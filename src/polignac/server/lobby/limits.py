"""Find players' limits by what a client holds (issue 32; docs/server.md, "Find
players": limits).

A request counts only while it is **live**: not yet seated, and asked (or asked
about by its page's poll) within ``seek_stale`` seconds.  A seated request whose
seat nobody fetches, or one whose page went away, counts no more.  At most
``seek_per_address`` live requests come from one client address and
``seek_per_network`` from its network (a /24 of IPv4, a /64 of IPv6:
``httplimits.py:client_network``), ``max_seeks`` in all; at the server's most, the
oldest live request whose page never asked (nobody holds it) makes room, so a
thousand abandoned requests never keep a real player out.  Such a request is never
matched either (``seeks.py:form_groups``), and a group is seated only if each of
its people asked during the countdown (``seeks.py:there``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, and_, delete, func, select

from ..base.config import ServerConfig
from ..base.errors import ApiError
from ..store.schema import seeks_t
from .seeks import COUNTDOWN, CREATING, WAITING

LIVE_STATES = (WAITING, COUNTDOWN, CREATING)
"""States in which a request counts against the limits (while alive)."""


def _live(now: float, stale: float) -> Any:
    return and_(seeks_t.c.state.in_(LIVE_STATES), seeks_t.c.seen_at >= now - stale)


def count_live(conn: Connection, now: float, stale: float, *, address: str | None = None,
               network: str | None = None) -> int:
    """Live requests (asked or asked about within ``stale`` seconds, not yet seated):
    all of them, or those from ``address``, or from ``network``."""
    query = select(func.count()).select_from(seeks_t).where(_live(now, stale))
    if address is not None:
        query = query.where(seeks_t.c.address == address)
    if network is not None:
        query = query.where(seeks_t.c.network == network)
    return int(conn.execute(query).scalar_one())


def push_out(conn: Connection, now: float, stale: float) -> bool:
    """Delete the oldest live waiting request whose page never asked (nobody holds it:
    it makes room for a new one); False when there is none."""
    oldest = conn.execute(select(seeks_t.c.id).where(
        _live(now, stale), seeks_t.c.state == WAITING, seeks_t.c.polled_at.is_(None))
        .order_by(seeks_t.c.created_at, seeks_t.c.id).limit(1)).scalar()
    if oldest is None:
        return False
    return bool(conn.execute(delete(seeks_t).where(seeks_t.c.id == oldest,
                                                   seeks_t.c.state == WAITING)).rowcount)


def check_room(conn: Connection, now: float, config: ServerConfig, address: str,
               network: str) -> None:
    """Whether one more live request from ``address`` (in ``network``) may be stored:
    at most ``seek_per_address`` from the address, ``seek_per_network`` from the
    network, ``max_seeks`` in all (at the most, an unheld request is pushed out).

    Raises:
        ApiError: 429 ``too-many-seeks`` (nothing stored, nothing pushed out).
    """
    stale = config.seek_stale
    retry = {"Retry-After": str(max(1, int(stale)))}
    for where, count, most in (
            ("your address", count_live(conn, now, stale, address=address),
             config.seek_per_address),
            ("your network", count_live(conn, now, stale, network=network),
             config.seek_per_network)):
        if count >= most:
            raise ApiError(f"{most} requests to play come from {where} already, the "
                           "most; try again later", "too-many-seeks", 429, retry)
    if count_live(conn, now, stale) >= config.max_seeks and not push_out(conn, now, stale):
        raise ApiError(f"{config.max_seeks} requests wait already, the most; try again "
                       "later", "too-many-seeks", 429, retry)
