"""The replay viewer: its pages and ``POST /api/replay``.

Routes::

    GET  /replay                 the replay viewer (upload a record)
    GET  /tables/{id}/replay     the replay viewer for a table's record
    POST /api/replay?from=N&count=K   a record -> the match's summary, and for deals
                                      N..N+K-1 the hands as dealt and every state

The browser needs no rules engine: the server replays the record with the core
(``polignac.core.record.replay``) and sends, for every deal, the state after
each action (hands left, trick on the table, last trick, tricks won). A record
that does not replay gets a 400 with the core's message, which names the deal,
the action and the rule broken.

The answer is paged: every state of every deal of a record of 1,000 deals is
about 20 MB, which a client that does not read would hold in the server's
memory.  One answer holds the match's summary (every deal's score) and the
states of at most :data:`MAX_PAGE` deals; the viewer asks for the next deals
as it shows them (``static/replay.js``).

The replay runs in a worker process (``jobs.replay_job`` in the app's pool,
``workers.py``, queued under the client's address): parsing the body, replaying
and writing the answer grow with the record, and a record of
:data:`MAX_RECORD` bytes takes seconds.  A replay that runs longer than the pool's
time limit (``polignac serve --job-timeout``) is answered ``503 job-timeout``.
"""

from __future__ import annotations

import functools
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute, Route

from ..base.errors import ApiError
from ..base.inputs import ascii_int
from ..base.pages import error_page
from ..base.requests import read_body
from ..jobs.jobs import REPLAY_PAGE, replay_job
from ..jobs.jobs import dumps as dumps
from ..jobs.jobs import replay_steps as replay_steps
from .http import run_json_job

STATIC = Path(__file__).parent.parent / "static"
MAX_RECORD = 4 * 1024 * 1024
PAGE = REPLAY_PAGE
MAX_PAGE = 32
"""Deals whose states one answer holds at most (``count``)."""
MAX_DEALS = 100_000
"""Largest deal number ``from`` may name (a record holds far fewer)."""


async def replay_page(request: Request) -> Response:
    """The replay viewer (upload a record)."""
    return FileResponse(STATIC / "replay.html")


async def table_replay_page(request: Request) -> Response:
    """The replay viewer for one table (its script loads the table's record)."""
    hub = getattr(request.app.state, "hub", None)
    if hub is not None and await hub.find(request.path_params["table_id"]) is None:
        return error_page("there is no such table (or it was never created here)", "no-table",
                          404)
    return FileResponse(STATIC / "replay.html")


def page_of(request: Request) -> tuple[int, int]:
    """The query's ``from`` (a deal number, default 1) and ``count`` (default
    :data:`PAGE`, at most :data:`MAX_PAGE`).

    Raises:
        ApiError: 400 ``bad-page``, not ASCII digits or out of range.
    """
    query = request.query_params
    first = ascii_int(query.get("from", "1"), 1, MAX_DEALS)
    count = ascii_int(query.get("count", str(PAGE)), 1, MAX_PAGE)
    if first is None or count is None:
        raise ApiError(f"from must be a deal number (1 to {MAX_DEALS}) and count a number "
                       f"of deals from 1 to {MAX_PAGE}, in ASCII digits", "bad-page")
    return first, count


async def replay_api(request: Request) -> Response:
    """A record (JSON body) -> its summary and, for the page of deals the query names
    (``from``, ``count``), the hands as dealt and the states to step through."""
    page = page_of(request)
    body = await read_body(request, MAX_RECORD, "the record")
    first, count = page
    return await run_json_job(request, functools.partial(replay_job, first=first, count=count),
                              body, "the record", "to replay")


def routes() -> list[BaseRoute]:
    """The replay routes, for the app's route list."""
    return [
        Route("/replay", replay_page),
        Route("/tables/{table_id}/replay", table_replay_page),
        Route("/api/replay", replay_api, methods=["POST"]),
    ]
