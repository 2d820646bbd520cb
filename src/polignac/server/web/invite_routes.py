"""Invitations to a table between accounts (``players/invites.py``; docs/events.md,
"Blocks and invitations").

    POST /tables/{id}/invite            seated at the table (this browser's seat, or the
                                        account's), {"name"} -> {"invited",
                                        "expires_at"}; the invitee is told (Web Push)
    GET  /api/invites                   signed in -> {"invites": [...]}, newest first
    GET  /api/invites/tables            signed in -> {"tables": [...]}: the tables the
                                        account sits at with an open seat
    POST /api/invites/decline           signed in, {"id"} -> {"declined": bool}
    GET  /tables/{id}/invited/{invite}  the invitee's page to take the seat (join.html)
    POST /tables/{id}/invited/{invite}  take the table's first open seat -> 303 the table

The invitation's route is under the table's path so that, with several processes, the
cluster's router sends it to the table's owner (who knows the seats); the invitations
themselves are rows of the database, read by any process.
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from ..base.errors import ApiError, html_errors
from ..base.pages import render
from ..base.security import hash_token, new_token
from ..players import invites
from ..players.accounts import Account
from ..players.push import Notice
from ..store.db import transact, transact_once_more
from ..tables.hub import hub_of
from ..tables.table_blocks import check_seat
from ..tables.tables import GameTable
from .account_routes import _required, json_body, service, signed_in
from .http import identity, set_identity, set_seat_cookie, table_of

INVITES_PER_MINUTE = 10
"""Invitations an account may send a minute (after a burst of as many)."""
NAME_MAX = 32
"""Characters of a name at most."""


def open_seats(table: GameTable) -> list[int]:
    """The seats of ``table`` a person may take now: a person's seat nobody holds, in a
    match not over (``seat_routes.py``'s rule)."""
    if table.match.finished:
        return []
    return [s.seat for s in table.seats if s.kind == "human" and s.token_hash is None]


def _limit(request: Request) -> Any:
    """The limit on invitations per account (shared by every process)."""
    state = request.app.state
    found = getattr(state, "invite_limit", None)
    if found is None:
        found = state.invite_limit = state.limits.limit(
            "invite", per_minute=INVITES_PER_MINUTE, burst=INVITES_PER_MINUTE)
    return found


async def invite(request: Request) -> Response:
    """Invite the account ``name`` to this table's open seat.

    Raises:
        ApiError: 401 ``signed-out``, 404 ``no-table``, 403 ``not-seated`` (this
            browser holds no seat here), 409 ``no-open-seat``, 400 ``bad-field``, 404
            ``no-player``, 400 ``invite-self``, 409 ``invitee-seated`` (the invitee sits
            here), 409 ``you-blocked``, 429 ``invite-rate``: nothing stored or sent.
    """
    account = await _required(request)
    table = await table_of(request)
    hub = hub_of(request)
    data = await json_body(request)
    name = data.get("name")
    if not isinstance(name, str) or not 0 < len(name) <= NAME_MAX:
        raise ApiError(f"name: the player's username, at most {NAME_MAX} characters",
                       "bad-field")
    if hub.seat_of(table, request.cookies) is None and not any(
            s.account and s.account.lower() == account.username.lower() for s in table.seats):
        raise ApiError("only a player seated at this table invites to it", "not-seated", 403)
    if not open_seats(table):
        raise ApiError("this table has no open seat to invite to", "no-open-seat", 409)
    if name.lower() != account.username.lower() and any(  # oneself: invite-self below
            s.account and s.account.lower() == name.lower() for s in table.seats):
        raise ApiError(f"{name} already sits at this table", "invitee-seated", 409)
    limit = _limit(request)
    if not await limit.allow(f"account:{account.id}"):
        raise ApiError(f"at most {INVITES_PER_MINUTE} invitations a minute: wait a moment",
                       "invite-rate", 429, {"Retry-After": str(limit.retry_after())})
    assert hub.store is not None
    sent = await transact_once_more(
        hub.store.engine, hub.clock,
        lambda conn, now: invites.create(conn, now, account.id, name, table.id))
    if sent.invite_id is not None and hub.push is not None:
        hub.push.notify_account(sent.invitee, Notice(
            "invite", table.id, table.preset, hub.clock.time(),
            invites.join_url(table.id, sent.invite_id), account.username))
    return JSONResponse({"invited": sent.username, "expires_at": sent.expires_at})


async def mine(request: Request) -> Response:
    """The signed-in account's invitations, newest first (none for a guest)."""
    hub = hub_of(request)
    account = await signed_in(request)
    if account is None:
        return JSONResponse({"invites": [], "now": hub.clock.time()})
    engine = service(request).store.engine
    now = hub.clock.time()

    def read() -> list[dict[str, Any]]:
        with engine.connect() as conn:
            return invites.pending_for(conn, account.id, now)

    return JSONResponse({"invites": await asyncio.to_thread(read), "now": now})


async def tables(request: Request) -> Response:
    """The tables the signed-in account sits at with an open seat (none for a guest)."""
    account = await signed_in(request)
    if account is None:
        return JSONResponse({"tables": []})
    engine = service(request).store.engine

    def read() -> list[dict[str, Any]]:
        with engine.connect() as conn:
            return invites.tables_of(conn, account.id)

    return JSONResponse({"tables": await asyncio.to_thread(read)})


async def decline(request: Request) -> Response:
    """Decline (delete) one of the account's invitations: ``{"id"}``.

    Raises:
        ApiError: 401 ``signed-out``, 400 ``bad-field``.
    """
    account = await _required(request)
    data = await json_body(request)
    invite_id = data.get("id")
    if not isinstance(invite_id, str) or not 0 < len(invite_id) <= invites.ID_CHARS:
        raise ApiError("id: an invitation's id", "bad-field")
    hub = hub_of(request)
    engine = service(request).store.engine
    gone = await transact(engine, hub.clock,
                          lambda conn, _now: invites.remove(conn, invite_id, account.id))
    return JSONResponse({"declined": gone})


_GONE = "this invitation has expired or was declined, or is not yours: ask for a new one"


async def _invitation(request: Request, table: GameTable, account: Account) -> Any:
    """The request's invitation to ``table`` for ``account``.

    Raises:
        ApiError: 403 ``bad-invite`` (unknown, expired, another's).
    """
    invite_id = request.path_params["invite_id"]
    hub = hub_of(request)
    if len(invite_id) > invites.ID_CHARS:
        raise ApiError(_GONE, "bad-invite", 403)
    engine = service(request).store.engine
    now = hub.clock.time()

    def read() -> Any:
        with engine.connect() as conn:
            return invites.valid(conn, invite_id, account.id, table.id, now)

    row = await asyncio.to_thread(read)
    if row is None:
        raise ApiError(_GONE, "bad-invite", 403)
    return row


@html_errors
async def invited_page(request: Request) -> Response:
    """The invitee's page: who invites, the game, the seat they will take."""
    account = await _required(request)
    table = await table_of(request)
    hub = hub_of(request)
    _holder, fresh = identity(request)
    if hub.seat_of(table, request.cookies) is not None:
        return RedirectResponse(f"/tables/{table.id}", status_code=303)
    row = await _invitation(request, table, account)
    seats = open_seats(table)
    if not seats:
        raise ApiError("the table has no open seat any more", "no-open-seat", 409)
    response = render("join.html", creator=row.username, preset=table.preset,
                      players=len(table.seats), seat=seats[0] + 1, table=table.id,
                      you=account.username)
    set_identity(response, hub.config, fresh)
    return response


@html_errors
async def invited_take(request: Request) -> Response:
    """Take the table's first open seat with the invitation; it is spent.

    Raises:
        ApiError: 401 ``signed-out``, 403 ``bad-invite``, 409 ``no-open-seat``, 403
            ``blocked`` (someone seated blocked the invitee), 409 ``one-account``.
    """
    account = await _required(request)
    table = await table_of(request)
    hub = hub_of(request)
    target = RedirectResponse(f"/tables/{table.id}", status_code=303)
    holder, fresh = identity(request)
    if hub.seat_of(table, request.cookies) is not None or \
            table.requests.holder_seat(holder) is not None or \
            any(s.account and s.account.lower() == account.username.lower()
                for s in table.seats):
        return target  # one seat a person: the invitation stays unused
    row = await _invitation(request, table, account)
    await check_seat(hub, table, account.username)
    await hub.check_one_account(table, holder)
    token = new_token()
    async with table.lock:
        seats = open_seats(table)
        if not seats:
            raise ApiError("the table has no open seat any more", "no-open-seat", 409)
        await hub.claim(table, seats[0], hash_token(token), holder, account.username,
                        account.username)
    table.wake()  # the last open seat taken: the first deal
    engine = service(request).store.engine
    await transact(engine, hub.clock, lambda conn, _now: invites.remove(conn, row.id,
                                                                        account.id))
    set_seat_cookie(target, hub.config, table.id, seats[0], token)
    set_identity(target, hub.config, fresh)
    return target


def routes() -> list[Route]:
    """The invitation routes."""
    return [
        Route("/tables/{table_id}/invite", invite, methods=["POST"]),
        Route("/api/invites", mine),
        Route("/api/invites/tables", tables),
        Route("/api/invites/decline", decline, methods=["POST"]),
        Route("/tables/{table_id}/invited/{invite_id}", invited_page, methods=["GET"]),
        Route("/tables/{table_id}/invited/{invite_id}", invited_take, methods=["POST"]),
    ]
