"""The score pad for real-card games (RULES.md section 7): its page and JSON API.

Routes::

    GET  /scorepad                 the score pad page
    GET  /api/scorepad/presets     per preset: players, match end, threshold, revoke penalty
    POST /api/scorepad/score       {"pad": state, "entry": deal entry?, "undo": bool?}
                                   -> {"pad": new state}

The server keeps nothing: the page holds the pad (its setup and the entries
of every deal, in localStorage) and sends it with each new deal; the server
replays it with :class:`polignac.core.scorepad.ScorePad`, adds the entry and
answers the new state (totals, every deal's score lines, the match end, and
what the next deal's form needs).  An invalid pad or entry gets a 400
``{"error", "rule": "bad-entry", "field"}`` whose ``field`` names the bad
field (``taken.JS``, ``tricks``, ``entries[3].card_points`` ...).
"""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..core import PRESETS
from ..core.scorepad import REVOKE_DEFAULTS, ScorePad, ScorePadError
from .requests import json_error, read_json

STATIC = Path(__file__).parent / "static"
MAX_BODY = 512 * 1024


def _error(message: str, rule: str, status: int = 400, field: str | None = None) -> JSONResponse:
    return json_error(message, rule, status) if field is None else json_error(
        message, rule, status, field=field)


async def scorepad_page(request: Request) -> Response:
    """The score pad page."""
    return FileResponse(STATIC / "scorepad.html")


async def scorepad_presets(request: Request) -> Response:
    """What the pad's setup form offers, per preset."""
    return JSONResponse({"presets": [
        {"name": r.preset, "game": r.game, "players": list(r.players),
         "default_players": r.default_players, "scoring": r.scoring,
         "match_end": r.match_end, "threshold": r.threshold, "deals": r.deals,
         "declaration": r.declaration, "revoke_penalty": REVOKE_DEFAULTS.get(r.preset),
         "suits": r.suits, "partnerships": r.partnerships,
         "sides": [list(x) for x in r.sides]}
        for r in PRESETS.values()
    ]})


async def scorepad_score(request: Request) -> Response:
    """Replay the pad, add the entry (or undo the last deal), answer the new state."""
    data = await read_json(request, MAX_BODY, "the request")
    if isinstance(data, JSONResponse):
        return data
    if not isinstance(data, dict) or not isinstance(data.get("pad"), dict):
        return _error("send {\"pad\": {...}, \"entry\": {...}}", "bad-request", field="pad")
    try:
        pad = ScorePad.from_dict(data["pad"])
        if data.get("undo"):
            pad = pad.undo()
        entry = data.get("entry")
        if entry is not None:
            pad = pad.add(entry)
    except ScorePadError as exc:
        return _error(str(exc), "bad-entry", field=exc.field)
    return JSONResponse({"pad": pad.to_dict()})


def routes() -> list[BaseRoute]:
    """The score pad routes, for the app's route list."""
    return [
        Route("/scorepad", scorepad_page),
        Route("/api/scorepad/presets", scorepad_presets),
        Route("/api/scorepad/score", scorepad_score, methods=["POST"]),
    ]
