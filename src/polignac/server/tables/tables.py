"""One serialized owner per table: the match, its numbered events, its connections.

Every change to a table goes through its :class:`GameTable` under its lock:
an action is checked by the rules core, committed to the event log, applied in
memory and only then announced, numbered, to every connection, each of which
receives only what its seat may see (``frames.py``).  The table keeps the lock,
the event log and the commit, and delegates each other job to a collaborator of
its own: who is here and the grace periods (``presence.py:Presence``), requests
for seats (``seat_requests.py:SeatRequests``), the cut window
(``cut_window.py:CutWindow``), the bots and the dealer
(``bot_driver.py:BotDriver``), pause and idle (``idle.py:Idle``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.exc import IntegrityError

from ...core import (
    IllegalActionError,
    Match,
    action_name,
    get_rules,
    parse_action,
    parse_card,
)
from ...core.visibility import seat_error
from ..base.config import ServerConfig
from ..base.errors import ProtocolError
from ..players import results
from ..store.db import EventRow, SeatRow, TableRow
from ..store.writer import Op, Writer
from . import frames, notices
from .bot_driver import BotDriver, bot_wait
from .cut_window import CutWindow, PendingDeal
from .guide import Guide, guide_of
from .idle import Idle
from .presence import Presence
from .quick_messages import QuickMessages
from .seat_clocks import SeatClocks
from .seat_requests import SeatRequests

__all__ = ["Frame", "GameTable", "PendingDeal", "ProtocolError", "Subscriber", "TableFactory",
           "bot_wait", "replay_events"]
log = logging.getLogger("polignac.server")


Frame = dict[str, Any] | str | None
"""What a connection's queue holds: a frame, a frame already encoded as JSON, or
None (close the connection)."""


Deaf = Callable[["Subscriber"], bool]
"""Which connections (by seat; None: a spectator) a broadcast leaves out."""


@dataclass(eq=False)
class Subscriber:
    """One WebSocket connection to a table, for one seat (None: a spectator).

    Frames go through ``queue``.
    """

    seat: int | None
    queue: asyncio.Queue[Frame] = field(default_factory=asyncio.Queue)
    dropped: bool = False
    account: str | None = None
    """A spectator's signed-in account (its username; a seat's is on the seat)."""


def replay_events(rules_preset: str, overrides: dict[str, Any], n: int, first_dealer: int,
                  names: list[str], events: list[EventRow]) -> Match:
    """Rebuild a match from its stored events.

    Raises:
        PolignacError: an event does not replay (the log is corrupt).
    """
    match = Match.new(get_rules(rules_preset, overrides), n, first_dealer, names)
    for ev in events:
        match = _apply_event(match, ev)
    return match


def _apply_event(match: Match, ev: EventRow) -> Match:
    if ev.kind == "deal":
        assert ev.data is not None  # written by GameTable.deal
        hands = [[parse_card(c) for c in hand] for hand in ev.data["hands"]]
        up = ev.data.get("turn_up")
        return match.start_deal(hands, None if up is None else parse_card(up))
    return match.apply(parse_action(ev.action), ev.seat)


def _both(first: Op | None, second: Op) -> Op:
    """One write that runs ``first`` (if any), then ``second``."""
    if first is None:
        return second

    def op(conn: Any) -> None:
        first(conn)
        second(conn)
    return op


class GameTable:
    """The owner of one table.  Use its coroutines from the event loop only."""

    def __init__(self, row: TableRow, writer: Writer, config: ServerConfig) -> None:
        """Rebuild the table from its stored row; ``writer`` commits its events.

        Raises:
            PolignacError: the stored events do not replay.
        """
        self.id = row.id
        self.preset = row.preset
        self.overrides = row.overrides
        self.seats: list[SeatRow] = row.seats
        self.writer = writer
        self.config = config
        self.clock = config.clock
        """The server's one clock (``base/clock.py``): every wait of the table is on it."""
        self.creator_seat = row.creator_seat
        self.options: dict[str, Any] = dict(row.options)
        self.rematch_id = row.rematch_id
        self.rating_changes: dict[int, dict[str, Any]] = {}
        self.created_at = row.created_at
        names = [s.name for s in self.seats]
        self.match = replay_events(row.preset, row.overrides, row.num_players,
                                   row.first_dealer, names, row.events)
        self.events: list[EventRow] = list(row.events)
        self.public: list[dict[str, Any]] = []
        self.lock = asyncio.Lock()
        self.subscribers: set[Subscriber] = set()
        self.guide: Guide | None = guide_of(row.options)  # the prepared deal, seeded bots
        # The collaborators, each owning one job (see the module's docstring).
        self.presence = Presence(self)
        self.seat_clocks = SeatClocks(self)
        m = Match.new(self.match.rules, row.num_players, row.first_dealer, names)
        for i, ev in enumerate(self.events):
            after = _apply_event(m, ev)
            self.public.append(frames.public_event(self.events[:i + 1], m, after, ev))
            self.seat_clocks.follow(after, ev)
            m = after
        self.seat_clocks.restore()
        self.idle = Idle(self, row.closed_at)
        self.cuts = CutWindow(self)
        self.cuts.restore(row.refused)
        self.requests = SeatRequests(self)
        self.bot_driver = BotDriver(self)
        self.quick = QuickMessages()  # the seats' quick messages (never stored)
        # Another process wrote this table's next event (several processes): the hub
        # drops the table (``Hub._fenced``); notices for people away (``notices.py``).
        self.on_fenced: Callable[[GameTable], None] | None = None
        self.on_notice: Callable[[GameTable, str, list[int]], None] = notices.ignore

    # ------------------------------------------------------------- facts

    @property
    def private(self) -> bool:
        """A private table: not in the public list, and nobody may ask for a seat."""
        return bool(self.options.get("private", False))

    @property
    def hints(self) -> bool:
        """Hints allowed (``hint_routes.py``): the creator's choice (options), else when no
        seat but the creator's is a person's; never where the exact solver, whose answer a
        hint is, does not model the family (``Family.exact_solver``)."""
        if not self.match.rules.family.exact_solver:
            return False
        chosen = self.options.get("hints")
        if isinstance(chosen, bool):
            return chosen
        return all(s.kind == "bot" for s in self.seats if s.seat != self.creator_seat)

    @property
    def paused(self) -> bool:
        """Nobody is at the table (``idle.py:Idle.paused``)."""
        return self.idle.paused

    @paused.setter
    def paused(self, value: bool) -> None:
        self.idle.paused = value

    @property
    def driver(self) -> asyncio.Task[None] | None:
        """The driver's task (``bot_driver.py:BotDriver.task``), None before it first ran."""
        return self.bot_driver.task

    @property
    def pending(self) -> PendingDeal | None:
        """The next deal's open cut window (``cut_window.py:CutWindow.pending``)."""
        return self.cuts.pending

    @property
    def bot_seed(self) -> int:
        """The seed of the bots' moves (``bot_driver.py:BotDriver.bot_seed``)."""
        return self.bot_driver.bot_seed

    @property
    def seq(self) -> int:
        """Number of the last event (0: none yet)."""
        return len(self.events)

    def status(self) -> str:
        """``waiting`` (for people, before the first deal), ``playing`` (a deal is in
        progress), ``between-deals`` or ``finished``."""
        if self.match.finished:
            return "finished"
        if self.waiting_for_people():
            return "waiting"
        return "playing" if self.match.current is not None else "between-deals"

    def open_seats(self) -> list[int]:
        """People's seats nobody has claimed yet."""
        return [s.seat for s in self.seats if s.kind == "human" and s.token_hash is None]

    def waiting_for_people(self) -> bool:
        """True before the first deal while a seat is open (see ``SeatRequests.start_now``)."""
        return not self.events and bool(self.open_seats())

    def info(self) -> dict[str, Any]:
        """Public facts about the table (``frames.py:info``)."""
        return frames.info(self)

    def presence_frame(self) -> dict[str, Any]:
        """The ``presence`` frame (the same for every receiver)."""
        return self.presence.frame()

    def catch_up(self, seat: int | None, last_seq: int) -> list[dict[str, Any]]:
        """What a client that saw event ``last_seq`` needs (``frames.py:catch_up``)."""
        return frames.catch_up(self, seat, last_seq)


    # ------------------------------------------------------------ acting

    async def act(self, seat: int, text: str, seq: int | None) -> None:
        """Apply ``seat``'s action, commit it, announce it.

        Raises:
            ProtocolError: stale ``seq``, or the action is unknown or illegal
                (``rule`` says which rule); nothing changed.
        """
        async with self.lock:
            if seq is not None and seq != self.seq:
                raise ProtocolError(f"stale state: you saw event {seq}, the table is at "
                                    f"{self.seq}", "stale-seq")
            if self.seats[seat].left_at is not None:
                raise ProtocolError("a bot plays this seat: your time ran out or you left "
                                    "(at a casual table, take your seat back first)",
                                    "seat-left")
            try:
                action = parse_action(text)
                after = self.match.apply(action, seat)
            except IllegalActionError as exc:  # as this seat may read it
                refused = seat_error(exc, seat)
                raise ProtocolError(refused.message, refused.rule) from None
            await self.commit(EventRow(self.seq + 1, "act", action_name(action), seat, None,
                                       self.clock.time()), after)
        self.wake()

    async def deal(self) -> None:
        """Deal the next hands, if a deal is due, from the committed seed and the cuts
        (a guided table's first deal: the guide's prepared hands, no shuffle).

        The pack order follows from the secret seed of the cut window
        (``CutWindow.close``: a fresh one if none is pending) and the cuts received,
        by :mod:`polignac.core.shuffle`.  The event stores the seed (revealed to
        clients only when the deal ends); the same transaction appends the deal's
        commitment to the commitment log (``commitments.py:append_op``), whose entry
        the event carries as ``shuffle.log`` to every seat and spectator.  Nothing
        happens while the table waits for people (:meth:`waiting_for_people`) or is
        paused.

        Raises:
            sqlalchemy.exc.SQLAlchemyError, WriterClosedError: the deal was not
                committed (nothing changed; the pending seed is dropped).
        """
        async with self.lock:
            if not self.match.needs_deal or self.waiting_for_people() or self.paused:
                return
            after, data, op = self.cuts.deal_from_window(self.match)
            await self.commit(EventRow(self.seq + 1, "deal", "deal", None, data,
                                       self.clock.time()), after, op)

    async def commit(self, ev: EventRow, after: Match, op: Op | None = None) -> None:
        """Commit ``ev`` (group commit: see ``writer.py``) with ``op`` (a write of the
        same transaction, run before the event is stored), then apply and announce it.

        Call with the lock held.  Each seat's frame is built and encoded once,
        however many connections that seat (or the spectators) has, and the part of
        the views every seat sees once for all of them (``Match.views``).

        Raises:
            ProtocolError: another process wrote that event number (``table-moved``).
            sqlalchemy.exc.SQLAlchemyError, WriterClosedError: not stored
                (nothing changed).
        """
        finish = None
        if after.finished and not self.match.finished:
            # a match's result (and rating) is stored with its last event
            finish = results.finish_of(self.id, self.preset, self.options, self.seats,
                                       after, self.seat_clocks.abandoned())
            op = _both(op, finish.op)
        try:
            await self.writer.append(self.id, ev, op)
        except IntegrityError:  # that number is taken: another process owns the table
            if self.on_fenced is not None:
                self.on_fenced(self)
            raise ProtocolError("this table moved to another server process: reconnect",
                                "table-moved") from None
        before = self.match
        self.match = after
        if finish is not None:  # each rated seat's rating, before and after
            self.rating_changes = finish.changes
        self.events.append(ev)
        self.public.append(frames.public_event(self.events, before, after, ev))
        was = self.seat_clocks.follow(after, ev)
        self.seat_clocks.schedule()
        for kind, seats in notices.after(self, ev, was):
            self.on_notice(self, kind, seats)
        index = len(self.events) - 1
        encoded: dict[int | None, str] = {}
        subscribers = list(self.subscribers)
        views = after.views(sub.seat for sub in subscribers)  # the public part once
        for sub in subscribers:
            text = encoded.get(sub.seat)
            if text is None:
                text = encoded[sub.seat] = json.dumps(
                    frames.event_frame(self, index, sub.seat, with_view=True,
                                       view=views[sub.seat]),
                    ensure_ascii=False)
            self._send(sub, text)
        if self.seat_clocks.clocks is not None:  # every seat sees the clocks move
            self.broadcast(self.presence_frame())
        if after.current is None:  # a deal boundary: seats people asked for change hands
            await self.requests.grant()
        if after.finished and not before.finished:
            if self.rating_changes:
                self.broadcast(frames.ratings_frame(self))
            self.idle.settle()

    # ------------------------------------------------------- connections

    def _send(self, sub: Subscriber, frame: Frame) -> None:
        if sub.dropped:
            return
        if sub.queue.qsize() > 500:  # a client that does not read: drop it (its
            sub.dropped = True       # handler then unsubscribes it)
            sub.queue.put_nowait(None)
            return
        sub.queue.put_nowait(frame)

    def subscribe(self, seat: int | None, queue: asyncio.Queue[Frame]) -> Subscriber:
        """Register a connection for ``seat`` (None: a spectator) whose frames go to ``queue``.

        A person's connection ends any grace period or stand-in bot for the
        seat.  The caller then broadcasts a ``presence`` frame.
        """
        sub = Subscriber(seat, queue)
        self.subscribers.add(sub)
        if seat is not None and self.seats[seat].kind == "human":
            self.presence.came(seat)
            self.idle.resume()
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        """Forget a connection; a person's last one starts the seat's grace period."""
        if sub not in self.subscribers:
            return
        self.subscribers.discard(sub)
        if sub.seat is not None and self.seats[sub.seat].kind == "human":
            self.presence.left(sub.seat)
        self.broadcast(self.presence_frame())

    def broadcast(self, frame: dict[str, Any], deaf: Deaf | None = None) -> None:
        """Send the same public ``frame`` to every connection but those ``deaf(sub)``."""
        for sub in [s for s in self.subscribers if deaf is None or not deaf(s)]:
            self._send(sub, frame)

    def rename(self, seat: int, name: str) -> None:
        """The match's name for ``seat`` (as a restart, which replays with the seats'
        names, would have it)."""
        names = list(self.match.names)
        names[seat] = name
        self.match = dataclasses.replace(self.match, names=tuple(names))

    def wake(self) -> None:
        """Start the driver if a bot or the dealer has something to do, and the clock of
        the person to act, if any."""
        self.seat_clocks.restart()
        self.bot_driver.wake()

    async def stop(self, reconnect: bool = False) -> None:
        """Cancel the driver and the timers, and close every connection (with 1012
        when ``reconnect``: the table moved to another process)."""
        self.presence.stop()
        self.seat_clocks.stop()
        self.idle.cancel()
        await self.bot_driver.stop()
        for sub in list(self.subscribers):
            if reconnect:
                sub.queue.close_code = 1012  # type: ignore[attr-defined]
            sub.queue.put_nowait(None)


TableFactory = Callable[[TableRow], GameTable]
