"""Arena tournaments' routes (docs/events.md; the runner is ``events/runner.py``).

Routes::

    POST /api/tournaments               create one (signed in): the settings
                                        (``tournament.py:Settings.parse``)
    GET  /api/tournaments               the coming and running ones (the lobby's list)
    GET  /api/tournaments/{id}          settings, state, standings with each player's
                                        matches, the podium once finished, and your own
                                        line (``me``: your state and, once seated, your
                                        table's ``your_table`` url; this answer then sets
                                        the seat's cookie, on any process)
    POST /api/tournaments/{id}/join     join (signed in), or come back
    POST /api/tournaments/{id}/pause    stop being paired for now
    POST /api/tournaments/{id}/leave    leave (your points stay)
    GET  /tournaments/{id}              the page (tournament.html)
    WS   /tournaments/{id}/ws           the standings, pushed whenever they change

Players are accounts: a guest may join no arena (rated or not: ``arena-sign-in``); an
account banned from rated play (``players/conduct.py``) joins no rated one
(``play-ban``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..base.errors import ApiError
from ..base.pages import STATIC
from ..base.seating import identity_hash, read_identity
from ..base.security import origin_allowed
from ..events import schedule_store, store
from ..events.runner import ArenaRunner
from ..events.scoring import Standing
from ..events.tournament import FINISHED, Settings
from ..players.accounts import Account, link_identity
from ..players.places import ARENA, Place
from ..store.db import transact
from ..store.schema import accounts_t
from ..tables.hub import hub_of
from .account_routes import signed_in
from .http import json_body, set_seat_cookie

_ID_OK = re.compile(r"[A-Za-z0-9_\-]{8,24}")
MAX_SHOWN = 500
"""Standings lines a page gets at most (the rest: their count)."""


def runner_of(request: Request | WebSocket) -> ArenaRunner:
    """This app's arena runner."""
    runner: ArenaRunner = request.app.state.arena
    return runner


def _tid(request: Request | WebSocket) -> str:
    """The tournament id of the path.

    Raises:
        ApiError: not an id (404 ``no-tournament``).
    """
    tid = request.path_params["tid"]
    if not _ID_OK.fullmatch(tid):
        raise ApiError("no such tournament", "no-tournament", 404)
    return str(tid)


def _db(request: Request | WebSocket, fn: Any) -> Any:
    """``fn(conn, now)`` in one transaction, in a thread (``store/db.py:transact``)."""
    hub = hub_of(request)
    assert hub.store is not None
    return transact(hub.store.engine, hub.clock, fn)


async def _account(request: Request) -> Account:
    account = await signed_in(request)
    if account is None:
        raise ApiError("sign in first: arenas are played by accounts", "signed-out", 401)
    return account


def _summary(conn: Any, t: store.Tournament, now: float, players: int) -> dict[str, Any]:
    return {"id": t.id, "url": f"/tournaments/{t.id}", **t.settings.to_json(),
            "ends_at": t.settings.ends_at, "state": t.settings.state(now),
            "players": players, "creator": t.creator,
            "schedule": schedule_store.shown(conn, t.schedule_id)}


async def create(request: Request) -> Response:
    """Create an arena: ``{"id", "url"}``.

    Raises:
        ApiError: ``signed-out`` (401), ``create-rate`` (429), and the settings' own
            (400: ``Settings.parse``).
    """
    data = await json_body(request)
    account = await _account(request)
    hub = hub_of(request)
    settings = Settings.parse(data, hub.clock.time())
    if not hub.create_limit.allow(f"arena:{account.id}"):
        raise ApiError("too many new arenas from you; try again later", "create-rate", 429,
                       {"Retry-After": str(hub.create_limit.retry_after())})
    tid = await _db(request, lambda conn, now: store.create(conn, account.id, settings, now))
    return JSONResponse({"id": tid, "url": f"/tournaments/{tid}"})


async def listing(request: Request) -> Response:
    """The coming and running arenas, the soonest first: ``{"tournaments": [...]}``."""
    def read(conn: Any, now: float) -> list[dict[str, Any]]:
        return [_summary(conn, t, now, len(store.entrants(conn, t.id)))
                for t in store.coming(conn, now, 20)]
    return JSONResponse({"tournaments": await _db(request, read)})


def _line(s: Standing, names: dict[int, str], states: dict[int, str]) -> dict[str, Any]:
    return {"rank": s.rank, "id": s.player, "name": names.get(s.player, "?"),
            "points": float(s.points), "fire": s.fire, "state": states.get(s.player),
            "matches": [{"table": m.table_id, "place": m.place, "points": float(m.points),
                         "doubled": m.doubled, "win": m.win} for m in s.matches]}


def view(conn: Any, tid: str, now: float) -> dict[str, Any]:
    """A tournament as its page shows it (without ``me``).

    Raises:
        ApiError: ``no-tournament`` (404).
    """
    found = store.load(conn, tid)
    if found is None:
        raise ApiError("no such tournament", "no-tournament", 404)
    entrants = store.entrants(conn, tid)
    lines = store.standings_of(conn, tid)
    ids = [s.player for s in lines[:MAX_SHOWN]]
    names = {r.id: r.username for r in conn.execute(
        accounts_t.select().where(accounts_t.c.id.in_(ids)))} if ids else {}
    states = {e.account_id: e.state for e in entrants}
    running = store.running_matches(conn, tid)
    out = _summary(conn, found, now, len(entrants))
    out.update({"now": now, "playing": len(running),
                "standings": [_line(s, names, states) for s in lines[:MAX_SHOWN]],
                "more": max(0, len(lines) - MAX_SHOWN), "podium": None})
    if out["state"] == FINISHED and not running:
        out["podium"] = [_line(s, names, states) for s in lines[:3] if s.matches]
    return out


async def show(request: Request) -> Response:
    """One arena (see the module).

    Raises:
        ApiError: ``no-tournament`` (404).
    """
    tid = _tid(request)
    account = await signed_in(request)
    got = await _db(request, lambda conn, now: view(conn, tid, now))
    got["me"] = None
    response = JSONResponse(got)
    if account is not None:
        state = next((line["state"] for line in got["standings"] if line["id"] == account.id),
                     None)
        ticket = await runner_of(request).seat_for(tid, account.id)
        got["me"] = {"id": account.id, "state": state,
                     "your_table": f"/tables/{ticket.table_id}" if ticket else None}
        response = JSONResponse(got)
        if ticket is not None:
            set_seat_cookie(response, hub_of(request).config, ticket.table_id, ticket.seat,
                            ticket.token)
    return response


async def _change(request: Request, what: str) -> Response:
    """Join, pause or leave (``what``): ``{"state"}``.

    Raises:
        ApiError: ``arena-sign-in`` (401: a guest joining), ``signed-out`` (401: pausing
            or leaving), ``play-ban`` (403: joining a rated one while banned from rated
            play), ``no-tournament`` (404), ``tournament-over``, ``tournament-full``,
            ``not-in-tournament`` (409).
    """
    await json_body(request)
    tid = _tid(request)
    account = await signed_in(request)
    if account is None and what == "join":
        raise ApiError("sign in to join: arenas are played by accounts, not guests",
                       "arena-sign-in", 401)
    account = account or await _account(request)
    known = read_identity(request.cookies)
    holder = identity_hash(known) if known is not None else None

    def write(conn: Any, now: float) -> str:
        if what == "join":
            if holder is not None:  # the browser the tables will seat them by
                link_identity(conn, account.id, holder)
            return store.join(conn, tid, account.id, now).state
        (store.pause if what == "pause" else store.leave)(conn, tid, account.id, now)
        return store.PAUSED if what == "pause" else store.LEFT

    state = await _db(request, write)
    runner_of(request).changed(tid)
    return JSONResponse({"state": state})


async def join(request: Request) -> Response:
    """Join an arena (see :func:`_change`)."""
    return await _change(request, "join")


async def pause(request: Request) -> Response:
    """Pause in an arena (see :func:`_change`)."""
    return await _change(request, "pause")


async def leave(request: Request) -> Response:
    """Leave an arena (see :func:`_change`)."""
    return await _change(request, "leave")


async def page(request: Request) -> Response:
    """The arena's page; its script reads ``/api/tournaments/{id}``."""
    return FileResponse(STATIC / "tournament.html")


async def socket(websocket: WebSocket) -> None:
    """The live standings: a ``{"type": "standings", ...view}`` frame at once, then one
    each time they (or the players) change; nothing is read from the client.  While it
    is open, a signed-in person is in this arena (``players/places.py``)."""
    hub = hub_of(websocket)
    if not origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host"),
                          hub.config.allowed_origins):
        await websocket.close(code=4403)
        return
    try:
        tid = _tid(websocket)
        await _db(websocket, lambda conn, now: view(conn, tid, now))
    except ApiError:
        await websocket.close(code=4404)
        return
    runner = runner_of(websocket)
    account = await signed_in(websocket)
    places = websocket.app.state.matchmaker.places
    queue = runner.listen(tid)
    await websocket.accept()

    async def closed() -> None:
        with contextlib.suppress(WebSocketDisconnect):
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return

    reader = asyncio.get_running_loop().create_task(closed())
    held = None if account is None else places.hold(account.username, Place(ARENA, tid))
    try:
        while not reader.done():
            got = await _db(websocket, lambda conn, now: view(conn, tid, now))
            await websocket.send_text(json.dumps({"type": "standings", **got}))
            waiter = asyncio.ensure_future(queue.get())
            await asyncio.wait({waiter, reader}, return_when=asyncio.FIRST_COMPLETED)
            waiter.cancel()
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        reader.cancel()
        runner.unlisten(tid, queue)
        if held is not None:
            places.release(held)


def routes() -> list[BaseRoute]:
    """The arena routes, for the app factory."""
    return [
        Route("/api/tournaments", create, methods=["POST"]),
        Route("/api/tournaments", listing, methods=["GET"]),
        Route("/api/tournaments/{tid}", show, methods=["GET"]),
        Route("/api/tournaments/{tid}/join", join, methods=["POST"]),
        Route("/api/tournaments/{tid}/pause", pause, methods=["POST"]),
        Route("/api/tournaments/{tid}/leave", leave, methods=["POST"]),
        Route("/tournaments/{tid}", page),
        WebSocketRoute("/tournaments/{tid}/ws", socket),
    ]
