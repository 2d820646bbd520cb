"""Profiles and leaderboards (docs/server.md, "Profiles and ratings").

    GET /players/{name}            a player's page (profile.html)
    GET /api/players/{name}        ratings with their history, statistics per game, the
                                   finished games (?page=N, 20 a page, newest first); for
                                   the player themself, their unfinished tables; follows'
                                   counts and presence (``follow_routes.py``)
    GET /leaderboard               the leaderboards' page (leaderboard.html)
    GET /api/leaderboard?pool=P    the best 100 ratings of a pool (game family)

Everything is read from the finished records (``results.py``) and the ratings
(``ratings.py``) with indexed queries, in a thread.
"""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from ..base.inputs import ascii_int
from ..base.pages import STATIC
from ..base.seating import identity_hash, read_identity
from ..players.accounts import AccountError, check_username
from ..players.profiles import (
    DEFAULT_POOL,
    MAX_PAGE,
    POOLS,
    leaderboard_data,
    pool_of_preset,
    profile_data,
    turns_of,
)
from ..tables.hub import hub_of
from .account_routes import service, signed_in
from .follow_routes import profile_extra


def _name(request: Request) -> str:
    try:
        return check_username(request.path_params["name"])
    except AccountError:
        raise AccountError("there is no such player", "no-player", 404) from None


async def profile(request: Request) -> Response:
    """A player's data (see the module); ``?page=N`` from 0."""
    name = _name(request)
    page = ascii_int(request.query_params.get("page", "0"), 0, MAX_PAGE)
    if page is None:
        return JSONResponse({"error": f"page must be a number from 0 to {MAX_PAGE}",
                             "rule": "bad-field"}, status_code=400)
    me = await signed_in(request)
    own = me is not None and me.username.lower() == name.lower()
    data = await asyncio.to_thread(profile_data, service(request).store.engine, name, page,
                                   own)
    if data is None:
        return JSONResponse({"error": "there is no such player", "rule": "no-player"},
                            status_code=404)
    data.update(await profile_extra(request, name, me))
    return JSONResponse(data)


async def leaderboard(request: Request) -> Response:
    """``?pool=P`` (default :data:`DEFAULT_POOL`) -> ``{"pool", "pools", "players"}``."""
    pool = request.query_params.get("pool", DEFAULT_POOL)
    if pool not in POOLS:
        return JSONResponse({"error": f"pool must be one of {', '.join(POOLS)}",
                             "rule": "bad-field"}, status_code=400)
    rows = await asyncio.to_thread(leaderboard_data, service(request).store.engine, pool)
    return JSONResponse({"pool": pool, "pools": list(POOLS),
                         "presets": pool_of_preset(), "players": rows})


async def my_turn(request: Request) -> Response:
    """``GET /api/my-turn``: the timed tables where it is this person's move (the
    signed-in account's, from any browser; a guest's in this browser), soonest deadline
    first, with the server's ``now``."""
    me = await signed_in(request)
    identity = read_identity(request.cookies)
    turns = await asyncio.to_thread(
        turns_of, service(request).store.engine, None if me is None else me.id,
        None if identity is None else identity_hash(identity))
    return JSONResponse({"turns": turns, "now": hub_of(request).clock.time()})


async def profile_page(request: Request) -> Response:
    """The player page; the script reads ``/api/players/{name}``."""
    return FileResponse(STATIC / "profile.html")


async def leaderboard_page(request: Request) -> Response:
    """The leaderboards' page."""
    return FileResponse(STATIC / "leaderboard.html")


def routes() -> list[Route]:
    """The profile and leaderboard routes, for the app factory."""
    return [
        Route("/players/{name}", profile_page),
        Route("/api/players/{name}", profile),
        Route("/leaderboard", leaderboard_page),
        Route("/api/leaderboard", leaderboard),
        Route("/api/my-turn", my_turn),
    ]
