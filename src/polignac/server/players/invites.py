"""Invitations between accounts (issue 34; docs/events.md, "Blocks and invitations"):
an account seated at a table with an open seat invites another account to it.  The
invitations are rows of the database (``invites``, migration 0022), so every process
sees them; each lives :data:`INVITE_SECONDS` on the server's clock.

- One pending invitation per (inviter, invitee, table): inviting again while one waits
  answers the same and stores (and pushes) nothing new.
- Neither of two accounts where one blocked the other invites the other
  (``blocks.py``).  An inviter who blocked the invitee is told so; an invitee who
  blocked the inviter is not revealed: the inviter gets the same answer as for an
  invitation sent, and nothing is stored or sent.
- An invitee sees at most :data:`MAX_LISTED` invitations, newest first.

Blocking functions (those taking a ``Connection``): in a thread.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, delete, or_, select

from ..base.errors import ApiError
from ..store.schema import accounts_t, invites_t, seats_t, tables_t
from .blocks import has_blocked
from .profiles import unfinished_of

INVITE_SECONDS = 600.0
"""Seconds an invitation waits for its answer."""
MAX_LISTED = 20
"""Invitations an invitee is shown at most."""
ID_CHARS = 16
"""Characters of an invitation's id (base64url)."""


@dataclass(frozen=True)
class Sent:
    """What :func:`create` did: the invitee's account id and username, when the
    invitation expires, and whether a new one was stored (to push)."""

    invitee: int
    username: str
    expires_at: float
    invite_id: str | None


def create(conn: Connection, now: float, inviter: int, name: str, table_id: str) -> Sent:
    """Invite the live account ``name`` to ``table_id`` for ``inviter`` (whose seat and
    the table's open seat the caller checked).

    Raises:
        ApiError: 404 ``no-player``, 400 ``invite-self``, 409 ``you-blocked`` (the
            inviter blocked them): nothing stored.
    """
    row = conn.execute(select(accounts_t.c.id, accounts_t.c.username).where(
        accounts_t.c.username_key == name.lower(), accounts_t.c.deleted_at.is_(None))).first()
    if row is None:
        raise ApiError("there is no such player", "no-player", 404)
    invitee = int(row.id)
    if invitee == inviter:
        raise ApiError("you cannot invite yourself", "invite-self")
    conn.execute(delete(invites_t).where(
        or_(invites_t.c.inviter == inviter, invites_t.c.invitee == invitee),
        invites_t.c.expires_at <= now))
    if has_blocked(conn, inviter, invitee):
        raise ApiError(f"you blocked {row.username}: unblock them on their page to "
                       "invite them", "you-blocked", 409)
    if has_blocked(conn, invitee, inviter):  # not revealed: the answer of one sent
        return Sent(invitee, str(row.username), now + INVITE_SECONDS, None)
    pending = conn.execute(select(invites_t.c.expires_at).where(
        invites_t.c.inviter == inviter, invites_t.c.invitee == invitee,
        invites_t.c.table_id == table_id)).first()
    if pending is not None:
        return Sent(invitee, str(row.username), float(pending.expires_at), None)
    invite_id = secrets.token_urlsafe(12)[:ID_CHARS]
    conn.execute(invites_t.insert().values(
        id=invite_id, inviter=inviter, invitee=invitee, table_id=table_id, created_at=now,
        expires_at=now + INVITE_SECONDS))
    return Sent(invitee, str(row.username), now + INVITE_SECONDS, invite_id)


def pending_for(conn: Connection, invitee: int, now: float) -> list[dict[str, Any]]:
    """The invitations waiting for ``invitee``, newest first (at most
    :data:`MAX_LISTED`): id, table, game, who invited, when it expires, the join page."""
    inviter = accounts_t.alias("inviter")
    rows = conn.execute(select(invites_t, inviter.c.username, tables_t.c.preset)
                        .select_from(invites_t
                                     .join(inviter, inviter.c.id == invites_t.c.inviter)
                                     .outerjoin(tables_t, tables_t.c.id == invites_t.c.table_id))
                        .where(invites_t.c.invitee == invitee, invites_t.c.expires_at > now)
                        .order_by(invites_t.c.created_at.desc(), invites_t.c.id)
                        .limit(MAX_LISTED)).all()
    return [{"id": r.id, "table": r.table_id, "preset": r.preset, "from": r.username,
             "profile": f"/players/{r.username}", "expires_at": r.expires_at,
             "url": join_url(r.table_id, r.id)} for r in rows]


def join_url(table_id: str, invite_id: str) -> str:
    """The page where the invitee takes the seat."""
    return f"/tables/{table_id}/invited/{invite_id}"


def valid(conn: Connection, invite_id: str, invitee: int, table_id: str,
          now: float) -> Any:
    """The invitation ``invite_id`` of ``invitee`` to ``table_id``, unexpired, with its
    inviter's username; else None."""
    return conn.execute(select(invites_t, accounts_t.c.username).select_from(
        invites_t.join(accounts_t, accounts_t.c.id == invites_t.c.inviter)).where(
        invites_t.c.id == invite_id, invites_t.c.invitee == invitee,
        invites_t.c.table_id == table_id, invites_t.c.expires_at > now)).first()


def remove(conn: Connection, invite_id: str, invitee: int) -> bool:
    """Delete the invitee's invitation ``invite_id`` (declined, or used); False if there
    was none."""
    gone = conn.execute(delete(invites_t).where(invites_t.c.id == invite_id,
                                                invites_t.c.invitee == invitee))
    return bool(gone.rowcount)



def tables_of(conn: Connection, account: int) -> list[dict[str, Any]]:
    """The tables ``account`` sits at (``profiles.py:unfinished_of``) that have an open
    seat to invite to: table, game, url, how many seats are open (newest first)."""
    mine = unfinished_of(conn, account)
    if not mine:
        return []
    ids = [m["table"] for m in mine]
    rows = conn.execute(select(seats_t.c.table_id).where(
        seats_t.c.table_id.in_(ids), seats_t.c.kind == "human",
        seats_t.c.token_hash.is_(None))).scalars().all()
    open_ = {i: rows.count(i) for i in set(rows)}
    return [{"table": m["table"], "preset": m["preset"], "url": m["url"],
             "open": open_[m["table"]]} for m in mine if m["table"] in open_]
