"""What the HTTP routes share: the hub and table of a request, the browser's
identity and seat cookies, the origin and creation-rate checks, the small JSON
body, names people type.  Every refusal raises ``errors.py:ApiError``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from .config import ServerConfig
from .errors import ApiError
from .inputs import ascii_int
from .requests import JsonInputError, parse_json, read_body
from .seating import IDENTITY_COOKIE, identity_hash, new_identity, read_identity
from .security import cookie_name, origin_allowed
from .tables import GameTable

if TYPE_CHECKING:
    from .hub import Hub

STATIC = Path(__file__).parent / "static"
MAX_JSON_BODY = 16 * 1024
"""The largest JSON body of the lobby's and the seats' routes."""
_NAME_OK = re.compile(r"[^\w \-'.]", re.UNICODE)


def clean_name(value: Any, default: str) -> str:
    """A player name: printable, at most 24 characters."""
    if not isinstance(value, str):
        return default
    text = _NAME_OK.sub("", value).strip()[:24]
    return text or default


def hub_of(conn: HTTPConnection) -> Hub:
    """The app's hub (``hub.py:Hub``)."""
    hub: Hub = conn.app.state.hub
    return hub


async def table_of(request: Request) -> GameTable:
    """The table named by the path's ``table_id``.

    Raises:
        ApiError: no such table (404 ``no-table``).
    """
    table = await hub_of(request).find(request.path_params["table_id"])
    if table is None:
        raise ApiError("there is no such table (or it was never created here)", "no-table", 404)
    return table


def seat_param(request: Request, table: GameTable) -> int:
    """The path's ``seat``: a seat of ``table``.

    Raises:
        ApiError: not a seat number of this table (404 ``bad-seat``).
    """
    seat = ascii_int(request.path_params["seat"], 0, len(table.seats) - 1)
    if seat is None:
        raise ApiError(f"no such seat: seats are 0 to {len(table.seats) - 1}", "bad-seat", 404)
    return seat


def set_seat_cookie(response: Response, config: ServerConfig, table_id: str, seat: int,
                    token: str) -> None:
    """Give the browser its seat at ``table_id`` (cookie ``SEAT.TOKEN``)."""
    response.set_cookie(cookie_name(table_id), f"{seat}.{token}", max_age=30 * 24 * 3600,
                        httponly=True, samesite="lax", secure=config.secure_cookies, path="/")


def identity(request: Request) -> tuple[str, str | None]:
    """This browser's identity hash, and the new identity to set when it had none."""
    known = read_identity(request.cookies)
    if known is not None:
        return identity_hash(known), None
    fresh = new_identity()
    return identity_hash(fresh), fresh


def set_identity(response: Response, config: ServerConfig, fresh: str | None) -> None:
    """Set the browser identity cookie (``seating.py``) when ``fresh`` is a new one."""
    if fresh is not None:
        response.set_cookie(IDENTITY_COOKIE, fresh, max_age=400 * 24 * 3600, httponly=True,
                            samesite="lax", secure=config.secure_cookies, path="/")


def client_address(conn: HTTPConnection) -> str:
    """The client's address as the server sees it (``?`` when unknown)."""
    return conn.client.host if conn.client else "?"


def check_origin(request: Request) -> None:
    """Raises: ApiError: a cross-site page sent the request (403 ``bad-origin``)."""
    if not origin_allowed(request.headers.get("origin"), request.headers.get("host"),
                          hub_of(request).config.allowed_origins):
        raise ApiError("cross-site request refused", "bad-origin", 403)


def check_create_rate(request: Request, holder: str) -> None:
    """One more table for this address and this browser.

    Raises:
        ApiError: too many new tables from either (429 ``create-rate``, Retry-After).
    """
    hub = hub_of(request)
    if not hub.create_limit.allow(f"address:{client_address(request)}", f"identity:{holder}"):
        raise ApiError(f"too many new tables from you: at most {hub.config.create_burst} at "
                       f"once and {hub.config.create_per_minute:g} a minute; try again later",
                       "create-rate", 429,
                       {"Retry-After": str(hub.create_limit.retry_after())})


async def json_body(request: Request) -> dict[str, Any]:
    """The request's small JSON object (an empty body: ``{}``).

    Raises:
        ApiError: as ``requests.py:read_body`` (at most :data:`MAX_JSON_BODY`
            bytes), JSON refused by ``parse_json`` (400), not an object (400
            ``bad-json``).
    """
    body = await read_body(request, MAX_JSON_BODY, "the request")
    if not body:
        return {}
    try:
        data = parse_json(body, "the body")
    except JsonInputError as exc:
        raise ApiError(str(exc), exc.rule) from None
    if not isinstance(data, dict):
        raise ApiError("the body must be a JSON object", "bad-json")
    return data
