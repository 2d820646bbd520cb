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

The replay runs in a worker process (``workers.py``): parsing the body, replaying
and writing the answer grow with the record, and a record of
:data:`MAX_RECORD` bytes takes seconds.  A replay that runs longer than the pool's
time limit (``polignac serve --job-timeout``) is answered ``503 job-timeout``.
"""

from __future__ import annotations

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
from .pages import error_page
from .requests import JsonInputError, parse_json, read_body, run_json_job

STATIC = Path(__file__).parent / "static"
MAX_RECORD = 4 * 1024 * 1024



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


def replay_steps(record: Any) -> dict[str, Any]:
    """Replay ``record`` and return everything the viewer steps through.

    Raises:
        RecordError: the record is malformed or does not replay (the core's message).
    """
    final = replay(record)
    match = Match.new(final.rules, len(final.names), final.first_dealer, list(final.names))
    deals: list[dict[str, Any]] = []
    for number, entry in enumerate(record.get("deals") or [], start=1):
        dealer, seat_tuple = match.next_deal()
        seats = list(seat_tuple)
        hands = [[parse_card(c) for c in hand] for hand in entry["hands"]]
        up = entry.get("turn_up")
        match = match.start_deal(hands, None if up is None else parse_card(up))
        deal = match.current
        assert deal is not None
        steps = [_state(deal, seats, None, None)]
        for text in entry.get("actions") or []:
            seat = seats[deal.to_act]
            action = parse_action(text)
            match = match.apply(action)
            deal = match.current if match.current is not None else match.results[-1].deal
            steps.append(_state(deal, seats, action_name(action), seat))
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


def replay_job(body: bytes) -> tuple[int, bytes]:
    """In a worker: parse ``body`` (a record), replay it -> ``(status, JSON answer)``:
    200 and :func:`replay_steps`, or 400 ``{"error", "rule", "deal", "action"}``."""
    try:
        record = parse_json(body, "the record")
    except JsonInputError as exc:
        return 400, dumps({"error": str(exc), "rule": exc.rule})
    try:
        return 200, dumps(replay_steps(record))
    except RecordError as exc:
        return 400, dumps({"error": str(exc), "rule": "bad-record", "deal": exc.deal,
                           "action": exc.action})
    except PolignacError as exc:  # pragma: no cover - replay raises RecordError
        return 400, dumps({"error": str(exc), "rule": "bad-record"})


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
