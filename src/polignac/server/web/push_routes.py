"""Web Push: a signed-in browser turns notifications on or off for its account
(``players/push.py``; docs/server.md, "Notifications").

    GET  /api/push/key            -> {"key"}: the site's applicationServerKey (VAPID)
    GET  /api/push/subscriptions  signed in -> this account's browsers with notifications
    POST /api/push/subscribe      signed in, {"subscription", "lang"} -> {"subscriptions": N}
    POST /api/push/unsubscribe    signed in, {"endpoint"} -> {"removed": bool}
    GET  /sw.js                   the service worker that shows the notifications

The service worker is served from the site's root so that its scope is the whole site.
"""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from ..base.errors import ApiError
from ..players import push
from ..tables.hub import hub_of
from .account_routes import _required, json_body, service
from .http import STATIC


def _sender(request: Request) -> push.PushSender:
    sender = hub_of(request).push
    if sender is None:
        raise ApiError("the server is starting: try again in a moment", "busy", 503)
    return sender


async def key(request: Request) -> Response:
    """The site's VAPID public key, for ``PushManager.subscribe``."""
    return JSONResponse({"key": await asyncio.to_thread(_sender(request).public_key)})


async def subscriptions(request: Request) -> Response:
    """The account's browsers with notifications on, newest first."""
    account = await _required(request)
    rows = await asyncio.to_thread(push.subscriptions_of, service(request).store.engine,
                                   account.id)
    return JSONResponse({"subscriptions": rows})


async def subscribe(request: Request) -> Response:
    """Turn notifications on for this browser (``subscription``: its
    ``PushSubscription.toJSON()``; ``lang``: the language they speak).

    Raises:
        ApiError: 401 ``signed-out``, 400 ``bad-subscription`` (nothing stored).
    """
    account = await _required(request)
    data = await json_body(request)
    hub = hub_of(request)
    sub = push.parse_subscription(data.get("subscription"), hub.config.push_local_endpoints)
    lang = data.get("lang") if isinstance(data.get("lang"), str) else "en"
    count = await asyncio.to_thread(push.subscribe, service(request).store.engine,
                                    account.id, sub, request.headers.get("user-agent", ""),
                                    lang, hub.clock.time())
    return JSONResponse({"subscriptions": count})


async def unsubscribe(request: Request) -> Response:
    """Turn notifications off for the browser at ``endpoint``."""
    account = await _required(request)
    data = await json_body(request)
    endpoint = data.get("endpoint")
    if not isinstance(endpoint, str) or len(endpoint) > push.ENDPOINT_MAX:
        raise ApiError("send the endpoint to forget", "bad-subscription")
    removed = await asyncio.to_thread(push.unsubscribe, service(request).store.engine,
                                      account.id, endpoint)
    return JSONResponse({"removed": removed})


async def service_worker(request: Request) -> Response:
    """The service worker (``static/sw.js``), at the root: its scope is the site."""
    return FileResponse(STATIC / "sw.js", media_type="text/javascript",
                        headers={"Cache-Control": "no-cache"})


def routes() -> list[Route]:
    """This module's routes."""
    return [
        Route("/api/push/key", key),
        Route("/api/push/subscriptions", subscriptions),
        Route("/api/push/subscribe", subscribe, methods=["POST"]),
        Route("/api/push/unsubscribe", unsubscribe, methods=["POST"]),
        Route("/sw.js", service_worker),
    ]
