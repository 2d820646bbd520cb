"""Account routes: sign-up, sign-in, sessions, recovery, export and deletion, and the
account page (docs/server.md, "Accounts and sessions").

    GET  /account                    the account page (sign up, sign in, sessions...)
    GET  /api/account                who is signed in: {"signed_in", "username", ...}
    POST /api/account/signup         {"username", "password"} -> recovery codes, session
    POST /api/account/signin         {"username", "password"} -> a new session
    POST /api/account/signout        ends this browser's session
    POST /api/account/recover        {"username", "code", "password"} -> a new session
    GET  /api/account/sessions       the account's live sessions
    POST /api/account/sessions/end   {"id": SESSION_ID} or {"all": true}
    GET  /api/account/export         the account's data as JSON (records and ratings)
    POST /api/account/password       {"password", "new_password"}: other sessions end
    POST /api/account/delete         {"password"}: the account is deleted

Every POST is refused unless it is JSON (``Content-Type: application/json``, which a
cross-site form cannot send) and its ``Origin``, when sent, is the site's own: the
two CSRF guards, checked for every route of the app before it runs
(``requests.py:BodyPolicy``).  Passwords are hashed with Argon2id in a bounded line of
threads of their own, shared fairly by client networks (``players/hashing.py``), never
on the event loop, and never logged.
"""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from ..base.agents import describe_all
from ..base.httplimits import client_address, client_network
from ..base.seating import (
    IDENTITY_COOKIE,
    SESSION_COOKIE,
    identity_hash,
    new_identity,
    read_identity,
    session_hash,
)
from ..base.security import hash_token, new_token
from ..players import accounts, devices
from ..players.accounts import Account, AccountError, AccountStore
from ..players.hashing import HashQueue
from ..players.profiles import export_data
from ..players.signin_limits import SigninLimits
from .http import json_body as http_json_body

_SESSION_ID = re.compile(r"[0-9a-f]{16}")
_BAD_CREDENTIALS = "wrong username or password"


class Service:
    """The account routes' state in one web process: the store, the hashing line
    (``hashing.py``), the guessing limits (``signin_limits.py``) and the device
    cookies' key."""

    def __init__(self, request: HTTPConnection) -> None:
        hub = request.app.state.hub
        assert hub.store is not None
        self.config = hub.config
        self.store = AccountStore(hub.store.engine)
        self.hashing = HashQueue(clock=hub.config.clock)
        self.guessing = SigninLimits(request.app.state.limits)  # shared by every process
        self._device_key: bytes | None = None

    async def hashed(self, request: Request, fn: Any, *args: Any) -> Any:
        """Run a slow hashing function in the hashing line, in the turn of the
        request's client network.

        Raises:
            HashingBusy: 429 ``hashing-busy``: that network has a hash in the line, or
                the line is full (``hashing.py``).
        """
        return await self.hashing.run(_network(request), fn, *args)

    def hash_first(self, request: Request) -> None:
        """Refuse at once a request whose network has a hash in the line already,
        before any other work (a flood from one network costs nothing more).

        Raises:
            HashingBusy: 429 ``hashing-busy``.
        """
        self.hashing.check(_network(request))

    async def db(self, fn: Any, *args: Any) -> Any:
        """Run a blocking store method in a thread."""
        return await asyncio.to_thread(fn, *args)

    async def device_key(self) -> bytes:
        """The site's key for device cookies (read from the database once)."""
        if self._device_key is None:
            self._device_key = await self.db(devices.device_key, self.store.engine)
        return self._device_key


def _network(request: Request) -> str:
    """The request's client network (``httplimits.py:client_network``)."""
    return client_network(client_address(request.scope))


def service(request: HTTPConnection) -> Service:
    """This app's :class:`Service` (made on first use)."""
    state = request.app.state
    found: Service | None = getattr(state, "accounts", None)
    if found is None:
        found = state.accounts = Service(request)
    return found


ACCOUNT_BODY = 4096
"""The largest body of an account route, in bytes."""


async def json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object, at most 4 KiB (``http.py:json_body``).

    Raises:
        ApiError: ``too-large`` (413), ``bad-json``, ``too-deep``...
    """
    return await http_json_body(request, ACCOUNT_BODY)


def _session_hash(request: HTTPConnection) -> str | None:
    return session_hash(dict(request.cookies))


async def signed_in(request: HTTPConnection) -> Account | None:
    """The account of this browser's live session (a request's or a socket's), or None."""
    token_hash = _session_hash(request)
    if token_hash is None:
        return None
    svc = service(request)
    account: Account | None = await svc.db(svc.store.session, token_hash)
    return account


def _set_session(response: Response, svc: Service, token: str) -> None:
    response.set_cookie(SESSION_COOKIE, token, max_age=accounts.SESSION_SECONDS,
                        httponly=True, samesite="lax", secure=svc.config.secure_cookies,
                        path="/")


def _set_identity(response: Response, svc: Service, identity: str) -> None:
    response.set_cookie(IDENTITY_COOKIE, identity, max_age=400 * 24 * 3600, httponly=True,
                        samesite="lax", secure=svc.config.secure_cookies, path="/")


async def _limit(svc: Service, request: Request, kind: str, username: str | None = None,
                 device: str | None = None) -> None:
    """One more try of ``kind`` (``signin``, ``recover``, ``signup``, ``passkey``) for
    ``username`` from this client's network (its address as uvicorn gives it: the
    socket's peer, or behind a trusted proxy the one in ``X-Forwarded-For``), or from
    the device ``device`` (a device cookie's nonce, valid for the name's account); or
    429.  Counted by every process together (``signin_limits.py``).

    Raises:
        AccountError: ``signin-rate`` (429), with ``headers`` (Retry-After).
    """
    network = _network(request)
    wait = await svc.guessing.take(kind, network, username, device)
    if wait is not None:
        exc = AccountError(f"too many tries: try again in {wait} s", "signin-rate", 429)
        exc.headers = {"Retry-After": str(wait)}  # type: ignore[attr-defined]
        raise exc


async def _device(request: Request, svc: Service, account: Account | None) -> str | None:
    """The nonce of this browser's device cookie when it is valid for ``account``."""
    value = request.cookies.get(devices.DEVICE_COOKIE)
    if account is None or value is None:
        return None
    found = devices.read(await svc.device_key(), value)
    return found.nonce if found is not None and found.account_id == account.id else None


async def _set_device(response: Response, svc: Service, account: Account) -> None:
    """A new device cookie for ``account`` (at each sign-in): HttpOnly, ``SameSite=
    Strict``, sent to the account routes only."""
    response.set_cookie(devices.DEVICE_COOKIE,
                        devices.issue(await svc.device_key(), account.id),
                        max_age=devices.DEVICE_SECONDS, httponly=True, samesite="strict",
                        secure=svc.config.secure_cookies, path="/api/account")


def _me(account: Account) -> dict[str, Any]:
    return {"signed_in": True, "id": account.id, "username": account.username,
            "created_at": account.created_at, "profile": f"/players/{account.username}"}


async def _start_session(request: Request, svc: Service, account: Account,
                         response: Response, identity: str | None) -> None:
    """A new session (the browser's previous one ends: rotation), a new device cookie
    and, when ``identity`` is None, a fresh browser identity linked to the account."""
    token = new_token()
    fresh = None
    if identity is None:
        fresh = new_identity()
        identity = identity_hash(fresh)
    await svc.db(svc.store.new_session, account.id, hash_token(token),
                 request.headers.get("user-agent", "")[:120], identity, _session_hash(request))
    _set_session(response, svc, token)
    await _set_device(response, svc, account)
    if fresh is not None:
        _set_identity(response, svc, fresh)


async def me(request: Request) -> Response:
    """Who is signed in; links this browser's identity to the account if it is not yet
    (a browser signed in keeps its games the account's)."""
    account = await signed_in(request)
    if account is None:
        return JSONResponse({"signed_in": False})
    identity = read_identity(request.cookies)
    if identity is not None:
        svc = service(request)
        await svc.db(svc.store.link, account.id, identity_hash(identity))
    return JSONResponse(_me(account))


async def signup(request: Request) -> Response:
    """Create an account: ``{"username", "password"}`` -> the account, its recovery codes
    (shown once) and a session; this browser's guest games become the account's."""
    svc = service(request)
    data = await json_body(request)
    username = accounts.check_username(data.get("username"))
    password = accounts.check_password(data.get("password"))
    svc.hash_first(request)
    await _limit(svc, request, "signup")
    if await svc.db(svc.store.by_name, username) is not None:
        raise AccountError("this username is taken: choose another", "username-taken", 409)
    if await svc.db(svc.store.looks_taken, username):  # before the hash (create checks too)
        raise AccountError("this username looks like an existing one: choose another",
                           "username-confusable", 409)
    pw_hash = await svc.hashed(request, accounts.hash_password, password)
    codes = accounts.new_recovery_codes()
    identity = read_identity(request.cookies)
    held = identity_hash(identity) if identity is not None else None
    account = await svc.db(svc.store.create, username, pw_hash, held, codes)
    response = JSONResponse({**_me(account), "recovery_codes": codes})
    await _start_session(request, svc, account, response, held)
    return response


async def signin(request: Request) -> Response:
    """Sign in with ``{"username", "password"}``: a new session (and browser identity).
    The same ``401 bad-credentials`` for an unknown name and a wrong password; the
    guessing limits first (a browser with this account's device cookie has its own)."""
    svc = service(request)
    data = await json_body(request)
    username, password = data.get("username"), data.get("password")
    if not isinstance(username, str) or not isinstance(password, str) or \
            len(username) > 64 or len(password) > accounts.PASSWORD_MAX:
        raise AccountError(_BAD_CREDENTIALS, "bad-credentials", 401)
    svc.hash_first(request)
    found = await svc.db(svc.store.password_of, username)
    await _limit(svc, request, "signin", username,
                 await _device(request, svc, found[0] if found is not None else None))
    stored = found[1] if found is not None else None  # unknown: a dummy hash, same cost
    ok = await svc.hashed(request, accounts.verify_password, stored, password)
    if found is None or not ok:
        raise AccountError(_BAD_CREDENTIALS, "bad-credentials", 401)
    response = JSONResponse(_me(found[0]))
    await _start_session(request, svc, found[0], response, None)
    return response


async def signout(request: Request) -> Response:
    """End this browser's session; the browser gets a fresh guest identity."""
    svc = service(request)
    token_hash = _session_hash(request)
    if token_hash is not None:
        await svc.db(svc.store.end_session, token_hash)
    response = JSONResponse({"signed_in": False})
    response.delete_cookie(SESSION_COOKIE, path="/")
    _set_identity(response, svc, new_identity())
    return response


async def recover(request: Request) -> Response:
    """``{"username", "code", "password"}``: a recovery code (spent) sets a new password,
    ends every session and signs this browser in.  The code is checked before the new
    password is hashed: a wrong code costs no hashing."""
    svc = service(request)
    data = await json_body(request)
    username, code = data.get("username"), data.get("code")
    password = accounts.check_password(data.get("password"))
    if not isinstance(username, str) or not isinstance(code, str) or len(username) > 64 \
            or len(code) > 64:
        raise AccountError("wrong username or recovery code", "bad-recovery", 401)
    await _limit(svc, request, "recover", username,
                 await _device(request, svc, await svc.db(svc.store.by_name, username)))
    wrong = AccountError("wrong username or recovery code", "bad-recovery", 401)
    if not await svc.db(svc.store.code_valid, username, code):
        raise wrong
    pw_hash = await svc.hashed(request, accounts.hash_password, password)
    account = await svc.db(svc.store.recover, username, code, pw_hash)
    if account is None:  # spent meanwhile by another request
        raise wrong
    response = JSONResponse({**_me(account),
                             "codes_left": await svc.db(svc.store.codes_left, account.id)})
    await _start_session(request, svc, account, response, None)
    return response


async def _required(request: Request) -> Account:
    account = await signed_in(request)
    if account is None:
        raise AccountError("sign in first", "signed-out", 401)
    return account


async def sessions(request: Request) -> Response:
    """The account's live sessions: ``{"sessions": [{"id", "created_at", "expires_at",
    "agent", "device", "current"}]}`` (``device``: the browser, system and device
    read from ``agent``, :func:`polignac.server.base.agents.describe`)."""
    account = await _required(request)
    svc = service(request)
    mine = _session_hash(request)
    rows = await svc.db(svc.store.sessions, account.id)
    devices = await asyncio.to_thread(describe_all, [r["agent"] for r in rows])
    return JSONResponse({"sessions": [
        {"id": r["id"], "created_at": r["created_at"], "expires_at": r["expires_at"],
         "agent": r["agent"], "device": device, "current": r["token_hash"] == mine}
        for r, device in zip(rows, devices, strict=True)]})


async def end_sessions(request: Request) -> Response:
    """End one session (``{"id"}``) or all of them (``{"all": true}``) -> ``{"ended"}``."""
    account = await _required(request)
    svc = service(request)
    data = await json_body(request)
    if data.get("all") is True:
        ended = await svc.db(svc.store.end_sessions, account.id, None)
    else:
        sid = data.get("id")
        if not isinstance(sid, str) or not _SESSION_ID.fullmatch(sid):
            raise AccountError("id must be a session's id (16 hex digits)", "bad-field")
        ended = await svc.db(svc.store.end_sessions, account.id, sid)
    return JSONResponse({"ended": ended})


async def export(request: Request) -> Response:
    """The account's data as JSON: the account, its finished games with their places
    and statistics, its ratings and their history, its sessions."""

    account = await _required(request)
    svc = service(request)
    data = await svc.db(export_data, svc.store.engine, account)
    return JSONResponse(data, headers={
        "Content-Disposition": f'attachment; filename="polignac-{account.username}.json"'})


async def _confirm_password(request: Request, svc: Service, account: Account,
                            password: Any) -> None:
    """Check the signed-in ``account``'s password, asked again before a change: a try
    of the sign-in's guessing limits (this name, this network or device cookie).

    Raises:
        AccountError: ``wrong-password`` (401), ``signin-rate`` (429).
        HashingBusy: 429 ``hashing-busy`` (``players/hashing.py``).
    """
    wrong = AccountError("wrong password", "wrong-password", 401)
    if not isinstance(password, str) or len(password) > accounts.PASSWORD_MAX:
        raise wrong
    svc.hash_first(request)
    await _limit(svc, request, "signin", account.username,
                 await _device(request, svc, account))
    found = await svc.db(svc.store.password_of, account.username)
    ok = await svc.hashed(request, accounts.verify_password, found[1] if found else None,
                          password)
    if found is None or not ok:
        raise wrong


async def change_password(request: Request) -> Response:
    """``{"password", "new_password"}``: the current password (checked as at sign-in,
    and counted by its guessing limits) and the new one (the sign-up's rules) ->
    ``{"changed": true, "ended": N}``: the account's other sessions end, this one
    stays.

    Raises:
        AccountError: ``signed-out`` (401), ``bad-password`` (the new one),
            ``wrong-password`` (401), ``signin-rate`` (429).
    """
    account = await _required(request)
    svc = service(request)
    data = await json_body(request)
    new = accounts.check_password(data.get("new_password"))
    await _confirm_password(request, svc, account, data.get("password"))
    pw_hash = await svc.hashed(request, accounts.hash_password, new)
    ended = await svc.db(svc.store.change_password, account.id, pw_hash,
                         _session_hash(request))
    return JSONResponse({"changed": True, "ended": ended})


async def delete_account(request: Request) -> Response:
    """``{"password"}``: delete the account (see ``AccountStore.delete``); the browser is
    signed out with a fresh guest identity."""
    account = await _required(request)
    svc = service(request)
    data = await json_body(request)
    await _confirm_password(request, svc, account, data.get("password"))
    await svc.db(svc.store.delete, account.id)
    response = JSONResponse({"deleted": True, "at": time.time()})
    response.delete_cookie(SESSION_COOKIE, path="/")
    _set_identity(response, svc, new_identity())
    return response


async def account_page(request: Request) -> Response:
    """The account page (``static/account.html``)."""
    from ..base.pages import STATIC

    return FileResponse(STATIC / "account.html")


def routes() -> list[Route]:
    """The account routes, for the app factory."""
    return [
        Route("/account", account_page),
        Route("/api/account", me),
        Route("/api/account/signup", signup, methods=["POST"]),
        Route("/api/account/signin", signin, methods=["POST"]),
        Route("/api/account/signout", signout, methods=["POST"]),
        Route("/api/account/recover", recover, methods=["POST"]),
        Route("/api/account/sessions", sessions),
        Route("/api/account/sessions/end", end_sessions, methods=["POST"]),
        Route("/api/account/export", export),
        Route("/api/account/password", change_password, methods=["POST"]),
        Route("/api/account/delete", delete_account, methods=["POST"]),
    ]
