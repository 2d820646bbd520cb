"""Storage: the schema, the engine (SQLite or PostgreSQL) and the migrations.

Every accepted event is committed before anyone hears of it; the event log is
append-only and numbered per table, so that a table is rebuilt at start by
replaying its events through the rules core.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

try:
    import fcntl
except ImportError:  # pragma: no cover - not a POSIX system
    fcntl = None  # type: ignore[assignment]

from sqlalchemy import (
    Connection,
    Engine,
    create_engine,
    event,
    insert,
    literal_column,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql.elements import ColumnElement

from ..base.clock import Clock
from .schema import analyses_t, cut_refusals_t, events_t, seats_t, tables_t

T = TypeVar("T")


@dataclass
class SeatRow:
    """One seat of a stored table."""

    seat: int
    kind: str
    bot_level: str | None
    name: str
    token_hash: str | None
    invite_hash: str | None
    take_hash: str | None = None
    """SHA-256 of the token of a person waiting to take this bot's seat at the next deal."""
    take_name: str | None = None
    """That person's name."""
    holder_hash: str | None = None
    """SHA-256 of the browser identity (see ``seating.py``) of the person holding the seat."""
    take_holder: str | None = None
    """SHA-256 of the browser identity of the person asking for this bot's seat."""
    take_approved: bool = False
    """The table's creator approved that request (granted at the next deal boundary)."""
    invite_sealed: str | None = None
    """The unused invite token, sealed with the creator's seat token (``seating.seal``)."""
    left_at: float | None = None
    """When the person ran out of time or left for good (``tables/seat_clocks.py``): a
    stand-in plays the seat."""
    account: str | None = None
    """The username of the account the holder was signed in to when seated (None: a
    guest; ``players/names.py``)."""
    take_account: str | None = None
    """The username of the account of the person asking for this bot's seat, if any."""


def person_fields(seat: SeatRow) -> dict[str, Any]:
    """What the frames say of who holds a person's seat: ``{"profile": URL}`` for a
    signed-in person (their account's page), ``{"guest": True}`` for a guest; nothing
    for a bot's or an open seat (``players/names.py``: a guest's name is never an
    account's, nor like one)."""
    if seat.kind != "human" or seat.token_hash is None:
        return {}
    if seat.account is None:
        return {"guest": True}
    return {"profile": f"/players/{seat.account}"}


@dataclass
class EventRow:
    """One stored event."""

    seq: int
    kind: str
    action: str
    seat: int | None
    data: dict[str, Any] | None
    at: float | None = None
    """When it was committed (epoch seconds, on the server's clock): the clocks replay
    from it (``tables/seat_clocks.py``)."""


@dataclass
class TableRow:
    """A stored table with its seats and events."""

    id: str
    preset: str
    overrides: dict[str, Any]
    num_players: int
    first_dealer: int
    seats: list[SeatRow]
    events: list[EventRow]
    rematch_id: str | None = None
    """The table created by ``POST /tables/{id}/rematch``, if any."""
    created_at: float = 0.0
    creator_seat: int | None = None
    """The seat of the person who created the table (may start it with open seats)."""
    options: dict[str, Any] = field(default_factory=dict)
    """Table-level settings (JSON): ``private`` (not listed, no seat for strangers)."""
    closed_at: float | None = None
    """When the table was closed for want of players (it is then not loaded at start)."""
    broken: str | None = None
    """Why the stored table does not replay (``hub.py:Hub.mark_broken``; closed for good)."""
    refused: list[dict[str, Any]] = field(default_factory=list)
    """The table's stored refused cuts (``commitments.py:cut_refusals_t``), in order:
    ``cut_window.py:CutWindow.restore`` keeps the recent deals' for a reconnecting client."""


def make_engine(url: str) -> Engine:
    """Create the engine; SQLite gets WAL and synchronous=FULL on every connection.

    Raises:
        sqlalchemy.exc.ArgumentError: the URL is not a database URL.
    """
    if url.startswith("sqlite"):
        path = url.split("///", 1)[-1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


def migrate(engine: Engine) -> None:
    """Bring the schema up to date with the migrations shipped in this package.

    Any number of processes may call it at once on one fresh database: they
    migrate one after the other under a lock (PostgreSQL: an advisory lock held
    by the migrating transaction; SQLite: an exclusive ``flock`` on the file
    ``<database>.migrate-lock`` beside it), and each one after the first finds the
    schema up to date.

    Raises:
        alembic.util.CommandError, sqlalchemy.exc.SQLAlchemyError: the
            migration failed (the database is left as the failed step found it).
        OSError: the SQLite lock file cannot be made.
    """
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with sqlite_file_lock(engine, "migrate-lock"), engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.exec_driver_sql("SELECT pg_advisory_xact_lock(7152031)")
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


@contextlib.contextmanager
def sqlite_file_lock(engine: Engine, name: str) -> Iterator[None]:
    """Hold an exclusive ``flock`` on the file ``<database>.<name>`` beside a SQLite file
    database (nothing for other databases, an in-memory SQLite, or where ``fcntl`` does
    not exist); waits for the process that holds it.  The kernel wakes a waiter as soon
    as the lock is let go, where SQLite's own busy wait sleeps in steps of 1 to 100 ms.

    Raises:
        OSError: the lock file cannot be opened.
    """
    database = engine.url.database
    if engine.dialect.name != "sqlite" or not database or database == ":memory:" \
            or database.startswith("file:"):
        yield
        return
    if fcntl is None:  # pragma: no cover - not a POSIX system
        yield
        return
    # a bare descriptor (no Python file object): every write transaction takes it
    fd = os.open(f"{database}.{name}", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # lets go of the lock


@contextlib.contextmanager
def writing(engine: Engine) -> Iterator[Connection]:
    """A write transaction of the server (blocking: call it from a thread), committed
    when the block ends, rolled back if it raises.  On a SQLite file the writers of
    every process and thread first take turns on :func:`sqlite_file_lock`'s
    ``write-lock``, then take SQLite's write lock at once (``BEGIN IMMEDIATE``): one
    writer waits in the kernel and is woken the moment the last one commits, where
    SQLite's busy wait sleeps 1, 2, 5, 10... ms between tries.  Do not nest it in one
    thread (the inner one would wait for the outer one for ever).

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the transaction failed (nothing of it stays).
        OSError: the SQLite lock file cannot be opened.
    """
    with sqlite_file_lock(engine, "write-lock"), engine.begin() as conn:
        if conn.dialect.name == "sqlite":
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        yield conn


async def transact(engine: Engine, clock: Clock, fn: Callable[[Connection, float], T]) -> T:
    """``fn(conn, now)`` in one write transaction (:func:`writing`), in a thread, with
    ``now`` read from ``clock`` there: the lobby's, the arenas' and their routes' way to
    the database off the event loop.

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the transaction failed (nothing of it stays).
    """
    def run() -> T:
        with writing(engine) as conn:
            return fn(conn, clock.time())
    return await asyncio.to_thread(run)


async def transact_once_more(engine: Engine, clock: Clock,
                             fn: Callable[[Connection, float], T]) -> T:
    """:func:`transact`, run again once when it lost a race on a key (another request
    inserted the same row meanwhile: the second run reads it).

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the transaction failed again (nothing stays).
    """
    try:
        return await transact(engine, clock, fn)
    except IntegrityError:
        return await transact(engine, clock, fn)


def insert_table(conn: Connection, row: TableRow) -> None:
    """Insert a new table with its seats, in ``conn``'s transaction; sets ``row.created_at``.

    Raises:
        sqlalchemy.exc.IntegrityError: the id is taken.
    """
    row.created_at = time.time()
    conn.execute(insert(tables_t).values(
        id=row.id, preset=row.preset, overrides=json.dumps(row.overrides),
        num_players=row.num_players, first_dealer=row.first_dealer,
        created_at=row.created_at, rematch_id=row.rematch_id, creator_seat=row.creator_seat,
        options=json.dumps(row.options)))
    conn.execute(insert(seats_t), [
        {"table_id": row.id, "seat": s.seat, "kind": s.kind, "bot_level": s.bot_level,
         "name": s.name, "token_hash": s.token_hash, "invite_hash": s.invite_hash,
         "take_hash": s.take_hash, "take_name": s.take_name, "holder_hash": s.holder_hash,
         "take_holder": s.take_holder, "take_approved": s.take_approved,
         "invite_sealed": s.invite_sealed, "account": s.account,
         "take_account": s.take_account}
        for s in row.seats
    ])


def update_seat(conn: Connection, table_id: str, seat: int, **values: Any) -> None:
    """Change columns of one seat, in ``conn``'s transaction."""
    conn.execute(update(seats_t).where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                 .values(**values))


def set_rematch(conn: Connection, table_id: str, rematch_id: str) -> None:
    """Record that ``rematch_id`` is the rematch of ``table_id``, in ``conn``'s transaction."""
    conn.execute(update(tables_t).where(tables_t.c.id == table_id)
                 .values(rematch_id=rematch_id))


def update_table(conn: Connection, table_id: str, **values: Any) -> None:
    """Change columns of one table (``closed_at``, ``finished_at``), in ``conn``'s transaction."""
    conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(**values))


def save_analysis(conn: Connection, table_id: str, deal: int, samples: int,
                  data: bytes) -> None:
    """Store finished deal ``deal``'s analysis (JSON ``data``) of a table, once: a
    deal already stored (by another process, say) keeps its first analysis."""
    found = conn.execute(select(analyses_t.c.deal).where(
        (analyses_t.c.table_id == table_id) & (analyses_t.c.deal == deal)
        & (analyses_t.c.samples == samples))).first()
    if found is None:
        conn.execute(insert(analyses_t).values(table_id=table_id, deal=deal, samples=samples,
                                               data=data.decode("utf-8"),
                                               created_at=time.time()))


class Store:
    """Reads and writes tables, seats and events.  Blocking: call from a thread."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create_table(self, row: TableRow) -> None:
        """Insert a new table with its seats (no events yet); sets ``row.created_at``.

        Raises:
            sqlalchemy.exc.IntegrityError: the id is taken.
        """
        with writing(self.engine) as conn:
            insert_table(conn, row)

    def append_event(self, table_id: str, ev: EventRow) -> None:
        """Append one event and commit it (the server batches them: see ``writer.py``).

        Raises:
            sqlalchemy.exc.IntegrityError: that sequence number is taken.
        """
        with writing(self.engine) as conn:
            self.insert_events(conn, [(table_id, ev)])

    @staticmethod
    def insert_events(conn: Connection, events: list[tuple[str, EventRow]]) -> None:
        """Insert events, in ``conn``'s transaction (one statement for all of them).

        Raises:
            sqlalchemy.exc.IntegrityError: a sequence number is taken.
        """
        now = time.time()
        conn.execute(insert(events_t), [
            {"table_id": table_id, "seq": ev.seq, "kind": ev.kind, "action": ev.action,
             "seat": ev.seat, "data": None if ev.data is None else json.dumps(ev.data),
             "created_at": now if ev.at is None else ev.at}
            for table_id, ev in events])

    def take_seat(self, table_id: str, seat: int, name: str, token_hash: str) -> None:
        """A person takes a bot's seat: the seat becomes human with this token."""
        with writing(self.engine) as conn:
            update_seat(conn, table_id, seat, kind="human", bot_level=None, name=name,
                        token_hash=token_hash, invite_hash=None, take_hash=None,
                        take_name=None)

    def set_rematch(self, table_id: str, rematch_id: str) -> None:
        """Record that ``rematch_id`` is the rematch of ``table_id``."""
        with writing(self.engine) as conn:
            set_rematch(conn, table_id, rematch_id)

    def load_analyses(self, table_id: str, samples: int) -> dict[int, bytes]:
        """A table's stored deal analyses (``save_analysis``) by deal number."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(analyses_t.c.deal, analyses_t.c.data).where(
                (analyses_t.c.table_id == table_id) & (analyses_t.c.samples == samples)))
            return {r.deal: r.data.encode("utf-8") for r in rows}

    def load_all(self, until: float | None = None) -> list[TableRow]:
        """Every table still in play (neither closed nor known to be finished), with its
        seats and events, in creation and sequence order; with ``until``, not those
        whose running clock ends after it (they wait in the database: :meth:`due_by`)."""
        where = tables_t.c.closed_at.is_(None) & tables_t.c.finished_at.is_(None)
        if until is not None:
            where = where & (tables_t.c.deadline.is_(None) | (tables_t.c.deadline <= until))
        return self._load(where)

    def due_by(self, until: float, limit: int = 1000) -> list[str]:
        """The tables in play whose running clock ends by ``until``, soonest first."""
        with self.engine.connect() as conn:
            return list(conn.execute(
                select(tables_t.c.id).where(
                    tables_t.c.closed_at.is_(None), tables_t.c.finished_at.is_(None),
                    tables_t.c.deadline.is_not(None), tables_t.c.deadline <= until)
                .order_by(tables_t.c.deadline).limit(limit)).scalars())

    def load_one(self, table_id: str) -> TableRow | None:
        """One table with its seats and events (closed or finished ones too), or None."""
        found = self._load(tables_t.c.id == table_id)
        return found[0] if found else None

    def _load(self, where: Any) -> list[TableRow]:
        out: dict[str, TableRow] = {}
        with self.engine.connect() as conn:
            for r in conn.execute(select(tables_t).where(where)
                                  .order_by(tables_t.c.created_at)):
                out[r.id] = TableRow(r.id, r.preset, json.loads(r.overrides), r.num_players,
                                     r.first_dealer, [], [], r.rematch_id, r.created_at,
                                     r.creator_seat, json.loads(r.options or "{}"),
                                     r.closed_at, r.broken)
            if not out:
                return []
            ids = select(tables_t.c.id).where(where).scalar_subquery()
            for r in conn.execute(select(seats_t).where(seats_t.c.table_id.in_(ids))
                                  .order_by(seats_t.c.table_id, seats_t.c.seat)):
                if r.table_id not in out:  # created since the first query
                    continue
                out[r.table_id].seats.append(SeatRow(
                    r.seat, r.kind, r.bot_level, r.name, r.token_hash, r.invite_hash,
                    r.take_hash, r.take_name, r.holder_hash, r.take_holder,
                    bool(r.take_approved), r.invite_sealed, r.left_at, r.account,
                    r.take_account))
            for r in conn.execute(select(events_t).where(events_t.c.table_id.in_(ids))
                                  .order_by(events_t.c.table_id, events_t.c.seq)):
                if r.table_id not in out:
                    continue
                out[r.table_id].events.append(EventRow(
                    r.seq, r.kind, r.action, r.seat,
                    None if r.data is None else json.loads(r.data), r.created_at))
            for r in conn.execute(select(cut_refusals_t)
                                  .where(cut_refusals_t.c.table_id.in_(ids))
                                  .order_by(cut_refusals_t.c.id)):
                if r.table_id in out:
                    out[r.table_id].refused.append(
                        {"deal": r.deal, "seat": r.seat, "rule": r.rule,
                         "message": r.message, "at": r.at})
        return list(out.values())


def now_sql(conn: Connection) -> ColumnElement[float]:
    """The database's clock in epoch seconds, as an SQL expression."""
    if conn.dialect.name == "postgresql":
        return literal_column("extract(epoch from clock_timestamp())::float8")
    return literal_column("((julianday('now') - 2440587.5) * 86400.0)")


def db_now(conn: Connection) -> float:
    """The database's clock now (epoch seconds)."""
    return float(conn.execute(select(now_sql(conn))).scalar_one())
