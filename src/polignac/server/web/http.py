"""What the HTTP routes share: the hub and table of a request, the browser's
identity and seat cookies, the creation-rate check, the small JSON body, names
people type (a body's origin and type are checked before any route runs:
``requests.py:BodyPolicy``).  Every refusal raises ``errors.py:ApiError``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from ..base.config import ServerConfig
from ..base.errors import ApiError
from ..base.httplimits import client_address
from ..base.inputs import ascii_int
from ..base.requests import CHUNK, JsonInputError, parse_json, read_body
from ..base.seating import IDENTITY_COOKIE, identity_hash, new_identity, read_identity
from ..base.security import cookie_name
from ..jobs.workers import JobTimeout, PoolBusy, WorkerFailed, client_key
from ..tables.hub import hub_of
from ..tables.tables import GameTable

if TYPE_CHECKING:
    pass

STATIC = Path(__file__).parent.parent / "static"
MAX_JSON_BODY = 16 * 1024
"""The largest JSON body of the lobby's and the seats' routes."""
_NAME_OK = re.compile(r"[^\w \-'.]", re.UNICODE)


def clean_name(value: Any, default: str) -> str:
    """A player name: printable, at most 24 characters."""
    if not isinstance(value, str):
        return default
    text = _NAME_OK.sub("", value).strip()[:24]
    return text or default


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


def check_create_rate(request: Request, holder: str) -> None:
    """One more table for this address and this browser.

    Raises:
        ApiError: too many new tables from either (429 ``create-rate``, Retry-After).
    """
    hub = hub_of(request)
    if not hub.create_limit.allow(f"address:{client_address(request.scope)}", f"identity:{holder}"):
        raise ApiError(f"too many new tables from you: at most {hub.config.create_burst} at "
                       f"once and {hub.config.create_per_minute:g} a minute; try again later",
                       "create-rate", 429,
                       {"Retry-After": str(hub.create_limit.retry_after())})


async def json_body(request: Request, limit: int = MAX_JSON_BODY) -> dict[str, Any]:
    """The request's small JSON object (an empty body: ``{}``).

    Raises:
        ApiError: as ``requests.py:read_body`` (at most ``limit`` bytes, by default
            :data:`MAX_JSON_BODY`), JSON refused by ``parse_json`` (400), not an object (400
            ``bad-json``).
    """
    body = await read_body(request, limit, "the request")
    if not body:
        return {}
    try:
        data = parse_json(body, "the body")
    except JsonInputError as exc:
        raise ApiError(str(exc), exc.rule) from None
    if not isinstance(data, dict):
        raise ApiError("the body must be a JSON object", "bad-json")
    return data


async def run_json_job(request: Request, job: Callable[[bytes], tuple[int, bytes]], body: bytes,
                       what: str, doing: str) -> Response:
    """Run ``job(body)`` in the app's worker pool (queued under the client's address:
    its fair share, ``workers.py``) and answer its ``(status, JSON)``.

    Raises:
        ApiError: the pool's own refusals: ``503 busy`` (with ``Retry-After``)
            when too many jobs wait, ``503 job-timeout`` when the job ran past the
            time limit (its worker is killed), ``503 worker-failed`` when the
            worker ran out of memory or died.
    """
    pool = request.app.state.hub.workers
    try:
        status, data = await pool.run(job, body, client=client_key(request))
    except PoolBusy:
        raise ApiError("the server is busy with other heavy requests; try again in a "
                       "moment", "busy", 503, {"Retry-After": "1"}) from None
    except JobTimeout:
        raise ApiError(f"{what} took more than {pool.time_limit:g} s {doing}; the server "
                       "stopped (its time limit for one request)", "job-timeout",
                       503) from None
    except (WorkerFailed, MemoryError):
        raise ApiError(f"{what} could not be handled: the worker ran out of memory (its "
                       "limit for one request) or died", "worker-failed", 503) from None
    if len(data) <= CHUNK:
        return Response(data, status_code=status, media_type="application/json")
    view = memoryview(data)  # a large answer (a replay: up to ~40 MB) goes out in pieces,
    pieces = (view[i:i + CHUNK] for i in range(0, len(data), CHUNK))  # none holds the loop
    return StreamingResponse(pieces, status_code=status, media_type="application/json",
                             headers={"Content-Length": str(len(data))})
