"""Blocks between accounts (``players/blocks.py``; docs/events.md, "Blocks and
invitations").

    GET  /api/blocks   signed in -> {"blocks": [username, ...]}, newest first
    POST /api/blocks   signed in, {"name", "block": true | false} -> {"name", "blocked"}

Every POST passes the app's body policy (JSON, the site's own ``Origin``), as the
account routes do; changes are limited per account, shared by every process.
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..base.errors import ApiError
from ..players import blocks
from ..store.db import transact_once_more
from ..tables.hub import hub_of
from .account_routes import _required, json_body, service

BLOCKS_PER_MINUTE = 30
"""Blocks and unblocks an account may make a minute (after a burst of as many)."""


def _limit(request: Request) -> Any:
    """The limit on block changes per account (shared by every process)."""
    state = request.app.state
    found = getattr(state, "block_limit", None)
    if found is None:
        found = state.block_limit = state.limits.limit(
            "block", per_minute=BLOCKS_PER_MINUTE, burst=BLOCKS_PER_MINUTE)
    return found


async def mine(request: Request) -> Response:
    """The usernames the signed-in account blocked.

    Raises:
        ApiError: 401 ``signed-out``.
    """
    account = await _required(request)
    names = await asyncio.to_thread(blocks.blocked_by, service(request).store.engine,
                                    account.id)
    return JSONResponse({"blocks": names})


async def change(request: Request) -> Response:
    """Block or unblock the account ``name``.

    Raises:
        ApiError: 401 ``signed-out``, 400 ``bad-field``, 404 ``no-player``, 400
            ``block-self``, 409 ``too-many-blocks``, 429 ``block-rate``: nothing changes.
    """
    account = await _required(request)
    data = await json_body(request)
    name, block = data.get("name"), data.get("block")
    if not isinstance(name, str) or not 0 < len(name) <= 32 or not isinstance(block, bool):
        raise ApiError("send the player's username (at most 32 characters) and block: "
                       "true or false", "bad-field")
    limit = _limit(request)
    if not await limit.allow(f"account:{account.id}"):
        raise ApiError(f"at most {BLOCKS_PER_MINUTE} blocks and unblocks a minute: wait a "
                       "moment", "block-rate", 429, {"Retry-After": str(limit.retry_after())})
    hub = hub_of(request)
    username = await transact_once_more(
        service(request).store.engine, hub.clock,
        lambda conn, now: blocks.set_block(conn, account.id, name, block, now))
    return JSONResponse({"name": username, "blocked": block})


def routes() -> list[Route]:
    """The block routes."""
    return [
        Route("/api/blocks", mine, methods=["GET"]),
        Route("/api/blocks", change, methods=["POST"]),
    ]
