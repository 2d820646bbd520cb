"""The worker jobs: every computation the server runs off the event loop, in one place.

Each job is a plain function of picklable values (see ``workers.py``), run by
the app's :class:`~.workers.WorkerPool` or, with ``polignac serve --bot-queue``,
by ``polignac bot-worker`` processes through the Redis queue (``botqueue.py``,
which finds them in :data:`JOBS` with their JSON codecs).  This module sits
below both the route modules (which only read the request, pick a job and answer
its result) and the bot queue (a transport): neither imports the other.

- :func:`replay_job`: a record -> its summary and every state of a page of deals
  (``POST /api/replay``);
- :func:`score_job`: a score pad and its new entry -> the new pad
  (``POST /api/scorepad/score``);
- :func:`hint_job`: a seat's view -> each legal action's expected value and cost
  (``POST /tables/{id}/hint``);
- :func:`analysis_plan_job` and :func:`analysis_deal_job`: a record -> how many
  deals it has (checked: it replays), then the analysis of one deal, so that a long
  analysis is one job per deal, interleaved with other clients' work
  (``POST /api/analyze``, ``/tables/{id}/analysis``);
- :func:`~polignac.bots.runner.move_for`: a bot's move (``botmoves.py``).

A job that must report a domain error returns it as ``(status, JSON bytes)``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from ...bots.analysis import Settings, analyze_record_deal, evaluate_view, unit_of
from ...bots.base import SeatView
from ...bots.runner import move_for
from ...bots.wire import WireError, view_from_wire, view_to_wire
from ...core import CODES, Deal, Match, PolignacError, RecordError, cards_of, replay, summary
from ...core.actions import action_name, parse_action
from ...core.cards import parse_card
from ...core.scorepad import ScorePad, ScorePadError
from ...i18n import name_fields
from ..base.requests import JsonInputError, parse_json

HINT_SAMPLES = 8
"""Deals a hint solves (or every consistent deal, when there are fewer)."""
HINT_NODES = 20_000_000
"""Search nodes per solve of a hint: about 1.5 s; the first card of an 8-card hand fits
in most games, not a 13-card hand or Bassadewitz (measured in docs/server.md)."""
ANALYSIS_NODES = 2_000_000
"""Search nodes per solve of an analysed action (over it: ``too-deep``)."""
REPLAY_PAGE = 8
"""Deals whose states one replay answer holds when the request names no ``count``."""
ANALYSIS_MAX_DEALS = 30
"""Deals of one record analysed at most (``POST /api/analyze``)."""


def dumps(data: Any) -> bytes:
    """JSON bytes as Starlette's ``JSONResponse`` writes them."""
    return json.dumps(data, ensure_ascii=False, allow_nan=False, indent=None,
                      separators=(",", ":")).encode("utf-8")


def _bad(exc: Exception, rule: str = "bad-record") -> tuple[int, bytes]:
    """``(400, {"error", "rule"})`` for ``exc`` (a record's deal and action when it has them)."""
    if isinstance(exc, JsonInputError):
        return 400, dumps({"error": str(exc), "rule": exc.rule})
    if isinstance(exc, RecordError):
        return 400, dumps({"error": str(exc), "rule": rule, "deal": exc.deal,
                           "action": exc.action})
    return 400, dumps({"error": str(exc), "rule": rule})


# ------------------------------------------------------------------ the replay viewer


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
        "to_act": None if v["to_act"] is None else seats[cast(int, v["to_act"])],
        "hands": [[CODES[c] for c in cards_of(h)] for h in deal.hands],
        "trick": {"cards": trick["cards"],
                  "seats": [seats[(leader + i) % n] for i in range(len(trick["cards"]))]},
        "tricks_won": v["tricks_won"],
        "contract": v["contract"],
        "declarer": None if v["declarer"] is None else seats[cast(int, v["declarer"])],
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


def replay_job(body: bytes, first: int = 1, count: int = REPLAY_PAGE) -> tuple[int, bytes]:
    """Job: parse ``body`` (a record), replay it -> ``(status, JSON answer)``:
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



# ------------------------------------------------------------------ the score pad


def score_job(body: bytes) -> tuple[int, bytes]:
    """Job: parse ``body``, replay the pad, add the entry (or undo) -> ``(status, JSON
    answer)``: 200 ``{"pad"}`` or 400 ``{"error", "rule", "field"}``."""
    try:
        data = parse_json(body, "the request")
    except JsonInputError as exc:
        return _bad(exc)
    if not isinstance(data, dict) or not isinstance(data.get("pad"), dict):
        return 400, dumps({"error": "send {\"pad\": {...}, \"entry\": {...}}",
                           "rule": "bad-request", "field": "pad"})
    try:
        pad = ScorePad.from_dict(data["pad"])
        if data.get("undo"):
            pad = pad.undo()
        entry = data.get("entry")
        if entry is not None:
            pad = pad.add(entry)
    except ScorePadError as exc:
        return 400, dumps({"error": str(exc), "rule": "bad-entry", "field": exc.field})
    return 200, dumps({"pad": pad.to_dict()})


# ------------------------------------------------------------------ hints


def hint_answer(view: SeatView, seed: int, samples: int = HINT_SAMPLES,
                nodes: int = HINT_NODES) -> dict[str, Any] | None:
    """``view``'s legal actions with their expected values and costs (None: a solve
    went over ``nodes``); the scoring family's state is the view's.

    Raises:
        ValueError: the view has no choice to make (see ``evaluate_view``).
    """
    ev = evaluate_view(view, samples=samples, seed=seed, nodes=nodes)
    if ev is None:
        return None
    return {"actions": [{"action": action_name(a), "expected": round(v, 3),
                         "cost": round(ev.costs[a], 3), "best": a == ev.best}
                        for a, v in ev.values.items()],
            "samples": ev.samples, "exact": ev.exact, "unit": unit_of(view.rules.scoring)}


def hint_job(view: SeatView, seed: int) -> dict[str, Any] | None:
    """Job: :func:`hint_answer` with the server's settings.

    Raises:
        ValueError: the view has no choice to make.
    """
    return hint_answer(view, seed)


# ------------------------------------------------------------------ analyses


def _record_of(body: bytes) -> dict[str, Any]:
    """The record in ``body``, of at most :data:`ANALYSIS_MAX_DEALS` deals.

    Raises:
        JsonInputError: not JSON within the app's limits.
        RecordError: not a record's shape, or too many deals.
    """
    record = parse_json(body, "the record")
    if not isinstance(record, dict):
        raise RecordError("the record must be a JSON object")
    deals = record.get("deals", [])
    if not isinstance(deals, list):
        raise RecordError("deals must be a list")
    if len(deals) > ANALYSIS_MAX_DEALS:
        raise RecordError(f"the record has {len(deals)} deals; at most "
                          f"{ANALYSIS_MAX_DEALS} are analysed")
    return record


def analysis_plan_job(body: bytes) -> tuple[int, bytes]:
    """Job: check that ``body`` is a record that replays -> 200 ``{"deals": n,
    "players": k}`` (the deal jobs to run), or 400 ``{"error", "rule", ...}``."""
    try:
        record = _record_of(body)
        final = replay(record)
    except (JsonInputError, PolignacError) as exc:
        return _bad(exc)
    if not final.rules.family.exact_solver:
        return 400, dumps({"error": f"preset {final.rules.preset!r} cannot be analysed: the "
                           "solver does not model its family", "rule": "bad-record"})
    return 200, dumps({"deals": len(record.get("deals") or []), "players": len(final.names)})


def analysis_deal_job(body: bytes, number: int, samples: int,
                      time_limit: float) -> tuple[int, bytes]:
    """Job: the analysis of deal ``number`` (from 1) of the record in ``body`` -> 200 and
    its ``analysis`` annotation (docs/record-format.md; the actions not reached within
    ``time_limit`` seconds get the note ``time``), or 400 ``{"error", "rule", ...}``."""
    try:
        record = _record_of(body)
        return 200, dumps(analyze_record_deal(record, number,
                                              Settings(samples=samples, nodes=ANALYSIS_NODES),
                                              max(0.0, time_limit)))
    except (JsonInputError, PolignacError, ValueError) as exc:
        return _bad(exc)


# ------------------------------------------------------------------ the queue's codecs


@dataclass(frozen=True)
class QueueJob:
    """A job workers may run from the bot queue, with its JSON codecs: ``encode`` turns
    the server's arguments into a JSON list, ``decode`` that list back (on the worker:
    it raises :class:`~polignac.bots.wire.WireError` for bad data), ``result_out`` and
    ``result_in`` the result the same way."""

    name: str
    fn: Callable[..., Any]
    encode: Callable[..., list[Any]]
    decode: Callable[[Any], tuple[Any, ...]]
    result_out: Callable[[Any], Any] = lambda r: r
    result_in: Callable[[Any], Any] = lambda r: r


def _text(name: str, value: Any, limit: int = 1000) -> str:
    if not isinstance(value, str) or len(value) > limit:
        raise WireError(f"{name}: expected a text of at most {limit} characters")
    return value


def _move_args(data: Any) -> tuple[Any, ...]:
    if not isinstance(data, list) or len(data) != 3:
        raise WireError("a move's arguments are [spec, view, seed]")
    return _text("spec", data[0]), view_from_wire(data[1]), _text("seed", data[2])


def _action(value: Any) -> int:
    if type(value) is not int:
        raise WireError(f"a move's answer is an action number, not {value!r:.40}")
    return value


def _hint_args(data: Any) -> tuple[Any, ...]:
    if not isinstance(data, list) or len(data) != 2 or type(data[1]) is not int:
        raise WireError("a hint's arguments are [view, seed]")
    return view_from_wire(data[0]), data[1]


def _bytes_out(body: bytes) -> str:
    return body.decode("utf-8", "surrogateescape")  # any bytes; JSON escapes the rest


def _bytes_in(text: Any) -> bytes:
    if not isinstance(text, str):
        raise WireError("expected a text")
    return text.encode("utf-8", "surrogateescape")


def _plan_args(data: Any) -> tuple[Any, ...]:
    if not isinstance(data, list) or len(data) != 1:
        raise WireError("an analysis plan's arguments are [record text]")
    return (_bytes_in(data[0]),)


def _deal_args(data: Any) -> tuple[Any, ...]:
    if not isinstance(data, list) or len(data) != 4 or type(data[1]) is not int \
            or type(data[2]) is not int or type(data[3]) not in (int, float):
        raise WireError("a deal analysis's arguments are [record text, deal, samples, "
                        "time limit]")
    return _bytes_in(data[0]), data[1], data[2], float(data[3])


def _status_out(result: tuple[int, bytes]) -> list[Any]:
    return [result[0], result[1].decode("utf-8", "surrogateescape")]


def _status_in(value: Any) -> tuple[int, bytes]:
    if not isinstance(value, list) or len(value) != 2 or type(value[0]) is not int:
        raise WireError("an analysis's answer is [status, JSON text]")
    return value[0], _bytes_in(value[1])


MOVE = QueueJob("move", move_for, lambda spec, view, seed: [spec, view_to_wire(view), seed],
                _move_args, result_in=_action)
HINT = QueueJob("hint", hint_job,
                lambda view, seed: [view_to_wire(view), seed],
                _hint_args)
ANALYSIS_PLAN = QueueJob("analysis-plan", analysis_plan_job, lambda body: [_bytes_out(body)],
                         _plan_args, _status_out, _status_in)
DEAL_ANALYSIS = QueueJob("deal-analysis", analysis_deal_job,
                         lambda body, number, samples, limit: [_bytes_out(body), number,
                                                               samples, limit],
                         _deal_args, _status_out, _status_in)
JOBS: dict[str, QueueJob] = {job.name: job for job in (MOVE, HINT, ANALYSIS_PLAN,
                                                       DEAL_ANALYSIS)}
"""The jobs a bot worker runs, by name (a job of another name is answered an error)."""
BY_FUNCTION: dict[Callable[..., Any], QueueJob] = {job.fn: job for job in JOBS.values()}


def queue_job(name: str, args: str) -> dict[str, Any]:
    """Job (in a bot worker's pool): decode the JSON arguments of job ``name``, compute
    it, encode its answer -> ``{"status": "ok", "result"}``, or ``{"status": "error",
    "type", "message", "rule"}`` for the job's own exception (returned as a value: an
    exception's attributes do not survive the trip between processes)."""
    job = JOBS.get(name)
    if job is None:
        return {"status": "error", "type": "ValueError",
                "message": f"this worker runs no job {name!r:.60}"}
    try:
        result = job.fn(*job.decode(json.loads(args)))
        return {"status": "ok", "result": job.result_out(result)}
    except Exception as exc:  # the job's own error, named for the server
        return {"status": "error", "type": type(exc).__name__, "message": str(exc)[:2000],
                "rule": getattr(exc, "rule", None)}
