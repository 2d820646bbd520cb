"""Presence with a place: where an account is while it is online (docs/people.md).

What a person's browser already does marks them in the process's memory
(:class:`Places`): the lobby's poll (``GET /api/seeks``) marks *the lobby*, a
connection to a table's socket *that table*, an arena page's socket *that arena*.
Find players' round (``lobby/matchmaker.py``), every ``seek_tick`` seconds, writes the
marks into ``presence`` in its one transaction: each account's row only when its
place changed, or again once a third of ``online_window`` has passed (as the
``online`` rows), so a process writes nothing for a frame and little for a poll.
An account is *online* while its row was written in the last ``online_window``
seconds of the server's clock, on any process; the row stays as *last seen*.

An account that chose not to show it (``hidden``) is never shown online, nor its
last place and time, to anyone.  Blocking functions take a ``Connection`` (in a thread).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, func, select

from ..store.schema import accounts_t, presence_t, tables_t, tournaments_t

LOBBY, TABLE, ARENA = "lobby", "table", "arena"
RANK = {LOBBY: 0, ARENA: 1, TABLE: 2}
"""Which place says more, for a person in several (a table's tab beats the lobby's)."""
MAX_MARKS = 100_000
"""Marks kept at most between two rounds (a bound, should the rounds not run)."""
MAX_ONLINE_NAMES = 50
"""Names the lobby's *Online now* lists at most."""


@dataclass(frozen=True)
class Place:
    """Where an account is: ``kind`` (:data:`LOBBY`, :data:`TABLE`, :data:`ARENA`), the
    table's or tournament's id, and whether the table may be watched from a link (a
    public table: a private one's address is given to nobody)."""

    kind: str
    ref: str | None = None
    watch: bool = False


def _keep(marks: dict[str, Place], name: str, place: Place) -> None:
    """Mark ``name`` at ``place`` unless it is marked at a place that says more."""
    key = name.lower()
    old = marks.get(key)
    if old is None or RANK[place.kind] >= RANK[old.kind]:
        marks[key] = place


class Places:
    """One process's presence marks by account name (lower case), written by the
    matchmaker's round; use from the event loop only."""

    def __init__(self) -> None:
        self.marks: dict[str, Place] = {}
        """Places seen since the last round (a lobby's polls)."""
        self.held: dict[int, tuple[str, Place]] = {}
        """Places held by open connections (an arena page's socket), by handle."""
        self.written: dict[str, tuple[float, Place]] = {}
        """When (monotonic) and where each account's row was last written here."""
        self._handles = 0

    def mark(self, name: str, place: Place) -> None:
        """``name`` was seen at ``place`` (the next round writes it)."""
        if len(self.marks) > MAX_MARKS:
            self.marks.clear()
        _keep(self.marks, name, place)

    def hold(self, name: str, place: Place) -> int:
        """``name`` is at ``place`` until :meth:`release` of the handle returned."""
        self._handles += 1
        self.held[self._handles] = (name, place)
        return self._handles

    def release(self, handle: int) -> None:
        """The connection of ``handle`` closed."""
        self.held.pop(handle, None)

    def due(self, mono: float, every: float, seated: Iterable[tuple[str, Place]]
            ) -> dict[str, Place]:
        """The rows a round writes: every account marked, held or ``seated`` (name,
        place) whose place changed since this process last wrote it, or whose row was
        written ``every`` seconds ago or more.  The marks are taken (see :meth:`failed`)."""
        marks, self.marks = self.marks, {}
        for name, place in [*self.held.values(), *seated]:
            _keep(marks, name, place)
        written = self.written
        for name in [n for n, (at, _p) in written.items() if at <= mono - every]:
            del written[name]  # due again (and the dict stays bounded by the window)
        return {n: p for n, p in marks.items() if n not in written or written[n][1] != p}

    def wrote(self, due: dict[str, Place], mono: float) -> None:
        """The round wrote ``due``."""
        self.written.update({n: (mono, p) for n, p in due.items()})

    def failed(self, due: dict[str, Place]) -> None:
        """The round failed: its marks go to the next one."""
        for name, place in due.items():
            _keep(self.marks, name, place)


def write(conn: Connection, due: dict[str, Place], now: float) -> None:
    """Write ``due`` (account names in lower case, their places) as seen ``now``: one
    row per live account (names of no live account are skipped)."""
    if not due:
        return
    ids = {r.username_key: r.id for r in conn.execute(
        select(accounts_t.c.id, accounts_t.c.username_key).where(
            accounts_t.c.username_key.in_(sorted(due)), accounts_t.c.deleted_at.is_(None)))}
    values = [{"account_id": ids[n], "seen_at": now, "place": p.kind, "ref": p.ref,
               "watch": p.watch, "hidden": False} for n, p in sorted(due.items()) if n in ids]
    if values:
        _upsert(conn, values, ["seen_at", "place", "ref", "watch"])


def _upsert(conn: Connection, values: list[dict[str, Any]], fields: list[str]) -> None:
    """Insert ``presence`` rows, or on an account's row already there set ``fields``."""
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as upsert
    else:
        from sqlalchemy.dialects.sqlite import insert as upsert  # type: ignore[assignment]
    stmt = upsert(presence_t)
    conn.execute(stmt.on_conflict_do_update(
        index_elements=["account_id"], set_={f: stmt.excluded[f] for f in fields}), values)


def set_hidden(conn: Connection, account_id: int, hidden: bool) -> None:
    """The account's choice: shown when online (False) or never (True)."""
    _upsert(conn, [{"account_id": account_id, "seen_at": None, "place": None, "ref": None,
                    "watch": False, "hidden": hidden}], ["hidden"])


def is_hidden(conn: Connection, account_id: int) -> bool:
    """Whether the account chose not to show when it is online (default: shown)."""
    found = conn.execute(select(presence_t.c.hidden).where(
        presence_t.c.account_id == account_id)).first()
    return bool(found is not None and found.hidden)


def presence_of(conn: Connection, ids: Iterable[int], now: float, window: float
                ) -> dict[int, dict[str, Any] | None]:
    """What may be shown of each account's presence: None for one hidden or never seen,
    else ``{"online", "last_seen", "ago", "place", "url", "preset"}`` (``ago``: seconds
    since ``last_seen``, by the server's clock; ``place``, ``url`` and
    ``preset`` only while online: ``url`` a public table's page, to watch it, or the
    arena's; ``preset`` the table's or the arena's game)."""
    wanted = sorted(set(ids))
    out: dict[int, dict[str, Any] | None] = dict.fromkeys(wanted)
    rows = []
    for start in range(0, len(wanted), 500):  # the database's bound on parameters
        rows += conn.execute(select(presence_t).where(
            presence_t.c.account_id.in_(wanted[start:start + 500]))).all()
    live = [r for r in rows if not r.hidden and r.seen_at is not None]
    online = {r.account_id for r in live if r.seen_at >= now - window}
    tables = _presets(conn, tables_t, {r.ref for r in live if r.account_id in online
                                       and r.place == TABLE})
    arenas = _presets(conn, tournaments_t, {r.ref for r in live if r.account_id in online
                                            and r.place == ARENA})
    for r in live:
        shown: dict[str, Any] = {"online": r.account_id in online, "last_seen": r.seen_at,
                                 "ago": max(0, round(now - r.seen_at)),
                                 "place": None, "url": None, "preset": None}
        if r.account_id in online:
            shown["place"] = r.place
            if r.place == TABLE:
                shown["preset"] = tables.get(r.ref)
                shown["url"] = f"/tables/{r.ref}" if r.watch else None
            elif r.place == ARENA:
                shown["preset"] = arenas.get(r.ref)
                shown["url"] = f"/tournaments/{r.ref}"
        out[r.account_id] = shown
    return out


def _presets(conn: Connection, table: Any, refs: set[str]) -> dict[str, str]:
    """The game (preset) of each of these tables or tournaments."""
    if not refs:
        return {}
    return {r.id: r.preset for r in conn.execute(
        select(table.c.id, table.c.preset).where(table.c.id.in_(sorted(refs))))}


def online_names(conn: Connection, now: float, window: float,
                 limit: int = MAX_ONLINE_NAMES) -> tuple[list[str], int]:
    """The accounts online now that show it: at most ``limit`` names, by name, and
    how many there are."""
    where = (presence_t.c.seen_at >= now - window, presence_t.c.hidden.is_(False),
             accounts_t.c.deleted_at.is_(None))
    joined = presence_t.join(accounts_t, accounts_t.c.id == presence_t.c.account_id)
    count = int(conn.execute(select(func.count()).select_from(joined).where(*where))
                .scalar_one())
    names = [r.username for r in conn.execute(
        select(accounts_t.c.username).select_from(joined).where(*where)
        .order_by(accounts_t.c.username_key).limit(limit))]
    return names, count

