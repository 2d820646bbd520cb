"""Seats changing hands at a table: a person asks for a bot's seat, the creator
approves or refuses, the seat is handed over at a deal boundary; the creator's
Start now fills the open seats with bots.

Requests are bounded: one waiting request per browser identity, at most
``take_per_address`` per client address and ``max_take_requests`` in all per
table, and a refused browser waits ``take_cooldown_seconds`` before asking there
again (the server-wide rate per address and per browser is the route's:
``seat_routes.py:take_seat``).  One :class:`SeatRequests`
per table (``tables.py:GameTable.requests``); every method that changes seats
stores first (nothing changes when storing fails) and is called with the
table's lock held.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from ...bots.registry import make_bot
from ...i18n import bot_name
from ..base.errors import ProtocolError
from ..store.db import update_seat

if TYPE_CHECKING:
    from .tables import GameTable

log = logging.getLogger("polignac.server")
MAX_COOLDOWNS = 10_000
"""Refused requesters remembered per table at most (the oldest are forgotten)."""


class SeatRequests:
    """Requests for ``table``'s bots' seats; use from the event loop only."""

    def __init__(self, table: GameTable) -> None:
        self.table = table
        self.addresses: dict[int, str] = {}
        """The client address of each waiting request made since this process loaded
        the table (a request stored before is counted for no address)."""
        self.cooldown: dict[str, float] = {}
        """A refused browser's identity hash -> epoch seconds until which it may not ask."""

    def holder_seat(self, holder: str) -> int | None:
        """The seat the browser identity hashed as ``holder`` holds here, or None."""
        return next((s.seat for s in self.table.seats if s.kind == "human"
                     and s.holder_hash == holder), None)

    def asked_by(self, holder: str) -> int | None:
        """The bot's seat the browser identity hashed as ``holder`` asked for, or None."""
        return next((s.seat for s in self.table.seats if s.take_hash is not None
                     and s.take_holder == holder), None)

    def waiting(self) -> int:
        """Requests waiting for the creator's answer."""
        return sum(s.take_hash is not None for s in self.table.seats)

    def cooldown_left(self, holder: str) -> float:
        """Seconds before the browser ``holder`` may ask here again (0: now)."""
        return max(0.0, self.cooldown.get(holder, 0.0) - self.table.clock.time())

    def check(self, seat: int, holder: str, address: str) -> None:
        """Whether ``holder`` from ``address`` may ask for bot ``seat`` now.

        Raises:
            ProtocolError: this browser already asked (``already-asked``), not a
                bot's seat (``not-a-bot``), the match is over (``finished``), someone
                already asked for it (``take-pending``), refused a short
                while ago (``take-cooldown``), ``take_per_address`` requests from
                this address or ``max_take_requests`` in all already wait
                (``too-many-requests``).
        """
        table, config = self.table, self.table.config
        row = table.seats[seat]
        if self.asked_by(holder) is not None:
            raise ProtocolError("you already asked for a seat at this table", "already-asked")
        if row.kind != "bot":
            raise ProtocolError("only a bot's seat can be taken", "not-a-bot")
        if table.match.finished:
            raise ProtocolError("the match is over", "finished")
        if row.take_hash is not None:
            raise ProtocolError("someone already asked for this seat", "take-pending")
        left = self.cooldown_left(holder)
        if left > 0:
            raise ProtocolError(f"your last request here was refused; you may ask again in "
                                f"{int(left) + 1} s", "take-cooldown")
        mine = sum(1 for s, a in self.addresses.items()
                   if a == address and table.seats[s].take_hash is not None)
        if mine >= config.take_per_address:
            raise ProtocolError(f"{mine} requests from your address already wait for the "
                                "creator's answer", "too-many-requests")
        waiting = self.waiting()
        if waiting >= config.max_take_requests:
            raise ProtocolError(f"{waiting} requests already wait for the creator's answer; "
                                "try again later", "too-many-requests")

    async def request(self, seat: int, name: str, token_hash: str, holder: str,
                      address: str = "?", account: str | None = None) -> None:
        """A person (browser identity hashed as ``holder``, from client ``address``;
        ``account``: the account name when signed in) asks for bot ``seat``; the
        request waits, stored, for the creator's answer (:meth:`answer`).

        Raises:
            ProtocolError: as :meth:`check`.
            sqlalchemy.exc.SQLAlchemyError, WriterClosedError: not stored
                (nothing changed).
        """
        self.check(seat, holder, address)
        table = self.table
        await table.writer.run(lambda conn: update_seat(
            conn, table.id, seat, take_hash=token_hash, take_name=name, take_holder=holder,
            take_account=account, take_approved=False))
        row = table.seats[seat]
        row.take_hash, row.take_name, row.take_holder = token_hash, name, holder
        row.take_account = account
        row.take_approved = False
        self.addresses[seat] = address
        table.broadcast(table.presence_frame())

    async def answer(self, seat: int, approve: bool) -> bool:
        """The creator's answer to the request for bot ``seat``: refused (the request is
        dropped, its requester cools down), or approved: the seat changes hands now
        between deals (True), else at the end of this deal (False).

        Raises:
            ProtocolError: nobody asked for that seat (``no-request``).
            sqlalchemy.exc.SQLAlchemyError, WriterClosedError: not stored
                (nothing changed).
        """
        table = self.table
        row = table.seats[seat]
        if row.kind != "bot" or row.take_hash is None:
            raise ProtocolError("nobody asked for this seat", "no-request")
        if not approve:
            await table.writer.run(lambda conn: update_seat(
                conn, table.id, seat, take_hash=None, take_name=None, take_holder=None,
                take_approved=False, take_account=None))
            self._cool_down(row.take_holder)
            self.addresses.pop(seat, None)
            row.take_hash = row.take_name = row.take_holder = row.take_account = None
            row.take_approved = False
            table.broadcast(table.presence_frame())
            return False
        if table.match.current is None:
            token_hash, name, holder = row.take_hash, row.take_name or "", row.take_holder
            account = row.take_account
            await table.writer.run(lambda conn: update_seat(
                conn, table.id, seat, kind="human", bot_level=None, name=name,
                token_hash=token_hash, invite_hash=None, holder_hash=holder, take_hash=None,
                take_name=None, take_holder=None, take_approved=False, account=account,
                take_account=None))
            self.hand_over(seat, name, token_hash, holder)
            return True
        await table.writer.run(lambda conn: update_seat(conn, table.id, seat,
                                                        take_approved=True))
        row.take_approved = True
        table.broadcast(table.presence_frame())
        return False

    def _cool_down(self, holder: str | None) -> None:
        until = self.table.clock.time() + self.table.config.take_cooldown_seconds
        if len(self.cooldown) >= MAX_COOLDOWNS:
            now = self.table.clock.time()
            self.cooldown = {k: v for k, v in self.cooldown.items() if v > now}
            while len(self.cooldown) >= MAX_COOLDOWNS:
                del self.cooldown[next(iter(self.cooldown))]
        if holder is not None:
            self.cooldown[holder] = until

    def hand_over(self, seat: int, name: str, token_hash: str, holder: str | None) -> None:
        """Make bot ``seat`` a person's seat (storage is the caller's job); its grace
        starts."""
        table = self.table
        row = table.seats[seat]
        row.kind, row.bot_level, row.name = "human", None, name
        row.token_hash, row.invite_hash, row.holder_hash = token_hash, None, holder
        row.account = row.take_account
        row.take_hash = row.take_name = row.take_holder = row.take_account = None
        row.take_approved = False
        self.addresses.pop(seat, None)
        table.rename(seat, name)
        table.bot_driver.bots.pop(seat, None)
        table.presence.start_grace(seat)
        table.broadcast(table.presence_frame())

    async def grant(self) -> None:
        """At a deal boundary: give each bot's seat whose request the creator approved to
        its requester (or, when the match is over, drop every request)."""
        table = self.table
        finished = table.match.finished
        asked = [s for s in table.seats if s.kind == "bot" and s.take_hash is not None
                 and (finished or s.take_approved)]
        if not asked:
            return

        def store(conn: Any) -> None:
            for s in asked:
                if finished:
                    update_seat(conn, table.id, s.seat, take_hash=None, take_name=None,
                                take_holder=None, take_approved=False, take_account=None)
                else:
                    update_seat(conn, table.id, s.seat, kind="human", bot_level=None,
                                name=s.take_name, token_hash=s.take_hash, invite_hash=None,
                                holder_hash=s.take_holder, take_hash=None, take_name=None,
                                take_holder=None, take_approved=False,
                                account=s.take_account, take_account=None)

        try:
            await table.writer.run(store)
        except Exception:  # the requests stay queued for the next boundary
            log.exception("table %s: could not hand seats over", table.id)
            return
        for s in asked:
            if finished:
                s.take_hash = s.take_name = s.take_holder = s.take_account = None
                s.take_approved = False
                self.addresses.pop(s.seat, None)
            else:
                assert s.take_hash is not None and s.take_name is not None
                self.hand_over(s.seat, s.take_name, s.take_hash, s.take_holder)
        table.broadcast(table.presence_frame())

    async def start_now(self, level: str) -> None:
        """The creator starts a waiting table: bots of ``level`` take the open seats,
        then the first deal comes.  The caller wakes the table.

        Raises:
            ProtocolError: the table is not waiting for people (``not-waiting``).
            sqlalchemy.exc.SQLAlchemyError, WriterClosedError: not stored
                (nothing changed).
        """
        table = self.table
        if not table.waiting_for_people():
            raise ProtocolError("the table is not waiting for people", "not-waiting")
        fill = table.open_seats()
        names = {seat: bot_name(level, seat + 1) for seat in fill}

        def store(conn: Any) -> None:
            for seat in fill:
                update_seat(conn, table.id, seat, kind="bot", bot_level=level,
                            name=names[seat], token_hash=None, invite_hash=None,
                            invite_sealed=None)

        await table.writer.run(store)
        for seat in fill:
            row = table.seats[seat]
            row.kind, row.bot_level, row.name = "bot", level, names[seat]
            row.token_hash = row.invite_hash = row.invite_sealed = None
            table.bot_driver.bots[seat] = make_bot(level)
            table.rename(seat, names[seat])
        table.broadcast(table.presence_frame())
