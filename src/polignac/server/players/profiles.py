"""What a player's profile, the leaderboards and an account's export read: each
account's ratings with their history, statistics per game, finished and unfinished
games (blocking database work: call it in a thread; the routes are in
``web/profile_routes.py``).
"""

from __future__ import annotations

import json
import time
from typing import Any

from sqlalchemy import Engine, and_, case, func, select

from ...core import PRESETS
from ..store.schema import (
    STATS,
    accounts_t,
    history_t,
    identities_t,
    match_results_t,
    match_seats_t,
    ratings_t,
    seats_t,
    tables_t,
)
from .accounts import Account
from .conduct import abandoned_count, banned_until
from .follows import followed
from .ratings import Rating

PAGE = 20
"""Finished games a page."""
BOARD = 100
"""Ratings on a leaderboard."""
POOLS = tuple(sorted({r.family.name for r in PRESETS.values()}))
"""The rating pools: one per game family."""
DEFAULT_POOL = next(iter(PRESETS.values())).family.name
"""The leaderboard shown without ``?pool=``: the family of the first preset."""
MAX_PAGE = 100_000


def pool_of_preset() -> dict[str, str]:
    return {name: r.family.name for name, r in PRESETS.items()}


def ratings_of(conn: Any, account_id: int) -> dict[str, Any]:
    """The account's rating in each pool it played rated, with its history."""
    out: dict[str, Any] = {}
    for r in conn.execute(select(ratings_t).where(ratings_t.c.account_id == account_id)):
        out[r.pool] = {**Rating(r.mu, r.sigma, r.matches).shown(), "history": []}
    for h in conn.execute(select(history_t).where(history_t.c.account_id == account_id)
                          .order_by(history_t.c.seq)):
        if h.pool in out:
            out[h.pool]["history"].append({"seq": h.seq, "at": h.at, "table": h.table_id,
                                           "rating": round(h.mu * 60),
                                           "deviation": round(h.sigma * 60)})
    return out


def stats_of(conn: Any, account_id: int) -> dict[str, Any]:
    """Per game (preset) the account finished: matches, matches won and :data:`STATS`
    added up, with the mean points a deal."""
    cols = [func.count().label("matches"),
            func.sum(case((match_seats_t.c.won, 1), else_=0)).label("won"),
            *(func.sum(match_seats_t.c[name]).label(name) for name in STATS)]
    out: dict[str, Any] = {}
    for r in conn.execute(select(match_seats_t.c.preset, *cols)
                          .where(match_seats_t.c.account_id == account_id)
                          .group_by(match_seats_t.c.preset)):
        entry: dict[str, Any] = {"matches": int(r.matches), "won": int(r.won or 0),
                 **{name: int(getattr(r, name) or 0) for name in STATS}}
        entry["mean_points"] = round(entry["points"] / entry["deals"], 3) if entry["deals"] \
            else None
        out[r.preset] = entry
    return out


def games_of(conn: Any, account_id: int, page: int) -> list[dict[str, Any]]:
    """One page of the account's finished games, newest first, with every seat's name
    and place."""
    mine = conn.execute(
        select(match_seats_t, match_results_t.c.rated)
        .join(match_results_t, match_results_t.c.table_id == match_seats_t.c.table_id)
        .where(match_seats_t.c.account_id == account_id)
        .order_by(match_seats_t.c.finished_at.desc(), match_seats_t.c.table_id)
        .limit(PAGE).offset(page * PAGE)).all()
    ids = [r.table_id for r in mine]
    others: dict[str, list[dict[str, Any]]] = {}
    if ids:
        for r in conn.execute(select(match_seats_t.c.table_id, match_seats_t.c.seat,
                                     match_seats_t.c.name, match_seats_t.c.kind,
                                     match_seats_t.c.bot_level, match_seats_t.c.place)
                              .where(match_seats_t.c.table_id.in_(ids))
                              .order_by(match_seats_t.c.seat)):
            others.setdefault(r.table_id, []).append(
                {"seat": r.seat, "name": r.name, "kind": r.kind, "level": r.bot_level,
                 "place": r.place})
    return [{"table": r.table_id, "preset": r.preset, "finished_at": r.finished_at,
             "seat": r.seat, "place": r.place, "score": r.score, "won": bool(r.won),
             "rated": bool(r.rated), "deals": r.deals, "seats": others.get(r.table_id, []),
             "replay": f"/tables/{r.table_id}/replay", "url": f"/tables/{r.table_id}"}
            for r in mine]


def unfinished_of(conn: Any, account_id: int) -> list[dict[str, Any]]:
    """The tables where one of the account's identities holds a seat, neither finished
    nor closed (at most 50, newest first)."""
    rows = conn.execute(
        select(tables_t.c.id, tables_t.c.preset, tables_t.c.created_at, seats_t.c.seat)
        .join(seats_t, seats_t.c.table_id == tables_t.c.id)
        .join(identities_t, identities_t.c.identity_hash == seats_t.c.holder_hash)
        .outerjoin(match_results_t, match_results_t.c.table_id == tables_t.c.id)
        .where(identities_t.c.account_id == account_id, match_results_t.c.table_id.is_(None),
               tables_t.c.closed_at.is_(None), tables_t.c.finished_at.is_(None))
        .order_by(tables_t.c.created_at.desc()).limit(50)).all()
    return [{"table": r.id, "preset": r.preset, "created_at": r.created_at, "seat": r.seat,
             "url": f"/tables/{r.id}"} for r in rows]


def turns_of(engine: Engine, account_id: int | None, identity: str | None
             ) -> list[dict[str, Any]]:
    """"Your turn": the timed tables in play where the seat whose clock runs is held by
    the account (any of its browsers) or, for a guest, by this browser ``identity``,
    soonest deadline first (at most 100)."""
    if account_id is None and identity is None:
        return []
    query = (select(tables_t.c.id, tables_t.c.preset, tables_t.c.deadline,
                    tables_t.c.options, seats_t.c.seat)
             .join(seats_t, (seats_t.c.table_id == tables_t.c.id)
                   & (seats_t.c.seat == tables_t.c.to_move))
             .where(tables_t.c.to_move.is_not(None), tables_t.c.finished_at.is_(None),
                    tables_t.c.closed_at.is_(None), seats_t.c.left_at.is_(None)))
    if account_id is not None:
        query = query.join(identities_t, identities_t.c.identity_hash == seats_t.c.holder_hash
                           ).where(identities_t.c.account_id == account_id)
    else:
        query = query.where(seats_t.c.holder_hash == identity)
    with engine.connect() as conn:
        rows = conn.execute(query.order_by(tables_t.c.deadline).limit(100)).all()
    out = []
    for r in rows:
        control = json.loads(r.options or "{}").get("time_control")
        out.append({"table": r.id, "url": f"/tables/{r.id}", "preset": r.preset,
                    "seat": r.seat, "deadline": r.deadline, "time_control": control})
    return out


def profile_data(engine: Engine, username: str, page: int, own: bool
                 ) -> dict[str, Any] | None:
    """The profile of ``username`` (None: no such live account)."""
    with engine.connect() as conn:
        row = conn.execute(select(accounts_t).where(
            accounts_t.c.username_key == username.lower(),
            accounts_t.c.deleted_at.is_(None))).first()
        if row is None:
            return None
        total = conn.execute(select(func.count()).select_from(match_seats_t).where(
            match_seats_t.c.account_id == row.id)).scalar_one()
        out = {"username": row.username, "created_at": row.created_at,
               "ratings": ratings_of(conn, row.id), "stats": stats_of(conn, row.id),
               "games": games_of(conn, row.id, page), "page": page, "page_size": PAGE,
               "games_total": int(total), "own": own,
               "abandoned": abandoned_count(conn, row.id)}
        if own:
            out["unfinished"] = unfinished_of(conn, row.id)
            out["rated_closed_until"] = banned_until(conn, row.id, time.time())
        return out


def leaderboard_data(engine: Engine, pool: str) -> list[dict[str, Any]]:
    """The best :data:`BOARD` ratings of ``pool`` by ``mu - 3 sigma`` (deleted accounts
    left out)."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(ratings_t, accounts_t.c.username)
            .join(accounts_t, and_(accounts_t.c.id == ratings_t.c.account_id,
                                   accounts_t.c.deleted_at.is_(None)))
            .where(ratings_t.c.pool == pool)
            .order_by(ratings_t.c.ordinal.desc(), ratings_t.c.account_id)
            .limit(BOARD)).all()
    return [{"rank": i + 1, "username": r.username, "profile": f"/players/{r.username}",
             **Rating(r.mu, r.sigma, r.matches).shown()} for i, r in enumerate(rows)]


def export_data(engine: Engine, account: Account) -> dict[str, Any]:
    """Everything stored about ``account`` that is its own: for ``GET /api/account/export``."""
    with engine.connect() as conn:
        games = [dict(r._mapping) for r in conn.execute(
            select(match_seats_t).where(match_seats_t.c.account_id == account.id)
            .order_by(match_seats_t.c.finished_at))]
        for g in games:
            g.pop("holder_hash", None)
        history = [dict(r._mapping) for r in conn.execute(
            select(history_t).where(history_t.c.account_id == account.id)
            .order_by(history_t.c.seq))]
        return {"format": "polignac-account/1",
                "account": {"username": account.username, "created_at": account.created_at},
                "games": games, "ratings": ratings_of(conn, account.id),
                "rating_history": history,
                "following": [{"username": r.username, "since": r.created_at}
                              for r in followed(conn, account.id)]}
