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
  ``409 passkey-taken`` and changes nothing;
- a passkey's name (:func:`check_name`) is 1 to :data:`NAME_MAX` characters of
  printable text, trimmed;
- a passkey is removed only when the account keeps a way to sign in (a password or
  another passkey): else ``409 last-sign-in``.

Everything here blocks (database work): call it in a thread.
"""

from __future__ import annotations

import re
import time
import unicodedata
from typing import Any

from sqlalchemy import Connection, Engine, delete, func, insert, select, update
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
NAME_MAX = 64
"""The longest name of a passkey, in characters (code points, after NFC)."""
KEY_ID = re.compile(r"[A-Za-z0-9_\-]{16}")
"""A passkey's id in the routes: the first 16 characters of its credential id."""
_JOINERS = frozenset("\u200c\u200d")
"""The format characters a name may hold (emoji sequences, some scripts' ligatures);
every other one (bidirectional overrides, invisible marks) is refused."""


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


def check_name(value: Any) -> str:
    """A passkey's name as its owner typed it: NFC, trimmed, 1 to :data:`NAME_MAX`
    characters, none of them a control, a line break, a private or unassigned code
    point, or a format character other than the zero-width joiners.

    Raises:
        AccountError: ``bad-passkey-name``.
    """
    bad = _refused(f"a passkey's name has 1 to {NAME_MAX} characters of printable text",
                   "bad-passkey-name", 400)
    if not isinstance(value, str) or len(value) > 4 * NAME_MAX:
        raise bad
    text = unicodedata.normalize("NFC", value).strip()
    if not 0 < len(text) <= NAME_MAX:
        raise bad
    for ch in text:
        kind = unicodedata.category(ch)
        if kind in ("Cc", "Co", "Cs", "Cn", "Zl", "Zp") or (kind == "Cf" and ch not in _JOINERS):
            raise bad
    return text


def default_name(device: dict[str, str]) -> str | None:
    """The name a new passkey gets: the browser and system it was made on, as the
    sessions show them (``agents.py:describe``), "Chrome 131 · Linux"; None when the
    browser is not recognised (the page then names it by its date)."""
    if not device.get("browser"):
        return None
    parts = [device["browser"], device.get("os", ""), device.get("device", "")]
    return " · ".join(p for p in parts if p)[:NAME_MAX]


def listed(engine: Engine, account_id: int) -> list[dict[str, Any]]:
    """The account's passkeys, oldest first: ``{"id", "name", "created_at"}`` (``id``:
    :data:`KEY_ID`; ``name`` None for a passkey that has none)."""
    with engine.connect() as conn:
        return [{"id": r.credential_id[:16], "name": r.name, "created_at": r.created_at}
                for r in conn.execute(select(passkeys_t).where(
                    passkeys_t.c.account_id == account_id)
                    .order_by(passkeys_t.c.created_at, passkeys_t.c.credential_id))]


def _lock_account(conn: Connection, account_id: int) -> Any:
    """The account's row, locked until the transaction ends (SQLite: one writer)."""
    lock = select(accounts_t.c.id, accounts_t.c.password_hash).where(
        accounts_t.c.id == account_id)
    if conn.dialect.name == "postgresql":
        lock = lock.with_for_update()
    return conn.execute(lock).first()


def _one_of(conn: Connection, account_id: int, key_id: Any) -> str:
    """The credential id of the account's passkey whose id is ``key_id``.

    Raises:
        AccountError: ``bad-field`` (not an id), ``no-passkey`` (404: none of this
            account's, another account's included).
    """
    if not isinstance(key_id, str) or not KEY_ID.fullmatch(key_id):
        raise _refused("id must be a passkey's id (16 characters)", "bad-field", 400)
    found = [r.credential_id for r in conn.execute(
        select(passkeys_t.c.credential_id).where(
            passkeys_t.c.account_id == account_id,
            passkeys_t.c.credential_id.startswith(key_id, autoescape=True)))]
    if len(found) != 1:
        raise _refused("this account has no such passkey", "no-passkey", 404)
    return found[0]


def rename(engine: Engine, account_id: int, key_id: Any, name: Any) -> None:
    """Name the account's passkey ``key_id`` ``name`` (:func:`check_name`).

    Raises:
        AccountError: ``bad-passkey-name``, ``bad-field``, ``no-passkey`` (404).
    """
    text = check_name(name)
    with writing(engine) as conn:
        credential = _one_of(conn, account_id, key_id)
        conn.execute(update(passkeys_t).where(passkeys_t.c.credential_id == credential)
                     .values(name=text))


def remove(engine: Engine, account_id: int, key_id: Any) -> None:
    """Remove the account's passkey ``key_id``, unless it is the account's last way to
    sign in (no password, no other passkey).  One transaction, the account's row
    locked: two removals at once cannot leave it with none.

    Raises:
        AccountError: ``bad-field``, ``no-passkey`` (404), ``last-sign-in`` (409).
    """
    with writing(engine) as conn:
        account = _lock_account(conn, account_id)
        credential = _one_of(conn, account_id, key_id)
        count = conn.execute(select(func.count()).select_from(passkeys_t).where(
            passkeys_t.c.account_id == account_id)).scalar_one()
        if account is not None and account.password_hash is None and count <= 1:
            raise _refused("this passkey is the account's only way to sign in: set a "
                           "password or add another passkey first", "last-sign-in", 409)
        conn.execute(delete(passkeys_t).where(passkeys_t.c.credential_id == credential))


def add_passkey(engine: Engine, account_id: int, credential_id: str, public_key: str,
                sign_count: int, now: float | None = None, name: str | None = None) -> int:
    """Store a verified passkey of the account (named ``name``); how many it holds now.
    The count and the insert are one transaction with the account's row locked (SQLite:
    one writer at a time), so that registrations at once cannot pass
    :data:`MAX_PASSKEYS`.

    Raises:
        AccountError: ``passkey-taken`` (409: this credential is already an
            account's, this one's or another's), ``too-many-passkeys`` (409).
    """
    taken = _refused("this passkey is already registered to an account", "passkey-taken", 409)
    try:
        with writing(engine) as conn:
            _lock_account(conn, account_id)
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
                sign_count=sign_count, created_at=time.time() if now is None else now,
                name=name))
            return int(count) + 1
    except IntegrityError:  # the same credential stored at once by another request
        raise taken from None
