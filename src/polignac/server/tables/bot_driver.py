"""A table's driver: the task that deals when a deal is due and plays the bots' turns
(a bot's own seat, or a stand-in for an absent person).

A move is a job for the hub's bot backend (``botmoves.py``), seeded so that a
move computed again is the same; the bot thinks during its delay.  One
:class:`BotDriver` per table (``tables.py:GameTable.driver``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from typing import TYPE_CHECKING, Any

from ...bots.base import SeatView
from ...bots.registry import make_bot
from ...bots.runner import move_for, move_seed
from ...core import action_name
from ..base.config import ServerConfig
from ..base.errors import ProtocolError
from ..jobs.botmoves import BotBackend, BotJob
from ..store.db import EventRow

if TYPE_CHECKING:
    from .tables import GameTable

log = logging.getLogger("polignac.server")


def bot_wait(config: ServerConfig, last: dict[str, Any] | None) -> float:
    """Seconds a bot waits before acting after the public event ``last`` (None: none yet):
    ``bot_delay``, plus ``trick_pause`` when ``last`` completed a trick of a deal that
    goes on (a finished deal waits ``deal_delay`` instead)."""
    if last is not None and "trick" in last and not last.get("deal_over"):
        return config.bot_delay + config.trick_pause
    return config.bot_delay


class BotDriver:
    """The driver of ``table``; use from the event loop only."""

    def __init__(self, table: GameTable) -> None:
        self.table = table
        self.bots = {s.seat: make_bot(s.bot_level or "random")
                     for s in table.seats if s.kind == "bot"}
        """The bot of each bot's seat."""
        # Each bot move's random generator is seeded from this, the deal number and
        # the action's index (bots.runner.move_seed): a move computed again is the same.
        self.bot_seed: int = (secrets.randbits(64) if table.guide is None
                              else table.guide.bot_seed)
        self.backend: BotBackend | None = None
        """Where bot moves are computed (the hub's); None: a thread."""
        self.task: asyncio.Task[None] | None = None

    def bot_for(self, seat: int) -> Any:
        """The bot that plays ``seat`` now (its own, or a stand-in), or None."""
        if seat in self.bots:
            return self.bots[seat]
        presence = self.table.presence
        if seat in presence.standing_in:
            return presence.standins[seat]
        return None

    def spec_for(self, seat: int) -> str:
        """The level spec of the bot that plays ``seat`` now (see :meth:`bot_for`)."""
        if seat in self.bots:
            return self.table.seats[seat].bot_level or "random"
        return self.table.config.standin_level

    def due(self) -> str | None:
        """What the driver has to do now: ``deal``, ``bot`` (a bot's turn) or None."""
        table = self.table
        m = table.match
        if m.finished or table.idle.paused:
            return None
        if m.needs_deal:
            return None if table.waiting_for_people() else "deal"
        seat = m.to_act()
        if seat is not None and self.bot_for(seat) is not None:
            return "bot"
        return None

    def wake(self) -> None:
        """Start the driver if a bot or the dealer has something to do."""
        if self.due() and (self.task is None or self.task.done()):
            self.task = asyncio.get_running_loop().create_task(self._drive())

    async def _drive(self) -> None:
        table = self.table
        try:
            while (due := self.due()) is not None:
                if due == "deal":
                    await table.cuts.wait()
                    await table.deal()
                    continue
                await self._bot_turn()
        except asyncio.CancelledError:
            raise
        except ProtocolError as exc:  # table-moved: the hub drops the table
            log.info("table %s: driver stopped (%s)", table.id, exc)
        except Exception:  # a driver must never die silently
            log.exception("table %s: driver failed", table.id)

    async def _bot_turn(self) -> None:
        table = self.table
        match, seq = table.match, table.seq
        seat = match.to_act()
        bot = None if seat is None else self.bot_for(seat)
        if seat is None or bot is None:
            return
        deal = match.current
        assert deal is not None  # a bot is to act
        job = BotJob(self.spec_for(seat), SeatView.of(deal, deal.to_act, match),
                     move_seed(self.bot_seed, len(match.results) + 1, len(deal.history)),
                     table.id)
        if self.backend is not None:
            choose = self.backend.choose(job)
        else:  # a table outside a hub (no workers): a thread
            choose = asyncio.to_thread(move_for, job.spec, job.view, job.seed)
        # The bot thinks during its delay: it keeps its pace whatever its level
        # (a move that takes longer than bot_delay comes when it is ready).
        last = table.public[-1] if table.public else None  # after a trick: trick_pause too
        action, _ = await asyncio.gather(choose, table.clock.sleep(bot_wait(table.config, last)))
        async with table.lock:
            if table.seq != seq or self.bot_for(seat) is not bot or table.idle.paused:
                return
            after = table.match.apply(action, seat)
            await table.commit(EventRow(table.seq + 1, "act", action_name(action), seat, None,
                                        table.clock.time()), after)

    async def stop(self) -> None:
        """Cancel the driver and wait for it to end."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
