"""A table's routes other than its socket: its page, invites and joining, asking for a
bot's seat and answering, starting, the rematch, the record.

Routes::

    GET  /tables/{id}            table page
    GET  /tables/{id}/join       invite link: ?seat=N&token=T -> a page to choose a name
    POST /tables/{id}/join       that page's {"name"} (JSON) -> seat cookie, redirect
    GET  /tables/{id}/invites    the creator's unused invite links, again
    GET  /tables/{id}/request    this browser's waiting request for a seat, if any
    GET  /tables/{id}/record.json  the match record (finished deals only while playing)
    POST /tables/{id}/seats/{seat}/sit   take an open seat of a public table at once
    POST /tables/{id}/seats/{seat}/take  ask for a bot's seat (the creator answers)
    POST /tables/{id}/seats/{seat}/approve  the creator approves that request
    POST /tables/{id}/seats/{seat}/refuse   the creator refuses it
    POST /tables/{id}/start      the creator starts a waiting table; bots fill open seats
    POST /tables/{id}/rematch    a new table with the same settings and seats
"""

from __future__ import annotations

import asyncio
import dataclasses
import json

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from ...core import to_record
from ...i18n import default_name
from ..base.errors import ApiError, ProtocolError, html_errors
from ..base.httplimits import client_address
from ..base.inputs import ascii_int
from ..base.pages import render
from ..base.seating import identity_hash, read_identity, unseal
from ..base.security import cookie_name, hash_token, new_token, token_matches
from ..store import commitments
from ..tables import frames
from ..tables.hub import Hub, hub_of
from ..tables.table_blocks import check_seat
from ..tables.tables import GameTable
from .analysis_routes import stored_analyses
from .http import (
    STATIC,
    identity,
    json_body,
    seat_param,
    set_identity,
    set_seat_cookie,
    table_of,
)
from .invite_routes import open_seats
from .person_names import person_name


async def take_seat(request: Request) -> Response:
    """A person asks for a bot's seat: ``{"name"}`` -> 202 ``{"url", "seat", "queued":
    true}`` + cookie.  The request waits for the table creator's answer; approved, the
    seat is theirs at once between deals, else when the current deal ends.

    Bounded (``seat_requests.py``): one waiting request per browser, a few per
    address and per table, ``429 take-cooldown`` for a while after a refusal, ``429
    take-rate`` past the server-wide rate per address and per browser.
    """
    table = await table_of(request)
    hub = hub_of(request)
    data = await json_body(request)
    seat = seat_param(request, table)
    known = read_identity(request.cookies)
    if known is None:
        raise ApiError("your browser sent no identity cookie: open the table's page (with "
                       "cookies allowed) and ask again", "no-identity", 403)
    if table.private:
        raise ApiError("this table is private: only the people its creator invited sit "
                       "at it", "private-table", 403)
    holder = identity_hash(known)
    if hub.seat_of(table, request.cookies) is not None or \
            table.requests.holder_seat(holder) is not None:
        raise ApiError("you already have a seat at this table", "already-seated", 409)
    if hub.pending_take(table, request.cookies) is not None or \
            table.requests.asked_by(holder) is not None:
        raise ApiError("you already asked for a seat at this table", "already-asked", 409)
    address = client_address(request.scope)
    left = table.requests.cooldown_left(holder)
    if left > 0:
        raise ApiError(f"your last request here was refused; you may ask again in "
                       f"{int(left) + 1} s", "take-cooldown", 429,
                       {"Retry-After": str(int(left) + 1)})
    _take_rate(hub, address, holder)
    await hub.check_one_account(table, holder)
    name, account = await person_name(request, data.get("name"),
                                      default_name("name.player", n=seat + 1))
    await check_seat(hub, table, account)
    token = new_token()
    async with table.lock:
        try:
            await table.requests.request(seat, name, hash_token(token), holder, address,
                                         account)
        except ProtocolError as exc:
            status = 429 if exc.rule in ("too-many-requests", "take-cooldown") else 409
            raise ApiError(str(exc), exc.rule, status) from None
    response = JSONResponse({"url": f"/tables/{table.id}", "id": table.id, "seat": seat,
                             "queued": True, "approved": False}, status_code=202)
    set_seat_cookie(response, hub.config, table.id, seat, token)
    return response


async def sit(request: Request) -> Response:
    """A stranger takes an open seat of a public table (from the lobby): ``{"name"}`` ->
    ``{"url", "id", "seat"}`` + seat cookie.  An open seat of a public table is an
    invitation to anyone; a bot's seat is asked for instead (:func:`take_seat`).

    Raises:
        ApiError: 403 ``private-table``, 409 ``not-open`` (a bot's or someone's seat,
            or a finished match), 409 ``already-seated``, 409 ``one-account`` / 403
            ``play-ban`` at a rated table, 409 ``name-reserved`` (a guest's name like an
            account's), 403 ``blocked`` (an account seated there blocked this one), 429
            ``take-rate`` (nothing changes).
    """
    table = await table_of(request)
    hub = hub_of(request)
    data = await json_body(request)
    seat = seat_param(request, table)
    if table.private:
        raise ApiError("this table is private: only the people its creator invited sit "
                       "at it", "private-table", 403)
    holder, fresh = identity(request)
    if hub.seat_of(table, request.cookies) is not None or \
            table.requests.holder_seat(holder) is not None or \
            table.requests.asked_by(holder) is not None:
        raise ApiError("you already have a seat at this table", "already-seated", 409)
    if not _is_open(table, seat):
        raise ApiError(f"seat {seat + 1} is not open: someone sits there, or a bot (ask "
                       "for a bot's seat at the table instead)", "not-open", 409)
    address = client_address(request.scope)
    _take_rate(hub, address, holder)
    await hub.check_one_account(table, holder)
    name, account = await person_name(request, data.get("name"),
                                      default_name("name.guest", n=seat + 1))
    await check_seat(hub, table, account)
    token = new_token()
    async with table.lock:
        if not _is_open(table, seat):  # another stranger was first
            raise ApiError(f"seat {seat + 1} was just taken", "not-open", 409)
        await hub.claim(table, seat, hash_token(token), holder, name, account)
    table.wake()  # the last open seat taken: the first deal
    response = JSONResponse({"url": f"/tables/{table.id}", "id": table.id, "seat": seat})
    set_seat_cookie(response, hub.config, table.id, seat, token)
    set_identity(response, hub.config, fresh)
    return response


def _take_rate(hub: Hub, address: str, holder: str) -> None:
    """Count a request for a seat (asked or taken) against the server-wide rate.

    Raises:
        ApiError: 429 ``take-rate`` with ``Retry-After``.
    """
    if not hub.take_limit.allow(f"address:{address}", f"identity:{holder}"):
        raise ApiError(f"too many requests for a seat from you: at most "
                       f"{hub.config.take_burst} at once and {hub.config.take_per_minute:g} "
                       "a minute; try again later", "take-rate", 429,
                       {"Retry-After": str(hub.take_limit.retry_after())})


def _is_open(table: GameTable, seat: int) -> bool:
    """``seat`` is a person's seat nobody holds yet, in a match not over."""
    return seat in open_seats(table)


async def _answer(request: Request, approve: bool) -> Response:
    table = await table_of(request)
    hub = hub_of(request)
    seat = seat_param(request, table)
    me = hub.seat_of(table, request.cookies)
    if me is None or me != table.creator_seat:
        raise ApiError("only the table's creator answers requests for a seat", "not-creator",
                       403)
    async with table.lock:
        try:
            granted = await table.requests.answer(seat, approve)
        except ProtocolError as exc:
            raise ApiError(str(exc), exc.rule, 409) from None
    table.wake()
    return JSONResponse({"url": f"/tables/{table.id}", "id": table.id, "seat": seat,
                         "approved": approve, "granted": granted})


async def approve_take(request: Request) -> Response:
    """The creator approves the request for a bot's seat -> ``{"approved", "granted"}``
    (``granted``: the seat changed hands now, between deals; else at the deal's end)."""
    return await _answer(request, True)


async def refuse_take(request: Request) -> Response:
    """The creator refuses the request for a bot's seat (it is dropped)."""
    return await _answer(request, False)


async def invites(request: Request) -> Response:
    """The creator's unused invite links, again: ``{"invites": [{"seat", "url"}]}``.

    Invite tokens are stored sealed with the creator's seat token
    (``seating.seal``): only the creator's cookie opens them.
    """
    table = await table_of(request)
    held = hub_of(request).seat_and_token(table, request.cookies)
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


async def my_request(request: Request) -> Response:
    """This browser's waiting request for a seat here: ``{"seat": N | null}`` (so that a
    reloaded page still knows it asked)."""
    table = await table_of(request)
    seat = hub_of(request).pending_take(table, request.cookies)
    if seat is None:
        known = read_identity(request.cookies)
        seat = None if known is None else table.requests.asked_by(identity_hash(known))
    return JSONResponse({"seat": seat})


async def rematch(request: Request) -> Response:
    """A new table with the same settings and seats; the caller keeps their seat.

    The first call creates it (the match must be over); every seated person
    calls it to get their cookie for the new table.
    """
    old = await table_of(request)
    hub = hub_of(request)
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
        set_seat_cookie(response, hub.config, table.id, seat, fresh)
    return response


async def start_now(request: Request) -> Response:
    """The creator starts a table that waits for people: bots take the open seats.

    -> ``{"url", "id"}``; ``403 not-creator`` for anyone else, ``409
    not-waiting`` once the first deal is dealt or when no seat is open.
    """
    table = await table_of(request)
    hub = hub_of(request)
    seat = hub.seat_of(table, request.cookies)
    if seat is None or seat != table.creator_seat:
        raise ApiError("only the table's creator can start it", "not-creator", 403)
    async with table.lock:
        try:
            await table.requests.start_now(hub.config.fill_level)
        except ProtocolError as exc:
            raise ApiError(str(exc), exc.rule, 409) from None
    table.wake()
    return JSONResponse({"url": f"/tables/{table.id}", "id": table.id})



@html_errors
async def table_page(request: Request) -> Response:
    """The table page (the script connects to the WebSocket)."""
    table = await table_of(request)
    hub = hub_of(request)
    response = FileResponse(STATIC / "table.html")
    set_identity(response, hub.config, identity(request)[1])
    if request.cookies.get(cookie_name(table.id)) and hub.seat_of(table, request.cookies) is None \
            and hub.pending_take(table, request.cookies) is None:
        response.delete_cookie(cookie_name(table.id), path="/")  # a refused or dropped request
    return response


def _invited_seat(request: Request, table: GameTable) -> tuple[int, str]:
    """The seat and token of the invite link's query; the token is not checked."""
    token = request.query_params.get("token", "")
    seat = ascii_int(request.query_params.get("seat"), 0, len(table.seats) - 1)
    if seat is None:
        raise ApiError("this invitation is not valid: the link names no seat of this table",
                       "bad-token", 403)
    return seat, token


_USED = "this invitation is not valid or was already used: ask the table's creator for a new one"


@html_errors
async def join(request: Request) -> Response:
    """An invite link: a page where the friend chooses a name (its form posts to
    :func:`join_submit`); straight to the table for a browser already seated there."""
    table = await table_of(request)
    hub = hub_of(request)
    holder, fresh = identity(request)
    if hub.seat_of(table, request.cookies) is not None or \
            table.requests.holder_seat(holder) is not None:
        return RedirectResponse(f"/tables/{table.id}", status_code=303)
    seat, token = _invited_seat(request, table)
    if not token_matches(token, table.seats[seat].invite_hash):
        raise ApiError(_USED, "bad-token", 403)
    creator = table.seats[table.creator_seat].name if table.creator_seat is not None else ""
    response = render("join.html", creator=creator, preset=table.preset,
                       players=len(table.seats), seat=seat + 1, table=table.id, you="")
    set_identity(response, hub.config, fresh)
    return response


@html_errors
async def join_submit(request: Request) -> Response:
    """The invite page's ``{"name"}`` (JSON, sent by its script): exchange the invite
    for a seat cookie, then redirect (303) to the table without the token."""
    table = await table_of(request)
    hub = hub_of(request)
    target = RedirectResponse(f"/tables/{table.id}", status_code=303)
    holder, fresh = identity(request)
    if hub.seat_of(table, request.cookies) is not None or \
            table.requests.holder_seat(holder) is not None:
        return target  # one seat per person: the invite stays unused
    seat, token = _invited_seat(request, table)
    data = await json_body(request)
    name, account = await person_name(request, data.get("name"),
                                      default_name("name.guest", n=seat + 1))
    await check_seat(hub, table, account)
    await hub.check_one_account(table, holder)
    async with table.lock:
        if not token_matches(token, table.seats[seat].invite_hash):
            raise ApiError(_USED, "bad-token", 403)
        fresh_token = new_token()
        await hub.claim(table, seat, hash_token(fresh_token), holder, name, account)
    table.wake()  # the last open seat claimed: the first deal
    set_seat_cookie(target, hub.config, table.id, seat, fresh_token)
    set_identity(target, hub.config, fresh)
    return target


async def record_json(request: Request) -> Response:
    """The record of the match; while a deal is in play, only the finished deals; a
    deal analysed at this table carries its stored ``analysis``."""
    table = await table_of(request)
    match = table.match
    if match.current is not None:
        match = dataclasses.replace(match, current=None, current_seats=(), current_dealer=-1)
    store = hub_of(request).store
    refused = {} if store is None else \
        await asyncio.to_thread(commitments.refusals_of, store.engine, table.id)
    record = to_record(match, frames.shuffles(table, refused))
    analyses = await stored_analyses(request.app.state.hub, table.id, len(match.results))
    for number, data in analyses.items():
        record["deals"][number - 1]["analysis"] = json.loads(data)
    return JSONResponse(record, headers={
        "Content-Disposition": f'attachment; filename="polignac-{table.id}.json"'})



def routes() -> list[BaseRoute]:
    """A table's routes (its socket: ``session.py``)."""
    return [
        Route("/tables/{table_id}", table_page),
        Route("/tables/{table_id}/join", join, methods=["GET"]),
        Route("/tables/{table_id}/join", join_submit, methods=["POST"]),
        Route("/tables/{table_id}/invites", invites),
        Route("/tables/{table_id}/request", my_request),
        Route("/tables/{table_id}/record.json", record_json),
        Route("/tables/{table_id}/seats/{seat}/sit", sit, methods=["POST"]),
        Route("/tables/{table_id}/seats/{seat}/take", take_seat, methods=["POST"]),
        Route("/tables/{table_id}/seats/{seat}/approve", approve_take, methods=["POST"]),
        Route("/tables/{table_id}/seats/{seat}/refuse", refuse_take, methods=["POST"]),
        Route("/tables/{table_id}/rematch", rematch, methods=["POST"]),
        Route("/tables/{table_id}/start", start_now, methods=["POST"]),
    ]
