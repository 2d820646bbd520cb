"""The commitment log's routes (the log itself: ``store/commitments.py``).

    GET /api/commitments?after=SEQ&limit=N[&until=B]  the chain, N entries after SEQ
                                                      (and at most up to entry B)
    GET /tables/{id}/commitments?after=DEAL&limit=N   a table's entries, by deal number
                                                      (and its deals dealt before the
                                                      chain existed: ``before_log``)
"""

from __future__ import annotations

import asyncio

from sqlalchemy import Engine
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..base.errors import ApiError
from ..base.inputs import ascii_int
from ..store.commitments import MAX_PAGE, PAGE, chain_page, table_page
from ..store.ids import TABLE_ID
from ..tables.hub import hub_of


def _paging(request: Request, after_name: str) -> tuple[int, int]:
    after = ascii_int(request.query_params.get("after", "0"), 0, 10 ** 15)
    if after is None:
        raise ApiError(f"after must be a whole number from 0 ({after_name})", "bad-field")
    limit = ascii_int(request.query_params.get("limit", str(PAGE)), 1, MAX_PAGE)
    if limit is None:
        raise ApiError(f"limit must be a whole number from 1 to {MAX_PAGE}", "bad-field")
    return after, limit


def _engine(request: Request) -> Engine:
    """The database's engine.

    Raises:
        ApiError: the server is not started yet (503).
    """
    hub = hub_of(request)
    if hub.store is None:
        raise ApiError("the server is starting", "starting", 503)
    engine: Engine = hub.store.engine
    return engine


async def chain_route(request: Request) -> Response:
    """``GET /api/commitments``: a page of the whole chain (``until``: up to that entry).

    Raises:
        ApiError: a malformed ``after``, ``limit`` or ``until`` (400 ``bad-field``), or
            the server is starting (503).
    """
    after, limit = _paging(request, "an entry number")
    until: int | None = None
    text = request.query_params.get("until")
    if text is not None:
        until = ascii_int(text, 1, 10 ** 15)
        if until is None:
            raise ApiError("until must be a whole number from 1 (an entry number)",
                           "bad-field")
    return JSONResponse(await asyncio.to_thread(chain_page, _engine(request), after, limit,
                                                until))


async def table_route(request: Request) -> Response:
    """``GET /tables/{id}/commitments``: a page of one table's entries."""
    table_id = request.path_params["table_id"]
    if not TABLE_ID.fullmatch(table_id):
        raise ApiError("there is no such table (or it was never created here)", "no-table",
                       404)
    after, limit = _paging(request, "a deal number")
    return JSONResponse(await asyncio.to_thread(table_page, _engine(request), table_id,
                                                after, limit))


def routes() -> list[Route]:
    """The routes of this module."""
    return [Route("/api/commitments", chain_route),
            Route("/tables/{table_id}/commitments", table_route)]

