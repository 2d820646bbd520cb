"""A timed table's clocks (``core/timecontrol.py``): whose clock runs, its deadline on
the server's one clock, and what happens when it is reached.

The clocks are a function of the stored events: each event keeps the time it was
committed (``EventRow.at``), so :meth:`SeatClocks.follow`, called for every event at
load and after every commit, rebuilds them after a restart or on another process.
Only a seated person's move runs a clock; bots (and stand-ins) move on nobody's time,
and nothing runs between deals.

When a person's time runs out, or a person leaves a rated table and does not come
back within the grace (``presence.py``), the seat is *left*: ``seats.left_at`` is
stored, a stand-in bot of the table's level plays on, and at a rated table the
person is placed last when the match ends (``players/results.py:finish_of``) and
cannot come back into it.  At a casual table they may come back
(:meth:`SeatClocks.back`): their seat is theirs again, with the time of one move.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from ...core import Match
from ...core.timecontrol import Clocks, TimeControl
from ..base.clock import Timer
from ..players import conduct
from ..store.db import EventRow, update_seat, update_table

if TYPE_CHECKING:
    from .tables import GameTable

log = logging.getLogger("polignac.server")


class SeatClocks:
    """The clocks of ``table`` (``clocks`` is None at an untimed table)."""

    def __init__(self, table: GameTable) -> None:
        self.table = table
        control = TimeControl.parse(table.options.get("time_control"))
        self.clocks: Clocks | None = (None if control is None
                                      else Clocks.new(control, len(table.seats)))
        self.timer: Timer | None = None
        self.expiring: asyncio.Task[None] | None = None
        self.stored_turn: tuple[int | None, float | None] | None = None
        self.storing: asyncio.Task[None] | None = None

    @property
    def control(self) -> TimeControl | None:
        """The table's time control (None: untimed)."""
        return None if self.clocks is None else self.clocks.control

    @property
    def rated(self) -> bool:
        return bool(self.table.options.get("rated"))

    def left(self) -> set[int]:
        """The seats whose person ran out of time or left for good."""
        return {s.seat for s in self.table.seats if s.left_at is not None}

    def abandoned(self) -> set[int]:
        """The seats placed last at the end: left seats of a rated table."""
        return self.left() if self.rated else set()

    def _runs_for(self, seat: int) -> bool:
        row = self.table.seats[seat]
        return (row.kind == "human" and row.left_at is None
                and seat not in self.table.presence.standing_in)

    def past(self, after: Match, ev: EventRow) -> Clocks | None:
        """The clocks past ``ev`` (committed at ``ev.at``), ``after`` being the match it
        led to: the mover's clock stopped (with its increment), and the next person to
        act's started.  Nothing changes here (:meth:`follow` keeps them)."""
        if self.clocks is None or ev.at is None:
            return self.clocks
        moved = ev.kind == "act" and self.clocks.running == ev.seat
        clocks = self.clocks.stop(ev.at, moved=moved)
        who = after.to_act() if after.current is not None and not after.finished else None
        if who is not None and self._runs_for(who):
            clocks = clocks.start(who, ev.at)
        return clocks

    def follow(self, after: Match, ev: EventRow) -> int | None:
        """Keep the clocks past ``ev`` (:meth:`past`); return whose clock ran before."""
        was = self.clocks.running if self.clocks is not None else None
        self.clocks = self.past(after, ev)
        return was

    def restore(self) -> None:
        """After the replay at load: the seats stored as left are flagged, and a stand-in
        plays each of them again."""
        for s in self.table.seats:
            if s.left_at is not None:
                self.table.presence.stand_in(s.seat)
                if self.clocks is not None:
                    self.clocks = self.clocks.flag(s.seat, s.left_at)

    def restart(self) -> None:
        """Start the clock of the person to act now (after a stand-in left their seat,
        or a person came back), unless one runs already; then :meth:`schedule`."""
        if self.clocks is None:
            return
        match = self.table.match
        who = match.to_act() if match.current is not None and not match.finished else None
        if self.clocks.running is None and who is not None and self._runs_for(who):
            self.clocks = self.clocks.start(who, self.table.clock.time())
        elif self.clocks.running is not None and not self._runs_for(self.clocks.running):
            self.clocks = self.clocks.stop(self.table.clock.time())
        self.schedule()

    def schedule(self) -> None:
        """Set the one timer at the running clock's deadline (none when none runs), and
        store whose clock runs and until when when that changed (``tables.to_move``,
        ``tables.deadline``: what the "Your turn" lists read; derived from the events,
        so it is written again after a restart)."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.clocks is None:
            return
        deadline = self.clocks.deadline()
        turn = (self.clocks.running, deadline)
        if turn != self.stored_turn:
            self.stored_turn = turn
            self.storing = asyncio.get_running_loop().create_task(self._store_turn(*turn))
            if self.clocks.control.correspondence:  # a person's move may take days
                self.table.idle.settle()
        if deadline is None:
            return
        clock = self.table.clock
        self.timer = clock.call_later(max(0.0, deadline - clock.time()), self._expire)

    async def _store_turn(self, to_move: int | None, deadline: float | None) -> None:
        table = self.table
        try:
            await table.writer.run(lambda conn: update_table(conn, table.id, to_move=to_move,
                                                             deadline=deadline))
        except Exception:  # an index of the events: written again at the next change
            self.stored_turn = None
            log.exception("table %s: could not store whose turn it is", table.id)

    def _expire(self) -> None:
        self.timer = None
        self.expiring = asyncio.get_running_loop().create_task(self.time_out())

    async def time_out(self) -> None:
        """The running clock reached zero: the seat is left (see the module)."""
        table = self.table
        async with table.lock:
            clocks = self.clocks
            if clocks is None or clocks.running is None:
                return
            deadline = clocks.deadline()
            now = table.clock.time()
            if deadline is None:
                return
            if now < deadline:  # moved meanwhile (a new timer runs), or this timer came
                if self.timer is None:  # early on the wall clock (it is set on the
                    self.schedule()  # monotonic one): set again for what is left
                return
            await self._leave(clocks.running, deadline, "time")  # when it ran out
        table.wake()

    async def leave(self, seat: int) -> None:
        """A person left a rated table in play and did not come back in time: their
        seat is left as if their time had run out (see the module)."""
        table = self.table
        async with table.lock:
            if (table.seats[seat].left_at is not None or table.match.finished
                    or not table.events):
                return
            await self._leave(seat, table.clock.time(), "gone")
        table.wake()

    async def _leave(self, seat: int, now: float, why: str) -> None:
        table = self.table
        holder = table.seats[seat].holder_hash if self.rated else None

        def store(conn: Any) -> None:
            update_seat(conn, table.id, seat, left_at=now)
            conduct.record(conn, holder, table.id, now)  # a rated match left: play bans
        await table.writer.run(store)
        table.seats[seat].left_at = now
        if self.clocks is not None:
            self.clocks = self.clocks.flag(seat, now)
        log.info("table %s: seat %d left (%s)", table.id, seat, why)
        table.presence.stand_in(seat)
        self.schedule()
        table.broadcast(table.presence_frame())

    def may_come_back(self, seat: int) -> bool:
        """A left seat's person may take it back: only at a casual table, in play."""
        return (self.table.seats[seat].left_at is not None and not self.rated
                and not self.table.match.finished)

    async def back(self, seat: int) -> bool:
        """The person of a left seat of a casual table takes it back (with the time
        of one move); False when they may not (a rated table, or not left)."""
        table = self.table
        async with table.lock:
            if not self.may_come_back(seat):
                return False
            await table.writer.run(lambda conn: update_seat(conn, table.id, seat,
                                                            left_at=None))
            table.seats[seat].left_at = None
            if self.clocks is not None:
                self.clocks = self.clocks.unflag(seat)
            table.presence.standing_in.discard(seat)
            self.restart()
            table.broadcast(table.presence_frame())
        table.wake()
        return True

    def view(self) -> dict[str, Any] | None:
        """The clocks as every seat sees them (None: untimed)."""
        if self.clocks is None:
            return None
        return self.clocks.view(self.table.clock.time())

    def stop(self) -> None:
        """Cancel the timer (the table leaves memory or this process)."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.expiring is not None and not self.expiring.done():
            self.expiring.cancel()
