"""Reading a JSON request body the way every JSON endpoint of the app must."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse

from .security import origin_allowed


def json_error(message: str, rule: str, status: int = 400, **extra: Any) -> JSONResponse:
    """An error answer: ``{"error": message, "rule": rule, ...extra}`` with ``status``."""
    return JSONResponse({"error": message, "rule": rule, **extra}, status_code=status)


async def read_json(request: Request, limit: int, what: str) -> Any | JSONResponse:
    """The request's JSON body, or the error answer to send instead.

    Refuses a cross-site page (403 ``bad-origin``), a body over ``limit`` bytes
    (413 ``too-large``) and a body that is not JSON (400 ``bad-json``); ``what``
    names the body in the messages ("the record", "the pad").
    """
    hub = getattr(request.app.state, "hub", None)
    allowed = hub.config.allowed_origins if hub is not None else ()
    if not origin_allowed(request.headers.get("origin"), request.headers.get("host"), allowed):
        return json_error("cross-site request refused", "bad-origin", 403)
    body = await request.body()
    if len(body) > limit:
        return json_error(f"{what} is too large", "too-large", 413)
    try:
        return json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return json_error(f"{what} is not JSON", "bad-json")
