"""Passkeys (WebAuthn, with the ``webauthn`` library): register one on the account page,
sign in with it (docs/server.md, "Accounts and sessions").

    POST /api/account/passkeys/register/options   signed in -> creation options
    POST /api/account/passkeys/register           {"credential"} -> {"passkeys": N}
    GET  /api/account/passkeys                    the account's passkeys
    POST /api/account/passkeys/rename             {"id", "name"} -> the passkeys
    POST /api/account/passkeys/remove             {"id"} -> the passkeys
    POST /api/account/passkeys/signin/options     -> request options (any passkey)
    POST /api/account/passkeys/signin             {"credential"} -> a new session

Each challenge is 32 random bytes from the library, stored with its purpose (and
account) for five minutes and spent by the answer that carries it, so that it
works with several processes and cannot be replayed (``players/passkeys.py``: the
bounds on challenges and passkeys).  The relying party is the host the browser asked
for (``Host``, already checked against the served names); the origin is its scheme
and host.  A browser refuses passkeys on an IP address ("This is an invalid
domain."): the ceremonies there are refused first, ``passkey-needs-name`` with the
``localhost`` address to open on loopback, ``passkey-ip-address`` elsewhere.

A new passkey is named after the browser and system that made it; its owner renames
or removes it (``players/passkeys.py``: the name's rules, and the last way to sign in
kept).
"""

from __future__ import annotations

import asyncio
import base64
import ipaddress
import json
from typing import Any

from sqlalchemy import select, update
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from ..base.agents import describe
from ..base.errors import ApiError
from ..base.requests import JsonInputError, parse_json, read_body
from ..players import passkeys
from ..players.accounts import Account, AccountError
from ..store.db import writing
from ..store.schema import accounts_t, passkeys_t
from .account_routes import _limit, _me, _required, _start_session, json_body, service

OPTIONS_BURST, OPTIONS_PER_MINUTE = 20, 10
"""Registration options an account may ask for: 20 at once, then 10 a minute."""


def _party(request: Request) -> tuple[str, str]:
    """The relying party's id (the host name) and the expected origin.

    Raises:
        ApiError: ``passkey-needs-name`` (with ``url``: the same port on
            ``localhost``) for a loopback address, ``passkey-ip-address`` for another
            address: a browser takes passkeys for a site's name only.
    """
    host = request.headers.get("host", "")
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    scheme = "https" if service(request).config.secure_cookies else request.url.scheme
    try:
        address = ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return name.strip("[]"), f"{scheme}://{host}"
    if address.is_loopback:
        port = host[len(name):]
        url = f"{scheme}://localhost{port}/account"
        raise ApiError(f"passkeys need the site's name, not an IP address: open {url}",
                       "passkey-needs-name", extra={"url": url})
    raise ApiError("passkeys need the site's name, not an IP address: open the site "
                   "by its name", "passkey-ip-address")


async def _credential(request: Request) -> tuple[dict[str, Any], str]:
    """The body's ``credential`` (a PublicKeyCredential's JSON) and the challenge its
    client data names.

    Raises:
        AccountError: ``bad-passkey`` (malformed), or the body's limits.
    """
    body = await read_body(request, 16 * 1024, "the request")
    if isinstance(body, Response):
        raise AccountError("request too large: at most 16384 bytes", "too-large", 413)
    try:
        data = parse_json(body or b"{}", "the body")
    except JsonInputError as exc:
        raise AccountError(str(exc), exc.rule) from None
    credential = data.get("credential") if isinstance(data, dict) else None
    try:
        assert isinstance(credential, dict)
        client = credential["response"]["clientDataJSON"]
        assert isinstance(client, str) and len(client) < 4096
        raw = base64.urlsafe_b64decode(client + "=" * (-len(client) % 4))
        challenge = json.loads(raw)["challenge"]
        assert isinstance(challenge, str) and 0 < len(challenge) <= 128
    except (AssertionError, KeyError, TypeError, ValueError):
        raise AccountError("this is not a passkey's answer", "bad-passkey") from None
    return credential, challenge


def _options_limit(request: Request) -> Any:
    """The limit on registration options per account (shared by every process)."""
    state = request.app.state
    found = getattr(state, "passkey_options", None)
    if found is None:
        found = state.passkey_options = state.limits.limit(
            "passkey-options", per_minute=OPTIONS_PER_MINUTE, burst=OPTIONS_BURST)
    return found


async def register_options(request: Request) -> Response:
    """Creation options for a new passkey of the signed-in account (resident key, so
    that it signs in without a username)."""
    account = await _required(request)
    rp_id, _ = _party(request)
    svc = service(request)
    engine = svc.store.engine
    limit = _options_limit(request)
    if not await limit.allow(f"account:{account.id}"):
        exc = AccountError("too many passkey requests: wait a minute and try again",
                           "passkey-rate", 429)
        exc.headers = {"Retry-After": str(limit.retry_after())}  # type: ignore[attr-defined]
        raise exc
    have = await asyncio.to_thread(passkeys.check_room, engine, account.id)
    options = generate_registration_options(
        rp_id=rp_id, rp_name="Polignac", user_name=account.username,
        user_id=f"polignac-account-{account.id}".encode(),
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(c))
                             for c in have])
    await asyncio.to_thread(passkeys.store_challenge, engine,
                            bytes_to_base64url(options.challenge), "register", account.id)
    return Response(options_to_json(options), media_type="application/json")


async def register(request: Request) -> Response:
    """Verify and store a new passkey: ``{"credential"}`` -> ``{"passkeys": N}``."""
    account = await _required(request)
    svc = service(request)
    credential, challenge = await _credential(request)
    if not await asyncio.to_thread(passkeys.spend_challenge, svc.store.engine, challenge,
                                   "register", account.id):
        raise AccountError("this passkey request expired or was used: try again",
                           "bad-passkey")
    rp_id, origin = _party(request)
    try:
        verified = verify_registration_response(
            credential=credential, expected_challenge=base64url_to_bytes(challenge),
            expected_rp_id=rp_id, expected_origin=origin)
    except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
        raise AccountError(f"the passkey was not accepted: {str(exc)[:200]}",
                           "bad-passkey") from None

    device = await asyncio.to_thread(describe, request.headers.get("user-agent", "")[:512])
    count = await asyncio.to_thread(
        passkeys.add_passkey, svc.store.engine, account.id,
        bytes_to_base64url(verified.credential_id),
        bytes_to_base64url(verified.credential_public_key), verified.sign_count,
        None, passkeys.default_name(device))
    return JSONResponse({"passkeys": count})


async def listed(request: Request) -> Response:
    """The account's passkeys: ``{"passkeys": [{"id", "name", "created_at"}]}``."""
    account = await _required(request)
    engine = service(request).store.engine
    return JSONResponse({"passkeys": await asyncio.to_thread(passkeys.listed, engine,
                                                             account.id)})


async def rename(request: Request) -> Response:
    """``{"id", "name"}``: rename one of the account's passkeys -> its passkeys.

    Raises:
        AccountError: ``signed-out`` (401), ``bad-passkey-name``, ``bad-field``,
            ``no-passkey`` (404, another account's too).
    """
    account = await _required(request)
    data = await json_body(request)
    engine = service(request).store.engine
    await asyncio.to_thread(passkeys.rename, engine, account.id, data.get("id"),
                            data.get("name"))
    return JSONResponse({"passkeys": await asyncio.to_thread(passkeys.listed, engine,
                                                             account.id)})


async def remove(request: Request) -> Response:
    """``{"id"}``: remove one of the account's passkeys -> its passkeys.

    Raises:
        AccountError: ``signed-out`` (401), ``bad-field``, ``no-passkey`` (404),
            ``last-sign-in`` (409: no password and no other passkey).
    """
    account = await _required(request)
    data = await json_body(request)
    engine = service(request).store.engine
    await asyncio.to_thread(passkeys.remove, engine, account.id, data.get("id"))
    return JSONResponse({"passkeys": await asyncio.to_thread(passkeys.listed, engine,
                                                             account.id)})


async def signin_options(request: Request) -> Response:
    """Request options for signing in with any passkey of this site."""
    rp_id, _ = _party(request)
    svc = service(request)
    await _limit(svc, request, "passkey")
    options = generate_authentication_options(
        rp_id=rp_id, user_verification=UserVerificationRequirement.PREFERRED)
    await asyncio.to_thread(passkeys.store_challenge, svc.store.engine,
                            bytes_to_base64url(options.challenge), "signin", None)
    return Response(options_to_json(options), media_type="application/json")


async def signin(request: Request) -> Response:
    """Sign in with a passkey: ``{"credential"}`` -> a new session (as a password
    sign-in).  ``401 bad-passkey`` for an unknown or failing passkey."""
    svc = service(request)
    await _limit(svc, request, "passkey")
    credential, challenge = await _credential(request)
    engine = svc.store.engine
    if not await asyncio.to_thread(passkeys.spend_challenge, engine, challenge, "signin",
                                   None):
        raise AccountError("this passkey request expired or was used: try again",
                           "bad-passkey", 401)
    raw_id = credential.get("rawId") or credential.get("id")
    if not isinstance(raw_id, str) or not 0 < len(raw_id) <= 255:
        raise AccountError("this passkey is not known here", "bad-passkey", 401)
    rp_id, origin = _party(request)

    def check() -> Account | None:
        with writing(engine) as conn:
            row = conn.execute(select(passkeys_t, accounts_t.c.username,
                                      accounts_t.c.created_at.label("account_created"))
                               .join(accounts_t, accounts_t.c.id == passkeys_t.c.account_id)
                               .where(passkeys_t.c.credential_id == raw_id,
                                      accounts_t.c.deleted_at.is_(None))).first()
            if row is None:
                return None
            try:
                verified = verify_authentication_response(
                    credential=credential, expected_challenge=base64url_to_bytes(challenge),
                    expected_rp_id=rp_id, expected_origin=origin,
                    credential_public_key=base64url_to_bytes(row.public_key),
                    credential_current_sign_count=row.sign_count)
            except (WebAuthnException, ValueError, KeyError, TypeError):
                return None
            conn.execute(update(passkeys_t).where(passkeys_t.c.credential_id == raw_id)
                         .values(sign_count=verified.new_sign_count))
            return Account(row.account_id, row.username, row.account_created)

    account = await asyncio.to_thread(check)
    if account is None:
        raise AccountError("this passkey was not accepted", "bad-passkey", 401)
    response = JSONResponse(_me(account))
    await _start_session(request, svc, account, response, None)
    return response


def routes() -> list[Route]:
    """The passkey routes, for the app factory."""
    return [
        Route("/api/account/passkeys", listed),
        Route("/api/account/passkeys/register/options", register_options, methods=["POST"]),
        Route("/api/account/passkeys/register", register, methods=["POST"]),
        Route("/api/account/passkeys/rename", rename, methods=["POST"]),
        Route("/api/account/passkeys/remove", remove, methods=["POST"]),
        Route("/api/account/passkeys/signin/options", signin_options, methods=["POST"]),
        Route("/api/account/passkeys/signin", signin, methods=["POST"]),
    ]
