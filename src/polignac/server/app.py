"""The Starlette application: pages, the JSON API, the table WebSocket.

Routes::

    GET  /                       lobby
    GET  /tables/{id}            table page
    GET  /tables/{id}/join       invite link: ?seat=N&token=T -> a page to choose a name
    POST /tables/{id}/join       that page's form (name) -> seat cookie, redirect
    GET  /tables/{id}/invites    the creator's unused invite links, again
    GET  /tables/{id}/request    this browser's waiting request for a seat, if any
    GET  /tables/{id}/record.json  the match record (finished deals only while playing)
    GET  /api/presets            presets, bot levels, house rules for the lobby
    POST /api/play-now           you and three bots, preset polignac
    POST /api/tables             create a table from a JSON description
    POST /api/learn              the guided first deal (guide.py)
    GET  /api/tables             every table for the lobby: preset, status, who is seated
    POST /tables/{id}/seats/{seat}/take  ask for a bot's seat (the creator answers)
    POST /tables/{id}/seats/{seat}/approve  the creator approves that request
    POST /tables/{id}/seats/{seat}/refuse   the creator refuses it
    POST /tables/{id}/start      the creator starts a waiting table; bots fill open seats
    POST /tables/{id}/rematch    a new table with the same settings and seats
    WS   /tables/{id}/ws         the table protocol (docs/server.md); no seat cookie: spectator
    GET  /health                 loop lag, tables, connections, workers (health.py)
    GET  /ready                  503 until started and the database (and bus) answer
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import os
import re
import secrets
import socket
import time
import urllib.parse
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..bots.registry import make_bot
from ..core import PRESETS, PolignacError, get_rules, to_record
from ..core.rules import BOUNDS, DECLARATIONS
from ..i18n import bot_name, default_name, name_fields
from . import (
    account_routes,
    analysis_routes,
    health,
    hint_routes,
    passkey_routes,
    profile_routes,
    replay_routes,
    rules_routes,
    scorepad_routes,
)
from .botmoves import BotBackend, PoolBackend, backend_for
from .botqueue import heavy_pool_for
from .cluster import Cluster, ClusterRouter
from .config import ServerConfig
from .connections import ClientSockets, HostCheck, Outbox
from .db import (
    SeatRow,
    Store,
    TableRow,
    insert_table,
    make_engine,
    migrate,
    set_rematch,
    update_seat,
    update_table,
)
from .guide import GUIDE_IDS, Guide, load_guide
from .health import LagMonitor
from .pages import error_page, render
from .requests import JsonInputError, parse_json, read_body
from .seating import (
    IDENTITY_COOKIE,
    KeyedRateLimit,
    identity_hash,
    new_identity,
    read_identity,
    seal,
    unseal,
)
from .security import (
    RateLimit,
    cookie_name,
    hash_token,
    new_token,
    origin_allowed,
    parse_cookie,
    token_matches,
)
from .tables import GameTable, ProtocolError, Subscriber
from .workers import WorkerPool
from .writer import Writer

log = logging.getLogger("polignac.server")
STATIC = Path(__file__).parent / "static"
HOUSE_RULES: dict[str, dict[str, Any]] = {
    "threshold": {"label": "Match ends at (points)", "type": "int",
                  "min": BOUNDS["threshold"][0], "max": BOUNDS["threshold"][1]},
    "direction": {"label": "Direction of play", "type": "choice",
                  "choices": ["clockwise", "counter-clockwise"]},
    "declaration": {"label": "Declarations", "type": "choice", "choices": list(DECLARATIONS)},
    "contract_points": {"label": "Contract penalty (points)", "type": "int",
                        "min": BOUNDS["contract_points"][0], "max": BOUNDS["contract_points"][1]},
}
_NAME_OK = re.compile(r"[^\w \-'.]", re.UNICODE)
_TABLE_ID = re.compile(r"[A-Za-z0-9_\-]{1,32}")


class ApiError(Exception):
    """A bad request to the JSON API: answered with ``status`` and ``{"error", "rule"}``."""

    def __init__(self, message: str, rule: str, status: int = 400,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.status = status
        self.headers = headers


def clean_name(value: Any, default: str) -> str:
    """A player name: printable, at most 24 characters."""
    if not isinstance(value, str):
        return default
    text = _NAME_OK.sub("", value).strip()[:24]
    return text or default


def _cookie_seat(table: GameTable, cookies: dict[str, str]) -> tuple[int, str] | None:
    """The seat and token of ``table``'s cookie when it names a seat there (unchecked token)."""
    parsed = parse_cookie(cookies.get(cookie_name(table.id)))
    if parsed is None or not 0 <= parsed[0] < len(table.seats):
        return None
    return parsed


class Hub:
    """Every table of this server process, and the storage behind them."""

    def __init__(self, config: ServerConfig, bots: BotBackend | None = None) -> None:
        self.config = config
        # Bot moves: a pool of their own (docs/server.md, "Bot moves"), unless given
        # (a backend given is not stopped with the hub: tests share one).
        self.own_bots = bots is None
        self.bots: BotBackend = bots or backend_for(config)  # --bot-queue or a local pool
        self.tables: dict[str, GameTable] = {}
        self.store: Store | None = None
        self.writer: Writer | None = None
        self.create_limit = KeyedRateLimit(config.create_per_minute, config.create_burst)
        self.loading: dict[str, asyncio.Task[GameTable | None]] = {}
        self.workers = WorkerPool(config.workers, config.job_seconds,
                                  memory_mb=config.worker_memory_mb,
                                  preload=("polignac.server.replay_routes",))
        self.heavy = heavy_pool_for(config, self.workers)  # hints, analyses: --bot-queue
        self.lag = LagMonitor(warn=config.lag_warn_ms / 1000)
        self.sockets = ClientSockets(config.max_connections_per_client)
        # Several processes (docs/server.md, "Several processes"): leases, bus, forwarding.
        self.cluster: Cluster | None = Cluster(self) if config.clustered else None
        self.started = False
        """True once :meth:`start` has finished (``GET /ready``)."""

    async def start(self) -> None:
        """Open the database, migrate it, rebuild every table by replaying its events.

        Raises:
            sqlalchemy.exc.SQLAlchemyError: the database cannot be opened or migrated.
        """
        self.lag.start()
        if self.config.warm_workers:
            await asyncio.to_thread(self.workers.start)
            if isinstance(self.bots, PoolBackend) and self.own_bots:
                await asyncio.to_thread(self.bots.start)
        engine = make_engine(self.config.url())
        await asyncio.to_thread(migrate, engine)
        self.store = Store(engine)
        self.writer = Writer(self.store)
        self.writer.start()
        if self.cluster is not None:  # tables come by request, or are taken over
            await self.cluster.start()
            self.started = True
            return
        for row in await asyncio.to_thread(self.store.load_all):
            try:
                table = GameTable(row, self.writer, self.config)
            except PolignacError:
                log.exception("table %s does not replay; skipped", row.id)
                continue
            self._register(table)
            table.wake()
            for s in table.seats:  # nobody is connected yet: the grace period starts now
                table.start_grace(s.seat)
        self.started = True

    def _register(self, table: GameTable) -> None:
        """Keep ``table`` in memory until it is unloaded (:meth:`unload`)."""
        self.tables[table.id] = table
        table.on_idle = self.unload
        table.on_fenced = self._fenced
        table.backend = self.bots
        table.settle()

    async def find(self, table_id: str) -> GameTable | None:
        """The table ``table_id``: in memory, or loaded from the database (a closed or
        finished table that left memory: it comes back paused, and leaves again), or
        None when there is no such table.

        Raises:
            sqlalchemy.exc.SQLAlchemyError: the database cannot be read.
        """
        table = self.tables.get(table_id)
        if table is not None or not _TABLE_ID.fullmatch(table_id) or self.store is None:
            return table
        task = self.loading.get(table_id)
        if task is None:
            task = self.loading[table_id] = asyncio.get_running_loop().create_task(
                self._load(table_id))
            task.add_done_callback(lambda _t: self.loading.pop(table_id, None))
        return await asyncio.shield(task)

    async def _load(self, table_id: str, adopt: bool = False) -> GameTable | None:
        """Load ``table_id`` (None: no such table, or another process owns it); with
        several processes, only once its lease is this process's.  ``adopt``: taken
        over from a process that died, it plays on as after a restart (else it comes
        back paused until a person connects)."""
        assert self.store is not None and self.writer is not None
        store, writer = self.store, self.writer
        if self.cluster is not None and not await self.cluster.acquire(table_id):
            return None
        row = await asyncio.to_thread(store.load_one, table_id)
        if row is None:
            if self.cluster is not None:
                await self.cluster.release(table_id)
            return None
        if table_id in self.tables:  # created meanwhile
            return self.tables[table_id]
        try:
            table = await asyncio.to_thread(GameTable, row, writer, self.config)
        except PolignacError:
            log.exception("table %s does not replay", table_id)
            if self.cluster is not None:
                await self.cluster.release(table_id)
            return None
        table.paused = not adopt and not table.match.finished  # nobody is here yet
        self._register(table)
        if adopt:
            table.wake()
            for s in table.seats:  # as after a restart: grace periods start now
                table.start_grace(s.seat)
        return table

    async def adopt(self, table_id: str) -> None:
        """Take over ``table_id``, whose owner process died (its lease lapsed), from the
        event log (nothing if it is loaded or loading here, or another took it first).

        Raises:
            sqlalchemy.exc.SQLAlchemyError: the database cannot be read.
        """
        if table_id in self.tables or table_id in self.loading:
            return
        task = self.loading[table_id] = asyncio.get_running_loop().create_task(
            self._load(table_id, adopt=True))
        task.add_done_callback(lambda _t: self.loading.pop(table_id, None))
        await asyncio.shield(task)

    async def drop(self, table: GameTable, why: str) -> None:
        """Take ``table`` out of memory at once, without storing anything, and close its
        connections with 1012 (clients reconnect, to its next owner): this process
        no longer owns it."""
        if self.tables.get(table.id) is not table:
            return
        del self.tables[table.id]
        await table.stop(reconnect=True)
        log.warning("table %s: dropped by process %s (%s)", table.id,
                    self.cluster.id if self.cluster else "-", why)

    def _fenced(self, table: GameTable) -> None:
        """Another process wrote ``table``'s next event (its owner now, or a stale one):
        drop the table and give up its lease, so that it is loaded again from the log."""
        async def run() -> None:
            await self.drop(table, "another process wrote its next event")
            if self.cluster is not None:
                await self.cluster.release(table.id)
        asyncio.get_running_loop().create_task(run())

    @property
    def process_id(self) -> str:
        """This process's id (``GET /health``, the logs)."""
        return self.cluster.id if self.cluster is not None else f"{socket.gethostname()}-" \
            f"{os.getpid()}"

    async def unload(self, table: GameTable, why: str) -> bool:
        """Take a paused (``why`` = ``closed``) or finished table out of memory; it stays
        in the database (:meth:`find` loads it again).  False, and nothing done,
        while it still has connections.

        Raises:
            sqlalchemy.exc.SQLAlchemyError, WriterClosedError: not stored.
        """
        assert self.writer is not None
        if table.subscribers or self.tables.get(table.id) is not table:
            return False
        now = time.time()
        values = {"closed_at": now} if why == "closed" else {"finished_at": now}
        await self.writer.run(lambda conn: update_table(conn, table.id, **values))
        if why == "closed":
            table.closed_at = now
        if table.subscribers:  # somebody came while it was being stored
            return False
        del self.tables[table.id]
        await table.stop()
        if self.cluster is not None:
            await self.cluster.release(table.id)
        log.info("table %s left memory (%s)", table.id, why)
        return True

    async def stop(self) -> None:
        """Stop every table's driver, write what is waiting and close the database."""
        if self.cluster is not None:
            self.cluster.halt()
        await self.lag.stop()
        await self.workers.stop()
        if self.heavy is not self.workers:
            await self.heavy.stop()
        for table in list(self.tables.values()):  # unload may remove tables meanwhile
            await table.stop()
        if self.own_bots:
            await self.bots.stop()
        if self.writer is not None:
            await self.writer.stop()
        if self.cluster is not None and self.store is not None:
            await self.cluster.close()
        if self.store is not None:
            self.store.engine.dispose()

    async def create(self, preset: str, players: int | None, seats: list[dict[str, Any]],
                     overrides: dict[str, Any], name: str, holder: str,
                     options: dict[str, Any]) -> tuple[GameTable, str, dict[int, str]]:
        """Create a table for the browser identity hashed as ``holder``; return it, the
        creator's seat token and the invite tokens.

        Raises:
            ApiError: unknown preset, bad player count, bad seats or house rules
                (400); the server holds ``max_tables`` tables (429).
        """
        assert self.store is not None
        if len(self.tables) >= self.config.max_tables:
            raise ApiError(f"the server has {len(self.tables)} tables open, its most; try "
                           "again later", "too-many-tables", 429)
        try:
            rules = get_rules(preset, overrides)
            n = rules.default_players if players is None else players
            rules.check_player_count(n)
        except PolignacError as exc:
            raise ApiError(str(exc), "bad-rules") from None
        if len(seats) != n:
            raise ApiError(f"{len(seats)} seats described for {n} players", "bad-seats")
        if [s.get("kind") for s in seats].count("you") != 1:
            raise ApiError("exactly one seat must be yours (kind 'you')", "bad-seats")
        rows: list[SeatRow] = []
        creator = new_token()
        table_id = secrets.token_urlsafe(9)
        invites: dict[int, str] = {}
        for i, spec in enumerate(seats):
            kind = spec.get("kind")
            if kind == "you":
                rows.append(SeatRow(i, "human", None, name, hash_token(creator), None,
                                    holder_hash=holder))
            elif kind == "open":
                invite = new_token()
                invites[i] = invite
                rows.append(SeatRow(i, "human", None, default_name("name.guest", n=i + 1), None,
                                    hash_token(invite),
                                    invite_sealed=seal(invite, creator, table_id, i)))
            elif kind == "bot":
                level = spec.get("level", "easy")
                if not isinstance(level, str) or level not in self.config.bot_levels:
                    raise ApiError(f"bot level {level!r}: choose one of "
                                   f"{', '.join(self.config.bot_levels)}", "bad-seats")
                make_bot(level)
                rows.append(SeatRow(i, "bot", level, bot_name(level, i + 1),
                                    None, None))
            else:
                raise ApiError(f"seat {i}: kind must be you, bot or open", "bad-seats")
        you = [s.get("kind") for s in seats].index("you")
        row = TableRow(table_id, preset, rules.overrides_from(PRESETS[preset]),
                       n, secrets.randbelow(n), rows, [], creator_seat=you, options=options)
        return await self.open_table(row), creator, invites

    async def create_guided(self, guide: Guide, name: str, holder: str
                            ) -> tuple[GameTable, str]:
        """A private table for one newcomer: ``guide``'s prepared deal against its seeded
        bots; return it and the newcomer's seat token.

        Raises:
            ApiError: the server holds ``max_tables`` tables (429).
        """
        if len(self.tables) >= self.config.max_tables:
            raise ApiError(f"the server has {len(self.tables)} tables open, its most; try "
                           "again later", "too-many-tables", 429)
        token = new_token()
        rows = [
            SeatRow(s, "human", None, name, hash_token(token), None, holder_hash=holder)
            if s == guide.you else
            SeatRow(s, "bot", guide.bot_level, bot_name(guide.bot_level, s + 1), None, None)
            for s in range(guide.players)
        ]
        row = TableRow(secrets.token_urlsafe(9), guide.preset, dict(guide.overrides),
                       guide.players, guide.dealer, rows, [], creator_seat=guide.you,
                       options={"guide": guide.id, "private": True, "hints": True})
        return await self.open_table(row), token

    async def open_table(self, row: TableRow) -> GameTable:
        """Store a new table, deal its first hands (unless it waits for people to claim
        its open seats, or a cut window is configured: then the driver publishes the
        commitment and deals) and start its driver.

        Raises:
            sqlalchemy.exc.SQLAlchemyError: the table cannot be stored.
        """
        assert self.writer is not None
        cluster = self.cluster

        def store(conn: Any) -> None:
            insert_table(conn, row)
            if cluster is not None:  # the new table's lease is this process's
                cluster.claim_new(conn, row.id)

        await self.writer.run(store)
        if cluster is not None:
            log.info("table %s: owned by process %s (created here)", row.id, cluster.id)
        table = GameTable(row, self.writer, self.config)
        self._register(table)
        if self.config.cut_window <= 0:  # else the driver deals once the cuts are in
            await table.deal()
        table.wake()
        for s in table.seats:  # a seated person who never comes is replaced by a bot
            table.start_grace(s.seat)
        return table

    async def rematch(self, old: GameTable, seat: int) -> tuple[GameTable, dict[int, str]]:
        """The rematch of ``old`` (created on first call): same preset, rules, seats.

        People's seats are reserved for them: the seat's invite is the old seat
        token (exchanged by :meth:`claim_rematch_seat`).  Seats nobody had
        claimed get fresh invites, returned (only by the call that creates).
        ``seat``, the caller's, is the new table's creator (who may start it
        before everyone has come back).  Call with ``old.lock`` held.

        Raises:
            ApiError: the match is not over (409).
        """
        assert self.writer is not None
        if old.rematch_id is not None and old.rematch_id in self.tables:
            return self.tables[old.rematch_id], {}
        if not old.match.finished:
            raise ApiError("the match is not over yet", "not-finished", 409)
        if len(self.tables) >= self.config.max_tables:
            raise ApiError(f"the server has {len(self.tables)} tables open, its most; try "
                           "again later", "too-many-tables", 429)
        rows: list[SeatRow] = []
        invites: dict[int, str] = {}
        for s in old.seats:
            if s.kind == "bot":
                rows.append(SeatRow(s.seat, "bot", s.bot_level, s.name, None, None))
            elif s.token_hash is not None:
                rows.append(SeatRow(s.seat, "human", None, s.name, None, s.token_hash,
                                    holder_hash=s.holder_hash))
            else:
                invites[s.seat] = new_token()
                rows.append(SeatRow(s.seat, "human", None, s.name, None,
                                    hash_token(invites[s.seat])))
        n = len(old.seats)
        row = TableRow(secrets.token_urlsafe(9), old.preset, dict(old.overrides), n,
                       secrets.randbelow(n), rows, [], creator_seat=seat,
                       options={k: v for k, v in old.options.items()
                                if k != "guide"})  # a guided deal is played once
        table = await self.open_table(row)
        await self.writer.run(lambda conn: set_rematch(conn, old.id, table.id))
        old.rematch_id = table.id
        old.broadcast({"type": "rematch", "id": table.id, "url": f"/tables/{table.id}"})
        return table, invites

    async def claim_rematch_seat(self, table: GameTable, seat: int, old_token: str) -> str:
        """Give the holder of ``seat`` at the old table that seat at ``table``; a fresh token.

        Raises:
            ApiError: the seat is not reserved for that token (403).
        """
        async with table.lock:
            row = table.seats[seat]
            if row.kind != "human" or not (token_matches(old_token, row.invite_hash)
                                           or row.token_hash is not None):
                raise ApiError("this seat is not yours", "bad-token", 403)
            fresh = new_token()
            await self.claim(table, seat, hash_token(fresh), row.holder_hash)
        table.wake()  # the last person to come back starts the first deal
        return fresh

    async def claim(self, table: GameTable, seat: int, token_hash: str,
                    holder: str | None, name: str | None = None) -> None:
        """Give person's ``seat`` its token and holder (invite used up), and ``name``
        when given; call with ``table.lock`` held.

        Raises:
            sqlalchemy.exc.SQLAlchemyError, WriterClosedError: not stored.
        """
        assert self.writer is not None
        row = table.seats[seat]
        new_name = row.name if name is None else name
        await self.writer.run(lambda conn: update_seat(conn, table.id, seat,
                                                       token_hash=token_hash,
                                                       invite_hash=None, invite_sealed=None,
                                                       holder_hash=holder, name=new_name))
        row.token_hash, row.invite_hash, row.invite_sealed = token_hash, None, None
        row.holder_hash = holder
        if new_name != row.name:
            row.name = new_name
            table.rename(seat, new_name)
        table.start_grace(seat)
        table.broadcast(table.presence_frame())

    def seat_of(self, table: GameTable, cookies: dict[str, str]) -> int | None:
        """The seat whose valid token this browser holds at ``table``, or None."""
        found = self.seat_and_token(table, cookies)
        return None if found is None else found[0]

    def pending_take(self, table: GameTable, cookies: dict[str, str]) -> int | None:
        """The bot's seat this browser asked to take at the next deal, or None."""
        found = _cookie_seat(table, cookies)
        if found is None:
            return None
        seat, token = found
        return seat if token_matches(token, table.seats[seat].take_hash) else None

    def seat_and_token(self, table: GameTable, cookies: dict[str, str]
                       ) -> tuple[int, str] | None:
        """The seat and token this browser validly holds at ``table``, or None."""
        found = _cookie_seat(table, cookies)
        if found is None:
            return None
        seat, token = found
        return found if token_matches(token, table.seats[seat].token_hash) else None


def _hub(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _set_seat_cookie(response: Response, config: ServerConfig, table_id: str, seat: int,
                     token: str) -> None:
    response.set_cookie(cookie_name(table_id), f"{seat}.{token}", max_age=30 * 24 * 3600,
                        httponly=True, samesite="lax", secure=config.secure_cookies, path="/")


def _identity(request: Request) -> tuple[str, str | None]:
    """This browser's identity hash, and the new identity to set when it had none."""
    identity = read_identity(request.cookies)
    if identity is not None:
        return identity_hash(identity), None
    fresh = new_identity()
    return identity_hash(fresh), fresh


def _set_identity(response: Response, config: ServerConfig, fresh: str | None) -> None:
    """Set the browser identity cookie (``seating.py``) when ``fresh`` is a new one."""
    if fresh is not None:
        response.set_cookie(IDENTITY_COOKIE, fresh, max_age=400 * 24 * 3600, httponly=True,
                            samesite="lax", secure=config.secure_cookies, path="/")


def _check_origin(request: Request) -> None:
    if not origin_allowed(request.headers.get("origin"), request.headers.get("host"),
                          _hub(request).config.allowed_origins):
        raise ApiError("cross-site request refused", "bad-origin", 403)


def _check_create_rate(request: Request, holder: str) -> None:
    """One more table for this address and this browser, or 429."""
    hub = _hub(request)
    address = request.client.host if request.client else "?"
    if not hub.create_limit.allow(f"address:{address}", f"identity:{holder}"):
        raise ApiError(f"too many new tables from you: at most {hub.config.create_burst} at "
                       f"once and {hub.config.create_per_minute:g} a minute; try again later",
                       "create-rate", 429,
                       {"Retry-After": str(hub.create_limit.retry_after())})


async def _json_body(request: Request) -> dict[str, Any]:
    body = await read_body(request, 16 * 1024, "the request")
    if isinstance(body, Response):
        raise ApiError("request too large: at most 16384 bytes", "too-large", 413)
    if not body:
        return {}
    try:
        data = parse_json(body, "the body")
    except JsonInputError as exc:
        raise ApiError(str(exc), exc.rule) from None
    if not isinstance(data, dict):
        raise ApiError("the body must be a JSON object", "bad-json")
    return data


def _api(handler: Any) -> Any:
    async def wrapped(request: Request) -> Response:
        try:
            response: Response = await handler(request)
            return response
        except ApiError as exc:
            return JSONResponse({"error": str(exc), "rule": exc.rule}, status_code=exc.status,
                                headers=exc.headers)
    return wrapped


def _page(handler: Any) -> Any:
    """Like :func:`_api` for the HTML routes: errors answer with :func:`error_page`."""
    async def wrapped(request: Request) -> Response:
        try:
            response: Response = await handler(request)
            return response
        except ApiError as exc:
            page = error_page(str(exc), exc.rule, exc.status)
            page.headers.update(exc.headers or {})
            return page
    return wrapped


def _rated(data: dict[str, Any]) -> bool:
    """The ``rated`` choice of a new table (default false: casual; ``ratings.py``).

    Raises:
        ApiError: not true or false (400 ``bad-field``).
    """
    rated = data.get("rated", False)
    if not isinstance(rated, bool):
        raise ApiError("rated must be true or false", "bad-field")
    return rated


@_api
async def play_now(request: Request) -> Response:
    """You and three bots of ``level`` (default ``play_now_level``, medium) at a new
    private table of ``polignac`` (or the preset given)."""
    _check_origin(request)
    data = await _json_body(request)
    preset = data.get("preset", "polignac")
    if not isinstance(preset, str):
        raise ApiError("preset must be text", "bad-field")
    level = data.get("level", _hub(request).config.play_now_level)
    if not isinstance(level, str) or level not in _hub(request).config.bot_levels:
        raise ApiError(f"level must be one of {', '.join(_hub(request).config.bot_levels)}",
                       "bad-level")
    rated = _rated(data)
    holder, fresh = _identity(request)
    _check_create_rate(request, holder)
    rules = PRESETS.get(preset)
    n = rules.default_players if rules else 4
    seats = [{"kind": "you"}] + [{"kind": "bot", "level": level}] * (n - 1)
    hub = _hub(request)
    table, token, _ = await hub.create(preset, n, seats, {},
                                       clean_name(data.get("name"), default_name("name.you")),
                                       holder, {"private": True, "hints": not rated,
                                                "rated": rated})
    response = JSONResponse({"url": f"/tables/{table.id}", "id": table.id})
    _set_seat_cookie(response, hub.config, table.id, 0, token)
    _set_identity(response, hub.config, fresh)
    return response


@_api
async def learn(request: Request) -> Response:
    """The guided first deal (``guide.py``): a private table for one newcomer.

    -> ``{"url", "id", "guide"}`` and the seat cookie; the same origin check and
    creation limits as Play now.
    """
    _check_origin(request)
    data = await _json_body(request)
    holder, fresh = _identity(request)
    _check_create_rate(request, holder)
    hub = _hub(request)
    guide = load_guide(GUIDE_IDS[0])
    table, token = await hub.create_guided(
        guide, clean_name(data.get("name"), default_name("name.you")), holder)
    response = JSONResponse({"url": f"/tables/{table.id}", "id": table.id, "guide": guide.id})
    _set_seat_cookie(response, hub.config, table.id, guide.you, token)
    _set_identity(response, hub.config, fresh)
    return response


@_api
async def create_table(request: Request) -> Response:
    """Create a table from ``{preset, players, seats: [{kind, level}], overrides, name,
    private, hints}`` (``private``: false by default; ``hints``: by default true when
    every other seat is a bot, false when a seat is open for a person)."""
    _check_origin(request)
    data = await _json_body(request)
    preset, players = data.get("preset", "polignac"), data.get("players")
    seats, overrides = data.get("seats"), data.get("overrides") or {}
    private = data.get("private", False)
    if not isinstance(preset, str):
        raise ApiError("preset must be text", "bad-field")
    if players is not None and (not isinstance(players, int) or isinstance(players, bool)):
        raise ApiError("players must be a number", "bad-field")
    if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
        raise ApiError("seats must be a list of objects", "bad-field")
    if not isinstance(overrides, dict):
        raise ApiError("overrides must be an object", "bad-field")
    if not isinstance(private, bool):
        raise ApiError("private must be true or false", "bad-field")
    rated = _rated(data)
    hints = data.get("hints", not rated and all(s.get("kind") in ("you", "bot") for s in seats))
    if not isinstance(hints, bool) or (rated and hints):
        raise ApiError("hints must be true or false (false at a rated table)", "bad-field")
    holder, fresh = _identity(request)
    _check_create_rate(request, holder)
    hub = _hub(request)
    table, token, invites = await hub.create(preset, players, seats, overrides,
                                             clean_name(data.get("name"),
                                                        default_name("name.you")), holder,
                                             {"private": private, "hints": hints,
                                              "rated": rated})
    you = next(i for i, s in enumerate(seats) if s.get("kind") == "you")
    response = JSONResponse({
        "url": f"/tables/{table.id}", "id": table.id, "private": private, "hints": hints,
        "rated": rated,
        "invites": [{"seat": s, "url": f"/tables/{table.id}/join?seat={s}&token={t}"}
                    for s, t in invites.items()],
    })
    _set_seat_cookie(response, hub.config, table.id, you, token)
    _set_identity(response, hub.config, fresh)
    return response


async def list_tables(request: Request) -> Response:
    """Every public table in memory, newest first (at most 500): preset, status, who is
    seated.  Private tables (Play now, or created private) are not listed."""
    hub = _hub(request)
    entries = _listed(hub)
    if hub.cluster is not None:  # every process's tables (cluster.py, gather)
        entries = await hub.cluster.gather(entries)
    entries.sort(key=lambda e: e["created_at"], reverse=True)
    return JSONResponse({"tables": entries[:500]})


def _listed(hub: Hub) -> list[dict[str, Any]]:
    """This process's public tables as ``GET /api/tables`` lists them (newest 500)."""
    tables = sorted((t for t in hub.tables.values() if not t.private),
                    key=lambda t: t.created_at, reverse=True)[:500]
    return [
        {"id": t.id, "url": f"/tables/{t.id}", "preset": t.preset, "overrides": t.overrides,
         "players": len(t.seats), "status": t.status(), "deal_number": t.match.deal_number,
         "created_at": t.created_at, "rematch": t.rematch_id, "paused": t.paused,
         "open_seats": [p["seat"] for p in t.presence() if p["open"]],
         "seats": [{"seat": s.seat, "name": s.name, **name_fields(s.name, s.seat, s.bot_level),
                    "kind": s.kind, "level": s.bot_level,
                    "open": p["open"], "connected": p["connected"]}
                   for s, p in zip(t.seats, t.presence(), strict=True)]}
        for t in tables]


def _seat_param(request: Request, table: GameTable) -> int:
    seat_text = request.path_params["seat"]
    if not seat_text.isdigit() or len(seat_text) > 3 or not 0 <= int(seat_text) < len(
            table.seats):
        raise ApiError(f"no such seat: seats are 0 to {len(table.seats) - 1}", "bad-seat", 404)
    return int(seat_text)


@_api
async def take_seat(request: Request) -> Response:
    """A person asks for a bot's seat: ``{"name"}`` -> 202 ``{"url", "seat", "queued":
    true}`` + cookie.  The request waits for the table creator's answer; approved, the
    seat is theirs at once between deals, else when the current deal ends.
    """
    _check_origin(request)
    table = await _table(request)
    hub = _hub(request)
    data = await _json_body(request)
    seat = _seat_param(request, table)
    identity = read_identity(request.cookies)
    if identity is None:
        raise ApiError("your browser sent no identity cookie: open the table's page (with "
                       "cookies allowed) and ask again", "no-identity", 403)
    if table.private:
        raise ApiError("this table is private: only the people its creator invited sit "
                       "at it", "private-table", 403)
    holder = identity_hash(identity)
    if hub.seat_of(table, request.cookies) is not None or table.holder_seat(holder) is not None:
        raise ApiError("you already have a seat at this table", "already-seated", 409)
    if hub.pending_take(table, request.cookies) is not None or \
            table.asked_by(holder) is not None:
        raise ApiError("you already asked for a seat at this table", "already-asked", 409)
    name = clean_name(data.get("name"), default_name("name.player", n=seat + 1))
    token = new_token()
    async with table.lock:
        try:
            await table.request_take(seat, name, hash_token(token), holder)
        except ProtocolError as exc:
            status = 429 if exc.rule == "too-many-requests" else 409
            raise ApiError(str(exc), exc.rule, status) from None
    response = JSONResponse({"url": f"/tables/{table.id}", "id": table.id, "seat": seat,
                             "queued": True, "approved": False}, status_code=202)
    _set_seat_cookie(response, hub.config, table.id, seat, token)
    return response


async def _answer(request: Request, approve: bool) -> Response:
    _check_origin(request)
    table = await _table(request)
    hub = _hub(request)
    seat = _seat_param(request, table)
    me = hub.seat_of(table, request.cookies)
    if me is None or me != table.creator_seat:
        raise ApiError("only the table's creator answers requests for a seat", "not-creator",
                       403)
    async with table.lock:
        try:
            granted = await table.answer_take(seat, approve)
        except ProtocolError as exc:
            raise ApiError(str(exc), exc.rule, 409) from None
    table.wake()
    return JSONResponse({"url": f"/tables/{table.id}", "id": table.id, "seat": seat,
                         "approved": approve, "granted": granted})


@_api
async def approve_take(request: Request) -> Response:
    """The creator approves the request for a bot's seat -> ``{"approved", "granted"}``
    (``granted``: the seat changed hands now, between deals; else at the deal's end)."""
    return await _answer(request, True)


@_api
async def refuse_take(request: Request) -> Response:
    """The creator refuses the request for a bot's seat (it is dropped)."""
    return await _answer(request, False)


@_api
async def invites(request: Request) -> Response:
    """The creator's unused invite links, again: ``{"invites": [{"seat", "url"}]}``.

    Invite tokens are stored sealed with the creator's seat token
    (``seating.seal``): only the creator's cookie opens them.
    """
    table = await _table(request)
    held = _hub(request).seat_and_token(table, request.cookies)
    if held is None or held[0] != table.creator_seat:
        raise ApiError("only the table's creator sees its invite links", "not-creator", 403)
    out = []
    for s in table.seats:
        if s.kind != "human" or s.token_hash is not None or s.invite_sealed is None:
            continue
        token = unseal(s.invite_sealed, held[1], table.id, s.seat)
        if token is not None and token_matches(token, s.invite_hash):
            out.append({"seat": s.seat, "url": f"/tables/{table.id}/join?seat={s.seat}"
                                               f"&token={token}"})
    return JSONResponse({"invites": out})


@_api
async def my_request(request: Request) -> Response:
    """This browser's waiting request for a seat here: ``{"seat": N | null}`` (so that a
    reloaded page still knows it asked)."""
    table = await _table(request)
    seat = _hub(request).pending_take(table, request.cookies)
    if seat is None:
        identity = read_identity(request.cookies)
        seat = None if identity is None else table.asked_by(identity_hash(identity))
    return JSONResponse({"seat": seat})


@_api
async def rematch(request: Request) -> Response:
    """A new table with the same settings and seats; the caller keeps their seat.

    The first call creates it (the match must be over); every seated person
    calls it to get their cookie for the new table.
    """
    _check_origin(request)
    old = await _table(request)
    hub = _hub(request)
    held = hub.seat_and_token(old, request.cookies)
    if held is None:
        raise ApiError("only the players of this table can ask for a rematch", "not-seated",
                       403)
    seat, old_token = held
    async with old.lock:
        table, invites = await hub.rematch(old, seat)
    response = JSONResponse({
        "url": f"/tables/{table.id}", "id": table.id, "seat": seat,
        "invites": [{"seat": s, "url": f"/tables/{table.id}/join?seat={s}&token={t}"}
                    for s, t in invites.items()],
    })
    if hub.seat_of(table, request.cookies) != seat:
        fresh = await hub.claim_rematch_seat(table, seat, old_token)
        _set_seat_cookie(response, hub.config, table.id, seat, fresh)
    return response


@_api
async def start_now(request: Request) -> Response:
    """The creator starts a table that waits for people: bots take the open seats.

    -> ``{"url", "id"}``; ``403 not-creator`` for anyone else, ``409
    not-waiting`` once the first deal is dealt or when no seat is open.
    """
    _check_origin(request)
    table = await _table(request)
    hub = _hub(request)
    seat = hub.seat_of(table, request.cookies)
    if seat is None or seat != table.creator_seat:
        raise ApiError("only the table's creator can start it", "not-creator", 403)
    async with table.lock:
        try:
            await table.start_now(hub.config.fill_level)
        except ProtocolError as exc:
            raise ApiError(str(exc), exc.rule, 409) from None
    table.wake()
    return JSONResponse({"url": f"/tables/{table.id}", "id": table.id})


async def presets(request: Request) -> Response:
    """What the lobby offers: presets, bot levels, house rules."""
    return JSONResponse({
        "presets": [{"name": r.preset, "players": list(r.players),
                     "default_players": r.default_players, "suits": r.suits,
                     "threshold": r.threshold, "declaration": r.declaration,
                     "direction": r.direction, "contract_points": r.contract_points,
                     "partnerships": r.partnerships, "sides": [list(x) for x in r.sides]}
                    for r in PRESETS.values()],
        "levels": [lv for lv in _hub(request).config.shown_levels
                   if lv in _hub(request).config.bot_levels],
        "all_levels": list(_hub(request).config.bot_levels),
        "play_now_level": _hub(request).config.play_now_level,
        "house_rules": HOUSE_RULES,
    })


async def _table(request: Request) -> GameTable:
    table = await _hub(request).find(request.path_params["table_id"])
    if table is None:
        raise ApiError("there is no such table (or it was never created here)", "no-table", 404)
    return table


async def favicon(request: Request) -> Response:
    """The site's icon (an SVG; the pages link it, this answers browsers that ask anyway)."""
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml",
                        headers={"cache-control": "public, max-age=86400"})


async def lobby_page(request: Request) -> Response:
    """The lobby (gives the browser its identity cookie)."""
    response = FileResponse(STATIC / "lobby.html")
    _set_identity(response, _hub(request).config, _identity(request)[1])
    return response


@_page
async def table_page(request: Request) -> Response:
    """The table page (the script connects to the WebSocket)."""
    table = await _table(request)
    hub = _hub(request)
    response = FileResponse(STATIC / "table.html")
    _set_identity(response, hub.config, _identity(request)[1])
    if request.cookies.get(cookie_name(table.id)) and hub.seat_of(table, request.cookies) is None \
            and hub.pending_take(table, request.cookies) is None:
        response.delete_cookie(cookie_name(table.id), path="/")  # a refused or dropped request
    return response


def _invited_seat(request: Request, table: GameTable) -> tuple[int, str]:
    """The seat and token of the invite link's query; the token is not checked."""
    seat_text, token = request.query_params.get("seat", ""), request.query_params.get("token", "")
    if not seat_text.isdigit() or len(seat_text) > 3 or not 0 <= int(seat_text) < len(
            table.seats):
        raise ApiError("this invitation is not valid: the link names no seat of this table",
                       "bad-token", 403)
    return int(seat_text), token


_USED = "this invitation is not valid or was already used: ask the table's creator for a new one"


@_page
async def join(request: Request) -> Response:
    """An invite link: a page where the friend chooses a name (its form posts to
    :func:`join_submit`); straight to the table for a browser already seated there."""
    table = await _table(request)
    hub = _hub(request)
    holder, fresh = _identity(request)
    if hub.seat_of(table, request.cookies) is not None or table.holder_seat(holder) is not None:
        return RedirectResponse(f"/tables/{table.id}", status_code=303)
    seat, token = _invited_seat(request, table)
    if not token_matches(token, table.seats[seat].invite_hash):
        raise ApiError(_USED, "bad-token", 403)
    creator = table.seats[table.creator_seat].name if table.creator_seat is not None else ""
    response = render("join.html", creator=creator, preset=table.preset,
                       players=len(table.seats), seat=seat + 1, table=table.id)
    _set_identity(response, hub.config, fresh)
    return response


@_page
async def join_submit(request: Request) -> Response:
    """The invite page's form (``name``): exchange the invite for a seat cookie, then
    redirect (303) to the table without the token."""
    _check_origin(request)
    table = await _table(request)
    hub = _hub(request)
    target = RedirectResponse(f"/tables/{table.id}", status_code=303)
    holder, fresh = _identity(request)
    if hub.seat_of(table, request.cookies) is not None or table.holder_seat(holder) is not None:
        return target  # one seat per person: the invite stays unused
    seat, token = _invited_seat(request, table)
    body = await read_body(request, 4096, "the form")
    if isinstance(body, Response):
        raise ApiError("the form is too large", "too-large", 413)
    form = urllib.parse.parse_qs(body.decode("utf-8", "replace"), max_num_fields=10)
    name = clean_name((form.get("name") or [""])[0], default_name("name.guest", n=seat + 1))
    async with table.lock:
        if not token_matches(token, table.seats[seat].invite_hash):
            raise ApiError(_USED, "bad-token", 403)
        fresh_token = new_token()
        await hub.claim(table, seat, hash_token(fresh_token), holder, name)
    table.wake()  # the last open seat claimed: the first deal
    _set_seat_cookie(target, hub.config, table.id, seat, fresh_token)
    _set_identity(target, hub.config, fresh)
    return target


@_api
async def record_json(request: Request) -> Response:
    """The record of the match; while a deal is in play, only the finished deals."""
    table = await _table(request)
    match = table.match
    if match.current is not None:
        match = dataclasses.replace(match, current=None, current_seats=(), current_dealer=-1)
    return JSONResponse(to_record(match, table.shuffles()), headers={
        "Content-Disposition": f'attachment; filename="polignac-{table.id}.json"'})


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


# ------------------------------------------------------------------ WebSocket


def _error(rule: str, message: str, seq: int | None = None) -> dict[str, Any]:
    frame: dict[str, Any] = {"type": "error", "rule": rule, "message": message}
    if seq is not None:
        frame["seq"] = seq
    return frame


async def table_socket(websocket: WebSocket) -> None:
    """One connection to a table: see the protocol in docs/server.md."""
    hub = _hub(websocket)
    config = hub.config
    table = await hub.find(websocket.path_params["table_id"])
    if table is None:
        await websocket.close(code=4404)
        return
    if not origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host"),
                          config.allowed_origins):
        await websocket.close(code=4403)
        return
    seat = hub.seat_of(table, websocket.cookies)
    if seat is None and websocket.cookies.get(cookie_name(table.id)) and \
            hub.pending_take(table, websocket.cookies) is None:
        await websocket.close(code=4401)  # a cookie, but not a valid one (nor a request)
        return
    client = websocket.client.host if websocket.client else "?"
    if not hub.sockets.acquire(client):
        await websocket.send_denial_response(JSONResponse(
            {"error": f"too many open connections from your address (at most "
                      f"{config.max_connections_per_client})", "rule": "too-many-connections"},
            status_code=429))
        return
    try:
        await _table_session(websocket, hub, table, seat)
    finally:
        hub.sockets.release(client)


async def _table_session(websocket: WebSocket, hub: Hub, table: GameTable,
                         seat: int | None) -> None:
    """The accepted connection of :func:`table_socket`, until it closes."""
    config = hub.config
    await websocket.accept()
    sub: Subscriber | None = None
    handler = asyncio.current_task()
    assert handler is not None
    receiving = False

    def drop() -> None:
        """A client that does not read: stop waiting for its frames (cancelled only
        while waiting for one, never in the middle of a table's operation; else the
        loop ends after the operation)."""
        if receiving:
            handler.cancel()

    out = Outbox(config.max_queued_frames, config.max_queued_bytes, drop)
    sender = asyncio.create_task(_sender(websocket, out))
    limiter = RateLimit(config.rate_per_second, config.rate_burst)
    refused = 0
    hello_by = asyncio.get_running_loop().time() + config.hello_timeout
    try:
        while not out.closing:
            receiving = True
            if sub is None:  # hello must come in time; pings do not extend it
                try:
                    message = await asyncio.wait_for(
                        websocket.receive(), hello_by - asyncio.get_running_loop().time())
                except TimeoutError:
                    receiving = False
                    out.put_nowait(_error("hello-timeout", f"send hello within "
                                                           f"{config.hello_timeout:g} seconds"))
                    break
            else:
                message = await websocket.receive()
            receiving = False
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                out.put_nowait(_error("bad-frame", "send JSON text frames"))
                continue
            if len(text) > config.max_frame or len(text.encode("utf-8", "replace")) > \
                    config.max_frame:
                out.put_nowait(_error("too-large", f"frames are at most {config.max_frame} "
                                                   "bytes"))
                out.put_nowait(None)
                break
            if not limiter.allow():
                refused += 1
                out.put_nowait(_error("rate-limit", "too many messages; slow down"))
                if refused > 100:
                    out.put_nowait(None)
                    break
                continue
            try:
                data = parse_json(text, "the frame")
            except JsonInputError as exc:
                out.put_nowait(_error(exc.rule, str(exc)))
                continue
            if not isinstance(data, dict):
                out.put_nowait(_error("bad-json", "a frame must be a JSON object"))
                continue
            kind = data.get("type")
            if kind == "hello":
                last = data.get("last_seq", 0)
                if last is None:
                    last = 0
                if not isinstance(last, int) or isinstance(last, bool):
                    out.put_nowait(_error("bad-field", "last_seq must be a number"))
                    continue
                first = sub is None
                if first and hub.tables.get(table.id) is not table:
                    out.put_nowait(None)  # it left memory meanwhile: reconnect to reload it
                    break
                if first:
                    sub = table.subscribe(seat, out)
                for frame in table.catch_up(seat, last):
                    out.put_nowait(frame)
                if first:
                    table.broadcast(table.presence_frame())  # a connection came
            elif kind == "act":
                if sub is None:
                    out.put_nowait(_error("hello-first", "send hello first"))
                    continue
                if seat is None:
                    out.put_nowait(_error("spectator", "spectators cannot act", table.seq))
                    continue
                action, seq = data.get("action"), data.get("seq")
                if not isinstance(action, str) or len(action) > 40:
                    out.put_nowait(_error("bad-field", "action must be the text of an action",
                                          table.seq))
                    continue
                if seq is not None and (not isinstance(seq, int) or isinstance(seq, bool)):
                    out.put_nowait(_error("bad-field", "seq must be a number", table.seq))
                    continue
                try:
                    await table.act(seat, action, seq)
                except ProtocolError as exc:
                    out.put_nowait(_error(exc.rule, str(exc), table.seq))
            elif kind == "cut":
                if sub is None:
                    out.put_nowait(_error("hello-first", "send hello first"))
                    continue
                if seat is None:
                    out.put_nowait(_error("spectator", "spectators cannot cut", table.seq))
                    continue
                try:
                    table.cut(seat, data.get("deal"), data.get("value"), data.get("commitment"))
                except ProtocolError as exc:
                    out.put_nowait(_error(exc.rule, str(exc), table.seq))
                    continue
                out.put_nowait({"type": "cut", "deal": data["deal"], "accepted": True})
            elif kind == "ping":
                out.put_nowait({"type": "pong"})
            else:
                out.put_nowait(_error("unknown-type",
                                      f"unknown message type {str(kind)[:40]!r}: "
                                      "expected hello, act, cut or ping"))
    except WebSocketDisconnect:
        pass
    except asyncio.CancelledError:
        if not out.overflowed:
            raise
        handler.uncancel()  # our own: return, and uvicorn closes the connection
    finally:
        if sub is not None:
            table.unsubscribe(sub)
        if out.overflowed:  # it does not read: drop what waits for it, do not wait for it
            sender.cancel()
        else:
            out.put_nowait(None)
            with contextlib.suppress(Exception):
                await sender


async def _sender(websocket: WebSocket, queue: Outbox) -> None:
    try:
        while (frame := await queue.get()) is not None:
            await websocket.send_text(frame if isinstance(frame, str)
                                      else json.dumps(frame, ensure_ascii=False))
        await websocket.close(code=queue.close_code)
    except Exception:  # the client went away
        return


# ------------------------------------------------------------------ the app


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
    hub = Hub(config, bots)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()

    app = Starlette(
        routes=[
            Route("/", lobby_page),
            Route("/favicon.ico", favicon),
            Route("/api/presets", presets),
            Route("/api/play-now", play_now, methods=["POST"]),
            Route("/api/tables", create_table, methods=["POST"]),
            Route("/api/tables", list_tables, methods=["GET"]),
            Route("/tables/{table_id}", table_page),
            Route("/tables/{table_id}/join", join, methods=["GET"]),
            Route("/tables/{table_id}/join", join_submit, methods=["POST"]),
            Route("/tables/{table_id}/invites", invites),
            Route("/tables/{table_id}/request", my_request),
            Route("/tables/{table_id}/record.json", record_json),
            Route("/tables/{table_id}/seats/{seat}/take", take_seat, methods=["POST"]),
            Route("/tables/{table_id}/seats/{seat}/approve", approve_take, methods=["POST"]),
            Route("/tables/{table_id}/seats/{seat}/refuse", refuse_take, methods=["POST"]),
            Route("/tables/{table_id}/rematch", rematch, methods=["POST"]),
            Route("/tables/{table_id}/start", start_now, methods=["POST"]),
            WebSocketRoute("/tables/{table_id}/ws", table_socket),
            # Other modules' routes: one line each, e.g. *scorepad_routes.routes(),
            *replay_routes.routes(),
            *analysis_routes.routes(),
            *hint_routes.routes(),
            *scorepad_routes.routes(),
            *health.routes(),
            Route("/api/learn", learn, methods=["POST"]),
            *rules_routes.routes(),
            *account_routes.routes(),
            *passkey_routes.routes(),
            *profile_routes.routes(),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
        exception_handlers={HTTPException: http_error},
    )
    app.state.hub = hub
    if hub.cluster is not None:  # a table another process owns: forwarded (cluster.py),
        hub.cluster.app = app    # once this process has checked the Host header
        hub.cluster.lister = lambda: _listed(hub)
        app.add_middleware(ClusterRouter, cluster=hub.cluster)
    app.add_middleware(HostCheck, allowed_hosts=config.allowed_hosts)
    app.add_middleware(SecurityHeaders)
    return app


def app_from_env() -> Starlette:
    """The app for the configuration in ``$POLIGNAC_SERVE_CONFIG`` (JSON, written by
    ``polignac serve --workers N``): uvicorn's factory in each worker process.

    Raises:
        KeyError: the variable is not set.
    """
    from .multiproc import log_to_stderr

    log_to_stderr()
    return create_app(ServerConfig.from_json(os.environ["POLIGNAC_SERVE_CONFIG"]))
