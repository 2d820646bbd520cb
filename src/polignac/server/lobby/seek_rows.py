"""A request to play as the lobby shows it (``seeks.py`` keeps the requests): its clock
and its account, the list of the open requests, and who is online (the ``online``
rows the lobby's polls keep).  Blocking functions (a ``Connection``): in a thread."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from sqlalchemy import Connection, String, cast, func, literal, select

from ..store.schema import identities_t, online_t, seeks_t
from .seeks import COUNTDOWN, CREATING, WAITING, Key, key_of


def touch_online(conn: Connection, identities: Iterable[str], now: float) -> None:
    """Mark these browser identities as seen now (an upsert each)."""
    values = [{"identity_hash": i, "seen_at": now} for i in sorted(set(identities))]
    if not values:
        return
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as upsert
    else:
        from sqlalchemy.dialects.sqlite import insert as upsert  # type: ignore[assignment]
    stmt = upsert(online_t)  # one statement run for every row: compiled once, and cached
    conn.execute(stmt.on_conflict_do_update(index_elements=["identity_hash"],
                                            set_={"seen_at": stmt.excluded.seen_at}), values)


def online_count(conn: Connection, now: float, window: float) -> int:
    """People seen in the last ``window`` seconds: distinct accounts, and guest
    identities linked to none."""
    person = func.coalesce(cast(identities_t.c.account_id, String),
                           literal("g:") + online_t.c.identity_hash)
    return int(conn.execute(
        select(func.count(person.distinct()))
        .select_from(online_t.outerjoin(identities_t, identities_t.c.identity_hash
                                        == online_t.c.identity_hash))
        .where(online_t.c.seen_at >= now - window)).scalar_one())


def listing(conn: Connection, limit_groups: int = 50, limit_names: int = 10
            ) -> list[dict[str, Any]]:
    """The open requests, grouped by what they ask (oldest first): game, count, rated,
    length, how many wait, their names (at most ``limit_names`` each) and the same as
    ``people``: ``{"name", "guest": true}`` for a guest, ``{"name", "profile"}`` (the
    account's page) for an account."""
    rows = conn.execute(select(seeks_t.c.preset, seeks_t.c.players, seeks_t.c.rated,
                               seeks_t.c.deals, seeks_t.c.time_control, seeks_t.c.name,
                               seeks_t.c.person,
                               seeks_t.c.created_at)
                        .where(seeks_t.c.state.in_((WAITING, COUNTDOWN, CREATING)))
                        .order_by(seeks_t.c.created_at, seeks_t.c.id).limit(2000)).all()
    groups: dict[Key, dict[str, Any]] = {}
    for r in rows:
        key = key_of(r)
        if key not in groups:
            if len(groups) >= limit_groups:
                continue
            groups[key] = {"preset": r.preset, "players": r.players, "rated": bool(r.rated),
                           "deals": r.deals, "time_control": control_of(r),
                           "waiting": 0, "names": [], "people": [],
                           "since": r.created_at}
        entry = groups[key]
        entry["waiting"] += 1
        if len(entry["names"]) < limit_names:
            entry["names"].append(r.name)
            account = seek_account(r)
            entry["people"].append({"name": r.name, "guest": True} if account is None
                                   else {"name": r.name, "profile": f"/players/{account}"})
    return list(groups.values())


def control_of(row: Any) -> dict[str, Any] | None:
    """A request's time control (None: an untimed table)."""
    stored: dict[str, Any] | None = (None if row.time_control is None
                                     else json.loads(row.time_control))
    return stored


def stored_control(control: dict[str, Any] | None) -> str | None:
    """A time control (``TimeControl.to_json()``: its fields in one order) as a request
    stores it: one text for equal controls."""
    return None if control is None else json.dumps(control, separators=(",", ":"))


def seek_account(row: Any) -> str | None:
    """The account name of a request's person (its ``name``, the account's username),
    or None for a guest's request."""
    return str(row.name) if str(row.person).startswith("a:") else None
