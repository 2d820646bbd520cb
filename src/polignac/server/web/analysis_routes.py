"""The analysis of every action, one deal per job, off the event loop.

Routes::

    POST /api/analyze                   a record -> its deals' analyses, streamed
    POST /tables/{id}/analysis          analyse every finished deal of a table
    GET  /tables/{id}/analysis          progress, then the table's stored analyses
    GET  /tables/{id}/deals/{n}/analysis  one finished deal's analysis

**One job per deal.**  A record's analysis is a plan job (``jobs.analysis_plan_job``:
the record replays, it has N deals) and then one job per deal
(``jobs.analysis_deal_job``), run one after the other in the app's shared worker
pool as heavy jobs under the client's address (``workers.py``: round-robin over
clients, one client's share at most), so that other clients' replays, score pads
and hints run between the deals of a long analysis.  Each deal stops itself after
:data:`DEAL_TIME_LIMIT` seconds (its actions not reached are marked ``time``; the
whole record after :data:`TIME_LIMIT`) and the pool kills it :data:`GRACE` seconds
later (``job-timeout``).  With ``polignac serve --bot-queue`` the jobs go to the bot
workers' ``heavy`` stream (``hub.heavy``).  Since a record's analysis has one
job waiting at a time, a client's share of waiting jobs bounds its analyses at
once (past it, ``busy``).

**Stored once computed.**  Every complete deal analysis is kept in memory (the
last :data:`MAX_KEPT`), by table and deal for a table, by the record's SHA-256 and
the deal for a posted record, and served again without a job.  A table's are also
stored in the database with the table (``db.py:analyses_t``, written by the
process's one writer), so that they are served again after a restart, by any
process, and ``GET /tables/{id}/record.json`` carries them as its deals'
``analysis``.

``POST /api/analyze`` (``?samples=N``, 1 to :data:`MAX_SAMPLES`, default
:data:`SAMPLES`) answers ``application/x-ndjson``, one JSON object a line:
``{"total": N, "done": 0}``, then per deal ``{"deal": n, "done": k, "total": N,
"analysis": {...}}`` (the deal's ``analysis`` field, docs/record-format.md), then
``{"total": N, "done": N, "complete": bool}`` (``complete``: no action ran out of
time); a failure after the first line is a last line ``{"error", "rule"}``.  A
record refused before any work gets a plain JSON error (400 ``bad-record``,
``bad-samples``, 413, 503 ``busy``).

``POST /tables/{id}/analysis`` starts the analysis of every finished deal not yet
stored (in the background: it goes on when the page is closed) and answers its
progress; ``GET /tables/{id}/analysis`` answers ``{"total", "done", "running",
"jobs", "error"?}`` and, once nothing runs, ``"deals": {"1": analysis, ...}`` (the
stored ones).  ``jobs`` counts the deal jobs run for the table so far (a stored
deal costs none).  ``GET /tables/{id}/deals/{n}/analysis`` answers ``{"deal": n,
"analysis"}`` for finished deal ``n`` (``404 no-deal`` otherwise), computed once.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from ...core import to_record
from ..base.errors import ApiError
from ..base.inputs import ascii_int
from ..base.requests import read_body
from ..jobs.jobs import (
    ANALYSIS_MAX_DEALS,
    ANALYSIS_NODES,
    analysis_deal_job,
    analysis_plan_job,
    dumps,
)
from ..jobs.workers import JobTimeout, PoolBusy, WorkerFailed, client_key
from ..store.db import save_analysis

log = logging.getLogger("polignac.server")
MAX_BODY = 1024 * 1024
MAX_DEALS = ANALYSIS_MAX_DEALS
SAMPLES = 8
MAX_SAMPLES = 16
NODES = ANALYSIS_NODES
DEAL_TIME_LIMIT = 30.0
"""Seconds one deal's analysis may take; its actions not reached then are ``time``."""
TIME_LIMIT = 300.0
"""Seconds a whole record's analysis may take (the deals after get no time)."""
GRACE = 15.0
MAX_KEPT = 512
"""Deal analyses kept in memory (each some kilobytes)."""
MAX_PLANS = 256

_kept: OrderedDict[tuple[str, int, int], bytes] = OrderedDict()
"""(table id or record digest, deal, samples) -> the deal's analysis (JSON)."""
_plans: OrderedDict[str, tuple[int, bytes]] = OrderedDict()
"""record digest -> the plan job's answer."""


@dataclasses.dataclass
class Progress:
    """A table's analysis: deals to do, done, whether it runs, its failure, its jobs."""

    total: int = 0
    done: int = 0
    running: bool = False
    jobs: int = 0
    error: dict[str, Any] | None = None
    task: asyncio.Task[None] | None = None


_tables: OrderedDict[str, Progress] = OrderedDict()


def _keep(store: OrderedDict[Any, Any], key: Any, value: Any, most: int) -> None:
    store[key] = value
    store.move_to_end(key)
    while len(store) > most:
        store.popitem(last=False)


def _pool(hub: Any) -> Any:
    """Where analyses run: the bot queue's ``heavy`` stream with ``polignac serve
    --bot-queue`` (``hub.heavy``, botqueue.py), else the app's worker pool."""
    return getattr(hub, "heavy", hub.workers)


async def _job(pool: Any, client: str, fn: Callable[..., tuple[int, bytes]],
               *args: Any, limit: float) -> tuple[int, bytes]:
    """``fn(*args)`` in the pool -> ``(status, JSON)``, the pool's refusals included."""
    try:
        result: tuple[int, bytes] = await pool.run(fn, *args, time_limit=limit, client=client,
                                                   heavy=True)
        return result
    except PoolBusy:
        return 503, dumps({"error": "the server is busy with other heavy requests; try "
                           "again in a moment", "rule": "busy"})
    except JobTimeout:
        return 503, dumps({"error": "the analysis took too long", "rule": "job-timeout"})
    except (WorkerFailed, MemoryError):
        return 503, dumps({"error": "the analysis could not be done: the worker ran out "
                           "of memory or died", "rule": "worker-failed"})


def _complete(analysis: bytes) -> bool:
    """Whether no action of a deal's analysis ran out of time."""
    return b'"note":"time"' not in analysis


async def stored_analyses(hub: Any, table_id: str, total: int) -> dict[int, bytes]:
    """A table's analyses of its finished deals 1..``total`` stored so far: in memory,
    else read from the database (off the event loop) and kept in memory."""
    key = f"table:{table_id}"
    found = {n: _kept[(key, n, SAMPLES)] for n in range(1, total + 1)
             if (key, n, SAMPLES) in _kept}
    if len(found) < total and hub.store is not None:
        for n, data in (await asyncio.to_thread(hub.store.load_analyses, table_id,
                                                SAMPLES)).items():
            if 1 <= n <= total and n not in found:
                found[n] = data
                _keep(_kept, (key, n, SAMPLES), data, MAX_KEPT)
    return dict(sorted(found.items()))


def _saver(hub: Any, table_id: str) -> Callable[[int, bytes], Awaitable[None]]:
    """Store a table's complete deal analysis in the database (through the writer)."""
    async def save(number: int, data: bytes) -> None:
        if hub.writer is None:
            return
        try:
            await hub.writer.run(lambda conn: save_analysis(conn, table_id, number, SAMPLES,
                                                            data))
        except Exception:  # kept in memory all the same; the next process computes it again
            log.warning("table %s: deal %d's analysis could not be stored", table_id, number,
                        exc_info=True)
    return save


async def _deals(pool: Any, client: str, body: bytes, key: str, numbers: range,
                 samples: int, on_job: Callable[[], None] | None = None,
                 save: Callable[[int, bytes], Awaitable[None]] | None = None,
                 ) -> AsyncIterator[tuple[int, int, bytes]]:
    """Each deal's analysis of ``numbers`` -> ``(number, status, JSON)``, stored ones
    without a job (a complete new one goes to ``save`` too); stops after the first
    that fails."""
    deadline = time.monotonic() + TIME_LIMIT
    for number in numbers:
        kept = _kept.get((key, number, samples))
        if kept is not None:
            yield number, 200, kept
            continue
        left = max(0.0, min(DEAL_TIME_LIMIT, deadline - time.monotonic()))
        if on_job is not None:
            on_job()
        status, answer = await _job(pool, client, analysis_deal_job, body, number, samples,
                                    left, limit=left + GRACE)
        if status == 200 and _complete(answer):
            _keep(_kept, (key, number, samples), answer, MAX_KEPT)
            if save is not None:
                await save(number, answer)
        yield number, status, answer
        if status != 200:
            return


def _table_record(table: Any) -> bytes:
    """A table's record of its finished deals, as JSON."""
    match = table.match
    if match.current is not None:
        match = dataclasses.replace(match, current=None, current_seats=(), current_dealer=-1)
    return dumps(to_record(match))


async def _table_of(request: Request) -> Any:
    return await request.app.state.hub.find(request.path_params["table_id"])


def _no_table() -> ApiError:
    return ApiError("there is no such table (or it was never created here)", "no-table", 404)


def _progress_of(table_id: str) -> Progress:
    """The progress of a table's analysis (kept for the last :data:`MAX_PLANS` tables)."""
    progress = _tables.get(table_id) or Progress()
    _keep(_tables, table_id, progress, MAX_PLANS)
    return progress


# ------------------------------------------------------------------ one deal of a table


async def table_deal_analysis(request: Request) -> Response:
    """The analysis of finished deal ``n`` of a table (computed once, then kept)."""
    table = await _table_of(request)
    if table is None:
        raise _no_table()
    raw = request.path_params["n"]
    number = ascii_int(raw, 1, len(table.match.results))
    if number is None:
        raise ApiError(f"deal {raw[:20]} of this table is not finished", "no-deal", 404)
    progress = _progress_of(table.id)
    hub = request.app.state.hub
    await stored_analyses(hub, table.id, len(table.match.results))

    def count() -> None:
        progress.jobs += 1

    async for _n, status, answer in _deals(_pool(hub), client_key(request),
                                           _table_record(table), f"table:{table.id}",
                                           range(number, number + 1), SAMPLES, count,
                                           _saver(hub, table.id)):
        if status != 200:
            return Response(answer, status_code=status, media_type="application/json")
        return Response(b'{"deal":%d,"analysis":%s}' % (number, answer),
                        media_type="application/json")
    raise AssertionError("unreachable: one deal asked, one answered")  # pragma: no cover


# ------------------------------------------------------------------ every deal of a table


def _progress_body(progress: Progress) -> dict[str, Any]:
    out: dict[str, Any] = {"total": progress.total, "done": progress.done,
                           "running": progress.running, "jobs": progress.jobs}
    if progress.error is not None:
        out["error"] = progress.error
    return out


async def _run_table(progress: Progress, hub: Any, client: str, table_id: str,
                     body: bytes) -> None:
    """Analyse every finished deal of a table (the task behind POST .../analysis)."""
    def count() -> None:
        progress.jobs += 1

    try:
        async for _n, status, answer in _deals(_pool(hub), client, body, f"table:{table_id}",
                                               range(1, progress.total + 1), SAMPLES, count,
                                               _saver(hub, table_id)):
            if status != 200:
                progress.error = json.loads(answer)
                return
            progress.done += 1
    finally:
        progress.running = False
        progress.task = None


async def table_analysis_start(request: Request) -> Response:
    """Start analysing every finished deal of a table; answer its progress."""
    hub = request.app.state.hub
    table = await _table_of(request)
    if table is None:
        raise _no_table()
    progress = _progress_of(table.id)
    if progress.running:
        return JSONResponse(_progress_body(progress), status_code=202)
    total = len(table.match.results)
    stored = len(await stored_analyses(hub, table.id, total))
    if progress.running:  # it started while the database answered
        return JSONResponse(_progress_body(progress), status_code=202)
    progress.total, progress.done, progress.error = total, stored, None
    if stored == total:
        return JSONResponse(_progress_body(progress))
    client = client_key(request)
    progress.running = True
    progress.done = 0
    progress.task = asyncio.ensure_future(_run_table(progress, hub, client, table.id,
                                                     _table_record(table)))
    return JSONResponse(_progress_body(progress), status_code=202)


async def table_analysis(request: Request) -> Response:
    """A table's analysis progress; once nothing runs, every stored deal analysis."""
    table = await _table_of(request)
    if table is None:
        raise _no_table()
    progress = _tables.get(table.id) or Progress(total=len(table.match.results))
    out = _progress_body(progress)
    if not progress.running:
        total = len(table.match.results)
        stored = await stored_analyses(request.app.state.hub, table.id, total)
        out.update(total=total, done=len(stored))
        head = dumps(out)[:-1]
        deals = b",".join(b'"%d":%s' % (n, a) for n, a in stored.items())
        return Response(head + b',"deals":{' + deals + b"}}", media_type="application/json",
                        headers={"Cache-Control": "no-store"})
    return JSONResponse(out, headers={"Cache-Control": "no-store"})


# ------------------------------------------------------------------ a posted record


async def analyze_api(request: Request) -> Response:
    """A record (JSON body) -> its deals' analyses, streamed one line per deal."""
    raw = request.query_params.get("samples", str(SAMPLES))
    samples = ascii_int(raw, 1, MAX_SAMPLES)
    if samples is None:
        raise ApiError(f"samples must be a whole number from 1 to {MAX_SAMPLES}",
                       "bad-samples")
    body = await read_body(request, MAX_BODY, "the record")
    client = client_key(request)
    digest = hashlib.sha256(body).hexdigest()
    pool = _pool(request.app.state.hub)
    plan = _plans.get(digest)
    if plan is None:
        plan = await _job(pool, client, analysis_plan_job, body, limit=60.0)
        if plan[0] in (200, 400):
            _keep(_plans, digest, plan, MAX_PLANS)
    status, answer = plan
    if status != 200:
        return Response(answer, status_code=status, media_type="application/json")
    total = int(json.loads(answer)["deals"])
    return StreamingResponse(_stream(pool, client, body, f"sha:{digest}", total, samples),
                             media_type="application/x-ndjson",
                             headers={"Cache-Control": "no-store"})


async def _stream(pool: Any, client: str, body: bytes, key: str, total: int,
                  samples: int) -> AsyncIterator[bytes]:
    """The lines of ``POST /api/analyze``'s answer (see the module's docstring)."""
    yield dumps({"total": total, "done": 0}) + b"\n"
    done, complete = 0, True
    async for number, status, answer in _deals(pool, client, body, key, range(1, total + 1),
                                               samples):
        if status != 200:
            yield answer + b"\n"
            return
        done += 1
        complete = complete and _complete(answer)
        yield b'{"deal":%d,"done":%d,"total":%d,"analysis":%s}\n' % (number, done, total,
                                                                     answer)
    yield dumps({"total": total, "done": done, "complete": complete}) + b"\n"


def routes() -> list[BaseRoute]:
    """The analysis routes, for the app's route list."""
    return [Route("/api/analyze", analyze_api, methods=["POST"]),
            Route("/tables/{table_id}/analysis", table_analysis),
            Route("/tables/{table_id}/analysis", table_analysis_start, methods=["POST"]),
            Route("/tables/{table_id}/deals/{n}/analysis", table_deal_analysis)]
