"""Find players: the lobby's routes for requests to play (``seeks.py``;
docs/server.md, "Find players").

Routes::

    POST /api/seeks          ask to play: {preset, players, rated, bots_after, level,
                             deals, name} (replaces this person's request)
    GET  /api/seeks          the open requests, people online, and this person's own
                             request (its countdown; once seated, the seat cookie)
    POST /api/seeks/cancel   leave (the lobby also sends it when the page closes)

A person is the signed-in account, else the browser identity.  The request's token
(cookie ``polignac_seek``, HttpOnly) becomes the seat's token at the new table: the
database keeps only its hash, as for every seat.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from sqlalchemy.exc import IntegrityError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...core import PRESETS
from ...i18n import default_name
from ..base.errors import ApiError
from ..base.httplimits import client_address, client_network
from ..base.security import hash_token, new_token, token_matches
from ..lobby import limits as seek_limits
from ..lobby import seek_rows, seeks
from ..players.places import LOBBY, Place
from ..players.ratelimits import SharedLimits
from ..store.db import transact
from ..tables.hub import hub_of
from .account_routes import signed_in
from .http import (
    identity,
    json_body,
    set_identity,
    set_seat_cookie,
)
from .lobby_routes import time_control_of
from .person_names import person_name

SEEK_COOKIE = "polignac_seek"
IN_LOBBY = Place(LOBBY)
_SEEK_COOKIE_OK = re.compile(r"([A-Za-z0-9_\-]{8,24})\.([A-Za-z0-9_\-]{20,64})")


class SeekService:
    """The seek routes' state in one web process: the request rate limit (shared by
    every process when the bus is Redis: ``ratelimits.py``) and the cached online
    count."""

    def __init__(self, limits: SharedLimits) -> None:
        self.limit = limits.limit("seek", per_minute=20, burst=10)
        """Requests (new, replaced) per address and per browser."""
        self.online: tuple[float, int] = (0.0, 0)
        """(when, count) of the last online count (asked at most every 2 s)."""
        self.listing: tuple[float, list[dict[str, Any]]] = (0.0, [])
        """(when, list) of the last open requests read (again after a second, or at
        once after this process stored or cancelled one)."""


def service(request: Request) -> SeekService:
    """This app's :class:`SeekService` (made on first use)."""
    state = request.app.state
    found: SeekService | None = getattr(state, "seeks", None)
    if found is None:
        found = state.seeks = SeekService(state.limits)
    return found


async def _person(request: Request) -> tuple[str, str, str | None, str | None]:
    """(person key, identity hash, fresh identity to set, account name or None)."""
    holder, fresh = identity(request)
    account = await signed_in(request)
    if account is not None:
        return f"a:{account.id}", holder, fresh, account.username
    return f"g:{holder}", holder, fresh, None


def _choice(data: dict[str, Any], field: str, choices: tuple[Any, ...], default: Any) -> Any:
    """``data[field]``, one of ``choices`` (ints and null only; never a bool).

    Raises:
        ApiError: anything else (400 ``bad-field``).
    """
    value = data.get(field, default)
    if isinstance(value, bool) or value not in choices:
        shown = ", ".join("null" if c is None else str(c) for c in choices)
        raise ApiError(f"{field} must be one of {shown}", "bad-field")
    return value


def _db(request: Request, fn: Any) -> Any:
    """``fn(conn, now)`` in one transaction, in a thread (``store/db.py:transact``)."""
    hub = hub_of(request)
    assert hub.store is not None
    return transact(hub.store.engine, hub.clock, fn)


def _seated_url(row: Any) -> str | None:
    """The table of a request once seated (None before: the table may not exist yet)."""
    return f"/tables/{row.table_id}" if row.state == seeks.SEATED else None


def _own(row: Any, now: float, names: list[str]) -> dict[str, Any]:
    """A person's own request as the lobby shows it."""
    out: dict[str, Any] = {
        "id": row.id, "state": row.state, "preset": row.preset, "players": row.players,
        "rated": bool(row.rated), "deals": row.deals, "bots_after": row.bots_after,
        "time_control": seek_rows.control_of(row),
        "level": row.level, "name": row.name, "waited": round(now - row.created_at, 1),
    }
    if row.bots_after is not None and row.state == seeks.WAITING:
        out["bots_in"] = round(max(0.0, row.created_at + row.bots_after - now), 1)
    if row.state == seeks.COUNTDOWN:
        out["seconds_left"] = round(max(0.0, row.starts_at - now), 1)
        out["with"] = names
        out["bots"] = row.players - len(names)
    if row.state == seeks.SEATED:
        out["url"] = f"/tables/{row.table_id}"
    return out


async def ask(request: Request) -> Response:
    """Ask to play (replaces this person's request) -> ``{"seek": own request}``.

    Raises:
        ApiError: ``bad-field``, ``bad-preset``, ``bad-players``, ``bad-level``,
            ``bad-deals`` (400); ``seek-seated`` (409: the last request was just
            seated); ``seek-rate``, ``too-many-seeks`` (429: this address or network
            holds its most live requests, or the server does and none of them is
            unheld); ``bad-origin`` (403).
    """
    data = await json_body(request)
    hub = hub_of(request)
    config = hub.config
    preset = data.get("preset", "polignac")
    if not isinstance(preset, str):
        raise ApiError("preset must be text", "bad-field")
    seeks.seek_overrides(preset, None)  # bad-preset
    rules = PRESETS[preset]
    players = data.get("players", rules.default_players)
    if isinstance(players, bool) or not isinstance(players, int) \
            or players not in rules.players:
        raise ApiError(f"players: {preset} is played by "
                       f"{', '.join(str(n) for n in rules.players)}", "bad-players")
    rated = data.get("rated", False)
    if not isinstance(rated, bool):
        raise ApiError("rated must be true or false", "bad-field")
    bots_after = _choice(data, "bots_after", seeks.bot_waits(config.seek_bot_waits), None)
    deals = _choice(data, "deals", seeks.DEALS, None)
    seeks.seek_overrides(preset, deals)  # bad-deals
    control = seek_rows.stored_control(time_control_of(data))  # bad-time-control
    level = data.get("level", config.play_now_level)
    if not isinstance(level, str) or level not in config.bot_levels:
        raise ApiError(f"level must be one of {', '.join(config.bot_levels)}", "bad-level")
    person, holder, fresh, _account = await _person(request)
    name, _account = await person_name(
        request, data.get("name"), default_name("name.guest", n=int(holder[:4], 16) % 1000))
    svc = service(request)
    address = client_address(request.scope)[:64]
    network = client_network(address)[:64]
    if not await svc.limit.allow(f"address:{address}", f"identity:{holder}"):
        raise ApiError("too many requests to play from you; try again in a minute",
                       "seek-rate", 429, {"Retry-After": str(svc.limit.retry_after())})
    token = new_token()
    seek_id = secrets.token_urlsafe(12)

    def store(conn: Any, now: float) -> Any:
        old = seeks.mine(conn, person)
        if old is not None and not seeks.remove(conn, old):
            url = _seated_url(old)
            raise ApiError("your last request was just seated at a table: go to it "
                           f"({url})" if url else
                           "your last request is being seated at a table",
                           "seek-seated", 409, extra={"url": url})
        seek_limits.check_room(conn, now, config, address, network)
        seeks.add(conn, {"id": seek_id, "person": person, "identity_hash": holder,
                         "token_hash": hash_token(token), "name": name, "preset": preset,
                         "players": players, "rated": rated, "deals": deals,
                         "time_control": control,
                         "bots_after": bots_after, "level": level, "created_at": now,
                         "seen_at": now, "address": address, "network": network})
        return _own(seeks.mine(conn, person), now, [])

    try:
        own = await _db(request, store)
    except IntegrityError:  # the same person asked twice at once (another process)
        raise ApiError("another request of yours is being stored; try again",
                       "seek-busy", 409) from None
    svc.listing = (0.0, [])
    response = JSONResponse({"seek": own})
    response.set_cookie(SEEK_COOKIE, f"{seek_id}.{token}", max_age=int(config.seek_lifetime),
                        httponly=True, samesite="lax", secure=config.secure_cookies, path="/")
    set_identity(response, config, fresh)
    return response


async def status(request: Request) -> Response:
    """The lobby's poll: ``{"online", "seeks": [open requests by game], "mine"}``.

    ``mine`` is this person's request (``null`` when none): its state, the
    countdown's seconds and who is with them, and once ``seated`` the table's
    ``url`` (this answer then sets the seat cookie, and the request is done).
    Asking keeps one's request alive (``seek_stale``) and counts one online (a
    signed-in person: in the lobby, ``players/places.py``).
    """
    hub = hub_of(request)
    config = hub.config
    svc = service(request)
    person, holder, fresh, account_name = await _person(request)
    cookie = _SEEK_COOKIE_OK.fullmatch(request.cookies.get(SEEK_COOKIE, ""))
    wall = hub.clock.monotonic()
    count_online = wall - svc.online[0] >= 2.0
    list_again = wall - svc.listing[0] >= min(1.0, config.seek_tick)

    def read(conn: Any, now: float) -> dict[str, Any]:
        row = seeks.mine(conn, person)
        out: dict[str, Any] = {"mine": None, "deliver": None, "seen": None}
        if row is not None:
            if row.state in seeks.OPEN_STATES:
                out["seen"] = row.id
            names = seeks.group_names(conn, row.group_id) if row.group_id else []
            out["mine"] = _own(row, now, names)
            if row.state == seeks.SEATED and cookie and cookie.group(1) == row.id \
                        and token_matches(cookie.group(2), row.token_hash):
                out["deliver"] = (row.table_id, row.seat, cookie.group(2))
                seeks.delivered(conn, row.id)  # else it expires (another browser)
        if count_online:
            out["online"] = seek_rows.online_count(conn, now, config.online_window)
        if list_again:
            out["seeks"] = seek_rows.listing(conn)
        return out

    got = await _db(request, read)
    # the request is alive, the browser online: the matchmaker's next round writes it
    matchmaker = request.app.state.matchmaker
    matchmaker.mark(got["seen"], holder)
    if account_name is not None:  # and the account in the lobby (players/places.py)
        matchmaker.places.mark(account_name, IN_LOBBY)
    if count_online:
        svc.online = (wall, got["online"])
    if list_again:
        svc.listing = (wall, got["seeks"])
    response = JSONResponse({"online": max(1, svc.online[1]), "seeks": svc.listing[1],
                             "mine": got["mine"]})
    if got["deliver"] is not None:
        table_id, seat, token = got["deliver"]
        set_seat_cookie(response, config, table_id, seat, token)
        response.delete_cookie(SEEK_COOKIE, path="/")
    set_identity(response, config, fresh)
    return response


async def cancel(request: Request) -> Response:
    """Leave: ``{"cancelled": true}``, or false when there was no request.

    Raises:
        ApiError: ``seek-seated`` (409, with ``url`` when known: too late, the table
            is being made or made); ``bad-origin`` (403).
    """
    await json_body(request)
    person, _holder, _fresh, _name = await _person(request)

    def drop(conn: Any, _now: float) -> bool:
        row = seeks.mine(conn, person)
        if row is None:
            return False
        if not seeks.remove(conn, row):
            raise ApiError("too late: you are being seated at a table", "seek-seated", 409,
                           extra={"url": _seated_url(row)})
        return True

    cancelled = await _db(request, drop)
    service(request).listing = (0.0, [])
    response = JSONResponse({"cancelled": cancelled})
    if cancelled:
        response.delete_cookie(SEEK_COOKIE, path="/")
    return response


def routes() -> list[BaseRoute]:
    """The seek routes."""
    return [
        Route("/api/seeks", ask, methods=["POST"]),
        Route("/api/seeks", status, methods=["GET"]),
        Route("/api/seeks/cancel", cancel, methods=["POST"]),
    ]
