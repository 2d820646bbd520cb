"""The replay viewer: its pages and ``POST /api/replay``.

Routes::

    GET  /replay                 the replay viewer (upload a record)
    GET  /tables/{id}/replay     the replay viewer for a table's record
    POST /api/replay             a record -> per deal, the hands as dealt and every state

The browser needs no rules engine: the server replays the record with the core
(``polignac.core.record.replay``) and sends, for every deal, the state after
each action (hands left, trick on the table, last trick, tricks won). A record
that does not replay gets a 400 with the core's message, which names the deal,
the action and the rule broken.

The replay runs in a worker process (``jobs.replay_job`` in the app's pool,
``workers.py``, queued under the client's address): parsing the body, replaying
and writing the answer grow with the record, and a record of
:data:`MAX_RECORD` bytes takes seconds.  A replay that runs longer than the pool's
time limit (``polignac serve --job-timeout``) is answered ``503 job-timeout``.
"""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute, Route

from .jobs import dumps as dumps
from .jobs import replay_job
from .jobs import replay_steps as replay_steps
from .pages import error_page
from .requests import read_body, run_json_job

STATIC = Path(__file__).parent / "static"
MAX_RECORD = 4 * 1024 * 1024



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


async def replay_api(request: Request) -> Response:
    """A record (JSON body) -> its deals, hands as dealt and the states to step through."""
    body = await read_body(request, MAX_RECORD, "the record")
    return await run_json_job(request, replay_job, body, "the record", "to replay")


def routes() -> list[BaseRoute]:
    """The replay routes, for the app's route list."""
    return [
        Route("/replay", replay_page),
        Route("/tables/{table_id}/replay", table_replay_page),
        Route("/api/replay", replay_api, methods=["POST"]),
    ]
