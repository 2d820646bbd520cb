"""Blocks between accounts (issue 34; docs/events.md, "Blocks and invitations"): an
account blocks another so that the two are kept apart.  The server enforces every
effect; a block works in both directions except where said:

- neither may invite the other to a table (``invites.py``);
- Find players never seats the two in one group (``lobby/seeks.py:plan``);
- the blocked account cannot take an open seat (or ask for a bot's seat) at a table
  where the blocker sits (``web/seat_routes.py``); the blocker may still join a table
  where the blocked one sits (the blocker chose to);
- at a table, neither hears the other's quick messages (``tables/table_blocks.py``);
- an arena never seats the two at one table when another split exists
  (``events/pairing.py``).

A block names accounts, never guests.  At most :data:`MAX_BLOCKS` an account.
Blocking functions (those taking an ``Engine`` or a ``Connection``): in a thread.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import Connection, Engine, and_, delete, func, or_, select

from ..base.errors import ApiError
from ..store.schema import accounts_t, blocks_t, invites_t

MAX_BLOCKS = 1000
"""Accounts one account may block at most."""


def ids_of_names(conn: Connection, names: Iterable[str]) -> dict[str, int]:
    """The live accounts named ``names`` (ignoring case): name as given -> id."""
    wanted = {n.lower(): n for n in names if n}
    if not wanted:
        return {}
    rows = conn.execute(select(accounts_t.c.id, accounts_t.c.username_key).where(
        accounts_t.c.username_key.in_(list(wanted)), accounts_t.c.deleted_at.is_(None)))
    return {wanted[r.username_key]: int(r.id) for r in rows}


def set_block(conn: Connection, blocker: int, name: str, block: bool, now: float) -> str:
    """Block (or, ``block`` False, unblock) the live account ``name`` in ``conn``'s
    transaction; returns its username.  Blocking twice, or unblocking one not blocked,
    changes nothing.  A block deletes the invitations waiting between the two.

    Raises:
        ApiError: 404 ``no-player``, 400 ``block-self``, 409 ``too-many-blocks``
            (:data:`MAX_BLOCKS`): nothing changes.
    """
    row = conn.execute(select(accounts_t.c.id, accounts_t.c.username).where(
        accounts_t.c.username_key == name.lower(),
        accounts_t.c.deleted_at.is_(None))).first()
    if row is None:
        raise ApiError("there is no such player", "no-player", 404)
    target = int(row.id)
    if target == blocker:
        raise ApiError("you cannot block yourself", "block-self")
    if not block:
        conn.execute(delete(blocks_t).where(blocks_t.c.blocker == blocker,
                                            blocks_t.c.blocked == target))
        return str(row.username)
    if has_blocked(conn, blocker, target):
        return str(row.username)
    count = conn.execute(select(func.count()).select_from(blocks_t).where(
        blocks_t.c.blocker == blocker)).scalar_one()
    if count >= MAX_BLOCKS:
        raise ApiError(f"you have blocked {MAX_BLOCKS} players, the most there may be: "
                       "unblock one first", "too-many-blocks", 409)
    conn.execute(blocks_t.insert().values(blocker=blocker, blocked=target, created_at=now))
    conn.execute(delete(invites_t).where(or_(
        and_(invites_t.c.inviter == blocker, invites_t.c.invitee == target),
        and_(invites_t.c.inviter == target, invites_t.c.invitee == blocker))))
    return str(row.username)


def blocked_by(engine: Engine, blocker: int) -> list[str]:
    """The usernames ``blocker`` blocked, newest first (at most :data:`MAX_BLOCKS`)."""
    with engine.connect() as conn:
        rows = conn.execute(select(accounts_t.c.username).select_from(
            blocks_t.join(accounts_t, accounts_t.c.id == blocks_t.c.blocked)).where(
            blocks_t.c.blocker == blocker, accounts_t.c.deleted_at.is_(None))
            .order_by(blocks_t.c.created_at.desc()).limit(MAX_BLOCKS)).scalars().all()
    return [str(r) for r in rows]


def pairs_among(conn: Connection, accounts: Iterable[int]) -> set[frozenset[int]]:
    """The pairs of ``accounts`` kept apart: one blocked the other (either way)."""
    ids = sorted(set(accounts))
    if len(ids) < 2:
        return set()
    rows = conn.execute(select(blocks_t.c.blocker, blocks_t.c.blocked).where(
        blocks_t.c.blocker.in_(ids), blocks_t.c.blocked.in_(ids)))
    return {frozenset((int(r.blocker), int(r.blocked))) for r in rows}


def has_blocked(conn: Connection, blocker: int, blocked: int) -> bool:
    """Whether ``blocker`` blocked ``blocked``."""
    return conn.execute(select(blocks_t.c.blocker).where(
        blocks_t.c.blocker == blocker, blocks_t.c.blocked == blocked)).first() is not None


def blockers_among(conn: Connection, blocked: int, names: Iterable[str]) -> list[str]:
    """Which of the accounts named ``names`` blocked ``blocked`` (their names as given)."""
    ids = ids_of_names(conn, names)
    if not ids:
        return []
    rows = conn.execute(select(blocks_t.c.blocker).where(
        blocks_t.c.blocked == blocked, blocks_t.c.blocker.in_(list(ids.values())))).scalars()
    found = {int(r) for r in rows}
    return [name for name, i in ids.items() if i in found]

