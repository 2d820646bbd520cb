"""Accounts: usernames, Argon2id passwords, recovery codes, sessions, and the browser
identities an account owns (docs/server.md, "Accounts and sessions").

Accounts are optional: a guest plays with a browser identity (``seating.py``).
Creating an account links that identity to it, so the games the guest played in
this browser become the account's; signing in gives the browser a fresh identity
linked to the account.  Everything here but the hashing helpers is blocking
database work: call it in a thread (the routes in ``account_routes.py`` do).
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
import time
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import (
    Connection,
    Engine,
    delete,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from ..base.errors import ApiError
from ..base.skeletons import name_keys
from ..store.db import writing
from ..store.schema import (
    accounts_t,
    blocks_t,
    identities_t,
    invites_t,
    match_seats_t,
    passkeys_t,
    push_subscriptions_t,
    recovery_t,
    seats_t,
    sessions_t,
)
from .follows import forget
from .names import RESERVED as RESERVED  # the reserved words, with the lookalike checks
from .names import account_like, is_reserved, lock_name_keys

USERNAME = re.compile(r"[A-Za-z0-9_\-]{3,20}")
DELETED_NAME = "deleted player"
PASSWORD_MIN, PASSWORD_MAX = 8, 256
SESSION_SECONDS = 30 * 24 * 3600
"""A session ends 30 days after sign-in (it is not extended)."""
RECOVERY_CODES = 8
MAX_SESSIONS = 50
"""At most this many live sessions per account: the oldest end first."""

HASHER = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1)
"""Argon2id with OWASP's minimum settings (19 MiB, 2 passes, 1 lane): about 20-60 ms
here, in a thread, never on the event loop."""
_DUMMY: list[str] = []


class AccountError(ApiError):
    """A refused account request: ``rule`` and HTTP ``status`` (an :class:`ApiError`,
    answered by the app's one handler like every other)."""

    def __init__(self, message: str, rule: str, status: int = 400,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message, rule, status, headers)


def check_username(value: Any) -> str:
    """The username, checked: 3 to 20 letters, digits, ``-`` or ``_``, not reserved nor
    like a reserved word (``names.py:is_reserved``).

    Raises:
        AccountError: ``bad-username`` (form) or ``reserved-username``.
    """
    if not isinstance(value, str) or not USERNAME.fullmatch(value):
        raise AccountError("a username has 3 to 20 characters: letters a-z, digits, - or _",
                           "bad-username")
    if is_reserved(value):
        raise AccountError("this username is reserved: choose another", "reserved-username")
    return value


def check_password(value: Any) -> str:
    """The password, checked: text of 8 to 256 characters.

    Raises:
        AccountError: ``bad-password``.
    """
    if not isinstance(value, str) or not PASSWORD_MIN <= len(value) <= PASSWORD_MAX:
        raise AccountError(f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters",
                           "bad-password")
    return value


def hash_password(password: str) -> str:
    """The Argon2id hash of ``password`` (slow on purpose: call in a thread)."""
    return HASHER.hash(password)


def verify_password(stored: str | None, password: str) -> bool:
    """True when ``password`` matches ``stored``; with no stored hash (unknown name), a
    dummy hash is verified anyway, so both answers take the same time."""
    if stored is None:
        if not _DUMMY:
            _DUMMY.append(HASHER.hash(secrets.token_hex(16)))
        stored, password = _DUMMY[0], password + "x"
    try:
        return HASHER.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


def new_recovery_codes() -> list[str]:
    """:data:`RECOVERY_CODES` fresh codes, each 80 random bits as ``XXXX-XXXX-XXXX-XXXX``."""
    out = []
    for _ in range(RECOVERY_CODES):
        raw = base64.b32encode(secrets.token_bytes(10)).decode("ascii")
        out.append("-".join(raw[i:i + 4] for i in range(0, 16, 4)))
    return out


def hash_code(code: str) -> str:
    """The stored form of a recovery code: SHA-256 of its letters and digits, upper case
    (80 random bits need no slow hash)."""
    plain = "".join(ch for ch in code.upper() if ch.isascii() and ch.isalnum())
    return hashlib.sha256(b"recovery:" + plain.encode("ascii")).hexdigest()


@dataclass
class Account:
    """One account as the routes see it."""

    id: int
    username: str
    created_at: float
    deleted: bool = False


def _account(row: Any) -> Account:
    return Account(row.id, row.username, row.created_at, row.deleted_at is not None)


class AccountStore:
    """Reads and writes accounts and sessions.  Blocking: call from a thread."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(self, username: str, password_hash: str, identity: str | None,
               codes: list[str]) -> Account:
        """A new account; ``identity`` (a browser identity hash) becomes its, with the
        finished games played under it.

        Raises:
            AccountError: ``username-taken`` (ignoring case), ``username-confusable``
                (409: it looks like a live account's name, ``names.py``).
        """
        now = time.time()
        key, key2 = name_keys(username)
        try:
            with writing(self.engine) as conn:
                lock_name_keys(conn, username)  # a confusable sign-up at once waits
                if account_like(conn, username) is not None:
                    raise AccountError("this username looks like an existing one: choose "
                                       "another", "username-confusable", 409)
                account_id = conn.execute(insert(accounts_t).values(
                    username=username, username_key=username.lower(),
                    password_hash=password_hash, created_at=now, name_key=key,
                    name_key2=key2)).inserted_primary_key
                assert account_id is not None
                account_id = account_id[0]
                conn.execute(insert(recovery_t), [
                    {"account_id": account_id, "code_hash": hash_code(c)} for c in codes])
                if identity is not None:
                    link_identity(conn, account_id, identity)
        except IntegrityError:
            raise AccountError("this username is taken: choose another",
                               "username-taken", 409) from None
        return Account(int(account_id), username, now)

    def looks_taken(self, username: str) -> bool:
        """True when a live account's name is ``username`` or looks like it
        (``names.py:account_like``)."""
        with self.engine.connect() as conn:
            return account_like(conn, username) is not None

    def password_of(self, username: str) -> tuple[Account, str | None] | None:
        """The live account named ``username`` (ignoring case) and its password hash."""
        with self.engine.connect() as conn:
            row = conn.execute(select(accounts_t).where(
                accounts_t.c.username_key == username.lower(),
                accounts_t.c.deleted_at.is_(None))).first()
        return None if row is None else (_account(row), row.password_hash)

    def by_name(self, username: str) -> Account | None:
        """The live account named ``username`` (ignoring case), or None."""
        found = self.password_of(username)
        return None if found is None else found[0]

    def by_id(self, account_id: int) -> Account | None:
        """The account ``account_id`` (deleted ones too), or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(accounts_t).where(accounts_t.c.id == account_id)).first()
        return None if row is None else _account(row)

    def link(self, account_id: int, identity: str) -> None:
        """Make browser identity ``identity`` (a hash) the account's, if nobody's yet."""
        with writing(self.engine) as conn:
            link_identity(conn, account_id, identity)

    def new_session(self, account_id: int, token_hash: str, agent: str,
                    identity: str | None, replaces: str | None = None) -> None:
        """Store a session (``replaces``: the browser's previous session token hash,
        ended: a new session at each sign-in); link ``identity``; keep the newest
        :data:`MAX_SESSIONS`."""
        now = time.time()
        with writing(self.engine) as conn:
            if replaces is not None:
                conn.execute(delete(sessions_t).where(sessions_t.c.token_hash == replaces))
            conn.execute(insert(sessions_t).values(
                token_hash=token_hash, account_id=account_id, created_at=now,
                expires_at=now + SESSION_SECONDS, agent=agent[:120]))
            if identity is not None:
                link_identity(conn, account_id, identity)
            old = [r.token_hash for r in conn.execute(
                select(sessions_t.c.token_hash).where(sessions_t.c.account_id == account_id)
                .order_by(sessions_t.c.created_at.desc()).offset(MAX_SESSIONS))]
            if old:
                conn.execute(delete(sessions_t).where(sessions_t.c.token_hash.in_(old)))

    def session(self, token_hash: str) -> Account | None:
        """The live account of an unexpired session, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(accounts_t).join(sessions_t, sessions_t.c.account_id == accounts_t.c.id)
                .where(sessions_t.c.token_hash == token_hash,
                       sessions_t.c.expires_at > time.time(),
                       accounts_t.c.deleted_at.is_(None))).first()
        return None if row is None else _account(row)

    def sessions(self, account_id: int) -> list[dict[str, Any]]:
        """The account's live sessions, newest first: ``id`` (16 hex digits of the token's
        hash), ``token_hash``, ``created_at``, ``expires_at``, ``agent``."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(sessions_t).where(
                sessions_t.c.account_id == account_id, sessions_t.c.expires_at > time.time())
                .order_by(sessions_t.c.created_at.desc())).all()
        return [{"id": r.token_hash[:16], "token_hash": r.token_hash, "created_at": r.created_at,
                 "expires_at": r.expires_at, "agent": r.agent} for r in rows]

    def end_sessions(self, account_id: int, session_id: str | None) -> int:
        """End the session whose ``id`` is ``session_id`` (16 hex digits), or every
        session of the account when None; the number ended."""
        where = sessions_t.c.account_id == account_id
        if session_id is not None:
            where = where & sessions_t.c.token_hash.startswith(session_id, autoescape=True)
        with writing(self.engine) as conn:
            return int(conn.execute(delete(sessions_t).where(where)).rowcount or 0)

    def end_session(self, token_hash: str) -> None:
        """End one session (sign-out)."""
        with writing(self.engine) as conn:
            conn.execute(delete(sessions_t).where(sessions_t.c.token_hash == token_hash))

    def change_password(self, account_id: int, password_hash: str,
                        keep: str | None) -> int:
        """The account's password becomes ``password_hash`` and its sessions end but
        ``keep`` (a token hash: the browser that changed it); the number ended."""
        with writing(self.engine) as conn:
            conn.execute(update(accounts_t).where(accounts_t.c.id == account_id,
                                                  accounts_t.c.deleted_at.is_(None))
                         .values(password_hash=password_hash))
            others = sessions_t.c.account_id == account_id
            if keep is not None:
                others = others & (sessions_t.c.token_hash != keep)
            return int(conn.execute(delete(sessions_t).where(others)).rowcount or 0)

    def code_valid(self, username: str, code: str) -> bool:
        """True when ``code`` is an unused recovery code of the live account
        ``username`` (nothing is spent: :meth:`recover` spends it)."""
        with self.engine.connect() as conn:
            return conn.execute(select(recovery_t.c.account_id).join(
                accounts_t, accounts_t.c.id == recovery_t.c.account_id).where(
                accounts_t.c.username_key == username.lower(),
                accounts_t.c.deleted_at.is_(None),
                recovery_t.c.code_hash == hash_code(code))).first() is not None

    def recover(self, username: str, code: str, password_hash: str) -> Account | None:
        """Use one recovery code of ``username``: the password becomes ``password_hash``,
        the code is spent and every session ends.  None (nothing changed) when the
        name or the code is wrong."""
        with writing(self.engine) as conn:
            row = conn.execute(select(accounts_t).where(
                accounts_t.c.username_key == username.lower(),
                accounts_t.c.deleted_at.is_(None))).first()
            if row is None:
                return None
            spent = conn.execute(delete(recovery_t).where(
                recovery_t.c.account_id == row.id,
                recovery_t.c.code_hash == hash_code(code))).rowcount
            if not spent:
                return None
            conn.execute(update(accounts_t).where(accounts_t.c.id == row.id)
                         .values(password_hash=password_hash))
            conn.execute(delete(sessions_t).where(sessions_t.c.account_id == row.id))
        return _account(row)

    def codes_left(self, account_id: int) -> int:
        """How many unused recovery codes the account has."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(recovery_t).where(
                recovery_t.c.account_id == account_id)).scalar_one())

    def delete(self, account_id: int) -> None:
        """Delete the account: its name becomes :data:`DELETED_NAME` (in its records too),
        its username is free again, its password, codes, sessions, follows and presence
        are gone; its finished games and ratings stay, under that name."""

        with writing(self.engine) as conn:
            conn.execute(update(accounts_t).where(accounts_t.c.id == account_id).values(
                username=DELETED_NAME, username_key=None, password_hash=None,
                name_key=None, name_key2=None, deleted_at=time.time()))
            conn.execute(delete(sessions_t).where(sessions_t.c.account_id == account_id))
            conn.execute(delete(recovery_t).where(recovery_t.c.account_id == account_id))
            conn.execute(delete(passkeys_t).where(passkeys_t.c.account_id == account_id))
            conn.execute(delete(push_subscriptions_t).where(
                push_subscriptions_t.c.account_id == account_id))
            conn.execute(delete(blocks_t).where(or_(blocks_t.c.blocker == account_id,
                                                    blocks_t.c.blocked == account_id)))
            conn.execute(delete(invites_t).where(or_(invites_t.c.inviter == account_id,
                                                     invites_t.c.invitee == account_id)))
            mine = select(identities_t.c.identity_hash).where(
                identities_t.c.account_id == account_id).scalar_subquery()
            conn.execute(update(seats_t).where(seats_t.c.holder_hash.in_(mine))
                         .values(name=DELETED_NAME))
            conn.execute(update(match_seats_t).where(match_seats_t.c.account_id == account_id)
                         .values(name=DELETED_NAME))
            forget(conn, account_id)  # its follows, both ways, and its presence


def link_identity(conn: Connection, account_id: int, identity: str) -> None:
    """Make ``identity`` the account's, in ``conn``'s transaction, unless it is already
    some account's; the games it finished without an account become this one's."""
    found = conn.execute(select(identities_t.c.account_id).where(
        identities_t.c.identity_hash == identity)).first()
    if found is not None:
        return
    conn.execute(insert(identities_t).values(identity_hash=identity, account_id=account_id,
                                             linked_at=time.time()))
    conn.execute(update(match_seats_t).where(match_seats_t.c.holder_hash == identity,
                                             match_seats_t.c.account_id.is_(None))
                 .values(account_id=account_id))


def account_of_identities(conn: Connection, identities: list[str]) -> dict[str, int]:
    """Which account owns each of these identity hashes (those owned only)."""
    if not identities:
        return {}
    rows = conn.execute(select(identities_t.c.identity_hash, identities_t.c.account_id)
                        .where(identities_t.c.identity_hash.in_(identities)))
    return {r.identity_hash: int(r.account_id) for r in rows}
