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

The replay runs in a worker process (``workers.py``): parsing the body, replaying
and writing the answer grow with the record, and a record of
:data:`MAX_RECORD` bytes takes seconds.  A replay that runs longer than the pool's
time limit (``polignac serve --job-timeout``) is answered ``503 job-timeout``.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute, Route

from ..core import CODES, Deal, Match, PolignacError, RecordError, cards_of, replay, summary
from ..core.actions import action_name, parse_action
from ..core.cards import parse_card
from ..i18n import name_fields
from .errors import ApiError
from .inputs import ascii_int
from .pages import error_page
from .requests import JsonInputError, parse_json, read_body, run_json_job

STATIC = Path(__file__).parent / "static"
MAX_RECORD = 4 * 1024 * 1024
PAGE = 8
"""Deals whose states one answer holds when the request names no ``count``."""
MAX_PAGE = 32
"""Deals whose states one answer holds at most (``count``)."""
MAX_DEALS = 100_000
"""Largest deal number ``from`` may name (a record holds far fewer)."""


def _state(deal: Deal, seats: list[int], action: str | None, seat: int | None) -> dict[str, Any]:
    """One step of a deal, every hand visible, players mapped to match seats."""
    n = len(seats)
    v = deal.view(None)
    trick = v["trick"]
    assert isinstance(trick, dict)
    leader = trick["leader"]
    out: dict[str, Any] = {
        "action": action,
        "seat": seat,
        "phase": v["phase"],
        "to_act": None if v["to_act"] is None else seats[v["to_act"]],
        "hands": [[CODES[c] for c in cards_of(h)] for h in deal.hands],
        "trick": {"cards": trick["cards"],
                  "seats": [seats[(leader + i) % n] for i in range(len(trick["cards"]))]},
        "tricks_won": v["tricks_won"],
        "contract": v["contract"],
        "declarer": None if v["declarer"] is None else seats[v["declarer"]],
    }
    past = deal.past
    if past:
        t = past[-1]
        out["last_trick"] = {"cards": [CODES[c] for c in t.cards],
                             "seats": [seats[(t.leader + i) % n] for i in range(len(t.cards))],
                             "winner": seats[t.winner]}
    if "announcements" in v:
        out["announcements"] = v["announcements"]
    if "score" in v:
        out["score"] = v["score"]
    return out


def replay_steps(record: Any, first: int = 1, count: int | None = None) -> dict[str, Any]:
    """Replay ``record`` and return what the viewer steps through: the match's
    summary, and the states of deals ``first`` .. ``first + count - 1`` (every deal
    when ``count`` is None) in ``deals``; ``deal_count`` is the record's number of
    deals, ``from`` the number of the first deal in ``deals``.

    Raises:
        RecordError: the record is malformed or does not replay (the core's message).
    """
    final = replay(record)
    match = Match.new(final.rules, len(final.names), final.first_dealer, list(final.names))
    entries = record.get("deals") or []
    last = len(entries) if count is None else min(len(entries), first + count - 1)
    deals: list[dict[str, Any]] = []
    for number, entry in enumerate(entries[:last], start=1):
        dealer, seat_tuple = match.next_deal()
        seats = list(seat_tuple)
        hands = [[parse_card(c) for c in hand] for hand in entry["hands"]]
        up = entry.get("turn_up")
        match = match.start_deal(hands, None if up is None else parse_card(up))
        deal = match.current
        assert deal is not None
        shown = number >= first
        steps = [_state(deal, seats, None, None)] if shown else []
        for text in entry.get("actions") or []:
            seat = seats[deal.to_act]
            action = parse_action(text)
            match = match.apply(action)
            deal = match.current if match.current is not None else match.results[-1].deal
            if shown:
                steps.append(_state(deal, seats, action_name(action), seat))
        if not shown:
            continue
        v = deal.view(None)
        deals.append({
            "number": number,
            "dealer": dealer,
            "seats": seats,
            "hands": [[CODES[c] for c in cards_of(h)] for h in deal.initial_hands],
            "turn_up": v["turn_up"],
            "trump": v["trump"],
            "complete": match.current is None,
            "scores": list(match.results[-1].scores) if match.current is None else None,
            "steps": steps,
        })
    return {
        "preset": final.rules.preset,
        "players": list(final.names),
        "player_keys": [name_fields(n, i, None) for i, n in enumerate(final.names)],
        "suits": final.rules.suits,
        "rank_order": final.rules.rank_order,
        "partnerships": final.rules.partnerships,
        "sides": [list(x) for x in final.rules.sides],
        "rules": dict(record.get("rules") or {}),
        "finished": final.finished,
        "winners": list(final.winners),
        "losers": list(final.losers),
        "totals": list(final.totals),
        "summary": summary(final),
        "deal_count": len(entries),
        "from": first,
        "deals": deals,
    }


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


def dumps(data: Any) -> bytes:
    """JSON bytes as Starlette's ``JSONResponse`` writes them."""
    return json.dumps(data, ensure_ascii=False, allow_nan=False, indent=None,
                      separators=(",", ":")).encode("utf-8")


def replay_job(body: bytes, first: int = 1, count: int = PAGE) -> tuple[int, bytes]:
    """In a worker: parse ``body`` (a record), replay it -> ``(status, JSON answer)``:
    200 and :func:`replay_steps` for deals ``first`` .. ``first + count - 1``, or 400
    ``{"error", "rule", "deal", "action"}``."""
    try:
        record = parse_json(body, "the record")
    except JsonInputError as exc:
        return 400, dumps({"error": str(exc), "rule": exc.rule})
    try:
        return 200, dumps(replay_steps(record, first, count))
    except RecordError as exc:
        return 400, dumps({"error": str(exc), "rule": "bad-record", "deal": exc.deal,
                           "action": exc.action})
    except PolignacError as exc:  # pragma: no cover - replay raises RecordError
        return 400, dumps({"error": str(exc), "rule": "bad-record"})


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
