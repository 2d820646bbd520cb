"""Who is at a table: open connections per person's seat, grace periods, stand-ins.

A person whose last connection closes has ``grace_seconds`` to come back;
after that a stand-in bot plays for them (or, when no person is left at all,
the table pauses: ``idle.py``).  One :class:`Presence` per table
(``tables.py:GameTable.presence``).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from ...bots.registry import make_bot
from ...i18n import name_fields
from ..store.db import person_fields

if TYPE_CHECKING:
    from .tables import GameTable


class Presence:
    """The presence of people at ``table``; use from the event loop only."""

    def __init__(self, table: GameTable) -> None:
        self.table = table
        self.connections: dict[int, int] = {}
        """Open connections per person's seat."""
        self.grace_until: dict[int, float] = {}
        """Epoch seconds at which an absent person's grace period ends."""
        self.standing_in: set[int] = set()
        """People's seats a stand-in bot plays for now."""
        self.standins: dict[int, Any] = {}
        """The stand-in bot of each seat that ever had one (kept for its next turn)."""
        self.grace_tasks: dict[int, asyncio.Task[None]] = {}

    def people_connected(self) -> bool:
        """True when at least one seated person has a connection."""
        return any(n > 0 for n in self.connections.values())

    def seats(self) -> list[dict[str, Any]]:
        """Per seat: connected or not, grace deadline, bot playing or not, a request."""
        out = []
        for s in self.table.seats:
            bot = s.kind == "bot"
            until = self.grace_until.get(s.seat)
            out.append({
                "seat": s.seat, "name": s.name, **name_fields(s.name, s.seat, s.bot_level),
                **person_fields(s), "kind": s.kind, "open": not bot and s.token_hash is None,
                "connected": bot or self.connections.get(s.seat, 0) > 0,
                "grace_until": None if until is None else int(until * 1000),
                "bot_playing": bot or s.seat in self.standing_in,
                "take_pending": bot and s.take_hash is not None,
                "take_name": s.take_name if bot and s.take_hash is not None else None,
                "take_approved": bot and s.take_hash is not None and s.take_approved,
                "left": s.left_at is not None,
                "may_come_back": self.table.seat_clocks.may_come_back(s.seat),
            })
        return out

    def frame(self) -> dict[str, Any]:
        """The ``presence`` frame (the same for every receiver)."""
        return {"type": "presence", "seats": self.seats(), "paused": self.table.idle.paused,
                "clocks": self.table.seat_clocks.view()}

    def came(self, seat: int) -> None:
        """A connection for person's ``seat`` opened: no grace period, no stand-in."""
        self.connections[seat] = self.connections.get(seat, 0) + 1
        self.end_grace(seat)
        if self.table.seats[seat].left_at is None:  # a left seat is taken back, or never
            self.standing_in.discard(seat)
            self.table.seat_clocks.restart()

    def left(self, seat: int) -> None:
        """A connection for person's ``seat`` closed; the last one starts its grace."""
        self.connections[seat] = max(0, self.connections.get(seat, 0) - 1)
        if self.connections[seat] == 0:
            self.start_grace(seat)

    def start_grace(self, seat: int) -> None:
        """Give an absent person ``grace_seconds``, after which a bot plays for them.

        Nothing happens for a seat nobody has claimed yet, once the match is over, or at
        a correspondence table (days a move), where only the seat's clock counts.
        """
        table = self.table
        row = table.seats[seat]
        if (table.match.finished or row.kind != "human" or row.token_hash is None
                or seat in self.standing_in or self.connections.get(seat, 0) > 0):
            return
        control = table.seat_clocks.control
        if control is not None and control.correspondence:
            return  # days a move: being away is how it is played; only the clock counts
        self.end_grace(seat)
        grace = table.config.grace_seconds
        self.grace_until[seat] = table.clock.time() + grace
        self.grace_tasks[seat] = asyncio.get_running_loop().create_task(
            self._grace_timer(seat, grace))

    def end_grace(self, seat: int) -> None:
        """Cancel ``seat``'s grace period, if any."""
        self.grace_until.pop(seat, None)
        task = self.grace_tasks.pop(seat, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def grace_all(self) -> None:
        """Start the grace period of every absent person not stood in for (after a
        restart, a takeover, or a pause)."""
        for s in self.table.seats:
            if s.kind == "human" and s.seat not in self.standing_in:
                self.start_grace(s.seat)

    async def _grace_timer(self, seat: int, grace: float) -> None:
        await self.table.clock.sleep(grace)
        self.grace_tasks.pop(seat, None)
        self.grace_until.pop(seat, None)
        table = self.table
        if self.connections.get(seat, 0) > 0 or table.seats[seat].kind != "human":
            return
        if not self.people_connected() and not table.options.get("tournament"):
            table.idle.pause()  # nobody left to play with: pause, no stand-in
            return  # (an arena's match plays on: its standings wait for its end)
        if table.seat_clocks.rated and table.events and not table.match.finished:
            await table.seat_clocks.leave(seat)  # gone from a rated match: placed last
            return
        self.stand_in(seat)
        table.seat_clocks.restart()
        table.broadcast(self.frame())
        table.wake()

    def level(self) -> str:
        """The level of a stand-in: the table's bots' (the first bot seat's), else the
        server's ``standin_level``."""
        for s in self.table.seats:
            if s.kind == "bot" and s.bot_level:
                return s.bot_level
        return self.table.config.standin_level

    def stand_in(self, seat: int) -> None:
        """A bot of the table's level plays ``seat`` from now on."""
        self.end_grace(seat)
        self.standing_in.add(seat)
        if seat not in self.standins:
            self.standins[seat] = make_bot(self.level())

    def stop(self) -> None:
        """Cancel every grace timer."""
        for task in list(self.grace_tasks.values()):
            task.cancel()
        self.grace_tasks.clear()
