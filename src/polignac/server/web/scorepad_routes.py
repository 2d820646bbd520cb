"""The score pad for real-card games (docs/rules/common.md#score-pad): its page and JSON API.

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

Replaying a pad grows with its entries: it runs in a worker process
(``jobs.score_job`` in the app's pool, ``workers.py``), like the replay viewer's records.
"""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...core import PRESETS
from ...core.scorepad import REVOKE_DEFAULTS
from ..base.requests import read_body
from ..jobs.jobs import score_job
from .http import run_json_job

STATIC = Path(__file__).parent.parent / "static"
MAX_BODY = 512 * 1024


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
    body = await read_body(request, MAX_BODY, "the request")
    return await run_json_job(request, score_job, body, "the pad", "to score")


def routes() -> list[BaseRoute]:
    """The score pad routes, for the app's route list."""
    return [
        Route("/scorepad", scorepad_page),
        Route("/api/scorepad/presets", scorepad_presets),
        Route("/api/scorepad/score", scorepad_score, methods=["POST"]),
    ]
