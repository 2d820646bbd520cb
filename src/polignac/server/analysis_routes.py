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

Bounds: the body at most :data:`MAX_BODY` bytes (parsed in the worker with the
app's JSON limits), at most :data:`MAX_DEALS` deals, ``?samples=N`` from 1 to
:data:`MAX_SAMPLES` (default :data:`SAMPLES`).  The work runs in the app's
shared worker pool (``workers.py``, ``hub.workers``; with ``--bot-queue`` the bot
workers' ``heavy`` stream), never on the event loop:
each job stops itself after :data:`TIME_LIMIT` seconds (the actions not reached
are marked ``time``) and the pool kills it :data:`GRACE` seconds later (503
``job-timeout``).  At most ``workers - 1`` analyses run at once (at least one),
so that replays and score pads keep a worker; past that, 503 ``busy``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..bots.analysis import (
    Settings,
    analyze_record,
    analyze_record_deal,
    annotate,
    match_summary,
)
from ..core import PolignacError, RecordError, to_record
from .inputs import ascii_int
from .requests import JsonInputError, json_error, parse_json, read_body
from .workers import JobTimeout, PoolBusy, WorkerFailed, WorkerPool

MAX_BODY = 1024 * 1024
MAX_DEALS = 30
SAMPLES = 8
MAX_SAMPLES = 16
NODES = 2_000_000
TIME_LIMIT = 60.0
GRACE = 15.0
MAX_CACHED = 256

_pending = 0
_cached: OrderedDict[tuple[str, int], bytes] = OrderedDict()
_running: dict[tuple[str, int], asyncio.Future[tuple[int, bytes]]] = {}


def _dumps(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


def analysis_job(body: bytes, samples: int, time_limit: float) -> tuple[int, bytes]:
    """Worker job: parse ``body`` (a record), analyse it -> ``(status, JSON answer)``:
    200 ``{"record", "totals", "complete"}`` or 400 ``{"error", "rule", ...}``."""
    try:
        record = parse_json(body, "the record")
    except JsonInputError as exc:
        return 400, _dumps({"error": str(exc), "rule": exc.rule})
    problem = _check(record)
    if problem is not None:
        return 400, _dumps({"error": problem, "rule": "bad-record"})
    try:
        analyses = analyze_record(record, Settings(samples=samples, nodes=NODES),
                                  time_limit=time_limit)
    except RecordError as exc:
        return 400, _dumps({"error": str(exc), "rule": "bad-record", "deal": exc.deal,
                            "action": exc.action})
    except PolignacError as exc:  # pragma: no cover - analyze_record raises RecordError
        return 400, _dumps({"error": str(exc), "rule": "bad-record"})
    players = record.get("players") or []
    complete = all(e.get("note") != "time" for a in analyses for e in a["actions"])
    return 200, _dumps({"record": annotate(record, analyses),
                        "totals": match_summary(analyses, len(players)), "complete": complete})


def deal_job(record: Mapping[str, Any], number: int, samples: int,
             time_limit: float) -> tuple[int, bytes]:
    """Worker job: ``(200, the analysis of deal number of record as JSON)`` (a table's
    record, which replays)."""
    return 200, _dumps(analyze_record_deal(record, number,
                                           Settings(samples=samples, nodes=NODES), time_limit))


def _pool(hub: Any) -> Any:
    """Where analyses run: the bot queue's ``heavy`` stream with ``polignac serve
    --bot-queue`` (``hub.heavy``, botqueue.py), else the app's worker pool."""
    return getattr(hub, "heavy", hub.workers)


def _limit(pool: WorkerPool) -> int:
    """How many analyses may wait or run at once in ``pool``."""
    return max(1, pool.size - 1)


async def _run(pool: WorkerPool, fn: Any, *args: Any) -> tuple[int, bytes]:
    """``fn(*args)`` in the pool -> ``(status, JSON answer)``, the pool's refusals included."""
    global _pending
    if _pending >= _limit(pool):
        return 503, _dumps({"error": "the server is busy with other analyses; try again "
                            "in a minute", "rule": "busy"})
    _pending += 1
    try:
        result: tuple[int, bytes] = await pool.run(fn, *args, time_limit=TIME_LIMIT + GRACE)
        return result
    except PoolBusy:
        return 503, _dumps({"error": "the server is busy with other heavy requests; try "
                            "again in a moment", "rule": "busy"})
    except JobTimeout:
        return 503, _dumps({"error": "the analysis took too long", "rule": "job-timeout"})
    except (WorkerFailed, MemoryError):
        return 503, _dumps({"error": "the analysis could not be done: the worker ran out "
                            "of memory or died", "rule": "worker-failed"})
    finally:
        _pending -= 1


async def table_deal_analysis(request: Request) -> Response:
    """The analysis of finished deal ``n`` of a table (computed once, then kept)."""
    hub = request.app.state.hub
    table = await hub.find(request.path_params["table_id"])
    if table is None:
        return json_error("there is no such table (or it was never created here)",
                          "no-table", 404)
    raw = request.path_params["n"]
    match = table.match
    number = ascii_int(raw, 1, len(match.results))
    if number is None:
        return json_error(f"deal {raw[:20]} of this table is not finished", "no-deal", 404)
    key = (table.id, number)
    if key in _cached:
        _cached.move_to_end(key)
        return _deal_answer(key[1], _cached[key])
    running = _running.get(key)
    if running is None:
        if match.current is not None:
            match = dataclasses.replace(match, current=None, current_seats=(),
                                        current_dealer=-1)
        record = to_record(match)
        running = asyncio.ensure_future(_run(_pool(hub), deal_job, record, key[1], SAMPLES,
                                             TIME_LIMIT))
        _running[key] = running

        def done(fut: asyncio.Future[tuple[int, bytes]]) -> None:
            _running.pop(key, None)
            if not fut.cancelled() and fut.exception() is None and fut.result()[0] == 200:
                _cached[key] = fut.result()[1]
                while len(_cached) > MAX_CACHED:
                    _cached.popitem(last=False)

        running.add_done_callback(done)
    status, body = await asyncio.shield(running)
    if status != 200:
        return Response(body, status_code=status, media_type="application/json")
    return _deal_answer(key[1], body)


def _deal_answer(number: int, analysis: bytes) -> Response:
    return Response(b'{"deal":%d,"analysis":%s}' % (number, analysis),
                    media_type="application/json")


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
    samples = ascii_int(request.query_params.get("samples", str(SAMPLES)), 1, MAX_SAMPLES)
    if samples is None:
        return json_error(f"samples must be a whole number from 1 to {MAX_SAMPLES}",
                          "bad-samples")
    body = await read_body(request, MAX_BODY, "the record")
    status, answer = await _run(_pool(request.app.state.hub), analysis_job, body, samples,
                                TIME_LIMIT)
    return Response(answer, status_code=status, media_type="application/json")


def routes() -> list[BaseRoute]:
    """The analysis route, for the app's route list."""
    return [Route("/api/analyze", analyze_api, methods=["POST"]),
            Route("/tables/{table_id}/deals/{n}/analysis", table_deal_analysis)]
