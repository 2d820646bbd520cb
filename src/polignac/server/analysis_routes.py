"""``POST /api/analyze`` and ``GET /tables/{id}/deals/{n}/analysis``: the analysis
of every action, off the event loop.

The replay viewer sends a record without annotations; the server analyses
every action (:func:`polignac.bots.analysis.analyze_record`) in a worker
process and answers ``{"record": the record with its annotations, "totals":
per seat, "complete": whether every action was reached}``.

``GET /tables/{id}/deals/{n}/analysis`` answers ``{"deal": n, "analysis": ...}``
for a finished deal of a table (the deal's score sheet at the table can show
it; the record of finished deals is public, see ``record.json``), computed once
per table and deal (the last :data:`MAX_CACHED` are kept) with the same
settings; ``404 no-deal`` for a deal not finished.

Bounds: the body at most :data:`MAX_BODY` bytes, at most :data:`MAX_DEALS`
deals, ``?samples=N`` from 1 to :data:`MAX_SAMPLES` (default
:data:`SAMPLES`); each job stops itself after :data:`TIME_LIMIT` seconds
(the actions not reached are marked ``time``) and the route gives up
waiting a little later (504 ``analysis-timeout``).  One worker process
(``concurrent.futures.ProcessPoolExecutor``, started on the first request,
processes from a forkserver); with :data:`MAX_PENDING` jobs already waiting
or running, a new one gets 503 ``busy``.

TODO(lead): switch :func:`_run_job` to the shared pool of
``server/workers.py`` when it is merged.
"""

from __future__ import annotations

import asyncio
import dataclasses
import multiprocessing
from collections import OrderedDict
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..bots.analysis import (
    Settings,
    analyze_record,
    analyze_record_deal,
    annotate,
    match_summary,
)
from ..core import PolignacError, RecordError, to_record
from .requests import json_error, read_json

MAX_BODY = 1024 * 1024
MAX_DEALS = 30
SAMPLES = 8
MAX_SAMPLES = 16
NODES = 2_000_000
TIME_LIMIT = 60.0
GRACE = 15.0
MAX_PENDING = 2
MAX_CACHED = 256

_pool: ProcessPoolExecutor | None = None
_pending = 0
_cached: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
_running: dict[tuple[str, int], asyncio.Future[dict[str, Any]]] = {}


def analysis_job(record: Mapping[str, Any], samples: int,
                 time_limit: float) -> tuple[str, dict[str, Any]]:
    """Worker job: ``("ok", answer)`` or ``("error", {"error", "deal", "action"})``."""
    try:
        analyses = analyze_record(record, Settings(samples=samples, nodes=NODES),
                                  time_limit=time_limit)
    except RecordError as exc:
        return "error", {"error": str(exc), "deal": exc.deal, "action": exc.action}
    except PolignacError as exc:  # pragma: no cover - analyze_record raises RecordError
        return "error", {"error": str(exc), "deal": None, "action": None}
    players = record.get("players") or []
    complete = all(e.get("note") != "time" for a in analyses for e in a["actions"])
    return "ok", {"record": annotate(record, analyses),
                  "totals": match_summary(analyses, len(players)), "complete": complete}


def deal_job(record: Mapping[str, Any], number: int, samples: int,
             time_limit: float) -> dict[str, Any]:
    """Worker job: the analysis of deal ``number`` of ``record`` (which replays)."""
    return analyze_record_deal(record, number, Settings(samples=samples, nodes=NODES),
                               time_limit)


def _executor() -> ProcessPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ProcessPoolExecutor(max_workers=1,
                                    mp_context=multiprocessing.get_context("forkserver"))
    return _pool


async def _run_job(record: Mapping[str, Any], samples: int) -> tuple[str, dict[str, Any]]:
    """Run :func:`analysis_job` in the worker process, waiting at most
    ``TIME_LIMIT + GRACE`` seconds.

    Raises:
        TimeoutError: the job did not answer in time.
    """
    loop = asyncio.get_running_loop()
    fut = loop.run_in_executor(_executor(), analysis_job, record, samples, TIME_LIMIT)
    return await asyncio.wait_for(fut, TIME_LIMIT + GRACE)


async def table_deal_analysis(request: Request) -> Response:
    """The analysis of finished deal ``n`` of a table (computed once, then kept)."""
    global _pending
    hub = getattr(request.app.state, "hub", None)
    table = None if hub is None else await hub.find(request.path_params["table_id"])
    if table is None:
        return json_error("there is no such table (or it was never created here)",
                          "no-table", 404)
    raw = request.path_params["n"]
    match = table.match
    if not raw.isdigit() or not 1 <= int(raw) <= len(match.results):
        return json_error(f"deal {raw} of this table is not finished", "no-deal", 404)
    key = (table.id, int(raw))
    if key in _cached:
        _cached.move_to_end(key)
        return JSONResponse({"deal": key[1], "analysis": _cached[key]})
    running = _running.get(key)
    if running is None:
        if _pending >= MAX_PENDING:
            return json_error("the analysis is busy; try again in a minute", "busy", 503)
        if match.current is not None:
            match = dataclasses.replace(match, current=None, current_seats=(),
                                        current_dealer=-1)
        record = to_record(match)
        loop = asyncio.get_running_loop()
        _pending += 1
        running = asyncio.ensure_future(asyncio.wait_for(loop.run_in_executor(
            _executor(), deal_job, record, key[1], SAMPLES, TIME_LIMIT), TIME_LIMIT + GRACE))
        _running[key] = running

        def done(fut: asyncio.Future[dict[str, Any]]) -> None:
            global _pending
            _pending -= 1
            _running.pop(key, None)
            if not fut.cancelled() and fut.exception() is None:
                _cached[key] = fut.result()
                while len(_cached) > MAX_CACHED:
                    _cached.popitem(last=False)

        running.add_done_callback(done)
    try:
        analysis = await asyncio.shield(running)
    except TimeoutError:
        return json_error("the analysis took too long", "analysis-timeout", 504)
    return JSONResponse({"deal": key[1], "analysis": analysis})


def _check(record: Any) -> str | None:
    """What is wrong with the record's shape before any work (None: nothing)."""
    if not isinstance(record, dict):
        return "the record must be a JSON object"
    deals = record.get("deals", [])
    if not isinstance(deals, list):
        return "deals must be a list"
    if len(deals) > MAX_DEALS:
        return f"the record has {len(deals)} deals; at most {MAX_DEALS} are analysed"
    return None


async def analyze_api(request: Request) -> Response:
    """A record (JSON body) -> the record with its annotations, the totals per seat."""
    global _pending
    raw = request.query_params.get("samples", str(SAMPLES))
    if not raw.isdigit() or not 1 <= int(raw) <= MAX_SAMPLES:
        return json_error(f"samples must be a whole number from 1 to {MAX_SAMPLES}",
                          "bad-samples")
    record = await read_json(request, MAX_BODY, "the record")
    if isinstance(record, JSONResponse):
        return record
    problem = _check(record)
    if problem is not None:
        return json_error(problem, "bad-record")
    if _pending >= MAX_PENDING:
        return json_error("the analysis is busy; try again in a minute", "busy", 503)
    _pending += 1
    try:
        status, body = await _run_job(record, int(raw))
    except TimeoutError:
        return json_error("the analysis took too long", "analysis-timeout", 504)
    finally:
        _pending -= 1
    if status != "ok":
        return json_error(body["error"], "bad-record", deal=body["deal"], action=body["action"])
    return JSONResponse(body)


def shutdown() -> None:
    """Stop the worker process (the app's shutdown; also safe when never started)."""
    global _pool
    _cached.clear()
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None


def routes() -> list[BaseRoute]:
    """The analysis route, for the app's route list."""
    return [Route("/api/analyze", analyze_api, methods=["POST"]),
            Route("/tables/{table_id}/deals/{n}/analysis", table_deal_analysis)]
