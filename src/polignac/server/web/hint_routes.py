"""``POST /tables/{id}/hint``: each legal action's expected cost for the seat to act.

At a table whose ``hints`` option is on (:attr:`GameTable.hints`: by default on
at Play now, Learn and any table whose other seats are all bots, off when a
seat is open for a person), the seat to act (its seat cookie) may ask what
each of its legal actions costs in expectation from its own information:
:func:`polignac.bots.analysis.evaluate_view` of exactly that seat's view (the
sampled-deal evaluation ``hard`` uses; :data:`SAMPLES` deals, each solved
exactly within :data:`NODES` nodes; a position over that budget is
refused, ``hint-too-deep``).  The answer holds only that seat's legal
actions and numbers::

    {"actions": [{"action": "QS", "expected": -1.25, "cost": 0.5, "best": false}, ...],
     "samples": 8, "exact": false, "unit": "penalty", "deal": 2, "seq": 41}

The samples are drawn from :func:`hint_seed` (the table, the deal and the
action's index), so asking again in the same position gives the same numbers
(the answer is kept, see below).  The work is ``jobs.hint_job`` in the app's
shared worker pool (``hub.workers``, a heavy job queued under the client's
address: its fair share, ``workers.py``; with ``polignac serve --bot-queue``, the
bot workers' ``heavy`` stream: ``hub.heavy``, botqueue.py), never on the event
loop, stopped after ``ServerConfig.hint_seconds`` (30 by default, ``polignac serve
--hint-timeout``; 503 ``job-timeout``).

Refusals (``{"error", "rule"}``): 404 ``no-table``; 403 ``no-seat`` (no seat
cookie here: spectators get no hints), 403 ``hints-off``; 409 ``not-your-turn``
(another seat acts, or no deal is being played), 409 ``hint-passing`` (the
Hearts family's passing of cards: no hint, the cards are the player's choice),
409 ``no-choice`` (one legal action only), 409 ``hint-running`` (this seat's
hint is being computed), 429 ``hint-limit`` (:data:`PER_DEAL` hints per seat and
deal); 503 ``busy``, ``job-timeout``, ``worker-failed``; 409 ``hint-too-deep``
(over the node budget).

Every hint that reaches the pool counts against :data:`PER_DEAL`, answered or
not (``hint-too-deep``, ``job-timeout``, ``worker-failed``, ``busy``): a refused
job cost the server too, or was asked of a busy one.  A position already answered
(a hint, ``hint-too-deep`` or ``job-timeout``) is answered again from memory, the
same answer, and does not count again.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...bots.analysis import choices
from ...bots.base import SeatView
from ...core.deal import PASS_CARDS
from ..base.errors import ApiError
from ..jobs.jobs import HINT_NODES, HINT_SAMPLES, hint_job
from ..jobs.workers import JobTimeout, PoolBusy, WorkerFailed, client_key

SAMPLES = HINT_SAMPLES
NODES = HINT_NODES
PER_DEAL = 20
"""Hints one seat may ask for in one deal (a position asked again does not count)."""
MAX_KEPT = 1024

_running: set[tuple[str, int]] = set()
_counts: OrderedDict[tuple[str, int, int], int] = OrderedDict()
_answers: OrderedDict[tuple[str, int, int, int], tuple[int, dict[str, Any]]] = OrderedDict()
"""(table, seat, deal, action index) -> the answer given for that position."""


def _dumps(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


def hint_seed(table_id: str, deal: int, index: int) -> int:
    """The seed of the samples of a hint at action ``index`` of deal ``deal`` of a table."""
    digest = hashlib.sha256(f"hint:{table_id}:{deal}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _error(message: str, rule: str, status: int) -> Response:
    """A refusal in the one error shape (``ApiError``'s), returned: the hint's limits
    count it before it is sent."""
    return JSONResponse(ApiError(message, rule, status).body(), status_code=status)


def _keep(store: OrderedDict[Any, Any], key: Any, value: Any) -> None:
    store[key] = value
    store.move_to_end(key)
    while len(store) > MAX_KEPT:
        store.popitem(last=False)


async def hint(request: Request) -> Response:
    """The expected cost of each legal action of the seat to act (its cookie)."""
    hub = request.app.state.hub
    table = await hub.find(request.path_params["table_id"])
    if table is None:
        return _error("there is no such table (or it was never created here)", "no-table",
                      404)
    seat = hub.seat_of(table, request.cookies)
    if seat is None:
        return _error("hints are for the players seated here (your browser holds no seat "
                      "at this table)", "no-seat", 403)
    if not table.hints:
        return _error("the table's creator turned hints off at this table", "hints-off", 403)
    match = table.match
    deal = match.current
    if deal is None or deal.done or match.to_act() != seat:
        return _error("a hint is for the seat to act: it is not your turn", "not-your-turn",
                      409)
    view = SeatView.of(deal, deal.to_act, match)
    if view.phase == PASS_CARDS:
        return _error("no hint while passing cards: the hint compares the cards you may "
                      "play; which cards to pass is your choice", "hint-passing", 409)
    if len(choices(view)) < 2:
        return _error("you have only one legal action: nothing to compare", "no-choice", 409)
    number, seq = len(match.results) + 1, table.seq
    key = (table.id, seat, number, len(deal.history))  # the position, whatever else happened
    if key in _answers:
        status, kept = _answers[key]
        return _answer(status, {**kept, "seq": seq} if status == 200 else kept)
    running = (table.id, seat)
    if running in _running:
        return _error("your last hint is still being computed", "hint-running", 409)
    counted = (table.id, seat, number)
    if _counts.get(counted, 0) >= PER_DEAL:
        return _error(f"at most {PER_DEAL} hints a deal", "hint-limit", 429)
    _keep(_counts, counted, _counts.get(counted, 0) + 1)  # answered or refused: it counts
    _running.add(running)
    try:
        pool = getattr(hub, "heavy", hub.workers)  # the bot queue's, with --bot-queue
        answer = await pool.run(hint_job, view,
                                hint_seed(table.id, number, len(deal.history)),
                                time_limit=hub.config.hint_seconds,
                                client=client_key(request), heavy=True)
    except ValueError:
        return _error("you have only one legal action: nothing to compare", "no-choice", 409)
    except PoolBusy:
        return _error("the server is busy with other heavy requests; try again in a moment",
                      "busy", 503)
    except JobTimeout:
        return _remember(key, 503, {"error": "the hint took too long", "rule": "job-timeout"})
    except (WorkerFailed, MemoryError):
        return _error("the hint could not be computed: the worker ran out of memory or died",
                      "worker-failed", 503)
    finally:
        _running.discard(running)
    if answer is None:
        return _remember(key, 409, {"error": "too many cards are left to evaluate this "
                                    "position exactly; ask again a trick or two later",
                                    "rule": "hint-too-deep"})
    _keep(_answers, key, (200, {**answer, "deal": number}))
    return _answer(200, {**answer, "deal": number, "seq": seq})


def _remember(key: tuple[str, int, int, int], status: int, data: dict[str, Any]) -> Response:
    """Answer ``data`` with ``status`` and keep it for the same position."""
    _keep(_answers, key, (status, data))
    return _answer(status, data)


def _answer(status: int, data: dict[str, Any]) -> Response:
    return Response(_dumps(data), status_code=status, media_type="application/json")


def routes() -> list[BaseRoute]:
    """The hint route, for the app's route list."""
    return [Route("/tables/{table_id}/hint", hint, methods=["POST"])]
