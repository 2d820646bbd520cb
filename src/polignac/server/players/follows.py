"""Follows: an account follows another to see where it is when it is online
(docs/people.md).  Accounts only: a guest follows nobody and is followed by nobody.

Rows of ``follows`` (follower, followee, created_at).  Blocking functions on a
``Connection`` in the caller's transaction (``store/db.py:transact``): in a thread.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, delete, func, insert, select

from ..base.errors import ApiError
from ..store.schema import accounts_t, follows_t, presence_t

MAX_FOLLOWS = 1000
"""The most accounts one account follows."""


def live_account(conn: Connection, name: str) -> Any:
    """The live account named ``name`` (ignoring case): its ``id`` and ``username``.

    Raises:
        ApiError: none (404 ``no-player``).
    """
    row = conn.execute(select(accounts_t.c.id, accounts_t.c.username).where(
        accounts_t.c.username_key == name.lower(), accounts_t.c.deleted_at.is_(None))).first()
    if row is None:
        raise ApiError("there is no such player", "no-player", 404)
    return row


def follow(conn: Connection, follower: int, name: str, now: float) -> int:
    """``follower`` follows the account ``name`` (again: nothing changes); its id.  The
    follower's account row is locked first (PostgreSQL), so that follows sent at once
    never pass :data:`MAX_FOLLOWS`.

    Raises:
        ApiError: ``no-player`` (404), ``follow-self`` (400), ``too-many-follows`` (409).
    """
    target = live_account(conn, name)
    if target.id == follower:
        raise ApiError("you cannot follow yourself", "follow-self")
    conn.execute(select(accounts_t.c.id).where(accounts_t.c.id == follower)
                 .with_for_update()).first()
    if is_following(conn, follower, target.id):
        return int(target.id)
    if following_count(conn, follower) >= MAX_FOLLOWS:
        raise ApiError(f"you follow {MAX_FOLLOWS} players already: stop following one "
                       "first", "too-many-follows", 409, extra={"max": MAX_FOLLOWS})
    conn.execute(insert(follows_t).values(follower=follower, followee=target.id,
                                          created_at=now))
    return int(target.id)


def unfollow(conn: Connection, follower: int, name: str) -> int:
    """``follower`` stops following the account ``name`` (not following: nothing
    changes); its id.

    Raises:
        ApiError: ``no-player`` (404).
    """
    target = live_account(conn, name)
    conn.execute(delete(follows_t).where(follows_t.c.follower == follower,
                                         follows_t.c.followee == target.id))
    return int(target.id)


def is_following(conn: Connection, follower: int, followee: int) -> bool:
    """Whether ``follower`` follows ``followee``."""
    return conn.execute(select(follows_t.c.follower).where(
        follows_t.c.follower == follower, follows_t.c.followee == followee)).first() is not None


def following_count(conn: Connection, account_id: int) -> int:
    """How many accounts ``account_id`` follows."""
    return int(conn.execute(select(func.count()).select_from(follows_t).where(
        follows_t.c.follower == account_id)).scalar_one())


def followers_count(conn: Connection, account_id: int) -> int:
    """How many live accounts follow ``account_id``."""
    return int(conn.execute(select(func.count()).select_from(
        follows_t.join(accounts_t, accounts_t.c.id == follows_t.c.follower)).where(
        follows_t.c.followee == account_id, accounts_t.c.deleted_at.is_(None))).scalar_one())


def followed(conn: Connection, follower: int) -> list[Any]:
    """The live accounts ``follower`` follows (``id``, ``username``, ``created_at``: when
    it began following), by name; at most :data:`MAX_FOLLOWS`."""
    return list(conn.execute(
        select(accounts_t.c.id, accounts_t.c.username, follows_t.c.created_at)
        .join(accounts_t, accounts_t.c.id == follows_t.c.followee)
        .where(follows_t.c.follower == follower, accounts_t.c.deleted_at.is_(None))
        .order_by(accounts_t.c.username_key).limit(MAX_FOLLOWS)).all())


def forget(conn: Connection, account_id: int) -> None:
    """A deleted account's follows (both ways) and presence go."""
    conn.execute(delete(follows_t).where((follows_t.c.follower == account_id)
                                         | (follows_t.c.followee == account_id)))
    conn.execute(delete(presence_t).where(presence_t.c.account_id == account_id))
