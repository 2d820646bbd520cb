"""Names that pass for someone else's (docs/server.md, "Accounts and sessions"): an
account's name, a reserved one (:data:`RESERVED`), or one that looks like either.

"Looks like" is Unicode's own test for confusable strings (UTS #39, section 4): equal
*skeletons* (``base/skeletons.py``, from Unicode's ``confusables.txt`` as the
``confusable_homoglyphs`` package ships it).  Names compare ignoring case too, so a
name has two keys (``skeletons.py:name_keys``); two names clash when a key is shared.

Accounts keep both keys (``accounts.name_key``, ``accounts.name_key2``, migration
0015), so that a sign-up or a guest's name is checked with one indexed query.
"""

from __future__ import annotations

import functools
import hashlib

from sqlalchemy import Connection, or_, select, text

from ..base.errors import ApiError
from ..base.skeletons import name_keys
from ..store.schema import accounts_t

RESERVED = frozenset({
    "admin", "administrator", "root", "system", "server", "polignac", "support", "help",
    "moderator", "mod", "staff", "official", "bot", "bots", "guest", "anonymous", "nobody",
    "deleted", "deleted-player", "deleted_player", "you", "me", "null", "undefined", "api",
    "account", "accounts", "players", "leaderboard", "signin", "signup", "login", "logout",
    "easy", "medium", "hard", "expert", "random", "oracle",
})
"""Names nobody may take, nor anything like them (:func:`is_reserved`): the site's own
words, the bot levels, and names that would pass for staff."""


@functools.lru_cache(maxsize=1)
def _reserved_keys() -> frozenset[str]:
    return frozenset(k for word in RESERVED for k in name_keys(word))


def is_reserved(name: str) -> bool:
    """True when ``name`` is a reserved word (:data:`RESERVED`) or looks like one."""
    return not _reserved_keys().isdisjoint(name_keys(name))


def account_like(conn: Connection, name: str, but: int | None = None) -> int | None:
    """The id of a live account whose name is ``name`` or looks like it (ignoring case),
    other than ``but``; None when there is none."""
    keys = list(set(name_keys(name)))
    query = select(accounts_t.c.id).where(
        or_(accounts_t.c.name_key.in_(keys), accounts_t.c.name_key2.in_(keys)),
        accounts_t.c.deleted_at.is_(None))
    if but is not None:
        query = query.where(accounts_t.c.id != but)
    found = conn.execute(query.limit(1)).scalar()
    return None if found is None else int(found)


def lock_name_keys(conn: Connection, name: str) -> None:
    """Make the write transaction of ``conn`` the only one, until it ends, that may take
    a name sharing a key with ``name``: two confusable sign-ups at the same moment
    (``alice`` and Cyrillic ``аlice``) each check :func:`account_like` first, and
    without this on PostgreSQL (read committed) both would find nothing and both be
    stored.  PostgreSQL: one transaction-scoped advisory lock per key, taken in order
    (no deadlock); SQLite: nothing to do, its writers already take turns
    (``BEGIN IMMEDIATE``, ``store/db.py:writing``)."""
    if conn.dialect.name != "postgresql":
        return
    for key in sorted(set(name_keys(name))):
        number = int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(),
                                "big", signed=True)
        conn.execute(text("SELECT pg_advisory_xact_lock(:n)"), {"n": number})


def check_person_name(conn: Connection, name: str, account: int | None) -> None:
    """Refuse a name a person typed (a guest: ``account`` None; else the account signed
    in, whose own name passes) that is reserved, or an account's, or looks like either.

    Raises:
        ApiError: 409 ``name-reserved``.
    """
    if is_reserved(name) or account_like(conn, name, but=account) is not None:
        raise ApiError("this name belongs to an account or looks like one: choose another, "
                       "or sign in", "name-reserved", 409)
