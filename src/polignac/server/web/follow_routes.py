"""Follows, presence and who is online (docs/people.md).

Routes::

    GET    /api/follows           the accounts I follow, each with its presence
    POST   /api/follows/{name}    follow an account
    DELETE /api/follows/{name}    stop following it
    GET    /api/online            the accounts online now that show it (50 names at most)
    GET    /api/account/presence  my choice: {"visible"}
    POST   /api/account/presence  {"visible": true|false}

Only accounts follow and are followed (``401 signed-out`` for a guest).  The changes
pass the app's body policy (JSON, the site's ``Origin``) like every other unsafe
method, and a limit per account shared by the processes (``429 follow-rate``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import Connection
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..base.errors import ApiError
from ..players import follows, places
from ..players.accounts import Account, AccountError, check_username
from ..store.db import transact
from ..tables.hub import hub_of
from .account_routes import json_body, signed_in

T = TypeVar("T")
FOLLOWS_PER_MINUTE, FOLLOWS_BURST = 30, 20
"""Follows, unfollows and presence choices an account may send: a burst, then a rate."""
ONLINE_CACHE = 2.0
"""Seconds a process answers ``GET /api/online`` from its last reading."""


def _db(request: Request, fn: Any) -> Any:
    """``fn(conn, now)`` in one transaction, in a thread (``store/db.py:transact``)."""
    hub = hub_of(request)
    assert hub.store is not None
    return transact(hub.store.engine, hub.clock, fn)


async def read(request: Request, fn: Callable[[Connection, float], T]) -> T:
    """``fn(conn, now)`` on a reading connection (no write lock), in a thread."""
    hub = hub_of(request)
    assert hub.store is not None
    engine, clock = hub.store.engine, hub.clock

    def run() -> T:
        with engine.connect() as conn:
            return fn(conn, clock.time())
    return await asyncio.to_thread(run)


def _window(request: Request) -> float:
    return float(hub_of(request).config.online_window)


def player_name(request: Request) -> str:
    """The path's player name, checked.

    Raises:
        ApiError: not a username (404 ``no-player``).
    """
    try:
        return check_username(request.path_params["name"])
    except AccountError:
        raise ApiError("there is no such player", "no-player", 404) from None


async def _account(request: Request) -> Account:
    account = await signed_in(request)
    if account is None:
        raise ApiError("sign in first: accounts follow accounts", "signed-out", 401)
    return account


async def _limit(request: Request, account: Account) -> None:
    """One more change from ``account``.

    Raises:
        ApiError: ``follow-rate`` (429, ``Retry-After``).
    """
    state = request.app.state
    limit = getattr(state, "follow_limit", None)
    if limit is None:
        limit = state.follow_limit = state.limits.limit(
            "follow", per_minute=FOLLOWS_PER_MINUTE, burst=FOLLOWS_BURST)
    if not await limit.allow(f"account:{account.id}"):
        raise ApiError("too many changes: wait a minute and try again", "follow-rate", 429,
                       {"Retry-After": str(limit.retry_after())})


async def follow(request: Request) -> Response:
    """Follow ``{name}``: ``{"following": true, "followers"}`` (its followers now).

    Raises:
        ApiError: ``signed-out`` (401), ``no-player`` (404), ``follow-self`` (400),
            ``too-many-follows`` (409), ``follow-rate`` (429), the body's (400, 413).
    """
    await json_body(request)
    name = player_name(request)
    account = await _account(request)
    await _limit(request, account)

    def write(conn: Any, now: float) -> int:
        return follows.followers_count(conn, follows.follow(conn, account.id, name, now))

    return JSONResponse({"following": True, "followers": await _db(request, write)})


async def unfollow(request: Request) -> Response:
    """Stop following ``{name}``: ``{"following": false, "followers"}``.

    Raises:
        ApiError: ``signed-out`` (401), ``no-player`` (404), ``follow-rate`` (429).
    """
    name = player_name(request)
    account = await _account(request)
    await _limit(request, account)

    def write(conn: Any, _now: float) -> int:
        return follows.followers_count(conn, follows.unfollow(conn, account.id, name))

    return JSONResponse({"following": False, "followers": await _db(request, write)})


async def mine(request: Request) -> Response:
    """The accounts I follow: ``{"follows": [{"name", "profile", "since", "online"}],
    "max"}``, those online first, then by name (``online``: ``places.presence_of``,
    null for an account that does not show it).

    Raises:
        ApiError: ``signed-out`` (401).
    """
    account = await _account(request)
    window = _window(request)

    def listing(conn: Connection, now: float) -> list[dict[str, Any]]:
        rows = follows.followed(conn, account.id)
        shown = places.presence_of(conn, [r.id for r in rows], now, window)
        return [{"name": r.username, "profile": f"/players/{r.username}",
                 "since": r.created_at, "online": shown[r.id]} for r in rows]

    listed = await read(request, listing)
    listed.sort(key=lambda f: not (f["online"] or {}).get("online"))  # stable: by name
    return JSONResponse({"follows": listed, "max": follows.MAX_FOLLOWS})


async def online(request: Request) -> Response:
    """Who is online and shows it: ``{"count", "people": [{"name", "profile"}], "more"}``
    (at most ``places.MAX_ONLINE_NAMES`` names, by name; read again every
    :data:`ONLINE_CACHE` seconds at most by each process)."""
    hub = hub_of(request)
    state = request.app.state
    cached: tuple[float, dict[str, Any]] | None = getattr(state, "online_names", None)
    mono = hub.clock.monotonic()
    if cached is None or mono - cached[0] >= ONLINE_CACHE:
        window = _window(request)
        most = places.MAX_ONLINE_NAMES
        names, count = await read(
            request, lambda conn, now: places.online_names(conn, now, window, most))
        cached = state.online_names = (mono, {
            "count": count, "more": count - len(names),
            "people": [{"name": n, "profile": f"/players/{n}"} for n in names]})
    return JSONResponse(cached[1])


async def presence_choice(request: Request) -> Response:
    """``GET``: my choice, ``{"visible"}``; ``POST {"visible": bool}`` changes it.

    Raises:
        ApiError: ``signed-out`` (401), ``bad-field`` (400), ``follow-rate`` (429).
    """
    account = await _account(request)
    if request.method == "GET":
        hidden = await read(request, lambda conn, _now: places.is_hidden(conn, account.id))
        return JSONResponse({"visible": not hidden})
    data = await json_body(request)
    visible = data.get("visible")
    if not isinstance(visible, bool):
        raise ApiError("visible must be true or false", "bad-field")
    await _limit(request, account)
    await _db(request, lambda conn, _now: places.set_hidden(conn, account.id, not visible))
    request.app.state.online_names = None  # the list changes at once here
    return JSONResponse({"visible": visible})


async def profile_extra(request: Request, name: str, viewer: Account | None
                        ) -> dict[str, Any]:
    """What a player's profile adds: ``following`` and ``followers`` (counts),
    ``you_follow`` (whether the signed-in ``viewer`` follows the player; None for a guest
    or the player themself) and ``online`` (``places.presence_of``).

    Raises:
        ApiError: ``no-player`` (404).
    """
    window = _window(request)

    def extra(conn: Connection, now: float) -> dict[str, Any]:
        player = int(follows.live_account(conn, name).id)
        return {"following": follows.following_count(conn, player),
                "followers": follows.followers_count(conn, player),
                "you_follow": None if viewer is None or viewer.id == player
                else follows.is_following(conn, viewer.id, player),
                "online": places.presence_of(conn, [player], now, window)[player]}

    return await read(request, extra)


def routes() -> list[Route]:
    """The follow and presence routes, for the app factory."""
    return [
        Route("/api/follows", mine),
        Route("/api/follows/{name}", follow, methods=["POST"]),
        Route("/api/follows/{name}", unfollow, methods=["DELETE"]),
        Route("/api/online", online),
        Route("/api/account/presence", presence_choice, methods=["GET", "POST"]),
    ]
