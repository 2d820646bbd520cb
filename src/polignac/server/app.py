"""The Starlette application: pages, the JSON API, the table WebSocket.

Routes::

    GET  /                       lobby
    GET  /tables/{id}            table page
    GET  /tables/{id}/join       invite link: ?seat=N&token=T -> seat cookie, redirect
    GET  /tables/{id}/record.json  the match record (finished deals only while playing)
    GET  /api/presets            presets, bot levels, house rules for the lobby
    POST /api/play-now           you and three bots, preset polignac
    POST /api/tables             create a table from a JSON description
    GET  /api/tables             every table for the lobby: preset, status, who is seated
    POST /tables/{id}/seats/{seat}/take  take a bot's seat (now, or at the next deal)
    POST /tables/{id}/start      the creator starts a waiting table; bots fill open seats
    POST /tables/{id}/rematch    a new table with the same settings and seats
    WS   /tables/{id}/ws         the table protocol (docs/server.md); no seat cookie: spectator
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import re
import secrets
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..bots.registry import make_bot
from ..core import PRESETS, PolignacError, get_rules, to_record
from ..core.rules import DECLARATIONS
from . import replay_routes, scorepad_routes
from .config import ServerConfig
from .db import (
    SeatRow,
    Store,
    TableRow,
    insert_table,
    make_engine,
    migrate,
    set_rematch,
    update_seat,
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
from .tables import Frame, GameTable, ProtocolError, Subscriber
from .writer import Writer

log = logging.getLogger("polignac.server")
STATIC = Path(__file__).parent / "static"
HOUSE_RULES: dict[str, dict[str, Any]] = {
    "threshold": {"label": "Match ends at (points)", "type": "int", "min": 1, "max": 500},
    "direction": {"label": "Direction of play", "type": "choice",
                  "choices": ["clockwise", "counter-clockwise"]},
    "declaration": {"label": "Declarations", "type": "choice", "choices": list(DECLARATIONS)},
    "contract_points": {"label": "Contract penalty (points)", "type": "int", "min": 0,
                        "max": 100},
}
_NAME_OK = re.compile(r"[^\w \-'.]", re.UNICODE)


class ApiError(Exception):
    """A bad request to the JSON API: answered with ``status`` and ``{"error", "rule"}``."""

    def __init__(self, message: str, rule: str, status: int = 400) -> None:
        super().__init__(message)
        self.rule = rule
        self.status = status


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

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.tables: dict[str, GameTable] = {}
        self.store: Store | None = None
        self.writer: Writer | None = None

    async def start(self) -> None:
        """Open the database, migrate it, rebuild every table by replaying its events.

        Raises:
            sqlalchemy.exc.SQLAlchemyError: the database cannot be opened or migrated.
        """
        engine = make_engine(self.config.url())
        await asyncio.to_thread(migrate, engine)
        self.store = Store(engine)
        self.writer = Writer(self.store)
        self.writer.start()
        for row in await asyncio.to_thread(self.store.load_all):
            try:
                table = GameTable(row, self.writer, self.config)
            except PolignacError:
                log.exception("table %s does not replay; skipped", row.id)
                continue
            self.tables[row.id] = table
            table.wake()
            for s in table.seats:  # nobody is connected yet: the grace period starts now
                table.start_grace(s.seat)

    async def stop(self) -> None:
        """Stop every table's driver, write what is waiting and close the database."""
        for table in self.tables.values():
            await table.stop()
        if self.writer is not None:
            await self.writer.stop()
        if self.store is not None:
            self.store.engine.dispose()

    async def create(self, preset: str, players: int | None, seats: list[dict[str, Any]],
                     overrides: dict[str, Any], name: str) -> tuple[GameTable, str, dict[int, str]]:
        """Create a table; return it, the creator's seat token and the invite tokens.

        Raises:
            ApiError: unknown preset, bad player count, bad seats or house rules.
        """
        assert self.store is not None
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
        invites: dict[int, str] = {}
        for i, spec in enumerate(seats):
            kind = spec.get("kind")
            if kind == "you":
                rows.append(SeatRow(i, "human", None, name, hash_token(creator), None))
            elif kind == "open":
                invite = new_token()
                invites[i] = invite
                rows.append(SeatRow(i, "human", None, f"Guest {i + 1}", None,
                                    hash_token(invite)))
            elif kind == "bot":
                level = spec.get("level", "easy")
                if not isinstance(level, str) or level not in self.config.bot_levels:
                    raise ApiError(f"bot level {level!r}: choose one of "
                                   f"{', '.join(self.config.bot_levels)}", "bad-seats")
                make_bot(level)
                rows.append(SeatRow(i, "bot", level, f"{level.capitalize()} bot {i + 1}",
                                    None, None))
            else:
                raise ApiError(f"seat {i}: kind must be you, bot or open", "bad-seats")
        you = [s.get("kind") for s in seats].index("you")
        row = TableRow(secrets.token_urlsafe(9), preset, rules.overrides_from(PRESETS[preset]),
                       n, secrets.randbelow(n), rows, [], creator_seat=you)
        return await self.open_table(row), creator, invites

    async def open_table(self, row: TableRow) -> GameTable:
        """Store a new table, deal its first hands (unless it waits for people to claim
        its open seats, or a cut window is configured: then the driver publishes the
        commitment and deals) and start its driver.

        Raises:
            sqlalchemy.exc.SQLAlchemyError: the table cannot be stored.
        """
        assert self.writer is not None
        await self.writer.run(lambda conn: insert_table(conn, row))
        table = GameTable(row, self.writer, self.config)
        self.tables[row.id] = table
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
        rows: list[SeatRow] = []
        invites: dict[int, str] = {}
        for s in old.seats:
            if s.kind == "bot":
                rows.append(SeatRow(s.seat, "bot", s.bot_level, s.name, None, None))
            elif s.token_hash is not None:
                rows.append(SeatRow(s.seat, "human", None, s.name, None, s.token_hash))
            else:
                invites[s.seat] = new_token()
                rows.append(SeatRow(s.seat, "human", None, s.name, None,
                                    hash_token(invites[s.seat])))
        n = len(old.seats)
        row = TableRow(secrets.token_urlsafe(9), old.preset, dict(old.overrides), n,
                       secrets.randbelow(n), rows, [], creator_seat=seat)
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
            await self.claim(table, seat, hash_token(fresh))
        table.wake()  # the last person to come back starts the first deal
        return fresh

    async def claim(self, table: GameTable, seat: int, token_hash: str) -> None:
        """Give person's ``seat`` its token (invite used up); call with ``table.lock`` held.

        Raises:
            sqlalchemy.exc.SQLAlchemyError, WriterClosedError: not stored.
        """
        assert self.writer is not None
        await self.writer.run(lambda conn: update_seat(conn, table.id, seat,
                                                       token_hash=token_hash,
                                                       invite_hash=None))
        row = table.seats[seat]
        row.token_hash, row.invite_hash = token_hash, None
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


def _check_origin(request: Request) -> None:
    if not origin_allowed(request.headers.get("origin"), request.headers.get("host"),
                          _hub(request).config.allowed_origins):
        raise ApiError("cross-site request refused", "bad-origin", 403)


async def _json_body(request: Request) -> dict[str, Any]:
    body = await request.body()
    if len(body) > 16 * 1024:
        raise ApiError("request too large", "too-large", 413)
    if not body:
        return {}
    try:
        data = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise ApiError("the body is not JSON", "bad-json") from None
    if not isinstance(data, dict):
        raise ApiError("the body must be a JSON object", "bad-json")
    return data


def _api(handler: Any) -> Any:
    async def wrapped(request: Request) -> Response:
        try:
            response: Response = await handler(request)
            return response
        except ApiError as exc:
            return JSONResponse({"error": str(exc), "rule": exc.rule}, status_code=exc.status)
    return wrapped


@_api
async def play_now(request: Request) -> Response:
    """You and three easy bots at a new table of ``polignac`` (or the preset given)."""
    _check_origin(request)
    data = await _json_body(request)
    preset = data.get("preset", "polignac")
    if not isinstance(preset, str):
        raise ApiError("preset must be text", "bad-field")
    rules = PRESETS.get(preset)
    n = rules.default_players if rules else 4
    seats = [{"kind": "you"}] + [{"kind": "bot", "level": "easy"}] * (n - 1)
    hub = _hub(request)
    table, token, _ = await hub.create(preset, n, seats, {}, clean_name(data.get("name"), "You"))
    response = JSONResponse({"url": f"/tables/{table.id}", "id": table.id})
    _set_seat_cookie(response, hub.config, table.id, 0, token)
    return response


@_api
async def create_table(request: Request) -> Response:
    """Create a table from ``{preset, players, seats: [{kind, level}], overrides, name}``."""
    _check_origin(request)
    data = await _json_body(request)
    preset, players = data.get("preset", "polignac"), data.get("players")
    seats, overrides = data.get("seats"), data.get("overrides") or {}
    if not isinstance(preset, str):
        raise ApiError("preset must be text", "bad-field")
    if players is not None and (not isinstance(players, int) or isinstance(players, bool)):
        raise ApiError("players must be a number", "bad-field")
    if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
        raise ApiError("seats must be a list of objects", "bad-field")
    if not isinstance(overrides, dict):
        raise ApiError("overrides must be an object", "bad-field")
    hub = _hub(request)
    table, token, invites = await hub.create(preset, players, seats, overrides,
                                             clean_name(data.get("name"), "You"))
    you = next(i for i, s in enumerate(seats) if s.get("kind") == "you")
    response = JSONResponse({
        "url": f"/tables/{table.id}", "id": table.id,
        "invites": [{"seat": s, "url": f"/tables/{table.id}/join?seat={s}&token={t}"}
                    for s, t in invites.items()],
    })
    _set_seat_cookie(response, hub.config, table.id, you, token)
    return response


async def list_tables(request: Request) -> Response:
    """Every table, newest first (at most 500): preset, status, who is seated."""
    hub = _hub(request)
    tables = sorted(hub.tables.values(), key=lambda t: t.created_at, reverse=True)[:500]
    return JSONResponse({"tables": [
        {"id": t.id, "url": f"/tables/{t.id}", "preset": t.preset, "overrides": t.overrides,
         "players": len(t.seats), "status": t.status(), "deal_number": t.match.deal_number,
         "created_at": t.created_at, "rematch": t.rematch_id,
         "open_seats": [p["seat"] for p in t.presence() if p["open"]],
         "seats": [{"seat": s.seat, "name": s.name, "kind": s.kind, "level": s.bot_level,
                    "open": p["open"], "connected": p["connected"]}
                   for s, p in zip(t.seats, t.presence(), strict=True)]}
        for t in tables]})


@_api
async def take_seat(request: Request) -> Response:
    """A person takes a bot's seat: ``{"name"}`` -> ``{"url", "seat", "queued"}`` + cookie.

    Between deals the seat is theirs at once (200); during a deal the request
    is queued (202, ``queued: true``) and granted when the deal ends.
    """
    _check_origin(request)
    table = _table(request)
    hub = _hub(request)
    data = await _json_body(request)
    seat_text = request.path_params["seat"]
    if not seat_text.isdigit() or not 0 <= int(seat_text) < len(table.seats):
        raise ApiError("no such seat", "bad-seat", 404)
    seat = int(seat_text)
    if hub.seat_of(table, request.cookies) is not None:
        raise ApiError("you already have a seat at this table", "already-seated", 409)
    if hub.pending_take(table, request.cookies) is not None:
        raise ApiError("you already asked for a seat at this table", "already-asked", 409)
    name = clean_name(data.get("name"), f"Player {seat + 1}")
    token = new_token()
    async with table.lock:
        try:
            granted = await table.request_take(seat, name, hash_token(token))
        except ProtocolError as exc:
            raise ApiError(str(exc), exc.rule, 409) from None
    table.wake()
    response = JSONResponse({"url": f"/tables/{table.id}", "id": table.id, "seat": seat,
                             "queued": not granted}, status_code=200 if granted else 202)
    _set_seat_cookie(response, hub.config, table.id, seat, token)
    return response


@_api
async def rematch(request: Request) -> Response:
    """A new table with the same settings and seats; the caller keeps their seat.

    The first call creates it (the match must be over); every seated person
    calls it to get their cookie for the new table.
    """
    _check_origin(request)
    old = _table(request)
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
    table = _table(request)
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
                     "direction": r.direction, "contract_points": r.contract_points}
                    for r in PRESETS.values()],
        "levels": list(_hub(request).config.bot_levels),
        "house_rules": HOUSE_RULES,
    })


def _table(request: Request) -> GameTable:
    table = _hub(request).tables.get(request.path_params["table_id"])
    if table is None:
        raise ApiError("no such table", "no-table", 404)
    return table


async def lobby_page(request: Request) -> Response:
    """The lobby."""
    return FileResponse(STATIC / "lobby.html")


@_api
async def table_page(request: Request) -> Response:
    """The table page (the script connects to the WebSocket)."""
    _table(request)
    return FileResponse(STATIC / "table.html")


@_api
async def join(request: Request) -> Response:
    """Exchange an invite token for a seat cookie, then redirect to the table without it."""
    table = _table(request)
    hub = _hub(request)
    target = RedirectResponse(f"/tables/{table.id}", status_code=303)
    if hub.seat_of(table, request.cookies) is not None:
        return target
    seat_text, token = request.query_params.get("seat", ""), request.query_params.get("token", "")
    if not seat_text.isdigit() or not 0 <= int(seat_text) < len(table.seats):
        raise ApiError("this invitation is not valid", "bad-token", 403)
    seat = int(seat_text)
    async with table.lock:
        row = table.seats[seat]
        if not token_matches(token, row.invite_hash):
            raise ApiError("this invitation is not valid or was already used", "bad-token", 403)
        fresh = new_token()
        await hub.claim(table, seat, hash_token(fresh))
    table.wake()  # the last open seat claimed: the first deal
    _set_seat_cookie(target, hub.config, table.id, seat, fresh)
    return target


@_api
async def record_json(request: Request) -> Response:
    """The record of the match; while a deal is in play, only the finished deals."""
    table = _table(request)
    match = table.match
    if match.current is not None:
        match = dataclasses.replace(match, current=None, current_seats=(), current_dealer=-1)
    return JSONResponse(to_record(match, table.shuffles()), headers={
        "Content-Disposition": f'attachment; filename="polignac-{table.id}.json"'})


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
    table = hub.tables.get(websocket.path_params["table_id"])
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
    await websocket.accept()
    sub: Subscriber | None = None
    out: asyncio.Queue[Frame] = asyncio.Queue()
    sender = asyncio.create_task(_sender(websocket, out))
    limiter = RateLimit(config.rate_per_second, config.rate_burst)
    refused = 0
    try:
        while True:
            message = await websocket.receive()
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
                data = json.loads(text)
            except ValueError:
                out.put_nowait(_error("bad-json", "the frame is not JSON"))
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
    finally:
        if sub is not None:
            table.unsubscribe(sub)
        out.put_nowait(None)
        with contextlib.suppress(Exception):
            await sender


async def _sender(websocket: WebSocket, queue: asyncio.Queue[Frame]) -> None:
    try:
        while (frame := await queue.get()) is not None:
            await websocket.send_text(frame if isinstance(frame, str)
                                      else json.dumps(frame, ensure_ascii=False))
        await websocket.close(code=1000)
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


def create_app(config: ServerConfig | None = None) -> Starlette:
    """Build the app; the database is opened, migrated and replayed at startup."""
    config = config or ServerConfig()
    hub = Hub(config)

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
            Route("/api/presets", presets),
            Route("/api/play-now", play_now, methods=["POST"]),
            Route("/api/tables", create_table, methods=["POST"]),
            Route("/api/tables", list_tables, methods=["GET"]),
            Route("/tables/{table_id}", table_page),
            Route("/tables/{table_id}/join", join),
            Route("/tables/{table_id}/record.json", record_json),
            Route("/tables/{table_id}/seats/{seat}/take", take_seat, methods=["POST"]),
            Route("/tables/{table_id}/rematch", rematch, methods=["POST"]),
            Route("/tables/{table_id}/start", start_now, methods=["POST"]),
            WebSocketRoute("/tables/{table_id}/ws", table_socket),
            # Other modules' routes: one line each, e.g. *scorepad_routes.routes(),
            *replay_routes.routes(),
            *scorepad_routes.routes(),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.hub = hub
    app.add_middleware(SecurityHeaders)
    return app
