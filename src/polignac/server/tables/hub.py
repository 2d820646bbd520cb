"""The hub: every table of this server process, and the storage behind them.

It keeps the registry of tables in memory (loading one from the database on
demand, or taking it over from a process that died), creates tables (from the
lobby's form, Play now, the guided deal, a rematch) and hands out seats
(invites, rematch seats, the cookies that name a seat).  The HTTP routes
(``lobby_routes.py``, ``seat_routes.py``) and the socket session
(``session.py``) call it; ``cluster.py`` calls :meth:`Hub.adopt`,
:meth:`Hub.drop` and :meth:`Hub.find`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from typing import Any

from starlette.requests import HTTPConnection

from ...bots.registry import make_bot
from ...core import PRESETS, PolignacError, get_rules
from ...i18n import bot_name, default_name
from ..base.config import ServerConfig
from ..base.errors import ApiError, rules_refused
from ..base.health import LagMonitor
from ..base.seating import KeyedRateLimit, seal
from ..base.security import hash_token, new_token
from ..jobs.botmoves import BotBackend, PoolBackend, backend_for
from ..jobs.botqueue import heavy_pool_for
from ..jobs.workers import WorkerPool
from ..players.push import PushSender
from ..players.ratings import changes_of
from ..store.db import (
    SeatRow,
    Store,
    TableRow,
    insert_table,
    make_engine,
    migrate,
    set_rematch,
    update_table,
)
from ..store.ids import TABLE_ID
from ..store.writer import Writer
from .connections import ClientSockets
from .guide import Guide
from .hub_away import HubAway
from .hub_room import HubRoom
from .hub_seats import HubSeats
from .solo import Ownership, Solo
from .tables import GameTable

log = logging.getLogger("polignac.server")
CANNOT_REPLAY = "cannot-replay"
"""What :meth:`Hub.adopt` answers for a table whose events do not replay."""


class Hub(HubSeats, HubAway, HubRoom):
    """Every table of this server process, and the storage behind them."""

    def __init__(self, config: ServerConfig, bots: BotBackend | None = None,
                 ownership: Callable[[Hub], Ownership] | None = None) -> None:
        """``ownership`` makes the hub's :class:`Ownership` (the app passes the cluster's
        when ``config.clustered``); without it, :class:`Solo`."""
        self.config = config
        self.clock = config.clock
        """The server's one clock (``base/clock.py``)."""
        # Bot moves: a pool of their own (docs/server.md, "Bot moves"), unless given
        # (a backend given is not stopped with the hub: tests share one).
        self.own_bots = bots is None
        self.bots: BotBackend = bots or backend_for(config)  # --bot-queue or a local pool
        self.tables: dict[str, GameTable] = {}
        self.store: Store | None = None
        self.writer: Writer | None = None
        self.create_limit = KeyedRateLimit(config.create_per_minute, config.create_burst,
                                           clock=config.clock)
        self.take_limit = KeyedRateLimit(config.take_per_minute, config.take_burst,
                                         clock=config.clock)
        """Requests for a seat per address and per browser, server-wide."""
        self.unsat: dict[str, float] = {}
        """Tables made for Find players groups that nobody has sat at yet (id -> when, on
        ``clock.monotonic()``): not counted against ``max_tables`` (:meth:`counted`)."""
        self.loading: dict[str, asyncio.Task[GameTable | None]] = {}
        self.broken: set[str] = set()
        """Tables found not to replay (``mark_broken``): never tried again here."""
        self.workers = WorkerPool(config.workers, config.job_seconds,
                                  memory_mb=config.worker_memory_mb,
                                  preload=("polignac.server.web.replay_routes",))
        self.heavy = heavy_pool_for(config, self.workers)  # hints, analyses: --bot-queue
        self.lag = LagMonitor(warn=config.lag_warn_ms / 1000)
        self.sockets = ClientSockets(config.max_connections_per_client)
        # Several processes (docs/server.md, "Several processes"): leases, bus, forwarding.
        # One process: a stand-in with the same calls (no bus, no lease, nothing forwarded).
        self.cluster: Ownership = ownership(self) if ownership is not None else Solo()
        self.sweeper: asyncio.Task[None] | None = None
        """Loads stored tables whose clock ends soon (:meth:`_sweep`)."""
        self.push: PushSender | None = None
        """Web Push (``players/push.py``), once the database is open."""
        self.started = False
        """True once :meth:`start` has finished (``GET /ready``)."""

    async def start(self) -> None:
        """Open the database, migrate it, rebuild every table by replaying its events.

        Raises:
            sqlalchemy.exc.SQLAlchemyError: the database cannot be opened or migrated.
        """
        self.lag.start()
        if self.config.warm_workers:
            await asyncio.to_thread(self.workers.start)
            if isinstance(self.bots, PoolBackend) and self.own_bots:
                await asyncio.to_thread(self.bots.start)
        engine = make_engine(self.config.url())
        await asyncio.to_thread(migrate, engine)
        self.store = Store(engine)
        self.push = PushSender(engine, self.config)
        self.writer = Writer(self.store)
        self.writer.start()
        await self.cluster.start()
        if not self.cluster.loads_all:  # tables come by request, or are taken over
            self.sweeper = asyncio.get_running_loop().create_task(self._sweep())
            self.started = True
            return
        later = self.clock.time() + self.config.load_ahead_seconds
        for row in await asyncio.to_thread(self.store.load_all, later):
            try:
                table = GameTable(row, self.writer, self.config)
            except PolignacError as exc:
                await self.mark_broken(row.id, exc)
                continue
            self._register(table)
            await self._rated_end(table)
            table.wake()
            table.presence.grace_all()  # nobody is connected yet: grace periods start now
        # once they are all loaded: a sweep meanwhile would load some of them twice
        self.sweeper = asyncio.get_running_loop().create_task(self._sweep())
        self.started = True

    async def _rated_end(self, table: GameTable) -> None:
        """A finished rated table loaded again says its end again (``ratings``)."""
        if table.match.finished and table.options.get("rated") and self.store is not None:
            table.rating_changes = await asyncio.to_thread(changes_of, self.store.engine,
                                                           table.id)

    def _register(self, table: GameTable) -> None:
        """Keep ``table`` in memory until it is unloaded (:meth:`unload`)."""
        self.tables[table.id] = table
        table.idle.on_idle = self.unload
        table.on_fenced = self._fenced
        table.bot_driver.backend = self.bots
        table.on_notice = self._notice
        table.idle.settle()

    async def find(self, table_id: str) -> GameTable | None:
        """The table ``table_id``: in memory, or loaded from the database (a closed or
        finished table that left memory: it comes back paused, and leaves again), or
        None when there is no such table.

        Raises:
            sqlalchemy.exc.SQLAlchemyError: the database cannot be read.
        """
        table = self.tables.get(table_id)
        if table is not None or not TABLE_ID.fullmatch(table_id) or self.store is None:
            return table
        task = self.loading.get(table_id)
        if task is None:
            task = self.loading[table_id] = asyncio.get_running_loop().create_task(
                self._load(table_id))
            task.add_done_callback(lambda _t: self.loading.pop(table_id, None))
        return await asyncio.shield(task)

    async def _load(self, table_id: str, adopt: bool = False) -> GameTable | None:
        """Load ``table_id`` (None: no such table, or another process owns it); with
        several processes, only once its lease is this process's.  ``adopt``: taken
        over from a process that died, it plays on as after a restart (else it comes
        back paused until a person connects)."""
        assert self.store is not None and self.writer is not None
        store, writer = self.store, self.writer
        if not await self.cluster.acquire(table_id):
            return None
        row = await asyncio.to_thread(store.load_one, table_id)
        if row is None:
            await self.cluster.release(table_id)
            return None
        if table_id in self.tables:  # created meanwhile
            return self.tables[table_id]
        try:
            if row.broken is not None:  # marked once: never replayed again
                self.broken.add(table_id)
                raise PolignacError(row.broken)
            table = await asyncio.to_thread(GameTable, row, writer, self.config)
        except PolignacError as exc:
            if row.broken is None:
                await self.mark_broken(table_id, exc)
            await self.cluster.release(table_id)
            return None
        await self._rated_end(table)
        waits = table.seat_clocks.control is not None and \
            table.seat_clocks.control.correspondence  # being away is how it is played
        table.idle.paused = not adopt and not table.match.finished and not waits
        self._register(table)
        if waits and not adopt:
            table.wake()  # its clock on, and what its bots have to do
        if adopt:
            table.wake()
            table.presence.grace_all()  # as after a restart: grace periods start now
        return table

    async def adopt(self, table_id: str) -> str:
        """Take over ``table_id``, whose owner process died (its lease lapsed), from the
        event log.  Answers ``adopted`` (it is this process's now), ``elsewhere``
        (loaded or loading here, or another process took it first, or no such table)
        or ``cannot-replay`` (its events do not replay: it is marked, closed for good
        and logged once, by :meth:`mark_broken`; do not try it again).  Never raises
        for a table that does not replay.

        Raises:
            sqlalchemy.exc.SQLAlchemyError: the database cannot be read.
        """
        if table_id in self.broken:
            return CANNOT_REPLAY
        if table_id in self.tables or table_id in self.loading:
            return "elsewhere"
        task = self.loading[table_id] = asyncio.get_running_loop().create_task(
            self._load(table_id, adopt=True))
        task.add_done_callback(lambda _t: self.loading.pop(table_id, None))
        table = await asyncio.shield(task)
        if table is not None:
            return "adopted"
        return CANNOT_REPLAY if table_id in self.broken else "elsewhere"

    async def mark_broken(self, table_id: str, exc: Exception) -> None:
        """A stored table whose events do not replay: store why (``tables.broken``) and
        close it for good, so that no process (at start, on request or in a takeover)
        tries it again; logged once, without a traceback.  A failure to store it is
        logged too (it is tried again at the next load)."""
        self.broken.add(table_id)
        if len(self.broken) > 10_000:  # a bound; the database keeps the mark anyway
            self.broken.pop()
        why = f"{type(exc).__name__}: {exc}"[:500]
        log.warning("table %s does not replay (%s): marked, never loaded again",
                    table_id, why)
        assert self.writer is not None
        try:
            await self.writer.run(lambda conn: update_table(
                conn, table_id, broken=why, closed_at=self.clock.time()))
        except Exception as failed:
            log.warning("table %s: could not store that it does not replay (%s)",
                        table_id, failed)

    async def drop(self, table: GameTable, why: str) -> None:
        """Take ``table`` out of memory at once, without storing anything, and close its
        connections with 1012 (clients reconnect, to its next owner): this process
        no longer owns it."""
        if self.tables.get(table.id) is not table:
            return
        del self.tables[table.id]
        await table.stop(reconnect=True)
        log.warning("table %s: dropped by process %s (%s)", table.id, self.cluster.id, why)

    def _fenced(self, table: GameTable) -> None:
        """Another process wrote ``table``'s next event (its owner now, or a stale one):
        drop the table and give up its lease, so that it is loaded again from the log."""
        async def run() -> None:
            await self.drop(table, "another process wrote its next event")
            await self.cluster.release(table.id)
        asyncio.get_running_loop().create_task(run())

    @property
    def process_id(self) -> str:
        """This process's id (``GET /health``, the logs)."""
        return self.cluster.id

    async def unload(self, table: GameTable, why: str) -> bool:
        """Take a paused (``why`` = ``closed``), finished or ``waiting`` (correspondence)
        table out of memory; it stays in the database (:meth:`find` loads it again).
        False, and nothing done, while it still has connections.

        Raises:
            sqlalchemy.exc.SQLAlchemyError, WriterClosedError: not stored.
        """
        assert self.writer is not None
        if table.subscribers or self.tables.get(table.id) is not table:
            return False
        now = self.clock.time()
        if why != "waiting":  # a waiting correspondence table: its events say it all
            values = {"closed_at": now} if why == "closed" else {"finished_at": now}
            await self.writer.run(lambda conn: update_table(conn, table.id, **values))
        if why == "closed":
            table.idle.closed_at = now
        if table.subscribers:  # somebody came while it was being stored
            return False
        del self.tables[table.id]
        await table.stop()
        await self.cluster.release(table.id)
        log.info("table %s left memory (%s)", table.id, why)
        return True

    async def stop(self) -> None:
        """Stop every table's driver, write what is waiting and close the database."""
        if self.sweeper is not None:
            self.sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.sweeper
        self.cluster.halt()
        await self.lag.stop()
        await self.workers.stop()
        if self.heavy is not self.workers:
            await self.heavy.stop()
        for table in list(self.tables.values()):  # unload may remove tables meanwhile
            await table.stop()
        if self.own_bots:
            await self.bots.stop()
        if self.push is not None:
            self.push.close()
        if self.writer is not None:
            await self.writer.stop()
        if self.store is not None:
            await self.cluster.close()
        if self.store is not None:
            self.store.engine.dispose()

    async def create(self, preset: str, players: int | None, seats: list[dict[str, Any]],
                     overrides: dict[str, Any], name: str, holder: str,
                     options: dict[str, Any], *, table_id: str | None = None,
                     claimed: dict[int, tuple[str, str, str, str | None]] | None = None,
                     unsat: bool = False, account: str | None = None,
                     ) -> tuple[GameTable, str, dict[int, str]]:
        """Create a table for the browser identity hashed as ``holder``; return it, the
        creator's seat token and the invite tokens.

        ``table_id``: the new table's id (default: a new random one).  ``claimed``:
        seats already taken when the table is stored, ``{seat: (token hash, holder
        hash, name, account)}`` (each a ``you`` or ``open`` seat; no invite is made for
        it): Find players stores a group's table with everyone seated in one write.
        ``unsat``: a Find players table, counted against ``max_tables`` only once
        someone sits (until then, at most ``max_tables`` such tables).
        ``account``: the creator's account name when signed in (None: a guest).

        Raises:
            ApiError: unknown preset, bad player count, bad seats or house rules
                (400); the server holds ``max_tables`` tables (429).
            sqlalchemy.exc.IntegrityError: a table ``table_id`` is stored already.
        """
        assert self.store is not None
        self._room(unsat)
        try:
            rules = get_rules(preset, overrides)
            n = rules.default_players if players is None else players
            rules.check_player_count(n)
        except PolignacError as exc:
            raise rules_refused(exc) from None
        if len(seats) != n:
            raise ApiError(f"{len(seats)} seats described for {n} players", "bad-seats")
        if [s.get("kind") for s in seats].count("you") != 1:
            raise ApiError("exactly one seat must be yours (kind 'you')", "bad-seats")
        rows: list[SeatRow] = []
        creator = new_token()
        table_id = table_id or secrets.token_urlsafe(9)
        invites: dict[int, str] = {}
        for i, spec in enumerate(seats):
            kind = spec.get("kind")
            if kind == "you":
                rows.append(SeatRow(i, "human", None, name, hash_token(creator), None,
                                    holder_hash=holder, account=account))
            elif kind == "open":
                invite = new_token()
                invites[i] = invite
                rows.append(SeatRow(i, "human", None, default_name("name.guest", n=i + 1), None,
                                    hash_token(invite),
                                    invite_sealed=seal(invite, creator, table_id, i)))
            elif kind == "bot":
                level = spec.get("level", "easy")
                if not isinstance(level, str) or level not in self.config.bot_levels:
                    raise ApiError(f"bot level {level!r}: choose one of "
                                   f"{', '.join(self.config.bot_levels)}", "bad-seats")
                make_bot(level)
                rows.append(SeatRow(i, "bot", level, bot_name(level, i + 1),
                                    None, None))
            else:
                raise ApiError(f"seat {i}: kind must be you, bot or open", "bad-seats")
        for i, (token_hash, seat_holder, seat_name, seat_account) in (claimed or {}).items():
            if not 0 <= i < n or seats[i].get("kind") not in ("you", "open"):
                raise ApiError(f"seat {i}: only a seat of kind you or open is claimed",
                               "bad-seats")
            invites.pop(i, None)
            rows[i] = SeatRow(i, "human", None, seat_name, token_hash, None,
                              holder_hash=seat_holder, account=seat_account)
        you = [s.get("kind") for s in seats].index("you")
        row = TableRow(table_id, preset, rules.overrides_from(PRESETS[preset]),
                       n, secrets.randbelow(n), rows, [], creator_seat=you, options=options)
        table = await self.open_table(row)
        if unsat:
            self.unsat[table.id] = self.clock.monotonic()
        return table, creator, invites

    async def create_guided(self, guide: Guide, name: str, holder: str,
                            account: str | None = None) -> tuple[GameTable, str]:
        """A private table for one newcomer: ``guide``'s prepared deal against its seeded
        bots; return it and the newcomer's seat token (``account``: the newcomer's
        account name when signed in).

        Raises:
            ApiError: the server holds ``max_tables`` tables (429).
        """
        self._room()
        token = new_token()
        rows = [
            SeatRow(s, "human", None, name, hash_token(token), None, holder_hash=holder,
                    account=account)
            if s == guide.you else
            SeatRow(s, "bot", guide.bot_level, bot_name(guide.bot_level, s + 1), None, None)
            for s in range(guide.players)
        ]
        row = TableRow(secrets.token_urlsafe(9), guide.preset, dict(guide.overrides),
                       guide.players, guide.dealer, rows, [], creator_seat=guide.you,
                       options={"guide": guide.id, "private": True, "hints": True})
        return await self.open_table(row), token

    async def open_table(self, row: TableRow) -> GameTable:
        """Check a new table completely (its rules and seats, as a replay would), store
        it, deal its first hands (unless it waits for people to claim its open seats,
        or a cut window is configured: then the driver publishes the commitment and
        deals) and start its driver.

        Raises:
            ApiError: the rules do not make a match (400 ``bad-rules``; nothing stored).
            sqlalchemy.exc.SQLAlchemyError: the table cannot be stored.
        """
        assert self.writer is not None
        cluster = self.cluster

        def store(conn: Any) -> None:
            insert_table(conn, row)
            cluster.claim_new(conn, row.id)  # the new table's lease is this process's

        try:  # every rule checked, as a replay would (Match.new), before anything is stored
            table = GameTable(row, self.writer, self.config)
        except PolignacError as exc:
            raise rules_refused(exc) from None
        await self.writer.run(store)
        table.created_at = row.created_at
        if not cluster.loads_all:
            log.info("table %s: owned by process %s (created here)", row.id, cluster.id)
        self._register(table)
        if self.config.cut_window <= 0:  # else the driver deals once the cuts are in
            await table.deal()
        table.wake()
        table.presence.grace_all()  # a seated person who never comes is replaced by a bot
        return table

    async def rematch(self, old: GameTable, seat: int) -> tuple[GameTable, dict[int, str]]:
        """The rematch of ``old`` (created on first call): same preset, rules, seats.

        People's seats are reserved for them: the seat's invite is the old seat
        token (exchanged by :meth:`claim_rematch_seat`).  Seats nobody had
        claimed get fresh invites, returned (only by the call that creates).
        ``seat``, the caller's, is the new table's creator (who may start it
        before everyone has come back).  Call with ``old.lock`` held.

        Raises:
            ApiError: the match is not over (409).
        """
        assert self.writer is not None
        if old.rematch_id is not None and old.rematch_id in self.tables:
            return self.tables[old.rematch_id], {}
        if not old.match.finished:
            raise ApiError("the match is not over yet", "not-finished", 409)
        self._room()
        rows: list[SeatRow] = []
        invites: dict[int, str] = {}
        for s in old.seats:
            if s.kind == "bot":
                rows.append(SeatRow(s.seat, "bot", s.bot_level, s.name, None, None))
            elif s.token_hash is not None:
                rows.append(SeatRow(s.seat, "human", None, s.name, None, s.token_hash,
                                    holder_hash=s.holder_hash, account=s.account))
            else:
                invites[s.seat] = new_token()
                rows.append(SeatRow(s.seat, "human", None, s.name, None,
                                    hash_token(invites[s.seat])))
        n = len(old.seats)
        row = TableRow(secrets.token_urlsafe(9), old.preset, dict(old.overrides), n,
                       secrets.randbelow(n), rows, [], creator_seat=seat,
                       options={k: v for k, v in old.options.items()
                                if k != "guide"})  # a guided deal is played once
        table = await self.open_table(row)
        await self.writer.run(lambda conn: set_rematch(conn, old.id, table.id))
        old.rematch_id = table.id
        old.broadcast({"type": "rematch", "id": table.id, "url": f"/tables/{table.id}"})
        return table, invites


def hub_of(conn: HTTPConnection) -> Hub:
    """The app's hub (:class:`Hub`)."""
    hub: Hub = conn.app.state.hub
    return hub
