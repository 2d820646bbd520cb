"""The Starlette application: the middleware and the app factory.

Every request that may change something passes one body policy first
(``requests.py:BodyPolicy``: JSON only, from the site's own pages).  The routes live
by job: the lobby (``lobby_routes.py``), a table's page, seats
and rematch (``seat_routes.py``), the table's socket (``session.py``), and the
other modules' own (replays, analyses, hints, the score pad, the rules book,
health).  The tables are the hub's (``hub.py:Hub``).  Every refusal of an HTTP
route is an ``errors.py:ApiError``, answered by one handler
(``errors.py:api_error_response``).
"""

from __future__ import annotations

import contextlib
import gc
import os
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..base import health
from ..base.config import ServerConfig
from ..base.errors import ApiError, api_error_response
from ..base.httplimits import ClientRequests, RequestCounts
from ..base.pages import error_page
from ..base.requests import BodyPolicy
from ..cluster.cluster import Cluster
from ..events.planner import Planner
from ..events.runner import ArenaRunner
from ..jobs.botmoves import BotBackend
from ..lobby.matchmaker import Matchmaker
from ..players.ratelimits import SharedLimits
from ..tables import session
from ..tables.connections import HostCheck
from ..tables.hub import Hub
from . import (
    account_routes,
    analysis_routes,
    block_routes,
    commitment_routes,
    follow_routes,
    hint_routes,
    invite_routes,
    lobby_routes,
    passkey_routes,
    profile_routes,
    push_routes,
    replay_routes,
    rules_routes,
    scorepad_routes,
    seat_routes,
    seek_routes,
    tournament_routes,
)
from .http import STATIC
from .lobby_routes import listed

__all__ = ["Hub", "SecurityHeaders", "app_from_env", "create_app"]


async def http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own errors (unknown URL, wrong method): a page for a browser asking for
    HTML, ``{"error", "rule"}`` for everyone else."""
    status = getattr(exc, "status_code", 500)
    message = {404: "there is no such page", 405: "this address does not take that method"
               }.get(status, str(getattr(exc, "detail", "error")).lower())
    rule = {404: "not-found", 405: "bad-method"}.get(status, "error")
    if request.method == "GET" and "text/html" in request.headers.get("accept", ""):
        return error_page(message, rule, status)
    return JSONResponse({"error": message, "rule": rule}, status_code=status,
                        headers=getattr(exc, "headers", None))


class SecurityHeaders:
    """Adds a strict Content-Security-Policy and friends to every HTTP response."""

    HEADERS: tuple[tuple[bytes, bytes], ...] = (
        (b"content-security-policy",
         b"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
         b"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"no-referrer"),
        (b"x-frame-options", b"DENY"),
    )

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = dict(message)
                message["headers"] = list(message.get("headers", [])) + list(self.HEADERS)
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(config: ServerConfig | None = None, bots: BotBackend | None = None) -> Starlette:
    """Build the app; the database is opened, migrated and replayed at startup.

    ``bots``: where bot moves are computed (default: a worker pool of the app's own,
    stopped with it).
    """
    config = config or ServerConfig()
    hub = Hub(config, bots, Cluster if config.clustered else None)
    matchmaker = Matchmaker(hub)  # Find players (matchmaker.py): every process runs one
    arena = ArenaRunner(hub)  # arenas (events/runner.py): a lease per tournament
    planner = Planner(hub)  # clubs' schedules (events/planner.py): every process
    limits = SharedLimits(  # sign-in and seek limits, shared by the processes
        config.bus_url, config.clustered,
        lambda: hub.store.engine if hub.store is not None else None, config.clock)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if config.freeze_at_start:  # the process's own objects, out of every collection
            gc.collect()
            gc.freeze()
        await hub.start()
        matchmaker.start()
        arena.start()
        planner.start()
        try:
            yield
        finally:
            await planner.stop()
            await arena.stop()
            await matchmaker.stop()
            await hub.stop()
            await limits.close()

    app = Starlette(
        routes=[
            # Each module's routes: one line each.
            *lobby_routes.routes(),
            *seek_routes.routes(),
            *tournament_routes.routes(),
            *seat_routes.routes(),
            *session.routes(),
            *replay_routes.routes(),
            *analysis_routes.routes(),
            *hint_routes.routes(),
            *scorepad_routes.routes(),
            *health.routes(),
            *rules_routes.routes(),
            *account_routes.routes(),
            *passkey_routes.routes(),
            *profile_routes.routes(),
            *follow_routes.routes(),
            *commitment_routes.routes(),
            *push_routes.routes(),
            *block_routes.routes(),
            *invite_routes.routes(),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
        exception_handlers={HTTPException: http_error, ApiError: api_error_response},
    )
    app.state.hub = hub
    app.state.matchmaker = matchmaker
    app.state.arena = arena
    app.state.planner = planner
    app.state.limits = limits
    # several processes: a table another process owns is its (cluster.py), once this
    # process has checked the Host header; one process: nothing
    hub.cluster.serve(app, lambda: listed(hub))
    # every POST: JSON from the site's own pages, checked here before any route runs
    app.add_middleware(BodyPolicy, allowed_origins=config.allowed_origins)
    app.add_middleware(HostCheck, allowed_hosts=config.allowed_hosts)
    app.state.http_requests = RequestCounts(  # httplimits.py
        config.max_requests_per_client, config.request_queue, config.request_wait)
    app.add_middleware(ClientRequests, counts=app.state.http_requests)
    app.add_middleware(SecurityHeaders)
    return app


def app_from_env() -> Starlette:
    """The app for the configuration in ``$POLIGNAC_SERVE_CONFIG`` (JSON, written by
    ``polignac serve --workers N``): uvicorn's factory in each worker process.

    Raises:
        KeyError: the variable is not set.
    """
    from ..cluster.multiproc import log_to_stderr

    log_to_stderr()
    return create_app(ServerConfig.from_json(os.environ["POLIGNAC_SERVE_CONFIG"]))
