"""Passkeys' storage: the WebAuthn challenges waiting for an answer, and the accounts'
credentials (docs/server.md, "Accounts and sessions").  The ceremony itself is
``web/passkey_routes.py``'s.

Bounds, each kept in the transaction that writes:

- a challenge lives :data:`CHALLENGE_SECONDS`; expired rows are deleted by each
  new challenge;
- an account has at most :data:`MAX_REGISTER_CHALLENGES` registration challenges
  waiting: a new one replaces the oldest;
- at most :data:`MAX_CHALLENGES` challenges wait in all (then ``429
  passkey-requests``);
- an account holds at most :data:`MAX_PASSKEYS` passkeys, counted when one is
  stored (the account's row locked), not only when options are asked for;
- a credential id belongs to one account once: another registration of it is
  ``409 passkey-taken`` and changes nothing.

Everything here blocks (database work): call it in a thread.
"""

from __future__ import annotations

import time

from sqlalchemy import Engine, delete, func, insert, select
from sqlalchemy.exc import IntegrityError

from ..store.db import writing
from ..store.schema import accounts_t, challenges_t, passkeys_t
from .accounts import AccountError

CHALLENGE_SECONDS = 300
"""A challenge is answered within five minutes or not at all."""
MAX_PASSKEYS = 10
"""Passkeys an account may hold."""
MAX_REGISTER_CHALLENGES = 3
"""Registration challenges an account may have waiting (the oldest goes first)."""
MAX_CHALLENGES = 10_000
"""Challenges of every kind and account waiting at once, at most."""
CHALLENGES_RETRY = 60
"""``Retry-After`` when :data:`MAX_CHALLENGES` wait."""


def _refused(message: str, rule: str, status: int, retry: int | None = None) -> AccountError:
    exc = AccountError(message, rule, status)
    if retry is not None:
        exc.headers = {"Retry-After": str(retry)}  # type: ignore[attr-defined]
    return exc


def store_challenge(engine: Engine, challenge: str, kind: str, account_id: int | None,
                    now: float | None = None) -> None:
    """Keep ``challenge`` (base64url) for ``kind`` (``register``, ``signin``) and
    ``account_id`` until ``now`` + :data:`CHALLENGE_SECONDS`.

    Raises:
        AccountError: ``passkey-requests`` (429, ``Retry-After``) when
            :data:`MAX_CHALLENGES` unexpired challenges wait already.
    """
    now = time.time() if now is None else now
    with writing(engine) as conn:
        conn.execute(delete(challenges_t).where(challenges_t.c.expires_at <= now))
        if kind == "register" and account_id is not None:
            waiting = [r.challenge for r in conn.execute(
                select(challenges_t.c.challenge).where(
                    challenges_t.c.kind == kind, challenges_t.c.account_id == account_id)
                .order_by(challenges_t.c.expires_at.desc(), challenges_t.c.challenge)
                .offset(MAX_REGISTER_CHALLENGES - 1))]
            if waiting:  # the oldest make room for the new one
                conn.execute(delete(challenges_t).where(challenges_t.c.challenge.in_(waiting)))
        count = conn.execute(select(func.count()).select_from(challenges_t)).scalar_one()
        if count >= MAX_CHALLENGES:
            raise _refused("too many passkey requests are waiting: try again in a minute",
                           "passkey-requests", 429, CHALLENGES_RETRY)
        conn.execute(insert(challenges_t).values(
            challenge=challenge, kind=kind, account_id=account_id,
            expires_at=now + CHALLENGE_SECONDS))


def spend_challenge(engine: Engine, challenge: str, kind: str, account_id: int | None,
                    now: float | None = None) -> bool:
    """Spend a stored, unexpired challenge of this kind (and account); False if none."""
    now = time.time() if now is None else now
    where = (challenges_t.c.challenge == challenge) & (challenges_t.c.kind == kind) & \
        (challenges_t.c.expires_at > now)
    if account_id is not None:
        where = where & (challenges_t.c.account_id == account_id)
    with writing(engine) as conn:
        return bool(conn.execute(delete(challenges_t).where(where)).rowcount)


def credential_ids(engine: Engine, account_id: int) -> list[str]:
    """The credential ids (base64url) of the account's passkeys."""
    with engine.connect() as conn:
        return [r.credential_id for r in conn.execute(
            select(passkeys_t.c.credential_id).where(passkeys_t.c.account_id == account_id))]


def check_room(engine: Engine, account_id: int) -> list[str]:
    """The account's credential ids, when it may still add a passkey.

    Raises:
        AccountError: ``too-many-passkeys`` (409).
    """
    have = credential_ids(engine, account_id)
    if len(have) >= MAX_PASSKEYS:
        raise _refused(f"at most {MAX_PASSKEYS} passkeys an account", "too-many-passkeys", 409)
    return have


def add_passkey(engine: Engine, account_id: int, credential_id: str, public_key: str,
                sign_count: int, now: float | None = None) -> int:
    """Store a verified passkey of the account; how many it holds now.  The count and
    the insert are one transaction with the account's row locked (SQLite: one writer
    at a time), so that registrations at once cannot pass :data:`MAX_PASSKEYS`.

    Raises:
        AccountError: ``passkey-taken`` (409: this credential is already an
            account's, this one's or another's), ``too-many-passkeys`` (409).
    """
    taken = _refused("this passkey is already registered to an account", "passkey-taken", 409)
    try:
        with writing(engine) as conn:
            lock = select(accounts_t.c.id).where(accounts_t.c.id == account_id)
            if conn.dialect.name == "postgresql":
                lock = lock.with_for_update()
            conn.execute(lock)
            if conn.execute(select(passkeys_t.c.account_id).where(
                    passkeys_t.c.credential_id == credential_id)).first() is not None:
                raise taken
            count = conn.execute(select(func.count()).select_from(passkeys_t).where(
                passkeys_t.c.account_id == account_id)).scalar_one()
            if count >= MAX_PASSKEYS:
                raise _refused(f"at most {MAX_PASSKEYS} passkeys an account",
                               "too-many-passkeys", 409)
            conn.execute(insert(passkeys_t).values(
                credential_id=credential_id, account_id=account_id, public_key=public_key,
                sign_count=sign_count, created_at=time.time() if now is None else now))
            return int(count) + 1
    except IntegrityError:  # the same credential stored at once by another request
        raise taken from None
